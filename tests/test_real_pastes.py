"""The set of real pastes is scored, not tested (benchmarks/real_pastes.py); what is tested is
that it says what its header says, so that a label naming a row that was renamed, or a paste
added twice, is caught here and not counted as the lookup's mistake."""

from __future__ import annotations

import real_pastes
from pytorch_error_lookup.lookup import Lookup

PASTES = real_pastes.load()
GROUPS = {"covered", "near", "uncovered"}
SHAPES = {"line", "traceback", "prose", "symptom", "partial", "log", "notebook"}
FIELDS = {"source", "lands_on", "group", "torch", "truncated", "shape", "damage", "note", "paste", "part"}


def test_each_thread_gives_one_paste():
    sources = [paste["source"] for paste in PASTES]
    assert len(sources) == len(set(sources)), sorted(source for source in set(sources) if sources.count(source) > 1)
    assert all(source.startswith(("https://", "http://")) for source in sources)


def _problems(paste: dict, entries: dict) -> list[str]:
    problems = []
    if set(paste) - {"language"} != FIELDS:
        problems.append(f"fields {sorted(set(paste) ^ FIELDS)}")
    if paste["group"] not in GROUPS or paste["shape"] not in SHAPES:
        problems.append(f"group {paste['group']!r}, shape {paste['shape']!r}")
    if paste["group"] == "covered":  # a row that explains it, never one of 九's (what is left out)
        if paste["lands_on"] not in entries or entries[paste["lands_on"]]["kind"] == "not-covered":
            problems.append(f"lands_on {paste['lands_on']!r} is no row that explains")
    elif paste["lands_on"] is not None:
        problems.append(f"a {paste['group']} paste lands on {paste['lands_on']!r}")
    if not isinstance(paste["truncated"], bool) or not (paste["torch"] is None or isinstance(paste["torch"], str)):
        problems.append("truncated or torch of the wrong type")
    if not (isinstance(paste["paste"], str) and paste["paste"].strip()) or not isinstance(paste["damage"], list):
        problems.append("no paste, or damage not a list")
    if not str(paste["note"]).strip():
        problems.append("no note")
    return problems


def test_each_paste_is_labelled_as_the_header_says():
    entries = Lookup.installed().pages[0].entry_by_id
    wrong = {paste["source"]: problems for paste in PASTES if (problems := _problems(paste, entries))}
    assert not wrong, wrong
