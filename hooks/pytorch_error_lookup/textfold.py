"""What pasted error text varies in, folded away, and the terms the ranked search is made of.

Standard library only: the build imports it through `find_index`, and a command-line lookup
imports it without MkDocs, Jinja or lunr installed.

The two folding tables (curly quotes, invisible characters) exist once per language: here, and
in `overrides/assets/refsite/find-textfold.js` for the browser's literal search and tokenizer.
`tests/test_find_textfold.py` checks that the two tables hold the same characters. `tokenize`
is mirrored rule for rule by `find-tokenize.js`; `tests/test_find_tokenize.py` runs both on the
same inputs.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Curly and low quotes a word processor or a chat client puts where the program printed straight ones.
QUOTES = {"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'}
# Characters that take no room on screen but survive a copy: soft hyphen, zero-width spaces and
# joiners, direction marks, word joiner, byte-order mark. As a regular-expression class body.
INVISIBLE_CLASS = "\u00ad\u200b-\u200f\u2060\ufeff"

_QUOTES = str.maketrans(QUOTES)
_ANSI_ESCAPE = re.compile("\x1b\\[[0-9;]*[A-Za-z]")
_URL = re.compile(r"https?://[^ \t\r\n]+")

# Traceback noise: the header, `File "…", line N, in f` frames with the code line and the carets
# printed under them, and the links between chained exceptions. Only the error lines say anything.
_TRACEBACK_HEADER = re.compile(r"traceback \(most recent call last\):?", re.IGNORECASE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_INDENT = re.compile(r"[ \t]*")
# A frame's line, also with its `File ` lost to a paste cut at the line's start (then with its
# `, in f`, which prose does not have). (Case spelt out rather than IGNORECASE, which makes this
# pattern ten times dearer to compile.)
_FRAME_LINE = re.compile(r'^([ \t]*)(?:[Ff][Ii][Ll][Ee] "[^"\n]*", [Ll][Ii][Nn][Ee] \d+|"[^"\n]*", [Ll][Ii][Nn][Ee] \d+, [Ii][Nn] )')
_FRAME_INLINE = re.compile(r'File "[^"\n]*", line \d+(?:, in [^ \t\r\n]+)?', re.IGNORECASE)
_CARETS = re.compile(r"[\^~]{2,}")
_CHAIN_LINES = re.compile(
    r"during handling of the above exception, another exception occurred:"
    r"|the above exception was the direct cause of the following exception:",
    re.IGNORECASE,
)

# Latin words (with digits and underscores: `grad_fn`, `mat1`) or runs of CJK characters, which
# have no spaces between words and are indexed as overlapping character bigrams.
_WORD = "([A-Za-z0-9_]+)|([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)"


# _WORD for a text with no CJK in it (the second group never takes part).
_ASCII_WORDS = re.compile("([A-Za-z0-9_]+)()")


def ascii_or(ascii_pattern: re.Pattern[str], pattern: str, text: str) -> re.Pattern[str]:
    """`ascii_pattern` for a text with no character past ASCII (most pastes), else `pattern`,
    compiled then (`re` keeps it): a class with CJK ranges costs up to 1 ms to compile, which a
    command's start should not pay for a text that cannot hold them."""
    return ascii_pattern if text.isascii() else re.compile(pattern)


_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# Parts that differ from reader to reader and say nothing about the error: numbers, shapes
# (`8x16`) and addresses (`0x7f3a…`).
_NUMERIC = re.compile(r"^(?:\d+(?:x\d+)*|0x[0-9a-f]+)$")


def normalize(text: str) -> str:
    """Fold the ways pasted text varies: width (NFKC, which also turns `…` into `...`), curly
    quotes, invisible characters."""
    if text.isascii():  # nothing to fold, and no pattern to compile at a command's start
        return text
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return re.sub(f"[{INVISIBLE_CLASS}]", "", text)


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


@functools.lru_cache(maxsize=65536)  # a log repeats its words: each is split once
def _word_tokens(word: str) -> tuple[str, ...]:
    parts = [part.lower() for piece in word.split("_") for part in _CAMEL_BOUNDARY.split(piece)]
    kept = [part for part in parts if len(part) > 1 and not _NUMERIC.match(part)]
    if len(kept) > 1:  # the compound too: `grad_fn`, `runtimeerror` match better than their parts
        kept.append(word.strip("_").lower())
    return tuple(kept)


def _cjk_tokens(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _words(text: str) -> list[tuple[str, str]]:
    """(Latin word, "") or ("", run of Chinese, Japanese or Korean) for each word of `text`, in
    order, its traceback frames and noise gone."""
    text = strip_traceback_noise(normalize(text))
    return ascii_or(_ASCII_WORDS, _WORD, text).findall(text)


def _terms(latin: str, run: str, cjk: bool = True) -> tuple[str, ...] | list[str]:
    return _word_tokens(latin) if latin else _cjk_tokens(run) if cjk else ()


def distinct_tokens(text: str, limit: int) -> list[str]:
    """The first `limit` distinct terms of `text`, in order: tokenize's, repeats dropped (what a
    query ranks by). Each distinct word is split once however often it comes, so a megabyte of
    the same few words costs a scan, not a Python step per word."""
    terms: dict[str, None] = {}
    for latin, run in dict.fromkeys(_words(text)):
        terms.update(dict.fromkeys(_terms(latin, run)))
        if len(terms) >= limit:
            break
    return list(terms)[:limit]


def tokenize(text: str, *, cjk: bool = True) -> list[str]:
    """Terms of `text` for the ranked index, in order, repeats kept (they count as frequency).
    With `cjk=False`, runs of Chinese, Japanese or Korean are left out: only the Latin words."""
    return [term for latin, run in _words(text) for term in _terms(latin, run, cjk)]
