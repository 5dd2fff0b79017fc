"""Check that every row of 附录A still happens: run its reproducer, compare what torch says.

    python -m refsite.verify [--python PATH] [--out FILE] [--compare OTHER.yml]

Each program in data/pytorch/reproducers.yml runs as `<id>.py` in an empty directory, in its own
process under the Python given (the one with the torch to check), two at a time, each with a
timeout. Its output (stdout and stderr, interleaved) must contain the row's `fragment` and
`second_line` and every `expect` text. In those, `…` stands for any text and `xxx` / `Xxx` for a
name of the reader's own (`argparse.Namespace`, `ScaleBackward`); when the text only matches
with runs of whitespace treated alike (a message wrapped over lines), the status says so.

The results go to a YAML file the site build reads, so the build never needs torch. This module
never imports torch either: stdlib and PyYAML only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILE = ROOT / "data" / "pytorch" / "appendix-a.yml"
REPRODUCERS_FILE = ROOT / "data" / "pytorch" / "reproducers.yml"
RESULTS_FILE = ROOT / "data" / "pytorch" / "verification.yml"

REPRODUCED = "reproduced"
REPRODUCED_FOLDED = "reproduced-whitespace-folded"
SIMULATED = "simulated"
NOT_HERE = "not-reproducible-here"
FAILED = "failed"
STATUSES = (REPRODUCED, REPRODUCED_FOLDED, SIMULATED, NOT_HERE, FAILED)

TIMEOUT_SECONDS = 120
JOBS = 2  # the machine's two cores; each reproducer gets one thread (OMP_NUM_THREADS=1)
EXCERPT_CHARS = 800
OUTPUT_LINES = 60

WILDCARD = "…"
# `xxx` / `Xxx` at the start of a word: the reader's own name (`'xxx'`, `XxxBackward`).
TOKENS = re.compile(r"(…|(?<![A-Za-z])(?:xxx|Xxx))")
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
WARNING_LOCATION = re.compile(r"^\S+\.py:\d+: (?=\w+Warning: )")  # "/path/x.py:4: " before a warning
EXCEPTION_LINE = re.compile(r"\b\w*(?:Error|Exception|Warning)\b: ")


# ── What the page claims and what a run printed ─────────────────────────────────────────────

def code_sha(code: str) -> str:
    """Names one version of a reproducer; the build marks a result stale when it differs."""
    return hashlib.sha256(code.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Reproducer:
    id: str
    code: str
    fragments: tuple[str, ...] = ()  # the row's `fragment` and `second_line`; none for symptoms
    expect: tuple[str, ...] = ()
    simulation: str | None = None
    platform: str | None = None
    note: str | None = None

    @property
    def code_sha(self) -> str:
        """Ties a result to the program that produced it, so a stale result can be caught."""
        return code_sha(self.code)


@dataclass(frozen=True)
class Run:
    output: str
    returncode: int | None  # None: killed at the timeout
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    folded: bool  # found only with whitespace folded
    names: tuple[tuple[str, str], ...] = ()  # (placeholder, what it stood for here)


@dataclass(frozen=True)
class Verdict:
    status: str
    why: str
    excerpt: str
    matches: tuple[Match, ...] = field(default=(), compare=False)


# ── Matching ───────────────────────────────────────────────────────────────────────────────

def pattern_for(text: str, *, fold: bool) -> re.Pattern[str]:
    """A regex for a fragment: `…` is any text, `xxx` a name; with `fold`, any run of
    whitespace matches any other run (and `…` may then cross lines, as folding joins them)."""
    parts = []
    for token in TOKENS.split(text):
        if token == WILDCARD:
            parts.append(r".*?")
        elif token in ("xxx", "Xxx"):
            parts.append(r"([\w.]+?)")
        elif fold:
            parts.append(r"\s+".join(re.escape(word) for word in re.split(r"\s+", token)))
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts), re.DOTALL if fold else 0)


def find(text: str, output: str) -> Match | None:
    """Where `text` occurs in `output`: verbatim first, else with whitespace folded."""
    placeholders = [token for token in TOKENS.findall(text) if token != WILDCARD]
    for fold in (False, True):
        found = pattern_for(text, fold=fold).search(output)
        if found:
            return Match(found.start(), found.end(), fold, tuple(zip(placeholders, found.groups())))
    return None


# ── Judging one run ────────────────────────────────────────────────────────────────────────

def judge(reproducer: Reproducer, run: Run) -> Verdict:
    """The status of a row from what its reproducer printed. Never a pass without the text."""
    if run.timed_out:
        return Verdict(FAILED, f"超时：{run.seconds:.0f} 秒内没有结束，已终止。", tail(run.output))

    wanted = reproducer.fragments + reproducer.expect
    if not wanted:
        return Verdict(FAILED, "没有可核对的文字：这一条既没有 fragment 也没有 expect。",
                       tail(run.output))
    found = {text: find(text, run.output) for text in wanted}
    missing = [text for text, match in found.items() if match is None]
    matches = tuple(match for match in found.values() if match is not None)

    if missing:
        if reproducer.platform:
            return Verdict(NOT_HERE, reproducer.platform, tail(run.output))
        if run.returncode == 0:
            why = f"程序正常结束（退出码 0），什么也没报；输出里没有：{missing[0]}"
        else:
            why = f"输出与条目不同（退出码 {run.returncode}）；没有找到：{missing[0]}"
        return Verdict(FAILED, why, tail(run.output))

    folded = any(match.folded for match in matches)
    names = [f"`{token}` 在这里是 `{value}`" for match in matches for token, value in match.names]
    detail = f"（{'，'.join(names)}）" if names else ""
    excerpt = excerpt_of(run.output, matches)
    if reproducer.simulation:
        fold_note = "空白折叠后匹配。" if folded else ""
        return Verdict(SIMULATED, f"模拟：{reproducer.simulation}{fold_note}", excerpt, matches)
    if reproducer.platform:
        why = f"标为只在别的平台出现，却在这里复现了{detail}。原说明：{reproducer.platform}"
    elif folded:
        why = f"只有把空白折叠之后才匹配：真实报错在这里换了行或缩进不同{detail}。"
    elif not reproducer.fragments:
        why = "输出与条目里的实测数值一致。"
    else:
        why = f"原文逐字出现在输出里{detail}。"
    return Verdict(REPRODUCED_FOLDED if folded else REPRODUCED, why, excerpt, matches)


def excerpt_of(output: str, matches: tuple[Match, ...]) -> str:
    """The lines the matches cover, in order, with `…` for the lines skipped between them."""
    starts = line_starts(output)
    covered: set[int] = set()
    for match in matches:
        covered.update(range(line_index(starts, match.start), line_index(starts, match.end - 1) + 1))
    lines = output.splitlines()
    shown, previous = [], None
    for index in sorted(covered):
        if previous is not None and index > previous + 1:
            shown.append(WILDCARD)
        shown.append(WARNING_LOCATION.sub("", lines[index].strip()))
        previous = index
    return trim("\n".join(shown).strip("\n"))


def tail(output: str) -> str:
    """What a failed or foreign run said: its last error or warning line, else its last lines."""
    lines = [line for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if EXCEPTION_LINE.search(line):
            return trim(WARNING_LOCATION.sub("", line.strip()))
    return trim("\n".join(line.strip() for line in lines[-3:])) if lines else "（没有任何输出）"


def trim(text: str, limit: int = EXCERPT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + WILDCARD


def line_starts(text: str) -> list[int]:
    return [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]


def line_index(starts: list[int], position: int) -> int:
    low, high = 0, len(starts) - 1
    while low < high:  # the last line start at or before `position`
        middle = (low + high + 1) // 2
        if starts[middle] <= position:
            low = middle
        else:
            high = middle - 1
    return low


# ── Running ────────────────────────────────────────────────────────────────────────────────

def run_program(python: str, code: str, *, name: str = "reproducer",
                timeout: float = TIMEOUT_SECONDS) -> Run:
    """Run `code` as `<name>.py` in an empty directory, in a session of its own, so that at the
    timeout the whole group (DataLoader workers included) is killed and no pipe stays open."""
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",  # keep stdout and stderr in the order they were written
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",  # two reproducers share two cores
    }
    with tempfile.TemporaryDirectory(prefix="refsite-verify-") as workdir:
        script = Path(workdir) / f"{name}.py"
        script.write_text(code, encoding="utf-8")
        began = time.monotonic()
        process = subprocess.Popen(
            [python, script.name], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            raw, _ = process.communicate(timeout=timeout)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raw, _ = process.communicate()
            returncode = None
        seconds = time.monotonic() - began
        output = raw.decode("utf-8", errors="replace").replace(workdir + os.sep, "")
    return Run(ANSI_ESCAPE.sub("", output), returncode, seconds)


def run_all(python: str, reproducers: list[Reproducer], *, jobs: int = JOBS,
            timeout: float = TIMEOUT_SECONDS) -> dict[str, tuple[Run, Verdict]]:
    """Every reproducer, `jobs` at a time; results in the order given."""
    def one(reproducer: Reproducer) -> tuple[Run, Verdict]:
        run = run_program(python, reproducer.code, name=reproducer.id, timeout=timeout)
        return run, judge(reproducer, run)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {reproducer.id: pool.submit(one, reproducer) for reproducer in reproducers}
        return {id_: future.result() for id_, future in futures.items()}


PROBE = """
import json, platform, sysconfig
try:
    import torch
    version = torch.__version__
except ImportError:
    version = None
print(json.dumps({"torch": version, "python": platform.python_version(),
                  "platform": platform.platform(), "site_packages": sysconfig.get_paths()["purelib"]}))
"""


def probe(python: str) -> dict:
    """The torch, Python and platform behind `python`, asked in a process of its own."""
    done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"cannot run {python}: {done.stderr.strip()}")
    return json.loads(done.stdout)


# ── Data in, results out ───────────────────────────────────────────────────────────────────

def load_reproducers(page_file: Path = PAGE_FILE,
                     reproducers_file: Path = REPRODUCERS_FILE) -> list[Reproducer]:
    """The reproducers in page order, each with its row's fragments. A reproducer for an id the
    page does not have is an error; an error row without one is kept, to fail visibly."""
    page = yaml.safe_load(page_file.read_text(encoding="utf-8"))
    programs = yaml.safe_load(reproducers_file.read_text(encoding="utf-8")) or {}
    rows: dict[str, tuple[str, ...]] = {}
    for group in page.get("groups", []):
        for section in group.get("sections", []):
            if section.get("kind") not in ("errors", "symptoms"):
                continue
            for entry in section.get("entries", []):
                rows[entry["id"]] = tuple(
                    entry[key] for key in ("fragment", "second_line") if entry.get(key))
    unknown = sorted(set(programs) - set(rows))
    if unknown:
        raise SystemExit(f"{reproducers_file}: no row with id {', '.join(unknown)} in {page_file}")
    reproducers = []
    for id_, fragments in rows.items():
        program = programs.get(id_)
        if program is None:
            if fragments:  # every error row must have one; symptom checks are optional
                reproducers.append(Reproducer(id_, "", fragments))
            continue
        reproducers.append(Reproducer(
            id_, program["code"], fragments, tuple(program.get("expect", ())),
            program.get("simulation"), program.get("platform"), program.get("note")))
    return reproducers


def result_record(reproducer: Reproducer, run: Run | None, verdict: Verdict,
                  site_packages: str) -> dict:
    record = {"status": verdict.status, "why": verdict.why,
              "excerpt": verdict.excerpt.replace(site_packages, "site-packages")}
    if reproducer.note:
        record["note"] = reproducer.note
    if run is not None:
        record["seconds"] = round(run.seconds, 1)
        record["code_sha"] = reproducer.code_sha
        record["output"] = shortened(run.output.replace(site_packages, "site-packages"))
    return record


def shortened(output: str, keep: int = OUTPUT_LINES) -> str:
    lines = output.rstrip().splitlines()
    if len(lines) <= keep:
        return "\n".join(lines)
    return "\n".join([f"… (前面 {len(lines) - keep} 行略)"] + lines[-keep:])


def drift(results: dict, baseline: dict) -> dict:
    """Rows whose status or message changed against another run's results."""
    changed = {}
    for id_, now in results.items():
        before = baseline.get("results", {}).get(id_)
        if before is None:
            changed[id_] = {"new": True}
            continue
        difference = {key: {"before": before.get(key), "now": now.get(key)}
                      for key in ("status", "excerpt") if before.get(key) != now.get(key)}
        if difference:
            changed[id_] = difference
    return {"against": {"torch": baseline.get("torch"), "date": baseline.get("date")},
            "unchanged": len(results) - len(changed), "changed": changed}


class _Dumper(yaml.SafeDumper):
    """Multi-line text as literal blocks, so a message reads in the file as it did on screen."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text and not any(c in text for c in "\t\r") else None
    if style and any(line != line.rstrip() for line in text.splitlines()):
        style = None  # YAML cannot keep trailing spaces inside a literal block
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


def dump(document: dict) -> str:
    header = ("# yaml-language-server: $schema=../schema/verification.schema.json\n"
              "# Written by `python -m refsite.verify`: do not edit by hand.\n"
              "# Each row's reproducer lives in data/pytorch/reproducers.yml.\n")
    return header + yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                              width=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refsite.verify", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=sys.executable,
                        help="the Python whose torch to check (default: this one)")
    parser.add_argument("--out", type=Path, default=RESULTS_FILE, help="results file to write")
    parser.add_argument("--compare", type=Path, metavar="OTHER.yml",
                        help="another run's results: add a `drift:` section of what changed")
    parser.add_argument("--only", nargs="+", metavar="ID",
                        help="run these rows only (the results file then holds only them)")
    parser.add_argument("--jobs", type=int, default=JOBS)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS,
                        help="seconds per reproducer")
    parser.add_argument("--allow-failures", action="store_true",
                        help="exit 0 even when a row failed (for drift runs)")
    args = parser.parse_args(argv)

    began = time.monotonic()
    environment = probe(args.python)
    if environment["torch"] is None:
        raise SystemExit(f"{args.python} has no torch to verify")
    reproducers = load_reproducers()
    if args.only:
        reproducers = [r for r in reproducers if r.id in args.only]
    runnable = [r for r in reproducers if r.code]
    outcomes = run_all(args.python, runnable, jobs=args.jobs, timeout=args.timeout)

    site_packages = environment["site_packages"]
    results = {}
    for reproducer in reproducers:
        run, verdict = outcomes.get(reproducer.id) or (
            None, Verdict(FAILED, "reproducers.yml 里没有这一条的复现程序。", ""))
        results[reproducer.id] = result_record(reproducer, run, verdict, site_packages)

    counts = {status: sum(r["status"] == status for r in results.values()) for status in STATUSES}
    document = {
        "torch": environment["torch"],
        "python": environment["python"],
        "platform": environment["platform"],
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.monotonic() - began, 1),
        "counts": counts,
    }
    if args.compare:
        document["drift"] = drift(results, yaml.safe_load(args.compare.read_text(encoding="utf-8")))
    document["results"] = results
    args.out.write_text(dump(document), encoding="utf-8")

    for id_, result in results.items():
        if result["status"] != REPRODUCED:
            print(f"{result['status']:<29} {id_}: {result['why']}")
    if args.compare:
        for id_ in document["drift"]["changed"]:
            print(f"{'changed against ' + str(document['drift']['against']['torch']):<29} {id_}")
    summary = ", ".join(f"{count} {status}" for status, count in counts.items() if count)
    print(f"torch {environment['torch']}: {summary} in {document['seconds']} s -> {args.out}")
    return 1 if counts[FAILED] and not args.allow_failures else 0


if __name__ == "__main__":
    sys.exit(main())
