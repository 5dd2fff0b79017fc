"""What an install put into a venv: its distributions, their size and top-level names, pip and
setuptools left out (they come with every venv). Shared by tests/test_lookup_install.py and
benchmarks/lookup_speed.py, so that both count alike."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

EVERY_VENV = ("pip", "setuptools")

# Run inside the venv: each distribution's name, the bytes of its files, and the first part of
# each file's path in site-packages (`pytorch_error_lookup`; not its .dist-info, nor
# the scripts it puts in bin/, which RECORD lists as `../../../bin/…`).
_SCRIPT = """
import importlib.metadata as metadata, json, pathlib
rows = []
for dist in metadata.distributions():
    files = list(dist.files or ())
    size = sum(path.stat().st_size for path in map(pathlib.Path, map(dist.locate_file, files)) if path.is_file())
    names = {file.parts[0].removesuffix(".py") for file in files
             if file.parts[0] != ".." and not file.parts[0].endswith((".dist-info", ".pth"))}
    rows.append([dist.metadata["Name"], size, sorted(names - {"__pycache__"})])
print(json.dumps(rows))
"""


@dataclass(frozen=True)
class Installed:
    distributions: tuple[str, ...]  # names, as pip lists them
    size: int  # bytes on disk of their files
    top_level: tuple[str, ...]  # importable names they add


def installed(environment: Path) -> Installed:
    done = subprocess.run([environment / "bin/python", "-c", _SCRIPT], capture_output=True, text=True, check=True)
    rows = [row for row in json.loads(done.stdout) if row[0].lower() not in EVERY_VENV]
    return Installed(tuple(sorted(name for name, *_ in rows)), sum(size for _, size, _ in rows),
                     tuple(sorted({name for *_, names in rows for name in names})))
