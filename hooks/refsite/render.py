"""Render pages of the site model to HTML with Jinja templates.

Python prepares values, Jinja builds every tag. Verbatim text is autoescaped by Jinja;
inline Markdown goes through Python-Markdown with raw HTML switched off, so `<script>` in a
cause is shown as text, and nothing in the data is ever evaluated as a template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import markdown
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markdown.extensions import Extension
from markupsafe import Markup

from .model import Site
from .sitemap import HOME, SitePage, book_index_uri, chapter_uri, progress_manifest, reference_uri

# href(target_src_uri, anchor=None) -> a URL relative to the page being rendered
Href = Callable[..., str]


class _TextOnlyHtml(Extension):
    """Treat raw HTML in Markdown as text: data is never trusted as markup."""

    def extendMarkdown(self, md):
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


_SINGLE_PARAGRAPH = re.compile(r"\A<p>(.*)</p>\Z", re.DOTALL)


class InlineMarkdown:
    """Inline Markdown → Markup; one paragraph comes back without its <p>."""

    def __init__(self):
        self._md = markdown.Markdown(extensions=[_TextOnlyHtml()], output_format="html")

    def __call__(self, text: str | None) -> Markup:
        if not text:
            return Markup("")
        html = self._md.reset().convert(text)
        single = _SINGLE_PARAGRAPH.match(html)
        return Markup(single.group(1) if single and "<p>" not in single.group(1) else html)


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
        self.env.filters["md"] = InlineMarkdown()
        self.manifest = progress_manifest(site)

    def render(self, page: SitePage, href: Href) -> RenderedPage:
        links = _Links(page, href)
        context = {"site": self.site, "page": page, "links": links, "manifest": self.manifest}
        if page.kind == "reference":
            toc = reference_toc(page.reference)
            html = self.env.get_template("reference.html").render(
                **context, ref=page.reference, book=page.book, toc=toc)
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
