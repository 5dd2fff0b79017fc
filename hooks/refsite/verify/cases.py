"""The rows to check, taken from the loaded, validated site: the verifier checks exactly the text
the page shows, with the reproducers the build joined to it (refsite.pipeline)."""

from __future__ import annotations

from ..model import Site, near_miss_key, variant_key
from .judging import Case

BOOK = "pytorch"  # the book whose folder holds reproducers.yml and the results files


def cases_from_site(site: Site, book_id: str = BOOK) -> list[Case]:
    """Every row with a reproducer, in page order, each followed by its variants (other call
    paths of the same mistake, checked against the row's text, keyed `<row>/<name>`) and its near
    misses (another error, which must not print the row's text: `<row>/near-miss/<name>`), and every
    error row without one (it is kept so that it fails visibly). A symptom row without a
    reproducer has nothing to check."""
    cases = []
    for page in site.book(book_id).pages:
        for section in page.sections:
            if section.kind not in ("errors", "symptoms"):
                continue
            for row in section.entries:
                if row.reproducer is None and not row.fragments:
                    continue
                cases.append(Case(row.id, row.fragments, row.reproducer))
                for name, _ in row.reproducer.variants if row.reproducer else ():
                    cases.append(Case(variant_key(row.id, name), row.fragments, row.reproducer.variant(name)))
                for name, *_ in row.reproducer.near_misses if row.reproducer else ():
                    cases.append(Case(near_miss_key(row.id, name), row.fragments, row.reproducer.near_miss(name),
                                      near_miss=True))
    return cases
