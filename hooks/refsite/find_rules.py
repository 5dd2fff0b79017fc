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

from pytorch_error_lookup.inline import parse_inline
from pytorch_error_lookup.lookup import NOT_SAID_BECAUSE, OTHER_CAUSE_SHOWN
from pytorch_error_lookup.paste import PASTE_RULES
from pytorch_error_lookup.rule import (
    Template, best_fit, compile_description, compile_frame, compile_paragraph, compile_template, compile_templates,
    fold, has_substance, split_exception,
)

from .find_index import INDEX_DIR
from .model import release_key
from .wordings import EXCEPTION_LINE

RULES_URL_PATTERN = INDEX_DIR + "/{key}.rules.js"
RULES_GLOBAL = "refsiteFindRules"


def templates_for(page) -> list[Template]:
    """Templates for every row of `page`, in page order: an error row's fragment's, then those of
    each other wording a torch release printed for it (refsite.wordings), as recorded by the
    verifier; a symptom row's `said_as`, the ways readers describe it.

    What a near miss printed (another error readers take for a row's, Reproducer.near_misses)
    is no row's to claim: a partial template or another wording that fits it is left out, so
    that such a paste is answered `weak`, or, for a row with `called_through`, kept for a paste
    that shows one of those calls. (A row's own text fitting one is an error in the data, which
    tests/test_wordings.py reports.) Wordings that differ only in a slot (a source path after
    ` at `), and partial templates compiled again from each printed message, are one template."""
    unique: dict[str, Template] = {}
    for _, row_templates in _row_templates(page):
        for _, _, template in row_templates:
            if template is not None:
                unique.setdefault(f"{template.entry}\n{template.pattern}", template)
    return list(unique.values())


def declined_wordings(page) -> list[tuple[str, str]]:
    """(row, wording) for each other wording that does not say its row on its own: it fits what a
    near miss printed (torch 1.7's `expected scalar type Float but found Double` is a
    convolution's too). templates_for leaves it out, or keeps it for a paste that shows one of
    the row's calls (`called_through`)."""
    return [(row_id, said) for row_id, row_templates in _row_templates(page)
            for kind, said, template in row_templates
            if kind == "wording" and (template is None or template.needs_call)]


def _row_templates(page) -> list[tuple[str, list[tuple[str, str, Template | None]]]]:
    """Each row's (kind, what it was compiled from, its template or None when a near miss's
    message fits it), in page order. Kinds: fragment, partial, frame, wording, said."""
    outputs = [(row_id, fold(message)) for row_id, message in _recorded_messages(page)]
    near_misses = [fold(message) for message in _near_miss_messages(page)]
    rows = []
    for section in page.sections:
        if section.kind not in ("errors", "symptoms"):
            continue
        for entry in section.entries:
            printed = (_own_templates(entry, near_misses) + _wording_templates(entry, outputs, near_misses)
                       if section.kind == "errors" else [])
            # How readers tell it in their own words (`said_as`), a symptom or an error.
            said = [("said", said, compile_description(entry.id, said)) for said in entry.said_as]
            rows.append((entry.id, printed + said))
    return rows


def _structure(entry) -> dict:
    return {"key_prefixes": entry.key_prefixes, "not_with": entry.not_with, "sizes_differ": entry.sizes_differ}


def _own_templates(entry, near_misses: list[str]) -> list[tuple[str, str, Template | None]]:
    """The row's fragment's template, then the partial ones (head, tail, a paragraph, or the
    second line of its own) of its fragment and of each whole message a release printed around
    it, then one for each function only its situation runs through (its `frames`)."""
    whole, *partials = compile_templates(entry.id, entry.fragment, entry.own_names, entry.second_line,
                                         **_structure(entry))
    # The head and tail of the whole message each release printed around the row's text
    # (`… To work around you can make a clone …` after `Inference tensors cannot be saved
    # for backward.`): a paste with a slip in its first words still shows the rest.
    for message in _printed_messages(entry, whole):
        partials += compile_templates(entry.id, message, entry.own_names, entry.second_line, **_structure(entry))[1:]
    # Each paragraph of a message printed over several lines under its exception's name
    # (`RuntimeError: ` and then Python's bootstrapping text): a paste of one paragraph. And for
    # a row told apart by its second line, the first line a release printed when it says more
    # than the fragment: torch 2.6's `Weights only load failed. This file can still be loaded,
    # to do so you have two options …` is printed only for a global not allowed, the row's case.
    for paragraph in _message_paragraphs(entry, whole) + _first_lines_beyond(entry):
        if (template := compile_paragraph(entry.id, paragraph, entry.own_names)) is not None:
            partials.append(template)
    frames = [("frame", function, compile_frame(entry.id, function)) for function in entry.frames]
    return [("fragment", entry.fragment, whole)] + [
        ("partial", template.pattern, None if _fits_any(template, near_misses) else template) for template in partials
    ] + frames


def _wording_templates(entry, outputs: list[tuple[str, str]],
                       near_misses: list[str]) -> list[tuple[str, str, Template | None]]:
    """Another release's (or call path's, or a real paste's) wording, taken whole: its head may
    be what many messages start with (`Expected object of scalar type Float but`), where the
    fragment's head is the author's choice."""
    program = entry.reproducer
    variant_names = dict(program.variant_own_names) if program else {}
    others = [message for row_id, message in outputs if row_id != entry.id]
    wordings = [(wording, [name for path in paths for name in variant_names.get(path, ())], releases, None)
                for wording, releases, paths in entry.releases.wordings]
    wordings += [(seen.wording, seen.own_names, (), seen.torch or "0.x")
                 for seen in program.seen_in_the_wild] if program else []
    # Seen in the wild where other mistakes printed the same words (pipeline checks that the
    # row names its calls).
    shared = {seen.wording for seen in program.seen_in_the_wild if seen.needs_call} if program else set()
    compiled = [_told_apart(entry.id, wording, [*entry.own_names, *names], others, _structure(entry), near_misses)
                for wording, names, *_ in wordings]
    # Wordings that differ only in a slot (the source path after ` at `) are one template: it
    # was printed by every release that printed any of them.
    printed_by: dict[str, tuple[set[str], set[str]]] = {}
    for (*_, releases, wild), template in zip(wordings, compiled):
        runs, seen = printed_by.setdefault(template.pattern, (set(), set()))
        runs.update(releases)
        seen.update([wild] if wild else [])
    templates = []
    for (wording, *_), template in zip(wordings, compiled):
        template = template._replace(said_by=said_by(*printed_by[template.pattern]))
        if wording in shared or _fits_any(template, near_misses):
            # Printed by a near miss too: the row's only where the paste shows its call.
            template = template._replace(needs_call=True) if entry.called_through else None
        templates.append(("wording", wording, template))
    return templates


def said_by(releases: set[str], seen_in_the_wild: set[str]) -> str:
    """Who printed a wording, for the reader told that their paste reads otherwise than the row:
    `torch 1.0.1–1.7.1` (the first and last release of the matrix that printed it), else the
    releases real pastes of it named (`seen_in_the_wild`: not reproduced here)."""
    if releases:
        ordered = sorted(releases, key=release_key)
        return f"torch {ordered[0]}" + (f"–{ordered[-1]}" if len(ordered) > 1 else "")
    return f"torch {'、'.join(sorted(seen_in_the_wild))}（公开报告里见过，这里没能复现）"


def _fits_any(template: Template, messages: list[str]) -> bool:
    """Whether the lookup would say the template's row for one of the (folded) messages."""
    return any(best_fit([template], message) for message in messages)


def _told_apart(entry: str, wording: str, own_names, others: list[str], structure: dict,
                near_misses: list[str]) -> Template:
    """_loosest's template; where a near miss's message fits it, the same with the numbers its
    bracketed lists repeat tied, when that tells them apart: bmm's `[10, 360] but got: [10, 264]`
    (the same batch, another inner size) beside its batch near miss's `[1, 768] but got: [2, 768]`."""
    template = _loosest(entry, wording, own_names, others, structure)
    if _fits_any(template, near_misses):
        tied = _loosest(entry, wording, own_names, others, {**structure, "tie_repeats": True})
        if not _fits_any(tied, near_misses) and best_fit([tied], fold(wording)):
            return tied
    return template


def _loosest(entry: str, wording: str, own_names, others: list[str], structure: dict) -> Template:
    # (`others`: the other rows' recorded messages, folded.)
    """A wording's template with the row's own names as slots (`Half` where torch 1.4 printed
    `Float`), unless that would fit what another row's reproducer printed (torch 1.7's
    `expected scalar type Float but found Double`, with both dtypes open, is every dtype error):
    then with its words as printed."""
    loose = compile_template(entry, wording, own_names, **structure)
    if own_names and _fits_any(loose, others):
        return compile_template(entry, wording, **structure)
    return loose


def _text_runs(entry) -> list:
    """The row's own runs (not a variant's) that printed its text, verbatim or folded."""
    return [run for run in entry.releases.runs if run.variant is None and run.shown_as in ("verbatim", "folded")]


def _printed_messages(entry, whole: Template) -> list[str]:
    """The whole message line of each run that printed the row's text (the line of its excerpt
    that names an exception and that the row's template fits), once each; none for a row told
    apart by a second line."""
    if entry.second_line:
        return []
    return [line for line in _exception_lines(entry) if best_fit([whole], fold(line))]


def _first_lines_beyond(entry) -> list[str]:
    """For a row told apart by its second line: the message of each exception line its runs
    printed that holds the fragment's message and goes on past it, once each."""
    if not entry.second_line:
        return []
    own = fold(split_exception(entry.fragment)[1])
    messages = dict.fromkeys(split_exception(line[EXCEPTION_LINE.search(line).start():])[1]
                             for line in _exception_lines(entry))
    return [message for message in messages if fold(message).startswith(own) and len(fold(message)) > len(own)]


def _exception_lines(entry) -> list[str]:
    """The lines of the row's own runs' excerpts that name an exception, once each."""
    lines = (line for run in _text_runs(entry) for line in (run.excerpt or "").splitlines())
    return list(dict.fromkeys(line for line in lines if EXCEPTION_LINE.search(line)))


# An exception's name with nothing after it: its message follows on the next lines.
_NAME_ALONE = re.compile(r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception): *$")
# Where such a message ends: another traceback, a chained exception's line, a frame.
_MESSAGE_END = re.compile(r"^\s*(?:Traceback \(most recent call last\)|During handling of the above|"
                          r"The above exception was|File \")")


def _message_paragraphs(entry, whole: Template) -> list[str]:
    """The paragraphs of the message each run printed on the lines after its exception's bare
    name, when the row's template fits that message; once each."""
    paragraphs = []
    for run in _text_runs(entry):
        lines = (run.output or "").splitlines()
        for index, line in enumerate(lines):
            if not _NAME_ALONE.match(line):
                continue
            end = next((at for at in range(index + 1, len(lines)) if _MESSAGE_END.match(lines[at])), len(lines))
            message = "\n".join(lines[index + 1:end])
            if not best_fit([whole], fold(" ".join(message.split()))):
                continue
            paragraphs += [" ".join(part.split()) for part in re.split(r"\n\s*\n", message) if part.strip()]
    return list(dict.fromkeys(paragraphs))


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


def _near_miss_messages(page) -> list[str]:
    """What every row's near misses printed as their error, every release, once each."""
    messages = (run.near_miss_error for row in page.rows("errors") for run in row.releases.near_miss_runs)
    return list(dict.fromkeys(message for message in messages if message))


# An error's text, not an API's name: `CUDA out of memory` is one, `torch.compile` is not (a
# message starting with that name is any compile error, not what 九 leaves out).
LEFT_OUT_HEAD_WORDS = 3


def left_out_heads(page) -> list[list]:
    """[row, folded error, anywhere] for each error a row of 九 names: a code span of its category
    of at least LEFT_OUT_HEAD_WORDS words (`CUDA out of memory`), which a message starting with it
    is; and each of its `printed_as` (another release's words, a log line's), distinctive enough
    to say it anywhere in a paste (`anywhere` true). Such a paste is an error the page says it
    leaves out (pytorch_error_lookup.lookup.Page.left_out)."""
    heads = []
    for row in page.rows("not-covered"):
        heads += [[row.id, fold(span.text), False] for span in parse_inline(row.category)
                  if span.kind == "code" and len(span.text.split()) >= LEFT_OUT_HEAD_WORDS and has_substance(span.text)]
        heads += [[row.id, fold(printed), True] for printed in row.printed_as]
    return heads


def rules_script(page) -> str:
    payload = {"templates": [template.as_json() for template in templates_for(page)], "paste": PASTE_RULES,
               # The code each row's context names: a pasted traceback that never passes
               # through it rules the row out (pytorch_error_lookup.lookup.off_context).
               "context_code": {row.id: list(row.context_code) for row in page.rows("errors") if row.context_code},
               "called_through": {row.id: list(row.called_through) for row in page.rows("errors")
                                  if row.called_through},
               # What shows a cause the row does not explain (lookup.shows_other_cause).
               "unless_shown": {row.id: list(row.unless_shown) for row in page.rows("errors") if row.unless_shown},
               # What a paste must show to be the row's (lookup.lacks_own_context).
               "only_if_shown": {row.id: list(row.only_if_shown) for row in page.rows("errors") if row.only_if_shown},
               # Why such a row is only suggested, in the reader's words (lookup.why_not_said).
               "not_said_because": NOT_SAID_BECAUSE,
               # What shows each of a row's other causes, in the list's order ([] for one that
               # names nothing), and what the box says then (lookup.other_cause_remark).
               "other_causes_shown_by": {row.id: [list(other.shown_by) for other in row.other_causes]
                                         for row in page.rows("errors")
                                         if any(other.shown_by for other in row.other_causes)},
               "other_cause_shown": OTHER_CAUSE_SHOWN,
               # The errors the page names as left out (九): a message starting with one is that row's.
               "left_out_heads": left_out_heads(page)}
    return f"globalThis.{RULES_GLOBAL}={json.dumps(payload, ensure_ascii=False, separators=(',', ':'))};\n"


def write_rules(pages: Iterable, site_dir: str | Path) -> list[Path]:
    written = []
    for page in pages:
        target = Path(site_dir) / RULES_URL_PATTERN.format(key=page.key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rules_script(page), encoding="utf-8")
        written.append(target)
    return written
