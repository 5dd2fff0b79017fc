"""The honest lookup's templates, one script per reference page, written next to its ranked index.

The decision rule lives in `pytorch_error_lookup.rule`; this module only compiles each error
row's fragment with it and hands the result to the browser (`find-verdict.js`), as a classic
script for the same reason as the index: a copy opened from disk cannot `fetch`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pytorch_error_lookup.rule import Template, compile_template

from .find_index import INDEX_DIR

RULES_URL_PATTERN = INDEX_DIR + "/{key}.rules.js"
RULES_GLOBAL = "refsiteFindRules"


def templates_for(page) -> list[Template]:
    """A template for every error row of `page`, in page order."""
    return [compile_template(entry.id, entry.fragment, entry.own_names, entry.second_line)
            for section in page.sections if section.kind == "errors" for entry in section.entries]


def rules_script(page) -> str:
    payload = {"templates": [template.as_json() for template in templates_for(page)]}
    return f"globalThis.{RULES_GLOBAL}={json.dumps(payload, ensure_ascii=False, separators=(',', ':'))};\n"


def write_rules(pages: Iterable, site_dir: str | Path) -> list[Path]:
    written = []
    for page in pages:
        target = Path(site_dir) / RULES_URL_PATTERN.format(key=page.key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rules_script(page), encoding="utf-8")
        written.append(target)
    return written
