"""Checkpoints, check-ins and progress in real Chromium, as a reader uses them.

Every page comes from the `page`/`new_page` fixtures, so any console error, page error or
failed request fails the test.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from progress_support import (APPENDIX, BOOK_INDEX, CHAPTER, CHECKIN, TOTAL, checkin, storage_key,
                              stored, ticks, units_on_site)

pytestmark = pytest.mark.browser


def test_a_checkpoint_shows_its_question_a_collapsed_answer_and_a_labelled_tick(site_url, page):
    page.goto(site_url + APPENDIX)
    checkpoint = page.locator("[data-checkpoint]").first
    answer = checkpoint.locator("details[data-answer]")
    expect(checkpoint.locator(".rs-checkpoint__question")).to_be_visible()
    expect(answer.locator("summary")).to_have_text("👀 答案")
    expect(answer.locator("p")).to_be_hidden()
    answer.locator("summary").click()
    expect(answer.locator("p")).to_be_visible()
    expect(checkpoint.get_by_role("checkbox", name="我答上来了")).not_to_be_checked()
    expect(checkin(page)).to_have_count(1)


def test_ticks_and_checkin_survive_a_reload(site_url, page):
    page.goto(site_url + APPENDIX)
    ticks(page).nth(1).check()
    ticks(page).nth(3).check()
    checkin(page).check()
    page.reload()
    expect(ticks(page).nth(1)).to_be_checked()
    expect(ticks(page).nth(3)).to_be_checked()
    expect(checkin(page)).to_be_checked()
    states = [box.is_checked() for box in ticks(page).all()]
    assert [i for i, state in enumerate(states) if state] == [1, 3]

    ticks(page).nth(1).uncheck()
    page.reload()
    expect(ticks(page).nth(3)).to_be_checked()
    expect(ticks(page).nth(1)).not_to_be_checked()


def test_ticks_are_stored_by_page_and_checkpoint_id(site_url, page):
    page.goto(site_url + APPENDIX)
    box = ticks(page).nth(2)
    checkpoint_id = box.get_attribute("data-checkpoint-id")
    box.check()
    progress = json.loads(stored(page))
    assert progress["format"] == "refsite-progress" and progress["version"] == 1
    assert list(progress["pages"]["pytorch/appendix-a"]["checkpoints"]) == [checkpoint_id]
    assert storage_key(page) == "refsite-progress:PyTorch 报错反查"


def test_home_total_and_book_index_grow_with_ticks_and_checkins(built_site, site_url, page):
    units = units_on_site(built_site)
    page.goto(site_url)
    expect(page.locator(TOTAL)).to_have_text(f"0/{units}")

    page.goto(site_url + APPENDIX)
    ticks(page).nth(0).check()
    ticks(page).nth(4).check()
    page.goto(site_url + CHAPTER)
    checkin(page).check()

    page.goto(site_url)
    expect(page.locator(TOTAL)).to_have_text(f"3/{units}")
    total = page.locator("[data-progress=''] progress")
    assert total.evaluate("bar => [bar.value, bar.max]") == [3, units]
    expect(total).to_have_accessible_name("全部书的总进度")
    expect(page.locator("[data-progress='pytorch'] [data-progress-count]")).to_have_text(f"3/{units}")

    page.goto(site_url + BOOK_INDEX)
    appendix_units = ticks_on(page, site_url + APPENDIX) + 1
    page.goto(site_url + BOOK_INDEX)
    expect(page.locator("[data-progress='pytorch/appendix-a'] [data-progress-count]")).to_have_text(
        f"2/{appendix_units}")
    expect(page.locator("[data-progress='pytorch/02'] [data-progress-count]")).to_have_text("1/1")
    expect(page.locator("[data-progress='pytorch/03'] [data-progress-count]")).to_have_text("0/1")


def ticks_on(page, url) -> int:
    page.goto(url)
    return ticks(page).count()


def test_another_open_tab_follows_at_once(built_site, site_url, browser, new_page):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        home = new_page(context=context)
        home.goto(site_url)
        book = new_page(context=context)
        book.goto(site_url + BOOK_INDEX)
        reader = new_page(context=context)
        reader.goto(site_url + APPENDIX)
        twin = new_page(context=context)
        twin.goto(site_url + APPENDIX)
        units = units_on_site(built_site)

        ticks(reader).nth(0).check()
        checkin(reader).check()
        expect(home.locator(TOTAL)).to_have_text(f"2/{units}")
        expect(book.locator("[data-progress='pytorch/appendix-a'] [data-progress-count]")).to_contain_text("2/")
        expect(ticks(twin).nth(0)).to_be_checked()
        expect(checkin(twin)).to_be_checked()

        ticks(twin).nth(0).uncheck()
        expect(ticks(reader).nth(0)).not_to_be_checked()
        expect(home.locator(TOTAL)).to_have_text(f"1/{units}")
    finally:
        context.close()


def export_file(page, tmp_path, name="progress.json"):
    with page.expect_download() as download:
        page.get_by_role("button", name="导出进度").click()
    path = tmp_path / name
    download.value.save_as(path)
    return path


def reset(page, confirm: bool):
    page.get_by_role("button", name="清空进度…").click()
    dialog = page.get_by_role("dialog", name="清空全部进度？")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="清空" if confirm else "取消").click()
    expect(dialog).to_be_hidden()


def import_file(page, path_or_payload):
    page.locator("input[data-progress-import]").set_input_files(path_or_payload)


def test_export_then_import_round_trips_and_merges(built_site, site_url, page, tmp_path):
    units = units_on_site(built_site)
    page.goto(site_url + APPENDIX)
    ticks(page).nth(0).check()
    ticks(page).nth(5).check()
    page.goto(site_url + CHAPTER)
    checkin(page).check()

    page.goto(site_url)
    exported = export_file(page, tmp_path)
    status = page.locator("[data-progress-panel-status]")
    expect(status).to_contain_text("3 项进度")
    saved = json.loads(exported.read_text(encoding="utf-8"))
    assert set(saved["pages"]) == {"pytorch/appendix-a", "pytorch/02"}
    assert saved["site"] == "PyTorch 报错反查"

    reset(page, confirm=False)
    expect(page.locator(TOTAL)).to_have_text(f"3/{units}")
    reset(page, confirm=True)
    expect(page.locator(TOTAL)).to_have_text(f"0/{units}")
    expect(status).to_contain_text("进度已清空")

    # Something ticked after the export must survive the import: an import only adds.
    page.goto(site_url + APPENDIX)
    ticks(page).nth(7).check()
    page.goto(site_url)
    import_file(page, exported)
    expect(status).to_contain_text("导入 3 项新的进度")
    expect(page.locator(TOTAL)).to_have_text(f"4/{units}")
    page.goto(site_url + APPENDIX)
    for index in (0, 5, 7):
        expect(ticks(page).nth(index)).to_be_checked()
    page.goto(site_url + CHAPTER)
    expect(page.locator(CHECKIN)).to_be_checked()

    page.goto(site_url)
    import_file(page, exported)
    expect(status).to_contain_text("都已经有了")
    expect(page.locator(TOTAL)).to_have_text(f"4/{units}")


BAD_FILES = {
    "not-json.json": b"{ this is not json",
    "other-format.json": json.dumps({"ticks": ["cp-what-to-search"]}).encode(),
    "future-version.json": json.dumps({"format": "refsite-progress", "version": 2, "pages": {}}).encode(),
    "bad-time.json": json.dumps({"format": "refsite-progress", "version": 1,
                                 "pages": {"pytorch/appendix-a": {"checkpoints": {"cp-x": 42}}}}).encode(),
    "other-site.json": json.dumps({"format": "refsite-progress", "version": 1, "site": "another site",
                                   "pages": {"pytorch/02": {"checkin": "2025-01-01T00:00:00Z",
                                                            "checkpoints": {}}}}).encode(),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_a_bad_import_file_is_refused_and_changes_nothing(built_site, site_url, page, name):
    units = units_on_site(built_site)
    page.goto(site_url + APPENDIX)
    ticks(page).nth(2).check()
    page.goto(site_url)
    before = stored(page)

    import_file(page, {"name": name, "mimeType": "application/json", "buffer": BAD_FILES[name]})
    status = page.locator("[data-progress-panel-status]")
    expect(status).to_contain_text(f"没有导入「{name}」")
    expect(status).to_contain_text("你的进度没有任何改动")
    expect(page.locator(TOTAL)).to_have_text(f"1/{units}")
    assert stored(page) == before


def test_over_http_the_store_page_is_never_fetched_and_the_panel_only_on_the_home_page(site_url, page):
    fetched = []
    page.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
    page.goto(site_url + APPENDIX)
    ticks(page).nth(0).check()
    expect(ticks(page).nth(0)).to_be_checked()
    page.wait_for_load_state("networkidle")
    assert stored(page) is not None
    assert page.get_by_role("button", name="导出进度").count() == 0  # the panel is the home page's

    page.goto(site_url)
    expect(page.get_by_role("button", name="导出进度")).to_be_visible()
    expect(page.locator(TOTAL)).to_contain_text("1/")
    # One linked script for our code at load (hooks/linking_hooks.py); the store page is never fetched.
    assert fetched.count("modules-linked.js") == 2 and not [name for name in fetched if name.endswith(".js")
                                                            and name.startswith(("progress-", "find"))]
    assert not [name for name in fetched if name.startswith("progress-store-frame")]
    assert page.locator("iframe[data-progress-store-frame]").count() == 0
