"""Check loaded data before anything is rendered, collecting every problem.

The schema subset interpreted: type, const, enum, required, properties,
additionalProperties (false or a schema), propertyNames.pattern, items, minItems,
minLength, pattern, minimum, $ref to $defs, allOf with if/then, oneOf and not (of
`required` lists). Other keywords (description, format) are for editors only.

Two layers, kept apart:
- `check_schema` interprets the published JSON Schemas under data/schema/ (the subset they
  use), so the file an editor checks against and the build's checks are one and the same;
- `check_references` checks what a schema cannot: unique ids, chapter ids that resolve,
  pages and books that exist.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .load import LocatedDict, LocatedList, Problem, line_of

_JSON_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
}


def load_schema(schema_dir: Path, name: str) -> dict:
    return json.loads((schema_dir / f"{name}.schema.json").read_text(encoding="utf-8"))


def _type_name(value) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _is_type(value, expected: str) -> bool:
    if expected == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if expected == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _JSON_TYPES[expected])


class _SchemaChecker:
    """Walks a value against a schema, reporting with the nearest entry id and line."""

    def __init__(self, root_schema: dict, file_name: str):
        self.root = root_schema
        self.file = file_name
        self.problems: list[Problem] = []

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            pointer = schema["$ref"].removeprefix("#/").split("/")
            target = self.root
            for part in pointer:
                target = target[part]
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return schema

    def report(self, line, entry, field, message):
        self.problems.append(Problem(self.file, line, message, entry=entry, field=field))

    def check(self, value, schema: dict, *, line, entry, field) -> None:
        schema = self.resolve(schema)
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            entry, field = value["id"], None  # the entry id now says where we are

        expected = schema.get("type")
        if expected and not _is_type(value, expected):
            wanted = {"object": "a mapping", "array": "a list", "string": "text", "number": "a number",
                      "integer": "a whole number", "boolean": "true or false"}[expected]
            self.report(line, entry, field, f"must be {wanted}, not {_type_name(value)}")
            return
        if "const" in schema and value != schema["const"]:
            self.report(line, entry, field, f"must be {schema['const']!r}")
        if "enum" in schema and value not in schema["enum"]:
            choices = ", ".join(repr(choice) for choice in schema["enum"])
            self.report(line, entry, field, f"must be one of {choices}, not {value!r}")
            return

        if isinstance(value, str):
            self._check_string(value, schema, line, entry, field)
        elif isinstance(value, (int, float)) and "minimum" in schema and value < schema["minimum"]:
            self.report(line, entry, field, f"must be at least {schema['minimum']}")
        elif isinstance(value, list):
            self._check_list(value, schema, line, entry, field)
        elif isinstance(value, dict):
            self._check_mapping(value, schema, line, entry, field)

        for sub in schema.get("allOf", []):
            sub = self.resolve(sub)
            if "if" in sub:
                if self._matches(value, sub["if"]):
                    self.check(value, sub.get("then", {}), line=line, entry=entry, field=field)
            else:
                self.check(value, sub, line=line, entry=entry, field=field)
        if "not" in schema and self._matches(value, schema["not"]):
            names = self.resolve(schema["not"]).get("required", [])
            self.report(line, entry, field, "must not have both " + " and ".join(f"'{n}'" for n in names)
                        if names else "is not allowed in this form")
        if "oneOf" in schema:
            matching = sum(self._matches(value, option) for option in schema["oneOf"])
            if matching != 1:
                self.report(line, entry, field, self._one_of_message(schema["oneOf"], matching))

    def _check_string(self, value, schema, line, entry, field):
        if len(value.strip()) < schema.get("minLength", 0):
            self.report(line, entry, field, "must not be empty")
        elif "pattern" in schema and not re.search(schema["pattern"], value):
            hint = self.resolve(schema).get("description") or f"must match {schema['pattern']}"
            if "\n" in value and "^[^\\n]*$" == schema["pattern"]:
                hint = "must be one line (verbatim text from the screen; put a second line in its own field)"
            self.report(line, entry, field, f"{value!r} is not allowed here: {hint}")

    def _check_list(self, value, schema, line, entry, field):
        if len(value) < schema.get("minItems", 0):
            self.report(line, entry, field, f"needs at least {schema['minItems']} item(s)")
        if "items" in schema:
            for index, item in enumerate(value):
                self.check(item, schema["items"], line=line_of(value, index) or line,
                           entry=entry, field=f"{field}[{index}]" if field else f"[{index}]")

    def _check_mapping(self, value, schema, line, entry, field):
        mapping_line = line_of(value) or line
        for key in schema.get("required", []):
            if key not in value:
                self.report(mapping_line, entry, key, "is required but missing")
        properties = schema.get("properties", {})
        additional = schema.get("additionalProperties", True)
        key_pattern = self.resolve(schema.get("propertyNames", {})).get("pattern")
        for key, item in value.items():
            key_line = line_of(value, key) or mapping_line
            if key_pattern and not (isinstance(key, str) and re.search(key_pattern, key)):
                self.report(key_line, entry, str(key), f"is not a valid key here (must match {key_pattern})")
            elif key in properties:
                self.check(item, properties[key], line=key_line, entry=entry, field=key)
            elif additional is False:
                known = ", ".join(properties)
                self.report(key_line, entry, str(key), f"is not a known field (known: {known})")
            elif isinstance(additional, dict):
                # A mapping keyed by ids (reproducers, results): the key is the entry.
                self.check(item, additional, line=key_line, entry=str(key), field=None)

    def _matches(self, value, schema) -> bool:
        probe = _SchemaChecker(self.root, self.file)
        probe.check(value, schema, line=None, entry=None, field=None)
        return not probe.problems

    @staticmethod
    def _one_of_message(options, matching) -> str:
        names = [name for option in options for name in option.get("required", [])]
        alternatives = " or ".join(f"'{name}'" for name in names)
        if matching == 0:
            return f"needs one of {alternatives}"
        return f"needs exactly one of {alternatives}, not several"


def check_schema(value, schema: dict, file_name: str) -> list[Problem]:
    checker = _SchemaChecker(schema, file_name)
    checker.check(value, schema, line=line_of(value) or 1, entry=None, field=None)
    return checker.problems


def mappings(items) -> list[dict]:
    """The mappings of a list that may not be one: reference checks also run on data that
    failed its schema, so that one run reports every problem."""
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _ids(items) -> set[str]:
    return {item["id"] for item in mappings(items) if isinstance(item.get("id"), str)}


def _duplicate_ids(items, file_name, what) -> list[Problem]:
    seen: dict[str, int | None] = {}
    problems = []
    for item in mappings(items):
        item_id = item.get("id")
        if not isinstance(item_id, str):
            continue
        if item_id in seen:
            problems.append(Problem(
                file_name, line_of(item, "id"),
                f"is used twice for {what} (also on line {seen[item_id]}); ids must be unique",
                entry=item_id, field="id"))
        else:
            seen[item_id] = line_of(item, "id")
    return problems


def page_rows(page: dict) -> list[dict]:
    """Every mapping of a raw reference page that carries an anchor id, in page order."""
    rows = []
    for group in mappings(page.get("groups")):
        for section in mappings(group.get("sections")):
            rows.append(section)
            rows.extend(mappings(section.get("entries")))
    related = page.get("related")
    if isinstance(related, dict):
        rows.extend(mappings(related.get("links")))
    rows.extend(mappings(page.get("checkpoints")))
    return rows


def _chapter_references(row: dict):
    """(field, chapter id, line) for every chapter a row points to: its `chapters` list, or the
    `chapter` of a related link."""
    chapters = row.get("chapters")
    for index, chapter in enumerate(chapters if isinstance(chapters, list) else []):
        if isinstance(chapter, str):
            yield "chapters", chapter, line_of(chapters, index)
    if isinstance(row.get("chapter"), str):
        yield "chapter", row["chapter"], line_of(row, "chapter")


def check_references(site: dict, site_file: str, books: list[tuple[dict, str]],
                     pages: list[tuple[dict, str, dict]]) -> list[Problem]:
    """Cross-file checks; they tolerate data that failed its schema (already reported).

    `books` holds (book data, file name); `pages` holds (page data, file name, its book data).
    """
    problems = _duplicate_ids(site.get("books"), site_file, "a book")
    book_ids = _ids(site.get("books"))

    for book, book_file in books:
        problems += _duplicate_ids(book.get("chapters"), book_file, "a chapter")

    for page, page_file, book in pages:
        book_id = book.get("id")
        chapter_ids = _ids(book.get("chapters"))
        page_ids = {p for p in book.get("pages") or [] if isinstance(p, str)}
        # Anchors share one namespace on the page, so ids must be unique across every table.
        rows = page_rows(page)
        problems += _duplicate_ids(rows, page_file, "a row, section or checkpoint")
        for row in rows:
            for field, chapter, line in _chapter_references(row):
                if chapter not in chapter_ids:
                    problems.append(Problem(
                        page_file, line,
                        f"chapter {chapter!r} does not exist in book '{book_id}' "
                        f"(chapters: {', '.join(sorted(chapter_ids))})",
                        entry=row.get("id"), field=field))
            linked_book = row.get("book")
            if isinstance(linked_book, str) and linked_book not in book_ids:
                problems.append(Problem(
                    page_file, line_of(row, "book"),
                    f"book {linked_book!r} is not listed in the site's books ({', '.join(sorted(book_ids))})",
                    entry=row.get("id"), field="book"))
        next_link = page.get("next")
        target = next_link.get("target") if isinstance(next_link, dict) else None
        if isinstance(target, str) and target not in {"book-index", "home"} | chapter_ids | page_ids:
            problems.append(Problem(
                page_file, line_of(next_link, "target"),
                f"{target!r} is not book-index, home, a chapter id or a page of this book",
                field="next.target"))
    return problems
