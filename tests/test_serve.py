"""The authoring loop: `mkdocs serve` rebuilds when a data file changes."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import copy_project


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return None


def wait_for(url: str, text: str, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = fetch(url)
        if body and text in body:
            return True
        time.sleep(0.5)
    return False


@pytest.fixture
def served_project(tmp_path):
    project = copy_project(tmp_path / "project")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}",
         "-f", str(project / "mkdocs.yml")],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    try:
        yield project, f"http://127.0.0.1:{port}/pytorch/appendix-a.html"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_rebuilds_when_a_data_file_changes(served_project):
    project, url = served_project
    assert wait_for(url, "Inference tensors cannot be saved for backward."), "mkdocs serve did not come up"
    page_file = project / "data" / "pytorch" / "appendix-a.yml"
    text = page_file.read_text(encoding="utf-8")
    page_file.write_text(text.replace("Inference tensors cannot be saved", "Inference tensors cannot be kept"),
                         encoding="utf-8")
    assert wait_for(url, "Inference tensors cannot be kept for backward.")
    # A second edit proves nothing from the first build was carried over.
    page_file.write_text(text, encoding="utf-8")
    assert wait_for(url, "Inference tensors cannot be saved for backward.")
