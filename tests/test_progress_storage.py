"""Broken storage never breaks the page and never silently destroys data.

Each fault is injected with an init script, before any of the page's own scripts run: storage
that is blocked (touching `localStorage` throws), full (`setItem` throws), or that holds
something unreadable. The `new_page` fixture fails a test on any console or page error, so
these tests also prove that Material's own scripts survive the same faults.
"""

from __future__ import annotations

import json

import pytest
import yaml
from playwright.sync_api import expect

from conftest import ROOT
from progress_support import APPENDIX, TOTAL, WARNING, checkin, stored, storage_items, ticks, units_on_site

pytestmark = pytest.mark.browser

SITE_NAME = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["site_name"]
KEY = f"refsite-progress:{SITE_NAME}"

# As when a browser blocks site data: the property getters themselves throw.
BLOCKED = """
for (const name of ["localStorage", "sessionStorage"]) {
  Object.defineProperty(window, name, {
    configurable: true,
    get() { throw new DOMException("Access is denied for this document.", "SecurityError"); },
  });
}
"""

FULL = """
Storage.prototype.setItem = function () {
  throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
};
"""


def seed_once(items: dict[str, str]) -> str:
    """An init script that writes `items` before the first page of a tab loads, and never again."""
    return f"""
if (!sessionStorage.getItem("seeded-by-test")) {{
  for (const [key, value] of Object.entries({json.dumps(items)})) localStorage.setItem(key, value);
  sessionStorage.setItem("seeded-by-test", "yes");
}}
"""


def faulty_page(browser, new_page, *scripts):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    for script in scripts:
        context.add_init_script(script)
    return new_page(context=context)


def warning_lines(page):
    return page.locator(f"{WARNING} .rs-storage-warning__line")


def test_blocked_storage_keeps_the_page_working_and_says_so_once(built_site, site_url, browser, new_page):
    page = faulty_page(browser, new_page, BLOCKED)
    page.goto(site_url + APPENDIX)
    warning = page.locator(WARNING)
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("不允许本站存储数据")
    expect(warning).to_contain_text("存不下")

    ticks(page).nth(0).check()
    checkin(page).check()
    expect(ticks(page).nth(0)).to_be_checked()
    expect(checkin(page)).to_be_checked()
    expect(warning_lines(page)).to_have_count(1)

    # Material's palette toggle saves through __md_set: it must keep working too.
    page.get_by_title("切换到深色").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")

    page.goto(site_url)
    expect(page.locator(TOTAL)).to_have_text(f"0/{units_on_site(built_site)}")
    expect(page.locator(WARNING)).to_contain_text("不允许本站存储数据")
    expect(page.get_by_role("button", name="导出进度")).to_be_visible()


def test_full_storage_keeps_what_was_saved_and_says_so_once(built_site, site_url, browser, new_page):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = new_page(context=context)
    page.goto(site_url + APPENDIX)
    ticks(page).nth(0).check()
    saved = stored(page)
    expect(page.locator(WARNING)).to_be_hidden()

    context.add_init_script(FULL)
    page.reload()
    expect(ticks(page).nth(0)).to_be_checked()
    ticks(page).nth(1).check()
    expect(ticks(page).nth(1)).to_be_checked()
    expect(page.locator(WARNING)).to_contain_text("存储空间满了")
    ticks(page).nth(2).check()
    checkin(page).check()
    expect(warning_lines(page)).to_have_count(1)
    assert stored(page) == saved

    page.goto(site_url)
    expect(page.locator(TOTAL)).to_have_text(f"1/{units_on_site(built_site)}")


UNREADABLE = {
    "not JSON": "{ticked: cp-what-to-search",
    "not our format": json.dumps(["cp-what-to-search"]),
    "a newer version": json.dumps({"format": "refsite-progress", "version": 99, "pages": {}}),
}


@pytest.mark.parametrize("value", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_an_unreadable_value_is_moved_aside_not_overwritten(site_url, browser, new_page, value):
    # Material's own palette setting is garbled too: the theme must shrug that off.
    page = faulty_page(browser, new_page, seed_once({KEY: value, "/.__palette": "{garbled"}))
    page.goto(site_url + APPENDIX)
    warning = page.locator(WARNING)
    expect(warning).to_contain_text("读不懂")
    asides = {key: item for key, item in storage_items(page).items() if key.startswith(f"{KEY}:unreadable:")}
    assert list(asides.values()) == [value]
    expect(warning).to_contain_text(next(iter(asides)))

    ticks(page).nth(0).check()
    page.reload()
    expect(ticks(page).nth(0)).to_be_checked()
    expect(page.locator(WARNING)).to_be_hidden()
    assert storage_items(page)[next(iter(asides))] == value


def test_an_unreadable_value_that_cannot_be_moved_aside_is_left_alone(site_url, browser, new_page):
    garbage = "{ticked: cp-what-to-search"
    page = faulty_page(browser, new_page, seed_once({KEY: garbage}), FULL)
    page.goto(site_url + APPENDIX)
    expect(page.locator(WARNING)).to_contain_text("读不懂")
    expect(page.locator(WARNING)).to_contain_text("不会保存")

    ticks(page).nth(0).check()
    checkin(page).check()
    expect(ticks(page).nth(0)).to_be_checked()
    expect(warning_lines(page)).to_have_count(1)
    assert stored(page) == garbage
    assert not [key for key in storage_items(page) if ":unreadable:" in key]
