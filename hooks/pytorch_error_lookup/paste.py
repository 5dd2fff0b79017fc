"""What a reader pastes, reduced to the error messages in it: one normalisation for the page, the
terminal and the notebook.

A paste is whatever the reader had: a line or a whole traceback, damaged on its way by chat,
Markdown, logs or notebooks. `reduce_paste` reads through that damage and returns the paste's
errors, each as one line of text to look up:

1. a JSON string (a notebook's `"evalue"`, an escaped `\\"` and literal `\\n`) is unescaped; HTML
   entities are decoded; terminal colours go; of a paste longer than `tail_lines` lines only the
   last ones are read, as `tail` would (a log's error is at its end);
2. each line loses what was put before it (`prefixes`: Markdown quote markers, pytest's `E   `,
   log timestamps and levels, `[rank0]:`), and lines that are never part of a message go
   (`drop_lines`: code fences, progress bars, `Process finished with exit code 1`, IPython's
   frame headers and numbered code lines);
3. what is left is cut into independent errors: one per rank when ranks interleave, and one per
   traceback that does not continue the one before (`During handling of the above exception…`
   and a DataLoader worker's `Original Traceback` continue it); lines before a traceback that
   hold no message at all (a training log) go;
4. traceback frames, their code and carets go (pytorch_error_lookup.textfold.strip_traceback_noise), and
   each error's lines are joined with spaces; when its lines were wrapped at a fixed width
   (every wrapped line as long as the longest), a second reading joins them without (`sha` /
   `pes`); each message quoted in it (`it says "leaf Variable that requires grad is being used
   in an in-place operation" when…`) is one more reading. A traceback cut before its message,
   whose last frame raised it with a string (`raise RuntimeError("…")`), reads as that message.

The patterns are data (`PASTE_RULES`): the page reads the very same ones from the page's rules
script (find-index/<page>.rules.js, read by `find-paste.js`), and tests/fixtures/paste_cases.yml
runs through both engines alike. They keep to the regular-expression subset both languages read
alike (see rule.py), and each starts where a word starts or a line does: searched from inside a
1 MB word, a pattern would go quadratic.

Standard library only.
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple

from .textfold import strip_traceback_noise

# A traceback's frame: Python's, its file in group 1 or 2 (also with its `File ` lost to a paste
# cut at the line's start, then with its `, in f`, which prose does not have; or cut after its
# line number), or IPython's frame of the cell itself (`Cell In[3], line 1`; before IPython 8,
# `<ipython-input-5-2b1c…> in <module>`).
_FRAME_LINE = (r"File \"([^\"\n]*)\", line [0-9]+|\"([^\"\n]*)\", line [0-9]+, in "
               r"|Cell In ?\[[0-9]*\], line [0-9]+|<ipython-input-")

PASTE_RULES: dict = {
    # A paste with no line break but literal `\n` in it is a JSON string (or a Python repr),
    # unless a backslash in it escapes nothing (`C:\\users\\new-builder` is a Windows path).
    "json_string": r"\\n",
    "not_json": r"(?<!\\)(?:\\\\)*\\[^nrtbfu\"\\/'x]",
    "json_escapes": {"\\n": "\n", "\\r": "", "\\t": "\t", '\\"': '"', "\\'": "'", "\\\\": "\\", "\\u001b": "\u001b",
                     "\\u001B": "\u001b", "\\x1b": "\u001b"},
    "json_escape": r"\\(?:u001[bB]|x1b|[nrt\"'\\])",
    "entities": {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x27;": "'", "&#34;": '"', "&nbsp;": " ",
                 "&amp;": "&"},
    "entity": r"&(?:lt|gt|quot|#39|#x27|#34|nbsp|amp);",
    "ansi": "\u001b\\[[0-9;]*[A-Za-z]",
    # A quote escaped as in a Python repr or a JSON string without line breaks (`No module named
    # \\'onnxscript\\'`): the quote, as the program printed it.
    "escaped_quote": r"(?<!\\)\\(['\"])",
    # Removed from the start of a line, again and again while one matches.
    "prefixes": [
        r"^[ \t]*>[ \t]?",  # Markdown quote
        # A code fence with text after it on its line (```2021-03-15 …); a fence line alone,
        # with its language or not, is dropped whole (drop_lines).
        r"^[ \t]*(?:```|~~~)(?![A-Za-z0-9_+.-]*[ \t]*$)",
        r"^E(?:[ \t]+|$)",  # pytest
        r"^\[(?:rank|RANK)? ?[0-9]+\]:[ \t]?",  # torchrun's [rank0]:
        r"^\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2})?(?:[.,][0-9]+)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?\]?[ \t]*",
        r"^\[?[0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]+)?\]?[ \t]+",  # a time of day
        # A logger's name with its level: Python's default format `WARNING:root:`, and torch's
        # `torch._dynamo.convert_frame: [WARNING] ` (one space: a frame's indent stays).
        r"^(?:ERROR|CRITICAL|WARNING|INFO|DEBUG):[A-Za-z_][A-Za-z0-9_.]*:",
        r"^[A-Za-z_][A-Za-z0-9_.]*: \[(?:ERROR|CRITICAL|WARNING|WARN|INFO|DEBUG)\] ?",
        r"^(?:[-|:][ \t]*)?\[?(?:ERROR|CRITICAL|WARNING|WARN|INFO|DEBUG)[ \t]*\]?[ \t]*(?:[-|:][ \t]*)?",  # a log level
    ],
    # Lines that are never part of an error message.
    "drop_lines": [
        r"^[ \t]*(?:```|~~~)[A-Za-z0-9_+.-]*[ \t]*$",  # a code fence line, with its language or not
        r"[0-9]+%\|",  # a tqdm bar
        r"(?:it/s|s/it)\]",
        r"^Process finished with exit code",
        r"^[ \t]*python-BaseException[ \t]*$",  # PyCharm's debugger, after the traceback
        r"^\[Finished in [0-9.]+s",  # Sublime Text's build output
        r"^[ \t]*-{20,}[ \t]*$",  # IPython's rule above a traceback
        r"^[A-Za-z_.]*(?:Error|Exception|Warning|Interrupt)[ \t]{2,}Traceback \(most recent call last\)",
        r"^[ \t]*<ipython-input-[^>]*> in ",  # IPython 7's frame header
        r"^[ \t]*(?:[A-Za-z]:)?[^ \t]*\.pyc? in [A-Za-z_<]",
        r"^[ \t]*File [^ \t\"]+:[0-9]+, in ",  # IPython 8's
        r"^[ \t]*Cell In ?\[[0-9]*\], line [0-9]+",
        r"^[ \t]*(?:-*>[ \t]*)?[0-9]+[ \t]",  # a numbered code line (dropped only in IPython pastes)
    ],
    # The numbered code lines of IPython's frames are dropped only when the paste has its arrow.
    "ipython_arrow": r"^[ \t]*-+>[ \t]*[0-9]+[ \t]",
    "numbered_line": r"^[ \t]*(?:-*>[ \t]*)?[0-9]+[ \t]",
    # Markdown's marks inside a message: `code` and **bold** (templates drop backticks too).
    "markup": r"\*\*|`",
    "rank": r"^[ \t]*>?[ \t]*\[(?:rank|RANK)? ?([0-9]+)\]:",
    # A traceback starts an error of its own unless a chain line or a worker's envelope led to it.
    "traceback": r"^[ \t]*Traceback \(most recent call last\):?[ \t]*$",
    # Where the traceback a paste ends with starts: the last `Traceback` line, a worker's
    # `Original Traceback` included (ends_unfinished).
    "traceback_start": r"^[ \t]*(?:Original )?Traceback \(most recent call last\):?[ \t]*$",
    "continues": r"(?:during handling of the above exception, another exception occurred:"
                 r"|the above exception was the direct cause of the following exception:"
                 r"|^[ \t]*original traceback"
                 # torch.multiprocessing.spawn's envelope: the error a spawned process raised follows.
                 r"|^[ \t]*-- process [0-9]+ terminated with the following error:)",
    # An error (not a warning: a warning before a traceback is part of that error's story).
    # (Each name starts where a word starts: a search from inside a 1 MB word would go quadratic.)
    # (A name ends where an ASCII word does, in both engines: `\b` in Python's is Unicode's, and
    # `RuntimeError错误` would end no name there.)
    "error_line": r"(?<![A-Za-z0-9_.])(?:[A-Za-z_][A-Za-z0-9_.]*)?(?:Error|Exception|Interrupt)(?![A-Za-z0-9_]):?",
    # Lines before a traceback with no message among them are a log or a program's chatter: they go.
    "message_line": r"(?<![A-Za-z0-9_.])(?:[A-Za-z_][A-Za-z0-9_.]*)?(?:Error|Exception|Warning|Interrupt)(?![A-Za-z0-9_]):?",
    # An exception's name alone, raised without a message (`RuntimeError`): nothing to look up by,
    # as a traceback cut before its message has nothing (message_missing).
    "bare_error": r"^[ \t]*(?:[A-Za-z_][A-Za-z0-9_.]*)?(?:Error|Exception|Warning|Interrupt)[ \t]*:?[ \t]*$",
    # A query in Chinese that names an exception or a warning (`KeyError: 'label'`), or holds a run
    # of English words, is an error quoted in a sentence, not a symptom in the reader's words.
    "names_an_error": r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Warning)(?![A-Za-z0-9_]|\.[A-Za-z0-9_])",
    "english_words": r"(?<![A-Za-z0-9_.])[A-Za-z]{2,}(?:[ ]+[A-Za-z]{2,}){3}(?![A-Za-z0-9_])",
    # A traceback cut before its message may still show the frame that raised it: the code line
    # `raise RuntimeError("grad can be implicitly created only for scalar outputs")` is read as
    # that message (the exception's name, then the string's text).
    "raise_line": r"^[ \t]*raise[ \t]+([A-Za-z_][A-Za-z0-9_.]*)\([ \t]*[rfRF]?([\"'])(.+?)\2",
    # A traceback's frames with no error message after them: the paste stopped before its last
    # line. Said instead of "not covered", by the terminal and the page alike.
    "stack": r"^[ \t]*(?:Traceback \(most recent call last\)|" + _FRAME_LINE + ")",
    # A traceback's frame (_FRAME_LINE), after any Markdown quote marker.
    "frame": r"^[ \t>]*(?:" + _FRAME_LINE + ")",
    # A frame's file and the function it ran (`File "…spawn.py", line 236, in prepare`; IPython's
    # `…/spawn.py in prepare(preparation_data)`, and IPython 8's `File ~/…/spawn.py:236, in
    # prepare(…)`, which names a method with its class, `in Module.__getattr__(…)`), after any
    # Markdown quote marker: Python's file and function in groups 1 and 2, IPython's file in
    # group 3 (IPython 8's, a space in it too: `C:\Program Files\…`) or 4 (one with no space, or
    # one that starts as a path does), its function in group 5. A traceback cut before its
    # message is read by them (shown_frames), and a row's context is looked for in them.
    "frame_name": r"^[ \t>]*(?:(?:File )?\"([^\"\n]*)\", line [0-9]+, in ([A-Za-z_][A-Za-z0-9_]*)"
                  r"|(?:File ([^\"\n]+?\.py):[0-9]+,|(?:File )?([^ \t\n\"]+\.py|(?:~|/|[A-Za-z]:[\\/])[^\"\n]*?\.py)"
                  r"(?::[0-9]+,)?) in (?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z_][A-Za-z0-9_]*)\()",
    # A message quoted in a sentence (`it says "leaf Variable that requires grad is being used in
    # an in-place operation" when…`): each quoted run of at least `quoted_words` words is one more
    # reading of its error. A quote opens and closes at a word's edge, not inside `don't`. (By
    # the opening quote: a pattern is compiled only for a text that holds its quote.)
    "quoted": {
        '"': r"(?<![A-Za-z0-9_])\"([^\"\n]+)\"(?![A-Za-z0-9_])",
        "'": r"(?<![A-Za-z0-9_])'([^'\n]+)'(?![A-Za-z0-9_])",
        "`": r"(?<![A-Za-z0-9_])`([^`\n]+)`(?![A-Za-z0-9_])",
        "\u201c": "\u201c([^\u201d\n]+)\u201d",  # “…”
        "\u2018": "\u2018([^\u2019\n]+)\u2019",  # ‘…’
        "\u300c": "\u300c([^\u300d\n]+)\u300d",  # 「…」
    },
    "quoted_word": r"(?<![A-Za-z0-9_.])[A-Za-z]{2,}(?![A-Za-z0-9_(])",  # a word, not part of a name or a call
    "quoted_words": 4,
    "missing_message_note": "这段没有报错信息：只有调用栈，或者报错只有异常名、冒号后面没有说明（形如 RuntimeError: …）。"
                            "把 Traceback 的最后几行一起贴进来再查；报错本来就只有异常名时，本页没法据此判断是哪一条",
    # How a row said from a frame fits (rule.Fit.frame): the terminal, the notebook and the box.
    "from_frame_note": "栈里经过 {frame}，只有这一条讲的情况会走到这里（报错信息本身没贴全也认得出）",
    "wrap_width": 60,  # lines this long or longer, all of one length, were wrapped by a program
    # A long paste is read from its end, as `tail` would: a log's error is at its end.
    "tail_lines": 2000,
}


class PastedError(namedtuple("PastedError", "text unwrapped quoted", defaults=(None, ()))):
    """One error of a paste: its text on one line, the same with the fixed-width wraps undone
    (None when nothing was wrapped so), and the messages quoted in it (`quoted`)."""

    __slots__ = ()

    @property
    def readings(self) -> tuple[str, ...]:
        """Each way to read it, tried in this order: as read, unwrapped, each quoted message."""
        return (self.text, *(() if self.unwrapped is None else (self.unwrapped,)), *self.quoted)


class _Compiled(dict):
    """PASTE_RULES' patterns, each compiled the first time a paste needs it: the command's start
    pays only for those (compiling them all is a good part of it). A pattern of a table (the
    quotes') is `(key, its key there)`."""

    def __missing__(self, key) -> re.Pattern[str]:
        name, inner = key if isinstance(key, tuple) else (key, None)
        flags = re.MULTILINE | (re.IGNORECASE if name == "continues" else 0)
        pattern = PASTE_RULES[name] if inner is None else PASTE_RULES[name][inner]
        self[key] = compiled = re.compile(pattern, flags)
        return compiled


_R = _Compiled()


def _any_of(patterns: list[str]) -> re.Pattern[str]:
    """One pattern for a list: each line is looked at once, not once per rule."""
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))


_PREFIX = _any_of(PASTE_RULES["prefixes"])


@functools.cache
def _drop(ipython: bool) -> re.Pattern[str]:
    """The lines to drop; a numbered code line only in an IPython paste."""
    return _any_of([pattern for pattern in PASTE_RULES["drop_lines"] if ipython or pattern != PASTE_RULES["numbered_line"]])


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SPACES = re.compile(r"[ \t\u00a0]+")


@functools.lru_cache(maxsize=4)  # a paste is read by several steps (reduce_paste, its frames, its end)
def decoded(text: str) -> str:
    """A paste as every step reads it: JSON's escapes, HTML's entities and colour codes undone."""
    if "\n" not in text and "\r" not in text and _R["json_string"].search(text) and not _R["not_json"].search(text):
        text = _R["json_escape"].sub(lambda found: PASTE_RULES["json_escapes"][found.group()], text)
    text = _R["entity"].sub(lambda found: PASTE_RULES["entities"][found.group()], text)
    text = _R["escaped_quote"].sub(r"\1", text)
    return _R["ansi"].sub("", text)


def _strip_prefixes(line: str) -> str:
    while line and (found := _PREFIX.match(line)) and found.end() > 0:
        line = line[found.end():]
    return line


def _by_rank(lines: list[str]) -> list[list[str]]:
    """The lines of each rank apart, in the order ranks first appear; lines without a rank go
    with the rank before them."""
    streams: dict[str, list[str]] = {}
    current = None
    for line in lines:
        found = _R["rank"].match(line)
        if found:
            current = found.group(1)
        streams.setdefault(current or "", []).append(line)
    return [stream for stream in streams.values() if stream]


def _errors_of(lines: list[str]) -> list[PastedError]:
    stripped = [_strip_prefixes(line) for line in lines]
    ipython = any(_R["ipython_arrow"].match(line) for line in stripped)
    drop = _drop(ipython)
    kept: list[str] = []  # the lines that may be part of a message
    raw_lengths: list[int] = []  # how long each was as pasted (the wrap check)
    for raw, line in zip(lines, stripped):
        if drop.search(line):
            continue
        kept.append(line)
        raw_lengths.append(len(raw.rstrip()))
    # Blocks: a traceback header that no chain line or envelope led to starts a new error; what
    # came before it goes when it holds no message at all (a log, a progress report).
    blocks: list[list[int]] = [[]]
    has_error = has_message = False  # of the block being read
    for index, line in enumerate(kept):
        if _R["traceback"].match(line) and blocks[-1] and not any(
                _R["continues"].search(kept[previous]) for previous in blocks[-1][-3:]):
            if has_error:
                blocks.append([])
            elif not has_message:
                blocks[-1] = []
            if not blocks[-1]:
                has_error = has_message = False
        blocks[-1].append(index)
        if _R["message_line"].search(line):  # every error line is a message line
            has_message = True
            has_error = has_error or bool(_R["error_line"].search(line))
    errors = []
    for block in blocks:
        text_lines = [kept[index] for index in block]
        cleaned = strip_traceback_noise("\n".join(text_lines))
        parts = [_SPACES.sub(" ", part).strip() for part in _LINE_BREAK.split(cleaned)]
        joined = " ".join(part for part in parts if part)
        text = _R["markup"].sub("", joined).strip()
        raised = None if _R["message_line"].search(text) else _raised(text_lines)
        if raised:
            errors.append(PastedError(f"{text} {raised}".strip()))
        elif text:
            unwrapped = _unwrapped(text_lines, [raw_lengths[index] for index in block])
            errors.append(PastedError(text, None if unwrapped == text else unwrapped, _quoted(joined, text)))
    return errors


def _quoted(joined: str, text: str) -> tuple[str, ...]:
    """The messages quoted in an error's text (its Markdown still in: a `code` span is a quote),
    in the order they appear, once each: runs of at least `quoted_words` words, not the whole."""
    found = [(match.start(), _R["markup"].sub("", match.group(1)).strip())
             for opener in PASTE_RULES["quoted"] if opener in joined for match in _R["quoted", opener].finditer(joined)]
    spans = [span for _, span in sorted(found, key=lambda pair: pair[0])
             if span != text and len(_R["quoted_word"].findall(span)) >= PASTE_RULES["quoted_words"]]
    return tuple(dict.fromkeys(spans))


def _raised(lines: list[str]) -> str | None:
    """`RuntimeError: message` from the last `raise RuntimeError("message")` code line, if any."""
    for line in reversed(lines):
        found = _R["raise_line"].match(line)
        if found:
            return f"{found.group(1)}: {found.group(3)}"
    return None


def _unwrapped(lines: list[str], raw_lengths: list[int]) -> str | None:
    """The block read with its fixed-width wraps undone: a line as long as the longest (and at
    least `wrap_width`) runs on into the next with no space. (The caller drops it when it reads
    the same as the block: when the only lines that long are frames, which go anyway.)"""
    width = max(raw_lengths, default=0)
    if width < PASTE_RULES["wrap_width"] or sum(length == width for length in raw_lengths[:-1]) == 0:
        return None
    joined = ""
    for line, length in zip(lines, raw_lengths):
        joined += line.strip() if length == width else line.strip() + "\n"
    cleaned = strip_traceback_noise(joined)
    parts = [_SPACES.sub(" ", part).strip() for part in _LINE_BREAK.split(cleaned)]
    text = _R["markup"].sub("", " ".join(part for part in parts if part)).strip()
    return text or None


def names_an_error(text: str, *, at_start: bool = False) -> bool:
    """Whether the text names an exception or a warning, anywhere (`报错 RuntimeError.`), or
    (`at_start`) at its start as an error's line does, with its colon (`KeyError:'label'`, not
    `RuntimeError-log.txt`)."""
    if not at_start:
        return _R["names_an_error"].search(text) is not None
    found = _R["names_an_error"].match(text)
    return found is not None and text[found.end():found.end() + 1] == ":"


def in_words(query: str) -> bool:
    """Whether a query is a description in the reader's words (a symptom), not an error's text:
    it is in Chinese, names no exception and holds no run of English words. (find-paste.js
    inWords decides it the same way.)"""
    # (No regular expression for the script: compiling one is paid on every call's start.)
    return (any("\u3400" <= char <= "\u9fff" for char in query)
            and not names_an_error(query) and _R["english_words"].search(query) is None)


def name_only(error: PastedError) -> bool:
    """Whether the error is an exception's name alone (`RuntimeError`): it says no row, and is
    on the page only as a word (lookup.Lookup and find-paste-query.js pass it over)."""
    return _R["bare_error"].match(error.text) is not None


def message_missing(text: str, errors: list[PastedError]) -> bool:
    """Whether the paste shows an error without its message: none of its errors is a line that
    names an exception or a warning with words after it, and it is a traceback (frames: cut
    before its message) or one of its errors is an exception's name alone (`RuntimeError`,
    raised without a message, which is on the page only as a word)."""
    bare = [name_only(error) for error in errors]
    if any(not alone and _R["message_line"].search(error.text) for error, alone in zip(errors, bare)):
        return False
    return any(bare) or _R["stack"].search(decoded(text)) is not None


# Read by reduce_paste and by each row with a context (lookup.off_context), of the same paste.
@functools.lru_cache(maxsize=4)
def _tail_of(text: str) -> tuple[str, ...]:
    """The last `tail_lines` lines of a paste as decoded: an error is read from them (a log's is
    at its end), and a traceback's frames are among them. Split from a window at the paste's end
    that grows until it holds them, not from the whole paste: a 5 MB log of short lines is a
    million lines. (Line by line, as every rule here: the two engines' `^` read a lone CR or
    U+2028 apart.)"""
    text = decoded(text)
    wanted = PASTE_RULES["tail_lines"]
    window = 64 * wanted
    while window < len(text):
        lines = _LINE_BREAK.split(text[-window:])
        if len(lines) > wanted:  # (the first, which the window may cut, is not among the last)
            return tuple(lines[-wanted:])
        window *= 4
    return tuple(_LINE_BREAK.split(text)[-wanted:])


@functools.lru_cache(maxsize=4)
def frames_of(text: str) -> tuple[tuple[str, str], ...]:
    """(file, function) of each frame of a paste, in order, as Python and IPython print them
    (the file "" where a frame names none)."""
    found = (_R["frame_name"].match(line) for line in _tail_of(text))
    return tuple((next((file for file in frame.group(1, 3, 4) if file is not None), ""), frame.group(2) or frame.group(5))
                 for frame in found if frame)


@functools.lru_cache(maxsize=4)
def shows_frames(text: str) -> bool:
    """Whether a paste shows a traceback's frames, as Python or IPython prints them."""
    return any(_R["frame"].match(line) or _R["frame_name"].match(line) for line in _tail_of(text))


@functools.lru_cache(maxsize=4)
def frame_files(text: str) -> tuple[str, ...]:
    """The files a paste's frames name, as Python or IPython prints them, once each."""
    python = (found.group(1) or found.group(2) for line in _tail_of(text) if (found := _R["frame"].match(line)))
    return tuple(dict.fromkeys(file for file in (*python, *(file for file, _ in frames_of(text))) if file))


def shown_frames(text: str) -> str:
    """The functions a paste's frames ran, in order, as one line (`spawn_main → _main → prepare →
    _fixup_main_from_path → run_path`): what a traceback cut before its message still says. A
    row's `frames` (a function only its situation runs through) fits it (lookup.Lookup)."""
    return " → ".join(function for _, function in frames_of(text))


@functools.lru_cache(maxsize=4)  # asked once for each row with a context, of the same paste
def ends_unfinished(text: str) -> bool:
    """Whether the traceback a paste ends with names no error or warning: from its last
    `Traceback` line (else its first frame) on, no line does. Cut before its end, it hides the
    frames below, where a row's call would be. (torch.compile's `from user code:` frames come
    after the exception: that traceback is whole.)"""
    lines = _LINE_BREAK.split(decoded(text))
    start = next((index for index in range(len(lines) - 1, -1, -1) if _R["traceback_start"].match(lines[index])),
                 None)
    if start is None:
        start = next((index for index, line in enumerate(lines) if _R["stack"].match(line)), len(lines))
    return not any(_R["message_line"].search(line) for line in lines[start + 1:])


def reduce_paste(text: str) -> list[PastedError]:
    """The errors of a paste, in the order they appear (see the module's docstring); one, with
    the text as it is, for a single line."""
    lines = list(_tail_of(text))
    errors = []
    for stream in _by_rank(lines):
        errors += _errors_of(stream)
    return errors
