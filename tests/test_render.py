"""Rendering without a build: verbatim fragments, inline Markdown, hostile text, golden HTML."""

import html
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml

from refsite.render import Renderer
from refsite.sitemap import site_pages
from pytorch_error_lookup.lookup import OTHER_CAUSES_LABEL
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"
# The code's own small site (a cut of the real page, kept as it is): its golden HTML does not
# change when an author adds a row to data/, nor with the date of a build.
FIXTURE_DATA = Path(__file__).resolve().parent / "fixtures" / "site" / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"

HOSTILE_FRAGMENT = "<script>alert(1)</script> {{ 7*7 }} {% if x %}| a | b |{% endif %} <class '…'> __init__ *x* [y](z)"
HOSTILE_CAUSE = "<script>alert(2)</script> {{ 7*7 }} {% raw %} | col | col | `__init__` <img src=x onerror=alert(3)>"


def href(target, anchor=None):
    return target.replace(".md", ".html") + (f"#{anchor}" if anchor else "")


def render_all(data_dir):
    site = load_site(data_dir)
    renderer = Renderer(site)
    return {page.src_uri: renderer.render(page, href) for page in site_pages(site)}


@pytest.fixture(scope="module")
def rendered():
    return render_all(DATA)


@pytest.fixture(scope="module")
def md():
    return Renderer(load_site(DATA)).env.filters["md"]


def test_inline_markdown_marks_code_and_keeps_markers(md):
    assert md("⭐ 多半是 `backward()` 调了两次") == "⭐ 多半是 <code>backward()</code> 调了两次"
    assert md("**先确认 `torch.double`。**") == "<strong>先确认 <code>torch.double</code>。</strong>"
    assert md("`` a`b ``") == "<code>a`b</code>"
    assert md("[附录A](appendix-a.md#autograd)") == '<a href="appendix-a.md#autograd">附录A</a>'


def test_inline_markdown_leaves_everything_else_as_typed(md):
    # Unmarked, Markdown would read __init__ as bold "init"; this subset leaves it alone.
    assert md("__init__ 与 *args 与 a | b 与 {{ x }}") == "__init__ 与 *args 与 a | b 与 {{ x }}"
    assert md("未闭合的 `code 和 **bold") == "未闭合的 `code 和 **bold"
    assert md(r"\`不是代码\`") == "`不是代码`"


def test_inline_markdown_shows_html_as_text_and_refuses_script_links(md):
    assert md("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert md("[x](javascript:alert(1))") == "[x](javascript:alert(1))"
    assert md('[x](https://e.org/"onmouseover=alert(1))') == '[x](https://e.org/&#34;onmouseover=alert(1))'


def test_every_fragment_is_rendered_verbatim(rendered):
    page_html = rendered["pytorch/appendix-a.md"].html
    site = load_site(DATA)
    codes = [html.unescape(code) for code in re.findall(r'<code class="rs-fragment"[^>]*>(.*?)</code>', page_html)]
    for entry in site.book("pytorch").pages[0].rows("errors"):
        assert entry.fragment in codes, entry.id


def yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def test_hostile_text_is_text(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    page_file = data / "pytorch" / "appendix-a.yml"
    text = page_file.read_text(encoding="utf-8")
    text = text.replace('fragment: "Inference tensors cannot be saved for backward."',
                        f"fragment: {yaml_string(HOSTILE_FRAGMENT)}")
    text = text.replace(
        'cause: "在 `torch.inference_mode()` 里造的张量流进了要求导的计算。报错自带两个修法：`.clone()` 一份，或者改用 `torch.no_grad()`"',
        f"cause: {yaml_string(HOSTILE_CAUSE)}")
    page_file.write_text(text, encoding="utf-8")
    site = load_site(data)
    entry = next(e for e in site.book("pytorch").pages[0].rows("errors") if e.id == "inference-tensor-saved")
    assert entry.fragment == HOSTILE_FRAGMENT

    page_html = render_all(data)["pytorch/appendix-a.md"].html
    row = page_html[page_html.index('id="inference-tensor-saved"'):]
    row = row[: row.index("</tr>")]

    assert "<script>" not in row and "<img" not in row
    fragment = re.search(r'<code class="rs-fragment"[^>]*>(.*?)</code>', row).group(1)
    assert html.unescape(fragment) == HOSTILE_FRAGMENT
    assert "{{ 7*7 }}" in html.unescape(row) and "49" not in row
    assert "{% raw %}" in html.unescape(row)
    assert "| col | col |" in row and "<table" not in row
    assert "<code>__init__</code>" in row


def test_other_causes_sit_under_the_cause_searchable_and_each_links_its_thread(tmp_path):
    """A row's other causes: under its own, each cause's text searchable (data-find-text) and its
    thread a plain link outside it; hostile text in one is text. A row with none keeps one cell."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    page_file = data / "pytorch" / "appendix-a.yml"
    text = page_file.read_text(encoding="utf-8")
    old = "          - id: inference-tensor-saved\n"
    assert old in text
    page_file.write_text(text.replace(old, old + "            other_causes:\n"
                                      f"              - cause: {yaml_string(HOSTILE_CAUSE)}\n"
                                      "                source: https://example.org/t/1?a=1&b=2\n"), encoding="utf-8")
    page_html = render_all(data)["pytorch/appendix-a.md"].html

    def row(entry_id):
        found = page_html[page_html.index(f'id="{entry_id}"'):]
        return found[: found.index("</tr>")]

    hostile = row("inference-tensor-saved")
    assert "<script>" not in hostile and "<img" not in hostile
    [other] = re.findall(r'<li><span data-find-text>(.*?)</span> <a class="rs-other-causes__source" href="([^"]*)">出处</a></li>',
                         hostile)
    assert "{{ 7*7 }}" in html.unescape(other[0]) and "<code>__init__</code>" in other[0]
    assert html.unescape(other[1]) == "https://example.org/t/1?a=1&b=2"

    listed = row("empty-parameter-list")
    entry = next(e for e in load_site(data).book("pytorch").pages[0].rows("errors") if e.id == "empty-parameter-list")
    assert listed.count('class="rs-other-causes__source"') == len(entry.other_causes) >= 2
    assert 'href="https://github.com/dmlc/dgl/issues/2571"' in listed
    # How to tell the causes whose telltale the data names: said beside them, not searched.
    told = re.findall(r'<span class="rs-other-causes__shown" data-shown-by>(.*?)</span>', listed)
    assert told == ["（报错里有 <code>p.requires_grad</code> 时，多半是这一种）"]
    # The cause, as every row's, is searchable; the label (the terminal's words) and links are not.
    assert '<td data-label="常见原因"><span data-find-text>' in listed
    assert f'<p class="rs-other-causes__label">{OTHER_CAUSES_LABEL}</p>' in listed
    plain = next(e.id for e in load_site(data).book("pytorch").pages[0].rows("errors") if not e.other_causes)
    assert '<td data-label="常见原因"><span data-find-text>' in row(plain)
    assert "rs-other-causes" not in row(plain)


def test_chapter_page_links_back_to_each_citing_row(rendered):
    chapter = rendered["pytorch/07.md"].html
    assert 'href="pytorch/appendix-a.html#batchnorm-single"' in chapter
    assert 'href="pytorch/appendix-a.html#forgot-eval"' in chapter


def test_home_lists_absent_books_without_links(rendered):
    home = rendered["index.md"].html
    for title in ("机器学习与深度学习基础", "AI基础设施", "Python 会咬你的地方", "框架底下是 C++"):
        item = home[home.index(f"《{html.escape(title)}》") - 120: home.index(f"《{html.escape(title)}》")]
        assert "<a " not in item.split("<li")[-1], title
    assert home.count("本副本未收录") == 4


def test_reference_page_toc_lists_every_section(rendered):
    toc = rendered["pytorch/appendix-a.md"].toc
    section_ids = [child.id for item in toc for child in item.children]
    assert section_ids == ["autograd", "inplace", "shape-dtype", "module-state-dict", "dataloader",
                           "custom-ops", "save-export-compile", "silent-bugs", "not-covered"]


@pytest.fixture(scope="module")
def rendered_fixture():
    return render_all(FIXTURE_DATA)


@pytest.mark.parametrize("src_uri", ["pytorch/appendix-a.md", "pytorch/01.md", "pytorch/06.md", "pytorch/index.md",
                                     "index.md"])
def test_rendered_html_matches_golden_file(rendered_fixture, src_uri):
    """Golden files of tests/fixtures/site catch unintended markup changes; after an intended
    one, regenerate them with REGENERATE_GOLDEN=1 and read the diff."""
    golden = GOLDEN / (src_uri.replace("/", "__").replace(".md", ".html"))
    actual = rendered_fixture[src_uri].html
    if os.environ.get("REGENERATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert golden.exists(), f"missing {golden}; run with REGENERATE_GOLDEN=1"
    assert actual == golden.read_text(encoding="utf-8")


def test_every_reproduced_row_carries_a_stamp_with_torch_and_date(rendered):
    # What the last verifier run saw, so that an honest re-verification never breaks this test.
    run = yaml.safe_load((DATA / "pytorch" / "verification.yml").read_text(encoding="utf-8"))
    # A row re-run on its own (`--stale`) carries its own date.
    stamps_by_date = {f"✔ torch {run['torch'].split('+')[0]} · {result.get('date', run['date'])} 实跑复现"
                      for result in run["results"].values()}  # 2.13.0+cpu shows as 2.13.0
    reproduced = [row_id for row_id, result in run["results"].items()
                  if result["status"] == "reproduced" and "/" not in row_id]  # a variant has no stamp
    page_html = rendered["pytorch/appendix-a.md"].html
    stamps = re.findall(r'<p class="rs-stamp rs-stamp--([\w-]+)" data-stamp="[\w-]+">(.*?)</p>', page_html, re.S)
    by_status = {}
    for status, text in stamps:
        by_status.setdefault(status, []).append(html.unescape(re.sub("<[^>]+>", "", text)))
    assert len(by_status["reproduced"]) == len(reproduced) > 0
    assert all(any(stamp in text for stamp in stamps_by_date) for text in by_status["reproduced"])
    for row_id in reproduced:
        row = page_html[page_html.index(f'id="{row_id}"'):]
        assert "rs-stamp--reproduced" in row[: row.index("</tr>")], row_id
    assert "空白折叠后一致" in by_status["reproduced-whitespace-folded"][0]
    assert by_status["simulated"][0].startswith("◐ 只能模拟复现")
    assert "只在 Windows 上出现" in by_status["not-reproducible-here"][0]


def test_rows_whose_run_differs_show_what_the_run_showed(rendered):
    page_html = rendered["pytorch/appendix-a.md"].html
    row = page_html[page_html.index('id="load-module-not-found"'):]
    row = row[: row.index("</tr>")]
    assert "🔬 实跑发现" in row and "weights_only=False" in row


def test_chapter_pages_show_each_reproducer_with_its_output_collapsed(rendered):
    chapter = rendered["pytorch/02.md"].html
    block = chapter[chapter.index('data-backlink="backward-twice"'):]
    block = block[: block.index('<li data-backlink="', 1)]
    assert '<details class="rs-reproducer">' in block and "<details open" not in block
    assert "loss.backward()  # the graph was freed by the first call" in html.unescape(block)
    assert "RuntimeError: Trying to backward through the graph a second time" in html.unescape(block)


def test_a_changed_reproducer_marks_its_result_stale(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    reproducers = data / "pytorch" / "reproducers.yml"
    text = reproducers.read_text(encoding="utf-8")
    reproducers.write_text(text.replace("loss.backward()  # the graph was freed by the first call",
                                        "loss.backward()  # freed by the first call"), encoding="utf-8")
    page_html = render_all(data)["pytorch/appendix-a.md"].html
    row = page_html[page_html.index('id="backward-twice"'):]
    assert 'data-stamp="stale"' in row[: row.index("</tr>")]
