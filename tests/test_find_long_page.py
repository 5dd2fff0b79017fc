"""What keeps a keystroke to one frame on a long page, held in place without timing anything:
a long section comes as tables of a few rows (render.ROWS_PER_TABLE) that the browser skips while off screen, the page's
text is folded in slices before the first keystroke, and nothing of it is hidden from the reader,
Ctrl+F, selection or a screen reader."""

from __future__ import annotations

import math

import pytest
from refsite.render import ROWS_PER_TABLE

from find_support import (  # noqa: F401
    INPUT, LONG_SECTION_ROWS, REFERENCE, assert_same_place, back_at, current_entries, long_site_url, read_down_to, type_query)

pytestmark = pytest.mark.browser

FIRST, LAST = "e00000", f"e{LONG_SECTION_ROWS - 1:05d}"


def open_long(page, long_site_url):
    page.goto(long_site_url + REFERENCE)
    page.wait_for_selector("[data-find-copy]", state="attached")


def test_a_long_section_is_tables_of_a_few_rows_each_skipped_off_screen(page, long_site_url):
    open_long(page, long_site_url)
    tables = page.evaluate(
        """(first) => {
            const section = document.getElementById(first).closest('[data-section]');
            return [...section.querySelectorAll('[data-rows]')].map((box) => ({
                rows: box.querySelectorAll('tbody > tr[data-entry]').length,
                tables: box.querySelectorAll('table').length,
                headers: [...box.querySelectorAll('thead th[scope=col]')].map((th) => th.textContent),
                skipped: getComputedStyle(box).contentVisibility,
                placeholder: getComputedStyle(box).containIntrinsicSize,
            }));
        }""",
        FIRST,
    )
    assert [table["rows"] for table in tables] == [
        min(ROWS_PER_TABLE, LONG_SECTION_ROWS - start) for start in range(0, LONG_SECTION_ROWS, ROWS_PER_TABLE)]
    assert len(tables) == math.ceil(LONG_SECTION_ROWS / ROWS_PER_TABLE)
    for table in tables:
        assert table["tables"] == 1
        assert table["headers"] == tables[0]["headers"] and len(table["headers"]) == 3  # read out with each row
        assert table["skipped"] == "auto"
        assert table["placeholder"].startswith("auto ") and table["placeholder"] != "auto 0px"  # keeps its height


def test_sections_of_the_page_as_written_stay_one_table(page, long_site_url):
    open_long(page, long_site_url)
    assert page.locator("[data-rows] #size-mismatch").count() == 0
    assert page.locator("table:has(#size-mismatch)").count() == 1
    # Its section is skipped while off screen, from the first layout (refsite.css, no script),
    # with a height guessed from its rows until first drawn.
    skipped = page.evaluate("""() => {
        const style = getComputedStyle(document.getElementById('size-mismatch').closest('[data-section]'));
        return [style.contentVisibility, style.containIntrinsicSize];
    }""")
    assert skipped[0] == "auto" and skipped[1].startswith("auto ") and skipped[1] != "auto 0px"


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_the_tables_read_as_one_with_the_same_columns(new_page, long_site_url, viewport):
    page = new_page(viewport=viewport)
    open_long(page, long_site_url)
    page.evaluate(f"document.getElementById('e{ROWS_PER_TABLE:05d}').scrollIntoView({{ block: 'center' }})")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    boundary = page.evaluate(
        """([last, first]) => {
            const above = document.getElementById(last), below = document.getElementById(first);
            const cells = (row) => [...row.cells].map((cell) => { const r = cell.getBoundingClientRect(); return [r.left, r.width]; });
            return { gap: below.getBoundingClientRect().top - above.getBoundingClientRect().bottom,
                     above: cells(above), below: cells(below),
                     rowGap: above.getBoundingClientRect().top - document.getElementById(above.previousElementSibling.id).getBoundingClientRect().bottom };
        }""",
        [f"e{ROWS_PER_TABLE - 1:05d}", f"e{ROWS_PER_TABLE:05d}"],
    )
    assert abs(boundary["gap"] - boundary["rowGap"]) < 1  # no header row or margin between the tables
    for (left_above, width_above), (left_below, width_below) in zip(boundary["above"], boundary["below"]):
        assert abs(left_above - left_below) < 1 and abs(width_above - width_below) < 1


def test_every_row_is_reachable_by_find_selection_and_copy(page, long_site_url):
    open_long(page, long_site_url)
    page.evaluate("window.scrollTo(0, 0)")
    reach = page.evaluate(
        """([first, last]) => {
            const rows = [...document.querySelectorAll('[data-entry]')];
            const hidden = rows.filter((row) => !row.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
            // Ctrl+F: the browser's own find-in-page reaches a row in a table skipped off screen.
            const found = window.find(document.getElementById(last).querySelector('[data-fragment]').textContent);
            // A selection from the first generated row to the last, across every table, copies all.
            const selection = getSelection();
            selection.removeAllRanges();
            const range = document.createRange();
            range.setStartBefore(document.getElementById(first));
            range.setEndAfter(document.getElementById(last));
            selection.addRange(range);
            const copied = selection.toString();
            return { hidden: hidden.map((row) => row.id), found,
                     copiedRows: rows.filter((row) => row.id.startsWith('e0') && copied.includes(row.querySelector('[data-fragment]').textContent)).length };
        }""",
        [FIRST, LAST],
    )
    assert reach == {"hidden": [], "found": True, "copiedRows": LONG_SECTION_ROWS}


def test_a_match_in_a_table_off_screen_is_counted_highlighted_and_reached(page, long_site_url):
    open_long(page, long_site_url)
    type_query(page, LAST.upper())  # the code E00249 is in its fragment and nowhere else
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'literal'")
    assert current_entries(page) == [LAST]
    assert page.evaluate("CSS.highlights.get('rs-find-current').size") == 1
    box = page.locator(f"#{LAST}").bounding_box()
    assert 0 <= box["y"] < page.viewport_size["height"]


def test_a_match_found_only_once_the_page_is_counted_is_still_brought_into_view(page, long_site_url):
    """Typed before the page's text is all folded, a query whose only match is at the end finds
    nothing at first ("still counting"); the whole count then lands on it, and must bring it into
    view as a search does (CI, under load, saw it marked current 88,000 px down)."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": 8})  # folding slower than the keystroke
    open_long(page, long_site_url)
    page.fill(INPUT, LAST.upper())
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'literal'", timeout=60_000)
    page.wait_for_function(f"""() => {{
        const box = document.getElementById({LAST!r}).getBoundingClientRect();
        return box.top >= 0 && box.top < innerHeight;
    }}""", timeout=10_000)
    session.send("Emulation.setCPUThrottlingRate", {"rate": 1})


def test_the_page_text_is_folded_in_slices_that_add_up_to_the_whole(page, long_site_url):
    # The folding starts when the page opens and runs in slices of idle time, so the first
    # keystroke finds it done; slices must give exactly what one pass gives.
    open_long(page, long_site_url)
    same = page.evaluate(
        """async () => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { CorpusBuilder, buildCorpus } = await import(new URL("find-corpus.js", base));
            const elements = [...document.querySelectorAll("[data-find-text]")];
            const whole = buildCorpus(elements);
            const builder = new CorpusBuilder(elements);
            let slices = 0, corpus = null;
            while (!corpus) { corpus = builder.work(() => false); slices += 1; }  // one element a slice
            return { slices, elements: elements.length, text: corpus.text === whole.text,
                     offsets: corpus.offsets.length === whole.offsets.length && corpus.offsets.every((o, i) => o === whole.offsets[i]),
                     nodes: corpus.nodes.length === whole.nodes.length && corpus.nodes.every((n, i) => n === whole.nodes[i]) };
        }"""
    )
    assert same["slices"] >= same["elements"] > LONG_SECTION_ROWS
    assert same["text"] and same["offsets"] and same["nodes"]


def test_a_keystroke_before_the_fold_ends_searches_what_is_folded_and_says_it_is_still_counting(page, long_site_url):
    # A reader typing within a second of the page opening must not wait for the whole page's text:
    # the keystroke folds a little more, searches the page's start (matches in document order),
    # and the count is made whole when the fold ends.
    open_long(page, long_site_url)
    result = page.evaluate(
        """async (last) => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { Matches } = await import(new URL("find-matches.js", base));
            const elements = [...document.querySelectorAll("[data-find-text]")];
            const matches = new Matches(elements, { keystrokeFoldMs: 0 });  // one element a keystroke
            const counted = new Promise((done) => { matches.onCounted = done; });
            const words = elements[0].textContent.trim().split(/\\s+/)[0];
            matches.find(words);  // in the page's first element: folded by this keystroke
            const early = { counting: matches.counting, found: matches.count > 0,
                            inFirst: elements[0].contains(matches.bounds(0).startContainer) };
            matches.find(last.toUpperCase());  // in the page's last table: not folded yet
            const before = { counting: matches.counting, count: matches.count };
            await counted;
            matches.find(last.toUpperCase());
            return { early, before, after: { counting: matches.counting, count: matches.count,
                     inLast: document.getElementById(last).contains(matches.bounds(0).startContainer) } };
        }""",
        LAST,
    )
    assert result["early"] == {"counting": True, "found": True, "inFirst": True}
    assert result["before"] == {"counting": True, "count": 0}
    assert result["after"] == {"counting": False, "count": 1, "inLast": True}


def test_a_search_that_asks_for_the_whole_text_is_never_still_counting(page, long_site_url):
    # The <mark> fallback (no Highlight API) unfolds the text on every search: a partial count
    # there would be recounted, and refolded, forever.
    open_long(page, long_site_url)
    result = page.evaluate(
        """async (last) => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { Matches } = await import(new URL("find-matches.js", base));
            const matches = new Matches([...document.querySelectorAll("[data-find-text]")], { keystrokeFoldMs: 0 });
            matches.find(last.toUpperCase(), { whole: true });
            return { counting: matches.counting, count: matches.count };
        }""",
        LAST,
    )
    assert result == {"counting": False, "count": 1}


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_reload_keeps_the_readers_place_in_a_later_table(new_page, long_site_url, viewport):
    """A row some tables down a long section: the tables above it, each skipped with a
    guessed height, are drawn again as the place is held (find-restore.js)."""
    page = new_page(viewport=viewport)
    open_long(page, long_site_url)
    left = read_down_to(page, f"e{ROWS_PER_TABLE + 50:05d}")
    page.reload()
    assert_same_place(left, back_at(page))
