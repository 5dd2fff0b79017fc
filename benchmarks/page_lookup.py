"""What 附录A's box answers for pastes: each pasted with a real paste event (Ctrl+V) in Chromium.

Used by benchmarks/real_pastes.py --page. Builds the site into a temporary folder, serves it,
and for each text, from the top of the page with the box empty, pastes it and reads the verdict
(`data-find-verdict`) and the first row: the current entry for `literal`, the first suggestion
otherwise (none for `none`), or for a `weak` line found only in 九 the current entry there.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

READ_ANSWER = """() => {
    const form = document.querySelector('[data-find]');
    const verdict = form.dataset.findVerdict;
    const current = document.querySelector('[data-entry][aria-current="true"]');
    const suggestion = document.querySelector('[data-find-suggestions] li a');
    // (A `weak` line found only in 九, the rows the page leaves out, is shown there: current, no suggestions.)
    const first = verdict === 'literal' ? current?.id
        : verdict === 'none' ? null : suggestion?.getAttribute('href').slice(1) ?? current?.id;
    return [verdict, first ?? null];
}"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def build(site_dir: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site_dir)], cwd=ROOT, env=env, check=True)


# Before a paste: when the form gets its verdict, and the longest task meanwhile (Long Tasks API:
# only tasks over 50 ms are reported), so that a long paste's wait and whether the page still
# answers input can be read after it.
WATCH_VERDICT = """() => {
    const form = document.querySelector('[data-find]');
    window.__pasted = { began: performance.now(), answered: null, longest: 0 };
    new MutationObserver((changes, observer) => {
        if (form.dataset.findVerdict) { window.__pasted.answered = performance.now(); observer.disconnect(); }
    }).observe(form, { attributes: true, attributeFilter: ['data-find-verdict'] });
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__pasted.longest = Math.max(window.__pasted.longest, entry.duration);
    }).observe({ type: 'longtask' });
}"""


def page_answers(texts: list[str], *, timed: bool = False) -> list[tuple]:
    """(verdict, first row) for each text pasted into 附录A's box; with `timed`, also the
    milliseconds from the paste to the verdict and the longest task meanwhile."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build(site)
        handler = functools.partial(_QuietHandler, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        answers = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.grant_permissions(["clipboard-read", "clipboard-write"])
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/pytorch/appendix-a.html")
                page.wait_for_selector("[data-find-copy]", state="attached")
                for text in texts:
                    page.fill("[data-find-input]", "")
                    page.evaluate("() => window.scrollTo(0, 0)")
                    page.wait_for_function("() => !document.querySelector('[data-find]').dataset.findVerdict")
                    page.evaluate("text => navigator.clipboard.writeText(text)", text)
                    page.focus("[data-find-input]")
                    if timed:
                        page.evaluate(WATCH_VERDICT)
                    page.keyboard.press("Control+V")
                    try:
                        # (A long paste may take seconds where something is slow: give it time.)
                        page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict",
                                               timeout=30_000 if timed else 10_000)
                    except Exception:  # noqa: BLE001 - an empty paste leaves the box empty: no verdict
                        answers.append(("none", None) + ((None, None) if timed else ()))
                        continue
                    answer = tuple(page.evaluate(READ_ANSWER))
                    if timed:
                        page.wait_for_timeout(100)  # (a long task is reported once it has ended)
                        took = page.evaluate("() => [window.__pasted.answered - window.__pasted.began, window.__pasted.longest]")
                        answer += tuple(took)
                    answers.append(answer)
                browser.close()
        finally:
            server.shutdown()
    return answers
