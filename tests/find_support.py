"""What the in-page search tests look at, as a reader would see it."""

from __future__ import annotations

import sys
from urllib.parse import quote

import pytest

from conftest import ROOT, mkdocs_build, serve

REFERENCE = "pytorch/appendix-a.html"
INPUT = "[data-find-input]"
STATUS = "[data-find-status]"


def open_reference(page, site_url: str, find: str | None = None):
    url = site_url + REFERENCE + (f"?find={quote(find)}" if find is not None else "")
    page.goto(url)
    page.wait_for_selector("[data-find-copy]", state="attached")  # find.js has mounted
    counted(page)
    return page


def counted(page):
    """Wait until the box has searched all of the page's text: a query typed before the page's
    text is folded searches its start first and says it is still counting (find-matches.js)."""
    page.wait_for_function("() => !document.querySelector('[data-find]')?.hasAttribute('data-find-counting')")


def current_entries(page) -> list[str]:
    return page.eval_on_selector_all('[data-entry][aria-current="true"]', "els => els.map(e => e.id)")


def visible_entries(page) -> list[str]:
    """Ids of the entries on screen or reachable by scrolling, in page order."""
    return page.eval_on_selector_all(
        "[data-entry]",
        "els => els.filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true})"
        " && e.getClientRects().length > 0).map(e => e.id)",
    )


def highlights(page, name: str = "rs-find") -> list[str]:
    """The text under every range of a CSS highlight, once all slices are painted."""
    page.wait_for_function(
        """() => {
            const status = document.querySelector('[data-find-status]').textContent;
            const total = /共 (\\d+) 处/.exec(status);
            return !total || (CSS.highlights.get('rs-find')?.size ?? 0) >= Number(total[1]);
        }"""
    )
    return page.evaluate(
        """(name) => [...(CSS.highlights.get(name) ?? [])].map((r) => {
            const range = document.createRange();
            range.setStart(r.startContainer, r.startOffset);
            range.setEnd(r.endContainer, r.endOffset);
            return range.toString();
        })""",
        name,
    )


def status(page) -> str:
    counted(page)
    return page.text_content(STATUS).strip()


def type_query(page, text: str):
    page.fill(INPUT, text)
    counted(page)


def paste(page, text: str):
    """A real paste (Ctrl+V) into the empty search box."""
    page.fill(INPUT, "")
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.focus(INPUT)
    page.keyboard.press("Control+V")


# --- the same tests on a long page ------------------------------------------------------------
# The page as written, and the same page with one more section of LONG_SECTION_ROWS generated rows
# after the real ones (benchmarks/synthetic.py, the generator of the benchmark's 1×10,000 page, at
# a smoke size): long sections come as several tables, skipped while off screen, and every
# search test must hold there too. A module opts in with `from find_support import site_url_of_both_shapes`.

LONG_SECTION_ROWS = 250


@pytest.fixture(scope="session")
def long_site_url(tmp_path_factory):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synthetic import write_project

    project = write_project(tmp_path_factory.mktemp("long-project"), LONG_SECTION_ROWS,
                            per_section=LONG_SECTION_ROWS, keep_real_rows=True)
    site_dir = tmp_path_factory.mktemp("long-site")
    result = mkdocs_build(project, site_dir)
    assert result.returncode == 0, result.stderr
    server = serve(site_dir)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session", name="site_url", params=["as-written", "long-section"])
def site_url_of_both_shapes(request, site_url):
    return site_url if request.param == "as-written" else request.getfixturevalue("long_site_url")


# --- the reader's place, as find-restore.js keeps it across a reload or a step back ------------

AFTER_FRAMES_JS = """(frames) => new Promise((done) => {
    const next = (left) => left ? requestAnimationFrame(() => next(left - 1)) : done();
    next(frames);
})"""

ROW_AT_TOP_JS = """() => {
    const line = document.querySelector('[data-find]').getBoundingClientRect().bottom;
    for (const row of document.querySelectorAll('[data-entry]')) {
        const box = row.getBoundingClientRect();
        if (box.bottom > line) return { id: row.id, top: box.top };
    }
    return null;
}"""


def read_down_to(page, row_id: str):
    """The reader scrolls down the page until `row_id` is near the top, reads (the scroll comes to
    rest) and returns the row at the top below the search box and where it is. Scrolled through,
    the sections above are drawn at their real height; a reload has only guessed ones."""
    page.wait_for_selector("[data-find-copy]", state="attached")  # find.js has mounted
    width = page.viewport_size["width"]
    page.mouse.move(width / 2, 500)
    for _ in range(100):
        below = page.evaluate(f"document.getElementById('{row_id}').getBoundingClientRect().top") - 300
        if below < 0:
            break
        page.mouse.wheel(0, min(800, below + 40))
        page.evaluate(AFTER_FRAMES_JS, 3)
    page.evaluate(AFTER_FRAMES_JS, 10)
    page.wait_for_timeout(600)  # at rest: find-restore.js writes the place 300 ms after a scroll
    return page.evaluate(ROW_AT_TOP_JS)


def back_at(page) -> dict:
    """The row at the top once the page is back (reloaded, or stepped back to) and settled."""
    page.wait_for_selector("[data-find-copy]", state="attached")
    page.evaluate(AFTER_FRAMES_JS, 10)  # the sections around the place are drawn by then
    return page.evaluate(ROW_AT_TOP_JS)


def assert_same_place(left: dict, back: dict):
    assert back is not None and back["id"] == left["id"], f"left at #{left['id']}, back at {back}"
    assert abs(back["top"] - left["top"]) <= 3, f"#{left['id']} left at {left['top']:.0f} px, back at {back['top']:.0f}"
