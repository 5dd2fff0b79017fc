"""The honest lookup's templates, one script per reference page, written next to its ranked index.

The decision rule lives in `pytorch_error_lookup.rule`; this module only compiles each error
row's fragment with it and hands the result to the browser (`find-verdict.js`), as a classic
script for the same reason as the index: a copy opened from disk cannot `fetch`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from pytorch_error_lookup.paste import PASTE_RULES
from pytorch_error_lookup.rule import Template, compile_description, compile_template, compile_templates, fold

from .find_index import INDEX_DIR

RULES_URL_PATTERN = INDEX_DIR + "/{key}.rules.js"
RULES_GLOBAL = "refsiteFindRules"


def templates_for(page) -> list[Template]:
    """Templates for every row of `page`, in page order: an error row's fragment's, then those of
    each other wording a torch release printed for it (refsite.wordings), as recorded by the
    verifier; a symptom row's `said_as`, the ways readers describe it."""
    outputs = [(row_id, fold(message)) for row_id, message in _recorded_messages(page)]
    templates = []
    for section in page.sections:
        if section.kind == "symptoms":
            # A symptom described in the reader's words: the row's own other wordings of it.
            for entry in section.entries:
                templates += [compile_description(entry.id, said) for said in entry.said_as]
            continue
        if section.kind != "errors":
            continue
        for entry in section.entries:
            structure = {"key_prefixes": entry.key_prefixes, "not_with": entry.not_with}
            own = compile_templates(entry.id, entry.fragment, entry.own_names, entry.second_line, **structure)
            # Another release's (or call path's) wording is taken whole: its head may be what
            # many messages start with (`Expected object of scalar type Float but`), where the
            # fragment's head is the author's choice.
            program = entry.reproducer
            variant_names = dict(program.variant_own_names) if program else {}
            others = [message for row_id, message in outputs if row_id != entry.id]
            for wording, _, paths in entry.releases.wordings:
                names = [*entry.own_names, *(name for path in paths for name in variant_names.get(path, ()))]
                own.append(_loosest(entry.id, wording, names, others, structure))
            for wording, *_ in program.seen_in_the_wild if program else ():
                own.append(_loosest(entry.id, wording, entry.own_names, others, structure))
            templates += {template.pattern: template for template in own}.values()
    return templates


def _loosest(entry: str, wording: str, own_names, others: list[str], structure: dict) -> Template:
    # (`others`: the other rows' recorded messages, folded.)
    """A wording's template with the row's own names as slots (`Half` where torch 1.4 printed
    `Float`), unless that would fit what another row's reproducer printed (torch 1.7's
    `expected scalar type Float but found Double`, with both dtypes open, is every dtype error):
    then with its words as printed."""
    loose = compile_template(entry, wording, own_names, **structure)
    if own_names and any(re.search(loose.pattern, message) for message in others):
        return compile_template(entry, wording, **structure)
    return loose


def _recorded_messages(page) -> list[tuple[str, str]]:
    """(row, what its runs printed as its message), every release: the lines its text was found
    in, or the wording it printed instead."""
    messages = []
    for row in page.rows("errors"):
        for run in row.releases.runs + row.releases.variant_runs:
            if run.shown_as == "reworded":
                messages.append((row.id, run.wording))
            elif run.shown_as in ("verbatim", "folded") and run.variant is None and run.excerpt:
                messages.append((row.id, run.excerpt))
    return messages


def rules_script(page) -> str:
    payload = {"templates": [template.as_json() for template in templates_for(page)], "paste": PASTE_RULES}
    return f"globalThis.{RULES_GLOBAL}={json.dumps(payload, ensure_ascii=False, separators=(',', ':'))};\n"


def write_rules(pages: Iterable, site_dir: str | Path) -> list[Path]:
    written = []
    for page in pages:
        target = Path(site_dir) / RULES_URL_PATTERN.format(key=page.key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rules_script(page), encoding="utf-8")
        written.append(target)
    return written
