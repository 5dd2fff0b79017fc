"""Bad data stops the build with messages naming file, line, entry and field."""

import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from refsite.load import DataError
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"
APPENDIX = "pytorch/appendix-a.yml"


@pytest.fixture
def data(tmp_path):
    """A private copy of data/ that a test may break."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    return copy


def edit(data: Path, name: str, old: str, new: str, count: int = 1) -> int:
    """Replace text in a data file; return the 1-based line where the edit starts."""
    path = data / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not in {name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def problems(data: Path) -> list[str]:
    with pytest.raises(DataError) as raised:
        load_site(data)
    return [str(problem) for problem in raised.value.problems]


def test_the_real_data_is_valid():
    load_site(DATA)


def test_yaml_syntax_error_names_where_the_construct_starts_and_where_it_was_noticed(data):
    line = edit(data, APPENDIX, "    lead: 不要只让报错消失", "    lead: [不要只让报错消失")
    [message] = problems(data)
    start = f"data/{APPENDIX}:{line}: field 'lead': is not valid YAML: while parsing a flow sequence (line {line}, column 11): "
    assert message.startswith(start), message
    # libyaml says "did not find expected ',' or ']'"; PyYAML's pure-Python parser says more.
    noticed = re.fullmatch(r".*expected ',' or '\]'.* \(line (\d+), column \d+\)", message[len(start):])
    assert noticed and int(noticed.group(1)) > line, message


def test_yaml_syntax_error_without_a_construct_names_where_it_was_noticed(data):
    line = edit(data, APPENDIX, "  minutes: 62", "  minutes: 62: 63")
    assert problems(data) == [
        f"data/{APPENDIX}:{line}: field 'minutes': is not valid YAML: mapping values are not allowed in this context (line {line}, column 14)"]


def plain_words(message: str) -> str:
    """The mistake as the message says it in plain words, first; the YAML parser's own words
    follow in brackets."""
    said, parser = message.split(": is not valid YAML: ", 1)[1].split(" (the YAML parser: ", 1)
    assert parser.endswith(")"), message
    return said


def test_a_quote_left_open_is_named_on_its_own_line(data):
    """PyYAML reads an unclosed quote on into the next lines and notices lines later: the
    message names the line that opened it, and says so."""
    line = edit(data, APPENDIX, 'cause: "`.item()` / `float()` 只能用在单元素张量上"',
                'cause: "`.item()` / `float()` 只能用在单元素张量上')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'item-multi-element': field 'cause': is not valid YAML: "), message
    assert plain_words(message) == f"the quote opened on line {line} is not closed on that line", message


def test_a_value_whose_opening_quote_was_forgotten_is_named(data):
    """`cause: text"` is valid YAML (text with a quote at its end) that no author means."""
    line = edit(data, APPENDIX, 'cause: "`.item()` / `float()` 只能用在单元素张量上"',
                'cause: 只能用在单元素张量上：`.item()` / `float()`"')
    assert problems(data) == [f"data/{APPENDIX}:{line}: entry 'item-multi-element': field 'cause': ends with a \" that "
                              'no quote opens: put the opening " after the colon, or, to keep the quote as text, write '
                              "the whole value in quotes"]


def test_a_value_starting_with_code_whose_opening_quote_was_forgotten_is_named(data):
    """README's example cause starts with code: without its opening quote it is not YAML at all
    (a value may not start with a backtick), and the message says so in plain words."""
    line = edit(data, APPENDIX, 'cause: "`.item()` / `float()` 只能用在单元素张量上"',
                'cause: `.item()` / `float()` 只能用在单元素张量上"')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'item-multi-element': field 'cause': is not valid YAML: "), message
    assert plain_words(message) == ('a value that starts with ` must be in quotes (YAML keeps ` for itself): this one ends '
                                    'with a " that no quote opens, so put the opening " after the colon'), message


def test_quotes_inside_an_unquoted_value_are_text(data):
    edit(data, APPENDIX, 'cause: "`.item()` / `float()` 只能用在单元素张量上"',
         'cause: 只能用在单元素张量上，见 "item"')
    load_site(data)


def test_a_field_indented_too_deep_is_named_on_its_line_with_its_entry(data):
    """PyYAML names where the row's mapping began; the mistake is the line indented otherwise."""
    line = edit(data, APPENDIX, '            cause: "广播对不齐。', '              cause: "广播对不齐。')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'broadcast-mismatch': field 'cause': is not valid YAML: "), message
    assert plain_words(message) == (f"line {line} is indented 14 spaces, where the keys of the mapping begun on "
                                    f"line {line - 2} are indented 12"), message


def test_a_field_indented_as_the_rows_dash_is_named_on_its_line_with_its_entry(data):
    """Indented as the `- ` of the rows, a field reads as a list item without its dash."""
    line = edit(data, APPENDIX, '            cause: "广播对不齐。', '          cause: "广播对不齐。')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'broadcast-mismatch': field 'cause': is not valid YAML: "), message
    said = plain_words(message)
    assert said.startswith(f"line {line} is indented 10 spaces, as the items of the list begun on line "), message
    assert said.endswith("are, but is not an item (`- `)"), message


NEW_ROW = '- id: new-row\n  fragment: "some new error text"\n  cause: "why"\n  chapters: ["02"]\n'


@pytest.mark.parametrize("indent", [12, 11, 8])
def test_a_new_row_indented_unlike_the_rows_is_named_on_its_own_line(data, indent):
    """README's step 2 (ten spaces before the row's `-`) got wrong: the message names the new
    row and its line, not the row or section PyYAML began reading at."""
    row = "".join(" " * indent + line + "\n" for line in NEW_ROW.splitlines())
    line = edit(data, APPENDIX, "          - id: grad-scalar-only\n", row + "          - id: grad-scalar-only\n")
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'new-row': is not valid YAML: "), message
    said = plain_words(message)
    assert said.startswith(f"line {line} is a list item") and said.endswith(" 10"), message  # where rows start


def test_a_field_dedented_to_the_sections_keys_is_blamed_not_the_next_row(data):
    """`chapters` at 8 spaces ends its row; PyYAML notices only at the next row's `- id:`."""
    line = edit(data, APPENDIX, '            chapters: ["02"]\n          - id: numpy-requires-grad',
                '        chapters: ["02"]\n          - id: numpy-requires-grad')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'grad-scalar-only': field 'chapters': is not valid YAML: "), message
    assert plain_words(message).endswith("so it ends the row begun on line "
                                         f"{line - 7} ('grad-scalar-only'); as a field of that row it is indented 12 spaces"), message


def test_a_tab_in_the_indentation_is_named(data):
    line = edit(data, APPENDIX, '            fragment: "grad can be implicitly', '\tfragment: "grad can be implicitly')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'grad-scalar-only': field 'fragment': is not valid YAML: "), message
    assert plain_words(message) == f"line {line} is indented with a tab: YAML indents with spaces only", message


def test_a_quoted_value_over_several_lines_is_not_blamed_for_a_mistake_after_it(data):
    """A quoted value may run over lines (the verifier's files have many): a mistake after it
    is placed as PyYAML places it, never on that quote."""
    edit(data, APPENDIX, 'cause: "⭐ 报错自带修法。注意 `.detach()` 之后还是共享内存的"',
         'cause: "⭐ 报错自带修法。\n              注意 `.detach()` 之后还是共享内存的"')
    load_site(data)  # valid as it is
    edit(data, APPENDIX, '之后还是共享内存的"\n            chapters: ["01", "04"]', '之后还是共享内存的"\n           chapters: ["01", "04"]')
    [message] = problems(data)
    assert "quote" not in message, message


def test_an_unreadable_reproducers_file_is_one_problem_not_one_per_recorded_run(data):
    """The runs' results name variants of reproducers.yml; with that file unreadable, only its
    own problem is listed, not hundreds of knock-on ones that push the cause off the screen."""
    text = (data / "pytorch/reproducers.yml").read_text(encoding="utf-8")
    (data / "pytorch/reproducers.yml").write_text(text + "\nbroken\n", encoding="utf-8")
    [message] = problems(data)
    assert message.startswith("data/pytorch/reproducers.yml:") and "is not valid YAML" in message, message


def test_a_row_for_an_error_the_page_lists_as_left_out_names_that_list(data):
    """A row for an error that 九 still lists as not covered (the seed's `Expected all tensors to
    be on the same device`, or whatever the page lists now): the page would say both, so the
    build names the row and the list."""
    import yaml

    page = yaml.safe_load((data / APPENDIX).read_text(encoding="utf-8"))
    left_out = [(entry["id"], span) for group in page["groups"] for section in group["sections"]
                if section.get("kind") == "not-covered" for entry in section["entries"]
                for span in re.findall(r"`([^`]+)`", entry["category"]) if " " in span.strip()]
    assert left_out, "九 lists no error by its words: nothing to test this against"
    listed_by, error = left_out[0]
    line = edit(data, APPENDIX, 'fragment: "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)"',
                f"fragment: {json.dumps(error + ', and more words')}")
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'matmul-shapes': field 'fragment': "
                              f"the not-covered row '{listed_by}' (line "), message
    assert "take it out of that list" in message


def test_missing_field_names_entry_and_field(data):
    line = edit(data, APPENDIX,
                '            cause: "对一个非标量调了 `backward()`。', '            reason: "对一个非标量调了 `backward()`。')
    messages = problems(data)
    assert f"data/{APPENDIX}:{line - 2}: entry 'grad-scalar-only': field 'cause': is required but missing" in messages
    assert any(f":{line}: entry 'grad-scalar-only': field 'reason': is not a known field" in m for m in messages)


def test_wrong_type_is_reported(data):
    line = edit(data, APPENDIX, "  minutes: 62", "  minutes: sixty-two")
    assert problems(data) == [
        f"data/{APPENDIX}:{line}: entry 'appendix-a': field 'minutes': must be a whole number, not text"]


def test_chapters_must_be_a_list_of_quoted_ids(data):
    line = edit(data, APPENDIX, '            chapters: ["05"]\n          - id: empty-parameter-list',
                '            chapters: 05\n          - id: empty-parameter-list')
    [message] = problems(data)
    assert message == (f"data/{APPENDIX}:{line}: entry 'assign-tensor-to-parameter': field 'chapters': "
                       "must be a list, not a number")


def test_a_chapter_id_written_without_quotes_is_told_to_be_quoted(data):
    """`[05]` is the number 5 to YAML: the message says how to keep it the text "05"."""
    line = edit(data, APPENDIX, '            chapters: ["05"]\n          - id: empty-parameter-list',
                '            chapters: [05]\n          - id: empty-parameter-list')
    [message] = problems(data)
    assert message == (f"data/{APPENDIX}:{line}: entry 'assign-tensor-to-parameter': field 'chapters[0]': "
                       'must be text, not a number (unquoted, YAML read it as the number 5: put it in quotes, as "05")')


def test_a_word_yaml_reads_as_true_or_false_is_told_to_be_quoted(data):
    line = edit(data, APPENDIX, "            context: 发生在 `torch.load` 里", "            context: no")
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry '")
    assert message.endswith("field 'context': must be text, not a boolean (unquoted, YAML reads no, yes, on and off "
                            "as true/false: put it in quotes)")


def test_duplicate_id_is_reported_with_both_lines(data):
    first = edit(data, APPENDIX, "          - id: grad-scalar-only", "          - id: grad-scalar-only")
    second = edit(data, APPENDIX, "          - id: numpy-requires-grad", "          - id: grad-scalar-only")
    messages = problems(data)
    assert (f"data/{APPENDIX}:{second}: entry 'grad-scalar-only': field 'id': "
            f"is used twice for a row, section or checkpoint (also on line {first}); ids must be unique") in messages
    # The renamed row's reproducer and verification results (of every release run kept) now point
    # at nothing: also reported.
    runs = sorted(f"data/pytorch/{path.name}" for path in (data / "pytorch").glob("verification*.yml"))
    assert sorted(m.split(":")[0] for m in messages) == [f"data/{APPENDIX}", "data/pytorch/reproducers.yml", *runs]
    # The cause comes first, what follows from it after.
    assert messages[0].startswith(f"data/{APPENDIX}:{second}: ")
    assert all("numpy-requires-grad" in m for m in messages if not m.startswith(f"data/{APPENDIX}"))


def test_dangling_chapter_id_is_reported(data):
    line = edit(data, APPENDIX, '            chapters: ["02", "04", "09"]', '            chapters: ["02", "12", "09"]')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'no-grad-fn': field 'chapters': chapter '12' does not exist")


def test_unknown_section_kind_is_reported(data):
    line = edit(data, APPENDIX, "        kind: not-covered", "        kind: uncovered")
    [message] = problems(data)
    assert message == (f"data/{APPENDIX}:{line}: entry 'not-covered': field 'kind': "
                       "must be one of 'errors', 'symptoms', 'not-covered', not 'uncovered'")


def test_duplicate_key_is_reported_not_silently_dropped(data):
    line = edit(data, APPENDIX, '            chapters: ["07"]\n',
                '            chapters: ["07"]\n            truth: 又写了一遍\n')
    assert problems(data) == [
        f"data/{APPENDIX}:{line + 1}: key 'truth' is written twice in one mapping; the first value would be lost"]


def test_a_fragment_must_stay_on_one_line(data):
    line = edit(data, APPENDIX, '            fragment: "Inference tensors cannot be saved for backward."',
                '            fragment: "Inference tensors cannot\\nbe saved for backward."')
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'inference-tensor-saved': field 'fragment':")
    assert "must be one line" in message


def test_related_link_needs_a_chapter_or_a_book(data):
    line = edit(data, APPENDIX, "    - id: link-python-bites\n      book: python-bites\n",
                "    - id: link-python-bites\n")
    [message] = problems(data)
    assert message == f"data/{APPENDIX}:{line}: entry 'link-python-bites': needs one of 'chapter' or 'book'"


def test_unknown_book_in_a_related_link(data):
    line = edit(data, APPENDIX, "      book: python-bites", "      book: python-bytes")
    [message] = problems(data)
    assert message.startswith(f"data/{APPENDIX}:{line}: entry 'link-python-bites': field 'book': book 'python-bytes'")


def test_a_missing_page_file_is_reported(data):
    (data / APPENDIX).unlink()
    assert problems(data) == [f"data/{APPENDIX}: is missing"]


def test_every_problem_is_collected_before_stopping(data):
    edit(data, APPENDIX, "  minutes: 62", "  minutes: -1")
    edit(data, APPENDIX, '            chapters: ["08"]', '            chapters: ["88"]', count=1)
    edit(data, "pytorch/book.yml", "    title: 怎么用这份教程\n", "")
    messages = problems(data)
    assert len(messages) == 3
    assert any("field 'minutes': must be at least 1" in m for m in messages)
    assert any("data/pytorch/book.yml" in m and "field 'title': is required but missing" in m for m in messages)


def test_a_reproducer_for_a_row_that_does_not_exist_is_reported(data):
    line = edit(data, "pytorch/reproducers.yml", "\nno-grad-fn:\n", "\nno-grad-fun:\n") + 1
    assert problems(data) == [
        f"data/pytorch/reproducers.yml:{line}: entry 'no-grad-fun': there is no row with this id in the book's pages"]


def test_a_wild_wording_that_needs_a_call_on_a_row_naming_none_is_reported(data):
    """`needs_call` keeps a wording for pastes that show one of the row's calls: a row without
    `called_through` would never say it, so the build names the wording's line and field."""
    edit(data, "pytorch/reproducers.yml", "      source: https://github.com/caogang/wgan-gp/issues/4\n",
         "      source: https://github.com/caogang/wgan-gp/issues/4\n      needs_call: true\n")
    line = (data / "pytorch/reproducers.yml").read_text(encoding="utf-8").split("\n").index("      needs_call: true") + 1
    assert problems(data) == [
        f"data/pytorch/reproducers.yml:{line}: entry 'no-grad-fn': field 'seen_in_the_wild.needs_call': "
        "the row names no calls (add `called_through` to row 'no-grad-fn' in its page)"]


def test_every_schema_declares_draft_2020_12_and_is_one():
    schemas = sorted((DATA / "schema").glob("*.schema.json"))
    assert len(schemas) >= 5
    for path in schemas:
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", path.name
        Draft202012Validator.check_schema(schema)


def test_a_keyed_entry_is_named_by_its_key(data):
    line = edit(data, "pytorch/reproducers.yml", "\nno-grad-fn:\n  code: |", "\nno-grad-fn:\n  simulation: x\n  platform: y\n  code: |") + 1
    assert problems(data) == [
        f"data/pytorch/reproducers.yml:{line}: entry 'no-grad-fn': must not have both 'simulation' and 'platform'"]


def verification_date_line(data: Path) -> tuple[int, str]:
    """The line of `date:` in verification.yml and the date written there, whatever run wrote it."""
    lines = (data / "pytorch/verification.yml").read_text(encoding="utf-8").splitlines()
    number = next(n for n, text in enumerate(lines, 1) if text.startswith("date: "))
    return number, lines[number - 1]


def test_a_date_written_without_quotes_is_reported_as_one(data):
    line, written = verification_date_line(data)
    edit(data, "pytorch/verification.yml", written, written.replace("'", ""))
    assert problems(data) == [
        f"data/pytorch/verification.yml:{line}: field 'date': must be text, not a date (quote it to keep it text)"]


def test_keywords_an_editor_checks_are_checked_by_the_build_too(data):
    # `format: date` was outside the hand-written subset: the build let any text through.
    line, written = verification_date_line(data)
    edit(data, "pytorch/verification.yml", written, "date: 'yesterday'")
    assert problems(data) == [f"data/pytorch/verification.yml:{line}: field 'date': 'yesterday' is not a 'date'"]


def test_what_shows_an_other_cause_is_checked_and_never_the_rows_own_text(data):
    """`shown_by`: each text one line of two characters or more, and none that the row's own
    text holds (every paste of the row would show it)."""
    own = edit(data, APPENDIX, '                shown_by: ["no attribute \'module\'"]',
               '                shown_by: ["object has no attribute", "x", " spaced"]')
    messages = problems(data)
    where = f"data/{APPENDIX}:{own}: entry 'missing-attribute': field 'other_causes[0].shown_by"
    assert any(m.startswith(f"{where}[0]': 'object has no attribute' is in the row's own text") for m in messages), messages
    assert any(m.startswith(f"{where}[1]': 'x' is too short: at least 2 characters") for m in messages), messages
    assert any(m.startswith(f"{where}[2]': ' spaced' is not allowed here: must be one line, with no space at either end")
               for m in messages), messages


def test_what_shows_an_other_cause_is_not_the_rows_own_text_behind_the_exceptions_name(data):
    """`RuntimeError: element 0 of tensors` is in every paste of the row as much as its fragment.
    A fragment that names its own exception keeps another's name a telltale (an older release's
    exception for the same words)."""
    line = edit(data, APPENDIX, 'shown_by: ["use_reentrant", "None of the inputs have requires_grad=True"]',
                'shown_by: ["use_reentrant", "RuntimeError: element 0 of tensors"]')
    edit(data, APPENDIX, "shown_by: [\"no attribute 'module'\"]",
         "shown_by: [\"no attribute 'module'\", \"ModuleAttributeError: 'Linear' object\"]")
    assert problems(data) == [f"data/{APPENDIX}:{line}: entry 'no-grad-fn': field 'other_causes[0].shown_by[1]': "
                              "'RuntimeError: element 0 of tensors' is in the row's own text: every paste of it "
                              "shows that, so it tells this cause apart from none"]


def test_an_other_cause_needs_its_thread_and_a_public_address(data):
    """A row's other cause without the thread that traced it, or with an address that is not a
    public one, stops the build naming the row and the field."""
    line = edit(data, APPENDIX, "                source: https://github.com/dmlc/dgl/issues/2571\n", "")
    bad = edit(data, APPENDIX, "source: https://github.com/ksanjeevan/crnn-audio-classification/issues/3",
               "source: see the forum thread")
    messages = problems(data)
    assert any(m.startswith(f"data/{APPENDIX}:{line - 1}: entry 'empty-parameter-list': field 'other_causes[1].source': "
                            "is required")
               for m in messages), messages
    assert any(m.startswith(f"data/{APPENDIX}:{bad}: entry 'empty-parameter-list': field 'other_causes[2].source': "
                            "'see the forum thread' is not allowed here") for m in messages), messages
