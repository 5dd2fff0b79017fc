"""The built site in real Chromium, as a reader uses it."""

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from conftest import CHROMIUM_ARGS, ROOT, copy_project, mkdocs_build, serve, serving
from find_support import AFTER_FRAMES_JS, ROW_AT_TOP_JS, assert_same_place, back_at, read_down_to

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
APPENDIX = "pytorch/appendix-a.html"


def site_pages(built_site: Path) -> list[str]:
    return sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                  if p.name != "404.html")


def test_every_page_opens_without_errors(built_site, site_url, page):
    for path in site_pages(built_site):
        response = page.goto(site_url + path)
        assert response.ok, path
        assert page.locator("h1").first.is_visible(), path
    # The `page` fixture fails this test on any console error, page error or failed request.


def test_every_chapter_link_and_backlink_resolves(built_site, site_url, page):
    links: dict[str, set[str]] = {}  # target document -> the pages linking to it (with anchors)
    for path in site_pages(built_site):
        page.goto(site_url + path)
        for href in page.eval_on_selector_all("article a[href]", "links => links.map(a => a.href)"):
            if href.startswith(site_url):
                links.setdefault(href.split("#")[0], set()).add(f"{path} -> {href}")

    # Open each linked document once and check every anchor pointing into it.
    for document, sources in links.items():
        response = page.goto(document)
        assert response.ok, sorted(sources)
        ids = set(page.eval_on_selector_all("[id]", "elements => elements.map(e => e.id)"))
        for source in sources:
            anchor = urlsplit(source.split(" -> ")[1]).fragment
            assert not anchor or anchor in ids, f"dangling anchor: {source}"
    all_links = "\n".join(source for sources in links.values() for source in sources)
    assert "appendix-a.html#forgot-eval" in all_links
    assert "/pytorch/02.html" in all_links


def test_chapter_links_are_numbers_that_open_the_chapter(site_url, page):
    page.goto(site_url + APPENDIX)
    link = page.locator("#no-grad-fn .rs-goto a").nth(1)
    assert link.inner_text() == "04"
    link.click()
    page.wait_for_url("**/pytorch/04.html")
    assert "04 · " in page.locator("h1").inner_text()
    backlink = page.locator("[data-backlink='no-grad-fn'] > a")  # not a wild wording's source link
    backlink.click()
    page.wait_for_url("**/appendix-a.html#no-grad-fn")
    assert page.locator("#no-grad-fn").is_visible()


def test_every_fragment_appears_verbatim(site_url, page):
    data = yaml.safe_load((ROOT / "data/pytorch/appendix-a.yml").read_text(encoding="utf-8"))
    expected = [(entry["id"], line) for group in data["groups"] for section in group["sections"]
                if section["kind"] == "errors" for entry in section["entries"]
                for line in (entry["fragment"], entry.get("second_line")) if line]
    page.goto(site_url + APPENDIX)
    for entry_id, line in expected:
        shown = page.eval_on_selector_all(
            f"[id='{entry_id}'] [data-fragment]", "codes => codes.map(code => code.textContent)")
        assert line in shown, entry_id


def test_answers_start_collapsed_and_open_on_click(site_url, page):
    page.goto(site_url + APPENDIX)
    answers = page.locator("[data-checkpoint] details")
    assert answers.count() == 10
    assert page.eval_on_selector_all("[data-checkpoint] details", "ds => ds.filter(d => d.open).length") == 0
    first_answer = answers.first.locator("p")
    assert not first_answer.is_visible()
    answers.first.locator("summary").click()
    assert first_answer.is_visible()
    assert "size mismatch for" in first_answer.inner_text()


def test_rows_and_checkpoints_carry_stable_hooks(site_url, page):
    page.goto(site_url + APPENDIX)
    appendix = yaml.safe_load((ROOT / "data" / "pytorch" / "appendix-a.yml").read_text(encoding="utf-8"))
    rows = [entry["id"] for group in appendix["groups"] for section in group["sections"]
            for entry in section["entries"]] + [link["id"] for link in appendix["related"]["links"]]
    assert page.eval_on_selector_all("tr[data-entry][id]", "rows => rows.map(row => row.id)") == rows
    assert page.locator("[data-checkpoint][id]").count() == len(appendix["checkpoints"])
    search = page.get_by_role("searchbox", name="在本页查找报错片段")
    assert search.get_attribute("type") == "search"
    assert page.locator("[role=status]").count() >= 1


@pytest.mark.parametrize("width", [1280, 390])
def test_pages_fit_the_screen(built_site, site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    ARTIFACTS.mkdir(exist_ok=True)
    for path in ("index.html", "pytorch/index.html", "pytorch/02.html", APPENDIX):
        page.goto(site_url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
        clipped = page.eval_on_selector_all("article table", """tables => tables.flatMap(table => {
            const edge = table.getBoundingClientRect().right + 1;
            return [...table.querySelectorAll("a, code, span")]
                .filter(e => e.getBoundingClientRect().right > edge).map(e => e.textContent.trim());
        })""")
        assert not clipped, f"{path} at {width}px cuts off: {clipped[:3]}"
        page.screenshot(path=str(ARTIFACTS / f"{path.replace('/', '__')}-{width}.png"), full_page=True)


# Every text node on the page that is rendered under 12 px, with its element, once <details> are
# open (Lighthouse's legible-font audit counts their text too).
SMALL_TEXT_JS = """() => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, element = node.parentElement;
    if (!node.textContent.trim() || !element.checkVisibility({ visibilityProperty: true })) continue;
    if (!element.getBoundingClientRect().width) continue;
    const size = parseFloat(getComputedStyle(element).fontSize);
    if (size < 12) small.push(`${size}px ${element.tagName}.${element.className}: ${node.textContent.trim().slice(0, 30)}`);
  }
  return small;
}"""


@pytest.mark.parametrize("path", ["index.html", "pytorch/index.html", APPENDIX, "pytorch/01.html", "pytorch/06.html"])
def test_no_text_under_12px_on_a_phone(site_url, new_page, path):
    page = new_page(viewport=(390, 844))
    page.goto(site_url + path)
    assert page.evaluate(SMALL_TEXT_JS) == []


def test_the_search_status_wraps_on_a_phone(site_url, new_page):
    page = new_page(viewport=(390, 844))
    page.goto(site_url + APPENDIX + "?find=" + "RuntimeError: Found dtype Long but expected Float")
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict")
    status = page.locator("[data-find-status]")
    assert status.evaluate("element => element.scrollWidth <= element.clientWidth")
    assert status.evaluate("element => element.getBoundingClientRect().right") <= 390
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_hostile_text_in_the_data_is_shown_as_text(tmp_path, new_page):
    project = copy_project(tmp_path / "project")
    page_file = project / "data" / "pytorch" / "appendix-a.yml"
    hostile = "<script>alert(1)</script> {{ 7*7 }} {% raw %} | a | <class 'X'> __init__"
    text = page_file.read_text(encoding="utf-8").replace(
        '"Inference tensors cannot be saved for backward."', json.dumps(hostile))
    text = text.replace('"在 `torch.inference_mode()` 里造的张量', json.dumps(hostile)[:-1] + ' `x` 在 ')
    page_file.write_text(text, encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr

    page = new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    with serving(tmp_path / "site", page) as url:
        page.goto(url + APPENDIX)
        row = page.locator("#inference-tensor-saved")
        assert row.locator("[data-fragment]").text_content() == hostile
        assert hostile.replace("__init__", "") in row.locator("td").nth(1).inner_text().replace("__init__", "")
        assert not dialogs
        assert row.locator("script, img").count() == 0


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("anchor", ["silent-bugs", "no-grad-fn", "cp-key-prefix"])
def test_an_anchor_lands_below_the_sticky_search_box(site_url, new_page, width, anchor):
    page = new_page(viewport=(width, 900))
    page.goto(f"{site_url}{APPENDIX}#{anchor}")
    # The sections around it are drawn in the frames after the landing (skipped while off screen,
    # until then a guessed height): it must still be there once they are.
    page.evaluate(AFTER_FRAMES_JS, 10)
    box = page.locator("[data-find]").bounding_box()
    target = page.locator(f"[id='{anchor}']").bounding_box()
    assert target["y"] >= box["y"] + box["height"], f"#{anchor} is hidden under the search box"
    assert target["y"] < 900 / 2, f"#{anchor} landed at {target['y']:.0f} px, not near the top"


def test_after_landing_on_an_anchor_the_reader_scrolls_freely(site_url, new_page):
    page = new_page(viewport=(1280, 900))
    page.goto(f"{site_url}{APPENDIX}#silent-bugs")
    page.evaluate(AFTER_FRAMES_JS, 10)
    landed = page.locator("#silent-bugs").bounding_box()["y"]
    page.mouse.move(640, 600)
    page.mouse.wheel(0, -2000)  # up, across sections drawn only now
    page.evaluate(AFTER_FRAMES_JS, 30)
    assert page.locator("#silent-bugs").bounding_box()["y"] > landed + 1000, "the page pulled the reader back"


@pytest.mark.parametrize("width", [1280, 390])
def test_another_anchor_in_the_address_lands_too(site_url, new_page, width):
    """A jump within the page by the address: the first anchor's hold gives way to the new one.
    (A review saw the old hold pull the reader back where the browser's jump came before the
    hashchange; this run's timing does not reproduce that, so this checks the landing only.)"""
    page = new_page(viewport=(width, 900))
    page.goto(f"{site_url}{APPENDIX}#broadcast-mismatch")
    page.evaluate(AFTER_FRAMES_JS, 10)
    page.goto(f"{site_url}{APPENDIX}#silent-bugs")  # the address bar: no click, no reader's scroll
    page.evaluate(AFTER_FRAMES_JS, 20)
    box = page.locator("[data-find]").bounding_box()
    target = page.locator("#silent-bugs").bounding_box()
    assert box["y"] + box["height"] <= target["y"] < 900 / 2, f"#silent-bugs at {target['y']:.0f} px"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_section_off_screen_is_guessed_no_shorter_than_it_is(site_url, new_page, width):
    """While skipped, a section takes a height guessed from its rows and text (refsite.css). A
    guess short of the real height lays its rows over the next section's, which Lighthouse read
    as chapter links too close to tap (附录A's accessibility 97 at 390 px)."""
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    boxes = """() => [...document.querySelectorAll('[data-section], [data-rows]')].map((box) => ({
        id: box.dataset.section ?? box.id, height: box.getBoundingClientRect().height,
        skipped: !box.firstElementChild.checkVisibility({ contentVisibilityAuto: true }) }))"""
    guessed = page.evaluate(boxes)
    page.add_style_tag(content="[data-section], [data-rows] { content-visibility: visible !important; }")
    drawn = page.evaluate(boxes)
    skipped = [(guess["id"], guess["height"], real["height"]) for guess, real in zip(guessed, drawn) if guess["skipped"]]
    assert len(skipped) >= 5, guessed  # the page's lower sections, off screen at load
    assert [(id_, guess, real) for id_, guess, real in skipped if guess < real] == []


# --- the reader's place across a reload or a step back (find-restore.js) ----------------------
# Sections above the place come back with a guessed height (refsite.css): the browser's restored
# offset alone showed another part of the page (measured: up to 1,067 px off at 1280 px wide,
# 2,933–4,991 at 390).

DEEP_ROW = "guard-data-dependent"  # in the seventh of 附录A's nine sections


@pytest.mark.parametrize("width", [1280, 390])
def test_a_reload_keeps_the_readers_place(site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    left = read_down_to(page, DEEP_ROW)
    page.reload()
    back = back_at(page)
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "reload"
    assert_same_place(left, back)


@pytest.mark.parametrize("address", ["#silent-bugs", "?find=backward"])
def test_a_reload_keeps_the_readers_place_over_the_address(site_url, new_page, address):
    """The address's anchor, or a shared query's first match, is where the reader started, not
    where they were when they reloaded."""
    page = new_page(viewport=(390, 844))
    page.goto(site_url + APPENDIX + address)
    left = read_down_to(page, "forgot-eval")
    page.reload()
    assert_same_place(left, back_at(page))


def test_a_place_reached_before_the_page_was_idle_is_kept(site_url, browser, new_page):
    """The place is written down by code fetched at idle (find-restore.js, with the lazy file):
    a reader who got there before that, and reads on without scrolling, still comes back to it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # At the page's first moment, before any idle time: as a reader's quick flick down would.
    context.add_init_script("""addEventListener("DOMContentLoaded", () => {
        if (performance.getEntriesByType("navigation")[0].type === "navigate")
            document.getElementById("forgot-eval").scrollIntoView({ block: "start" });
    })""")
    page = new_page(context=context)
    page.goto(site_url + APPENDIX)
    page.wait_for_selector("[data-find-copy]", state="attached")
    page.wait_for_timeout(3000)  # idle has come and gone, and the place is at rest
    left = page.evaluate(ROW_AT_TOP_JS)
    page.reload()
    assert_same_place(left, back_at(page))


@pytest.fixture(scope="module")
def bfcache_browser(browser, chromium_executable):
    """Chromium as a reader has it: Playwright launches it without the back/forward cache."""
    launched = browser.browser_type.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS,
                                           ignore_default_args=["--disable-back-forward-cache"])
    yield launched
    launched.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_step_back_keeps_the_readers_place(site_url, new_page, width):
    page = new_page(viewport=(width, 900))
    page.goto(site_url + APPENDIX)
    left = read_down_to(page, DEEP_ROW)
    page.evaluate("addEventListener('unload', () => {})")  # loaded again, whatever the browser's cache
    page.goto(site_url + "index.html")
    page.go_back()
    back = back_at(page)
    assert page.evaluate("performance.getEntriesByType('navigation')[0].type") == "back_forward"
    assert_same_place(left, back)


def test_a_step_back_to_the_cached_page_finds_it_as_it_was(site_url, bfcache_browser, new_page):
    context = bfcache_browser.new_context(viewport={"width": 390, "height": 844})
    page = new_page(context=context)
    try:
        page.goto(site_url + APPENDIX)
        left = read_down_to(page, DEEP_ROW)
        page.evaluate("addEventListener('pageshow', (event) => { window.fromCache = event.persisted; })")
        page.goto(site_url + "index.html")
        page.go_back(wait_until="commit")  # no load event: the page was kept
        page.wait_for_function("window.fromCache === true")
        page.evaluate(AFTER_FRAMES_JS, 10)
        assert_same_place(left, page.evaluate(ROW_AT_TOP_JS))
    finally:
        context.close()


def test_after_a_reload_the_reader_scrolls_freely(site_url, new_page):
    page = new_page(viewport=(390, 844))
    page.goto(site_url + APPENDIX)
    read_down_to(page, DEEP_ROW)
    page.reload()
    back_at(page)
    restored = page.locator(f"#{DEEP_ROW}").bounding_box()["y"]
    page.mouse.move(195, 500)
    page.mouse.wheel(0, -2000)  # up, across sections drawn only now
    page.evaluate(AFTER_FRAMES_JS, 30)
    assert page.locator(f"#{DEEP_ROW}").bounding_box()["y"] > restored + 1000, "the page pulled the reader back"


def test_a_history_that_refuses_writes_leaves_the_page_working(site_url, browser, new_page):
    """A browser that refuses history writes (too many, a sandbox): no error, and the page searches
    and reloads as it would without the place kept."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("""(() => {
        const refuse = () => { throw new DOMException('refused', 'SecurityError'); };
        History.prototype.replaceState = refuse;
        History.prototype.pushState = refuse;
        Object.defineProperty(History.prototype, 'scrollRestoration', { get: refuse, set: refuse });
        Object.defineProperty(History.prototype, 'state', { get: refuse });
    })()""")
    page = new_page(context=context)
    try:
        page.goto(site_url + APPENDIX)
        read_down_to(page, DEEP_ROW)
        page.fill("[data-find-input]", "backward")
        page.wait_for_timeout(600)  # past the query's write to the address (find-url.js)
        page.reload()
        page.wait_for_selector("[data-find-copy]", state="attached")
        page.evaluate(AFTER_FRAMES_JS, 10)
        page.fill("[data-find-input]", "backward")
        page.wait_for_function("document.querySelector('[data-find-status]').textContent.includes('/')")
        page.wait_for_timeout(600)
    finally:
        context.close()


# --- served under a sub-path, as GitHub Pages serves a project's site -------------------------

@pytest.fixture(scope="module")
def subpath_url(built_site, tmp_path_factory):
    """The built site at http://…/pytorch-error-lookup/, as `https://<owner>.github.io/<repo>/`."""
    root = tmp_path_factory.mktemp("host")
    (root / "pytorch-error-lookup").symlink_to(built_site, target_is_directory=True)
    server = serve(root)
    yield f"http://127.0.0.1:{server.server_address[1]}/pytorch-error-lookup/"
    server.shutdown()


def test_under_a_sub_path_search_answers_and_progress_work(subpath_url, page):
    from playwright.sync_api import expect

    from find_support import current_entries, open_reference, paste
    from progress_support import ticks

    # Home, then 附录A by clicking, never leaving the sub-path.
    page.goto(subpath_url)
    page.locator("a.rs-book__title").first.click()
    page.get_by_role("link", name=re.compile("附录A")).first.click()
    assert page.url.startswith(subpath_url + "pytorch/")

    # The box answers a pasted line (its index and rules load from under the sub-path).
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_reference(page, subpath_url)
    paste(page, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)")
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'match'")
    page.press("[data-find-input]", "Enter")
    page.wait_for_selector('[data-entry][aria-current="true"]')
    assert current_entries(page)[0] == "matmul-shapes"

    # A tick survives a reload and counts on the home page.
    ticks(page).first.check()
    page.reload()
    expect(ticks(page).first).to_be_checked()
    page.goto(subpath_url)
    expect(page.locator("[data-progress=''] [data-progress-count]")).to_contain_text("1/")

    # Material's site search finds a chapter.
    box = page.locator(".md-search__input")
    box.click()
    box.fill("DataLoader")
    box.press("End")
    result = page.locator(".md-search-result__link").first
    expect(result).to_be_visible()
    assert result.get_attribute("href").startswith(subpath_url)


def test_the_site_search_index_is_fetched_when_the_search_opens_not_before(site_url, page):
    """Material requests the whole site's search index as it starts; held back (overrides/main.html)
    until the reader opens the search, then the search works as before."""
    from playwright.sync_api import expect

    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site_url + "pytorch/01.html")
    page.wait_for_load_state("networkidle")
    assert not [url for url in requested if "search_index" in url]
    box = page.locator(".md-search__input")
    box.click()
    box.fill("backward")
    box.press("End")
    expect(page.locator(".md-search-result__link").first).to_be_visible()
    assert [url for url in requested if url.endswith("search/search_index.json")]


def test_an_address_that_asks_for_search_gets_its_index_at_once(site_url, page):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site_url + "pytorch/01.html?h=backward")
    page.wait_for_load_state("networkidle")
    assert [url for url in requested if url.endswith("search/search_index.json")]


@pytest.mark.parametrize("system, first, other", [("light", "default", "slate"), ("dark", "slate", "default")])
def test_the_palette_follows_the_system_then_the_readers_choice(site_url, browser, new_page, system, first, other):
    """The header's light/dark toggle (overrides/partials/palette.html), switched without Material's
    palette component: the system's scheme from the first paint, a click or Enter on the toggle
    switches and is remembered, and the theme's start-up never restyles the page for it."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=system)
    page = new_page(context=context)
    page.add_init_script("""
        window.__switching = 0;
        new MutationObserver((changes) => {
            for (const change of changes) if (change.target.hasAttribute("data-md-color-switching")) window.__switching += 1;
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-md-color-switching"] });
    """)
    page.goto(site_url + APPENDIX)
    page.wait_for_load_state("networkidle")
    body = page.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", first)
    assert page.evaluate("window.__switching") == 0  # no restyle of the whole page at start-up
    assert page.locator("meta[name=color-scheme]").get_attribute("content") == ("dark" if first == "slate" else "light")

    page.locator("[data-refsite-palette] label:not([hidden])").click()
    expect(body).to_have_attribute("data-md-color-scheme", other)
    page.reload()
    expect(body).to_have_attribute("data-md-color-scheme", other)  # remembered
    page.locator("[data-refsite-palette] input").first.focus()
    page.keyboard.press("Enter")
    expect(body).to_have_attribute("data-md-color-scheme", first)
    expect(page.locator("[data-refsite-palette] label:not([hidden])")).to_have_count(1)
    context.close()


def test_without_scripts_the_progress_panel_is_not_shown(site_url, browser, new_page):
    """Its buttons need scripts: where none run (`no-js` stays on <html>), the home page leaves it
    out; where they do, it is there from the first paint (nothing below it moves)."""
    context = browser.new_context(java_script_enabled=False)
    page = new_page(context=context)
    page.goto(site_url)
    assert page.locator("html").get_attribute("class") == "no-js"
    assert not page.locator("[data-progress-panel]").is_visible()
    context.close()
    page = new_page()
    page.goto(site_url)
    assert page.locator("[data-progress-panel]").is_visible()
