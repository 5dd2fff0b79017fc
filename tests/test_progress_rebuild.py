"""Editing the data never moves or loses a reader's tick.

A private copy of the project is built and served; a reader ticks some checkpoints; then the
author reorders, removes and adds checkpoints and rebuilds into the same folder, and the reader
reloads. Ticks follow their checkpoints, a removed checkpoint's tick is kept but not counted,
and it counts again when the checkpoint comes back.
"""

from __future__ import annotations

import pytest
import yaml
from playwright.sync_api import expect

from conftest import copy_project, mkdocs_build, serving
from progress_support import APPENDIX, BOOK_INDEX, TOTAL, checkin, ticks, units_on_site

pytestmark = pytest.mark.browser

NEW_CHECKPOINT = {"id": "cp-added-later", "question": "后来加的问题？", "answer": "后来加的答案。"}


def rewrite_checkpoints(project, change):
    path = project / "data" / "pytorch" / "appendix-a.yml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["checkpoints"] = change(data["checkpoints"])
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def build(project, site):
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stderr


def ticked_questions(page) -> dict[str, bool]:
    """Each checkpoint's question as the reader sees it, and whether its box is ticked."""
    checkpoints = page.locator("[data-checkpoint]")
    return {checkpoint.locator(".rs-checkpoint__question").inner_text():
            checkpoint.get_by_role("checkbox", name="我答上来了").is_checked()
            for checkpoint in checkpoints.all()}


def test_reordering_removing_and_adding_checkpoints_keeps_the_right_ticks(tmp_path, page):
    project, site = copy_project(tmp_path / "project"), tmp_path / "site"
    original = yaml.safe_load((project / "data/pytorch/appendix-a.yml").read_text(encoding="utf-8"))["checkpoints"]
    removed, kept_a, kept_b = original[0], original[2], original[5]
    build(project, site)
    with serving(site, page) as url:
        page.goto(url + APPENDIX)
        for index in (0, 2, 5):
            ticks(page).nth(index).check()
        checkin(page).check()
        page.goto(url)
        expect(page.locator(TOTAL)).to_have_text(f"4/{units_on_site(site)}")
        questions = {cp["id"]: text for cp, text in zip(original, ticked_questions_on(page, url).keys())}

        # Reverse the order, drop the first checkpoint, add a new one at the top.
        rewrite_checkpoints(project, lambda cps: [NEW_CHECKPOINT] + list(reversed(cps[1:])))
        build(project, site)
        page.goto(url + APPENDIX)
        expect(checkin(page)).to_be_checked()
        shown = ticked_questions(page)
        assert [question for question, ticked in shown.items() if ticked] == [questions[kept_b["id"]],
                                                                               questions[kept_a["id"]]]
        assert questions[removed["id"]] not in shown
        assert shown[NEW_CHECKPOINT["question"]] is False
        page.goto(url + BOOK_INDEX)
        expect(page.locator("[data-progress='pytorch/appendix-a'] [data-progress-count]")).to_have_text(
            f"3/{len(original) + 1}")  # one removed, one added: the same number of units
        page.goto(url)
        expect(page.locator(TOTAL)).to_have_text(f"3/{units_on_site(site)}")

        # The removed checkpoint comes back: its tick was kept all along.
        rewrite_checkpoints(project, lambda cps: cps + [removed])
        build(project, site)
        page.goto(url + APPENDIX)
        expect(checkin(page)).to_be_checked()  # the stored ticks have been applied
        assert ticked_questions(page)[questions[removed["id"]]] is True
        page.goto(url)
        expect(page.locator(TOTAL)).to_have_text(f"4/{units_on_site(site)}")


def ticked_questions_on(page, url):
    page.goto(url + APPENDIX)
    return ticked_questions(page)
