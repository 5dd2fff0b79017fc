"""Render pages of the site model to HTML with Jinja templates.

Python prepares values, Jinja builds every tag. Verbatim text is autoescaped by Jinja;
inline Markdown is parsed into spans (pytorch_error_lookup.inline) that a macro renders, so `<script>` in
a cause is shown as text, and nothing in the data is ever evaluated as a template.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from pytorch_error_lookup import rule as lookup_rule

from pytorch_error_lookup.inline import parse_inline
from pytorch_error_lookup.lookup import OTHER_CAUSES_LABEL, SHOWN_BY_HINT
from .model import SEEN_LABELS, Site
from .sitemap import HOME, SitePage, book_index_uri, chapter_uri, progress_manifest, reference_uri

# href(target_src_uri, anchor=None) -> a URL relative to the page being rendered
Href = Callable[..., str]


class InlineMarkdown:
    """The `md` filter: inline Markdown → Markup, through the `_inline.html` macro.

    Memoized per build: the same text (a repeated note, say) is parsed and rendered once.
    """

    def __init__(self, env: Environment):
        self._macro = env.get_template("_inline.html").module.inline
        self._rendered: dict[str, Markup] = {}

    def __call__(self, text: str | None) -> Markup:
        if not text:
            return Markup("")
        rendered = self._rendered.get(text)
        if rendered is None:
            rendered = self._rendered[text] = Markup(self._macro(parse_inline(text)))
        return rendered


@dataclass(frozen=True)
class TocItem:
    id: str
    title: str
    level: int
    children: tuple = ()

    def as_mkdocs_token(self) -> dict:
        return {"level": self.level, "id": self.id, "name": self.title,
                "children": [child.as_mkdocs_token() for child in self.children]}


@dataclass(frozen=True)
class RenderedPage:
    html: str
    toc: tuple[TocItem, ...] = ()


# Headings of a reference page that stand outside the groups, by anchor id.
PART_HEADINGS = {
    "one-liner": "🎯 一句话",
    "how-to-use": "🚦 怎么用这一页",
    "checkpoints": "✅ 检查点",
    "rescue": "⚡ 走神救援",
}


def reference_toc(page) -> tuple[TocItem, ...]:
    items = [TocItem("one-liner", PART_HEADINGS["one-liner"], 2),
             TocItem("how-to-use", PART_HEADINGS["how-to-use"], 2)]
    items += [
        TocItem(f"group-{index}", group.title, 2,
                tuple(TocItem(section.id, section.title, 3) for section in group.sections))
        for index, group in enumerate(page.groups, start=1)
    ]
    if page.related:
        items.append(TocItem("related", page.related_title or "🔗", 2))
    if page.checkpoints:
        items.append(TocItem("checkpoints", PART_HEADINGS["checkpoints"], 2))
    if page.rescue:
        items.append(TocItem("rescue", PART_HEADINGS["rescue"], 2))
    return tuple(items)


# A long section comes as tables of this many rows, each in a box the browser skips while off
# screen (_row_tables.html): the first jump into one lays out its rows and the box above it, and
# at 100 rows that was 150-210 ms on desktop at 10,000 rows (benchmarks/find.py); at 10, 44 ms.
ROWS_PER_TABLE = 10


class Renderer:
    """Renders every kind of page; built once per build from the validated site."""

    def __init__(self, site: Site):
        self.site = site
        self.env = Environment(
            loader=PackageLoader("refsite", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        self.env.filters["md"] = InlineMarkdown(self.env)
        self.env.globals["seen_labels"] = SEEN_LABELS
        self.env.globals["other_causes_label"] = OTHER_CAUSES_LABEL  # the terminal's words too
        self.env.globals["shown_by_hint"] = SHOWN_BY_HINT.split("{shown}")  # around the codes, as --explain says it
        self.env.globals["rows_per_table"] = ROWS_PER_TABLE
        # The lookup rule's patterns that the page's box applies at each keystroke (find-verdict.js).
        self.env.globals["find_patterns"] = {
            "exception": lookup_rule.EXCEPTION_PREFIX.pattern,
            "message_start": lookup_rule.MESSAGE_START.pattern,
            "word": lookup_rule.WORD,
            "message_words": lookup_rule.MESSAGE_WORDS,
        }
        self.manifest = progress_manifest(site)

    def render(self, page: SitePage, href: Href) -> RenderedPage:
        links = _Links(page, href)
        context = {"site": self.site, "page": page, "links": links, "manifest": self.manifest}
        if page.kind == "reference":
            toc = reference_toc(page.reference)
            html = self.env.get_template("reference.html").render(
                **context, ref=page.reference, book=page.book, toc=toc, headings=PART_HEADINGS)
            return RenderedPage(html, toc)
        if page.kind == "chapter":
            html = self.env.get_template("chapter.html").render(
                **context, book=page.book, chapter=page.chapter,
                citations=page.book.citations(page.chapter.id),
                related=page.book.related_links_to(page.chapter.id))
            return RenderedPage(html)
        if page.kind == "book-index":
            return RenderedPage(self.env.get_template("book_index.html").render(**context, book=page.book))
        return RenderedPage(self.env.get_template("home.html").render(**context))


class _Links:
    """URLs as the templates ask for them, relative to the page being rendered."""

    def __init__(self, page: SitePage, href: Href):
        self._page = page
        self._href = href

    def home(self) -> str:
        return self._href(HOME)

    def book_index(self, book) -> str:
        return self._href(book_index_uri(book))

    def chapter(self, book, chapter_id: str) -> str:
        return self._href(chapter_uri(book, chapter_id))

    def reference(self, book, page_id: str, anchor: str | None = None) -> str:
        return self._href(reference_uri(book, page_id), anchor)

    def next_target(self, book, target: str) -> str:
        if target == "home":
            return self.home()
        if target == "book-index":
            return self.book_index(book)
        if any(chapter.id == target for chapter in book.chapters):
            return self.chapter(book, target)
        return self.reference(book, target)
