"""The pipeline: from the data folder to a validated `Site`: load, then validate, then model.

Every problem of every file is collected before anything is modelled, and raised once as a
`DataError`; the model is only ever built from data that passed. The build, the verifier
(refsite.verify) and the tests all start here.
"""

from __future__ import annotations

from pathlib import Path

from .load import DataError, LoadedFile, Problem, load_yaml
from .model import NEAR_MISS_PREFIX, VARIANT_SEPARATOR, Site, book_from_raw, checks_from_raw, reference_page_from_raw, release_key
from .validate import check_references, check_schema, load_schema, mappings, page_rows

SITE_FILE = "site.yml"
BOOK_FILE = "book.yml"
# Beside book.yml, all optional: every row's reproducer, what the last verifier run saw (the
# reference the stamps show), and one run per other torch release (the release matrix).
REPRODUCERS_FILE = "reproducers.yml"
VERIFICATION_FILE = "verification.yml"
RELEASE_FILES = "verification-*.yml"  # verification-<release>.yml, e.g. verification-2.6.0.yml


def _display_name(path: Path, data_dir: Path) -> str:
    return (Path(data_dir.name) / path.relative_to(data_dir)).as_posix()


class _Collector:
    """Loads files and checks them against their schema, keeping every problem."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.schema_dir = data_dir / "schema"
        self.problems: list[Problem] = []
        # Ids other files name that no row has: often what a page's own problem (an id renamed,
        # or written twice) leads to, so they are listed after the pages' problems, not before.
        self.follow_ups: list[Problem] = []

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


def load_site(data_dir: Path, *, runs: bool = True) -> Site:
    """Read and check everything under `data_dir`; raise DataError listing every problem.

    `runs=False` leaves the verifier's results files out (the verifier, about to rewrite one,
    needs only the rows and their reproducers).
    """
    data_dir = Path(data_dir)
    collect = _Collector(data_dir)

    site_file = collect.load(data_dir / SITE_FILE, "site")
    if site_file is None:
        raise DataError(collect.problems)
    site = site_file.data

    books: list[tuple[dict, str]] = []
    pages: list[tuple[dict, str, dict]] = []
    book_files: dict[str, dict] = {}
    checks: dict[str, tuple] = {}  # by book id: (reproducers, reference run, other runs)
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
            collect, book_dir, [p for p, _, b in pages if b is book] if every_page_loaded else None,
            runs=runs)

    collect.problems += check_references(site, site_file.name, books, pages) + collect.follow_ups
    if collect.problems:
        raise DataError(collect.problems)

    joined = {book_id: checks_from_raw(*raw) for book_id, raw in checks.items()}
    return Site(
        title=site["title"],
        home_intro=site.get("home_intro"),
        books=tuple(
            book_from_raw(
                entry,
                book_files.get(entry["id"]),
                tuple(reference_page_from_raw(page, entry["id"], joined[entry["id"]])
                      for page, _, book in pages if book is book_files.get(entry["id"])),
            )
            for entry in site["books"]
        ),
    )


def _load_checks(collect: _Collector, book_dir: Path, book_pages: list[dict] | None, *,
                 runs: bool) -> tuple[dict, dict, list[dict]]:
    """The book's reproducers, its reference run and its runs of other releases; every id in
    them must be a row, and a release's file must hold a run of that release.

    `book_pages` is None when a page could not be read: its rows are unknown, so ids are not checked.
    """
    def load(path: Path, schema_name: str):
        return collect.load(path, schema_name) if path.exists() else None

    reproducers = load(book_dir / REPRODUCERS_FILE, "reproducers")
    # A reproducers file that could not be read is a problem already listed: the runs' variants
    # are not checked against it (each would be one more line burying the cause).
    programs_known = reproducers is not None or not (book_dir / REPRODUCERS_FILE).exists()
    reference = load(book_dir / VERIFICATION_FILE, "verification") if runs else None
    releases = [loaded for path in sorted(book_dir.glob(RELEASE_FILES) if runs else ())
                if (loaded := load(path, "verification")) is not None]
    if book_pages is None:
        return {}, {}, []
    collect.problems += _release_problems(reference, releases)
    row_ids = {row.get("id") for page in book_pages for row in page_rows(page)}
    programs = reproducers.data if reproducers else {}
    for loaded, rows in [(reproducers, reproducers and reproducers.data)] + [
            (run, run.data.get("results")) for run in [reference, *releases] if run]:
        for key in rows or {}:
            row_id, _, variant = str(key).partition(VARIANT_SEPARATOR)
            if row_id not in row_ids:
                collect.follow_ups.append(Problem(
                    loaded.name, rows.key_lines.get(key), "there is no row with this id in the book's pages",
                    entry=str(key)))
            elif variant and programs_known and not _has_program(programs.get(row_id) or {}, variant):
                kind, name = (("near miss", variant[len(NEAR_MISS_PREFIX):]) if variant.startswith(NEAR_MISS_PREFIX)
                              else ("variant", variant))
                collect.follow_ups.append(Problem(
                    loaded.name, rows.key_lines.get(key),
                    f"row '{row_id}' has no {kind} '{name}' in {REPRODUCERS_FILE}", entry=str(key)))
    if reproducers:
        rows = {row.get("id"): row for page in book_pages for row in page_rows(page)}
        collect.problems += _wild_call_problems(reproducers, rows)
    return ((reproducers.data if reproducers else {}), (reference.data if reference else {}),
            [run.data for run in releases])


def _wild_call_problems(reproducers: LoadedFile, rows: dict[str, dict]) -> list[Problem]:
    """A wording seen in the wild that `needs_call` needs a row that names its calls."""
    problems = []
    for row_id, program in (reproducers.data or {}).items():
        row = rows.get(row_id)
        seen_list = program.get("seen_in_the_wild") if isinstance(program, dict) else None
        if row is None or row.get("called_through") or not isinstance(seen_list, list):
            continue
        for seen in seen_list:
            if isinstance(seen, dict) and seen.get("needs_call"):
                problems.append(Problem(
                    reproducers.name, getattr(seen, "key_lines", {}).get("needs_call"),
                    f"the row names no calls (add `called_through` to row '{row_id}' in its page)",
                    entry=row_id, field="seen_in_the_wild.needs_call"))
    return problems


def _has_program(program: dict, name: str) -> bool:
    """Whether a row's reproducers hold the variant or near miss a result is keyed by."""
    if name.startswith(NEAR_MISS_PREFIX):
        return name[len(NEAR_MISS_PREFIX):] in (program.get("near_misses") or {})
    return name in (program.get("variants") or {})


def _release_problems(reference: LoadedFile | None, releases: list[LoadedFile]) -> list[Problem]:
    """A file named for a release holds a run of that release, and no release is kept twice."""
    problems, seen = [], {}
    for run in [reference, *releases]:
        torch = run and run.data.get("torch")
        if not isinstance(torch, str):
            continue  # the schema check already said so
        release = torch.split("+")[0]
        named = Path(run.name).stem.removeprefix("verification").lstrip("-")
        if named and named != release:
            problems.append(Problem(run.name, run.data.key_lines.get("torch"),
                                    f"holds a run of torch {torch}, not of {named}: write it with "
                                    f"`python -m refsite.verify --out` under the release's own name",
                                    field="torch"))
        elif release_key(release) in seen:
            problems.append(Problem(run.name, run.data.key_lines.get("torch"),
                                    f"torch {release} is kept twice, here and in {seen[release_key(release)]}",
                                    field="torch"))
        seen.setdefault(release_key(release), run.name)
    return problems
