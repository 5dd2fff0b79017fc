"""The ranked indexes are built in a second process, and come out the same."""

from pathlib import Path

from refsite.find_index import INDEX_URL_PATTERN, LUNR_JS_URL, BackgroundIndexes, index_scripts
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"


def test_background_build_writes_what_a_direct_build_gives(tmp_path):
    pages = load_site(DATA).book("pytorch").pages
    BackgroundIndexes(pages).write(tmp_path)
    for key, script in index_scripts(pages).items():
        assert (tmp_path / INDEX_URL_PATTERN.format(key=key)).read_text(encoding="utf-8") == script
    assert (tmp_path / LUNR_JS_URL).read_text(encoding="utf-8").startswith("/**")


def test_a_cancelled_build_writes_nothing_and_returns(tmp_path):
    indexes = BackgroundIndexes(load_site(DATA).book("pytorch").pages)
    indexes.cancel()
    assert not any(tmp_path.iterdir())
