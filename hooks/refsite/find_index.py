"""The ranked half of in-page search: a lunr index per reference page, built at build time.

When the reader's text is not on the page (a whole error line with their own names, shapes and
numbers, or a traceback), the browser ranks entries against the index written here, with lunr's
own scores (`find-rank.js` computes them from the field vectors; it needs no lunr.js).
`tokenize` (in `textfold`) is mirrored token for token by `overrides/assets/refsite/find-tokenize.js`; lunr's own
pipeline is switched off on both sides, so the two tokenizers alone decide what matches. There is
no stemming: lunr.py's and lunr.js's Porter stemmers disagree (`trying` -> `tri` / `try`), and a
pasted error repeats the page's own wording anyway.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import sys
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .lunr_index import serialized_index
# The tokenizer lives with the folding tables (stdlib only); these names stay importable from here.
from pytorch_error_lookup.textfold import normalize, strip_traceback_noise, tokenize  # noqa: F401
from pytorch_error_lookup.rank import STOP_WORDS

# Where the browser finds things. Scripts, not JSON, so that a copy opened from disk (`file://`,
# where `fetch` is refused) can load them too.
ASSETS = "assets/refsite"  # the site's own scripts and styles, as built
INDEX_DIR = f"{ASSETS}/find-index"
INDEX_URL_PATTERN = INDEX_DIR + "/{key}.js"
INDEX_GLOBAL = "refsiteFindIndex"
_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


# --- documents and index ------------------------------------------------------------------

# Field boosts: the verbatim error text says more about which entry a pasted line belongs to
# than the explanation next to it.
FIELDS = {"head": 4, "body": 1}
# Chinese is indexed (as character bigrams) only where a reader's own words meet the page: the
# symptoms and the headings of what is not covered, in `head`. Causes and truths, in `body`, give
# their Latin words only (`model.eval()`, `retain_graph`): pasted error lines never hold Chinese,
# and at 10,000 entries the causes' bigrams were seven tenths of the index.
_TERMS = {"head": tokenize, "body": lambda text: tokenize(text, cjk=False)}
_MARKDOWN_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def _plain(markdown: str | None) -> str:
    return _MARKDOWN_LINK_TARGET.sub("]", markdown or "")


def documents_for(page) -> list[dict[str, str]]:
    """One document per table row that can answer "what does my error mean": error entries,
    symptoms and the not-covered categories (a pasted CUDA error should land on why it is absent).
    `head` is what the reader's screen shows, `body` what the page says about it."""
    documents = []
    for section in page.sections:
        for entry in section.entries:
            if section.kind == "errors":
                # Every wording of the row the lookup knows (refsite.wordings), whether or not
                # a template takes it: a paste from torch 1.7 ranks its row first even where its
                # words are too common to say `match` (the suggestions of a `weak` answer).
                wild = entry.reproducer.seen_in_the_wild if entry.reproducer else ()
                head = [entry.fragment, entry.second_line, *(wording for wording, *_ in entry.releases.wordings),
                        *(seen.wording for seen in wild), *_said_words(entry)]
                body = [entry.preface, entry.context, entry.cause, *(other.cause for other in entry.other_causes)]
            elif section.kind == "symptoms":
                head, body = [entry.symptom, *_said_words(entry)], [entry.truth]
            else:
                head, body = [entry.category], [entry.reason]
            documents.append({
                "id": entry.id,
                "head": "\n".join(_plain(text) for text in head if text),
                "body": "\n".join(_plain(text) for text in body if text),
            })
    return documents


def _said_words(entry) -> list[str]:
    """The ways readers describe a row (`said_as`, its `…` as a space): a description in other
    words still ranks the row among the suggestions."""
    return [said.replace("…", " ") for said in entry.said_as]


def build_index(documents: Iterable[Mapping[str, str]]) -> dict[str, Any]:
    """A serialized lunr index over `documents`, with lunr's pipeline off: terms are exactly
    what `tokenize` returns, as they will be in the browser. (refsite.lunr_index writes what
    lunr.py's Builder would, ~3x faster; a test holds the two equal.)"""
    return serialized_index(documents, FIELDS, lambda document, field: _TERMS[field](document[field]))


# --- what the browser loads -----------------------------------------------------------------
# lunr's serialized index says everything twice: each field vector lists its terms, and the
# inverted index lists, for each term, the documents holding it. Shipped as is, the inverted
# index was most of the bytes (at 10,000 entries 2.8 of 4.7 MB). The script carries the terms
# (in lunr's numbering) and the field vectors, all that find-rank.js scores with; the tests
# rebuild the rest from them, exactly (tests/test_find_index.py, `expand_index`).

def compact_index(serialized: Mapping[str, Any]) -> dict[str, Any]:
    """`serialized` without its inverted index: the terms by their number, and the vectors; and
    the numbers of its terms that no query is ranked on (rank.STOP_WORDS), for both rankers."""
    terms = [""] * len(serialized["invertedIndex"])
    for term, posting in serialized["invertedIndex"]:
        terms[posting["_index"]] = term
    return {key: serialized[key] for key in ("version", "fields", "pipeline")} | {
        "terms": terms, "fieldVectors": serialized["fieldVectors"],
        "stopWords": [number for number, term in enumerate(terms) if term in STOP_WORDS]}


def index_script(serialized: Mapping[str, Any]) -> str:
    """The index, compacted, as a classic script that hands itself to find.js through one global."""
    payload = json.dumps(compact_index(serialized), ensure_ascii=False, separators=(",", ":"))
    return f"globalThis.{INDEX_GLOBAL}={payload};\n"


def index_scripts(pages: Iterable) -> dict[str, str]:
    """Each reference page's index script, by page key."""
    return {page.key: index_script(build_index(documents_for(page))) for page in pages}


def write_indexes(pages: Iterable, site_dir: str | Path, scripts: Mapping[str, str] | None = None) -> list[Path]:
    """Write one index script per reference page into the built site."""
    site_dir = Path(site_dir)
    scripts = index_scripts(pages) if scripts is None else scripts
    written = []
    for key, script in scripts.items():
        target = site_dir / INDEX_URL_PATTERN.format(key=key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(script, encoding="utf-8")
        written.append(target)
    return written


class BackgroundIndexes:
    """Builds the index scripts in a second process while MkDocs renders pages and its search
    plugin segments them: on two cores the ranked index then costs the build next to nothing.
    (`spawn`, not `fork`: `mkdocs serve` runs threads, and forking those is unsafe.)"""

    def __init__(self, pages: Iterable):
        self._pages = list(pages)
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        # The child takes the parent's sys.path as the process starts. MkDocs puts hooks/ on it
        # only while loading the hooks, so put it back for that moment: the child then imports
        # this very package, installed or not.
        sys.path.insert(0, str(_PACKAGE_PARENT))
        try:
            self._scripts = self._pool.submit(index_scripts, self._pages)
        finally:
            sys.path.remove(str(_PACKAGE_PARENT))

    def write(self, site_dir: str | Path) -> list[Path]:
        try:
            return write_indexes(self._pages, site_dir, self._scripts.result())
        finally:
            self._pool.shutdown()

    def cancel(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
