"""The release matrix without a browser: the kept runs are well formed and of their release, a
changed reproducer marks its older runs stale, each row's line stays out of the searched text,
and the terminal lookup answers per row from the data it carries."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from pytorch_error_lookup.lookup import Lookup
from refsite.load import DataError
from refsite.lookup_data import lookup_data
from refsite.model import ReleaseRuns, Verification, release_key
from refsite.pipeline import RELEASE_FILES, load_site
from refsite.render import Renderer
from refsite.sitemap import site_pages
from refsite.validate import check_schema, load_schema

DATA = Path(__file__).resolve().parent.parent / "data"
BOOK_DIR = DATA / "pytorch"
MATRIX_FILES = sorted(BOOK_DIR.glob(RELEASE_FILES))
# The releases readers run, from torch 1.0 (issue 18) to the newest; 2.13.0 is the reference.
# The releases the matrix must hold at least (issue "Real pastes land": five before 2.0).
RELEASES = ("1.0.1", "1.2.0", "1.4.0", "1.7.1", "1.10.2", "1.13.1",
            "2.0.1", "2.4.1", "2.6.0", "2.9.1", "2.12.1", "2.13.0", "2.14.1", "2.15.0")


def kept_runs(data_dir: Path) -> dict[str, Path]:
    """The test's own reading of the folder: every kept run by release ("2.13.0")."""
    book_dir = Path(data_dir) / "pytorch"
    runs = {}
    for path in [book_dir / "verification.yml", *sorted(book_dir.glob("verification-*.yml"))]:
        if path.is_file():
            runs[yaml.safe_load(path.read_text(encoding="utf-8")).get("torch", "").split("+")[0]] = path
    return runs


def seen_on(release: str, data_dir: Path) -> dict[str, str]:
    """What the terminal lookup says of each row on `release`, from the data built from `data_dir`."""
    return Lookup(lookup_data(data_dir)).seen_on(release)


def copy_data(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DATA, tmp_path / "data"))


def appendix(site):
    return site.book("pytorch").pages[0]


def row(site, row_id: str):
    return next(entry for entry in appendix(site).rows() if entry.id == row_id)


def edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


# ── The committed matrix ───────────────────────────────────────────────────────────────────

def test_the_matrix_holds_the_releases_readers_run():
    assert set(RELEASES) <= set(kept_runs(DATA))
    assert appendix(load_site(DATA)).torch_releases == tuple(sorted(kept_runs(DATA), key=release_key))


@pytest.mark.parametrize("path", MATRIX_FILES, ids=lambda path: path.name)
def test_each_matrix_file_is_well_formed_and_a_run_of_its_release(path):
    """What CI checks of a file it never writes: its schema, its release, its rows."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert check_schema(data, load_schema(DATA / "schema", "verification"), path.name) == []
    assert data["torch"].split("+")[0] == path.stem.removeprefix("verification-")
    rows = {entry.id for entry in appendix(load_site(DATA)).rows()}
    assert {key.partition("/")[0] for key in data["results"]} <= rows  # `<row>/<variant>` too


def test_the_matrix_reaches_back_to_torch_1_and_old_releases_really_run():
    """Issue 18: at least five releases before 2.0, each a real run, and from 1.4.0 on at least
    30 rows that really ran (a row only counts as `api-missing` for what the release lacked)."""
    runs = kept_runs(DATA)
    before_2 = [release for release in runs if release.startswith(("0.", "1."))]
    assert len(before_2) >= 5 and {"1.0.1", "1.4.0", "1.7.1", "1.10.2", "1.13.1"} <= set(before_2)
    rows = {entry.id for entry in appendix(load_site(DATA)).rows() if getattr(entry, "reproducer", None)}
    for release, path in runs.items():
        results = yaml.safe_load(path.read_text(encoding="utf-8"))["results"]
        ran = [row for row in rows if row in results and results[row]["status"] != "api-missing"]
        if tuple(int(part) for part in release.split(".")[:2]) >= (1, 4):
            assert len(ran) >= 30, (release, len(ran))


@pytest.mark.parametrize("path", MATRIX_FILES, ids=lambda path: path.name)
def test_a_missing_api_is_never_a_failure_and_always_says_what_is_missing(path):
    for row_id, result in yaml.safe_load(path.read_text(encoding="utf-8"))["results"].items():
        assert (result["status"] == "api-missing") == (result["seen"] == "api-missing"), row_id
        if result["status"] == "api-missing":
            assert re.search(r"`[^`]+`", result["why"]), f"{row_id}: the reason names no API"


# ── What the pipeline checks ───────────────────────────────────────────────────────────────

def problems_of(data_dir: Path) -> str:
    with pytest.raises(DataError) as error:
        load_site(data_dir)
    return str(error.value)


def test_a_malformed_matrix_file_stops_the_build_naming_file_line_entry_and_field(tmp_path):
    data_dir = copy_data(tmp_path)
    path = data_dir / "pytorch" / "verification-2.6.0.yml"
    path.write_text(path.read_text(encoding="utf-8").replace("seen: verbatim", "seen: kinda", 1),
                    encoding="utf-8")
    message = problems_of(data_dir)
    assert re.search(r"data/pytorch/verification-2\.6\.0\.yml:\d+: entry '[a-z0-9-]+': field 'seen'",
                     message), message


def test_a_file_named_for_another_release_is_refused(tmp_path):
    data_dir = copy_data(tmp_path)
    shutil.move(data_dir / "pytorch" / "verification-2.6.0.yml",
                data_dir / "pytorch" / "verification-2.7.0.yml")
    assert "holds a run of torch 2.6.0" in problems_of(data_dir)


def test_a_release_kept_twice_is_refused(tmp_path):
    data_dir = copy_data(tmp_path)
    shutil.copy(data_dir / "pytorch" / "verification.yml", data_dir / "pytorch" / "verification-2.13.0.yml")
    assert "torch 2.13.0 is kept twice" in problems_of(data_dir)


def test_a_result_for_a_row_that_is_gone_is_refused(tmp_path):
    data_dir = copy_data(tmp_path)
    edit_yaml(data_dir / "pytorch" / "verification-2.6.0.yml",
              lambda data: data["results"].update({"no-such-row": data["results"]["backward-twice"]}))
    message = problems_of(data_dir)
    assert "verification-2.6.0.yml" in message and "entry 'no-such-row'" in message


# ── Stale and not run ──────────────────────────────────────────────────────────────────────

def test_a_changed_reproducer_marks_its_older_runs_stale_on_every_release(tmp_path):
    data_dir = copy_data(tmp_path)
    edit_yaml(data_dir / "pytorch" / "reproducers.yml",
              lambda data: data["backward-twice"].update(code=data["backward-twice"]["code"] + "# changed\n"))
    site = load_site(data_dir)
    changed, untouched = row(site, "backward-twice"), row(site, "no-grad-fn")
    kept = sorted(kept_runs(data_dir), key=release_key)
    assert [run.shown_as for run in changed.releases.runs] == ["stale"] * len(kept)
    assert "stale" not in [run.shown_as for run in untouched.releases.runs]
    [span] = changed.releases.spans
    assert (span.kind, span.first, span.last) == ("stale", kept[0], kept[-1])

    html = rendered_appendix(site)
    line = re.search(r'<tr id="backward-twice".*?<p class="rs-releases"[^>]*>(.*?)</p>', html, re.S)[1]
    assert "复现代码已改，待重跑" in line and f"{kept[0]}–{kept[-1]}" in line
    assert seen_on("2.6.0", data_dir)["backward-twice"] == "stale"


def test_a_row_a_run_left_out_is_shown_as_not_run(tmp_path):
    data_dir = copy_data(tmp_path)
    edit_yaml(data_dir / "pytorch" / "verification-2.9.1.yml",
              lambda data: data["results"].pop("backward-twice"))
    runs = row(load_site(data_dir), "backward-twice").releases
    assert dict(pair.split(":") for pair in runs.by_release.split())["2.9.1"] == "not-run"
    assert seen_on("2.9.1", data_dir)["backward-twice"] == "not-run"


def test_spans_join_consecutive_releases_alike():
    def run(release, seen):
        return Verification(status="x", seen=seen, torch=release, date="2026-01-01")

    runs = ReleaseRuns((run("2.0.1", "different"), run("2.4.1", "different"), run("2.6.0", "verbatim"),
                        run("2.9.1+cu128", "folded"), run("2.12.1", "verbatim")))
    assert [(span.kind, span.releases) for span in runs.spans] == [
        ("different", ("2.0.1", "2.4.1")), ("verbatim", ("2.6.0",)), ("folded", ("2.9.1",)),
        ("verbatim", ("2.12.1",))]
    assert [run.torch_release for run in runs.differing] == ["2.0.1", "2.4.1"]
    assert runs.by_release == "2.0.1:different 2.4.1:different 2.6.0:verbatim 2.9.1:folded 2.12.1:verbatim"


# ── On the page: outside the searched text ─────────────────────────────────────────────────

def rendered_appendix(site) -> str:
    renderer = Renderer(site)
    page = next(page for page in site_pages(site) if page.kind == "reference")
    return renderer.render(page, lambda target, anchor=None: target).html


class _SearchedText(HTMLParser):
    """The text inside `data-find-text` elements (what the in-page search reads), and the
    number of release lines met inside one."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []  # per open element: inside data-find-text?
        self.text: list[str] = []
        self.lines_inside = self.lines = 0

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        inside = bool(self.stack and self.stack[-1]) or "data-find-text" in names
        if "data-releases" in names:
            self.lines += 1
            self.lines_inside += inside
        if tag not in self.VOID:
            self.stack.append(inside)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1]:
            self.text.append(data)


def searched_text(site) -> tuple[str, _SearchedText]:
    parser = _SearchedText()
    parser.feed(rendered_appendix(site))
    return "".join(parser.text), parser


def test_release_lines_stand_outside_the_text_the_search_reads(tmp_path):
    site = load_site(DATA)
    searched, parser = searched_text(site)
    checked = [entry for entry in appendix(site).rows() if getattr(entry, "releases", None)]
    assert parser.lines == len(checked) > 40
    assert parser.lines_inside == 0

    data_dir = copy_data(tmp_path)
    for path in (data_dir / "pytorch").glob(RELEASE_FILES):
        path.unlink()
    without_matrix, _ = searched_text(load_site(data_dir))
    assert searched == without_matrix


# ── The lookup for the terminal command and the notebook note ──────────────────────────────

def test_seen_on_answers_per_row_from_the_run_of_that_release():
    answers = seen_on("2.6.0", DATA)
    reproducers = yaml.safe_load((BOOK_DIR / "reproducers.yml").read_text(encoding="utf-8"))
    assert set(answers) == set(reproducers)
    run = yaml.safe_load((BOOK_DIR / "verification-2.6.0.yml").read_text(encoding="utf-8"))["results"]
    # What the run recorded, but a row's mistake printed in other words is told as such.
    assert {row_id: seen for row_id, seen in answers.items() if seen != "reworded"} == {
        row_id: run[row_id]["seen"] if row_id in run else "not-run"  # a row added since
        for row_id in answers if answers[row_id] != "reworded"}
    assert all(run[row_id]["seen"] == "different" for row_id in answers if answers[row_id] == "reworded")
    assert "reworded" in answers.values()
    assert seen_on("2.6.0+cu124", DATA) == seen_on("2.6", DATA) == answers


def test_seen_on_says_not_run_for_a_release_without_a_run():
    assert set(seen_on("0.4.1", DATA).values()) == {"not-run"}  # torch 0.4 does not install here
    assert set(seen_on("not a version", DATA).values()) == {"not-run"}
