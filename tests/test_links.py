"""The link check: every internal href/src and #anchor of the built site resolves."""

from __future__ import annotations

from pathlib import Path

from refsite.linkcheck import check_links


def write_site(root: Path, pages: dict[str, str]) -> Path:
    for path, html in pages.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(html, encoding="utf-8")
    return root


def reasons(site: Path) -> dict[str, str]:
    return {f"{broken.page} -> {broken.target}": broken.reason for broken in check_links(site)}


def test_every_internal_link_and_anchor_of_the_built_site_resolves(built_site):
    broken = check_links(built_site)
    assert not broken, "broken links:\n" + "\n".join(map(str, broken))


def test_links_that_resolve_pass(tmp_path):
    site = write_site(tmp_path, {
        "index.html": '<a href="book/ch.html#deep">ch</a> <a href="#top">top</a> <h1 id="top">x</h1>'
                      '<script src="assets/app.js"></script> <a href="https://example.org/x#y">out</a>'
                      '<a href="mailto:a@b.c">mail</a> <a name="old-anchor"></a>',
        "book/ch.html": '<section id="deep"></section><a href="../index.html#old-anchor">back</a>'
                        '<img src="../assets/%E5%9B%BE.png">',
        "assets/app.js": "",
        "assets/图.png": "",
    })
    assert reasons(site) == {}


def test_a_missing_page_a_missing_anchor_and_a_missing_asset_are_each_reported(tmp_path):
    site = write_site(tmp_path, {
        "index.html": '<a href="gone.html">a</a> <a href="ch.html#nowhere">b</a> <a href="#self-missing">c</a>'
                      '<link rel="stylesheet" href="assets/missing.css">',
        "ch.html": '<p id="somewhere"></p>',
    })
    assert reasons(site) == {
        "index.html -> gone.html": "no such file",
        "index.html -> ch.html#nowhere": "no id 'nowhere' in ch.html",
        "index.html -> #self-missing": "no id 'self-missing' in index.html",
        "index.html -> assets/missing.css": "no such file",
    }


def test_links_a_reader_cannot_follow_from_disk_are_reported(tmp_path):
    site = write_site(tmp_path / "site", {
        "index.html": '<a href="book/">folder</a> <a href="/index.html">root</a> <a href="../outside.html">up</a>',
        "book/index.html": "",
    })
    (tmp_path / "outside.html").write_text("")
    found = reasons(site)
    assert found["index.html -> book/"].startswith("names a folder")
    assert found["index.html -> /index.html"] == "points outside the site folder"
    assert found["index.html -> ../outside.html"] == "points outside the site folder"


def test_the_servers_404_page_is_checked_from_the_site_root(tmp_path):
    site = write_site(tmp_path, {
        "404.html": '<a href="/index.html#top">home</a> <a href="/gone.html">gone</a>',
        "index.html": '<h1 id="top"></h1>',
    })
    assert reasons(site) == {"404.html -> /gone.html": "no such file"}
