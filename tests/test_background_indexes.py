"""The ranked indexes are built in a second process, and come out the same."""

import multiprocessing
import time
from pathlib import Path

from refsite.find_index import INDEX_URL_PATTERN, BackgroundIndexes, index_scripts
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"


def test_background_build_writes_what_a_direct_build_gives(tmp_path):
    pages = load_site(DATA).book("pytorch").pages
    BackgroundIndexes(pages).write(tmp_path)
    for key, script in index_scripts(pages).items():
        assert (tmp_path / INDEX_URL_PATTERN.format(key=key)).read_text(encoding="utf-8") == script


def test_cancel_ends_the_worker_process():
    # A failed build or a rebuild under `mkdocs serve` cancels; a worker left waiting for work
    # would stay alive, one more on every rebuild.
    pages = load_site(DATA).book("pytorch").pages
    before = set(multiprocessing.active_children())
    indexes = BackgroundIndexes(pages)
    workers = set(multiprocessing.active_children()) - before
    assert workers, "no worker process was started"
    indexes.cancel()
    # It may finish the index it is building first. The pool's own thread reaps it, racing a
    # join() of ours (the loser's join returns at once and calls it alive): ask the system.
    deadline = time.monotonic() + 120
    while any(_running(worker.pid) for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(worker.pid) for worker in workers), "the worker is still alive after cancel()"


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"
