"""Link check over a built site: every internal link, and every `#anchor`, resolves.

A pure function of a folder, as a reader's browser would see it opened from disk: an `href`
or `src` without a scheme must name a file inside the folder, and a fragment must name an
`id` (or an `<a name>`) in the page it points to. External URLs are not followed; the offline
test checks that nothing is fetched from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

# A server shows its error page at whatever path was asked for, so MkDocs links it from the site
# root ("/index.html"). Nobody opens it from disk; its links are checked from the root instead.
SERVER_PAGES = {"404.html"}

# Attributes that point at something the page links to or loads.
LINK_ATTRIBUTES = {"a": "href", "link": "href", "area": "href", "script": "src", "img": "src",
                   "iframe": "src", "source": "src", "video": "src", "audio": "src"}


@dataclass(frozen=True)
class BrokenLink:
    page: str  # site-relative path of the page holding the link
    target: str  # the attribute's value, as written
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.target!r}: {self.reason}"


class _PageParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.anchors.add(attributes["id"])
        if tag == "a" and attributes.get("name"):
            self.anchors.add(attributes["name"])
        wanted = LINK_ATTRIBUTES.get(tag)
        if wanted and attributes.get(wanted) is not None:
            self.links.append(attributes[wanted])


def _is_internal(url: str) -> bool:
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc


def check_links(site: Path) -> list[BrokenLink]:
    """Every internal link of every HTML page under `site` that does not resolve."""
    site = site.resolve()

    @cache
    def parse(page: Path) -> _PageParser:
        parser = _PageParser()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        return parser

    broken = []
    for page in sorted(site.rglob("*.html")):
        where = page.relative_to(site).as_posix()
        for link in parse(page).links:
            if not _is_internal(link):
                continue
            parts = urlsplit(link)
            path, fragment = unquote(parts.path), unquote(parts.fragment)
            if where in SERVER_PAGES and path.startswith("/"):
                target = (site / path.lstrip("/")).resolve()
            else:
                target = page if not path else (page.parent / PurePosixPath(path)).resolve()
            if not target.is_relative_to(site):
                broken.append(BrokenLink(where, link, "points outside the site folder"))
                continue
            if target.is_dir():
                # From disk a folder is shown as a file listing, not as its index.html.
                broken.append(BrokenLink(where, link, "names a folder, which a browser opened "
                                                      "from disk lists instead of showing its page"))
                continue
            if not target.is_file():
                broken.append(BrokenLink(where, link, "no such file"))
                continue
            if fragment and target.suffix == ".html" and fragment not in parse(target).anchors:
                broken.append(BrokenLink(where, link, f"no id {fragment!r} in "
                                                      f"{target.relative_to(site).as_posix()}"))
    return broken
