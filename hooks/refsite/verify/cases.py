"""The rows to check, taken from the loaded, validated site: the verifier checks exactly the text
the page shows, with the reproducers the build joined to it (refsite.pipeline)."""

from __future__ import annotations

from ..model import Site
from .judging import Case

BOOK = "pytorch"  # the book whose folder holds reproducers.yml and the results files


def cases_from_site(site: Site, book_id: str = BOOK) -> list[Case]:
    """Every row with a reproducer, in page order, and every error row without one (it is kept so
    that it fails visibly). A symptom row without a reproducer has nothing to check."""
    return [Case(row.id, row.fragments, row.reproducer)
            for page in site.book(book_id).pages
            for section in page.sections if section.kind in ("errors", "symptoms")
            for row in section.entries
            if row.reproducer is not None or row.fragments]
