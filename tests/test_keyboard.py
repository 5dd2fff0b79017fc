"""附录A from the keyboard alone: the search box, its ↑/↓ buttons, answers, tick boxes and the
check-in are reached with Tab, work with Enter and Space, and show where the focus is."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from find_support import INPUT, STATUS, open_reference
from progress_support import CHECKIN, TICK, storage_key

pytestmark = pytest.mark.browser

PREV, NEXT = "[data-find-prev]", "[data-find-next]"
SUMMARY = "details[data-answer] > summary"
CONTROLS = ", ".join((INPUT, PREV, NEXT, SUMMARY, TICK, CHECKIN))
QUERY = "backward"  # in many entries: enough places to step both ways
MAX_TABS = 1000

# The focus ring as CSS draws it, on the focused element and on the same element unfocused.
RINGS_JS = """() => {
    const el = document.activeElement;
    const ring = () => {
        const s = getComputedStyle(el);
        return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join(' | ');
    };
    const focused = ring();
    el.blur();
    const unfocused = ring();
    el.focus();
    return [focused, unfocused];
}"""


def expect_place(page, number: int):
    """The status line says match `number` is current (第 3/11 处 …), once it has caught up."""
    expect(page.locator(STATUS)).to_have_text(re.compile(rf"第 {number}/\d+ 处"))


def focused(page, selector: str) -> bool:
    return page.evaluate("s => document.activeElement?.matches(s) ?? false", selector)


def assert_focus_visible(page, selector: str):
    """The focused element draws a ring (outline or shadow) it does not draw unfocused."""
    assert focused(page, selector)
    ring, unfocused = page.evaluate(RINGS_JS)
    assert not re.fullmatch(r"none \| .* \| none", ring), f"{selector} focused draws no ring: {ring}"
    assert ring != unfocused, f"{selector} looks the same focused and not: {ring}"


def tab_until(page, selector: str):
    """Press Tab until an element matching `selector` has the focus."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if focused(page, selector):
            return
    raise AssertionError(f"{MAX_TABS} presses of Tab never reached {selector}")


def test_every_control_of_the_page_is_in_the_tab_order(page, site_url):
    open_reference(page, site_url, find=QUERY)  # with a query, so ↑/↓ are enabled
    page.wait_for_load_state("networkidle")
    controls = page.locator(CONTROLS).count()
    # Each press: which control has the focus (-1 for none), and a name for the focused element,
    # so the walk stops once Tab has come round to where it started.
    where_is_focus = f"""() => {{
        const el = document.activeElement;
        window.rsTabSeen ??= new Map();
        if (!window.rsTabSeen.has(el)) window.rsTabSeen.set(el, window.rsTabSeen.size);
        return [[...document.querySelectorAll({CONTROLS!r})].indexOf(el), window.rsTabSeen.get(el)];
    }}"""
    reached, first = set(), None
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        control, element = page.evaluate(where_is_focus)
        if element == first:
            break  # round the whole page once
        first = element if first is None else first
        if control >= 0:
            reached.add(control)
    assert controls > 5 and len(reached) == controls, f"Tab reached {len(reached)} of {controls} controls"


# Enter, Shift+Enter, Esc and / in the box are tested in test_find_search.py; here, what only
# the keyboard reaches: Tab order, focus rings, and the buttons and boxes pressed with keys.


def test_tab_reaches_the_box_and_shows_where_the_focus_is(page, site_url):
    open_reference(page, site_url)
    page.locator("body").focus()
    tab_until(page, INPUT)
    assert_focus_visible(page, INPUT)
    page.keyboard.type(QUERY)
    expect_place(page, 1)


def test_step_buttons_work_with_enter_and_space(page, site_url):
    open_reference(page, site_url, find=QUERY)
    expect_place(page, 1)
    page.focus(INPUT)

    page.keyboard.press("Tab")
    assert focused(page, PREV)
    assert_focus_visible(page, PREV)
    page.keyboard.press("Tab")
    assert focused(page, NEXT)
    assert_focus_visible(page, NEXT)

    page.keyboard.press("Enter")
    expect_place(page, 2)
    page.keyboard.press("Space")
    expect_place(page, 3)
    page.keyboard.press("Shift+Tab")
    assert focused(page, PREV)
    page.keyboard.press("Space")
    expect_place(page, 2)
    page.keyboard.press("Enter")
    expect_place(page, 1)


def test_space_ticks_a_checkpoint_and_checks_in(page, site_url):
    open_reference(page, site_url)
    page.wait_for_load_state("networkidle")
    first_answer = page.locator(SUMMARY).first
    first_answer.focus()
    page.keyboard.press("Enter")  # the answer opens from the keyboard
    assert page.locator("details[data-answer]").first.get_attribute("open") is not None

    tab_until(page, TICK)
    assert_focus_visible(page, TICK)
    tick = page.locator(f"{TICK}:focus")
    tick_id = tick.get_attribute("data-checkpoint-id")
    page.keyboard.press("Space")
    assert tick.is_checked()
    wait_until_saved(page, "tick in saved.checkpoints", tick_id)
    page.keyboard.press("Space")
    assert not tick.is_checked()

    tab_until(page, CHECKIN)
    assert_focus_visible(page, CHECKIN)
    checkin = page.locator(f"{CHECKIN}:focus")
    page.keyboard.press("Space")
    assert checkin.is_checked()
    wait_until_saved(page, "'checkin' in saved && !(tick in saved.checkpoints)", tick_id)


def wait_until_saved(page, condition: str, tick_id: str):
    """Wait until 附录A's stored progress (`saved`, JS) meets `condition`: saving follows the key."""
    page.wait_for_function(f"""([key, tick]) => {{
        const stored = JSON.parse(localStorage.getItem(key) ?? "{{}}").pages?.["pytorch/appendix-a"];
        const saved = {{checkpoints: {{}}, ...stored}};
        return {condition};
    }}""", arg=[storage_key(page), tick_id])
