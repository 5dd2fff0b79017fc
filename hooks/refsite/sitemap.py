"""Which pages the data produces, where they live, and what progress each one counts.

A pure function of the `Site`: the hook turns these into MkDocs files, the renderer links
between them by `src_uri`, and progress uses `key` (stable across reorderings and renames of
titles, since it is made of ids only).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Book, Chapter, ReferencePage, Site

HOME = "index.md"


@dataclass(frozen=True)
class SitePage:
    src_uri: str
    kind: str  # "home" | "book-index" | "chapter" | "reference"
    title: str
    key: str  # progress key: "" for home, "<book>" for a book index, "<book>/<id>" otherwise
    book: Book | None = None
    chapter: Chapter | None = None
    reference: ReferencePage | None = None

    @property
    def checkpoint_ids(self) -> tuple[str, ...]:
        return tuple(cp.id for cp in self.reference.checkpoints) if self.reference else ()

    @property
    def has_checkin(self) -> bool:
        return self.kind in ("chapter", "reference")


def book_index_uri(book: Book) -> str:
    return f"{book.id}/index.md"


def chapter_uri(book: Book, chapter_id: str) -> str:
    return f"{book.id}/{chapter_id}.md"


def reference_uri(book: Book, page_id: str) -> str:
    return f"{book.id}/{page_id}.md"


def site_pages(site: Site) -> list[SitePage]:
    """Every generated page, in reading order."""
    pages = [SitePage(HOME, "home", "总目录", key="")]
    for book in site.included_books:
        pages.append(SitePage(book_index_uri(book), "book-index", book.title, key=book.id, book=book))
        pages += [
            SitePage(chapter_uri(book, chapter.id), "chapter", f"{chapter.id} · {chapter.title}",
                     key=f"{book.id}/{chapter.id}", book=book, chapter=chapter)
            for chapter in book.chapters
        ]
        pages += [
            SitePage(reference_uri(book, page.id), "reference", page.title,
                     key=page.key, book=book, reference=page)
            for page in book.pages
        ]
    return pages


def progress_manifest(site: Site) -> dict:
    """What the progress script counts: every book's pages and their checkpoint ids.

    Ticks are stored by page key and checkpoint id; only ids listed here are counted, so a
    tick whose checkpoint was removed from the data is kept in storage but not counted.
    """
    pages_by_book: dict[str, list[dict]] = {}
    for page in site_pages(site):
        if page.has_checkin:
            pages_by_book.setdefault(page.book.id, []).append({
                "key": page.key,
                "title": page.title,
                "checkpoints": list(page.checkpoint_ids),
                "units": len(page.checkpoint_ids) + 1,  # every checkpoint, plus the check-in
            })
    books = [
        {"id": book.id, "title": book.title, "pages": pages,
         "units": sum(page["units"] for page in pages)}
        for book in site.included_books
        for pages in [pages_by_book.get(book.id, [])]
    ]
    return {"books": books, "units": sum(book["units"] for book in books)}
