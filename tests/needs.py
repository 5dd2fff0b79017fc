"""Tools some tests need that the README's commands do not install: torch (the reproducers, the
notebook's real tracebacks) and node (running the linked scripts). On a bare machine those
tests are skipped, each saying what to install; `.ci/run` installs both and sets
REFSITE_TESTS_REQUIRE=torch,node, and then a missing one fails the run instead."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil

import pytest

TORCH = "2.13.0"  # the release the published stamps are for
REQUIRE_VARIABLE = "REFSITE_TESTS_REQUIRE"


def _torch() -> str | None:
    if importlib.util.find_spec("torch") is None:
        return f"torch is not importable here: pip install torch=={TORCH} numpy"
    installed = importlib.metadata.version("torch")
    if not installed.startswith(TORCH):
        return f"the stamps are for torch {TORCH}, this Python has {installed}: pip install torch=={TORCH}"
    # Rows' reproducers call numpy (`tensor.numpy()`, `torch.from_numpy`); torch installs without it.
    if importlib.util.find_spec("numpy") is None:
        return "numpy is not importable here, and the reproducers use it: pip install numpy"
    return None


def _node() -> str | None:
    return None if shutil.which("node") else "node is not on PATH: apt-get install -y nodejs"


WHY_MISSING = {"torch": _torch, "node": _node}


def required() -> set[str]:
    return {name.strip() for name in os.environ.get(REQUIRE_VARIABLE, "").split(",") if name.strip()}


def need(tool: str, *, module: bool = False) -> None:
    """Skip (the module, with `module`) saying how to get `tool`, unless it is here; fail if the
    run requires it."""
    why = WHY_MISSING[tool]()
    if why is None:
        return
    if tool in required():
        pytest.fail(f"{REQUIRE_VARIABLE} requires {tool}: {why}", pytrace=False)
    pytest.skip(why, allow_module_level=module)
