"""How the lookup does on errors as real people pasted them (tests/fixtures/real_pastes.yml).

    python benchmarks/real_pastes.py [--page] [--misses]

For each part of the set (`tune`, and `held-out`, which is never tuned on) and each group, how
many pastes got
- right: a covered paste lands on its row with `literal` or `match`; a near or uncovered paste
  is told `weak` or `none`;
- unsure: a covered paste told `weak` or `none` (the right row may be among the suggestions);
- wrong: a confident answer (`literal` / `match`) on the wrong row, or on any row for a paste no
  row explains.
Covered pastes are also counted apart by whether the source cut them short (`truncated`).
The terminal's answer comes from `pytorch_error_lookup.lookup`; with `--page`, the same pastes
are pasted into 附录A's box in Chromium (a real paste event) and the page's verdict and first row
are compared with the terminal's. `--misses` lists the tune part's misses (never the held-out
part's: reading those would be tuning on them).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "hooks"), str(ROOT / "tests")]

import real_pastes  # noqa: E402  (tests/real_pastes.py)
from pytorch_error_lookup.lookup import Lookup  # noqa: E402

CONFIDENT = ("literal", "match")
GROUPS = ("covered", "near", "uncovered")


def judge(paste: dict, verdict: str, first: str | None) -> str:
    """right | unsure | wrong, for one answer."""
    if paste["group"] == "covered":
        if verdict in CONFIDENT:
            return "right" if first == paste["lands_on"] else "wrong"
        return "unsure"
    return "wrong" if verdict in CONFIDENT else "right"


def terminal_answers(pastes: list[dict]) -> tuple[list[tuple[str, str | None]], list[str | None]]:
    """(verdict, first row) for each paste, and for each covered paste told unsure, why
    (`UNSURE_KINDS`)."""
    lookup = Lookup.installed()
    answers, unsure = [], []
    for paste in pastes:
        answer = lookup(paste["paste"])
        answers.append((answer.verdict, answer.ids[0] if answer.ids else None))
        unsure.append(None if judge(paste, *answers[-1]) != "unsure" else
                      "no message" if answer.message_missing else
                      "row first" if answers[-1][1] == paste["lands_on"] else
                      "row suggested" if paste["lands_on"] in answer.ids else "row not suggested")
    return answers, unsure


# Why a covered paste was told unsure: its traceback was cut before the message; its row came
# first but without confidence; its row was among the suggestions; or not among them.
UNSURE_KINDS = ("no message", "row first", "row suggested", "row not suggested")


def page_answers(pastes: list[dict]) -> list[tuple[str, str | None]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from page_lookup import page_answers as answers  # builds and drives the site

    return answers([paste["paste"] for paste in pastes])


def report(title: str, pastes: list[dict], answers: list[tuple[str, str | None]]) -> None:
    print(f"\n{title}")
    print(f"{'part':<9} {'group':<10} {'n':>4} {'right':>12} {'unsure':>12} {'wrong':>6}")
    for part in (real_pastes.TUNE, real_pastes.HELD_OUT):
        for group in GROUPS:
            picked = [(paste, answer) for paste, answer in zip(pastes, answers)
                      if paste["part"] == part and paste["group"] == group]
            counts = Counter(judge(paste, *answer) for paste, answer in picked)
            n = len(picked)
            share = lambda key: f"{counts[key]:>4} {100 * counts[key] / n:5.1f}%" if n else "-"  # noqa: E731
            print(f"{part:<9} {group:<10} {n:>4} {share('right'):>12} {share('unsure'):>12} {counts['wrong']:>6}")


def report_unsure(pastes: list[dict], unsure: list[str | None]) -> None:
    print("\ncovered pastes told unsure, by why (terminal)")
    for part in (real_pastes.TUNE, real_pastes.HELD_OUT):
        counts = Counter(kind for paste, kind in zip(pastes, unsure) if paste["part"] == part and kind)
        print(f"{part:<9} " + ", ".join(f"{kind} {counts[kind]}" for kind in UNSURE_KINDS))


def report_cut(pastes: list[dict], answers: list[tuple[str, str | None]]) -> None:
    """Covered pastes right, apart for those the source cut short (`truncated`: a stored
    excerpt's end, or the poster's own `...`) and those whole, which is how a reader pastes."""
    print("\ncovered pastes right, whole / cut short by the source (terminal)")
    for part in (real_pastes.TUNE, real_pastes.HELD_OUT):
        cells = []
        for cut, label in ((False, "whole"), (True, "cut short")):
            picked = [judge(paste, *answer) for paste, answer in zip(pastes, answers)
                      if paste["part"] == part and paste["group"] == "covered" and paste["truncated"] == cut]
            right = picked.count("right")
            cells.append(f"{label} {right}/{len(picked)}" + (f" ({100 * right / len(picked):.1f}%)" if picked else ""))
        print(f"{part:<9} " + ", ".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="store_true", help="also paste each into 附录A in Chromium")
    parser.add_argument("--misses", action="store_true", help="list the tune part's misses")
    args = parser.parse_args(argv)
    pastes = real_pastes.load()
    answers, unsure = terminal_answers(pastes)
    report("terminal (pytorch-error-lookup)", pastes, answers)
    report_unsure(pastes, unsure)
    report_cut(pastes, answers)
    if args.page:
        page = page_answers(pastes)
        report("page (附录A's box, a real paste event)", pastes, page)
        differ = [(paste, a, b) for paste, a, b in zip(pastes, answers, page) if a != b]
        print(f"\npage and terminal differ on {len(differ)} of {len(pastes)} pastes")
        for paste, a, b in differ:
            if paste["part"] == real_pastes.TUNE:
                print(f"  {paste['source']}: terminal {a}, page {b}")
    if args.misses:
        print("\nmisses of the tune part:")
        for paste, answer in zip(pastes, answers):
            outcome = judge(paste, *answer)
            if paste["part"] == real_pastes.TUNE and outcome != "right":
                print(f"- {outcome}: {paste['group']} {paste['lands_on']} got {answer} ({paste['source']})")
                print("    " + paste["paste"][:300].replace("\n", "\n    "))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
