"""In-page literal search on 附录A, driven in Chromium: highlight every match, hide nothing."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import parse_qs, urlparse

import pytest

from find_support import (  # site_url: every test runs on the page as written and with a long section
    INPUT,
    current_entries,
    highlights,
    long_site_url,  # noqa: F401  (a fixture)
    open_reference,
    paste,
    site_url_of_both_shapes,  # noqa: F401  (a fixture)
    status,
    type_query,
    visible_entries,
)

pytestmark = pytest.mark.browser

QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})


def fold(text: str) -> str:
    """What the search forgives, spelled out independently of find-fold.js."""
    text = unicodedata.normalize("NFKC", text).translate(QUOTES).lower()
    return re.sub(r"\s+", " ", text).strip()


def occurrences(page, needle: str) -> tuple[int, int]:
    """(places, entries) where a plain lower-case needle occurs in the searchable text."""
    return tuple(page.evaluate(
        """(needle) => {
            let places = 0;
            const entries = new Set();
            for (const element of document.querySelectorAll('[data-find-text]')) {
                const text = element.textContent.replace(/\\s+/g, ' ').toLowerCase();
                const count = text.split(needle).length - 1;
                places += count;
                if (count) entries.add(element.closest('[data-entry]'));
            }
            return [places, entries.size];
        }""",
        needle,
    ))


LITERAL_QUERIES = [
    ("size mismatch for", "size-mismatch"),
    ("GRAD_FN", "no-grad-fn"),  # case
    ("Can’t call numpy()", "numpy-requires-grad"),  # curly quote for the page's straight one
    ("Missing key(s) in state_dict: “1.weight”", "missing-keys"),
    ("...set_detect_anomaly(True", "anomaly-hint"),  # `...` for the page's `…`
    ("ｍａｔ１ ａｎｄ ｍａｔ２ ｍｕｓｔ", "matmul-dtype"),  # full-width
    ("mat1    and   mat2 shapes", "matmul-shapes"),  # runs of spaces
    ("(3x4 and 5x2)", "matmul-shapes"),  # regex characters are plain characters
    ("torch.Size([1, 2])", "batchnorm-single"),
    ("<class '…'>", "collate-unknown-type"),
    ("__init__", "assign-before-init"),
    ("图默认用完就扔", "backward-twice"),
    ("莫名其妙比训练时差", "forgot-eval"),
    ("为什么没收", None),  # a column header is not searchable text: no match, no entry
    ("broadcast_buffers", "modified-by-inplace"),  # in a row's other cause
    ("同样这句报错，也可能是", None),  # the label over a row's other causes is not searchable either
]


@pytest.mark.parametrize(("query", "entry"), LITERAL_QUERIES)
def test_literal_query_highlights_the_entry_holding_it(page, site_url, query, entry):
    open_reference(page, site_url)
    before = visible_entries(page)
    type_query(page, query)
    if entry is None:
        page.wait_for_function("() => !document.querySelector('[data-find-status]').textContent.includes('正在找')")
        assert highlights(page) == []
        assert current_entries(page) == []
    else:
        assert current_entries(page) == [entry]
        current = highlights(page, "rs-find-current")
        assert [fold(text) for text in current] == [fold(query)]
        everything = highlights(page)
        assert all(fold(text) == fold(query) for text in everything)
        assert f"共 {len(everything)} 处匹配" in status(page)
    assert visible_entries(page) == before


def test_counts_every_place_and_entry_that_matches(page, site_url):
    open_reference(page, site_url)
    places, entries = occurrences(page, "state_dict")
    assert places > entries > 1  # some entries hold it more than once
    type_query(page, "STATE_DICT")
    assert len(highlights(page)) == places
    assert f"共 {places} 处匹配，在 {entries} 个条目里" in status(page)


def test_matches_are_written_into_storage_kept_across_keystrokes(page, site_url):
    # A one-letter query on a long page has hundreds of thousands of matches: fresh arrays for them
    # on every keystroke made V8 mark the whole DOM heap inside the keystroke (a 365 ms+ task).
    open_reference(page, site_url)
    places, _ = occurrences(page, "e")
    kept = page.evaluate(
        """async () => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { GrowableInt32, buildCorpus, elementsOf, findAll } = await import(new URL("find-corpus.js", base));
            const corpus = buildCorpus([...document.querySelectorAll("[data-find-text]")]);
            const starts = new GrowableInt32(16);
            const elements = new GrowableInt32(16);
            const first = findAll(corpus, "e", starts);
            const firstElements = elementsOf(corpus, first, elements);
            const count = first.length;
            const again = findAll(corpus, "e", starts);
            const againElements = elementsOf(corpus, again, elements);
            return { count, again: again.length, typed: again instanceof Int32Array,
                     reused: again.buffer === first.buffer && againElements.buffer === firstElements.buffer };
        }"""
    )
    assert kept == {"count": places, "again": places, "typed": True, "reused": True}


def test_enter_and_buttons_step_through_every_match_and_wrap(page, site_url):
    open_reference(page, site_url)
    places, _ = occurrences(page, "detach")
    type_query(page, "detach")
    assert status(page).startswith(f"本页有这段原文：第 1/{places} 处")
    seen = [current_entries(page)]
    for step in range(2, places + 1):
        page.press(INPUT, "Enter")
        assert status(page).startswith(f"本页有这段原文：第 {step}/{places} 处")
        seen.append(current_entries(page))
        assert len(seen[-1]) == 1
    page.press(INPUT, "Enter")
    assert status(page).startswith(f"本页有这段原文：第 1/{places} 处")  # wraps around
    page.press(INPUT, "Shift+Enter")
    assert status(page).startswith(f"本页有这段原文：第 {places}/{places} 处")
    assert current_entries(page) == seen[-1]
    page.click("[data-find-prev]")
    assert current_entries(page) == seen[-2]
    page.click("[data-find-next]")
    assert current_entries(page) == seen[-1]


def test_a_match_in_a_collapsed_answer_is_counted_and_opened_when_current(page, site_url):
    open_reference(page, site_url)
    answer = "#cp-inplace-version details[data-answer]"
    assert page.get_attribute(answer, "open") is None
    type_query(page, "set_detect_anomaly(True")
    places, entries = occurrences(page, "set_detect_anomaly(true")
    assert places == 2 and entries == 2  # the fragment, and the answer of a checkpoint
    assert current_entries(page) == ["anomaly-hint"]
    assert page.get_attribute(answer, "open") is None
    page.press(INPUT, "Enter")
    assert current_entries(page) == ["cp-inplace-version"]
    assert page.get_attribute(answer, "open") is not None
    assert page.is_visible(f"{answer} [data-find-text]")


def test_the_current_entry_is_scrolled_into_view_below_the_box(page, site_url):
    open_reference(page, site_url)
    type_query(page, "有没有一招通用的对付办法")  # a checkpoint near the end of the page
    assert current_entries(page) == ["cp-silent-bugs"]
    box = page.locator("[data-find]").bounding_box()
    entry = page.locator("#cp-silent-bugs").bounding_box()
    assert entry["y"] >= box["y"] + box["height"] - 1
    assert entry["y"] < page.viewport_size["height"]


def test_the_query_lives_in_the_url_as_find(page, site_url):
    open_reference(page, site_url, find="size mismatch for")
    assert page.input_value(INPUT) == "size mismatch for"
    assert current_entries(page) == ["size-mismatch"]
    assert "共 2 处匹配" in status(page)
    type_query(page, "grad_fn")
    page.wait_for_function("() => new URL(location.href).searchParams.get('find') === 'grad_fn'")
    assert "q" not in parse_qs(urlparse(page.url).query)  # Material's own parameter stays untouched
    type_query(page, "")
    page.wait_for_function("() => !new URL(location.href).searchParams.has('find')")


def test_slash_focuses_the_box_escape_clears_it_and_f_stays_materials(page, site_url):
    open_reference(page, site_url)
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.matches('[data-find-input]')")
    assert not page.is_checked("#__search")  # Material's search dialog did not open
    page.keyboard.type("detach")
    assert highlights(page)
    page.keyboard.press("Escape")
    assert page.input_value(INPUT) == ""
    assert highlights(page) == []
    assert current_entries(page) == []
    assert status(page) == ""
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("f")
    page.wait_for_function("() => document.querySelector('#__search').checked")


ODD_INPUTS = [
    ".*+?^${}()|[]\\/",
    "(" * 50,
    "🔥💀😀👩‍💻",
    "size\u200b mis\u200bmatch\u200b for",  # zero-width spaces: forgiven, so this matches
    "<img src=x onerror=\"throw new Error('injected')\"><script>throw 1</script>",
    "{{ config.site_name }} {% raw %} ${location} #{1+1}",
    "\u202eRTL override",
    "\x00\x01 control characters",
    "constructor",  # the names of Object.prototype's members are plain text too
    "__proto__ hasOwnProperty toString",
]


@pytest.mark.parametrize("query", ODD_INPUTS)
def test_odd_input_is_plain_text_and_hides_nothing(page, site_url, query):
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    open_reference(page, site_url)
    before = visible_entries(page)
    type_query(page, query)
    if "size" in query:
        assert current_entries(page) == ["size-mismatch"]
    page.press(INPUT, "Enter")
    page.wait_for_function("() => !document.querySelector('[data-find-status]').textContent.includes('正在找')")
    assert page.locator("[data-find] img, [data-find] script").count() == 0
    assert visible_entries(page) == before


def test_a_ten_thousand_character_paste_is_handled(page, site_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    before = visible_entries(page)
    line = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (7x3 and 5x9) "
    paste(page, (line * (10_000 // len(line) + 1))[:10_000])
    # The box reads the paste itself (pytorch_error_lookup.paste): one line, as pasted.
    page.wait_for_function("() => document.querySelector('[data-find-input]').value.length >= 9990")
    page.press(INPUT, "Enter")
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert current_entries(page) == ["matmul-shapes"]
    assert visible_entries(page) == before


def test_without_the_highlight_api_marks_stand_in_and_leave_the_text_as_it_was(page, site_url):
    page.add_init_script("delete CSS.highlights; delete window.Highlight;")
    open_reference(page, site_url)
    text_before = page.text_content("article")
    places, _ = occurrences(page, "detach")
    type_query(page, "detach")
    assert page.locator("mark.rs-find-mark").count() == places
    current = "mark.rs-find-mark--current"
    assert page.locator(current).count() == 1
    assert status(page).startswith(f"本页有这段原文：第 1/{places} 处")
    first = page.evaluate(f"[...document.querySelectorAll('mark.rs-find-mark')].indexOf(document.querySelector('{current}'))")
    page.press(INPUT, "Enter")
    assert status(page).startswith(f"本页有这段原文：第 2/{places} 处")
    assert page.evaluate(f"[...document.querySelectorAll('mark.rs-find-mark')].indexOf(document.querySelector('{current}'))") == first + 1
    assert page.locator("mark.rs-find-mark").count() == places
    type_query(page, "")
    assert page.locator("mark").count() == 0
    assert page.text_content("article") == text_before


def test_each_fragment_has_a_copy_button_that_copies_it_verbatim(page, site_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, site_url)
    fragments = page.locator("[data-fragment]")
    assert page.locator("[data-fragment] + [data-find-copy]").count() == fragments.count()
    row = page.locator("#collate-unknown-type")
    row.locator("[data-find-copy]").click()
    expected = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class '…'>"
    assert page.evaluate("navigator.clipboard.readText()") == expected
    assert row.locator("[data-find-copy]").text_content() == "已复制"


def test_each_table_entry_has_an_anchor_link_to_itself(page, site_url):
    open_reference(page, site_url)
    rows = page.eval_on_selector_all(
        ".rs-table--errors tr[data-entry], .rs-table--symptoms tr[data-entry], .rs-table--not-covered tr[data-entry]",
        "rows => rows.map(r => [r.id, r.querySelector('a.rs-anchor')?.getAttribute('href')])",
    )
    assert len(rows) > 40
    assert all(href == f"#{row_id}" for row_id, href in rows)


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_box_stays_reachable_while_scrolling(new_page, site_url, viewport, tmp_path):
    page = new_page(viewport=viewport)
    open_reference(page, site_url)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight * 0.6)")
    box = page.locator(INPUT).bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= viewport[1]
    center = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.matches('[data-find-input]')", list(center))
    page.screenshot(path=str(tmp_path / f"find-{viewport[0]}.png"))


def test_a_query_typed_before_the_script_starts_is_searched(page, site_url):
    # Hold our script (find.js, linked with the rest) back until the reader has typed, as on a
    # slow connection. A deferred script also holds DOMContentLoaded: wait for the box alone.
    held = []
    page.route("**/assets/refsite/modules-linked.js", lambda route: held.append(route))
    with page.expect_request("**/assets/refsite/modules-linked.js"):  # held in the route handler
        page.goto(site_url + "pytorch/appendix-a.html", wait_until="commit")
    page.wait_for_selector(INPUT)
    page.fill(INPUT, "does not require grad")
    assert held, "modules-linked.js was never requested"
    held[0].continue_()
    page.wait_for_selector("[data-find-copy]", state="attached")
    assert current_entries(page) == ["no-grad-fn"]
    assert "匹配" in status(page)  # once counted: the page's text may still be folding when the script starts
