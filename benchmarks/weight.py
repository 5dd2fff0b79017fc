"""Page weight: everything 附录A loads, raw and gzipped, against a default Material page.

    python benchmarks/weight.py

Builds the project as it is, and a default Material page in a temporary project (the same
theme, language, features and plugins, without our hooks, overrides, extra CSS, extra JS or
polyfills), serves each, opens it in Chromium and records every response. Each body is
gzipped here at level 6 (the test server sends it uncompressed), so the figures say what a
server with gzip would send. Requests leaving the local server are blocked and listed.

Then, on 附录A, what each step loads: focusing the box, typing a query that is on the page,
and pasting an error line that is not (the one that needs the page's find index and lookup templates).

Goal: our own scripts and styles (assets/refsite/*, assets/vendor/*) at most 20 KB gzipped at
page load. The lookup's index, rules and the code that reads a paste and ranks
(modules-lazy.js) are counted apart: they are fetched at idle once the page has loaded (issue
"Fast on a phone"), so that the first paste does not wait for them.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHROMIUM_ARGS, serve  # noqa: E402  (the tests' static server and flags)

APPENDIX = "pytorch/appendix-a.html"
GOAL_OWN_GZ = 20_000
LITERAL_QUERY = "backward"
PASTED = yaml.safe_load((ROOT / "tests" / "fixtures" / "pasted_errors.yml")
                        .read_text(encoding="utf-8"))[0]["pasted"]

# Checked in order; the first prefix of the site-relative path that matches names the group.
GROUPS = [
    ("assets/refsite/find-index/", "at idle: lookup index + rules"),
    ("assets/refsite/modules-lazy.js", "at idle: lookup code"),
    ("assets/refsite/", "ours: scripts + styles"),
    ("assets/vendor/", "ours: vendored shim"),
    ("assets/javascripts/workers/", "Material: search worker"),
    ("assets/javascripts/lunr/", "Material: search worker"),
    ("search/", "Material: search index"),
    ("assets/javascripts/", "Material: CSS + JS"),
    ("assets/stylesheets/", "Material: CSS + JS"),
]
OWN_GROUPS = ("ours: scripts + styles", "ours: vendored shim")
# Fetched at idle once the page has loaded (find.js), so that a first paste does not wait.
AT_IDLE = ("at idle: lookup index + rules", "at idle: lookup code")
ORDER = ["HTML", "Material: CSS + JS", *OWN_GROUPS, "Material: search worker",
         "Material: search index", *AT_IDLE, "other"]


@dataclass
class Load:
    """The responses one page view received, by site-relative path."""
    bodies: dict[str, bytes] = field(default_factory=dict)
    blocked: list[str] = field(default_factory=list)

    def group_of(self, path: str, documents: set[str]) -> str:
        if path in documents:
            return "HTML"
        return next((name for prefix, name in GROUPS if path.startswith(prefix)), "other")


def gz(body: bytes) -> int:
    return len(gzip.compress(body, compresslevel=6, mtime=0))


def build(project: Path, site_dir: Path) -> Path:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict",
                    "-f", str(project / "mkdocs.yml"), "-d", str(site_dir)],
                   check=True, env=env, cwd=project, capture_output=True)
    return site_dir


def write_default_project(destination: Path) -> Path:
    """Our mkdocs.yml minus everything the project adds to Material, and one page."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    for key in ("hooks", "watch", "extra_css", "extra_javascript", "extra"):
        config.pop(key, None)
    config["theme"].pop("custom_dir", None)
    config["docs_dir"] = "docs"
    (destination / "docs").mkdir(parents=True)
    (destination / "docs" / "index.md").write_text(
        "# 默认页面\n\n一页 Material 默认主题的正文，用来对比。\n\n"
        "| 报错原文 | 常见原因 |\n|---|---|\n| `RuntimeError` | 说明 |\n", encoding="utf-8")
    (destination / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return destination


class Recorder:
    """Every response of one browser context, keyed by path below the served site."""

    def __init__(self, context, base: str):
        self.base, self.load, self.documents = base, Load(), set()
        context.route("**/*", self._local_only)
        context.on("response", self._response)

    def _local_only(self, route):
        if route.request.url.startswith(self.base):
            route.continue_()
        else:
            self.load.blocked.append(route.request.url)
            route.abort()

    def _response(self, response):
        if not response.url.startswith(self.base) or response.status != 200:
            return
        path = unquote(urlsplit(response.url).path).lstrip("/")
        if response.request.resource_type == "document":
            self.documents.add(path)
        self.load.bodies[path] = response.body()

    def take(self) -> tuple[Load, set[str]]:
        """What arrived since the last take."""
        taken, documents = self.load, self.documents
        self.load, self.documents = Load(), set()
        return taken, documents


def settle(page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the search worker fetches its index after the page is idle


def measure(browser, site_dir: Path, path: str, *, with_find: bool) -> dict:
    server = serve(site_dir)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        recorder = Recorder(context, base)
        page = context.new_page()
        page.goto(base + path)
        settle(page)
        views = {"page load": recorder.take()}
        if with_find:
            box = page.locator("[data-find-input]")
            box.focus()
            settle(page)
            views["focused the box"] = recorder.take()
            box.press_sequentially(LITERAL_QUERY)
            page.locator("[data-find-status]").filter(has_text="匹配").wait_for()
            settle(page)
            views[f"typed {LITERAL_QUERY!r} (on the page)"] = recorder.take()
            box.fill(PASTED)
            page.locator("[data-find-suggestion]").first.wait_for()
            settle(page)
            views["pasted an error line (not on the page)"] = recorder.take()
        return views
    finally:
        context.close()
        server.shutdown()


def grouped(load: Load, documents: set[str]) -> dict[str, list[tuple[str, int, int]]]:
    groups: dict[str, list[tuple[str, int, int]]] = {}
    for path, body in sorted(load.bodies.items()):
        groups.setdefault(load.group_of(path, documents), []).append((path, len(body), gz(body)))
    return groups


def kb(n: int) -> str:
    return f"{n / 1000:.1f}"


def totals(files) -> tuple[int, int]:
    return sum(raw for _, raw, _ in files), sum(packed for _, _, packed in files)


def print_comparison(default: dict, appendix: dict) -> None:
    print(f"\n{'at page load (KB)':<26} {'default raw':>11} {'gz':>7} {'附录A raw':>11} {'gz':>7}")
    both = [default, appendix]
    for name in ORDER:
        cells = [totals(view.get(name, [])) for view in both]
        if any(raw for raw, _ in cells):
            print(f"{name:<26} " + " ".join(f"{kb(raw):>11} {kb(packed):>7}" for raw, packed in cells))
    sums = [totals([f for files in view.values() for f in files]) for view in both]
    print(f"{'total':<26} " + " ".join(f"{kb(raw):>11} {kb(packed):>7}" for raw, packed in sums))


def print_files(title: str, files) -> None:
    print(f"\n{title}")
    for path, raw, packed in sorted(files, key=lambda f: -f[2]):
        print(f"  {path:<52} {kb(raw):>7} KB {kb(packed):>6} KB gz")
    raw, packed = totals(files)
    print(f"  {'total':<52} {kb(raw):>7} KB {kb(packed):>6} KB gz")


def machine(browser) -> str:
    from importlib.metadata import version
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else platform.processor()
    return (f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cores; "
            f"Chromium {browser.version}; mkdocs {version('mkdocs')}, "
            f"mkdocs-material {version('mkdocs-material')}; Python {platform.python_version()}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="refsite-weight-") as tmp, sync_playwright() as playwright:
        work = Path(tmp)
        ours = build(ROOT, work / "site")
        default = build(write_default_project(work / "default"), work / "default-site")
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            print(machine(browser))
            default_views = measure(browser, default, "index.html", with_find=False)
            appendix_views = measure(browser, ours, APPENDIX, with_find=True)
        finally:
            browser.close()

    default_load, appendix_load = default_views["page load"], appendix_views["page load"]
    print_comparison(grouped(*default_load), grouped(*appendix_load))
    appendix_groups = grouped(*appendix_load)
    own = [f for name in OWN_GROUPS for f in appendix_groups.get(name, [])]
    print_files("our own files at page load, largest gzipped first:", own)

    lazy_loaded_at_start = [f for name in AT_IDLE for f in appendix_groups.get(name, [])]
    for view, (load, documents) in list(appendix_views.items())[1:]:
        files = [f for group in grouped(load, documents).values() for f in group]
        print_files(f"then {view}:", files) if files else print(f"\nthen {view}: nothing loaded")
    for name, (load, _) in [("default", default_load), ("附录A", appendix_load)]:
        for url in load.blocked:
            print(f"\nblocked ({name}): {url}")

    own_gz = totals(own)[1]
    over = own_gz - GOAL_OWN_GZ
    verdict = "meets" if over <= 0 else f"misses by {kb(over)} KB"
    print(f"\ngoal: our scripts + styles <= {kb(GOAL_OWN_GZ)} KB gz at page load: "
          f"{kb(own_gz)} KB gz, {verdict}")
    fetched_at_idle = totals(lazy_loaded_at_start)
    print(f"the lookup's index, rules and code, fetched at idle after load (counted apart): "
          f"{kb(fetched_at_idle[0])} KB, {kb(fetched_at_idle[1])} KB gz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
