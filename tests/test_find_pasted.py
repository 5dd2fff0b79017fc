"""Pasting what a screen shows (real torch 2.13.0 errors, the reader's own names and shapes)
lands on the entry that explains it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from find_support import INPUT, current_entries, open_reference, paste, status, type_query, visible_entries
from pytorch_error_lookup import lookup
# site_url: every test runs on the page as written and on the same page with a long section added.
from find_support import long_site_url, site_url_of_both_shapes  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

PAGE = lookup.Lookup.installed().pages[0]
CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "pasted_errors.yml").read_text(encoding="utf-8"))


def test_there_are_enough_real_errors_to_paste():
    assert len(CASES) >= 20
    assert len({case["lands_on"] for case in CASES}) >= 20


@pytest.mark.parametrize("case", CASES, ids=[f"{case['lands_on']}-{case['how']}" for case in CASES])
def test_a_pasted_error_lands_on_its_entry(page, site_url, case):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    before = visible_entries(page)
    paste(page, case["pasted"])
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    if page.get_attribute("[data-find]", "data-find-verdict") == "match":
        page.press(INPUT, "Enter")  # a literal query's first match is current already
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert current_entries(page) == [case["lands_on"]]
    if page.locator("[data-find-suggestion]").count():
        # Not on the page as pasted: it landed on the best suggestion, which the URL now names.
        assert urlparse(page.url).fragment == case["lands_on"]
    entry = page.locator(f"#{case['lands_on']}").bounding_box()
    assert 0 <= entry["y"] < page.viewport_size["height"]
    assert visible_entries(page) == before


def test_suggestions_are_ranked_links_to_entry_anchors(page, site_url):
    open_reference(page, site_url)
    # Not covered (a BCE target's dtype), so the closest rows are listed as loose guesses.
    type_query(page, "RuntimeError: Found dtype Long but expected Float")
    page.wait_for_selector("[data-find-suggestion]")
    links = page.eval_on_selector_all("[data-find-suggestions] a", "links => links.map(a => a.getAttribute('href'))")
    assert 1 < len(links) <= 5
    assert all(link.startswith("#") for link in links)
    page.press(INPUT, "Enter")  # a loose guess is never landed on by itself
    assert current_entries(page) == []
    page.focus(INPUT)
    page.click("[data-find-suggestions] li:nth-child(2) a")
    assert current_entries(page) == [links[1][1:]]
    assert urlparse(page.url).fragment == links[1][1:]


def paste_told_weak(page, site_url, line: str) -> None:
    """Paste `line` into 附录A's box and wait for the `weak` verdict."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, line)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'weak'")


def terminal_why(line: str, row: str) -> str:
    """What the terminal says under `row`'s suggestion for `line`, as the box shows it."""
    return "⚠️ " + lookup.why_only_suggested(lookup.Lookup.installed()(line), PAGE.entry_by_id[row], line)


def test_a_suggestion_a_paste_rules_out_says_why_as_the_terminal_does(page, site_url):
    """`No module named 'cv2'` alone is any missing package's: the row about a checkpoint's module
    is suggested, with the terminal's reason under it."""
    paste_told_weak(page, site_url, "ModuleNotFoundError: No module named 'cv2'")
    item = page.locator("[data-find-suggestions] li", has=page.locator("a[href='#load-module-not-found']"))
    why = item.locator("[data-find-why]").text_content()
    assert why == terminal_why("ModuleNotFoundError: No module named 'cv2'", "load-module-not-found")
    assert "torch.load" in why


def test_a_size_mismatch_only_reordered_is_suggested_with_the_terminals_reason(page, site_url):
    """GPT-2's Conv1D weight read into a Linear: the same sizes in another order, no width that
    changed. The row is suggested, with the reason the terminal gives under it."""
    line = ("RuntimeError: Error(s) in loading state_dict for GPT2: size mismatch for h.0.attn.c_attn.weight: copying a "
            "param with shape torch.Size([768, 2304]) from checkpoint, the shape in current model is torch.Size([2304, 768]).")
    paste_told_weak(page, site_url, line)
    item = page.locator("[data-find-suggestions] li", has=page.locator("a[href='#size-mismatch']"))
    why = item.locator("[data-find-why]").text_content()
    assert why == terminal_why(line, "size-mismatch") and "换了顺序" in why


def test_words_another_call_prints_too_suggest_the_row_first_saying_its_call_is_not_shown(page, site_url):
    """torch 1.4's collate printed `torch.cat`'s words: without `default_collate` in the paste the
    row is only suggested, first, with the terminal's reason under it."""
    line = ("RuntimeError: invalid argument 0: Sizes of tensors must match except in dimension 0. "
            "Got 3 and 4 in dimension 1 at /pytorch/aten/src/TH/generic/THTensor.cpp:612")
    paste_told_weak(page, site_url, line)
    assert page.get_attribute("[data-find-suggestions] li:first-child a", "href") == "#stack-unequal-size"
    why = page.locator("[data-find-suggestions] li:first-child [data-find-why]").text_content()
    assert why == terminal_why(line, "stack-unequal-size") and "default_collate" in why


@pytest.mark.parametrize("said", ["验证集精度比训练差", "validation accuracy is much lower than training"])
def test_a_symptom_in_the_readers_words_lands_on_its_row(page, site_url, said):
    open_reference(page, site_url)
    before = visible_entries(page)
    type_query(page, said)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'match'")
    assert page.get_attribute("[data-find-suggestions] li:first-child a", "href") == "#forgot-eval"
    assert "你描述的正是这一条讲的现象" in status(page)  # not "only your names differ": it is no error text
    page.press(INPUT, "Enter")
    assert current_entries(page) == ["forgot-eval"]
    assert visible_entries(page) == before


def test_another_releases_wording_says_whose_it_is(page, site_url):
    open_reference(page, site_url)
    type_query(page, "RuntimeError: size mismatch, m1: [2 x 64], m2: [18496 x 256] at /pytorch/aten/src/THC/generic/THCTensorMathBlas.cu:273")
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'match'")
    said = status(page)
    assert "你贴的是 torch 1." in said and "一种说法" in said and "只差你自己的名字" not in said
    page.press(INPUT, "Enter")
    assert current_entries(page) == ["matmul-shapes"]


def _pasted_with_remark(page, site_url, text: str, row: str, verdict: str) -> str:
    """Paste `text` into the box and wait for `verdict`; what the terminal says beside `row`
    for it (lookup.other_cause_remark), which the status must say too."""
    remark = lookup.other_cause_remark(PAGE.entry_by_id[row], text)
    assert remark, "the paste shows none of the row's other causes"
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, text)
    page.wait_for_function(f"() => document.querySelector('[data-find]').dataset.findVerdict === '{verdict}'")
    return remark


def test_a_paste_that_shows_one_of_the_rows_other_causes_is_told_which(page, site_url):
    """A real paste (tune part) whose message fits the missing attribute row and names
    `'module'`: the box says, as the terminal does, that the row's DataParallel cause is the
    likelier one. A typed line without it says nothing of the kind."""
    import real_pastes

    pasted = real_pastes.texts_by_source()["https://github.com/izmailovpavel/flowgmm/issues/8"]
    remark = _pasted_with_remark(page, site_url, pasted, "missing-attribute", "match")
    assert "no attribute 'module'" in remark and f" · ⚠️ {remark} · " in status(page)
    page.press(INPUT, "Enter")  # landed on the row: the status still says which cause
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert status(page).startswith("已跳到对上的那一条") and status(page).endswith(f" · ⚠️ {remark}")
    type_query(page, "AttributeError: 'Net' object has no attribute 'encoder'")
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'match'")
    assert "报错里有" not in status(page)


@pytest.mark.torch
def test_a_pasted_traceback_whose_line_is_on_the_page_says_which_other_cause_it_shows(page, site_url):
    """torch's own traceback of `nn.CrossEntropyLoss(out, y)`: its last line is on the page
    word for word (`literal`), and its frames pass through `legacy_get_string`."""
    import subprocess
    import sys

    code = "import torch\ntorch.nn.CrossEntropyLoss(torch.randn(4, 3), torch.tensor([0, 1, 2, 1]))"
    traceback_text = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stderr
    remark = _pasted_with_remark(page, site_url, traceback_text, "bool-ambiguous", "literal")
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert "legacy_get_string" in remark
    assert current_entries(page) == ["bool-ambiguous"] and status(page).endswith(f" · ⚠️ {remark}")


def test_a_row_whose_words_fit_but_not_its_context_is_the_first_suggestion_with_why(page, site_url):
    """Two images stacked by hand (torch 2.13 output): the row about batching is not said (no
    collate in the traceback), but it is the first suggestion, with the terminal's reason."""
    text = ('Traceback (most recent call last):\n  File "<string>", line 4, in <module>\n'
            "RuntimeError: stack expects each tensor to be equal size, but got [3, 375, 500] at entry 0 "
            "and [3, 500, 333] at entry 1")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, text)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'weak'")
    assert page.get_attribute("[data-find-suggestions] li:first-child a", "href") == "#stack-unequal-size"
    why = page.locator("[data-find-suggestions] li:first-child [data-find-why]").text_content()
    assert why == "⚠️ " + lookup.why_not_said(PAGE.entry_by_id["stack-unequal-size"], text)

