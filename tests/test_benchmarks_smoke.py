"""The benchmarks run at a tiny size, so they cannot rot. Their figures are not asserted."""

import os
import shutil
import subprocess
import sys

from conftest import ROOT


def run_benchmark(script: str, *args: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                            capture_output=True, text=True, timeout=900, cwd=ROOT, env={**os.environ, **(env or {})})
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_build_benchmark_runs():
    output = run_benchmark("build.py", "--sizes", "20", "--runs", "1")
    assert "entries  hooks s  static s" in output
    assert output.strip().splitlines()[-1].lstrip().startswith("20 ")


def test_weight_benchmark_runs(chromium_executable):
    output = run_benchmark("weight.py", "--chromium", chromium_executable)
    assert "at page load (KB)" in output
    assert "assets/refsite/modules-linked.js" in output  # our own files are listed one by one
    assert "the lookup's index, rules and code, fetched at idle after load (counted apart)" in output


def test_find_benchmark_runs(chromium_executable):  # find.py reads CHROMIUM_PATH, like the tests
    # mark.js, the comparison, comes from npm; without npm the rest of the benchmark still runs.
    with_mark_js = shutil.which("npm") is not None
    output = run_benchmark("find.py", "--shapes", "1x50", "--runs", "1", *([] if with_mark_js else ["--no-mark-js"]),
                           env={"CHROMIUM_PATH": chromium_executable})
    assert "== 1x50 (50 rows)" in output
    assert "ranked query" in output
    assert ("ours vs mark.js" in output) == with_mark_js


def test_real_pastes_benchmark_runs():
    output = run_benchmark("real_pastes.py")
    assert "terminal (pytorch-error-lookup)" in output
    assert "held-out  covered" in output and "tune      uncovered" in output
    assert "held-out  whole " in output and "cut short " in output


def test_long_pastes_benchmark_runs():
    output = run_benchmark("long_pastes.py", "0.01")
    assert "log + traceback" in output and "match ('matmul-shapes',)" in output
