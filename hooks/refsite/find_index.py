"""The ranked half of in-page search: a lunr index per reference page, built at build time.

When the reader's text is not on the page (a whole error line with their own names, shapes and
numbers, or a traceback), the browser ranks entries with lunr.js against the index written here.
`tokenize` is mirrored token for token by `overrides/assets/refsite/find-tokenize.js`; lunr's own
pipeline is switched off on both sides, so the two tokenizers alone decide what matches. There is
no stemming: lunr.py's and lunr.js's Porter stemmers disagree (`trying` -> `tri` / `try`), and a
pasted error repeats the page's own wording anyway.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import shutil
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .lunr_index import serialized_index

# What pasted text varies in, folded before anything else (NFKC already turns `…` into `...`).
_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'})
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")
_ANSI_ESCAPE = re.compile("\x1b\\[[0-9;]*[A-Za-z]")
_URL = re.compile(r"https?://[^ \t\r\n]+")

# Traceback noise: the header, `File "…", line N, in f` frames with the code line and the carets
# printed under them, and the links between chained exceptions. Only the error lines say anything.
_TRACEBACK_HEADER = re.compile(r"traceback \(most recent call last\):?", re.IGNORECASE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_INDENT = re.compile(r"[ \t]*")
_FRAME_LINE = re.compile(r'^([ \t]*)File "[^"\n]*", line \d+', re.IGNORECASE)
_FRAME_INLINE = re.compile(r'File "[^"\n]*", line \d+(?:, in [^ \t\r\n]+)?', re.IGNORECASE)
_CARETS = re.compile(r"[\^~]{2,}")
_CHAIN_LINES = re.compile(
    r"during handling of the above exception, another exception occurred:"
    r"|the above exception was the direct cause of the following exception:",
    re.IGNORECASE,
)

# Latin words (with digits and underscores: `grad_fn`, `mat1`) or runs of CJK characters, which
# have no spaces between words and are indexed as overlapping character bigrams.
_WORD = re.compile("([A-Za-z0-9_]+)|([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# Parts that differ from reader to reader and say nothing about the error: numbers, shapes
# (`8x16`) and addresses (`0x7f3a…`).
_NUMERIC = re.compile(r"^(?:\d+(?:x\d+)*|0x[0-9a-f]+)$")

# Where the browser finds things. Scripts, not JSON, so that a copy opened from disk (`file://`,
# where `fetch` is refused) can load them too.
ASSETS = "assets/refsite"  # the site's own scripts and styles, as built
LUNR_JS_URL = f"{ASSETS}/vendor/lunr.js"
INDEX_DIR = f"{ASSETS}/find-index"
INDEX_URL_PATTERN = INDEX_DIR + "/{key}.js"
INDEX_GLOBAL = "refsiteFindIndex"
_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def normalize(text: str) -> str:
    """Fold the ways pasted text varies: width (NFKC), curly quotes, invisible characters."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return _INVISIBLE.sub("", text)


def strip_traceback_noise(text: str) -> str:
    """Drop traceback frames, their code and caret lines, ANSI colours and URLs."""
    text = _ANSI_ESCAPE.sub(" ", text)
    kept: list[str] = []
    frame_indent: int | None = None
    for line in _LINE_BREAK.split(text):
        frame = _FRAME_LINE.match(line)
        if frame:
            frame_indent = len(frame.group(1))
            continue
        indent = len(_INDENT.match(line).group())
        if frame_indent is not None and indent > frame_indent and _INDENT.fullmatch(line) is None:
            continue  # the source line Python prints under a frame, or its carets
        frame_indent = None
        kept.append(line)
    text = "\n".join(kept)
    for noise in (_FRAME_INLINE, _TRACEBACK_HEADER, _CHAIN_LINES, _CARETS, _URL):
        text = noise.sub(" ", text)
    return text


def _word_tokens(word: str) -> list[str]:
    parts = [part.lower() for piece in word.split("_") for part in _CAMEL_BOUNDARY.split(piece)]
    kept = [part for part in parts if len(part) > 1 and not _NUMERIC.match(part)]
    if len(kept) > 1:  # the compound too: `grad_fn`, `runtimeerror` match better than their parts
        kept.append(word.strip("_").lower())
    return kept


def _cjk_tokens(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def tokenize(text: str) -> list[str]:
    """Terms of `text` for the ranked index, in order, repeats kept (they count as frequency)."""
    tokens: list[str] = []
    for match in _WORD.finditer(strip_traceback_noise(normalize(text))):
        latin, cjk = match.groups()
        tokens.extend(_word_tokens(latin) if latin else _cjk_tokens(cjk))
    return tokens


# --- documents and index ------------------------------------------------------------------

# Field boosts: the verbatim error text says more about which entry a pasted line belongs to
# than the explanation next to it.
FIELDS = {"head": 4, "body": 1}
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
                head = [entry.fragment, entry.second_line]
                body = [entry.preface, entry.context, entry.cause]
            elif section.kind == "symptoms":
                head, body = [entry.symptom], [entry.truth]
            else:
                head, body = [entry.category], [entry.reason]
            documents.append({
                "id": entry.id,
                "head": "\n".join(_plain(text) for text in head if text),
                "body": "\n".join(_plain(text) for text in body if text),
            })
    return documents


def build_index(documents: Iterable[Mapping[str, str]]) -> dict[str, Any]:
    """A serialized lunr index over `documents`, with lunr's pipeline off: terms are exactly
    what `tokenize` returns, as they will be in the browser. (refsite.lunr_index writes what
    lunr.py's Builder would, ~3x faster; a test holds the two equal.)"""
    return serialized_index(documents, FIELDS, lambda document, field: tokenize(document[field]))


def index_script(serialized: Mapping[str, Any]) -> str:
    """The index as a classic script that hands itself to find.js through one global."""
    payload = json.dumps(serialized, ensure_ascii=False, separators=(",", ":"))
    return f"globalThis.{INDEX_GLOBAL}={payload};\n"


def lunr_js_source() -> Path:
    """lunr.js 2.3.9 as shipped inside the installed MkDocs (its own search plugin uses it)."""
    import mkdocs

    return Path(mkdocs.__file__).parent / "contrib" / "search" / "templates" / "search" / "lunr.js"


def index_scripts(pages: Iterable) -> dict[str, str]:
    """Each reference page's index script, by page key."""
    return {page.key: index_script(build_index(documents_for(page))) for page in pages}


def write_indexes(pages: Iterable, site_dir: str | Path, scripts: Mapping[str, str] | None = None) -> list[Path]:
    """Write lunr.js and one index script per reference page into the built site."""
    site_dir = Path(site_dir)
    scripts = index_scripts(pages) if scripts is None else scripts
    vendor = site_dir / LUNR_JS_URL
    vendor.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(lunr_js_source(), vendor)
    written = [vendor]
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
