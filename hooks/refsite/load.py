"""Load the YAML under data/, remembering where every mapping and key came from.

Validation needs line numbers for its messages, and YAML's own parser already knows them;
this loader keeps them on the mappings and lists it builds, and reports duplicate keys
(which plain PyYAML silently resolves to the last value) instead of dropping data, and a value
whose opening quote was forgotten (which YAML reads as text ending in a stray quote).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .yaml_syntax import explain_syntax_error, place

try:  # libyaml is ~5x faster on large files and still reports marks
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the data, located for the author."""

    file: str
    line: int | None
    message: str
    entry: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = [where]
        if self.entry:
            parts.append(f"entry '{self.entry}'")
        if self.field:
            parts.append(f"field '{self.field}'")
        return ": ".join(parts + [self.message])


class DataError(Exception):
    """The data cannot be built; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        count = len(problems)
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''} in the data:\n{lines}")


class LocatedDict(dict):
    """A mapping from YAML that knows its own line and the line of each key."""

    line: int = 0
    key_lines: dict


class LocatedList(list):
    """A sequence from YAML that knows its own line and the line of each item."""

    line: int = 0
    item_lines: list


def line_of(value, key=None) -> int | None:
    """The line of `value` itself, or of `key` inside it when that key was written."""
    if key is not None and isinstance(value, LocatedDict):
        return value.key_lines.get(key, value.line)
    if key is not None and isinstance(value, LocatedList) and isinstance(key, int):
        return value.item_lines[key] if key < len(value.item_lines) else value.line
    return getattr(value, "line", None)


class _LocatingLoader(_BaseLoader):
    """SafeLoader that builds Located containers and records duplicate keys."""

    def __init__(self, stream):
        super().__init__(stream)
        self.duplicate_keys: list[tuple[int, str]] = []
        self.unopened_quotes: list[int] = []  # lines of a value ending in a " that no quote opens

    def construct_object(self, node, deep=False):
        # A scalar of the right shape but an impossible value (2026-13-01) raises ValueError
        # without a mark; give it the node's, like every other YAML error.
        try:
            return super().construct_object(node, deep=deep)
        except ValueError as error:
            raise yaml.constructor.ConstructorError(
                None, None, f"{node.value!r} cannot be read: {error}", node.start_mark) from error

    def construct_yaml_map(self, node):
        mapping = LocatedDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        yield mapping
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in mapping.key_lines:
                self.duplicate_keys.append((key_node.start_mark.line + 1, str(key)))
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.key_lines[key] = key_node.start_mark.line + 1
            if _unopened_quote(value_node):
                self.unopened_quotes.append(value_node.start_mark.line + 1)

    def construct_yaml_seq(self, node):
        sequence = LocatedList()
        sequence.line = node.start_mark.line + 1
        sequence.item_lines = [item.start_mark.line + 1 for item in node.value]
        yield sequence
        sequence.extend(self.construct_object(item, deep=True) for item in node.value)


def _unopened_quote(node) -> bool:
    """Whether an unquoted value ends with a `"` that no quote in it opens: `cause: 原因"`, the
    opening quote forgotten, which YAML reads as text with a stray quote at the end."""
    plain = isinstance(node, yaml.ScalarNode) and not node.style  # plain: style None, or "" from libyaml
    return plain and node.value.endswith('"') and node.value.count('"') % 2 == 1


_LocatingLoader.add_constructor("tag:yaml.org,2002:map", _LocatingLoader.construct_yaml_map)
_LocatingLoader.add_constructor("tag:yaml.org,2002:seq", _LocatingLoader.construct_yaml_seq)


@dataclass(frozen=True)
class LoadedFile:
    """The parsed content of one data file, with the name to show in messages."""

    name: str
    data: object


def load_yaml(path: Path, display_name: str) -> tuple[LoadedFile | None, list[Problem]]:
    """Parse one YAML file; a syntax error or a duplicate key becomes a Problem, never a traceback."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [Problem(display_name, None, f"cannot be read: {error}")]
    loader = _LocatingLoader(text)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        line, message, entry, field = explain_syntax_error(error, text)
        return None, [Problem(display_name, line, message, entry, field)]
    except yaml.YAMLError as error:
        return None, [Problem(display_name, None, f"is not valid YAML: {error}")]
    finally:
        loader.dispose()
    problems = [
        Problem(display_name, line, f"key '{key}' is written twice in one mapping; the first value would be lost")
        for line, key in loader.duplicate_keys
    ]
    lines = text.splitlines()
    problems += [
        Problem(display_name, line, 'ends with a " that no quote opens: put the opening " after the colon, or, '
                "to keep the quote as text, write the whole value in quotes", *place(lines, line - 1))
        for line in loader.unopened_quotes
    ]
    return LoadedFile(display_name, data), problems
