"""The real data: everything on the seed page is there, in the seed's order."""

from pathlib import Path

import pytest

from pytorch_error_lookup.inline import parse_inline
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"
# The seed page as served by the original site (shared/seed/000_37017fb467af60bf.txt).
SEED = Path(__file__).resolve().parent / "fixtures" / "seed-appendix-a.txt"


@pytest.fixture(scope="module")
def appendix():
    return load_site(DATA).book("pytorch").pages[0]


def seed_error_lines() -> list[str]:
    """The rows of the seed's error tables, one line each: fragment, cause, chapters."""
    lines, in_table = [], False
    for line in SEED.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("报错原文（片段）"):
            in_table = True
        elif in_table and not line:
            in_table = False
        elif in_table:
            lines.append(line)
    return lines


def plain(markdown: str) -> str:
    """Inline Markdown as the seed's text shows it (code without its backticks)."""
    def text(spans) -> str:
        return "".join(span.text if span.kind in ("text", "code") else text(span.children) for span in spans)
    return text(parse_inline(markdown))


def test_appendix_holds_every_row_of_the_seed_word_for_word(appendix):
    """Each error row of the seed is a row of the data: its fragment, its cause and its chapters,
    word for word. (The data may hold more: an author's new row breaks nothing here.)"""
    lines = seed_error_lines()
    assert len(lines) == 43  # the seed's own count, read from the seed
    rows = appendix.rows("errors")
    for line in lines:
        holding = [row for row in rows if row.fragment.replace("`", "") in line]
        assert holding, f"no row holds the seed's {line[:80]!r}"
        row = max(holding, key=lambda row: len(row.fragment))
        assert plain(row.cause) in line, row.id
        assert line.endswith(" · ".join(row.chapters)), row.id
    seed = SEED.read_text(encoding="utf-8")
    for symptom in appendix.rows("symptoms")[:7]:
        assert plain(symptom.symptom) in seed, symptom.id
    assert len(appendix.rows("symptoms")) >= 7 and len(appendix.rows("not-covered")) >= 3
    assert len(appendix.related) >= 6 and len(appendix.checkpoints) >= 10 and len(appendix.rescue) >= 4
    assert appendix.minutes == 62


def test_sections_come_in_the_seed_order(appendix):
    numerals = [section.title.split("、")[0][-1] for section in appendix.sections]
    assert numerals == list("一二三四五六七八九")
    assert [group.title for group in appendix.groups] == [
        "梯度与就地操作", "形状、类型与模型状态", "数据加载与自定义算子", "保存、导出与编译",
        "不报错，却算错了", "覆盖边界与检查点"]


def test_every_fragment_is_one_line(appendix):
    for entry in appendix.rows("errors"):
        assert "\n" not in entry.fragment, entry.id
        assert "\n" not in (entry.second_line or ""), entry.id


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
