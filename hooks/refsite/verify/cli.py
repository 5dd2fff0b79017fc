"""The command line: `python -m refsite.verify` (see the package's docstring)."""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

import yaml

from .. import verify
from ..load import DataError
from ..pipeline import load_site
from .cases import BOOK, cases_from_site
from .judging import FAILED, REPRODUCED
from .results import drift, dump, result_record, status_counts
from .runner import JOBS, TIMEOUT_SECONDS, probe, run_all

ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = ROOT / "data"
BOOK_DIR = DATA_DIR / BOOK
RESULTS_FILE = BOOK_DIR / "verification.yml"  # the reference run: the stamps on the page


def other_checkout(cwd: Path, root: Path = ROOT) -> Path | None:
    """The checkout the command is run in, when it is not the one this code is in: `pip install
    -e .` in one checkout puts its hooks/ on every later run's path, so in a second checkout (a
    worktree, a clone) `python -m refsite.verify` would check and rewrite the first one's data."""
    for folder in (cwd, *cwd.parents):
        if (folder / "hooks" / "refsite").is_dir() and (folder / "data").is_dir():
            return None if folder.resolve() == root.resolve() else folder
    return None


def release_file(torch: str, book_dir: Path = BOOK_DIR) -> Path:
    """Where a run of another release is kept: verification-2.6.0.yml for torch 2.6.0+cu124."""
    return book_dir / f"verification-{torch.split('+')[0]}.yml"


def previous_run(path: Path, torch: str) -> dict:
    """The run already in `path` (empty if none), which must be one of the same torch."""
    if not path.is_file():
        return {}
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    if document.get("torch") != torch:
        raise SystemExit(f"{path} holds a run of torch {document.get('torch')}, not {torch}")
    return document


def is_current(result: dict | None, case) -> bool:
    """Whether a kept result still speaks for the row's reproducer as it is now."""
    if result is None:
        return False
    return case.reproducer is None or result.get("code_sha") == case.reproducer.code_sha


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m refsite.verify", description=verify.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=sys.executable,
                        help="the Python whose torch to check (default: this one)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help=f"results file to write (default: {RESULTS_FILE})")
    where.add_argument("--release", action="store_true",
                       help="a run for the release matrix: write data/pytorch/verification-<release>.yml, "
                            "named after the torch found, and exit 0 whatever failed")
    parser.add_argument("--compare", type=Path, metavar="OTHER.yml",
                        help="another run's results: add a `drift:` section of what changed")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--only", nargs="+", metavar="ID",
                       help="run these rows only, merged into the results file (the other rows keep their results)")
    which.add_argument("--stale", action="store_true",
                       help="run only the rows the results file has no current result for (a new row, "
                            "a changed reproducer) and merge them into it; each carries its own date")
    parser.add_argument("--jobs", type=int, default=JOBS)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS,
                        help="seconds per reproducer")
    parser.add_argument("--allow-failures", action="store_true",
                        help="exit 0 even when a row failed (for drift runs)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if (elsewhere := other_checkout(Path.cwd())) is not None:
        raise SystemExit(f"this is the verifier of {ROOT} (on the path by pip install -e there, or PYTHONPATH), run in "
                         f"{elsewhere}: it would check that other checkout's data. Run it here with "
                         f"PYTHONPATH={elsewhere / 'hooks'} python -m refsite.verify …, or pip install -e . here")
    began = time.monotonic()
    environment = probe(args.python)
    if environment["torch"] is None:
        raise SystemExit(f"{args.python} has no torch to verify: pip install torch==2.13.0 numpy there, "
                         "or give --python a Python that has them")
    out = release_file(environment["torch"]) if args.release else args.out or RESULTS_FILE
    try:
        # Rows and reproducers only: a results file about to be rewritten must not stop the run.
        site = load_site(DATA_DIR, runs=False)
    except DataError as error:
        raise SystemExit(str(error)) from None
    cases = cases_from_site(site)
    merge = bool(args.stale or args.only)  # a part of the rows, merged into what the file holds
    previous = previous_run(out, environment["torch"]) if merge else {}
    kept = previous.get("results") or {}
    if args.stale:
        cases = [case for case in cases if not is_current(kept.get(case.id), case)]
    if args.only:
        unknown = sorted(set(args.only) - {case.id for case in cases})
        if unknown:
            raise SystemExit(f"no row to check with id {', '.join(unknown)}")
        # A row's variants and near misses (`<row>/…`) go with it.
        cases = [case for case in cases if case.id in args.only or case.id.split("/")[0] in args.only]
    release = environment["torch"].split("+")[0]
    outcomes = run_all(args.python, cases, jobs=args.jobs, timeout=args.timeout,
                       torch_name=f"torch {release}")

    results = {case.id: result_record(case, *outcomes[case.id], environment["site_packages"])
               for case in cases}
    if merge:
        today = datetime.date.today().isoformat()
        fresh = {id_: {**result, "date": today} for id_, result in results.items()}
        results = {case.id: fresh.get(case.id) or kept[case.id]
                   for case in cases_from_site(site) if case.id in fresh or case.id in kept}
    counts = status_counts(results)
    document = {
        "torch": environment["torch"],
        "python": environment["python"],
        "platform": environment["platform"],
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.monotonic() - began, 1),
    }
    if previous:  # a merge: the header stays the whole run's, each re-run row has its date
        document.update({key: previous[key] for key in document if key in previous})
    document["counts"] = counts
    if args.compare:
        document["drift"] = drift(results, yaml.safe_load(args.compare.read_text(encoding="utf-8")))
    document["results"] = results
    out.write_text(dump(document), encoding="utf-8")

    # A merge reports the rows it ran, and of those it kept only the failures the exit code counts.
    run_now = {case.id for case in cases}
    fails = not (args.allow_failures or args.release)
    for id_, result in results.items():
        if id_ in run_now and result["status"] != REPRODUCED:
            print(f"{result['status']:<29} {id_}: {result['why']}")
        elif id_ not in run_now and fails and result["status"] == FAILED:
            print(f"{'failed (kept, not run now)':<29} {id_}: {result['why']}")
    if args.compare:
        for id_ in document["drift"]["changed"]:
            print(f"{'changed against ' + str(document['drift']['against']['torch']):<29} {id_}")
    summary = ", ".join(f"{count} {status}" for status, count in counts.items() if count)
    ran = f"{len(cases)} run in {round(time.monotonic() - began, 1)} s" if merge else f"in {document['seconds']} s"
    print(f"torch {environment['torch']}: {summary} ({ran}) -> {out}")
    # A release that lacks an API is recorded as such (status api-missing), never a failure.
    return 1 if counts[FAILED] and fails else 0
