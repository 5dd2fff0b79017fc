"""Rules the page (JavaScript) and the terminal (Python) both apply, held equal: a change on one
side of a twin fails here or in the test named below. Every twin, in one place:

| rule | Python | JavaScript | held by |
| --- | --- | --- | --- |
| folding tables (quotes, invisible characters) | textfold.QUOTES, INVISIBLE_CLASS | find-textfold.js | test_find_textfold.py |
| ranked search tokenizer | textfold.tokenize | find-tokenize.js | test_find_tokenize.py |
| ranking scores | lunr.py | find-rank.js | test_find_rank.py |
| ranking limits | rank.MAX_SUGGESTIONS, COMMON_TERM_SHARE, STOP_WORDS | find-rank.js | here |
| ranking scores and order (no lunr at run time) | rank.Ranker | find-rank.js Ranker | test_find_rank.py |
| decision rule (templates, verdict order) | rule.py | find-verdict.js (patterns and templates are data from rule.py) | test_find_verdict.py |
| paste reduction | paste.py | find-paste.js (its patterns are data from paste.PASTE_RULES) | test_paste.py |
| text only in 九 is `weak` (on the page, not explained) | lookup.Page.explains | find-matches.js | here |
| a message starting with an error 九 names, or holding words 九 says it is printed in (`printed_as`), is that row's, left out | lookup.Page.left_out | find-verdict.js leftOutRow (the errors named are data from find_rules) | here |
| the "differs" kinds of the release view | model.DIFFERING_KINDS | release-view.js DIFFERS | here |
| how a row came out on a release | lookup.run_on | release-view.js seenOn | here |
| a pasted traceback rules out a row it never passes through the context of | lookup.off_context | find-verdict.js offContextRows (the rows' context code is data from find_rules) | here |
| a paste showing a row's call lets a wording a near miss prints too say that row | lookup.shows_call | find-verdict.js calledRows (the rows' calls are data from find_rules) | here |
| what is said beside a row when a paste shows one of its other causes | lookup.other_cause_remark | find-verdict.js otherCauseRemarks (what shows each cause, and the sentence, are data from find_rules) | here |
| a traceback cut before its message | paste.message_missing | find-paste.js messageMissing | test_paste.py |
| a traceback that ends unfinished: it rules out no row's context | paste.ends_unfinished | find-paste.js endsUnfinished | test_paste.py |
| a paste's frames (file, function), as Python and IPython print them | paste.frames_of, frame_files, shows_frames, shown_frames | find-paste.js framesOf, frameFiles, showsFrames, shownFrames | test_paste.py |
| a Chinese query is a description unless it quotes an error | paste.in_words | find-paste.js inWords | test_paste.py |
"""

from __future__ import annotations

import pytest

from find_support import INPUT, open_reference
from pytorch_error_lookup import lookup, rank
from pytorch_error_lookup.lookup import Lookup, run_on
from refsite.model import DIFFERING_KINDS

pytestmark = pytest.mark.browser

LOOKUP = Lookup.installed()
PAGE = LOOKUP.pages[0]

IMPORT_JS = """async (module) => {
    const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
    return await import(new URL(module, base));
}"""


def js_exports(page, module: str, names: list[str]) -> dict:
    return page.evaluate(f"""async () => {{
        const module = await ({IMPORT_JS})({module!r});
        return Object.fromEntries({names!r}.map((name) => [name,
            module[name] instanceof Set ? [...module[name]] : module[name]]));
    }}""")


def test_the_ranking_limits_are_the_same(page, site_url):
    open_reference(page, site_url)
    js = js_exports(page, "find-rank.js", ["MAX_SUGGESTIONS", "COMMON_TERM_SHARE"])
    assert (js["MAX_SUGGESTIONS"], js["COMMON_TERM_SHARE"]) == (rank.MAX_SUGGESTIONS, rank.COMMON_TERM_SHARE)
    # The stop words come with the index (find_index.compact_index): the page's ranker leaves out
    # the very terms the terminal's does, and those are rank.STOP_WORDS.
    js_stop = page.evaluate(f"""async () => {{
        const {{ loadRanker }} = await ({IMPORT_JS})("find-rank.js");
        const ranker = await loadRanker(document.querySelector("[data-find]").dataset.findPage);
        return [...ranker.termNumbers.keys()].filter((term) => ranker.discriminating([term]).length === 0);
    }}""")
    ranker = PAGE.ranker
    python_stop = [term for term in ranker.term_numbers if not ranker.discriminating([term])]
    assert sorted(js_stop) == sorted(python_stop) and set(python_stop) <= rank.STOP_WORDS
    assert {"and", "the", "that"} <= set(python_stop)


def test_the_differs_kinds_are_the_same(page, site_url):
    open_reference(page, site_url)
    assert sorted(js_exports(page, "release-view.js", ["DIFFERS"])["DIFFERS"]) == sorted(DIFFERING_KINDS)


def test_how_a_row_came_out_on_each_release_is_read_alike(page, site_url):
    """The page's release view reads each row's `data-releases` line; the terminal reads the
    lookup's data. For every row and every release of the matrix they must agree."""
    open_reference(page, site_url)
    lines = page.eval_on_selector_all(
        "[data-entry]", "rows => rows.map(row => [row.id, row.querySelector('[data-releases]')?.dataset.releases])")
    releases = sorted({run["release"] for entry in PAGE.entries for run in entry.get("releases", ())})
    assert len(releases) >= 13
    seen = page.evaluate(f"""async (lines) => {{
        const {{ seenOn }} = await ({IMPORT_JS})("release-view.js");
        return lines.filter(([, line]) => line).map(([id, line]) =>
            [id, {releases!r}.map((release) => seenOn(line, release))]);
    }}""", lines)
    assert seen
    for row_id, on_page in seen:
        entry = PAGE.entry_by_id[row_id]
        in_terminal = [(run := run_on(entry, release)) and run["seen"] for release in releases]
        assert on_page == in_terminal, row_id


def test_text_only_in_what_the_page_leaves_out_is_weak_on_both_sides(page, site_url):
    """九 says what the page does not cover: its words are on the page, but explain nothing."""
    left_out = [entry for entry in PAGE.entries if entry["kind"] == "not-covered"]
    explained = [entry for entry in PAGE.entries if entry["kind"] == "errors"][:3]
    assert left_out
    open_reference(page, site_url)
    for entry in left_out + explained:
        text = entry["fragment"]
        terminal = LOOKUP.answer(text, rank=False).verdict
        page.fill(INPUT, "")
        page.fill(INPUT, text)
        page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
        on_page = page.get_attribute("[data-find]", "data-find-verdict")
        assert on_page == terminal, (entry["id"], text, on_page, terminal)
        assert terminal == ("weak" if entry["kind"] == "not-covered" else "literal"), entry["id"]


def test_a_paste_shows_the_same_context(page, site_url):
    """Every paste of the real set and of the paste cases: the rows whose context its traceback
    never passes through, whose other cause it shows or whose own context it lacks, by
    lookup.off_context, shows_other_cause and lacks_own_context and by find-verdict.js
    offContextRows, otherCauseRows and unshownContextRows; the rows whose calls it shows, by
    lookup.shows_call and by calledRows; what is said beside a row whose listed other causes it
    shows, by lookup.other_cause_remark and by otherCauseRemarks."""
    import real_pastes
    import yaml
    from pathlib import Path

    cases = yaml.safe_load((Path(__file__).parent / "fixtures" / "paste_cases.yml").read_text(encoding="utf-8"))
    texts = [paste["paste"] for paste in real_pastes.load(real_pastes.TUNE)] + [case["paste"] for case in cases]
    texts += ['Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    import models\n'
              "ModuleNotFoundError: No module named 'models'"]
    # A frame in torch/onnx/ on Windows and on a path merely ending in `pytorch/onnx/`; a frame cut
    # before its `File `; a line of prose that only looks like one.
    onnx = "ModuleNotFoundError: No module named 'onnxscript'"
    texts += [f'  File "C:\\Python312\\Lib\\site-packages\\torch\\onnx\\_internal\\exporter\\_core.py", line 18, in <module>\n{onnx}',
              f'  File "/home/me/pytorch/onnx/export.py", line 18, in <module>\n{onnx}',
              f'"/home/me/app/export.py", line 9, in main\n    torch.onnx.export(model, x, "m.onnx")\n{onnx}',
              f'"hi", line 3 was bad, and then\n{onnx}']
    open_reference(page, site_url)
    in_browser = page.evaluate(
        f"""async (texts) => {{
            const {{ loadContextReader }} = await ({IMPORT_JS})("find-verdict.js");
            const read = await loadContextReader(document.querySelector("[data-find]").dataset.findPage);
            return texts.map((text) => {{
                const {{ skip, called, why, otherCauses }} = read(text);
                return [[...skip].sort(), [...called].sort(), Object.fromEntries(why), Object.fromEntries(otherCauses)];
            }});
        }}""",
        texts,
    )
    expected = [[sorted(entry["id"] for entry in PAGE.entries
                        if lookup.off_context(entry, text) or lookup.shows_other_cause(entry, text)
                        or lookup.lacks_own_context(entry, text)),
                 sorted(entry["id"] for entry in PAGE.entries if lookup.shows_call(entry, text)),
                 {entry["id"]: why for entry in PAGE.entries if (why := lookup.why_not_said(entry, text))},
                 {entry["id"]: remark for entry in PAGE.entries if (remark := lookup.other_cause_remark(entry, text))}]
                for text in texts]
    assert in_browser == expected
    # Both rules are exercised, not vacuous.
    assert any("load-module-not-found" in skip for skip, *_ in in_browser)
    assert any("matmul-dtype" in skip for skip, *_ in in_browser)  # `Half`: its unless_shown
    assert any("matmul-dtype" in called for _, called, *_ in in_browser)
    assert any("missing-attribute" in remarks for *_, remarks in in_browser)  # `no attribute 'module'`
    onnx_skips = ["onnx-needs-onnxscript" in skip for skip, *_ in in_browser[-4:]]
    assert onnx_skips == [False, True, False, False]  # in torch/onnx/; not; the call; no frame at all


def test_an_error_9_names_is_told_apart_alike(page, site_url):
    """The row of 九 a message starts with an error of (lookup.Page.left_out and leftOutRow), on
    every tune paste's reduced error."""
    import real_pastes

    queries = [LOOKUP(paste["paste"]).query for paste in real_pastes.load(real_pastes.TUNE)]
    queries += ["RuntimeError: CUDA out of memory. Tried to allocate 2 MiB", "CUDA out of memory.",
                "my hook ran after CUDA out of memory", "RuntimeError: torch.compile is not supported on Python 3.15+",
                "RuntimeError: Expected all tensors to be on the same device, but…",
                # Words 九 says its errors are printed in too (printed_as): anywhere in the paste.
                "[E626 06:24:44 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(…)",
                "RuntimeError: Expected object of backend CUDA but got backend CPU for argument #2 'mat2'"]
    open_reference(page, site_url)
    in_browser = page.evaluate(
        f"""async (queries) => {{
            const {{ leftOutRow, loadContextData, patternsOf }} = await ({IMPORT_JS})("find-verdict.js");
            const {{ foldQuery }} = await ({IMPORT_JS})("find-fold.js");
            const form = document.querySelector("[data-find]");
            const {{ leftOutHeads }} = await loadContextData(form.dataset.findPage);
            return queries.map((query) => leftOutRow(leftOutHeads, foldQuery(query), patternsOf(form)));
        }}""",
        queries,
    )
    assert in_browser == [PAGE.left_out(lookup.fold(query)) for query in queries]
    assert in_browser[-7:] == ["cuda-errors", "cuda-errors", None, None, "cuda-errors",
                               "distributed-timeouts", "cuda-errors"]
