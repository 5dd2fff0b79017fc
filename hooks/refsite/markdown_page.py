"""A rendered page as the Markdown file a static generator turns back into that page.

The templates write HTML (refsite.render). A page that has a table of contents cannot be handed
to Python-Markdown as one raw HTML block: its toc extension only sees Markdown headings, so the
theme's right-hand contents would be empty. Here the page's HTML is cut along the path from the
page down to each heading of its contents (`RenderedPage.toc`):

- each such heading becomes a Markdown heading with its id (attr_list): `### 🧨 一、autograd {#autograd}`;
- each element that holds one (the <article>, a group's <section>, …) becomes a
  `/// html | tag[attr="value"]` block (pymdown-extensions' `blocks.html`), which rebuilds the
  element with its attributes around Markdown content;
- everything else stays as it was written: one raw HTML block per element, which Python-Markdown
  passes through byte for byte.

Why not md_in_html (`<section markdown>`)? It rebuilds every element below the marked one through
ElementTree (attributes reordered, `hidden` becoming `hidden="hidden"`, indented lines turned into
code), where `blocks.html` touches only the elements that hold headings. A page without contents
(a chapter, the home page) is one raw block, unchanged.

The MkDocs build (refsite_hooks) and `python -m refsite.generate` both hand MkDocs this Markdown, so
both give the same page: the headings of the contents carry the headerlink `toc: permalink` adds to
every Markdown heading, and the contents come from the toc extension, as on a hand-written page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markdown.util import BLOCK_LEVEL_ELEMENTS

# What Python-Markdown takes a backslash before (Markdown.ESCAPED_CHARS); before anything else a
# backslash stays in the text.
_MARKDOWN_ESCAPED = frozenset("\\`*_{}[]()>#+-.!")
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
_HEADING = re.compile(r"h[1-6]")
_FENCE = "/"  # blocks.html: a block nested in another takes one more slash than its parent


class PageStructureError(ValueError):
    """The page's HTML cannot be written as Markdown that gives the same page back."""


@dataclass
class _Node:
    """An element or a comment: html[start:end]; an element's content is html[inner_start:inner_end]."""
    tag: str | None  # None: a comment
    start: int
    end: int = -1
    attrs: list[tuple[str, str | None]] = field(default_factory=list)
    inner_start: int = -1
    inner_end: int = -1
    children: list[_Node] = field(default_factory=list)  # elements and comments; text lies between them


class _Tree(HTMLParser):
    """The page's elements with where each starts and ends in the text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.text = text
        self._line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
        self.root = _Node(None, 0, len(text), inner_start=0, inner_end=len(text))
        self._open = [self.root]
        self.feed(text)
        self.close()
        if len(self._open) != 1:
            raise PageStructureError(f"<{self._open[-1].tag}> is never closed")

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        start = self._offset()
        node = _Node(tag, start, attrs=attrs, inner_start=start + len(self.get_starttag_text()))
        self._open[-1].children.append(node)
        if tag in _VOID:
            node.end = node.inner_end = node.inner_start
        else:
            self._open.append(node)

    def handle_startendtag(self, tag, attrs):
        start = self._offset()
        end = start + len(self.get_starttag_text())
        self._open[-1].children.append(_Node(tag, start, end, attrs=attrs, inner_start=end, inner_end=end))

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        start = self._offset()
        node = self._open.pop() if len(self._open) > 1 else None
        if node is None or node.tag != tag:
            where = self.text.count("\n", 0, start) + 1
            raise PageStructureError(f"line {where}: </{tag}> closes " + (f"<{node.tag}>" if node else "nothing"))
        node.inner_end = start
        node.end = self.text.index(">", start) + 1

    def handle_comment(self, data):
        start = self._offset()
        self._open[-1].children.append(_Node(None, start, self.text.index("-->", start + 4 + len(data)) + 3))


def _ids(toc: Iterable) -> dict[str, int]:
    """Every heading of the contents: id → level."""
    levels = {}
    for item in toc:
        levels[item.id] = item.level
        levels |= _ids(item.children)
    return levels


def page_markdown(page_html: str, toc: Iterable = ()) -> str:
    """The Markdown that MkDocs (Python-Markdown with attr_list, toc and pymdownx.blocks.html)
    renders to `page_html`, with the headings of `toc` as its table of contents.

    Raises PageStructureError where that cannot be done: a heading of the contents that has
    attributes besides its id or markup inside, text (not an element) beside a heading in the
    same parent (Markdown would wrap it in a <p>), or HTML that does not nest."""
    tree = _Tree(page_html)
    levels = _ids(toc)
    found: set[str] = set()

    def holds_heading(node: _Node) -> bool:
        return any(is_heading(child) or holds_heading(child) for child in node.children)

    def is_heading(node: _Node) -> bool:
        return node.tag is not None and bool(_HEADING.fullmatch(node.tag)) and dict(node.attrs).get("id") in levels

    def heading(node: _Node) -> str:
        attrs = dict(node.attrs)
        if set(attrs) != {"id"} or node.children:
            raise PageStructureError(f"heading '{attrs['id']}' of the contents must be <{node.tag} id=…>text</{node.tag}>")
        if int(node.tag[1]) != levels[attrs["id"]]:
            raise PageStructureError(f"heading '{attrs['id']}' is an <{node.tag}>, the contents say level {levels[attrs['id']]}")
        found.add(attrs["id"])
        text = " ".join(html.unescape(page_html[node.inner_start:node.inner_end]).split())
        text = html.escape(text, quote=False)
        text = "".join(f"\\{char}" if char in _MARKDOWN_ESCAPED else char for char in text)
        return f"{'#' * levels[attrs['id']]} {text} {{#{attrs['id']}}}"

    def selector(node: _Node) -> str:
        pairs = []
        for name, value in node.attrs:
            if value is None:
                pairs.append(name)
            elif re.search(r'["\\\n\r]', value):
                raise PageStructureError(f"<{node.tag} {name}=…> holds a heading of the contents; "
                                         "its value cannot have quotes, backslashes or line breaks")
            else:
                pairs.append(f'{name}="{value}"')
        return node.tag + (f"[{' '.join(pairs)}]" if pairs else "")

    def blocks(parent: _Node, depth: int) -> list[str]:
        out = []
        at = parent.inner_start
        for node in parent.children + [None]:
            text = page_html[at:node.start if node else parent.inner_end].strip()
            if text:
                raise PageStructureError(f"text beside a heading of the contents, in <{parent.tag}>: "
                                         f"{text[:60]!r}: Markdown would put it in a <p>; put it in an element")
            if node is None:
                break
            at = node.end
            if is_heading(node):
                out.append(heading(node))
            elif node.tag is not None and holds_heading(node):
                fence = _FENCE * (3 + depth)
                out.append(f"{fence} html | {selector(node)}")
                out += blocks(node, depth + 1)
                out.append(fence)
            elif node.tag is not None and node.tag not in BLOCK_LEVEL_ELEMENTS:
                raise PageStructureError(f"<{node.tag}> beside a heading of the contents, in <{parent.tag}>: "
                                         "Markdown would put it in a <p>; put it in a block element")
            else:  # a block element (or a comment) without a heading of the contents: as it is
                out.append(page_html[node.start:node.end])
        return out

    text = "\n\n".join(blocks(tree.root, 0)) + "\n"
    missing = [heading_id for heading_id in levels if heading_id not in found]
    if missing:
        raise PageStructureError(f"the contents list headings the page does not have: {', '.join(missing)}")
    return text
