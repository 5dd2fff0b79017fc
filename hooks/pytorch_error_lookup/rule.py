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
(literal characters, `[…]` classes over ASCII, `*`, `+`, `?`, `(?:…)`, `(?!…)`; no `\\w`, `\\d`
or `\\s`, whose meaning differs), applied to folded text. The browser receives them as compiled here
(`find-verdict.js` applies them in the same order); `tests/fixtures/lookup_cases.yml` holds the
labelled cases both sides are tested against.

Standard library only: the command-line lookup imports this without MkDocs or Jinja.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from collections import namedtuple

from .textfold import INVISIBLE_CLASS, QUOTES, ascii_or, strip_traceback_noise

LITERAL, MATCH, WEAK, NONE = "literal", "match", "weak", "none"
VERDICTS = (LITERAL, MATCH, WEAK, NONE)

# ── Folding: the mirror of foldQuery in find-fold.js ─────────────────────────────────────────

# Compiled when a text first has a character past ASCII (`re` keeps them), not at every
# command's start.
_INVISIBLE = f"^[{INVISIBLE_CLASS}]$"
# What JavaScript's \s matches (Python's str.isspace differs on a few control characters).
_JS_SPACE = "^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$"


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    code = ord(char)
    if code < 128:
        if code == 32 or 9 <= code <= 13:
            return " "
        return char.lower()
    if re.match(_INVISIBLE, char):
        return ""
    if re.match(_JS_SPACE, char):
        return " "
    return "".join(" " if re.match(_JS_SPACE, part) else QUOTES.get(part, part)
                   for part in unicodedata.normalize("NFKC", char).lower())


class _FoldTable(dict):
    """str.translate's table for _fold_char, filled in as characters are first seen."""

    def __missing__(self, code: int) -> str:
        self[code] = folded = _fold_char(chr(code))
        return folded


_FOLD_TABLE = _FoldTable()
_SPACES = re.compile(" {2,}")


def fold(text: str) -> str:
    """Text as the literal search compares it: lower case, NFKC (`…` is `...`), straight quotes,
    each run of whitespace one space, invisible characters gone, no space at either end.
    (Character by character as _fold_char says, through one translation table: a 5 MB log
    folds in a blink.)"""
    return _SPACES.sub(" ", text.translate(_FOLD_TABLE)).strip(" ")


# ── The exception's name, set aside ─────────────────────────────────────────────────────────

# `RuntimeError: `, `torch._dynamo.exc.UserError: `, `GuardOnDataDependentSymNode: `, and a
# warning as Python prints it: `/path/x.py:4: UserWarning: `. The last part of the name starts
# with a capital; the message after it is what the page quotes.
# (The page's box reads this pattern and MESSAGE_START from its form: one source, two engines.)
EXCEPTION_PREFIX = re.compile(r"^[ \t]*(?:[^ \t\r\n]+\.py:[0-9]+: )?(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*: ")
# A message set aside from its exception's name counts only with two words in it: `KeyError: 0`
# or `ValueError: nan` is on the page by accident, not because the page explains it.
WORD = "[A-Za-z]{2,}|[\u4e00-\u9fff]{2,}"
MESSAGE_WORDS = 2
_ASCII_WORD = re.compile("[A-Za-z]{2,}")  # WORD for a text with no CJK in it (textfold.ascii_or)


def split_exception(line: str) -> tuple[str, str]:
    """(`RuntimeError: `, message) for a pasted last line; ("", line) when it names none."""
    found = EXCEPTION_PREFIX.match(line)
    return (found.group(), line[found.end():]) if found else ("", line)


def has_a_word(text: str) -> bool:
    """Whether the text holds a word at all (`a`, `.` or `0` is found all over a page): two
    Latin letters, or any letter past ASCII (`慢`, kana, hangul)."""
    return _ASCII_WORD.search(text) is not None or (not text.isascii() and re.search(r"[^\x00-\x7f\W\d_]", text) is not None)


def has_substance(message: str) -> bool:
    return next(itertools.islice(ascii_or(_ASCII_WORD, WORD, message).finditer(message), MESSAGE_WORDS - 1, None), None) is not None


# ── Templates ─────────────────────────────────────────────────────────────────────────────────

SHORT_QUERY = 600  # what a description of a symptom may run to, folded (Template.max_query)
# Anything, up to a bound: `…` in a fragment stands for a few words, never for half of a 5 MB
# log (an unbounded gap costs a scan to the end of the paste at every place its first part occurs).
ANY = ".{0,1000}?"
NAME = "[a-z0-9_.]+"  # a reader's own name, folded: `head`, `mylab.towers.tower`, `tanh`
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
# A quoted class name of the reader's own (`'Linear' object has no attribute`) is never one of
# Python's or torch's own types: `'NoneType' object has no attribute 'zero_'` is another story.
_BUILT_IN_TYPES = ("nonetype", "str", "int", "float", "bool", "list", "dict", "tuple", "set", "bytes",
                   "object", "type", "function", "method", "builtin_function_or_method", "module",
                   "generator", "tensor", "parameter", "ndarray", "numpy.ndarray",
                   "namespace",  # argparse's: `args.lr` that was never added
                   # torch's wrappers: their missing attribute is the wrapped model's (`.module`)
                   "dataparallel", "distributeddataparallel", "optimizedmodule")
# Nor a private one (`'_idat' object has no attribute 'fileno'` is inside a library).
_NOT_BUILT_IN = f"(?!(?:{'|'.join(re.escape(name) for name in _BUILT_IN_TYPES)})')(?!_)"
# A name of the reader's own that is not a class (an attribute, a parameter): `'module'` there is
# no type but the attribute a DataParallel / DDP wrapper adds (`model.module`), which readers miss.
_NOT_BUILT_IN_NAME = f"(?!(?:{'|'.join(re.escape(name) for name in _BUILT_IN_TYPES if name != 'module')})')(?!_)"
QUOTED_NAME = f"'{_NOT_BUILT_IN_NAME}[a-z0-9_.]+'"
# A class of the reader's own, as Python names it in `'Linear' object has no attribute`: a class
# written in Python prints its bare name; a dotted one is a C type (`'collections.OrderedDict'`,
# `'torch.Size'`: a state_dict or a size, never the reader's module).
QUOTED_CLASS = f"'{_NOT_BUILT_IN}[a-z0-9_]+'"
_CLASS_NAME = re.compile("[A-Z][A-Za-z0-9_]*")
# Slots, tried in this order at each position of a fragment. (kind, recogniser in the fragment,
# pattern in the template).
_SLOTS: tuple[tuple[str, str, str], ...] = (
    ("any", r"…", ANY),
    # Where in torch's C++ sources an old release raised it (` at /pytorch/aten/src/TH/…cpp:940`):
    # another build, another path; a paste often ends before it.
    ("any", r" at (?:[A-Za-z]:)?[/\\][^ ]*:[0-9]+", ANY),
    ("class", r"<class '[^']*'>", "<class '[^']*'>"),
    ("path", r"'[^'\s]*\.py'", "'[^']*'"),  # a script of the reader's: `from 'train.py'`
    ("name", r"(?<=state_dict for )[A-Za-z_][A-Za-z0-9_.]*(?=:)", NAME),  # the reader's model class
    ("shape", r"\[[0-9]+(?: x [0-9]+)+\]", r"\[[0-9]+(?: x [0-9]+)*\]"),  # torch 1.x: `[32 x 512]`
    # torch.Size([1, 64]); torch 1.x printed a size as a bare list: `got input size [1, 64]`.
    ("shape", r"torch\.Size\(\[[0-9, ]*\]\)", r"(?:torch\.size\(\[[0-9, ]*\]\)|\[[0-9, ]*\])"),
    ("shape", r"\[[0-9]+(?:, [0-9]+)*\]", r"\[[0-9, -]*\]"),
    ("shape", r"(?<![A-Za-z0-9_.])[0-9]+(?:x[0-9]+)+(?![A-Za-z0-9_])", "[0-9]+(?:x[0-9]+)+"),
    # Python 2 printed a quoted placeholder bare: `No module named models`.
    ("name", r"'(?:xxx|Xxx)'", f"'?{NAME}'?"),
    ("name", r"(?<![A-Za-z])(?:xxx|Xxx)", NAME),
    # `"1.weight", "1.bias"`: a list of keys, as long as the reader's model makes it, or shortened
    # by the reader (`, ...`, `,........`; fold() writes `…` as `...`: the last dot is then the
    # full stop after the list). (Not one cut inside a key at the paste's end: what followed,
    # `Unexpected key(s)` that tell another situation, is lost with it.)
    ("names", r'"[^"\s]+"(?:, "[^"\s]+")+', '"[^"]*"(?:, "[^"]*")*(?:, ?\\.+(?=\\.))?'),
    # (Not an argument's place in torch's own signature: `for argument #2 'mat1'` is its wording;
    # nor the dimension one of torch's own size checks names, `to have size 360 at dimension 1,
    # but got size 264`, where bmm's dimension 0 is the batch and 1 the inner size.)
    ("number", r"(?<![A-Za-z0-9_.])(?<!argument #)(?<!at dimension )-?[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_]|\.[A-Za-z0-9_])", NUMBER),
    # `0.weight`, `encoder.layer3.attn.qkv.weight`: a parameter's path. Not an API (`torch.…`)
    # and not a call (`tensor.detach()`), whose words are the message's own. Quoted or not, as
    # releases printed it (torch 0.3 `named fc.weight`, 0.4 `named "fc.weight"`).
    ("dotted", r"""(?<![A-Za-z0-9_.])(["']?)(?!torch\.)[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+\1(?![A-Za-z0-9_(])""",
     f"[\"']?{NAME}[\"']?"),
)
_REGEX_SYNTAX = re.compile(r"([\\^$.*+?()\[\]{}|/])")
_SEPARATORS = " ,;:."


class Template(namedtuple("Template", "entry pattern anchor fixed partial needles not_with max_query needs_call said_by "
                                      "sizes_differ frame", defaults=(False, (), (), None, False, None, False, None))):
    """A row's fragment as a pattern. `anchor` is its longest fixed piece (a cheap first test);
    `fixed` counts its fixed characters (the more, the more specific); `partial`: a head or tail
    of the row's template (compile_templates). `needles`: its other fixed pieces (besides
    `anchor`): a query lacking one is not tried, so that a gap is never scanned for a piece the
    paste does not hold. `not_with`: folded texts that, in the message the match is in or after
    it, show another situation (`a tensor with 0 elements`, `unexpected key(s)` after missing
    ones): then it does not fit (checked apart from the pattern, once per match: a lookahead
    would scan to the end of the paste at every position it is tried). `max_query`: tried only
    on a query of at most this many folded characters (a symptom described in words is a
    sentence or two, not a log). `needs_call`: a wording another situation prints too (a near
    miss's), the row's only when the paste shows a call its mistake is made through (the row's
    `called_through`: `F.linear`, `torch.matmul`). `said_by`: for a wording other than the row's
    own text, who printed it (`torch 1.0.1–1.7.1`), so that a reader is told why the row reads
    otherwise. `sizes_differ`: the shapes the matched message names must differ in their sizes
    somewhere, not only in their order (a transposed weight is another story: only_reordered).
    `frame`: the name of a function only the row's situation runs through (compile_frame)."""

    __slots__ = ()

    def as_json(self) -> dict:
        raw = {"entry": self.entry, "pattern": self.pattern, "anchor": self.anchor, "fixed": self.fixed}
        if self.needles:
            raw["needles"] = list(self.needles)
        if self.partial:
            raw["partial"] = True
        if self.not_with:
            raw["not_with"] = list(self.not_with)
        if self.max_query is not None:
            raw["max_query"] = self.max_query
        if self.needs_call:
            raw["needs_call"] = True
        if self.said_by:
            raw["said_by"] = self.said_by
        if self.sizes_differ:
            raw["sizes_differ"] = True
        if self.frame:
            raw["frame"] = self.frame
        return raw


def _escape(text: str) -> str:
    # Only the characters that are syntax in both languages, so that an escape never depends on
    # an engine's leniency (an escaped space or hyphen is an error in JavaScript's `u` mode).
    return _REGEX_SYNTAX.sub(r"\\\1", text)


def _key_list(prefixes: Sequence[str]) -> tuple[str, str, str]:
    """A slot for a list of quoted keys that all start with one of `prefixes`, and no other key
    after them: `"module.fc.weight", "module.fc.bias"` but not `"epoch", "state_dict"`. Nor a
    list of BatchNorm's `num_batches_tracked` buffers alone: a wrapper's prefix is on every key,
    and a checkpoint from torch 0.4.1 or later read by 0.4.0 has only those unexpected."""
    starts = "|".join(_escape(fold(prefix)) for prefix in prefixes)
    key = f'"(?:{starts})[^"]*"'
    # A paste cut inside its last key (`…", "mo`, a stored excerpt's end): that key, as far as
    # it goes, carries the prefix or begins it; nothing may follow it.
    begun = "|".join(dict.fromkeys(_escape(fold(prefix[:length])) for prefix in prefixes for length in range(len(prefix))))
    cut = f'"(?:(?:{starts})[^"]*|{begun})$'
    not_buffers_only = '(?=(?:"[^"]*", )*?"[^"]*(?<!num_batches_tracked)")'
    return ("keys", f'"(?:{"|".join(re.escape(prefix) for prefix in prefixes)})[^"]*"',
            f'{not_buffers_only}{key}(?:, {key})*(?:, {cut})?(?!, ")')


# A bracketed list of numbers (`[10, 360]`), taken number by number where repeats are tied.
# (Patterns the lookup needs only now and then are strings, compiled by `re` on first use: a
# pattern compiled at import is paid for by every command's start.)
_NUMBER_LIST = r"\[-?[0-9]+(?:, -?[0-9]+)+\]"
_LISTED_NUMBER = r"-?[0-9]+"
_TIED = "\x00([^\x00]*)\x00"  # a tied number's place in a part, before numbering


def _tied_list(listed: str, repeated: set[str]) -> list[tuple[str, str]]:
    """Pieces of `[10, 360]`: each number a slot, the ones the message repeats tied by value."""
    pieces: list[tuple[str, str]] = [("text", "[")]
    for position, number in enumerate(re.findall(_LISTED_NUMBER, listed)):
        if position:
            pieces.append(("text", ", "))
        pieces.append(("tie", f"\x00{number}\x00") if number in repeated else ("number", NUMBER))
    return pieces + [("text", "]")]


def _pieces(fragment: str, own_names: Sequence[str], key_prefixes: Sequence[str] = (),
            tie_repeats: bool = False) -> list[tuple[str, str]]:
    """The fragment cut into ("text", folded text) and (kind, pattern) pieces. With
    `tie_repeats`, the numbers of its bracketed lists are slots of their own, and a number
    repeated among them must be the same number again in the paste (`[10, 360] but got:
    [10, 264]`: the same batch, another inner size)."""
    slots = ([_key_list(key_prefixes)] if key_prefixes else []) + list(_SLOTS)
    repeated: set[str] = set()
    if tie_repeats:
        listed = [number for found in re.findall(_NUMBER_LIST, fragment) for number in re.findall(_LISTED_NUMBER, found)]
        repeated = {number for number in listed if listed.count(number) > 1}
        slots.insert(0, ("tied", _NUMBER_LIST, ""))
    for name in own_names:
        slots.append(("name", f"'{re.escape(name)}'", QUOTED_CLASS if _CLASS_NAME.fullmatch(name) else QUOTED_NAME))
        slots.append(("name", rf"(?<![A-Za-z0-9_.]){re.escape(name)}(?![A-Za-z0-9_])", NAME))
    recognisers = [re.compile(recogniser) for _, recogniser, _ in slots]
    pieces: list[tuple[str, str]] = []
    text: list[str] = []
    position = 0
    while position < len(fragment):
        for (kind, _, pattern), recogniser in zip(slots, recognisers):
            found = recogniser.match(fragment, position)
            if found and found.end() > position:
                for piece_kind, value in _tied_list(found.group(), repeated) if kind == "tied" else [(kind, pattern)]:
                    if piece_kind == "text":  # (one piece with the text before it: `got: [`)
                        text.append(value)
                        continue
                    if text:
                        pieces.append(("text", "".join(text)))
                        text.clear()
                    pieces.append((piece_kind, value))
                position = found.end()
                break
        else:
            text.append(fragment[position])
            position += 1
    if text:
        pieces.append(("text", "".join(text)))
    return pieces


def compile_template(entry: str, fragment: str, own_names: Sequence[str] = (),
                     second_line: str | None = None, *, key_prefixes: Sequence[str] = (),
                     not_with: Sequence[str] = (), sizes_differ: bool = False, tie_repeats: bool = False) -> Template:
    """The template of one row. Its leading exception name is dropped (a reader may paste the
    message alone; so is a nested one, `InvalidCxxCompiler: ` after `InductorError: `), and so
    is a `…` at either end (with the punctuation next to it) and a full stop at the end. A
    second line that is a message of its own must follow the first (`WeightsUnpickler error: …`
    tells an unsafe global from a file that is no checkpoint at all); one that is traceback
    furniture (`Original Traceback (most recent call last):`) is not required, as pasting drops
    it. Backticks are no part of a template: a paste loses them to Markdown (paste.py).

    Rows defined by a structure say so in their data: with `key_prefixes`, the row's quoted key
    must be a whole list of keys that all start with one of them; with `not_with`, none of those
    texts may be in the matched message or follow it (a list of missing keys followed by
    unexpected ones is another story, and so is a tensor with 0 elements); with `sizes_differ`,
    the message's shapes must not all be the same sizes reordered (only_reordered). With
    `tie_repeats`, a number its bracketed lists repeat must repeat in the paste (_pieces)."""
    return _assemble(entry, _template_pieces(fragment, own_names, second_line, key_prefixes, tie_repeats), not_with,
                     sizes_differ=sizes_differ)


def compile_description(entry: str, said: str) -> Template:
    """A symptom's description in the reader's words (`验证集…精度…比训练…差`): its words in
    order, `…` for anything between, tried on a short query only."""
    return _assemble(entry, _template_pieces(said, (), None, ()), (), short=True)


def compile_frame(entry: str, function: str) -> Template:
    """A function only the row's situation runs through (`_fixup_main_from_path`: a spawned
    child running the main module again), as a whole name: it fits the frames of a traceback
    cut before its message (paste.shown_frames), or a log that ran them into one line."""
    name = fold(function)
    return Template(entry, _escape(name) + "(?![a-z0-9_])", name, len(name), frame=function)


def compile_paragraph(entry: str, paragraph: str, own_names: Sequence[str] = ()) -> Template | None:
    """A paragraph of a message printed over several (Python's own `This probably means that you
    are not using fork to start your child processes…` under the row's bootstrapping line): a
    partial template, as a head or a tail is, when it holds as much as one of them must."""
    # (Its colon before what follows, `in the main module:`, is not the reader's to copy.)
    pieces = _template_pieces(paragraph.rstrip(" :"), own_names, None, ())
    return _assemble(entry, pieces, (), partial=True) if _holds_enough(pieces) else None


def _holds_enough(pieces: list[tuple[str, str]]) -> bool:
    """Whether a part of a message holds as much fixed text as a partial template must."""
    text = " ".join(value for kind, value in pieces if kind == "text")
    return len(text.strip()) >= PARTIAL_CHARS and _fixed_words(text) >= PARTIAL_WORDS


def compile_templates(entry: str, fragment: str, own_names: Sequence[str] = (),
                      second_line: str | None = None, *, key_prefixes: Sequence[str] = (),
                      not_with: Sequence[str] = (), sizes_differ: bool = False) -> list[Template]:
    """The row's template (compile_template), then its head and its tail where the template is
    longer than either: a partial paste (only the first line of a message, only its end, a
    message quoted in a sentence and cut) fits those. A partial template counts only when it
    is the only row's to fit (best_fit). A row whose second line tells it apart from another
    situation (`WeightsUnpickler error: Unsupported global`) has one partial template, that
    line's: pasted alone, it still tells the row apart."""
    pieces = _template_pieces(fragment, own_names, second_line, key_prefixes)
    whole = _assemble(entry, pieces, not_with, sizes_differ=sizes_differ)
    templates = [whole]
    if second_line:
        own = _template_pieces(second_line, own_names, None, ()) if _is_message(second_line) else []
        parts = [own] if own and _holds_enough(own) else []
    else:
        parts = [_head(pieces), _tail(pieces)]
    for part in parts:
        if part:
            template = _assemble(entry, part, not_with, partial=True, sizes_differ=sizes_differ)
            if template.fixed < whole.fixed and template.pattern not in {t.pattern for t in templates}:
                templates.append(template)
    return templates


def _is_message(second_line: str) -> bool:
    """Whether a row's second line is a message of its own, not traceback furniture
    (`Original Traceback (most recent call last):`, which pasting drops)."""
    return strip_traceback_noise(second_line) == second_line


# A partial template keeps at least this many fixed characters, and this many words.
PARTIAL_CHARS = 40
PARTIAL_WORDS = 6
# Nested exception names are CamelCase with at least two capitals (`InvalidCxxCompiler: `), so
# that a message's own first word (`Compiler: cl is not found`) stays.
_NESTED_EXCEPTION = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][a-z0-9_]+[A-Z][A-Za-z0-9_]*: ")


def _template_pieces(fragment: str, own_names: Sequence[str], second_line: str | None,
                     key_prefixes: Sequence[str], tie_repeats: bool = False) -> list[tuple[str, str]]:
    name, message = split_exception(fragment.replace("`", ""))
    if name.rstrip().endswith("KeyError:") and len(message) > 2 and message[0] == message[-1] and message[0] in "'\"":
        # A KeyError prints its message as a repr (`KeyError: 'unexpected key "module.fc.weight"
        # in state_dict'`); a reader who quotes the message alone quotes it their own way.
        message = message[1:-1]
    while (nested := _NESTED_EXCEPTION.match(message)) and has_substance(message[nested.end():]):
        message = message[nested.end():]
    pieces = _pieces(message, own_names, key_prefixes, tie_repeats)
    if second_line and _is_message(second_line):
        pieces += [("any", ANY)] + _pieces(split_exception(second_line.replace("`", ""))[1], own_names)
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
    if pieces and pieces[-1][0] == "text":
        # A message quoted in a sentence loses its full stop: `… in an in-place operation`,
        # `… worker process 0` (`"(KeyError: 0)`). A lone full stop after a list of keys stays:
        # a list cut short does not show whether unexpected keys follow, which `not_with` must see.
        trimmed = pieces[-1][1].rstrip(".")
        if trimmed.strip():
            pieces[-1] = ("text", trimmed)
        elif len(pieces) > 1 and pieces[-2][0] not in ("keys", "names"):
            pieces.pop()
    return pieces


def _fixed_words(text: str) -> int:
    return len(ascii_or(_ASCII_WORD, WORD, text).findall(text))


def _head(pieces: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """The template's first pieces, cut at a word end once PARTIAL_CHARS fixed characters and
    PARTIAL_WORDS words are in; None if that takes the whole template."""
    head, chars, words = [], 0, 0
    for index, (kind, value) in enumerate(pieces):
        if kind != "text":
            head.append((kind, value))
            continue
        for cut in re.finditer(r"[A-Za-z0-9_)\]'\"]+(?=[ ,;:.]|$)", value):
            if chars + len(value[:cut.end()].strip()) >= PARTIAL_CHARS and words + _fixed_words(value[:cut.end()]) >= PARTIAL_WORDS:
                if index == len(pieces) - 1 and not value[cut.end():].strip(" .,;:"):
                    return None
                return head + [("text", value[:cut.end()])]
        head.append((kind, value))
        chars += len(value.strip())
        words += _fixed_words(value)
    return None


def _tail(pieces: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
    """The template's last pieces, from a word start, holding PARTIAL_CHARS fixed characters and
    PARTIAL_WORDS words; None if that takes the whole template."""
    tail, chars, words = [], 0, 0
    for index in range(len(pieces) - 1, -1, -1):
        kind, value = pieces[index]
        if kind != "text":
            tail.insert(0, (kind, value))
            continue
        starts = [found.start() for found in re.finditer(r"(?<![A-Za-z0-9_])[A-Za-z]", value)]
        for start in reversed(starts):
            piece = value[start:]
            if chars + len(piece.strip()) >= PARTIAL_CHARS and words + _fixed_words(piece) >= PARTIAL_WORDS:
                if index == 0 and not value[:start].strip():
                    return None
                return [("text", piece)] + tail
        tail.insert(0, (kind, value))
        chars += len(value.strip())
        words += _fixed_words(value)
    return None


def _assemble(entry: str, pieces: list[tuple[str, str]], not_with: Sequence[str],
              partial: bool = False, short: bool = False, sizes_differ: bool = False) -> Template:
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
    # A gap takes the first place its next piece fits and never gives it back (an atomic group,
    # written as a lookahead and its backreference, which both engines read alike): two gaps
    # in a row would otherwise try every pair of places, to the end of the paste.
    # Groups are numbered as they open: an atomic group's, then a tied number's first place (its
    # other places refer back to it).
    atomic, groups, tied, index = [], 0, {}, 0

    def numbered(part: str) -> str:
        def place(found: re.Match) -> str:
            nonlocal groups
            if found.group(1) in tied:
                return f"\\{tied[found.group(1)]}"
            groups += 1
            tied[found.group(1)] = groups
            return f"({NUMBER})"
        return re.sub(_TIED, place, part)

    while index < len(parts):
        if pieces[index][0] == "any" and index + 1 < len(parts):
            groups += 1
            group = groups
            atomic.append(f"(?=({numbered(parts[index] + parts[index + 1])}))\\{group}")
            index += 2
        else:
            atomic.append(numbered(parts[index]))
            index += 1
    if not short and pieces and pieces[-1][0] == "text" and re.search(r"[a-z0-9_]$", parts[-1]):
        # A message's last word ends there: `in call to _th_addmm` is not `… _th_addmm_` (a
        # convolution's). (A description may end on a word's stem: `duplicat`.)
        atomic.append("(?![a-z0-9_])")
    parts = atomic
    anchor = max((piece.strip() for piece in fixed_pieces), key=len, default="")
    needles = tuple(dict.fromkeys(piece.strip() for piece in fixed_pieces if len(piece.strip()) > 2 and piece.strip() != anchor))
    return Template(entry, "".join(parts), anchor, sum(len(piece.strip()) for piece in fixed_pieces), partial,
                    needles, tuple(fold(text) for text in not_with), SHORT_QUERY if short else None,
                    sizes_differ=sizes_differ)


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

class Fit(namedtuple("Fit", "entry message fixed end said_by described frame", defaults=(None, False, None))):
    """A template that fits: its row, which of the query's error messages the match starts in
    (message_starts), its fixed characters, and where the match ends in the folded query; who
    printed the wording that fits (Template.said_by), whether it is a symptom's description
    in the reader's words (a template with `max_query`), and the function of a frame that
    fits (Template.frame)."""

    __slots__ = ()

    @property
    def rank(self) -> tuple[int, int, int]:
        return (self.message, self.fixed, self.end)


# Where each error message of a (folded) pasted text starts: `runtimeerror: `, `keyerror: `,
# `userwarning: ` (not `hint: `, which goes on the message before it).
MESSAGE_START = re.compile("(?:^| )(?:[a-z_][a-z0-9_]*\\.)*[a-z_][a-z0-9_]*(?:error|exception|warning): ")


def message_starts(folded_query: str) -> list[int]:
    return [found.start() for found in MESSAGE_START.finditer(folded_query)]


def message_text_starts(folded_query: str) -> list[int]:
    """Where each message's own words begin, its exception's name (`runtimeerror: `) passed."""
    return [found.end() for found in MESSAGE_START.finditer(folded_query)]


@functools.lru_cache(maxsize=None)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


LONG_QUERY = 20_000  # folded characters
_LETTERS = "[a-z]+"


@functools.lru_cache(maxsize=None)
def _inner_words(anchor: str) -> frozenset[str]:
    """The words of a fixed piece that are whole in it (not at either end, where the query may
    run them on: `fc` of `'fc3' object`): wherever the piece is, each is a whole word there too."""
    return frozenset(found.group() for found in re.finditer(_LETTERS, anchor)
                     if found.start() > 0 and found.end() < len(anchor))


def best_fit(templates: Iterable[Template], folded_query: str, skip: frozenset[str] | set[str] = frozenset(),
             called: frozenset[str] | set[str] = frozenset(), reordered: set[str] | None = None,
             passed_over: set[str] | None = None, uncalled: set[str] | None = None) -> Fit | None:
    """The template that explains the query best. When several fit, the one in the last error
    message wins, since Python prints the error that matters last (a DataLoader worker's
    envelope comes before the real error); within one message the most specific wins (the
    message itself over the `Hint:` that follows it, `a view of a leaf Variable…` over
    `a leaf Variable…`), then the one ending last. Ties keep page order. A partial template (a
    head or tail) counts only when no whole one fits and it is the only row's to fit. The rows
    in `skip` are not tried (a pasted traceback that never passes through their context); a
    template that needs a call counts only for the rows in `called` (the paste shows one of their
    calls). `reordered`, if given, is told the rows passed over because the message their
    template fits holds its sizes only reordered (a suggestion of them says why); `passed_over`,
    if given, the rows in `skip` whose templates fit all the same (the closest rows there are:
    they are suggested first, saying why); `uncalled`, if given, the rows whose template that
    needs a call fits all the same (suggested first too: the words may well be theirs)."""
    best: Fit | None = None
    partial: dict[str, Fit] = {}  # the best partial fit of each row
    starts = None
    # In a long query, a template whose anchor holds a word the query never has is passed over
    # without scanning the query for the anchor (a scan per template is most of a megabyte's wait).
    words = set(re.findall(_LETTERS, folded_query)) if len(folded_query) > LONG_QUERY else None
    for template in templates:
        ruled_out = template.entry in skip
        if ruled_out and (passed_over is None or template.entry in passed_over):
            continue
        no_call = template.needs_call and template.entry not in called  # a near miss prints the words too
        if no_call and uncalled is None:
            continue
        if words is not None and not words.issuperset(_inner_words(template.anchor)):
            continue
        if template.anchor not in folded_query or any(needle not in folded_query for needle in template.needles):
            continue
        if template.max_query is not None and len(folded_query) > template.max_query:
            continue
        found = _regex(template.pattern).search(folded_query)
        if found is None:
            continue
        if starts is None:
            starts = message_starts(folded_query)
        message = sum(1 for start in starts if start <= found.start())
        # `not_with`: from the start of the message the match is in (a partial match may begin
        # after the words that tell the situation apart).
        since = starts[message - 1] if message else 0
        if any(folded_query.find(text, since) >= 0 for text in template.not_with):
            continue
        if template.sizes_differ and only_reordered(folded_query[since:_message_end(folded_query, starts, found.start())]):
            if reordered is not None:
                reordered.add(template.entry)
            continue
        if ruled_out:
            passed_over.add(template.entry)
            continue
        if no_call:
            uncalled.add(template.entry)
            continue
        fit = Fit(template.entry, message, template.fixed, found.end(), template.said_by, template.max_query is not None,
                  template.frame)
        if template.partial:
            if template.entry not in partial or fit.rank > partial[template.entry].rank:
                partial[template.entry] = fit
        elif best is None or fit.rank > best.rank:
            best = fit
    if best is None and len(partial) == 1:
        return next(iter(partial.values()))
    return best


def _message_end(folded_query: str, starts: list[int], at: int) -> int:
    """Where the message the place `at` is in ends: a head or a tail of it holds one shape or none."""
    return next((start for start in starts if start > at), len(folded_query))


_SIZES = r"\[([0-9, ]*)\]"  # a shape, `[]` (a scalar's) included


def only_reordered(message: str) -> bool:
    """Whether every mismatch of a message (its shapes taken two by two: the checkpoint's, the
    model's) holds the same sizes in another order (`[3, 3, 3, 128, 128]` against `[128, 3, 3,
    3, 128]`: a weight's layout changed, nothing grew). One mismatch whose sizes changed is the
    row's, whatever the others are. (find-verdict.js onlyReordered reads it the same way.)"""
    shapes = [re.findall("[0-9]+", found.group(1)) for found in re.finditer(_SIZES, message)]
    pairs = list(zip(shapes[0::2], shapes[1::2]))
    return bool(pairs) and all(ours != theirs and sorted(ours) == sorted(theirs) for ours, theirs in pairs)


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
