"""A real install: `pip install ".[notebook]"` (not editable) into a fresh venv, then from another
folder and with no network, the command and the extension work, and the data the package
carries is exactly what data/ gives now. A plain `pip install .` is the lookup alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from install_size import installed as what_is_installed
from refsite.lookup_data import lookup_data

# Each test here installs from the package index (pip's, or the machine's mirror of it).
pytestmark = pytest.mark.index

ROOT = Path(__file__).resolve().parents[1]
MATMUL = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)\n"


def _offline_prefix() -> list[str]:
    """Run with no network where the machine allows a private network namespace."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    pytest.skip("cannot take the network away here (unshare -n is refused)")


def fresh_install(scratch: Path, extras: str = "") -> Path:
    """A fresh venv with the project installed from a copy of its source, as a reader would."""
    source = scratch / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "site", "test-artifacts", "__pycache__", "*.egg-info", "build", ".pytest_cache"))
    environment = scratch / "venv"
    venv.create(environment, with_pip=True)
    done = subprocess.run([environment / "bin/python", "-m", "pip", "install", "--quiet", f"{source}{extras}"],
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.rmtree(source)  # the installed package must carry what it needs
    return environment


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    return fresh_install(tmp_path_factory.mktemp("install"), "[notebook]")


def test_a_plain_install_is_the_lookup_alone(tmp_path):
    """`pip install .`: at most 3 third-party distributions and 5 MB, one top-level name, and
    the command answers a real traceback there."""
    environment = fresh_install(tmp_path)
    found = what_is_installed(environment)
    assert len(found.distributions) - 1 <= 3 and "pytorch-error-lookup" in found.distributions, found
    assert found.size <= 5_000_000, found
    assert "pytorch_error_lookup" in found.top_level and "refsite" not in found.top_level, found
    assert set(found.top_level) == {"pytorch_error_lookup"}, found  # the standard library is all it needs
    # The data comes as a module pip compiled: the command's start loads its .pyc, parses no JSON.
    package = next((environment / "lib").glob("python3*/site-packages/pytorch_error_lookup"))
    assert list((package / "__pycache__").glob("packaged_data.*.pyc")), sorted(package.rglob("*"))
    traceback = ('Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
                 '    out = model(x)\n' + MATMUL)
    done = subprocess.run([environment / "bin/pytorch-error-lookup", "--json"], input=traceback, text=True,
                          capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["results"][0]["id"] == "matmul-shapes", done.stderr


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
         "import json; from pytorch_error_lookup.packaged_data import DATA; print(json.dumps(DATA, ensure_ascii=False))"],
        capture_output=True, text=True, timeout=120)
    assert carried.returncode == 0, carried.stderr
    assert json.loads(carried.stdout) == json.loads(json.dumps(lookup_data(ROOT / "data"), ensure_ascii=False))
