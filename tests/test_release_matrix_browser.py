"""The release matrix on the built site in Chromium, at 1280 and 390 px: the line under each
stamp, the release view on 附录A and its stored choice, the differing outputs on chapter pages,
and the in-page search, which must not count the matrix's version numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import ROOT, copy_project, mkdocs_build, serving
from find_support import open_reference, status
from progress_support import storage_key, stored, ticks
from refsite.model import DIFFERING_KINDS
from refsite.pipeline import load_site

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
APPENDIX = "pytorch/appendix-a.html"
BOOK_DIR = ROOT / "data" / "pytorch"
DIFFERING = set(DIFFERING_KINDS)  # in other words, something else, nothing, or not reached
WIDTHS = [1280, 390]
# A row that torch 1.x and 2.0-2.9 printed in words of their own (`expected scalar type Long but
# found Float`), 2.12 on as the row has it.
REWORDED = "target-dtype"


def seen_by_row(release: str) -> dict[str, str]:
    """How each row came out on `release`, as the page built from the data shows it."""
    page = load_site(ROOT / "data").book("pytorch").pages[0]
    return {row.id: run.shown_as for row in page.rows() if getattr(row, "releases", None)
            for run in row.releases.runs if run.torch_release == release}


def marked(page, mark: str) -> list[str]:
    return page.eval_on_selector_all(f'[data-entry][data-release-mark="{mark}"]', "rows => rows.map(r => r.id)")


def choose(page, release: str):
    page.get_by_label("我的 torch 是").select_option(release)


def screenshot(target, name: str):
    """A page or one element of it; an element is scrolled to and painted first (off-screen
    sections of 附录A skip rendering until they come near)."""
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / name))


@pytest.mark.parametrize("width", WIDTHS)
def test_every_checked_row_shows_its_releases_under_the_stamp_and_fits(site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    rows = page.locator("[data-entry]:has([data-stamp])")
    lines = page.locator("[data-entry] [data-stamp] ~ .rs-releases")
    assert rows.count() == lines.count() > 40
    row = page.locator(f"#{REWORDED}")
    line = row.locator(".rs-releases")
    expect(line).to_be_visible()
    expect(line).to_contain_text("各版本 torch：")
    expect(line).to_contain_text("换了措辞 1.0.1–")
    expect(line).to_contain_text("逐字一致 2.12.1–2.15.0")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"
    sticking_out = page.eval_on_selector_all(".rs-releases", """lines => lines.filter(line => {
        const cell = line.closest("td").getBoundingClientRect();
        return [...line.children].some(part => part.getBoundingClientRect().right > cell.right + 1);
    }).length""")
    assert sticking_out == 0
    screenshot(row, f"release-line-{width}.png")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_release_view_marks_the_rows_that_differ_and_hides_none(site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    shown_before = page.locator("[data-entry]").evaluate_all(
        "rows => rows.filter(r => r.getClientRects().length > 0).length")
    expected = sorted(row_id for row_id, seen in seen_by_row("2.0.1").items() if seen in DIFFERING)
    assert expected  # torch 2.0.1 has no torch.export, and loads pickles by default

    choose(page, "2.0.1")
    expect(page.locator("[data-release-status]")).to_contain_text(
        f"torch 2.0.1：{len(expected)} 条的原文在这个版本上不同")
    assert sorted(marked(page, "differs")) == expected
    assert page.locator("[data-entry]").evaluate_all(
        "rows => rows.filter(r => r.getClientRects().length > 0).length") == shown_before
    current = page.locator("#guard-data-dependent [data-release-current]")
    expect(current).to_have_attribute("data-seen", "api-missing")
    page.locator("[data-release-view]").scroll_into_view_if_needed()
    screenshot(page, f"release-view-{width}.png")
    screenshot(page.locator(f"#{REWORDED}"), f"release-view-marked-row-{width}.png")

    choose(page, "2.13.0")  # the reference: nothing differs there
    expect(page.locator("[data-release-status]")).to_contain_text("torch 2.13.0：0 条")
    assert marked(page, "differs") == []
    choose(page, "")
    expect(page.locator("[data-release-status]")).to_have_text("")
    assert page.locator("[data-release-mark]").count() == 0


def test_the_chosen_release_is_kept_with_the_progress(site_url, page):
    page.goto(site_url + APPENDIX)
    ticks(page).nth(0).check()
    choose(page, "2.6.0")
    page.wait_for_function("key => JSON.parse(localStorage.getItem(key) || '{}').settings?.torch === '2.6.0'",
                           arg=storage_key(page))
    progress = json.loads(stored(page))
    assert progress["version"] == 1 and len(progress["pages"]["pytorch/appendix-a"]["checkpoints"]) == 1

    page.goto(site_url + "pytorch/02.html")
    page.goto(site_url + APPENDIX)
    expect(page.get_by_label("我的 torch 是")).to_have_value("2.6.0")
    expect(ticks(page).nth(0)).to_be_checked()
    expected = sorted(row_id for row_id, seen in seen_by_row("2.6.0").items() if seen in DIFFERING)
    expect(page.locator('[data-release-mark="differs"]')).to_have_count(len(expected))


def test_progress_stored_before_the_release_view_is_read_and_kept(site_url, page):
    page.goto(site_url + APPENDIX)
    checkpoint = ticks(page).nth(1).get_attribute("data-checkpoint-id")
    old = {"format": "refsite-progress", "version": 1,
           "pages": {"pytorch/appendix-a": {"checkin": "2025-05-01T09:30:00.000Z",
                                            "checkpoints": {checkpoint: "2025-05-01T09:12:00.000Z"}}}}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [storage_key(page), json.dumps(old)])
    page.reload()
    expect(ticks(page).nth(1)).to_be_checked()
    expect(page.get_by_label("我的 torch 是")).to_have_value("")

    choose(page, "2.0.1")
    page.wait_for_function("key => JSON.parse(localStorage.getItem(key)).settings?.torch === '2.0.1'",
                           arg=storage_key(page))
    assert json.loads(stored(page)) == {**old, "settings": {"torch": "2.0.1"}}
    assert not [key for key in page.evaluate("() => Object.keys(localStorage)") if ":unreadable:" in key]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_chapter_page_opens_the_other_releases_outputs(site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    chapter = page.locator(f"#{REWORDED} .rs-goto a").first.get_attribute("href")
    page.goto(site_url + "pytorch/" + chapter)
    item = page.locator(f'[data-backlink="{REWORDED}"]')
    differing = [path.stem.removeprefix("verification-") for path in BOOK_DIR.glob("verification-*.yml")
                 if seen_by_row(path.stem.removeprefix("verification-"))[REWORDED] in DIFFERING]
    assert {"1.0.1", "2.0.1"} <= set(differing)
    expect(item.locator("details[data-release-output]")).to_have_count(len(differing))
    oldest = item.locator('details[data-release-output="1.0.1"]')
    expect(oldest.locator("pre")).to_be_hidden()
    oldest.locator("summary").click()
    expect(oldest.locator("pre")).to_be_visible()
    expect(oldest.locator("pre")).to_contain_text("Expected object of scalar type Long but got scalar type Float")
    # The wordings the lookup knows for the row, each with the releases that print it.
    expect(item.locator("[data-wordings]")).to_contain_text("expected scalar type Long but found Float")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the chapter page scrolls sideways by {overflow}px at {width}px"
    screenshot(item, f"release-outputs-chapter-{width}.png")


def find_count(page, site_url: str, query: str) -> str:
    open_reference(page, site_url, query)
    expect(page.locator("[data-find-status]")).not_to_have_text("")
    return status(page)


def test_the_matrix_adds_no_search_hits(tmp_path, built_site, site_url, page):
    """`2.6` is in a cause ("PyTorch 2.6 起"); the matrix's 2.6.0 must not add to its count."""
    project = copy_project(tmp_path / "project")
    for path in (project / "data" / "pytorch").glob("verification-*.yml"):
        path.unlink()
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    with serving(tmp_path / "site", page) as url:
        without = find_count(page, url, "2.6")
        assert page.locator(".rs-releases", has_text="2.6.0").count() == 0
    with_matrix = find_count(page, site_url, "2.6")
    assert page.locator('.rs-releases[data-releases*="2.6.0:"]').count() > 40
    assert page.locator(".rs-releases", has_text="2.6.0").count() > 0  # "2.6" is on screen there
    assert re.search(r"\d", without) and with_matrix == without
