"""A real install: `pip install ".[notebook]"` (not editable) into a fresh venv, then from another
folder and with no network, the command and the extension work, and the data the package
carries is exactly what data/ gives now."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from refsite.lookup_data import lookup_data

ROOT = Path(__file__).resolve().parents[1]
MATMUL = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)\n"


def _offline_prefix() -> list[str]:
    """Run with no network where the machine allows a private network namespace."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    pytest.skip("cannot take the network away here (unshare -n is refused)")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the project installed from a copy of its source, as a reader would."""
    scratch = tmp_path_factory.mktemp("install")
    source = scratch / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "site", "test-artifacts", "__pycache__", "*.egg-info", "build", ".pytest_cache"))
    environment = scratch / "venv"
    venv.create(environment, with_pip=True)
    done = subprocess.run([environment / "bin/python", "-m", "pip", "install", "--quiet", f"{source}[notebook]"],
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.rmtree(source)  # the installed package must carry what it needs
    return environment


def test_the_installed_command_answers_offline_from_another_folder(installed, tmp_path):
    command = [*_offline_prefix(), installed / "bin/pytorch-error-lookup", "--json"]
    done = subprocess.run(command, input=MATMUL, text=True, capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["verdict"] == "match" and answer["results"][0]["id"] == "matmul-shapes"
    uncovered = subprocess.run([*command[:-1]], input="RuntimeError: Found dtype Long but expected Float",
                               text=True, capture_output=True, cwd=tmp_path, timeout=120)
    assert uncovered.returncode == 1 and "没有收录" in uncovered.stdout
    module = subprocess.run([*_offline_prefix(), installed / "bin/python", "-m", "pytorch_error_lookup"],
                            input=MATMUL, text=True, capture_output=True, cwd=tmp_path, timeout=120)
    assert module.returncode == 0 and "matmul-shapes" in module.stdout


def test_the_installed_extension_works_in_ipython_offline(installed, tmp_path):
    script = "%load_ext pytorch_error_lookup\nraise RuntimeError('mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)')\nexit\n"
    done = subprocess.run([*_offline_prefix(), installed / "bin/ipython", "--simple-prompt", "--colors=NoColor",
                           "--HistoryManager.enabled=False"], input=script, text=True, capture_output=True,
                          cwd=tmp_path, timeout=300, env={**os.environ, "HOME": str(tmp_path)})
    out = done.stdout + done.stderr
    assert out.index("附录A · 报错反查表") > out.index("RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")


def test_what_the_package_carries_is_what_data_gives(installed):
    carried = subprocess.run(
        [installed / "bin/python", "-c",
         "import importlib.resources as r; print(r.files('pytorch_error_lookup').joinpath('lookup-data.json').read_text('utf-8'))"],
        capture_output=True, text=True, timeout=120)
    assert carried.returncode == 0, carried.stderr
    assert json.loads(carried.stdout) == json.loads(json.dumps(lookup_data(ROOT / "data"), ensure_ascii=False))
