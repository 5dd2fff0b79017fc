"""What a YAML syntax error in a data file is, in an author's terms: PyYAML says where a
construct began and where it noticed; the mistake is often elsewhere (a quote left open lines
before, a row indented as its fields, a field indented as the section's keys, a tab), and the
author looks for it by row (`- id:`) and field (`place`, which refsite.load also uses to name
a value it finds wrong though valid YAML). refsite.load turns the answer into a Problem."""

from __future__ import annotations

import re

import yaml

# A value that opens a quote (`cause: "…`, `- '…`). A quoted value may run over several lines;
# one whose quote is never closed reads on until the next quote character, and PyYAML notices
# only on the line where that one stands.
_QUOTED_VALUE = re.compile(r"""^\s*(?:-\s+)?(?:[^\s#'"][^:#]*:\s+)?(["'])""")


def _quote_end(text: str, start: int, quote: str) -> int:
    """Where the quoted value opened at `start` ends: the offset of its closing quote (`\\"` is
    an escape in "…", `''` in '…'), or len(text)."""
    at = start + 1
    while at < len(text):
        if quote == '"' and text[at] == "\\":
            at += 2
        elif text[at] == quote and quote == "'" and text[at + 1:at + 2] == "'":
            at += 2
        elif text[at] == quote:
            return at
        else:
            at += 1
    return len(text)


def _unclosed_quote(text: str, first: int, last: int) -> int | None:
    """The line (1-based) of a quote opened from line `first` on (0-based) that is read on to
    line `last`, where the parser noticed the problem: a value left unclosed on its own line.
    None if every quote opened there closes before (a value over several lines is no mistake)."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    number = first
    while number <= last and number < len(lines):
        if found := _QUOTED_VALUE.match(lines[number]):
            closing = text.count("\n", 0, _quote_end(text, offsets[number] + found.start(1), found.group(1)))
            if closing > number and closing >= last:
                return number + 1
            number = closing  # closed before the problem: go on after it
        number += 1
    return None


def explain_syntax_error(error: yaml.MarkedYAMLError, text: str) -> tuple[int | None, str, str | None, str | None]:
    """(line, message, entry, field) for a YAML syntax error in `text`. Both of PyYAML's marks:
    where the broken construct starts (an unclosed `[`, a quote), which is where the mistake
    usually is, and where the parser noticed, often lines later; and where the mistake then is
    when the text shows it, said first in plain words: a quote left open on its line between the
    two, a tab, a line indented unlike its neighbours. With the row (`- id:`) and field the
    mistake is in, as far as the text says."""
    def at(mark) -> str:
        return f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""

    parts = [f"{error.context}{at(error.context_mark)}"] if error.context else []
    parts.append(f"{error.problem}{at(error.problem_mark)}")
    parser_said = ": ".join(parts)
    mark = error.context_mark or error.problem_mark
    line = mark.line + 1 if mark else None
    lines = text.splitlines()
    row = None
    said = None  # the mistake in plain words, where the text shows it
    if mark and error.problem_mark and (quote_line := _unclosed_quote(text, mark.line, error.problem_mark.line)):
        said, line = f"the quote opened on line {quote_line} is not closed on that line", quote_line
    elif (tab := _tab_at(lines, error)) is not None:
        said, line = f"line {tab + 1} is indented with a tab: YAML indents with spaces only", tab + 1
    elif (reserved := _reserved_start(lines, error)) is not None:
        said, line = reserved
    elif (misplaced := _misindented(lines, error)) is not None:
        said, number, row = misplaced
        line = number + 1
    entry, field = place(lines, line - 1) if line else (None, None)
    # The plain words first; the parser's own, which name its constructs, after them.
    message = f"{said} (the YAML parser: {parser_said})" if said else parser_said
    return line, "is not valid YAML: " + message, row or entry, field


_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][\w-]*):(?:\s|$)")
_ID_LINE = re.compile(r"^(\s*)-\s+id:\s*['\"]?([^\s'\"#]+)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _indented_with_tab(line: str) -> bool:
    return "\t" in line[:len(line) - len(line.lstrip())]


def _tab_at(lines: list[str], error: yaml.MarkedYAMLError) -> int | None:
    """The line (0-based) PyYAML stopped on, when its indentation holds a tab."""
    noticed = error.problem_mark
    if not noticed or noticed.line >= len(lines):
        return None
    return noticed.line if _indented_with_tab(lines[noticed.line]) else None


def _reserved_start(lines: list[str], error: yaml.MarkedYAMLError) -> tuple[str, int] | None:
    """(the mistake, its line) where PyYAML stopped at a value that starts, unquoted, with a
    character YAML keeps for itself: a backtick (a cause that starts with code, its opening quote
    forgotten) or `@`."""
    noticed = error.problem_mark
    if not noticed or noticed.line >= len(lines) or "cannot start any token" not in (error.problem or ""):
        return None
    text = lines[noticed.line]
    char = text[noticed.column:noticed.column + 1]
    if char not in ("`", "@"):  # (not `in "`@"`: past the line's end the character is "")
        return None
    said = f"a value that starts with {char} must be in quotes (YAML keeps {char} for itself)"
    if text.rstrip().endswith('"'):
        said += ': this one ends with a " that no quote opens, so put the opening " after the colon'
    return said, noticed.line + 1


def _content_above(lines: list[str], number: int) -> int | None:
    """The nearest line above `number` that holds more than a comment."""
    return next((above for above in range(number - 1, -1, -1)
                 if lines[above].strip() and not lines[above].lstrip().startswith("#")), None)


def _row_above(lines: list[str], number: int, deeper_than: int) -> tuple[int, str] | None:
    """The nearest `- id:` line above `number` whose `- ` is indented deeper than `deeper_than`
    (0-based line, id)."""
    for above in range(number - 1, -1, -1):
        found = _ID_LINE.match(lines[above])
        if found and len(found.group(1)) > deeper_than:
            return above, found.group(2)
        if lines[above].strip() and _indent(lines[above]) <= deeper_than:
            return None
    return None


def _misindented(lines: list[str], error: yaml.MarkedYAMLError) -> tuple[str, int, str | None] | None:
    """For a line indented unlike its neighbours, PyYAML names where the mapping or list began
    ("did not find expected key", "… '-' indicator") and where it noticed; the mistake is on the
    line it noticed, or on the line before, which ended a row by being indented as the keys
    around the rows. (what is wrong, the 0-based line it is on, the row it is in if known)."""
    begun, noticed = error.context_mark, error.problem_mark
    context = error.context or ""
    if not (begun and noticed and noticed.line > begun.line and "block" in context and noticed.line < len(lines)):
        return None
    number = noticed.line
    indent = _indent(lines[number])
    item = lines[number].lstrip().startswith("-")
    if "mapping" in context:
        keys = begun.column
        above = _content_above(lines, number)
        if above is not None and _indent(lines[above]) == keys and indent > keys and not lines[above].lstrip().startswith("-"):
            if (row := _row_above(lines, above, keys)) is not None:
                row_line, row_id = row
                row_keys = _indent(lines[row_line]) + 2
                return (f"line {above + 1} is indented {keys} spaces, as the keys of the mapping begun on line "
                        f"{begun.line + 1}, so it ends the row begun on line {row_line + 1} ('{row_id}'); as a "
                        f"field of that row it is indented {row_keys} spaces", above, row_id)
        if item:
            return (f"line {number + 1} is a list item (`- `) indented {indent} spaces, where the mapping begun on "
                    f"line {begun.line + 1} has its keys{_items_above(lines, number, indent)}", number, None)
        if indent != keys:
            return (f"line {number + 1} is indented {indent} spaces, where the keys of the mapping begun on line "
                    f"{begun.line + 1} are indented {keys}", number, None)
    if "collection" in context:
        items = begun.column
        if item and indent != items:
            return (f"line {number + 1} is a list item indented {indent} spaces, where the items of the list "
                    f"begun on line {begun.line + 1} are indented {items}", number, None)
        if not item and indent == items:
            return (f"line {number + 1} is indented {indent} spaces, as the items of the list begun on line "
                    f"{begun.line + 1} are, but is not an item (`- `)", number, None)
        if not item:
            return (f"line {number + 1} is indented {indent} spaces: neither an item of the list begun on line "
                    f"{begun.line + 1} (`- ` at {items}) nor a field of the item above it (at {items + 2})", number, None)
    return None


def _items_above(lines: list[str], number: int, indent: int) -> str:
    """`; the items like it above (line N) start at I`: the nearest line above that starts with
    the same `- key:` at another indentation, where the reader meant this item to go."""
    key = _KEY.match(lines[number])
    if not key:
        return ""
    for above in range(number - 1, -1, -1):
        same = _KEY.match(lines[above])
        if same and same.group(2) == key.group(2) and lines[above].lstrip().startswith("-") and _indent(lines[above]) != indent:
            return f"; the items like it above (line {above + 1}) start their `- ` at {_indent(lines[above])}"
    return ""


def place(lines: list[str], number: int) -> tuple[str | None, str | None]:
    """The entry (the nearest `- id:` above, indented no deeper than line `number`, 0-based; any
    for a line indented with a tab) and the field (the key written on that line) a problem on
    that line is in, as far as the text says."""
    if number >= len(lines):
        return None, None
    key = _KEY.match(lines[number].replace("\t", " "))
    field = key.group(2) if key else None
    indent = len(lines[number]) if _indented_with_tab(lines[number]) else _indent(lines[number])
    for above in range(number, -1, -1):
        found = _ID_LINE.match(lines[above])
        if found and len(found.group(1)) <= indent:
            return found.group(2), None if field == "id" else field
    return None, field
