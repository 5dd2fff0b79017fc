"""The site as plain, immutable objects, built from data that already passed validation.

Text fields hold their source: `fragment` and `second_line` are verbatim, every other text is
inline Markdown that the renderer turns into HTML. Nothing here knows about MkDocs or HTML.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from pytorch_error_lookup.inline import parse_inline

from .wordings import exception_kind, last_error_line, last_error_message, wording_of


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    scope: str


@dataclass(frozen=True)
class SeenInTheWild:
    """A wording seen only in a real paste (from a release that does not install here): never
    reproduced. `own_names`: the words in it that are the reader's (`torch.cuda.FloatTensor`).
    `needs_call`: other mistakes printed it too on its release, so it is the row's only where
    the paste shows one of the row's `called_through` calls."""
    wording: str
    source: str
    torch: str | None = None
    own_names: tuple[str, ...] = ()
    needs_call: bool = False


def code_sha(code: str) -> str:
    """Names one version of a reproducer; a result written for another version is stale."""
    return hashlib.sha256(code.encode()).hexdigest()[:12]


def release_key(release: str) -> tuple[int, ...]:
    """'2.13.0+cpu' → (2, 13, 0): releases sort by number, not as text (2.9 before 2.13)."""
    return tuple(int(part) for part in release.split("+")[0].split(".") if part.isdigit())


@dataclass(frozen=True)
class Reproducer:
    """The smallest program that makes a row happen (reproducers.yml) and what it must print."""

    code: str
    expect: tuple[str, ...] = ()  # more text the output must contain (a measured claim)
    simulation: str | None = None  # how the situation is staged where it cannot happen for real
    platform: str | None = None  # why the message belongs to another platform
    note: str | None = None  # where today's torch differs from the row's story
    # Other call paths of the same mistake, by name: programs run and recorded like `code`.
    variants: tuple[tuple[str, str], ...] = ()
    variant_own_names: tuple[tuple[str, tuple[str, ...]], ...] = ()  # a variant's readers' own words
    variant_expect: tuple[tuple[str, tuple[str, ...]], ...] = ()  # what shows a variant reached its mistake
    # Wordings seen only in real pastes: never reproduced here.
    seen_in_the_wild: tuple[SeenInTheWild, ...] = ()
    # Programs that make another error readers mistake for this row's, by name: (name, code,
    # what it is instead). Run and recorded like variants; none of the row's other wordings,
    # nor any partial template, may fit what they print (refsite.find_rules).
    near_misses: tuple[tuple[str, str, str], ...] = ()

    @property
    def code_sha(self) -> str:
        return code_sha(self.code)

    def variant(self, name: str) -> "Reproducer":
        """A variant as a program of its own (its result is keyed `<row>/<name>`)."""
        return Reproducer(code=dict(self.variants)[name], expect=dict(self.variant_expect).get(name, ()))

    def near_miss(self, name: str) -> "Reproducer":
        """A near miss as a program of its own (keyed `<row>/near-miss/<name>`)."""
        return Reproducer(code={near: code for near, code, _ in self.near_misses}[name])

    def program(self, name: str) -> "Reproducer | None":
        """The program a result's name (after `<row>/`) stands for; None if there is none."""
        if not name:
            return self
        if name.startswith(NEAR_MISS_PREFIX):
            near = name[len(NEAR_MISS_PREFIX):]
            return self.near_miss(near) if near in {n for n, *_ in self.near_misses} else None
        return self.variant(name) if name in dict(self.variants) else None


VARIANT_SEPARATOR = "/"  # a variant's result is keyed `matmul-dtype/mm`
NEAR_MISS_PREFIX = "near-miss/"  # a near miss's: `matmul-dtype/near-miss/conv2d`


def variant_key(row_id: str, name: str) -> str:
    return f"{row_id}{VARIANT_SEPARATOR}{name}"


def near_miss_key(row_id: str, name: str) -> str:
    return f"{row_id}{VARIANT_SEPARATOR}{NEAR_MISS_PREFIX}{name}"


# How a row's text came out in one run (the `seen` of a result, see refsite.verify.judging),
# plus two that only the build can tell: the reproducer changed since, or that release never ran;
# each as readers read it (the page's release lines, the terminal lookup's release remark).
SEEN_LABELS = {
    "verbatim": "逐字一致",
    "folded": "空白折叠后一致",
    "reworded": "换了措辞",
    "different": "报的是别的",
    "missing": "没有出现",
    "api-missing": "缺 API，跑不到",
    "other-platform": "属别的平台",
    "unchecked": "没能核对",
    "stale": "复现代码已改，待重跑",
    "not-run": "没跑过",
}
SEEN_KINDS = tuple(SEEN_LABELS)
# The kinds a reader on that release would see other text for (the release view marks these).
DIFFERING_KINDS = ("reworded", "different", "missing", "api-missing")


@dataclass(frozen=True)
class Verification:
    """What a row's reproducer really printed in one verifier run (refsite.verify) of a release."""

    status: str  # reproduced | reproduced-whitespace-folded | simulated | not-reproducible-here | api-missing | failed
    seen: str  # how the row's text came out: one of SEEN_KINDS
    torch: str
    date: str
    why: str | None = None
    excerpt: str | None = None
    note: str | None = None  # where this torch differs from the row's story
    output: str | None = None
    stale: bool = False  # the reproducer changed since the run
    # The row's mistake in this release's own words, when it did not print the row's text
    # (refsite.wordings): it joins the row's lookup.
    wording: str | None = None
    variant: str | None = None  # the run of one of the row's variants (Reproducer.variants)

    @property
    def torch_release(self) -> str:
        return self.torch.split("+")[0]

    @property
    def near_miss_error(self) -> str | None:
        """For a near miss's run, the error it printed: none when the run is stale, or when the
        release could not run it (api-missing: `torch.compile` on 1.x is not the near miss's error)."""
        return None if self.stale or self.status != "reproduced" else last_error_message(self.output or "")

    @property
    def shown_as(self) -> str:
        """The kind to show: a stale result says nothing about today's reproducer; a release
        that said the mistake in other words is `reworded`, not `different`."""
        if self.stale:
            return "stale"
        return "reworded" if self.wording else self.seen

    @property
    def differs(self) -> bool:
        return self.shown_as in DIFFERING_KINDS


@dataclass(frozen=True)
class ReleaseSpan:
    """Consecutive releases of the matrix on which a row's text came out alike."""

    kind: str  # a SEEN_KIND
    releases: tuple[str, ...]

    @property
    def first(self) -> str:
        return self.releases[0]

    @property
    def last(self) -> str:
        return self.releases[-1]


@dataclass(frozen=True)
class ReleaseRuns:
    """A row across the release matrix: one run per kept release, oldest first; a release whose
    run left the row out is there too, as `not-run`."""

    runs: tuple[Verification, ...] = ()
    variant_runs: tuple[Verification, ...] = ()  # the runs of the row's variants, every release
    near_miss_runs: tuple[Verification, ...] = ()  # the runs of its near misses, every release

    def __bool__(self) -> bool:
        return bool(self.runs)

    @property
    def spans(self) -> tuple[ReleaseSpan, ...]:
        spans: list[ReleaseSpan] = []
        for run in self.runs:
            if spans and spans[-1].kind == run.shown_as:
                spans[-1] = ReleaseSpan(run.shown_as, spans[-1].releases + (run.torch_release,))
            else:
                spans.append(ReleaseSpan(run.shown_as, (run.torch_release,)))
        return tuple(spans)

    @property
    def differing(self) -> tuple[Verification, ...]:
        """The runs a reader would see other text on: their outputs are worth showing."""
        return tuple(run for run in self.runs if run.differs)

    @property
    def wordings(self) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
        """Each of the row's other wordings with the releases that print it (oldest first) and
        the variants that printed it there ("" for the row's own reproducer)."""
        found: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        for run in self.runs + self.variant_runs:
            if run.shown_as == "reworded":
                releases, paths = found.get(run.wording, ((), ()))
                if run.torch_release not in releases:
                    releases += (run.torch_release,)
                if (run.variant or "") not in paths:
                    paths += (run.variant or "",)
                found[run.wording] = (releases, paths)
        return tuple((wording, tuple(sorted(releases, key=release_key)), paths)
                     for wording, (releases, paths) in found.items())

    @property
    def near_miss_messages(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """Each near miss's (name, what it printed as its error, the releases that print it),
        oldest release first; a message a release printed otherwise is listed apart."""
        found: dict[tuple[str, str], tuple[str, ...]] = {}
        for run in self.near_miss_runs:
            message = run.near_miss_error
            if message:
                name = run.variant.removeprefix(NEAR_MISS_PREFIX)
                found[(name, message)] = found.get((name, message), ()) + (run.torch_release,)
        return tuple((name, message, tuple(sorted(releases, key=release_key)))
                     for (name, message), releases in found.items())

    @property
    def by_release(self) -> str:
        """'2.0.1:different 2.4.1:verbatim …', for the page's release view (a data attribute)."""
        return " ".join(f"{run.torch_release}:{run.shown_as}" for run in self.runs)


_CALLABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class OtherCause:
    """Another mistake that prints a row's words, as a public thread traced it (`source`)."""
    cause: str  # inline Markdown, as the row's own cause
    source: str
    shown_by: tuple[str, ...] = ()  # what in a paste shows it is this one (lookup.shown_other_causes)


@dataclass(frozen=True)
class ErrorEntry:
    id: str
    fragment: str
    cause: str
    chapters: tuple[str, ...]
    second_line: str | None = None
    preface: str | None = None
    context: str | None = None
    # Words of the fragment that are the reader's own (a class, an op, a dtype): the lookup
    # matches any name there (pytorch_error_lookup.rule).
    own_names: tuple[str, ...] = ()
    # Structure the lookup must see before it says this row (pytorch_error_lookup.rule).
    key_prefixes: tuple[str, ...] = ()
    not_with: tuple[str, ...] = ()
    sizes_differ: bool = False  # its two shapes differ in size, not only in order
    # The calls its mistake is made through (`F.linear`, `@`): a wording another situation prints
    # too (a near miss's) is this row's when the paste shows one of them.
    called_through: tuple[str, ...] = ()
    # Code or words that show another cause (`Half`: a half-precision model, not float64 data):
    # a paste showing one is not this row's (pytorch_error_lookup.lookup.shows_other_cause).
    unless_shown: tuple[str, ...] = ()
    # Code or words one of which a paste must show for the row to be said (`torch.load`): its
    # message alone is any such error's (pytorch_error_lookup.lookup.lacks_own_context).
    only_if_shown: tuple[str, ...] = ()
    # Functions only its situation runs through (`_fixup_main_from_path`): a traceback cut before
    # its message that shows one of them as a frame is this row's (pytorch_error_lookup.rule.compile_frame).
    frames: tuple[str, ...] = ()
    # How readers describe it in words when they do not paste it: the lookup's templates, as a
    # symptom's (`freeze_support`, `windows…num_worker`).
    said_as: tuple[str, ...] = ()
    # Other mistakes that print the same words: the row explains them too, under its cause.
    other_causes: tuple[OtherCause, ...] = ()
    reproducer: Reproducer | None = None
    verification: Verification | None = None  # the reference run (verification.yml)
    releases: ReleaseRuns = ReleaseRuns()  # the row across the release matrix

    @property
    def fragments(self) -> tuple[str, ...]:
        """The row's verbatim text, which a run must print."""
        return tuple(text for text in (self.fragment, self.second_line) if text)

    @property
    def context_code(self) -> tuple[str, ...]:
        """The functions its context names (`发生在 `torch.load` 里`): a traceback that never
        passes through one is not this row's situation (pytorch_error_lookup.lookup.off_context).
        Only a code span that is a (dotted) name counts: `numerical:` is text that follows."""
        return tuple(span.text for span in parse_inline(self.context or "")
                     if span.kind == "code" and _CALLABLE.fullmatch(span.text))


@dataclass(frozen=True)
class Symptom:
    id: str
    symptom: str
    truth: str
    chapters: tuple[str, ...]
    said_as: tuple[str, ...] = ()  # other ways readers describe it: the lookup's templates
    reproducer: Reproducer | None = None
    verification: Verification | None = None  # the reference run (verification.yml)
    releases: ReleaseRuns = ReleaseRuns()  # the row across the release matrix

    @property
    def fragments(self) -> tuple[str, ...]:
        """None: a symptom has no verbatim text, its reproducer checks `expect` only."""
        return ()


@dataclass(frozen=True)
class NotCovered:
    id: str
    category: str
    reason: str
    # Other words its errors are printed in (an older release's, a log's), found anywhere in a
    # paste (refsite.find_rules.left_out_heads).
    printed_as: tuple[str, ...] = ()


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
    torch_releases: tuple[str, ...] = ()  # the release matrix's columns, oldest first

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


@dataclass(frozen=True)
class Checks:
    """A book's reproducers and verifier runs, to be joined to its rows by id."""

    reproducers: dict[str, Reproducer]
    reference: dict[str, Verification]  # the run of verification.yml, which the stamps show
    runs: tuple[dict[str, Verification], ...] = ()  # every kept run, oldest release first
    releases: tuple[str, ...] = ()  # the release of each run: the matrix's columns

    def of_row(self, row_id: str) -> dict:
        """The row's fields that come from the checks, for its dataclass. A row with nothing to
        run (a symptom without a measured claim) stays out of the matrix."""
        fields = {}
        if row_id in self.reproducers or any(row_id in run for run in self.runs):
            program = self.reproducers.get(row_id)
            variants = [variant_key(row_id, name) for name, _ in program.variants] if program else []
            near_misses = [near_miss_key(row_id, name) for name, *_ in program.near_misses] if program else []
            fields["releases"] = ReleaseRuns(
                tuple(run.get(row_id) or _not_run(release) for run, release in zip(self.runs, self.releases)),
                tuple(run[key] for run in self.runs for key in variants if key in run),
                tuple(run[key] for run in self.runs for key in near_misses if key in run))
        if row_id in self.reproducers:
            fields["reproducer"] = self.reproducers[row_id]
        if row_id in self.reference:
            fields["verification"] = self.reference[row_id]
        return fields


def _row(kind: str, raw: dict, checks: Checks | None):
    row_type = _ROW_TYPES[kind]
    values = dict(raw)
    for listed in ("chapters", "own_names", "key_prefixes", "not_with", "called_through", "unless_shown", "only_if_shown",
                   "frames", "said_as", "printed_as"):
        if listed in values:
            values[listed] = tuple(values[listed])
    if "other_causes" in values:
        values["other_causes"] = tuple(OtherCause(**{**other, "shown_by": tuple(other.get("shown_by", ()))})
                                       for other in values["other_causes"])
    if checks is not None and kind != "not-covered":
        values.update(checks.of_row(raw["id"]))
    return row_type(**values)


def _variant_lists(program: dict, field: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(variant name, its `field`) for each variant of `program` written with that field."""
    return tuple((name, tuple(variant[field])) for name, variant in (program.get("variants") or {}).items()
                 if not isinstance(variant, str) and field in variant)


def reproducers_from_raw(raw: dict) -> dict[str, Reproducer]:
    return {row_id: Reproducer(code=program["code"], expect=tuple(program.get("expect", ())),
                               simulation=program.get("simulation"),
                               platform=program.get("platform"), note=program.get("note"),
                               variants=tuple((name, variant if isinstance(variant, str) else variant["code"])
                                              for name, variant in (program.get("variants") or {}).items()),
                               variant_own_names=_variant_lists(program, "own_names"),
                               variant_expect=_variant_lists(program, "expect"),
                               seen_in_the_wild=tuple(SeenInTheWild(seen["wording"], seen["source"], seen.get("torch"),
                                                                    tuple(seen.get("own_names", ())),
                                                                    seen.get("needs_call", False))
                                                      for seen in program.get("seen_in_the_wild", ())),
                               near_misses=tuple((name, near["code"], near["is"])
                                                 for name, near in (program.get("near_misses") or {}).items()))
            for row_id, program in raw.items()}


def verifications_from_raw(run: dict, reproducers: dict[str, Reproducer],
                           reference_kinds: dict[str, str | None] | None = None) -> dict[str, Verification]:
    """One verifier run's results by row id; a result of another version of the row's reproducer
    (its `code_sha` differs) is stale. With the exception kind each row raised on the reference
    run, a run that printed other text gets the row's wording in it, if there is one."""
    verifications = {}
    results = run.get("results", {})
    for key, result in results.items():
        row_id, _, name = key.partition(VARIANT_SEPARATOR)
        reproducer = reproducers.get(row_id)
        program = reproducer.program(name) if reproducer else None
        stale = program is None or result.get("code_sha") != program.code_sha
        near_miss = name.startswith(NEAR_MISS_PREFIX)
        wording = None
        # A variant that stopped before its mistake (its `expect` unmet: failed) says nothing of it.
        if (reference_kinds and result["seen"] == "different" and not stale and not near_miss
                and (not name or result["status"] == "reproduced")):
            # A variant's author vouches that it is the row's mistake: only the release's own
            # kind of check applies to the row's program.
            wording = wording_of(result.get("output"), reference_kinds.get(row_id), program.code,
                                 same_kind=not name)
        if wording and any(wording in (other.get("output") or "") for other_id, other in results.items()
                           if other_id.partition(VARIANT_SEPARATOR)[0] != row_id):
            wording = None  # every program printed it on that release (a CUDA build's driver warning)
        verifications[key] = Verification(
            status=result["status"], seen=result["seen"], torch=run["torch"],
            date=str(result.get("date") or run["date"]),
            why=result.get("why"), excerpt=result.get("excerpt"), note=result.get("note"),
            output=result.get("output"), stale=stale, wording=wording, variant=name or None)
    return verifications


def _not_run(torch: str) -> Verification:
    return Verification(status="not-run", seen="not-run", torch=torch, date="")


def checks_from_raw(reproducers: dict, reference: dict, other_runs: list[dict]) -> Checks:
    """`reference` is verification.yml's run, `other_runs` those of verification-<release>.yml."""
    programs = reproducers_from_raw(reproducers)
    runs = sorted((run for run in [reference, *other_runs] if run),
                  key=lambda run: release_key(run["torch"]))
    # What each row's own text is on the reference run (the exception on the line its text was
    # found in): another release's wording of it is of the same kind. A row whose reference run
    # did not print its text has none: what it printed instead is a failure, not a wording.
    kinds = {row_id: exception_kind(last_error_line(result.get("excerpt") or ""))
             for row_id, result in (reference or {}).get("results", {}).items()
             if result.get("seen") in ("verbatim", "folded")}
    return Checks(programs, verifications_from_raw(reference, programs),
                  tuple(verifications_from_raw(run, programs, kinds) for run in runs),
                  tuple(run["torch"].split("+")[0] for run in runs))


def reference_page_from_raw(raw: dict, book_id: str, checks: Checks | None = None) -> ReferencePage:
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
                    entries=tuple(_row(section["kind"], entry, checks)
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
        torch_releases=checks.releases if checks else (),
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
