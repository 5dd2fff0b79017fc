"""The offline copy in real Chromium: the built folder opened from disk (`file://`), no network.

Every request that is not a file is routed to fail and recorded; each test asserts that none was
attempted. Pages come from `new_page`, so any console error, page error or failed request also
fails the test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

from progress_support import TOTAL, ticks, units_on_site

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
APPENDIX_DATA = ROOT / "data" / "pytorch" / "appendix-a.yml"
ZERO_WIDTH_SPACE = "\u200b"  # how Material's index marks where jieba cut Chinese text


def appendix_rows(kind: str) -> list[dict]:
    """The rows of 附录A's sections of one kind ("errors", "symptoms"), in page order."""
    data = yaml.safe_load(APPENDIX_DATA.read_text(encoding="utf-8"))
    return [row for group in data["groups"] for section in group["sections"]
            if section.get("kind") == kind for row in section.get("entries", [])]


@dataclass
class Offline:
    """Chromium pages on the built folder, with every non-file request failed and recorded."""

    site: Path
    context: object
    make_page: object
    attempted: list[str] = field(default_factory=list)

    def open(self, path: str, page=None):
        page = page or self.make_page(context=self.context)
        page.goto((self.site / path).as_uri())
        return page


@pytest.fixture
def offline(browser, new_page, built_site):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    copy = Offline(built_site, context, new_page)

    def refuse(route):
        copy.attempted.append(route.request.url)
        route.abort()

    context.route(lambda url: not url.startswith("file:"), refuse)
    yield copy
    context.close()


def site_search(page, query: str):
    """Type into Material's search box as a reader does; the result links once they settle."""
    box = page.locator(".md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup
    results = page.locator(".md-search-result__link")
    expect(results.first).to_be_visible()
    return results


def test_a_reader_goes_from_home_to_an_answer_and_a_tick_counted_at_home_all_from_disk(offline, built_site):
    page = offline.open("index.html")

    # Reach 附录A by clicking, as a reader does.
    page.locator("a.rs-book__title").first.click()
    expect(page).to_have_url(re.compile(r"/pytorch/index\.html$"))
    page.get_by_role("link", name=re.compile("附录A")).first.click()
    expect(page).to_have_url(re.compile(r"/pytorch/appendix-a\.html$"))

    # In-page search: part of an error's verbatim text lands on its row.
    row = appendix_rows("errors")[0]
    page.get_by_role("searchbox", name="在本页查找报错片段").fill(row["fragment"][:30])
    expect(page.locator("[data-find-status]")).to_contain_text("匹配")
    expect(page.locator("[aria-current='true']")).to_have_attribute("id", row["id"])

    # Site search, in Chinese, for a word in the middle of a sentence; open the hit.
    results = site_search(page, "精度")
    hit = results.filter(has_text=re.compile("验证.?集.?精度")).first
    expect(hit).to_have_attribute("href", re.compile(r"appendix-a\.html(\?[^#]*)?#"))
    hit.click()
    expect(page).to_have_url(re.compile(r"/pytorch/appendix-a\.html"))

    # Open an answer, tick its checkpoint.
    checkpoint = page.locator("[data-checkpoint]").first
    checkpoint.locator("summary").click()
    expect(checkpoint.locator("details[data-answer] p")).to_be_visible()
    ticks(page).first.check()
    expect(ticks(page).first).to_be_checked()

    # Home, by the breadcrumb: the tick is in the total.
    page.get_by_role("link", name="🏠 总目录").click()
    expect(page).to_have_url(re.compile(r"/index\.html$"))
    expect(page.locator(TOTAL)).to_have_text(f"1/{units_on_site(built_site)}")
    expect(page.locator("[data-storage-warning]")).to_be_hidden()

    assert offline.attempted == [], "the offline copy tried to reach the network"


@pytest.mark.parametrize("query, expected", [
    ("Trying to backward", "Trying to backward through the graph"),
    ("验证集", "验证集"),
    ("精度", "精度"),
], ids=["english-error-text", "chinese-word", "chinese-word-mid-sentence"])
def test_site_search_finds_from_disk(offline, query, expected):
    page = offline.open("pytorch/appendix-a.html")
    results = site_search(page, query)
    texts = [text.replace(ZERO_WIDTH_SPACE, "") for text in results.all_inner_texts()]
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(expected in text for text in texts), texts
    assert any("appendix-a.html" in href for href in hrefs), hrefs
    assert offline.attempted == []


def test_a_tick_on_one_page_reaches_the_home_page_already_open(offline, built_site):
    home = offline.open("index.html")
    expect(home.locator(TOTAL)).to_have_text(f"0/{units_on_site(built_site)}")
    appendix = offline.open("pytorch/appendix-a.html")
    ticks(appendix).nth(1).check()
    expect(home.locator(TOTAL)).to_have_text(f"1/{units_on_site(built_site)}")
    assert offline.attempted == []


def test_from_disk_the_modules_run_as_one_classic_script(offline):
    page = offline.open("pytorch/appendix-a.html")
    # No module script is left to be refused (Chromium would log a CORS error for each one).
    expect(page.locator("script[src$='modules-linked.js']")).to_have_count(1)
    assert page.locator("script[type='module']").count() == 0
    assert offline.attempted == []


def test_from_disk_the_home_page_panel_and_the_store_page_come_from_the_linked_script(offline):
    home = offline.open("index.html")
    # Both modules are loaded by import(): from disk they must be in the linked script.
    expect(home.get_by_role("button", name="导出进度")).to_be_visible()
    expect(home.locator("iframe[data-progress-store-frame]")).to_have_count(1)
    appendix = offline.open("pytorch/appendix-a.html")
    expect(appendix.locator("iframe[data-progress-store-frame]")).to_have_count(1)
    assert offline.attempted == []
