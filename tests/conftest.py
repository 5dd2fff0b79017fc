"""Shared fixtures: one full build of the site, a static server over it, and Chromium.

Every browser page from the `page` fixture fails its test on any console error, page error
or failed request, so no browser test can pass while the page is broken. Chromium and
firefox-esr are found, or installed on a fresh Debian machine, by `system_tools`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from needs import WHY_MISSING, need
from system_tools import Installer, Missing, chromium, firefox

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "hooks", "overrides")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def copy_project(destination: Path) -> Path:
    """A private copy of everything a build reads, for tests that change the data."""
    destination.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, destination / part,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, destination / part)
    return destination


def cite_a_missing_chapter(project: Path) -> str:
    """Break a copy's data (a row cites chapter 44); returns the pattern of the message that names it."""
    page = project / "data" / "pytorch" / "appendix-a.yml"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace('chapters: ["02", "04", "09"]', 'chapters: ["02", "44"]'), encoding="utf-8")
    return r"data/pytorch/appendix-a\.yml:\d+: entry 'no-grad-fn': field 'chapters': chapter '44' does not exist"


def mkdocs_build(project: Path, site_dir: Path) -> subprocess.CompletedProcess:
    """Run `mkdocs build --strict` as a reader would, in its own process."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(project / "mkdocs.yml"),
         "-d", str(site_dir)],
        capture_output=True, text=True, env=env, cwd=project, timeout=300,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The project as it is, built once into a temporary folder."""
    site_dir = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site_dir)
    assert result.returncode == 0, result.stderr
    return site_dir


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


def serve(directory: Path):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@contextlib.contextmanager
def serving(directory: Path, *pages):
    """A server over `directory` for one test's pages, yielding its root URL. The pages leave it
    before it stops: a request still in flight then (a script fetched at idle) is aborted, as
    leaving a page aborts it, instead of failing with a connection reset."""
    server = serve(directory)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        for page in pages:
            page.goto("about:blank")
        server.shutdown()


@pytest.fixture(scope="session")
def site_url(built_site):
    server = serve(built_site)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


_INSTALLER = pytest.StashKey[Installer]()


def pytest_configure(config):
    def say(text: str):
        # Shown as it happens, between test results: an install takes a minute or two.
        with config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
            config.pluginmanager.getplugin("terminalreporter").write_line(f"[system tools] {text}")

    config.stash[_INSTALLER] = Installer(say)


def pytest_runtest_setup(item):
    # `torch` and `node` tests: skipped saying how to get the tool, or failed where required.
    for tool in WHY_MISSING:
        if item.get_closest_marker(tool):
            need(tool)


def pytest_terminal_summary(terminalreporter, config):
    for brought in config.stash[_INSTALLER].brought:
        terminalreporter.write_line(f"[system tools] this run installed {brought}")


def _brought(config, tool) -> str:
    """The tool's path, installed first when missing and allowed; else the test is skipped, saying how."""
    try:
        return config.stash[_INSTALLER].bring(tool)
    except Missing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def chromium_executable(pytestconfig) -> str:
    return _brought(pytestconfig, chromium())


@pytest.fixture(scope="session")
def firefox_executable(pytestconfig) -> str:
    return _brought(pytestconfig, firefox())


@pytest.fixture(scope="session")
def browser(chromium_executable):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class BrowserProblems(list):
    """Console errors, page errors and failed requests seen by one page."""

    def watch(self, page):
        page.on("console", lambda message: message.type == "error" and self.append(
            f"console error: {message.text} ({message.location.get('url', '')})"))
        page.on("pageerror", lambda error: self.append(f"page error: {error}"))
        page.on("requestfailed", self._request_failed)
        return page

    def _request_failed(self, request):
        # Leaving a page aborts what it was still loading (the search worker's scripts, say):
        # that is navigation, not a broken page.
        if request.failure != "net::ERR_ABORTED":
            self.append(f"failed request: {request.url} ({request.failure})")


@pytest.fixture
def new_page(browser):
    """Factory for pages that fail the test on any console error, page error or failed request."""
    contexts, problems = [], BrowserProblems()

    def make(viewport=(1280, 900), context=None):
        if context is None:
            context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
            contexts.append(context)
        return problems.watch(context.new_page())

    make.problems = problems
    yield make
    for context in contexts:
        context.close()
    assert not problems, "the browser reported problems:\n" + "\n".join(problems)


@pytest.fixture
def page(new_page):
    return new_page()
