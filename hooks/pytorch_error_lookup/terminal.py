"""An answer as terminal text: wrapped by display width (a CJK character takes two columns),
coloured only on a terminal that wants colour."""

from __future__ import annotations

import os
import re
import unicodedata

from .inline import parse_inline

# SGR codes: bold, dim, and a colour each for verdicts, code and links.
STYLES = {"bold": "1", "dim": "2", "good": "32", "warn": "33", "code": "36", "link": "34;4", "title": "1;35"}


def is_terminal(stream, environ=os.environ) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)()) and environ.get("TERM") != "dumb"


def wants_colour(stream, environ=os.environ) -> bool:
    """Colour only on a terminal, never when NO_COLOR is set (https://no-color.org/) or piped."""
    if "NO_COLOR" in environ and environ["NO_COLOR"] != "":
        return False
    return is_terminal(stream, environ)


class Painter:
    """Colours text when `colour`; with `links`, an address is an OSC 8 hyperlink too (a terminal
    that does not know them shows the text alone, as it is printed anyway)."""

    def __init__(self, colour: bool, links: bool = False):
        self.colour = colour
        self.links = links

    def __call__(self, text: str, style: str) -> str:
        return f"\x1b[{STYLES[style]}m{text}\x1b[0m" if self.colour and text else text

    def link(self, url: str) -> str:
        shown = self(url, "link")
        return f"\x1b]8;;{url}\x1b\\{shown}\x1b]8;;\x1b\\" if self.links and "://" in url else shown

    def markdown(self, text: str) -> str:
        """Inline Markdown (parsed as the page parses it, pytorch_error_lookup.inline) as a terminal shows it:
        code keeps its backticks (and is coloured), bold is bold, a link is its label and address."""
        return self._spans(parse_inline(text))

    def _spans(self, spans) -> str:
        parts = []
        for span in spans:
            if span.kind == "text":
                parts.append(span.text)
            elif span.kind == "code":
                parts.append(self(f"`{span.text}`", "code"))
            elif span.kind == "strong":
                parts.append(self(self._spans(span.children), "bold"))
            else:
                parts.append(f"{self._spans(span.children)} ({span.href})")
        return "".join(parts)


def display_width(text: str) -> int:
    plain = _strip_sgr(text)
    if plain.isascii():  # one column a character (most pieces: a word, a space)
        return len(plain)
    width = 0
    for index, char in enumerate(plain):
        if unicodedata.combining(char) or char in "\u200b\u200d\ufe0f":
            continue
        # A character asked for as an emoji (`⚠️`: U+26A0 and the selector U+FE0F) takes two columns.
        emoji = plain[index + 1:index + 2] == "\ufe0f"
        width += 2 if emoji or unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


_SGR = re.compile("\x1b\\[[0-9;]*m|\x1b\\]8;;[^\x1b]*\x1b\\\\")  # colours, and OSC 8's link marks


def _strip_sgr(text: str) -> str:
    return _SGR.sub("", text)


# No line starts with closing punctuation or ends with opening punctuation (kinsoku).
_NO_LINE_START = set("，。、；：？！）」』》】〉…,.;:?!)]}")
_NO_LINE_END = set("（「『《【〈([{")


def _is_wide(char: str) -> bool:
    # (No ASCII character is wide: most characters are asked no more.)
    return not char.isascii() and unicodedata.east_asian_width(char) in ("W", "F")


# Inline code up to this wide stays on one line (`pretraining_tp > 1` cut after `>` misreads);
# a longer span, or one wider than the line, breaks at its spaces like text, rather than run past the line.
CODE_KEPT_WHOLE = 30


def _code_spans(text: str, widest: int) -> list[range]:
    """The positions inside each `…` span of `text` (between its backticks) at most `widest` wide."""
    spans, at = [], text.find("`")
    while at != -1:
        end = text.find("`", at + 1)
        if end == -1:
            break
        if display_width(text[at:end + 1]) <= widest:
            spans.append(range(at + 1, end + 1))
        at = text.find("`", end + 1)
    return spans


def _pieces(text: str, room: int) -> list[str]:
    """Where a line may break: after a space, and between any two CJK characters, never inside
    short inline code that fits in `room` columns."""
    pieces, current = [], ""
    widest = min(CODE_KEPT_WHOLE, room)
    inside = {index for span in _code_spans(text, widest) for index in span} if "`" in text else ()
    for index, char in enumerate(text):
        breakable = current and index not in inside and (_is_wide(char) or current[-1] == " " or _is_wide(current[-1]))
        # A full stop that starts a name (`.pth`, `.ckpt` in a list) may start a line.
        starts_name = char == "." and text[index + 1:index + 2].isalnum()
        if breakable and (char not in _NO_LINE_START or starts_name) and current[-1] not in _NO_LINE_END:
            pieces.append(current)
            current = ""
        current += char
    if current:
        pieces.append(current)
    return pieces


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """`text` in lines of at most `width` columns (as wide characters count), each after `indent`.
    Colour codes take no room. A word longer than a line gets a line of its own, uncut."""
    room = max(width - display_width(indent), 10)
    lines, line, used = [], "", 0
    for piece in _pieces(text, room):
        size = display_width(piece)
        if used + size > room and line.strip():
            lines.append(indent + line.rstrip())
            piece = piece.lstrip(" ")
            line, used = "", 0
            size = display_width(piece)
        line += piece
        used += size
    if line.strip() or not lines:
        lines.append(indent + line.rstrip())
    return lines
