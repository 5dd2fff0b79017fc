"""Inline Markdown, the subset the data is written in: `code`, **bold** and [links](url).

Parsing gives spans; the `_inline.html` macro turns them into tags, so Python never writes
HTML and no raw HTML in the data can reach the page: `<script>` is text like any other.
Anything outside the subset (a lone `*`, `__init__` unmarked, `|`, `{{ }}`) stays as typed.
"""

from __future__ import annotations

import re
from collections import namedtuple

_TOKEN = re.compile(
    r"""
      (?P<ticks>`+)(?P<code>.+?)(?<!`)(?P=ticks)(?!`)    # code span, delimited by any run of backticks
    | \*\*(?P<strong>(?:(?!\*\*).)+?)\*\*                 # **bold**
    | \[(?P<label>[^\[\]]+)\]\((?P<href>[^()\s]+)\)       # [label](href)
    | \\(?P<escaped>[\\`*\[\]()])                         # a backslash-escaped marker
    """,
    re.VERBOSE | re.DOTALL,
)

# Links may go to the web, to a page of the site or to an anchor; never javascript: or data:.
_SAFE_HREF = re.compile(r"^(https?://|mailto:|#|\.{0,2}/|[\w.-]+(?:/|\.html|\.md|#|$))", re.IGNORECASE)


class Span(namedtuple("Span", "kind text children href", defaults=("", (), ""))):
    """A piece of inline Markdown: `kind` "text" | "code" | "strong" | "link", its `text`, the
    spans inside it (strong, link) and a link's `href`."""

    __slots__ = ()


def parse_inline(text: str) -> tuple[Span, ...]:
    spans: list[Span] = []
    plain: list[str] = []

    def flush():
        if plain:
            spans.append(Span("text", "".join(plain)))
            plain.clear()

    position = 0
    for match in _TOKEN.finditer(text):
        plain.append(text[position:match.start()])
        position = match.end()
        if match["escaped"] is not None:
            plain.append(match["escaped"])
            continue
        if match["href"] is not None and not _SAFE_HREF.match(match["href"]):
            plain.append(match[0])
            continue
        flush()
        if match["code"] is not None:
            code = match["code"]
            # As in CommonMark: one space on both sides lets a span start or end with a backtick.
            if len(code) > 2 and code[0] == code[-1] == " " and code.strip():
                code = code[1:-1]
            spans.append(Span("code", code))
        elif match["strong"] is not None:
            spans.append(Span("strong", children=parse_inline(match["strong"])))
        else:
            spans.append(Span("link", children=parse_inline(match["label"]), href=match["href"]))
    plain.append(text[position:])
    flush()
    return tuple(spans)
