"""A paste as readers make it: one normalisation (pytorch_error_lookup.paste) for the terminal, the
notebook and the page (find-paste.js), held to tests/fixtures/paste_cases.yml and to each other."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

import real_pastes
from find_support import INPUT, current_entries, open_reference, paste, status
from pytorch_error_lookup.lookup import Lookup
from pytorch_error_lookup.paste import (PASTE_RULES, ends_unfinished, frame_files, in_words, message_missing, reduce_paste,
                                        shown_frames, shows_frames)

CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "paste_cases.yml").read_text(encoding="utf-8"))
CASE_IDS = [f"{index}-{case['kind']}" for index, case in enumerate(CASES)]


def as_written(text: str) -> list[list[str]]:
    return [list(error.readings) for error in reduce_paste(text)]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_paste_shape_reduces_to_its_errors(case):
    assert as_written(case["paste"]) == case["errors"]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_paste_shape_gets_its_answer(case):
    answer = Lookup.installed()(case["paste"])
    first = answer.ids[0] if answer.ids and answer.verdict in ("literal", "match") else None
    assert (answer.verdict, first, answer.others) == (case["verdict"], case["first"], case["others"])
    assert answer.message_missing == case.get("message_missing", False)


def test_the_cases_come_from_the_tune_part_or_say_they_are_constructed():
    tune = {paste["source"] for paste in real_pastes.load(real_pastes.TUNE)}
    for case in CASES:
        assert case["source"] == "constructed" or case["source"] in tune, case["source"]


def test_a_json_string_is_unescaped_but_a_windows_path_is_not():
    # (Quoted whole, its message is read a second time without the quotes.)
    assert as_written('"RuntimeError: boom\\nat line 2"') == [['"RuntimeError: boom at line 2"', "RuntimeError: boom at line 2"]]
    path = "RuntimeError: size mismatch at c:\\users\\new-builder\\aten\\src"
    assert as_written(path) == [[path]]


def test_a_warning_before_a_traceback_is_part_of_that_error_not_another():
    [error] = reduce_paste("x.py:3: UserWarning: slow\nTraceback (most recent call last):\n"
                           '  File "x.py", line 4, in <module>\nRuntimeError: boom')
    assert error.text == "x.py:3: UserWarning: slow RuntimeError: boom"


def test_an_empty_or_frames_only_paste_has_no_error():
    assert reduce_paste("") == []
    frames = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n    f()'
    assert reduce_paste(frames) == []
    said = [(answer.verdict, answer.page, answer.ids, answer.message_missing)
            for answer in (Lookup.installed()("   \n "), Lookup.installed()(frames))]
    assert said == [("none", None, (), False), ("none", None, (), True)]  # the frames: says the message is missing


def test_a_cut_traceback_whose_last_words_the_page_explains_is_answered_not_told_it_is_cut():
    # The reader dropped `RuntimeError: ` but kept the message: that lands.
    answer = Lookup.installed()('  File "x.py", line 3, in <module>\n    x @ w\nmat1 and mat2 shapes cannot be multiplied (8x16 and 32x10)')
    assert (answer.verdict, answer.ids[:1], answer.message_missing) == ("match", ("matmul-shapes",), False)


def _recorded_compile_output() -> str:
    """torch 2.13.0's own output for guard-data-dependent's torch.export run (data/): the
    exception, then Dynamo's `from user code:` frames, then its hint."""
    results = yaml.safe_load((Path(__file__).parents[1] / "data/pytorch/verification.yml").read_text(encoding="utf-8"))
    return results["results"]["guard-data-dependent/dynamo-export"]["output"]


# Line breaks the two engines' `^`/`$` read apart (a lone CR, U+2028), after a frame.
ODD_BREAKS = ['Traceback (most recent call last):\n  File "a.py", line 1, in <module>\r    f()\rFooError: bar',
              'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n x\u2028Killed',
              'Traceback (most recent call last):\r\n  File "a.py", line 1, in <module>\r\nRuntimeError: x\r\n']


def test_a_traceback_ends_unfinished_when_nothing_after_its_start_names_an_error():
    """Cut before its exception (the real paste, tune part) it is unfinished; torch.compile's
    layout, whose `from user code:` frames follow the exception (a real run), is whole, as is
    a worker's envelope whose `Original Traceback` ends in its error."""
    cut = real_pastes.texts_by_source()["https://github.com/TencentARC/GFPGAN/issues/271"]
    assert ends_unfinished(cut)
    compiled = _recorded_compile_output()
    assert "from user code:" in compiled and not ends_unfinished(compiled)
    envelope = ('Traceback (most recent call last):\n  File "t.py", line 9, in <module>\n'
                "RuntimeError: Caught RuntimeError in DataLoader worker process 0.\n"
                'Original Traceback (most recent call last):\n  File "collate.py", line 1, in default_collate\n')
    assert ends_unfinished(envelope) and not ends_unfinished(envelope + "RuntimeError: stack expects each tensor")
    assert [ends_unfinished(text) for text in ODD_BREAKS] == [False, True, False]


def test_a_chinese_query_is_a_description_unless_it_quotes_an_error():
    assert in_words("训练集精度比验证集低那么多")
    assert in_words("onnx 模型推理结果和pt推理结果不一致？")  # a name or two is still the reader's words
    # From real threads (the tune part): an exception's name, or a run of an error's words.
    assert not in_words("IndexError: index out of range in self 是什么原因呢.")
    assert not in_words("训练时报错 RuntimeError.")  # a name at a sentence's end
    assert not in_words("发生异常: RuntimeError unsupported operation: some elements of the input tensor")
    assert not in_words("运行到loss时报错： Expected object of type torch.FloatTensor but found type torch.LongTensor")


def test_the_rules_are_plain_json_data():
    import json

    assert json.loads(json.dumps(PASTE_RULES)) == PASTE_RULES


# ── The page reads pastes the same way ──────────────────────────────────────────────────────

@pytest.mark.browser
def test_the_page_reduces_every_paste_exactly_as_python_does(page, site_url):
    texts = [case["paste"] for case in CASES] + [paste["paste"] for paste in real_pastes.load(real_pastes.TUNE)]
    open_reference(page, site_url)
    in_browser = page.evaluate(
        """async (texts) => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { reducePaste, messageMissing, inWords, endsUnfinished, shownFrames, showsFrames, frameFiles } =
                await import(new URL("find-paste.js", base));
            const { loadPasteRules } = await import(new URL("find-verdict.js", base));
            const rules = await loadPasteRules(document.querySelector("[data-find]").dataset.findPage);
            return texts.map((text) => {
                const errors = reducePaste(text, rules);
                return [errors.map((e) => e.readings), messageMissing(text, errors, rules),
                        errors.map((e) => inWords(e.text, rules)), endsUnfinished(text, rules), shownFrames(text, rules),
                        showsFrames(text, rules), frameFiles(text, rules)];
            });
        }""",
        texts + ODD_BREAKS + [_recorded_compile_output()],
    )
    for text, (errors, missing, described, unfinished, frames, any_frame, files) in zip(
            texts + ODD_BREAKS + [_recorded_compile_output()], in_browser):
        assert errors == as_written(text), text[:120]
        assert missing == message_missing(text, reduce_paste(text)), text[:120]
        assert described == [in_words(error.text) for error in reduce_paste(text)], text[:120]
        assert unfinished == ends_unfinished(text), text[:120]
        assert frames == shown_frames(text), text[:120]
        assert (any_frame, files) == (shows_frames(text), list(frame_files(text))), text[:120]


@pytest.mark.browser
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_a_paste_event_gives_the_box_the_terminals_answer(page, site_url, case):
    answer = Lookup.installed()(case["paste"])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, case["paste"])
    if answer.message_missing:  # nothing to look up: the box stays empty and says what is missing
        page.wait_for_function("(note) => document.querySelector('[data-find-status]').textContent.includes(note)",
                               arg=PASTE_RULES["missing_message_note"])
        assert page.input_value(INPUT) == ""
        return
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    assert page.input_value(INPUT) == answer.query  # one line: the error the terminal answered
    verdict = page.get_attribute("[data-find]", "data-find-verdict")
    assert verdict == answer.verdict
    if verdict == "match":
        page.press(INPUT, "Enter")
    if verdict in ("literal", "match"):
        page.wait_for_selector('[data-entry][aria-current="true"]')
        assert current_entries(page)[0] == answer.ids[0]
    if answer.others:
        assert f"粘贴里共有 {answer.others + 1} 条报错" in status(page)
    page.wait_for_function("() => new URLSearchParams(location.search).get('find') !== null")
    assert parse_qs(urlparse(page.url).query)["find"] == [answer.query]


@pytest.mark.browser
def test_a_query_too_long_to_show_is_shown_cut_and_answered_whole(page, site_url):
    """A message of 80,000 missing keys (2 MB): laying it out in the box would take longer than
    answering it, so the box shows its start, answers the whole (the terminal's answer: the
    list's structure is read to its end), and leaves it out of the URL. Typing replaces it."""
    keys = ", ".join(f'"layer{i}.conv.weight"' for i in range(80_000))
    text = f"RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: {keys}."
    answer = Lookup.installed()(text)
    assert (answer.verdict, answer.ids[:1]) == ("match", ("missing-keys",))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, text)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    shown = page.input_value(INPUT)
    assert shown.endswith("…") and answer.query.startswith(shown[:-1]) and len(shown) <= 10_001
    assert page.get_attribute("[data-find]", "data-find-verdict") == "match"
    assert f"框里只显示开头，查的是全文（{len(answer.query)} 字）" in status(page)  # and says so
    page.press(INPUT, "Enter")
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert current_entries(page)[0] == "missing-keys"
    page.wait_for_timeout(500)  # the URL is written once the reader pauses
    assert "find" not in parse_qs(urlparse(page.url).query)
    # The shown start, edited, is the query then: as cut, it ends in the middle of a key.
    page.fill(INPUT, shown[:-1])
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'weak'")


@pytest.mark.browser
def test_a_query_that_switches_script_often_is_shown_cut_sooner_and_answered_whole(page, site_url):
    """A text field lays out each change between Latin and Han as a run of its own: the box shows
    at most 200 runs of Han (find.js SHOWN_RUNS), far fewer than 10,000 characters here, and
    answers the whole query as the terminal does."""
    text = "训练时 loss 一直不下降，" + "第 1 个 epoch loss 下降 " * 400
    answer = Lookup.installed()(text)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    paste(page, text)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    shown = page.input_value(INPUT)
    assert shown.endswith("…") and answer.query.startswith(shown[:-1])
    assert len(re.findall(r"[^\u0000-\u024f]+", shown[:-1])) == 200 and len(shown) < 2_000
    assert page.get_attribute("[data-find]", "data-find-verdict") == answer.verdict


@pytest.mark.browser
def test_a_key_typed_while_a_long_paste_is_read_is_kept_and_the_paste_goes_to_the_caret(page, site_url):
    """A paste of 20,000 characters or more is read in steps, the page answering input between
    them: a key typed meanwhile stays in the box, the paste goes where the caret then is, and the
    box answers what it holds. (The key is typed from a task of input's priority that the paste
    queues: Playwright sends a real key only once the paste's answer is done.)"""
    keys = ", ".join(f'"layer{i}.conv.weight"' for i in range(40_000))
    text = f"RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: {keys}."
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    page.evaluate("""() => {
        const box = document.querySelector('[data-find-input]');
        const typeX = () => {
            box.setRangeText('x', box.selectionStart, box.selectionEnd, 'end');
            box.dispatchEvent(new Event('input', { bubbles: true }));
        };
        window.addEventListener('paste', () => scheduler.postTask(typeX, { priority: 'user-blocking' }), { capture: true, once: true });
    }""")
    paste(page, text)
    page.wait_for_function("() => document.querySelector('[data-find-input]').value.length > 1")
    shown = page.input_value(INPUT)
    assert shown == "x" + Lookup.installed()(text).query[:10_000] + "…", shown[:80]
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'weak'")


# Queued from the paste event at input's priority, so that it runs while a long paste is read
# (Playwright sends a real key only once the paste's answer is done).
DURING_THE_READING = """(key) => {
    const box = document.querySelector('[data-find-input]');
    const press = () => box.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    window.addEventListener('paste', () => scheduler.postTask(press, { priority: 'user-blocking' }), { capture: true, once: true });
}"""
# Resolves once the page has no task left: a paste being read has landed or been dropped.
IDLE = "() => new Promise((done) => requestIdleCallback(() => requestIdleCallback(done)))"


@pytest.mark.browser
def test_escape_while_a_long_paste_is_read_drops_it_and_a_second_paste_replaces_it(page, site_url):
    keys = ", ".join(f'"layer{i}.conv.weight"' for i in range(40_000))
    text = f"RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: {keys}."
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    page.evaluate(DURING_THE_READING, "Escape")
    paste(page, text)
    page.evaluate(IDLE)
    assert page.input_value(INPUT) == "" and not page.get_attribute("[data-find]", "data-find-verdict")
    # Two pastes in a row: the box holds the second's answer, not both cut copies run together.
    page.evaluate("""(text) => {
        const box = document.querySelector('[data-find-input]');
        const pasteOf = (content) => { const data = new DataTransfer(); data.setData('text/plain', content);
            return new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }); };
        box.focus();
        box.dispatchEvent(pasteOf(text));
        box.dispatchEvent(pasteOf('RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)'));
    }""", text)
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    page.evaluate(IDLE)
    assert page.input_value(INPUT) == "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"
    assert page.get_attribute("[data-find]", "data-find-verdict") == "match"
