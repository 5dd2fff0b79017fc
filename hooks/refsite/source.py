"""From the data folder to a validated `Site`: load, then validate, then model.

Every problem of every file is collected before anything is modelled, and raised once as a
`DataError`; the model is only ever built from data that passed.
"""

from __future__ import annotations

from pathlib import Path

from .load import DataError, LoadedFile, Problem, load_yaml
from .model import Site, book_from_raw, reference_page_from_raw, verifications_from_raw
from .validate import check_references, check_schema, load_schema, mappings, page_rows
from .verify import code_sha

SITE_FILE = "site.yml"
BOOK_FILE = "book.yml"
# Beside book.yml, both optional: every row's reproducer, and what the last verifier run saw.
REPRODUCERS_FILE = "reproducers.yml"
VERIFICATION_FILE = "verification.yml"


def _display_name(path: Path, data_dir: Path) -> str:
    return (Path(data_dir.name) / path.relative_to(data_dir)).as_posix()


class _Collector:
    """Loads files and checks them against their schema, keeping every problem."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.schema_dir = data_dir / "schema"
        self.problems: list[Problem] = []

    def load(self, path: Path, schema_name: str) -> LoadedFile | None:
        """The parsed file (even when it fails its schema, so later checks still run), or None."""
        name = _display_name(path, self.data_dir)
        if not path.is_file():
            self.problems.append(Problem(name, None, "is missing"))
            return None
        loaded, problems = load_yaml(path, name)
        self.problems += problems
        if loaded is None:
            return None
        self.problems += check_schema(loaded.data, load_schema(self.schema_dir, schema_name), name)
        return loaded if isinstance(loaded.data, dict) else None


def load_site(data_dir: Path) -> Site:
    """Read and check everything under `data_dir`; raise DataError listing every problem."""
    data_dir = Path(data_dir)
    collect = _Collector(data_dir)

    site_file = collect.load(data_dir / SITE_FILE, "site")
    if site_file is None:
        raise DataError(collect.problems)
    site = site_file.data

    books: list[tuple[dict, str]] = []
    pages: list[tuple[dict, str, dict]] = []
    book_files: dict[str, dict] = {}
    checks: dict[str, tuple[dict, dict]] = {}  # by book id: (reproducers, verification run)
    for book_entry in mappings(site.get("books")):
        if not isinstance(book_entry.get("pages_dir"), str):
            continue
        book_dir = data_dir / book_entry["pages_dir"]
        book_file = collect.load(book_dir / BOOK_FILE, "book")
        if book_file is None:
            continue
        book = book_file.data
        if book.get("id") != book_entry.get("id"):
            collect.problems.append(Problem(
                book_file.name, book.line, f"id {book.get('id')!r} differs from the site's book "
                f"{book_entry.get('id')!r} that points to this folder", field="id"))
        books.append((book, book_file.name))
        book_files[book_entry.get("id")] = book
        every_page_loaded = True
        for page_id in [p for p in book.get("pages") or [] if isinstance(p, str)]:
            page_file = collect.load(book_dir / f"{page_id}.yml", "reference-page")
            if page_file is None:
                every_page_loaded = False
                continue
            if page_file.data.get("id") != page_id:
                collect.problems.append(Problem(
                    page_file.name, page_file.data.line,
                    f"id {page_file.data.get('id')!r} differs from its file name {page_id!r}",
                    field="id"))
            pages.append((page_file.data, page_file.name, book))
        checks[book_entry.get("id")] = _load_checks(
            collect, book_dir, [p for p, _, b in pages if b is book] if every_page_loaded else None)

    collect.problems += check_references(site, site_file.name, books, pages)
    if collect.problems:
        raise DataError(collect.problems)

    return Site(
        title=site["title"],
        home_intro=site.get("home_intro"),
        books=tuple(
            book_from_raw(
                entry,
                book_files.get(entry["id"]),
                tuple(reference_page_from_raw(page, entry["id"],
                                              verifications_from_raw(*checks[entry["id"]], code_sha))
                      for page, _, book in pages if book is book_files.get(entry["id"])),
            )
            for entry in site["books"]
        ),
    )


def _load_checks(collect: _Collector, book_dir: Path, book_pages: list[dict] | None) -> tuple[dict, dict]:
    """The book's reproducers and last verification run; every id in them must be a row.

    `book_pages` is None when a page could not be read: its rows are unknown, so ids are not checked.
    """
    found = []
    for file_name, schema_name in ((REPRODUCERS_FILE, "reproducers"), (VERIFICATION_FILE, "verification")):
        path = book_dir / file_name
        loaded = collect.load(path, schema_name) if path.exists() else None
        found.append(loaded)
    reproducers, run = found
    if book_pages is None:
        return {}, {}
    row_ids = {row.get("id") for page in book_pages for row in page_rows(page)}
    for loaded, rows in ((reproducers, reproducers and reproducers.data),
                         (run, run and run.data.get("results"))):
        for row_id in rows or {}:
            if row_id not in row_ids:
                collect.problems.append(Problem(
                    loaded.name, rows.key_lines.get(row_id), "there is no row with this id in the book's pages",
                    entry=str(row_id)))
    return (reproducers.data if reproducers else {}), (run.data if run else {})
