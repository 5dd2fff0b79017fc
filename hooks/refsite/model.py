"""The site as plain, immutable objects, built from data that already passed validation.

Text fields hold their source: `fragment` and `second_line` are verbatim, every other text is
inline Markdown that the renderer turns into HTML. Nothing here knows about MkDocs or HTML.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    scope: str


@dataclass(frozen=True)
class Verification:
    """What a row's reproducer really printed in the last verifier run (refsite.verify)."""

    status: str  # reproduced | reproduced-whitespace-folded | simulated | not-reproducible-here | failed
    torch: str
    date: str
    code: str  # the reproducer, from reproducers.yml
    why: str | None = None
    excerpt: str | None = None
    note: str | None = None  # where today's torch differs from the row's story
    output: str | None = None
    stale: bool = False  # the reproducer changed since the run

    @property
    def torch_release(self) -> str:
        return self.torch.split("+")[0]


@dataclass(frozen=True)
class ErrorEntry:
    id: str
    fragment: str
    cause: str
    chapters: tuple[str, ...]
    second_line: str | None = None
    preface: str | None = None
    context: str | None = None
    verification: Verification | None = None


@dataclass(frozen=True)
class Symptom:
    id: str
    symptom: str
    truth: str
    chapters: tuple[str, ...]
    verification: Verification | None = None


@dataclass(frozen=True)
class NotCovered:
    id: str
    category: str
    reason: str


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    kind: str  # "errors" | "symptoms" | "not-covered"
    entries: tuple
    intro: str | None = None
    outro: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    title: str
    sections: tuple[Section, ...]
    lead: str | None = None


@dataclass(frozen=True)
class RelatedLink:
    id: str
    why: str
    chapter: str | None = None
    book: str | None = None
    part: str | None = None


@dataclass(frozen=True)
class Checkpoint:
    id: str
    question: str
    answer: str


@dataclass(frozen=True)
class HowToUseStep:
    text: str
    example: str | None = None


@dataclass(frozen=True)
class ReferencePage:
    id: str
    book_id: str
    title: str
    nav_title: str
    minutes: int
    groups: tuple[Group, ...]
    checkpoints: tuple[Checkpoint, ...]
    meta_label: str | None = None
    tagline: str | None = None
    kicker: str | None = None
    lead: str | None = None
    intro: str | None = None
    first_step: str | None = None
    search_hint: str | None = None
    one_liner: tuple[str, ...] = ()
    locate_note: tuple[str, str] | None = None  # (title, text)
    how_to_use: tuple[HowToUseStep, ...] = ()
    related_title: str | None = None
    related: tuple[RelatedLink, ...] = ()
    stop_here: str | None = None
    rescue: tuple[str, ...] = ()
    next_label: str | None = None
    next_text: str | None = None
    next_target: str | None = None
    progress_note: str | None = None

    @property
    def key(self) -> str:
        """Site-wide page key: progress and URLs hang on it."""
        return f"{self.book_id}/{self.id}"

    @property
    def sections(self) -> tuple[Section, ...]:
        return tuple(section for group in self.groups for section in group.sections)

    def rows(self, kind: str | None = None) -> list:
        return [entry for section in self.sections if kind in (None, section.kind)
                for entry in section.entries]


@dataclass(frozen=True)
class Citation:
    """One row of a reference page that points to a chapter."""

    page: ReferencePage
    section: Section
    entry: ErrorEntry | Symptom


@dataclass(frozen=True)
class Book:
    id: str
    title: str
    blurb: str | None = None
    url: str | None = None
    subtitle: str | None = None
    chapters: tuple[Chapter, ...] = ()
    pages: tuple[ReferencePage, ...] = ()

    @property
    def included(self) -> bool:
        """Whether this copy of the site holds the book's pages."""
        return bool(self.chapters)

    def chapter(self, chapter_id: str) -> Chapter:
        return next(chapter for chapter in self.chapters if chapter.id == chapter_id)

    def citations(self, chapter_id: str) -> list[Citation]:
        return [
            Citation(page, section, entry)
            for page in self.pages
            for section in page.sections
            if section.kind in ("errors", "symptoms")
            for entry in section.entries
            if chapter_id in entry.chapters
        ]

    def related_links_to(self, chapter_id: str) -> list[tuple[ReferencePage, RelatedLink]]:
        return [(page, link) for page in self.pages for link in page.related
                if link.chapter == chapter_id]


@dataclass(frozen=True)
class Site:
    title: str
    books: tuple[Book, ...]
    home_intro: str | None = None

    @property
    def included_books(self) -> tuple[Book, ...]:
        return tuple(book for book in self.books if book.included)

    def book(self, book_id: str) -> Book:
        return next(book for book in self.books if book.id == book_id)


# --- construction from validated raw data -------------------------------------------------

_ROW_TYPES = {"errors": ErrorEntry, "symptoms": Symptom, "not-covered": NotCovered}


def _row(kind: str, raw: dict, verifications: dict[str, Verification]):
    row_type = _ROW_TYPES[kind]
    values = dict(raw)
    if "chapters" in values:
        values["chapters"] = tuple(values["chapters"])
    if raw["id"] in verifications:
        values["verification"] = verifications[raw["id"]]
    return row_type(**values)


def verifications_from_raw(reproducers: dict, run: dict, code_sha) -> dict[str, Verification]:
    """Join reproducers.yml and verification.yml by row id; `code_sha(code)` spots stale runs."""
    verifications = {}
    for row_id, result in run.get("results", {}).items():
        code = reproducers.get(row_id, {}).get("code", "")
        verifications[row_id] = Verification(
            status=result["status"], torch=run["torch"], date=str(run["date"]), code=code,
            why=result.get("why"), excerpt=result.get("excerpt"), note=result.get("note"),
            output=result.get("output"), stale=result.get("code_sha") != code_sha(code))
    return verifications


def reference_page_from_raw(raw: dict, book_id: str,
                            verifications: dict[str, Verification] | None = None) -> ReferencePage:
    groups = tuple(
        Group(
            title=group["title"],
            lead=group.get("lead"),
            sections=tuple(
                Section(
                    id=section["id"],
                    title=section["title"],
                    kind=section["kind"],
                    intro=section.get("intro"),
                    outro=tuple(section.get("outro", ())),
                    entries=tuple(_row(section["kind"], entry, verifications or {})
                                  for entry in section["entries"]),
                )
                for section in group["sections"]
            ),
        )
        for group in raw["groups"]
    )
    meta = raw["meta"]
    related = raw.get("related") or {}
    next_link = raw.get("next") or {}
    locate = raw.get("locate_note")
    return ReferencePage(
        id=raw["id"],
        book_id=book_id,
        title=raw["title"],
        nav_title=raw.get("nav_title", raw["title"]),
        minutes=meta["minutes"],
        meta_label=meta.get("label"),
        tagline=meta.get("tagline"),
        groups=groups,
        checkpoints=tuple(Checkpoint(**cp) for cp in raw["checkpoints"]),
        kicker=raw.get("kicker"),
        lead=raw.get("lead"),
        intro=raw.get("intro"),
        first_step=raw.get("first_step"),
        search_hint=raw.get("search_hint"),
        one_liner=tuple(raw.get("one_liner", ())),
        locate_note=(locate["title"], locate["text"]) if locate else None,
        how_to_use=tuple(HowToUseStep(**step) for step in raw.get("how_to_use", ())),
        related_title=related.get("title"),
        related=tuple(RelatedLink(**link) for link in related.get("links", ())),
        stop_here=raw.get("stop_here"),
        rescue=tuple(raw.get("rescue", ())),
        next_label=next_link.get("label"),
        next_text=next_link.get("text"),
        next_target=next_link.get("target"),
        progress_note=raw.get("progress_note"),
    )


def book_from_raw(entry: dict, raw_book: dict | None, pages: tuple[ReferencePage, ...]) -> Book:
    """`entry` is the book's line in site.yml; `raw_book` its book.yml when it is included."""
    raw_book = raw_book or {}
    return Book(
        id=entry["id"],
        title=entry["title"],
        blurb=entry.get("blurb"),
        url=entry.get("url"),
        subtitle=raw_book.get("subtitle"),
        chapters=tuple(Chapter(**chapter) for chapter in raw_book.get("chapters", ())),
        pages=pages,
    )
