"""`python -m refsite.generate`: the site as a folder MkDocs builds without hooks, into the same site.

Like tests/test_build.py these run real builds (unmarked: a build takes seconds). Both builds
start from one private copy of the project, so an edit to data/ made meanwhile cannot tell them
apart, and with one SOURCE_DATE_EPOCH, so the sitemap's dates are the same too. Then nothing may
differ: every file of the two sites is compared whole, pages, search index and assets alike.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
import yaml

from conftest import cite_a_missing_chapter, copy_project, mkdocs_build
from refsite.markdown_page import PageStructureError, page_markdown
from refsite.render import TocItem

GENERATED_PAGES = {"index.md", "pytorch/index.md", "pytorch/appendix-a.md"} | {f"pytorch/{n:02d}.md" for n in range(11)}


def generate(project: Path, out: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(project / "hooks")}
    return subprocess.run(
        [sys.executable, "-m", "refsite.generate", "--config", str(project / "mkdocs.yml"), "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=project, timeout=300)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("generate")
    project = copy_project(tmp / "project")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1796083200")  # the sitemap's <lastmod>, for both builds
        hooked = mkdocs_build(project, tmp / "with-hooks")
        assert hooked.returncode == 0, hooked.stderr
        generated = generate(project, tmp / "generated")
        assert generated.returncode == 0, generated.stderr
        plain = mkdocs_build(tmp / "generated", tmp / "without-hooks")
        assert plain.returncode == 0, plain.stderr
        assert "WARNING" not in plain.stderr, plain.stderr
    return {"with": tmp / "with-hooks", "without": tmp / "without-hooks", "folder": tmp / "generated"}


def files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def test_the_folder_builds_without_hooks(builds):
    folder = builds["folder"]
    config = yaml.safe_load((folder / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "hooks" not in config and "watch" not in config
    assert config["docs_dir"] == "docs" and config["theme"]["custom_dir"] == "overrides"
    assert config["extra_css"] == ["assets/refsite/site.css"]
    assert config["extra_javascript"] == [{"path": "assets/refsite/modules-linked.js", "defer": True}]
    # The section of the book's folder is titled by the book, as refsite_hooks titled it.
    assert {"PyTorch这个框架本身"} <= {key for item in config["nav"] if isinstance(item, dict) for key in item}
    written = files(folder / "docs")
    assert GENERATED_PAGES <= written
    assert {"offline.md", "assets/refsite/progress-store-frame.html", "assets/refsite/site.css",
            "assets/refsite/modules-linked.js", "assets/refsite/modules-lazy.js", "assets/refsite/find.js",
            "assets/refsite/find-index/pytorch/appendix-a.js",
            "assets/refsite/find-index/pytorch/appendix-a.rules.js"} <= written
    # Our sources live in docs/, minified; the overrides keep only the theme's templates and the vendored shim.
    assert not (folder / "overrides" / "assets" / "refsite").exists()
    assert "\n//" not in (folder / "docs" / "assets" / "refsite" / "find.js").read_text(encoding="utf-8")


def test_the_site_is_the_same_file_for_file(builds):
    with_hooks, without_hooks = builds["with"], builds["without"]
    paths = files(with_hooks)
    assert paths == files(without_hooks)
    pages = sorted(path for path in paths if path.endswith(".html") and not path.startswith("assets/"))
    assert len(pages) >= len(GENERATED_PAGES) + 2  # and offline.html, 404.html
    differ = [path for path in sorted(paths) if (with_hooks / path).read_bytes() != (without_hooks / path).read_bytes()]
    assert differ == [], f"{len(differ)} of {len(paths)} files differ: {differ[:10]}"


def test_the_contents_come_from_markdown_headings(builds):
    # Identical sites could still both have lost the contents: check that they are there.
    page = (builds["without"] / "pytorch" / "appendix-a.html").read_text(encoding="utf-8")
    toc = page[page.index('class="md-nav md-nav--secondary"'):]
    toc = toc[:toc.index("</nav>\n</div>")] if "</nav>\n</div>" in toc else toc[:20000]
    for anchor in ("one-liner", "how-to-use", "group-1", "autograd", "not-covered", "checkpoints", "rescue"):
        assert f'href="#{anchor}"' in toc, anchor
        assert re.search(rf'<h[23] id="{anchor}">[^<]+<a class="headerlink" href="#{anchor}"', page), anchor
    # As plain links: Material's toc component read every heading's offsetTop at load, which lays
    # out the sections the page skips while off screen (overrides/partials/toc.html, static_toc).
    assert 'data-md-component="toc"' not in page
    # The page's title is the data's, in the head and the navigation, as with the hooks.
    assert "<title>附录A · 报错反查表 - PyTorch 报错反查</title>" in page


def test_bad_data_stops_the_command_with_a_message_and_no_traceback(tmp_path):
    project = copy_project(tmp_path / "project")
    message = cite_a_missing_chapter(project)  # as tests/test_build.py breaks the build
    result = generate(project, tmp_path / "out")
    assert result.returncode == 1
    assert re.search(message, result.stderr), result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "mkdocs.yml").exists()


def test_the_command_empties_only_a_folder_it_wrote(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    result = generate(copy_project(tmp_path / "project"), out)
    assert result.returncode == 1 and "was not written by refsite.generate" in result.stderr, result.stderr
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"


# --- the page as Markdown, without a build ------------------------------------------------------

def convert(text: str) -> tuple[str, list]:
    md = markdown.Markdown(extensions=["attr_list", "toc", "pymdownx.blocks.html"],
                           extension_configs={"toc": {"permalink": True}})
    return md.convert(text), md.toc_tokens


def test_headings_of_the_contents_keep_their_text_and_the_rest_stays_as_written():
    page = ('<article class="x" data-page="a/b">\n<p hidden>one  &amp; <b>two</b></p><h1>T</h1>\n'
            '<section class="g" aria-labelledby="g1">\n  <h2 id="g1">*not* _emphasis_ [x](y) `z` #1 {#no} &lt;b&gt;</h2>\n'
            '    <pre>  kept\n\n  as is</pre>\n</section>\n</article>\n')
    toc = (TocItem("g1", "…", 2),)
    html, tokens = convert(page_markdown(page, toc))
    assert '<p hidden>one  &amp; <b>two</b></p>' in html and "<h1>T</h1>" in html
    assert "<pre>  kept\n\n  as is</pre>" in html
    assert '<section aria-labelledby="g1" class="g">' in html and '<article class="x" data-page="a/b">' in html
    heading = re.search(r'<h2 id="g1">(.*?)<a class="headerlink"', html).group(1)
    assert heading == "*not* _emphasis_ [x](y) `z` #1 {#no} &lt;b&gt;"
    assert [(token["id"], token["level"]) for token in tokens] == [("g1", 2)]


def test_a_page_without_contents_is_one_raw_block():
    page = '<article data-home>\n<h1>总目录</h1>\n  <h2 id="books">书</h2>\n</article>\n'
    assert page_markdown(page) == page
    assert convert(page_markdown(page))[0] == page.rstrip("\n")


@pytest.mark.parametrize("page, problem", [
    ('<article><h2 id="a">A</h2>loose text</article>', "text beside a heading"),
    ('<article><h2 id="a">A</h2><label>inline</label></article>', "<label> beside a heading"),
    ('<article><h2 id="a" class="c">A</h2></article>', "must be <h2 id=…>text</h2>"),
    ('<article><h3 id="a">A</h3></article>', "contents say level 2"),
    ('<article><h2 id="b">B</h2></article>', "does not have: a"),
    ('<article><h2 id="a">A</h2></section>', "closes <article>"),
])
def test_what_markdown_would_change_is_refused(page, problem):
    with pytest.raises(PageStructureError, match=re.escape(problem)):
        page_markdown(page, (TocItem("a", "A", 2),))


def test_every_page_converts_with_or_without_a_stop_line(tmp_path):
    # Without `stop_here` the check-in stands beside the page's headings: it must still be a block.
    from refsite.site_files import GeneratedPages

    project = copy_project(tmp_path / "project")
    page = project / "data" / "pytorch" / "appendix-a.yml"
    text = page.read_text(encoding="utf-8")
    assert re.search(r"^stop_here: .*\n", text, flags=re.M)
    page.write_text(re.sub(r"^stop_here: .*\n", "", text, flags=re.M), encoding="utf-8")
    generated = GeneratedPages.load(project / "data")
    for site_page in generated.pages:
        written = generated.markdown(site_page, use_directory_urls=False)
        if site_page.kind == "reference":
            assert "/// html | article" in written and '<div class="rs-checkin-row">' in written
