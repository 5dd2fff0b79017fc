"""`mkdocs build --strict` as a reader and an author run it."""

import re

from conftest import ROOT, cite_a_missing_chapter, copy_project, mkdocs_build


def test_build_is_strict_and_quiet(tmp_path):
    result = mkdocs_build(ROOT, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr


def test_build_writes_every_page(built_site):
    pages = {path.relative_to(built_site).as_posix() for path in built_site.rglob("*.html")}
    expected = {"index.html", "pytorch/index.html", "pytorch/appendix-a.html"}
    expected |= {f"pytorch/{number:02d}.html" for number in range(11)}
    assert expected <= pages


def test_no_page_asks_for_google_fonts(built_site):
    for path in built_site.rglob("*.html"):
        assert "fonts.googleapis.com" not in path.read_text(encoding="utf-8"), path


def test_bad_data_stops_the_build_with_a_message_and_no_traceback(tmp_path):
    project = copy_project(tmp_path / "project")
    message = cite_a_missing_chapter(project)
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 1
    assert re.search(message, result.stderr), result.stderr
    assert "Traceback" not in result.stderr
