"""axe-core on every built page: no serious or critical violation, light and dark, 1280 and 390 px.

Besides each page as it opens, the states our own scripts create are checked too: the in-page
search with a literal match, a match and loose suggestions, an opened answer, a tick, and the home
page's reset confirmation.
"""

from __future__ import annotations

from pathlib import Path

import material
import pytest

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = pytest.mark.browser

SCHEMES = {"light": "default", "dark": "slate"}  # prefers-color-scheme → Material's palette
WIDTHS = (1280, 390)
BLOCKING = ("serious", "critical")

# Not on the page: one row fits it (a `match`), and one no row explains (`weak`, loose suggestions).
NEAR_MISS = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)"
NOT_COVERED = "RuntimeError: Found dtype Long but expected Float"

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog"'
ITS_NAME = " aria-label=\"{{ lang.t('search') }}\""


def test_the_search_partial_is_materials_own_with_a_name_for_its_dialog():
    """overrides/partials/search.html names Material's search dialog and changes nothing else, so
    a Material upgrade that changes the partial fails here instead of being hidden by the copy."""
    ours = (Path(__file__).resolve().parent.parent / "overrides/partials/search.html").read_text(encoding="utf-8")
    theirs = (Path(material.__file__).parent / "templates/partials/search.html").read_text(encoding="utf-8")

    def after_header(text):  # each file's leading comment says who wrote it
        return text.split("-#}", 1)[1]

    assert SEARCH_DIALOG + ITS_NAME in ours
    assert after_header(ours).replace(SEARCH_DIALOG + ITS_NAME, SEARCH_DIALOG) == after_header(theirs)


@pytest.fixture(scope="module")
def axe():
    return axe_playwright.Axe()


def built_pages(site) -> list[str]:
    """Every page a reader can open (not the storage frame under assets/)."""
    pages = sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html")
                   if "assets" not in path.relative_to(site).parts)
    # The home page, book index, chapters 00–10, 附录A, offline.html and 404.html.
    assert {"index.html", "pytorch/index.html", "pytorch/00.html", "pytorch/10.html",
            "pytorch/appendix-a.html", "offline.html"} <= set(pages)
    return pages


def settled(page):
    """No transition running: axe reads colours mid-fade otherwise (the header title fades)."""
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    return page


def blocking_violations(axe, page) -> list[str]:
    found = []
    for violation in axe.run(settled(page)).response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        for node in violation["nodes"]:
            target = " ".join(node["target"])
            found.append(f"{violation['id']} ({violation['impact']}) at {target}: "
                         f"{node['failureSummary'].splitlines()[-1].strip()}")
    return found


@pytest.fixture(params=[(scheme, width) for scheme in SCHEMES for width in WIDTHS],
                ids=lambda p: f"{p[0]}-{p[1]}px")
def palette_page(request, browser, new_page):
    """A page in one palette at one width; it fails the test on console errors like any other."""
    scheme, width = request.param
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = new_page(context=context)

    def expect_scheme():
        assert page.locator("body").get_attribute("data-md-color-scheme") == SCHEMES[scheme]

    page.expect_scheme = expect_scheme
    yield page
    context.close()


def test_every_page_has_no_serious_violation(palette_page, axe, built_site, site_url):
    problems = {}
    for path in built_pages(built_site):
        palette_page.goto(site_url + path)
        palette_page.wait_for_load_state("networkidle")  # our modules have run
        palette_page.expect_scheme()
        if found := blocking_violations(axe, palette_page):
            problems[path] = found
    assert not problems, "\n".join(f"{path}:\n  " + "\n  ".join(found) for path, found in problems.items())


def test_search_answers_and_ticks_have_no_serious_violation(palette_page, axe, site_url):
    page = palette_page
    problems = {}

    def check(state):
        if found := blocking_violations(axe, page):
            problems[state] = found

    page.goto(site_url + "pytorch/appendix-a.html?find=backward")
    page.locator("[data-entry][aria-current='true']").first.wait_for()
    page.expect_scheme()
    check("a literal match, its entry current")

    page.locator("[data-find-input]").fill(NEAR_MISS)
    page.locator("[data-find][data-find-verdict='match'] [data-find-suggestion]").first.wait_for()
    check("a match, its entry named")

    page.locator("[data-find-input]").fill(NOT_COVERED)
    page.locator("[data-find][data-find-verdict='weak'] [data-find-suggestion]").first.wait_for()
    page.locator("[data-find-elsewhere]").wait_for()
    check("not covered: loose suggestions and where else to look")

    page.locator("details[data-answer] > summary").first.click()
    page.locator("[data-tick]").first.check()
    check("an answer open, a checkpoint ticked")

    page.goto(site_url + "index.html")
    page.locator("[data-progress-reset]").click()
    page.locator("dialog[open]").wait_for()
    check("the reset confirmation open")

    assert not problems, "\n".join(f"{state}:\n  " + "\n  ".join(found) for state, found in problems.items())
