"""How honest the lookup is, over the labelled set (tests/fixtures/lookup_cases.yml).

    python benchmarks/lookup_quality.py              # the real 附录A, then 10,000 synthetic rows added
    python benchmarks/lookup_quality.py --sizes 0    # the real page only

Prints, for each page size:
- covered top-1: a covered row's real last line (or traceback) is `literal` or `match` and its
  first entry is that row (goal 100%);
- near-miss top-1: the reader's own names, shapes and numbers: `match` on the row (goal 100%);
- uncovered marked: real errors the page has no row for, said `weak` or `none` (goal ≥ 95%);
- helpful in top 3: for uncovered errors with a row that would fix them, that row is among the
  first three suggestions.
It applies pytorch_error_lookup.rule, the rule the page applies too (test_find_verdict.py holds
the two sides equal on this same set).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT / "hooks"), str(HERE)]

from pytorch_error_lookup.lookup import Lookup  # noqa: E402
from pytorch_error_lookup.rule import LITERAL, MATCH, NONE, WEAK  # noqa: E402
from refsite.lookup_data import lookup_data  # noqa: E402
from synthetic import write_project  # noqa: E402

CASES = yaml.safe_load((ROOT / "tests/fixtures/lookup_cases.yml").read_text(encoding="utf-8"))


def figures(lookup: Lookup) -> dict[str, tuple[int, int]]:
    tallies = {"covered top-1": [0, 0], "near-miss top-1": [0, 0], "uncovered marked": [0, 0],
               "helpful in top 3": [0, 0]}
    misses = []
    for case in CASES:
        answer = lookup(case["text"])
        if case["kind"] == "uncovered":
            marked = answer.verdict in (WEAK, NONE)
            tallies["uncovered marked"][0] += marked
            tallies["uncovered marked"][1] += 1
            if case["helpful"]:
                tallies["helpful in top 3"][0] += case["helpful"] in answer.ids[:3]
                tallies["helpful in top 3"][1] += 1
            if not marked:
                misses.append(f"  uncovered, said {answer.verdict} {answer.ids[:1]}: {case['text'][:90]!r}")
            continue
        wanted = (LITERAL, MATCH) if case["kind"] == "covered" else (MATCH,)
        right = answer.verdict in wanted and answer.ids[:1] == (case["entry"],)
        name = f"{case['kind']} top-1"
        tallies[name][0] += right
        tallies[name][1] += 1
        if not right:
            misses.append(f"  {case['kind']} {case['entry']}, said {answer.verdict} {answer.ids[:1]}: {case['text'][:90]!r}")
    return {name: tuple(pair) for name, pair in tallies.items()}, misses


def lookup_at(size: int, scratch: Path) -> Lookup:
    if size == 0:
        return Lookup(lookup_data(ROOT / "data"))
    project = write_project(scratch / f"project-{size}", size, keep_real_rows=True)
    return Lookup(lookup_data(project / "data"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 10_000],
                        help="synthetic rows added to the real page (0: the real page alone)")
    arguments = parser.parse_args(argv)
    kinds = {kind: sum(case["kind"] == kind for case in CASES) for kind in ("covered", "near-miss", "uncovered")}
    print(f"labelled set: {kinds}")
    goals = {"covered top-1": "100%", "near-miss top-1": "100%", "uncovered marked": "≥ 95%", "helpful in top 3": "—"}
    with tempfile.TemporaryDirectory() as scratch:
        for size in arguments.sizes:
            started = time.perf_counter()
            lookup = lookup_at(size, Path(scratch))
            rows = sum(len(page.entries) for page in lookup.pages)
            tallies, misses = figures(lookup)
            print(f"\n附录A with {rows:,} rows ({time.perf_counter() - started:.1f} s)")
            print(f"| figure | result | goal |\n| --- | ---: | --- |")
            for name, (good, total) in tallies.items():
                print(f"| {name} | {good}/{total} = {100 * good / max(total, 1):.1f}% | {goals[name]} |")
            for miss in misses:
                print(miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
