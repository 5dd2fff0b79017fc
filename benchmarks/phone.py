"""Fast on a phone: the site as a reader opens it from a chat link, beside a plain Material page.

    python benchmarks/phone.py [--runs 5] [--no-lighthouse] [--no-playwright]

Builds the project as it is and its peer: the seed's text as one Markdown page under Material's
defaults (theme, `language: zh`, the search plugin), what a reader would otherwise get. Serves
both gzipped, as static hosts do (tests' server does not compress, and that misleads), then:

1. Lighthouse 12.8.2 (pinned: 13 needs Node 22), its default mobile preset (simulated 4× slower
   CPU, 150 ms round trips, 1.6 Mbps), on every kind of page: home, book index, 附录A, a chapter,
   and the peer. Runs are interleaved (peer, home, …, peer, home, …) so that the machine's other
   load falls on all alike; the median of --runs each. Installed on first use with npm into
   ~/.cache/refsite-lighthouse (its own package.json), run with CHROME_PATH (default
   /usr/bin/chromium).
2. Playwright on 附录A at 390×844 with 4× CPU throttling and the same network: every keystroke
   of `size mismatch` typed from 500 ms after load, to its painted frame, and the longest task
   while typing; a pasted error line the page does not hold (it needs the lookup's index and
   rules), from the paste event to the painted answer, 1.5 s after load and at the load event.

Goals (issue "Fast on a phone"): Lighthouse performance on 附录A within 2 points of the peer and
≥ 95 elsewhere, accessibility, best practices and SEO 100; LCP ≤ 2.0 s, TBT ≤ 100 ms and CLS ≤
0.05 on 附录A; every keystroke ≤ 50 ms to a painted frame, no long task over 50 ms while typing;
the pasted line ≤ 300 ms 1.5 s after load and ≤ 800 ms at the load event. Take figures on a
quiet machine: under load they double.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import mimetypes
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM_ARGS  # noqa: E402  (the tests' Chromium flags)

SEED = ROOT.parent / "shared" / "seed" / "000_37017fb467af60bf.txt"
LIGHTHOUSE = "12.8.2"
LIGHTHOUSE_HOME = Path.home() / ".cache" / "refsite-lighthouse"
PAGES = {  # kind -> path in our site; the peer is its own index.html
    "home": "index.html",
    "book index": "pytorch/index.html",
    "附录A": "pytorch/appendix-a.html",
    "chapter": "pytorch/01.html",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TYPED = "size mismatch"
PASTED = "RuntimeError: Found dtype Long but expected Float"  # not on the page: index and rules
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6 * 1024 * 1024 / 8,
           "uploadThroughput": 750 * 1024 / 8}
CPU_SLOWDOWN = 4


# --- serving as a static host does ----------------------------------------------------------

class _GzipHandler(SimpleHTTPRequestHandler):
    """Files as they are, text gzipped when the client accepts it (level 6, as nginx does)."""

    compressed: dict[Path, bytes] = {}

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        body = path.read_bytes()
        packed = kind.startswith("text/") or kind in ("application/javascript", "application/json", "image/svg+xml")
        if packed and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = self.compressed.setdefault(path, gzip.compress(body, compresslevel=6, mtime=0))
        self.send_response(200)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") else ""))
        self.send_header("Content-Length", str(len(body)))
        if packed and body[:2] == b"\x1f\x8b":
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Cache-Control", "max-age=600")  # GitHub Pages' own
        self.end_headers()
        from io import BytesIO
        return BytesIO(body)


def serve_gzipped(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_GzipHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


# --- the two sites --------------------------------------------------------------------------

def build(project: Path, site_dir: Path) -> Path:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml"),
                    "-d", str(site_dir)], check=True, cwd=project, capture_output=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return site_dir


def write_peer(destination: Path) -> Path:
    """The seed's text as one Markdown page under Material's defaults."""
    (destination / "docs").mkdir(parents=True)
    (destination / "docs" / "index.md").write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    config = {"site_name": "PyTorch 报错反查", "theme": {"name": "material", "language": "zh"},
              "plugins": [{"search": {"lang": "zh"}}]}
    (destination / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return destination


# --- Lighthouse -----------------------------------------------------------------------------

def lighthouse_command() -> Path:
    command = LIGHTHOUSE_HOME / "node_modules" / ".bin" / "lighthouse"
    installed = LIGHTHOUSE_HOME / "node_modules" / "lighthouse" / "package.json"
    if not installed.is_file() or json.loads(installed.read_text())["version"] != LIGHTHOUSE:
        LIGHTHOUSE_HOME.mkdir(parents=True, exist_ok=True)
        (LIGHTHOUSE_HOME / "package.json").write_text('{"name": "refsite-lighthouse", "private": true}\n')
        subprocess.run(["npm", "install", "--silent", f"lighthouse@{LIGHTHOUSE}"], cwd=LIGHTHOUSE_HOME, check=True)
    return command


def lighthouse(url: str, chromium: str) -> dict:
    done = subprocess.run(
        [str(lighthouse_command()), url, "--output=json", "--output-path=stdout", "--quiet",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
         f"--only-categories={','.join(CATEGORIES)}"],
        capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium}, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    audits = report["audits"]
    figures = {category: round(100 * (report["categories"][category]["score"] or 0)) for category in CATEGORIES}
    figures |= {"lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
                "tbt_ms": audits["total-blocking-time"]["numericValue"],
                "cls": audits["cumulative-layout-shift"]["numericValue"],
                "failed": sorted(key for key, audit in audits.items() if audit.get("score") == 0
                                 and audit.get("scoreDisplayMode") == "binary")}
    return figures


def lighthouse_figures(targets: dict[str, str], runs: int, chromium: str) -> dict[str, dict]:
    results: dict[str, list[dict]] = {name: [] for name in targets}
    for run in range(runs):
        for name, url in targets.items():
            results[name].append(lighthouse(url, chromium))
            print(f"  lighthouse run {run + 1}/{runs}: {name}", file=sys.stderr)
    medians = {}
    for name, figures in results.items():
        medians[name] = {key: statistics.median(f[key] for f in figures) for key in figures[0] if key != "failed"}
        medians[name]["failed"] = sorted({key for f in figures for key in f["failed"]})
    return medians


def print_lighthouse(medians: dict[str, dict], runs: int) -> None:
    print(f"\n## Lighthouse {LIGHTHOUSE}, mobile preset, median of {runs} (served gzipped)\n")
    print("| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | failed audits |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, m in medians.items():
        print(f"| {name} | {m['performance']:.0f} | {m['accessibility']:.0f} | {m['best-practices']:.0f} | "
              f"{m['seo']:.0f} | {m['lcp_s']:.2f} s | {m['tbt_ms']:.0f} ms | {m['cls']:.3f} | "
              f"{', '.join(m['failed']) or '—'} |")
    peer, appendix = medians.get("peer"), medians.get("附录A")
    if peer and appendix:
        print(f"\ngoal: 附录A performance within 2 of the peer's {peer['performance']:.0f}: "
              f"{appendix['performance']:.0f} ({'meets' if appendix['performance'] >= peer['performance'] - 2 else 'misses'})")
        print(f"goal: 附录A LCP ≤ 2.0 s, TBT ≤ 100 ms, CLS ≤ 0.05: {appendix['lcp_s']:.2f} s, "
              f"{appendix['tbt_ms']:.0f} ms, {appendix['cls']:.3f}")
    others = {name: m for name, m in medians.items() if name not in ("peer", "附录A")}
    below = [f"{name} {m['performance']:.0f}" for name, m in others.items() if m["performance"] < 95]
    print(f"goal: ≥ 95 on every other page: {'meets' if not below else 'misses: ' + ', '.join(below)}")
    imperfect = [f"{name} {category} {m[category]:.0f}" for name, m in medians.items() if name != "peer"
                 for category in CATEGORIES[1:] if m[category] < 100]
    print(f"goal: accessibility, best practices, SEO 100: {'meets' if not imperfect else 'misses: ' + ', '.join(imperfect)}")


# --- Playwright at phone size ---------------------------------------------------------------

# Long tasks from the start of the page, kept for reading back.
LONG_TASKS_INIT = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
"""

# One key typed into the box as the browser types it, to the frame painted after it.
KEY_JS = """async (key) => {
  const input = document.querySelector("[data-find-input]");
  input.focus();
  const started = performance.now();
  input.value += key;
  input.dispatchEvent(new InputEvent("input", { bubbles: true, data: key, inputType: "insertText" }));
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - started;
}"""

# A paste event carrying `text`, to the frame painted once the box has its verdict.
PASTE_JS = """async (text) => {
  const form = document.querySelector("[data-find]");
  const input = form.querySelector("[data-find-input]");
  input.focus();
  const started = performance.now();
  const data = new DataTransfer();
  data.setData("text/plain", text);
  input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  await new Promise((resolve) => {
    const done = () => form.dataset.findVerdict;
    if (done()) return resolve();
    new MutationObserver((_, observer) => { if (done()) { observer.disconnect(); resolve(); } })
      .observe(form, { attributes: true, attributeFilter: ["data-find-verdict"] });
  });
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return { ms: performance.now() - started, verdict: form.dataset.findVerdict };
}"""


def phone_page(browser, url: str):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.add_init_script(LONG_TASKS_INIT)
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", NETWORK)
    page.goto(url, wait_until="load", timeout=120_000)
    return page, errors


def playwright_figures(url: str, runs: int, chromium: str) -> dict:
    from playwright.sync_api import sync_playwright

    keys, worst_keys, long_while_typing, pasted_late, pasted_at_load, verdicts = [], [], [], [], [], set()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                page, errors = phone_page(browser, url)
                page.wait_for_timeout(500)
                typing_from = page.evaluate("performance.now()")
                times = [page.evaluate(KEY_JS, key) for key in TYPED]
                tasks = page.evaluate("window.__longTasks")
                keys += times
                worst_keys.append(max(times))
                long_while_typing.append(max([duration for start, duration in tasks if start >= typing_from], default=0))
                page.context.close()
                assert not errors, errors

                page, errors = phone_page(browser, url)
                page.wait_for_timeout(1500)
                answer = page.evaluate(PASTE_JS, PASTED)
                pasted_late.append(answer["ms"])
                verdicts.add(answer["verdict"])
                page.context.close()

                page, errors = phone_page(browser, url)  # pasted at the load event
                answer = page.evaluate(PASTE_JS, PASTED)
                pasted_at_load.append(answer["ms"])
                verdicts.add(answer["verdict"])
                page.context.close()
                assert not errors, errors
        finally:
            browser.close()
    return {"key_median": statistics.median(keys), "key_worst": statistics.median(worst_keys),
            "key_max": max(keys), "long_task": statistics.median(long_while_typing),
            "pasted_late": statistics.median(pasted_late), "pasted_at_load": statistics.median(pasted_at_load),
            "verdicts": sorted(verdicts)}


def print_playwright(figures: dict, runs: int) -> None:
    print(f"\n## 附录A at 390×844, {CPU_SLOWDOWN}× CPU, 150 ms / 1.6 Mbps (median of {runs} runs)\n")
    print("| what | figure | goal |\n| --- | ---: | --- |")
    print(f"| a keystroke of `{TYPED}` from 500 ms after load, to its painted frame (median) | "
          f"{figures['key_median']:.0f} ms | ≤ 50 ms each |")
    print(f"| the worst keystroke of a run (median over runs; worst of all {figures['key_max']:.0f} ms) | "
          f"{figures['key_worst']:.0f} ms | ≤ 50 ms |")
    print(f"| the longest task while typing | {figures['long_task']:.0f} ms | none over 50 ms |")
    print(f"| a pasted line not on the page, 1.5 s after load | {figures['pasted_late']:.0f} ms | ≤ 300 ms |")
    print(f"| the same, pasted at the load event | {figures['pasted_at_load']:.0f} ms | ≤ 800 ms |")
    print(f"\n(verdicts the pasted line got: {', '.join(figures['verdicts'])})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--no-playwright", action="store_true")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="refsite-phone-") as scratch:
        work = Path(scratch)
        ours = build(ROOT, work / "site")
        peer = build(write_peer(work / "peer"), work / "peer-site")
        our_server, our_url = serve_gzipped(ours)
        peer_server, peer_url = serve_gzipped(peer)
        try:
            if not arguments.no_lighthouse:
                targets = {"peer": peer_url, **{name: our_url + path for name, path in PAGES.items()}}
                print_lighthouse(lighthouse_figures(targets, arguments.runs, arguments.chromium), arguments.runs)
            if not arguments.no_playwright:
                figures = playwright_figures(our_url + PAGES["附录A"], arguments.runs, arguments.chromium)
                print_playwright(figures, arguments.runs)
        finally:
            our_server.shutdown()
            peer_server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
