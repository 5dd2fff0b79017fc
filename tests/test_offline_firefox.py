"""The offline copy in Firefox (Debian's firefox-esr), driven through Marionette.

Firefox gives every file:// page a localStorage of its own, so the progress on 附录A reaches the
home page only through the store page every page embeds (progress-filestore.js). These tests
first check that premise on this Firefox, then the reader's path across pages. The profile
keeps Firefox's default file:// origin policy (see marionette_client.READER_PREFERENCES).
"""

from __future__ import annotations

import pytest

from marionette_client import Firefox
from progress_support import TOTAL, units_on_site

pytestmark = pytest.mark.browser

APPENDIX = "pytorch/appendix-a.html"
ZERO_WIDTH_SPACE = "\u200b"


@pytest.fixture(scope="module")
def firefox(firefox_executable):  # found or installed (conftest), else these tests are skipped
    browser = Firefox()
    yield browser
    browser.close()


def open_page(firefox, site, path):
    firefox.go((site / path).as_uri())


def test_this_firefox_gives_each_file_page_a_storage_of_its_own(firefox, built_site):
    open_page(firefox, built_site, APPENDIX)
    firefox.run("localStorage.setItem('refsite-offline-test', 'written on 附录A')")
    open_page(firefox, built_site, "index.html")
    assert firefox.run("return localStorage.getItem('refsite-offline-test')") is None
    open_page(firefox, built_site, APPENDIX)
    assert firefox.run("return localStorage.getItem('refsite-offline-test')") == "written on 附录A"


def test_a_tick_on_a_page_opened_from_disk_shows_in_the_home_total(firefox, built_site):
    units = units_on_site(built_site)
    open_page(firefox, built_site, APPENDIX)
    assert firefox.wait_for("return document.querySelector('iframe[data-progress-store-frame]') !== null")
    firefox.run("document.querySelector('input[data-tick]').click()")
    assert firefox.wait_for("return document.querySelector('input[data-tick]').checked")

    open_page(firefox, built_site, "index.html")
    total = f"document.querySelector({TOTAL!r}).textContent"
    assert firefox.wait_for(f"return {total} === {f'1/{units}'!r} && {total}") == f"1/{units}"
    assert firefox.run("return document.querySelector('[data-storage-warning]').hidden")
    # The home page's own storage holds no progress: the store page carried it.
    assert not firefox.run("return Object.keys(localStorage).some(key => key.startsWith('refsite-progress:'))")

    open_page(firefox, built_site, APPENDIX)
    assert firefox.wait_for("return document.querySelector('input[data-tick]').checked")


def test_in_page_search_runs_from_disk(firefox, built_site):
    open_page(firefox, built_site, APPENDIX)
    firefox.run("""
        const box = document.querySelector('[data-find-input]');
        box.value = 'size mismatch';
        box.dispatchEvent(new Event('input', { bubbles: true }));
    """)
    # A query typed while the page's text is still being folded at idle is answered "still
    # counting" first; the count follows once the fold ends (find-matches.js).
    assert "匹配" in firefox.wait_for("""
        const said = document.querySelector('[data-find-status]').textContent;
        return said.includes('还在数') ? '' : said;
    """)


@pytest.mark.parametrize("query", ["Trying to backward", "精度"])
def test_site_search_runs_from_disk(firefox, built_site, query):
    open_page(firefox, built_site, APPENDIX)
    box = firefox.command("WebDriver:FindElement", {"using": "css selector", "value": ".md-search__input"})["value"]
    element = next(iter(box.values()))
    firefox.command("WebDriver:ElementClick", {"id": element})
    firefox.command("WebDriver:ElementSendKeys", {"id": element, "text": query})
    hits = firefox.wait_for("""
        const links = [...document.querySelectorAll('.md-search-result__link')];
        return links.length && links.map(link => [link.getAttribute('href'), link.textContent]);
    """)
    assert hits, f"no site search results for {query!r}"
    assert any("appendix-a.html" in href and query in text.replace(ZERO_WIDTH_SPACE, "")
               for href, text in hits), hits
