"""Every reproducer's whole output, fed to `pytorch-error-lookup` as a reader would pipe it:
`python repro.py 2>&1 | pytorch-error-lookup`. Marked `torch` (run under torch 2.13.0)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from needs import need
from refsite.pipeline import load_site
from refsite.verify import cli
from refsite.verify.cases import cases_from_site
from refsite.verify.judging import NOT_HERE
from refsite.verify.runner import run_all

pytestmark = pytest.mark.torch
need("torch", module=True)

HOOKS = Path(__file__).resolve().parents[1] / "hooks"
SITE = load_site(cli.DATA_DIR, runs=False)
ERROR_ROWS = [entry for page in SITE.book("pytorch").pages for section in page.sections
              if section.kind == "errors" for entry in section.entries]
CASES = {case.id: case for case in cases_from_site(SITE) if case.id in {row.id for row in ERROR_ROWS}}
# The `Hint:` row is printed as the tail of the message of the row it follows: that row explains it.
FOLLOWS = {"anomaly-hint": "modified-by-inplace"}
# A program that prints another row's error before its own traceback: load-module-not-found's
# shows the default load's failure first (a global not allowed, weights-only-unpickling's case).
# Of two errors the lookup answers the first a row explains, and says there was another.
SAID_FIRST = {"load-module-not-found": "weights-only-unpickling"}


@pytest.fixture(scope="module")
def outputs():
    return {row_id: run.output for row_id, (run, _) in run_all(sys.executable, list(CASES.values())).items()}


@pytest.mark.parametrize("row_id", list(CASES))
def test_a_reproducers_whole_output_lands_on_its_row(row_id, outputs):
    if CASES[row_id].reproducer.platform:
        pytest.skip(f"{row_id} prints its message on another platform only ({NOT_HERE})")
    done = subprocess.run([sys.executable, "-m", "pytorch_error_lookup", "--json"], input=outputs[row_id],
                          text=True, capture_output=True, cwd=HOOKS, timeout=120)
    answer = json.loads(done.stdout)
    assert answer["verdict"] in ("literal", "match"), outputs[row_id][-600:]
    assert answer["results"][0]["id"] == SAID_FIRST.get(row_id, FOLLOWS.get(row_id, row_id))
    if row_id in SAID_FIRST:
        assert answer["others"] == 1
    assert done.returncode == 0
