"""The real data: everything on the seed page is there, in the seed's order."""

from pathlib import Path

import pytest

from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"
# The seed page as served by the original site (shared/seed/000_37017fb467af60bf.txt).
SEED = Path(__file__).resolve().parent / "fixtures" / "seed-appendix-a.txt"


@pytest.fixture(scope="module")
def appendix():
    return load_site(DATA).book("pytorch").pages[0]


def test_appendix_holds_every_row_of_the_seed(appendix):
    assert len(appendix.rows("errors")) == 43
    assert len(appendix.rows("symptoms")) == 7
    assert len(appendix.rows("not-covered")) == 3
    assert len(appendix.related) == 6
    assert len(appendix.checkpoints) == 10
    assert len(appendix.rescue) == 4
    assert appendix.minutes == 62


def test_sections_come_in_the_seed_order(appendix):
    numerals = [section.title.split("、")[0][-1] for section in appendix.sections]
    assert numerals == list("一二三四五六七八九")
    assert [group.title for group in appendix.groups] == [
        "梯度与就地操作", "形状、类型与模型状态", "数据加载与自定义算子", "保存、导出与编译",
        "不报错，却算错了", "覆盖边界与检查点"]


def test_every_fragment_is_one_line_of_the_seed(appendix):
    seed = SEED.read_text(encoding="utf-8")
    for entry in appendix.rows("errors"):
        assert "\n" not in entry.fragment
        assert entry.fragment in seed, entry.id
        if entry.second_line:
            assert entry.second_line in seed, entry.id


def test_context_notes_are_modelled_apart_from_the_fragment(appendix):
    by_id = {entry.id: entry for entry in appendix.rows("errors")}
    assert by_id["load-module-not-found"].fragment == "ModuleNotFoundError: No module named 'xxx'"
    assert by_id["load-module-not-found"].context == "发生在 `torch.load` 里"
    assert by_id["worker-envelope"].second_line == "Original Traceback (most recent call last):"
    assert by_id["anomaly-hint"].preface == "上面那条后面跟着"


def test_chapter_pages_cite_every_row_that_points_to_them():
    book = load_site(DATA).book("pytorch")
    cited = {(c.page.id, c.entry.id) for chapter in book.chapters for c in book.citations(chapter.id)}
    rows = book.pages[0].rows("errors") + book.pages[0].rows("symptoms")
    assert cited == {("appendix-a", row.id) for row in rows}
    assert [c.entry.id for c in book.citations("07")] == ["batchnorm-single", "forgot-eval"]


def test_books_outside_this_copy_are_data_without_a_link():
    site = load_site(DATA)
    assert [book.id for book in site.included_books] == ["pytorch"]
    others = [book for book in site.books if not book.included]
    assert {book.title for book in others} == {
        "机器学习与深度学习基础", "AI基础设施", "Python 会咬你的地方", "框架底下是 C++"}
    assert all(book.url is None for book in others)
