"""README's "Adding an entry", done as an author does it, on a copy of data/: a row and its
reproducer, before the verifier has run. The build takes it, the page shows it honestly as not
yet verified, and both lookups find it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

from pytorch_error_lookup.lookup import Lookup
from refsite.lookup_data import lookup_data
from refsite.model import Reproducer
from refsite.pipeline import load_site
from refsite.render import Renderer
from refsite.sitemap import site_pages
from refsite.verify.judging import REPRODUCED, Case
from refsite.verify.runner import run_all

DATA = Path(__file__).resolve().parent.parent / "data"
# README's example, as written there (its id here is the test's own: an author who has added
# the example to data/ already has a row `my-new-error`).
ROW = {"id": "readme-example",
       "fragment": "Tensors must have same number of dimensions: got 1 and 2",
       "cause": "`torch.cat` 的张量维数不同。⭐ 先用 `.unsqueeze()` 或 `.reshape()` 让维数一致",
       "chapters": ["01"]}
REPRODUCER = {"code": "import torch\n\ntorch.cat([torch.ones(2), torch.ones(2, 2)])  # 1-D beside 2-D\n"}
SECTION = "shape-dtype"  # where README says the example goes
README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_example_is_the_readmes():
    readme = README.read_text(encoding="utf-8")
    assert f'fragment: "{ROW["fragment"]}"' in readme and f'cause: "{ROW["cause"]}"' in readme
    assert REPRODUCER["code"].splitlines()[-1] in readme
    assert f"the section with `id: {SECTION}`" in readme


def add_entry(tmp_path: Path) -> Path:
    data = Path(shutil.copytree(DATA, tmp_path / "data"))
    page_file = data / "pytorch" / "appendix-a.yml"
    page = yaml.safe_load(page_file.read_text(encoding="utf-8"))
    section = next(section for group in page["groups"] for section in group["sections"] if section["id"] == SECTION)
    section["entries"].append(ROW)
    page_file.write_text(yaml.safe_dump(page, allow_unicode=True, sort_keys=False), encoding="utf-8")
    programs_file = data / "pytorch" / "reproducers.yml"
    programs = yaml.safe_load(programs_file.read_text(encoding="utf-8"))
    programs[ROW["id"]] = REPRODUCER
    programs_file.write_text(yaml.safe_dump(programs, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return data


def test_a_new_row_before_the_verifier_runs_is_shown_as_not_yet_verified(tmp_path):
    site = load_site(add_entry(tmp_path))
    appendix = next(page for page in site_pages(site) if page.src_uri == "pytorch/appendix-a.md")
    html = Renderer(site).render(appendix, lambda target, anchor=None: target).html
    row = html[html.index(f'id="{ROW["id"]}"'):]
    row = row[:row.index("</tr>")]
    assert ROW["fragment"] in row and "<code>.unsqueeze()</code>" in row
    assert 'data-stamp="unverified"' in row and "尚未实跑核对" in row
    assert "没跑过" in row  # and its release line says no release ran it


def test_both_lookups_find_a_new_row(tmp_path):
    lookup = Lookup(lookup_data(add_entry(tmp_path)))
    literal = lookup(ROW["fragment"])
    assert literal.verdict == "literal" and ROW["id"] in literal.ids
    mine = lookup("RuntimeError: Tensors must have same number of dimensions: got 2 and 3")
    assert mine.verdict in ("literal", "match")
    assert lookup.entry(mine.ids[0])[1]["fragment"] == ROW["fragment"]  # this row, or the author's copy of it


@pytest.mark.torch
def test_the_examples_reproducer_prints_its_fragment():
    """README's step 5: the verifier stamps the example row as reproduced."""
    case = Case(ROW["id"], (ROW["fragment"],), Reproducer(REPRODUCER["code"]))
    _, verdict = run_all(sys.executable, [case])[ROW["id"]]
    assert verdict.status == REPRODUCED, verdict.why
