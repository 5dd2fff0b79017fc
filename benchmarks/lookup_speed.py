"""How long the lookup makes a reader wait, where the error happens.

    python benchmarks/lookup_speed.py [--runs 21]

0. What `pip install .` puts into a fresh venv: the distributions besides pip and setuptools,
   their size on disk, the top-level names. Goals: ≤ 3 third-party distributions, ≤ 5 MB, one
   name (`pytorch_error_lookup`).
1. One `pytorch-error-lookup` call, interpreter start included, from that venv: a literal line, a
   near miss (`match`), an uncovered error (`weak`, which loads the ranked index), and a whole
   traceback. Median wall time of --runs calls each, next to the same venv's `python -c pass`
   (the floor: the interpreter alone). Goal: ≤ 3× the floor.
2. The IPython extension's added time per exception: a cell raising a covered error and one
   raising an uncovered error in a real InteractiveShell, with the extension loaded minus
   without, median of --runs cells each. Goal: ≤ 20 ms.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
CASES = yaml.safe_load((ROOT / "tests/fixtures/lookup_cases.yml").read_text(encoding="utf-8"))

INPUTS = {
    "literal line": "RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)",
    "match (near miss)": "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)",
    "weak (uncovered)": "RuntimeError: Found dtype Long but expected Float",
    "traceback (match)": next(case["text"] for case in CASES if case["kind"] == "covered"
                              and case.get("how") == "traceback" and case["entry"] == "size-mismatch"),
}


def median_ms(command: list, stdin: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, input=stdin, text=True, capture_output=True)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def install(folder: Path) -> Path:
    """`pip install` of a copy of the project into a fresh venv, as a reader installs it (the
    build writes into the tree it builds)."""
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "site", "test-artifacts", "__pycache__", "*.egg-info", "build"))
    environment = folder / "venv"
    venv.create(environment, with_pip=True)
    subprocess.run([environment / "bin/python", "-m", "pip", "install", "--quiet", str(source)],
                   check=True, cwd=folder)
    return environment


def install_figures(environment: Path) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from install_size import installed  # tests/install_size.py: the same count as the test's

    found = installed(environment)
    print("\n## What `pip install .` installs (a fresh venv, pip and setuptools left out)\n")
    print("| distributions | size | top-level names | goal |\n| --- | ---: | --- | --- |")
    print(f"| {', '.join(found.distributions)} | {found.size / 1e6:.2f} MB | {', '.join(found.top_level)} "
          f"| ≤ 3 third-party, ≤ 5 MB, `pytorch_error_lookup` alone |")


def command_figures(runs: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        environment = install(Path(scratch))
        install_figures(environment)
        python = str(environment / "bin/python")
        print(f"\n## One command call, interpreter start included (median of {runs}, interleaved)\n")
        floors, calls = [], {name: [] for name in INPUTS}
        for _ in range(runs):  # interleaved, so that the machine's other load falls on all alike
            floors.append(median_ms([python, "-c", "pass"], "", 1))
            for name, text in INPUTS.items():
                calls[name].append(median_ms([environment / "bin/pytorch-error-lookup"], text, 1))
        floor = statistics.median(floors)
        print("| input | median | × floor | goal |\n| --- | ---: | ---: | --- |")
        print(f"| `python -c pass` (the floor) | {floor:.0f} ms | 1.0 | — |")
        for name, times in calls.items():
            median = statistics.median(times)
            print(f"| {name} | {median:.0f} ms | {median / floor:.1f} | ≤ 3× |")


def extension_figures(runs: int) -> None:
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    cells = {
        "covered error (note shown)": "raise RuntimeError('mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)')",
        "uncovered error (no note)": "raise RuntimeError('Found dtype Long but expected Float')",
    }

    def cell_ms(code: str) -> float:
        with capture_output():
            started = time.perf_counter()
            shell.run_cell(code)
            return (time.perf_counter() - started) * 1000

    shell.run_line_magic("load_ext", "pytorch_error_lookup")  # loads the data once (cached after)
    for code in cells.values():
        cell_ms(code)  # warm up: IPython's traceback machinery, the templates' regexes
    without = {name: [] for name in cells}
    with_extension = {name: [] for name in cells}
    # Interleaved, so that the machine's other load falls on both sides alike.
    for _ in range(runs):
        for name, code in cells.items():
            shell.run_line_magic("unload_ext", "pytorch_error_lookup")
            without[name].append(cell_ms(code))
            shell.run_line_magic("load_ext", "pytorch_error_lookup")
            with_extension[name].append(cell_ms(code))
    without = {name: statistics.median(times) for name, times in without.items()}
    with_extension = {name: statistics.median(times) for name, times in with_extension.items()}
    print(f"\n## The IPython extension, added time per exception (median of {runs})\n")
    print("| exception | without | with | added | goal |\n| --- | ---: | ---: | ---: | --- |")
    for name in cells:
        added = with_extension[name] - without[name]
        print(f"| {name} | {without[name]:.1f} ms | {with_extension[name]:.1f} ms | {added:.1f} ms | ≤ 20 ms |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    arguments = parser.parse_args(argv)
    command_figures(arguments.runs)
    extension_figures(arguments.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
