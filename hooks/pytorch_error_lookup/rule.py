"""How sure a lookup is: the one decision rule the page, the terminal and the notebook share.

Every query ends in one verdict, tried in this order (DESIGN.md §4):

- `literal`: the text is on the page, after folding (case, width, quotes, whitespace; `fold`).
  A pasted last line also counts when its message is, once the exception's qualified name
  (`RuntimeError: `, `_pickle.UnpicklingError: `, a warning's `x.py:4: UserWarning: `) is set
  aside (`split_exception`);
- `match`: the text is not on the page, but one row's *template* fits it. A template is the row's
  fragment compiled at build time (`compile_template`): numbers, shapes, dotted parameter names,
  the data's `xxx` / `Xxx` placeholders and the row's `own_names` become slots, `…` matches any
  text, every other word is fixed. Only the reader's own names, shapes and numbers may differ;
- `weak`: the ranked search finds rows sharing words with it, and none of them fits;
- `none`: nothing shares a meaningful word.

The templates are plain regular expressions in the subset Python and JavaScript read alike
(literal characters, `[…]` classes over ASCII, `*`, `+`, `?`, `(?:…)`; no `\\w`, `\\d` or `\\s`,
whose meaning differs), applied to folded text. The browser receives them as compiled here
(`find-verdict.js` applies them in the same order); `tests/fixtures/lookup_cases.yml` holds the
labelled cases both sides are tested against.

Standard library only: the command-line lookup imports this without MkDocs or Jinja.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from refsite.textfold import INVISIBLE_CLASS, QUOTES, strip_traceback_noise

LITERAL, MATCH, WEAK, NONE = "literal", "match", "weak", "none"
VERDICTS = (LITERAL, MATCH, WEAK, NONE)

# ── Folding: the mirror of foldQuery in find-fold.js ─────────────────────────────────────────

_INVISIBLE = re.compile(f"^[{INVISIBLE_CLASS}]$")
# What JavaScript's \s matches (Python's str.isspace differs on a few control characters).
_JS_SPACE = re.compile("^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$")


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    code = ord(char)
    if code < 128:
        if code == 32 or 9 <= code <= 13:
            return " "
        return char.lower()
    if _INVISIBLE.match(char):
        return ""
    if _JS_SPACE.match(char):
        return " "
    return "".join(" " if _JS_SPACE.match(part) else QUOTES.get(part, part)
                   for part in unicodedata.normalize("NFKC", char).lower())


def fold(text: str) -> str:
    """Text as the literal search compares it: lower case, NFKC (`…` is `...`), straight quotes,
    each run of whitespace one space, invisible characters gone, no space at either end."""
    out: list[str] = []
    space = True  # drops leading whitespace
    for char in text:
        for part in _fold_char(char):
            if part == " ":
                if space:
                    continue
                space = True
            else:
                space = False
            out.append(part)
    return "".join(out).rstrip(" ")


# ── The exception's name, set aside ─────────────────────────────────────────────────────────

# `RuntimeError: `, `torch._dynamo.exc.UserError: `, `GuardOnDataDependentSymNode: `, and a
# warning as Python prints it: `/path/x.py:4: UserWarning: `. The last part of the name starts
# with a capital; the message after it is what the page quotes.
# (The page's box reads this pattern and MESSAGE_START from its form: one source, two engines.)
EXCEPTION_PREFIX = re.compile(r"^[ \t]*(?:[^ \t\r\n]+\.py:[0-9]+: )?(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*: ")
# A message set aside from its exception's name counts only with two words in it: `KeyError: 0`
# or `ValueError: nan` is on the page by accident, not because the page explains it.
WORD = re.compile("[A-Za-z]{2,}|[\u4e00-\u9fff]{2,}")
MESSAGE_WORDS = 2


def split_exception(line: str) -> tuple[str, str]:
    """(`RuntimeError: `, message) for a pasted last line; ("", line) when it names none."""
    found = EXCEPTION_PREFIX.match(line)
    return (found.group(), line[found.end():]) if found else ("", line)


def has_substance(message: str) -> bool:
    return len(WORD.findall(message)) >= MESSAGE_WORDS


# ── Templates ─────────────────────────────────────────────────────────────────────────────────

NAME = "[a-z0-9_.]+"  # a reader's own name, folded: `head`, `mylab.towers.tower`, `tanh`
# A quoted class name of the reader's own (`'Linear' object has no attribute`) is never one of
# Python's or torch's own types: `'NoneType' object has no attribute 'zero_'` is another story.
_BUILT_IN_TYPES = ("nonetype", "str", "int", "float", "bool", "list", "dict", "tuple", "set", "bytes",
                   "object", "type", "function", "method", "builtin_function_or_method", "module",
                   "generator", "tensor", "parameter", "ndarray", "numpy.ndarray")
QUOTED_NAME = f"'(?!(?:{'|'.join(re.escape(name) for name in _BUILT_IN_TYPES)})')[a-z0-9_.]+'"
# Slots, tried in this order at each position of a fragment. (kind, recogniser in the fragment,
# pattern in the template).
_SLOTS: tuple[tuple[str, str, str], ...] = (
    ("any", r"…", ".*?"),
    ("shape", r"torch\.Size\(\[[0-9, ]*\]\)", r"torch\.size\(\[[0-9, ]*\]\)"),
    ("shape", r"\[[0-9]+(?:, [0-9]+)*\]", r"\[[0-9, -]*\]"),
    ("shape", r"(?<![A-Za-z0-9_.])[0-9]+(?:x[0-9]+)+(?![A-Za-z0-9_])", "[0-9]+(?:x[0-9]+)+"),
    ("name", r"(?<![A-Za-z])(?:xxx|Xxx)", NAME),
    # `"1.weight", "1.bias"`: a list of keys, as long as the reader's model makes it.
    ("names", r'"[^"\s]+"(?:, "[^"\s]+")+', '"[^"]*"(?:, "[^"]*")*'),
    ("number", r"(?<![A-Za-z0-9_.])-?[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_]|\.[A-Za-z0-9_])", r"-?[0-9]+(?:\.[0-9]+)?"),
    # `0.weight`, `encoder.layer3.attn.qkv.weight`: a parameter's path. Not an API (`torch.…`)
    # and not a call (`tensor.detach()`), whose words are the message's own.
    ("dotted", r"(?<![A-Za-z0-9_.])(?!torch\.)[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+(?![A-Za-z0-9_(])", NAME),
)
_REGEX_SYNTAX = re.compile(r"([\\^$.*+?()\[\]{}|/])")
_SEPARATORS = " ,;:."


@dataclass(frozen=True)
class Template:
    """A row's fragment as a pattern. `anchor` is its longest fixed piece (a cheap first test);
    `fixed` counts its fixed characters (the more, the more specific)."""

    entry: str
    pattern: str
    anchor: str
    fixed: int

    def as_json(self) -> dict:
        return {"entry": self.entry, "pattern": self.pattern, "anchor": self.anchor, "fixed": self.fixed}


def _escape(text: str) -> str:
    # Only the characters that are syntax in both languages, so that an escape never depends on
    # an engine's leniency (an escaped space or hyphen is an error in JavaScript's `u` mode).
    return _REGEX_SYNTAX.sub(r"\\\1", text)


def _pieces(fragment: str, own_names: Sequence[str]) -> list[tuple[str, str]]:
    """The fragment cut into ("text", folded text) and (kind, pattern) pieces."""
    slots = list(_SLOTS)
    for name in own_names:
        slots.append(("name", f"'{re.escape(name)}'", QUOTED_NAME))
        slots.append(("name", rf"(?<![A-Za-z0-9_.]){re.escape(name)}(?![A-Za-z0-9_])", NAME))
    recognisers = [re.compile(recogniser) for _, recogniser, _ in slots]
    pieces: list[tuple[str, str]] = []
    text: list[str] = []
    position = 0
    while position < len(fragment):
        for (kind, _, pattern), recogniser in zip(slots, recognisers):
            found = recogniser.match(fragment, position)
            if found and found.end() > position:
                if text:
                    pieces.append(("text", "".join(text)))
                    text.clear()
                pieces.append((kind, pattern))
                position = found.end()
                break
        else:
            text.append(fragment[position])
            position += 1
    if text:
        pieces.append(("text", "".join(text)))
    return pieces


def compile_template(entry: str, fragment: str, own_names: Sequence[str] = (),
                     second_line: str | None = None) -> Template:
    """The template of one row. Its leading exception name is dropped (a reader may paste the
    message alone), and so is a `…` at either end (with the punctuation next to it). A second
    line that is a message of its own must follow the first (`WeightsUnpickler error: …` tells
    an unsafe global from a file that is no checkpoint at all); one that is traceback furniture
    (`Original Traceback (most recent call last):`) is not required, as pasting drops it."""
    _, message = split_exception(fragment)
    pieces = _pieces(message, own_names)
    if second_line and strip_traceback_noise(second_line) == second_line:
        pieces += [("any", ".*?")] + _pieces(split_exception(second_line)[1], own_names)
    while pieces and pieces[0][0] == "any":
        pieces.pop(0)
    while pieces and pieces[-1][0] == "any":
        pieces.pop()
        if pieces and pieces[-1][0] == "text":  # `"_orig_mod.fc1.weight", …`: the comma goes too
            trimmed = pieces[-1][1].rstrip(_SEPARATORS)
            if trimmed:
                pieces[-1] = ("text", trimmed)
            else:
                pieces.pop()
    parts: list[str] = []
    fixed_pieces: list[str] = []
    for kind, value in pieces:
        if kind != "text":
            parts.append(value)
            continue
        folded = _fold_between_slots(value)
        fixed_pieces.append(folded)
        parts.append(_escape(folded))
    if parts and fixed_pieces:  # no space to require before the first word or after the last
        if pieces[0][0] == "text":
            parts[0] = parts[0].lstrip(" ")
        if pieces[-1][0] == "text":
            parts[-1] = parts[-1].rstrip(" ")
    anchor = max((piece.strip() for piece in fixed_pieces), key=len, default="")
    return Template(entry, "".join(parts), anchor, sum(len(piece.strip()) for piece in fixed_pieces))


def _fold_between_slots(text: str) -> str:
    """Fold a fixed piece, keeping one space at an end that had whitespace (`of ` + slot)."""
    folded = fold(text)
    if not folded:
        return " " if text else ""
    if text[0].isspace():
        folded = " " + folded
    if text[-1].isspace():
        folded += " "
    return folded


# ── Deciding ───────────────────────────────────────────────────────────────────────────────────

@dataclass(frozen=True)
class Fit:
    entry: str
    message: int  # which of the query's error messages the match starts in (message_starts)
    fixed: int
    end: int  # where the match ends in the folded query

    @property
    def rank(self) -> tuple[int, int, int]:
        return (self.message, self.fixed, self.end)


# Where each error message of a (folded) pasted text starts: `runtimeerror: `, `keyerror: `,
# `userwarning: ` (not `hint: `, which goes on the message before it).
MESSAGE_START = re.compile("(?:^| )(?:[a-z_][a-z0-9_]*\\.)*[a-z_][a-z0-9_]*(?:error|exception|warning): ")


def message_starts(folded_query: str) -> list[int]:
    return [found.start() for found in MESSAGE_START.finditer(folded_query)]


@functools.lru_cache(maxsize=None)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def best_fit(templates: Iterable[Template], folded_query: str) -> Fit | None:
    """The template that explains the query best. When several fit, the one in the last error
    message wins, since Python prints the error that matters last (a DataLoader worker's
    envelope comes before the real error); within one message the most specific wins (the
    message itself over the `Hint:` that follows it, `a view of a leaf Variable…` over
    `a leaf Variable…`), then the one ending last. Ties keep page order."""
    best: Fit | None = None
    starts = None
    for template in templates:
        if template.anchor not in folded_query:
            continue
        found = _regex(template.pattern).search(folded_query)
        if found is None:
            continue
        if starts is None:
            starts = message_starts(folded_query)
        message = sum(1 for start in starts if start <= found.start())
        fit = Fit(template.entry, message, template.fixed, found.end())
        if best is None or fit.rank > best.rank:
            best = fit
    return best


def literal_needles(query: str) -> list[str]:
    """What the literal search looks for, in order: the folded query, then its message when it
    starts with an exception's name. (Empty when there is nothing to look for.)"""
    whole = fold(query)
    if not whole:
        return []
    prefix, message = split_exception(query)
    if not prefix or not has_substance(message):
        return [whole]
    message = fold(message)
    return [whole, message] if message != whole else [whole]


def verdict_for(*, literal: bool, explains: bool = True, fit: Fit | None = None, ranked: Sequence = ()) -> str:
    """The order every lookup follows; each argument is what one step found. `explains`: the
    literal hits are not all in rows that say the page leaves this out (九, not-covered): text
    found only there is on the page, but nothing on the page explains it, so `weak`."""
    if literal:
        return LITERAL if explains else WEAK
    if fit is not None:
        return MATCH
    return WEAK if ranked else NONE
