"""The benchmarks run at a tiny size, so they cannot rot. Their figures are not asserted."""

import os
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
    assert "assets/refsite/find.js" in output  # our own files are listed one by one
    assert "lunr.js + find index first loaded when:" in output


def test_find_benchmark_runs(chromium_executable):  # find.py reads CHROMIUM_PATH, like the tests
    output = run_benchmark("find.py", "--sizes", "50", "--runs", "1", env={"CHROMIUM_PATH": chromium_executable})
    assert "== 50 entries" in output
    assert "ranked query" in output and "mark.js 8.11.1" in output
