"""Check loaded data before anything is rendered, collecting every problem.

Two layers, kept apart:
- `check_schema` validates against the published JSON Schemas under data/schema/ with
  `jsonschema` (Draft 2020-12), so the file an editor checks against and the build's checks are
  one and the same; each error is placed at its file:line, entry and field from the located data;
- `check_references` checks what a schema cannot: unique ids, chapter ids that resolve,
  pages and books that exist.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from jsonschema import Draft202012Validator, ValidationError
from pytorch_error_lookup.rule import split_exception

from .load import Problem, line_of

_WANTED = {"object": "a mapping", "array": "a list", "string": "text", "number": "a number",
           "integer": "a whole number", "boolean": "true or false", "null": "nothing (null)"}


def load_schema(schema_dir: Path, name: str) -> dict:
    return json.loads((schema_dir / f"{name}.schema.json").read_text(encoding="utf-8"))


def _type_name(value) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, datetime.date):  # YAML reads 2026-11-29 unquoted as a date
        return "a date (quote it to keep it text)"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


# Schema keywords that step into a child of the instance, and whether a name or index follows
# them in the schema path. Every other keyword ($ref, allOf, then, oneOf…) stays on the same value.
_DESCENDING = {"properties": True, "patternProperties": True, "prefixItems": True,
               "items": False, "additionalProperties": False, "contains": False,
               "unevaluatedItems": False, "unevaluatedProperties": False}


def _descents(schema_path) -> list[str]:
    """The keyword that stepped into each child along an error's instance path."""
    keywords, tokens = [], iter(schema_path)
    for token in tokens:
        if token in _DESCENDING:
            keywords.append(token)
            if _DESCENDING[token]:
                next(tokens, None)  # the property name or index, not a keyword
    return keywords


def _child(field: str | None, key) -> str:
    """The field name of `key`: inside an item of a list (an other cause, a wording seen in the
    wild) it says which item, `other_causes[1].source`."""
    return f"{field}.{key}" if field and field.endswith("]") else str(key)


def _where(root, error: ValidationError):
    """(value, line, entry, field) of the value an error is about.

    The entry is the nearest mapping on the way with an `id`, or the key of a mapping keyed by
    ids (reached through `additionalProperties`, as reproducers and results are); the field is
    the key below it, with list indexes and the keys inside a list's item, e.g. `chapters[1]`,
    `other_causes[1].source`."""
    value, line, entry, field = root, line_of(root) or 1, None, None
    descents = _descents(error.absolute_schema_path)
    for step, key in enumerate([None, *error.absolute_path]):
        if step:
            parent, value = value, value[key]
            line = line_of(parent, key) or line
            if isinstance(key, int):
                field = f"{field}[{key}]" if field else f"[{key}]"
            elif descents[step - 1:step] == ["additionalProperties"] and isinstance(value, dict):
                entry, field = str(key), None
            else:
                field = _child(field, key)
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            entry, field = value["id"], None  # the entry id now says where we are
    return value, line, entry, field


def _message(error: ValidationError, value) -> str:
    """What is wrong with `value`, in the author's words rather than the schema's."""
    keyword, expected = error.validator, error.validator_value
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else expected
        said = f"must be {' or '.join(_WANTED.get(name, name) for name in names)}, not {_type_name(value)}"
        if isinstance(value, bool) and "string" in names:
            # YAML reads `no` as false: the author meant the text.
            return said + " (unquoted, YAML reads no, yes, on and off as true/false: put it in quotes)"
        if isinstance(value, (int, float)) and "string" in names:
            # YAML reads `05` as 5 (and `08` as the text "08"): the author meant the text. A chapter
            # id has two digits.
            meant = f"{value:02d}" if isinstance(value, int) and "chapters" in error.absolute_path else value
            return said + f' (unquoted, YAML read it as the number {value}: put it in quotes, as "{meant}")'
        return said
    if keyword == "enum":
        return f"must be one of {', '.join(repr(choice) for choice in expected)}, not {value!r}"
    if keyword == "const":
        return f"must be {expected!r}, not {value!r}"
    if keyword == "pattern":
        return f"{value!r} is not allowed here: {error.schema.get('description') or f'must match {expected}'}"
    if keyword == "minLength" and expected == 1:
        return "must not be empty"
    if keyword == "minLength":
        return f"{value!r} is too short: at least {expected} characters"
    if keyword == "minItems":
        return f"needs at least {expected} item(s)"
    if keyword == "minimum":
        return f"must be at least {expected}"
    if keyword == "oneOf":
        names = " or ".join(f"'{name}'" for option in expected for name in option.get("required", []))
        # jsonschema gives each option's errors as context when none matched, none when several did.
        return f"needs one of {names}" if error.context else f"needs exactly one of {names}, not several"
    if keyword == "not" and expected.get("required"):
        return "must not have both " + " and ".join(f"'{name}'" for name in expected["required"])
    return error.message  # any other keyword: jsonschema's own words, still located


def _problems(root, error: ValidationError, file_name: str) -> list[Problem]:
    """One error placed in the file; an error about several keys of a mapping is one per key."""
    value, line, entry, field = _where(root, error)

    def at_key(key, message):
        return Problem(file_name, line_of(value, key) or line, message, entry=entry, field=_child(field, key))

    if "propertyNames" in error.relative_schema_path:  # about a key: jsonschema checks it as the instance
        return [at_key(error.instance, _message(error, error.instance))]
    if error.validator == "required":
        return [at_key(key, "is required but missing") for key in error.validator_value if key not in value]
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        return [at_key(key, f"is not a known field (known: {', '.join(known)})") for key in value if key not in known]
    return [Problem(file_name, line, _message(error, value), entry=entry, field=field)]


def check_schema(value, schema: dict, file_name: str) -> list[Problem]:
    """Every way `value` breaks `schema` (Draft 2020-12), in file order."""
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    problems = [problem for error in validator.iter_errors(value)
                for problem in _problems(value, error, file_name)]
    return sorted(problems, key=lambda problem: problem.line or 0)


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
        problems += _covered_and_left_out(rows, page_file)
        problems += _telltales_in_own_text(rows, page_file)
        next_link = page.get("next")
        target = next_link.get("target") if isinstance(next_link, dict) else None
        if isinstance(target, str) and target not in {"book-index", "home"} | chapter_ids | page_ids:
            problems.append(Problem(
                page_file, line_of(next_link, "target"),
                f"{target!r} is not book-index, home, a chapter id or a page of this book",
                field="next.target"))
    return problems


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _covered_and_left_out(rows: list, page_file: str) -> list[Problem]:
    """An error row whose text a not-covered row names as left out (`Expected all tensors to be
    on the same device` in 九): the page would say both. A phrase, not a bare name, counts."""
    def folded(text: str) -> str:
        return " ".join(text.split()).casefold()

    left_out = [(row, folded(span)) for row in rows if isinstance(row.get("category"), str)
                for span in _CODE_SPAN.findall(row["category"]) if " " in span.strip()]
    problems = []
    for row in rows:
        if not isinstance(row.get("fragment"), str):
            continue
        fragment = folded(row["fragment"])
        for other, span in left_out:
            if span in fragment or fragment in span:
                problems.append(Problem(
                    page_file, line_of(row, "fragment"),
                    f"the not-covered row '{other.get('id')}' (line {line_of(other, 'category')}) lists this "
                    f"error as left out: take it out of that list now that a row covers it",
                    entry=row.get("id"), field="fragment"))
    return problems


def _telltales_in_own_text(rows: list, page_file: str) -> list[Problem]:
    """An other cause's `shown_by` text that the row's own text holds (`equal size` in `stack
    expects each tensor to be equal size`): every paste of the row shows it, so it tells that
    cause apart from none, and the lookup would point at it every time. Where the fragment does
    not name its exception, a name before the text (`RuntimeError: stack expects`) is set aside:
    the row's pastes show one."""
    problems = []
    for row in rows:
        own = " ".join(text for text in (row.get("fragment"), row.get("second_line")) if isinstance(text, str))
        names_its_exception = bool(split_exception(own)[0])
        for place, other in enumerate(row.get("other_causes") or []):
            shown_by = other.get("shown_by") if isinstance(other, dict) else None
            held = [(index, shown) for index, shown in enumerate(shown_by if isinstance(shown_by, list) else [])
                    if isinstance(shown, str) and shown
                    and (shown if names_its_exception else split_exception(shown)[1]) in own]
            problems += [Problem(page_file, line_of(other, "shown_by"),
                                 f"{shown!r} is in the row's own text: every paste of it shows that, so it "
                                 f"tells this cause apart from none", entry=row.get("id"),
                                 field=f"other_causes[{place}].shown_by[{index}]") for index, shown in held]
    return problems
