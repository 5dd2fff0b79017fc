"""Benchmark of the in-page search on long pages of every shape, in Chromium, before and after.

    python benchmarks/find.py                                  # the three shapes, median of 7
    python benchmarks/find.py --before 9558ba9                 # and the same at a git ref, one run
    python benchmarks/find.py --shapes 1x10000 --runs 11

A shape is SECTIONSxROWS: `100x100` and `1x10000` are both 10,000 synthetic error rows
(benchmarks/synthetic.py), in 100 sections or in one; `1x1000` is 1,000 rows in one table. For
each shape the project is generated, built with `mkdocs build` and served; with `--before REF` the
same data is also built by the code at REF (checked out with `git worktree add` into a temporary
folder) and both are measured in the same run, one after the other, in the same browser.

Measured on the built 附录A, median of `--runs`:
- keystroke: a query matching ~1% of the rows, from the input event to the painted frame that
  shows it (a requestAnimationFrame callback, then the task after it: handler + style + layout +
  paint), and the main thread's busy part of that (without the wait for vsync);
- first keystroke: the same query typed 1.5 s after the page's load event, on a fresh page;
- one letter: `e` (hundreds of thousands of matches), to the painted frame, and the longest task
  (Long Tasks API: only tasks over 50 ms are reported);
- mark.js 8.11.1 (npm, into a temporary folder) highlighting the same query on the same page in
  the same run, measured the same way;
- ranked: `rank()` of find-rank.js per pasted line (synthetic rows with other words and numbers,
  and the real torch lines of tests/fixtures/pasted_errors.yml), and the first ranked query on a
  fresh page, from the input event until the suggestions are listed: 1.5 s after load (after the
  first keystroke), and as soon as the box works, the page's text perhaps still folding (both
  load the lookup templates and the ranked index first: they load when a query needs them);
- the ranked index's size, raw and gzipped.
Prints one table per shape with the goals. Not a test: timings depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM_ARGS, serve  # noqa: E402  (the tests' static server and flags)
from synthetic import fragment, write_project  # noqa: E402

PAGE = "pytorch/appendix-a.html"
PAGE_KEY = "pytorch/appendix-a"
MARK_JS_VERSION = "8.11.1"
MARK_JS_LETTER_UP_TO = 1000
FIRST_KEYSTROKE_AFTER_MS = 1500
DEFAULT_SHAPES = ["100x100", "1x10000", "1x1000"]
GOALS = {"keystroke_ms": 16, "first_keystroke_ms": 50, "letter_frame_ms": 100, "letter_longest_task_ms": 50,
         "ranked_ms": 10, "ranked_real_ms": 10, "index_gz_kb": 600, "first_ranked_ms": 300}
REAL_PASTED = [case["pasted"] for case in
               yaml.safe_load((ROOT / "tests" / "fixtures" / "pasted_errors.yml").read_text(encoding="utf-8"))]
# A real line whose row is not on a synthetic page: what the first ranked query pastes.
FIRST_RANKED = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7 and 9x2)"

# Installed in the page first. Resolves after the next frame is painted, with the main thread's
# rendering time for it (style, layout, paint: from the animation frame callback to the next task).
PAINTED_JS = """() => {
    window.painted = () => new Promise((resolve) => requestAnimationFrame(() => {
        const frameStart = performance.now();
        setTimeout(() => { const end = performance.now(); resolve({ rendering: end - frameStart, end }); }, 0);
    }));
}"""

# Runs in the page: one keystroke's worth of work. `busy` is main-thread time (the input handler
# plus rendering the frame that shows it); `frame` also holds the wait for the next vsync.
KEYSTROKE_JS = """async ([query, clearFirst]) => {
    const input = document.querySelector('[data-find-input]');
    if (clearFirst) {
        input.value = '';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await painted();
    }
    const start = performance.now();
    input.value = query;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const handled = performance.now();
    const { rendering, end } = await painted();
    const status = document.querySelector('[data-find-status]').textContent;
    return { handler: handled - start, busy: handled - start + rendering, frame: end - start, status,
             matches: Number((/共 (\\d+) 处/.exec(status) ?? [0, 0])[1]),
             registered: CSS.highlights.get('rs-find')?.size ?? 0 };
}"""


# The first ranked query: from the input event until the suggestions are in the list.
FIRST_RANKED_JS = """async (query) => {
    const input = document.querySelector('[data-find-input]');
    const list = document.querySelector('[data-find-suggestions]');
    const listed = new Promise((resolve) => {
        new MutationObserver((changes, observer) => {
            if (list.querySelector('a')) { observer.disconnect(); resolve(performance.now()); }
        }).observe(list, { childList: true, subtree: true });
    });
    const start = performance.now();
    input.value = query;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const end = await Promise.race([listed, new Promise((resolve) => setTimeout(() => resolve(NaN), 30000))]);
    return end - start;
}"""

MARK_JS = """async (query) => {
    const marker = new Mark(document.querySelectorAll('[data-find-text]'));
    await new Promise((done) => marker.unmark({ done }));
    await painted();
    const start = performance.now();
    let count = 0;
    marker.mark(query, { separateWordSearch: false, diacritics: false, done: (n) => { count = n; } });
    const handled = performance.now();  // mark.js works synchronously
    const { rendering, end } = await painted();
    return { busy: handled - start + rendering, frame: end - start, matches: count };
}"""

RANKED_JS = """async ([key, texts, runs]) => {
    const rankModule = await import(new URL('assets/refsite/find-rank.js', document.baseURI.replace(/[^/]*$/, '../')));
    const index = await rankModule.loadRanker(key);
    const order = new Map([...document.querySelectorAll('[data-entry]')].map((e, i) => [e.id, i]));
    const perQuery = [];
    for (const text of texts) {
        const times = [];
        for (let run = 0; run < runs; run++) {
            const start = performance.now();
            rankModule.rank(index, text, order);
            times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        perQuery.push(times[times.length >> 1]);
    }
    return perQuery;
}"""

# The same wait for a painted frame with no work at all: the floor under every figure above
# (the wait for the next vsync, and what the machine's load adds to each frame).
IDLE_FRAME_JS = """async () => {
    await painted();
    const start = performance.now();
    return (await painted()).end - start;
}"""

LONG_TASKS_JS = """() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask' });
}"""

PASTED_SAMPLES = 20


def parse_shape(shape: str) -> tuple[int, int]:
    sections, rows = (int(part) for part in shape.lower().split("x"))
    return sections, rows


def synthetic_pasted(entries: int) -> list[str]:
    """What a reader would paste for a synthetic row: its code, other words and numbers."""
    rng = random.Random(11)
    return [fragment(rng, rng.randrange(entries)) for _ in range(PASTED_SAMPLES)]


def median(values):
    return statistics.median(values)


def query_for_one_percent(entries: int) -> str:
    """A prefix of the synthetic rows' `E00042` codes that matches entries/100 of them."""
    dropped = round(math.log10(entries / 100))
    return f"E{10 ** dropped:05d}"[: 6 - dropped]


def install_mark_js(folder: Path) -> Path:
    subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent",
                    f"mark.js@{MARK_JS_VERSION}"], check=True)
    return folder / "node_modules" / "mark.js" / "dist" / "mark.min.js"


def checkout(ref: str, work: Path) -> Path:
    """The project as it was at `ref`, in a git worktree of its own (removed at the end)."""
    folder = work / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(folder), ref], check=True)
    return folder


def build(root: Path, sections: int, rows: int, work: Path, label: str) -> tuple[Path, float]:
    entries = sections * rows
    project = write_project(work / f"project-{label}-{sections}x{rows}", entries, per_section=rows, root=root)
    site = work / f"site-{label}-{sections}x{rows}"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(project / "mkdocs.yml"),
                    "-d", str(site)], check=True, cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return site, time.perf_counter() - started


class Pages:
    """Fresh pages of one served site, each failing the run on any console or page error."""

    def __init__(self, browser, url: str):
        self.browser, self.url, self.errors = browser, url, []

    def open(self, wait_for_script: bool = True):
        context = self.browser.new_context(viewport={"width": 1280, "height": 900})  # a cold cache each time
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.goto(self.url, timeout=180_000, wait_until="load")
        if wait_for_script:
            page.wait_for_selector("[data-find-copy]", state="attached", timeout=180_000)
        page.evaluate(PAINTED_JS)
        return page


def measure(browser, url: str, entries: int, mark_js: Path | None, runs: int) -> dict:
    pages = Pages(browser, url)
    query = query_for_one_percent(entries)

    first, first_ranked, first_ranked_cold = [], [], []
    for _ in range(runs):
        page = pages.open(wait_for_script=False)
        page.wait_for_timeout(FIRST_KEYSTROKE_AFTER_MS)
        result = page.evaluate(KEYSTROKE_JS, [query, False])
        assert result["matches"] > 0, f"the first keystroke found nothing: {result['status']!r}"
        first.append(result["frame"])
        first_ranked.append(page.evaluate(FIRST_RANKED_JS, FIRST_RANKED))
        page.context.close()
        page = pages.open()
        first_ranked_cold.append(page.evaluate(FIRST_RANKED_JS, FIRST_RANKED))
        page.context.close()

    page = pages.open()
    page.evaluate(LONG_TASKS_JS)
    idle = [page.evaluate(IDLE_FRAME_JS) for _ in range(runs)]
    page.evaluate(KEYSTROKE_JS, [query, True])  # warm: the code compiled
    # ...and the text folded: the page folds it at idle, in slices, after its scripts start (a
    # 10,000-row page for about 2 s); a keystroke before that searches what is folded so far and
    # says it is still counting, which "first keystroke, 1.5 s after load" measures.
    page.wait_for_function("() => !document.querySelector('[data-find]').hasAttribute('data-find-counting')",
                           timeout=180_000)
    literal = [page.evaluate(KEYSTROKE_JS, [query, True]) for _ in range(runs)]
    page.evaluate("window.__longest = 0")
    letter = [page.evaluate(KEYSTROKE_JS, ["e", True]) for _ in range(runs)]
    longest_task = page.evaluate("window.__longest")
    ranked = page.evaluate(RANKED_JS, [PAGE_KEY, synthetic_pasted(entries), runs])
    ranked_real = page.evaluate(RANKED_JS, [PAGE_KEY, REAL_PASTED, runs])
    figures = {
        "query": query,
        "matches": literal[0]["matches"],
        "status": literal[0]["status"],
        "idle_frame_ms": median(idle),
        "keystroke_ms": median(r["busy"] for r in literal),
        "keystroke_frame_ms": median(r["frame"] for r in literal),
        "keystroke_handler_ms": median(r["handler"] for r in literal),
        "first_keystroke_ms": median(first),
        "letter_matches": letter[0]["matches"],
        "letter_registered": letter[0]["registered"],
        "letter_ms": median(r["busy"] for r in letter),
        "letter_frame_ms": median(r["frame"] for r in letter),
        "letter_longest_task_ms": longest_task,
        "ranked_ms": median(ranked),
        "ranked_max_ms": max(ranked),
        "ranked_real_ms": median(ranked_real),
        "ranked_real_max_ms": max(ranked_real),
        "first_ranked_ms": median(first_ranked),
        "first_ranked_cold_ms": median(first_ranked_cold),
    }
    if mark_js is not None:
        page.fill("[data-find-input]", "")  # our highlights off before mark.js rewrites the DOM
        page.add_script_tag(path=str(mark_js))
        marked = [page.evaluate(MARK_JS, query) for _ in range(runs)]
        # mark.js on one letter takes seconds at 1,000 entries and minutes at 10,000: once, and only there.
        marked_letter = [page.evaluate(MARK_JS, "e")] if entries <= MARK_JS_LETTER_UP_TO else []
        figures |= {
            "markjs_ms": median(r["busy"] for r in marked),
            "markjs_frame_ms": median(r["frame"] for r in marked),
            "markjs_matches": marked[0]["matches"],
            "markjs_letter_ms": median(r["busy"] for r in marked_letter) if marked_letter else None,
        }
    page.context.close()
    assert not pages.errors, pages.errors
    return figures


def sizes_of(site: Path) -> dict:
    index = (site / "assets" / "refsite" / "find-index" / f"{PAGE_KEY}.js").read_bytes()
    page = (site / PAGE).read_bytes()
    return {"index_kb": len(index) / 1024, "index_gz_kb": len(gzip.compress(index)) / 1024,
            "page_kb": len(page) / 1024, "page_gz_kb": len(gzip.compress(page)) / 1024}


# (label, key, goal key or None, format)
ROWS = [
    ("keystroke, main thread (handler + rendering)", "keystroke_ms", "keystroke_ms", "{:.1f} ms"),
    ("keystroke to painted frame", "keystroke_frame_ms", None, "{:.1f} ms"),
    ("  an idle frame (the floor of the line above)", "idle_frame_ms", None, "{:.1f} ms"),
    ("first keystroke, 1.5 s after load, to painted frame", "first_keystroke_ms", "first_keystroke_ms", "{:.1f} ms"),
    ("one letter `e`, to painted frame", "letter_frame_ms", "letter_frame_ms", "{:.1f} ms"),
    ("one letter `e`, longest task (0: none over 50 ms)", "letter_longest_task_ms", "letter_longest_task_ms", "{:.0f} ms"),
    ("mark.js 8.11.1, same query, main thread", "markjs_ms", None, "{:.1f} ms"),
    ("mark.js 8.11.1, same query, to painted frame", "markjs_frame_ms", None, "{:.1f} ms"),
    ("ranked query, synthetic rows pasted (median)", "ranked_ms", "ranked_ms", "{:.2f} ms"),
    ("ranked query, the real torch lines (median)", "ranked_real_ms", "ranked_real_ms", "{:.2f} ms"),
    ("ranked query, slowest real line", "ranked_real_max_ms", None, "{:.2f} ms"),
    ("first ranked query, 1.5 s after load", "first_ranked_ms", "first_ranked_ms", "{:.0f} ms"),
    ("first ranked query, as soon as the box works", "first_ranked_cold_ms", "first_ranked_ms", "{:.0f} ms"),
    ("ranked index, gzipped", "index_gz_kb", "index_gz_kb", "{:.0f} KB"),
    ("ranked index, raw", "index_kb", None, "{:.0f} KB"),
    ("page, gzipped", "page_gz_kb", None, "{:.0f} KB"),
]


def cell(figures: dict | None, key: str, form: str) -> str:
    value = None if figures is None else figures.get(key)
    return "—" if value is None else form.format(value)


def report(shape: str, results: dict[str, dict]) -> None:
    """`results`: label ("before", "after") -> figures."""
    labels = list(results)
    sample = results[labels[-1]]
    print(f"\n== {shape} ({sample['entries']:,} rows): query '{sample['query']}', {sample['matches']:,} matches; "
          f"'e': {sample['letter_matches']:,} matches")
    print(" | ".join(["figure".ljust(52), *[label.rjust(10) for label in labels], "goal".rjust(10), "met"]))
    for label, key, goal_key, form in ROWS:
        goal = GOALS.get(goal_key) if goal_key else None
        last = sample.get(key)
        met = "" if goal is None or last is None else ("ok" if last <= goal else "MISSED")
        goal_text = "" if goal is None else f"<= {goal}"
        print(" | ".join([label.ljust(52), *[cell(results[l], key, form).rjust(10) for l in labels],
                          goal_text.rjust(10), met]))
    build = ", ".join(f"{label} {results[label]['build_s']:.1f} s" for label in labels)
    print(f"build: {build}   (benchmarks/build.py measures it against static files)")
    if "markjs_ms" in sample:
        print(f"ours vs mark.js, main thread: {sample['markjs_ms'] / sample['keystroke_ms']:.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, help="SECTIONSxROWS, e.g. 1x10000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", metavar="REF", help="also measure the code at this git ref (commit, tag, branch)")
    parser.add_argument("--no-mark-js", action="store_true", help="skip mark.js (no npm needed)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores; "
          f"median of {args.runs} runs")
    with tempfile.TemporaryDirectory(prefix="find-bench-") as tmp, sync_playwright() as playwright:
        work = Path(tmp)
        mark_js = None if args.no_mark_js else install_mark_js(work / "npm")
        roots = {"after": ROOT}
        if args.before:
            roots = {"before": checkout(args.before, work), "after": ROOT}
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                                             args=CHROMIUM_ARGS)
        print(f"Chromium {browser.version}")
        try:
            for shape in args.shapes:
                sections, rows = parse_shape(shape)
                results = {}
                for label, root in roots.items():
                    site, build_s = build(root, sections, rows, work, label)
                    server = serve(site)
                    try:
                        url = f"http://127.0.0.1:{server.server_address[1]}/{PAGE}"
                        figures = measure(browser, url, sections * rows, mark_js if label == "after" else None,
                                          args.runs)
                    finally:
                        server.shutdown()
                    results[label] = figures | sizes_of(site) | {"build_s": build_s, "entries": sections * rows}
                report(shape, results)
        finally:
            browser.close()
            if args.before:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(work / "before")],
                               check=False)
    load = os.getloadavg()
    print(f"\nload average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
