"""Look a pasted line or traceback up in the data the package carries, as 附录A's box does.

`lookup(text)` gives the verdict (rule.py) and the entries, best first:
- `literal`: the rows whose searchable text holds the text (or its message), in page order;
- `match`: the one row whose template fits;
- `weak`: the closest rows from the ranked index (rank.py: scored as lunr.js scores them);
- `none`: no rows.
"""

from __future__ import annotations

import functools
import os
import re
from collections import namedtuple
from functools import cached_property

from .paste import (PASTE_RULES, decoded, ends_unfinished, frame_files, frames_of, message_missing, name_only,
                    reduce_paste, shown_frames, shows_frames)
from .rule import (LITERAL, MATCH, NONE, WEAK, Template, best_fit, fold, literal_needles, message_text_starts,
                   split_exception, verdict_for)
from .rank import Ranker, query_terms, suggested_first

CHECKOUT_DATA_FILE = "lookup-data.json"  # a source checkout's build of the data (installed, it is a module)


class Page:
    """One reference page of the data: its rows (`entries`), searchable texts, templates and
    ranked index; `not_covered`: {id, title, intro} of the sections saying what it leaves out."""

    def __init__(self, key: str, title: str, url: str, entries: list[dict], texts: list[list],
                 templates: list[Template], compact_index: dict, not_covered: list[dict] | None = None,
                 chapter_map: str | None = None, left_out_heads: list[list[str]] | None = None):
        self.key, self.title, self.url = key, title, url
        self.entries, self.texts, self.templates = entries, texts, templates
        self.compact_index = compact_index  # refsite.find_index.compact_index
        self.not_covered = not_covered or []
        self.chapter_map = chapter_map
        self.left_out_heads = left_out_heads or []  # [row of 九, folded error it names, found anywhere]

    def __repr__(self) -> str:
        return f"Page(key={self.key!r}, title={self.title!r}, url={self.url!r}, entries=[{len(self.entries)}])"

    @classmethod
    def from_json(cls, raw: dict) -> "Page":
        templates = [Template(**template) for template in raw["templates"]]
        return cls(raw["key"], raw["title"], raw["url"], raw["entries"], raw["texts"], templates, raw["index"],
                   raw.get("not_covered", []), raw.get("chapter_map"), raw.get("left_out_heads", []))

    @cached_property
    def entry_by_id(self) -> dict[str, dict]:
        return {entry["id"]: entry for entry in self.entries}

    @cached_property
    def folded_texts(self) -> list[tuple[str | None, str, bool]]:
        # Folded when the data was written (refsite.lookup_data): [entry, text, is a fragment, folded].
        return [(owner, folded, fragment) for owner, _, fragment, folded in self.texts]

    @cached_property
    def order(self) -> dict[str, int]:
        return {entry["id"]: position for position, entry in enumerate(self.entries)}

    def literal(self, needles: list[str], *, fragments_first: bool) -> tuple[bool, list[str]]:
        """Whether a needle is on the page (the first that is), and the rows holding it, in page
        order; with `fragments_first` (a pasted error line), rows whose own error text holds it
        come before rows that only mention it (as the page's box first makes one of those current)."""
        for needle in needles:
            hits = [(owner, fragment) for owner, text, fragment in self.folded_texts if needle in text]
            if hits:
                if fragments_first:
                    hits.sort(key=lambda hit: not hit[1])  # stable: page order within each
                rows = [owner for owner in dict.fromkeys(owner for owner, _ in hits) if owner in self.entry_by_id]
                return True, rows
        return False, []

    def left_out(self, folded_query: str) -> str | None:
        """The row of 九 naming the error a message of the query starts with (`CUDA out of
        memory. Tried to allocate …`), or words of it the query holds anywhere (its `printed_as`,
        `Watchdog caught collective operation timeout`), if any: the page says it leaves that
        error out, and nothing ranked beside it would be more than a loose guess
        (find-verdict.js leftOutRow)."""
        starts = [0, *message_text_starts(folded_query)]
        return next((row for row, head, anywhere in self.left_out_heads
                     if (head in folded_query if anywhere else
                         any(folded_query.startswith(head, start) for start in starts))), None)

    def explains(self, rows: list[str]) -> bool:
        """Whether a literal hit is in something other than the page's own list of what it
        leaves out (九): text found only there is not explained."""
        return not rows or any(self.entry_by_id[row]["kind"] != "not-covered" for row in rows)

    @cached_property
    def ranker(self) -> Ranker:  # only a query the page does not cover is ranked
        return Ranker(self.compact_index)

    def rank(self, text: str) -> list[str]:
        """The closest rows, as find-rank.js ranks them: the query's discriminating terms as
        plain terms (never through a query syntax), ties in page order."""
        ranked = self.ranker.rank(query_terms(text), self.order)
        return [ref for ref in ranked if ref in self.entry_by_id]


def off_context(entry: dict, text: str) -> bool:
    """Whether `text` is a traceback that never passes through the code the row's context names
    (`torch.load`): neither a code line calling it, nor a frame of that function, nor, for a
    call below torch's top level (`torch.onnx.export`), a frame whose file is in its package's
    folder (`torch/onnx/`: a traceback cut above the call still shows it). Frames as Python
    and as IPython print them. A single line shows no frames, and a traceback cut before its
    exception hides those below: neither is ever off context."""
    codes = entry.get("context_code") or []
    if not codes or not shows_frames(text) or ends_unfinished(text):
        return False
    functions = {function for _, function in frames_of(text)}
    shown = decoded(text)  # IPython colours its code lines: `torch\x1b[…m.\x1b[…monnx`
    for code in codes:
        package, _, function = code.rpartition(".")
        if code in shown or function in functions or re.search(rf", in {re.escape(function)}\b", shown):
            return False
        if package.startswith("torch.") and _in_folder(frame_files(text), package.replace(".", "/")):
            return False
    return True


def _in_folder(files: tuple[str, ...], folder: str) -> bool:
    """Whether one of the files is under `folder` (`torch/onnx`), `/` or `\\` apart."""
    inside = f"/{folder}/"
    return any(inside in "/" + file.replace("\\", "/") for file in files)


def shows_call(entry: dict, text: str) -> bool:
    """Whether `text` shows a call the row's mistake is made through (its `called_through`:
    `torch.matmul`, `@`), in a frame's code line or named in words, as a whole name."""
    # (A pattern is compiled only for a call the text holds: the command's start pays for each.)
    return any(call in text and re.search(rf"(?<![A-Za-z0-9_.]){re.escape(call)}(?![A-Za-z0-9_])", text)
               for call in entry.get("called_through") or ())


def shows_other_cause(entry: dict, text: str) -> bool:
    """Whether `text` shows a situation the row's cause does not explain (its `unless_shown`:
    `Half` where mismatched matmul dtypes come from a half-precision model), anywhere in it:
    a frame's code line or the reader's own words. Plain text, as written."""
    return any(shown in text for shown in entry.get("unless_shown") or ())


# Why a row the paste's text fits is only suggested: said under the suggestion by the terminal
# (cli.py) and by the page (find-suggest.js, from the rules payload), with `{}` the code or words.
NOT_SAID_BECAUSE = {
    "off_context": "你的 traceback 没有经过 {}：这一条多半不是你的情况",
    "other_cause": "你贴的内容里有 {}：多半是这一条没讲的另一种原因",
    "no_own_context": "你贴的内容里没有 {} 里的任何一个：看不出是这一条的情况",
    "reordered": "你贴的两个形状只是同样的数换了顺序：多半是权重转置了或换了布局，不是这一条讲的超参对不上",
    "no_call": "别的调用也会印出这句话：你贴的内容里看不到 {}，看不出是不是这一条",
}


# Over a row's other causes (the same words, another mistake), on the page (refsite's
# _table_errors.html), in the terminal and in the notebook's note.
OTHER_CAUSES_LABEL = "同样这句报错，也可能是："
# Said beside a row the paste fits when it also shows some of the row's other causes (their
# `shown_by`): by the terminal, the notebook's note and the page's box (find-suggest.js, from the
# rules payload). `{shown}`: the code or words; `{places}`: those causes' places in the list.
OTHER_CAUSE_SHOWN = "报错里有 {shown}：多半是下面「也可能是」里的第 {places} 种"
# Beside an other cause that names what shows it, on the page (_table_errors.html) and in
# `--explain`: `{shown}`, its `shown_by` texts as code, joined by 或.
SHOWN_BY_HINT = "（报错里有 {shown} 时，多半是这一种）"


def shown_other_causes(entry: dict, text: str) -> list[tuple[int, str]]:
    """The row's other causes that `text` shows (their `shown_by`, plain text as written,
    anywhere in it: a frame's code line, a name in the message), each as (its place in the list
    from 0, the first of its `shown_by` found), in the list's order."""
    shown = []
    for place, other in enumerate(entry.get("other_causes") or ()):
        found = next((it for it in other.get("shown_by") or () if it in text), None)
        if found is not None:
            shown.append((place, found))
    return shown


def other_cause_remark(entry: dict, text: str) -> str | None:
    """OTHER_CAUSE_SHOWN for `text` and the row, or None when it shows none of them."""
    return remark_on(shown_other_causes(entry, text))


# Words by which a row's cause reads on from the row above it, as the page's tables show them
# (`同上，只是隔了一层 view`, `就是上一条那个 dtype 问题`): shown without that row, it names it.
READS_ON = ("同上", "上一条")
ROW_ABOVE_NOTE = "（上一条是「{fragment}」：{cause}）"


def row_read_on_from(page: "Page", entry: dict) -> dict | None:
    """The row before `entry` in its section when its cause reads on from it (READS_ON), else None."""
    if not any(word in entry["cause"] for word in READS_ON):
        return None
    position = page.order.get(entry["id"], 0)
    above = page.entries[position - 1] if position else None
    return above if above is not None and above["section"] == entry["section"] else None


def row_above_note(page: "Page", entry: dict, after: dict | None = None) -> str | None:
    """What to say beside a row whose cause reads on from the row before it in its section
    (row_read_on_from), wherever it is shown without that row (the terminal, the notebook): that
    row's text and cause, as Markdown. None for a row that reads on from none, or one shown
    `after` the very row it reads on from."""
    above = row_read_on_from(page, entry)
    if above is None or (after is not None and after["id"] == above["id"]):
        return None
    return ROW_ABOVE_NOTE.format(fragment=above["fragment"], cause=above["cause"])


def remark_on(shown: list[tuple[int, str]]) -> str | None:
    """OTHER_CAUSE_SHOWN for the other causes a text shows (shown_other_causes), or None."""
    if not shown:
        return None
    return OTHER_CAUSE_SHOWN.format(shown="、".join(dict.fromkeys(found for _, found in shown)),
                                    places="、".join(str(place + 1) for place, _ in shown))


def why_not_said(entry: dict, text: str) -> str | None:
    """Why the row is not said for `text` though its words may fit (off_context,
    shows_other_cause, lacks_own_context, in that order), in the reader's words; None if nothing
    rules it out."""
    if off_context(entry, text):
        return NOT_SAID_BECAUSE["off_context"].format("、".join(entry["context_code"]))
    if shows_other_cause(entry, text):
        return NOT_SAID_BECAUSE["other_cause"].format("、".join(it for it in entry["unless_shown"] if it in text))
    if lacks_own_context(entry, text):
        return NOT_SAID_BECAUSE["no_own_context"].format("、".join(entry["only_if_shown"]))
    return None


def why_only_suggested(answer: Answer, entry: dict, text: str) -> str | None:
    """Why a row the answer names is not said for the pasted `text`: its context
    (why_not_said), its message there with only its sizes reordered (Answer.reordered), or words
    another call prints too, with none of the row's calls shown (Answer.uncalled)."""
    if why := why_not_said(entry, text):
        return why
    if entry["id"] in answer.reordered:
        return NOT_SAID_BECAUSE["reordered"]
    if entry["id"] in answer.uncalled:
        return NOT_SAID_BECAUSE["no_call"].format("、".join(entry["called_through"]))
    return None


def lacks_own_context(entry: dict, text: str) -> bool:
    """Whether `text` shows none of what the row's message needs beside it to be the row's (its
    `only_if_shown`: `torch.load`, a checkpoint file, where `No module named 'xxx'` alone is any
    missing module's), anywhere in it. Plain text, as written."""
    shown = entry.get("only_if_shown") or ()
    return bool(shown) and not any(it in text for it in shown)


_RELEASE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def release_numbers(release: str) -> tuple[int, ...] | None:
    """(2, 6, 0) for "2.6.0", "2.6.0+cu124" or "v2.6.0"; (2, 6) for "2.6"."""
    found = _RELEASE.match(release.strip().lstrip("v"))
    return tuple(int(part) for part in found.groups() if part is not None) if found else None


def run_on(entry: dict, release: str) -> dict | None:
    """The row's run that speaks for the reader's torch (`release`: "2.6.0", "2.6.0+cu124",
    "2.6"): that release's, else the newest of the same minor release; None if there is none."""
    wanted = release_numbers(release)
    runs = [(release_numbers(run["release"]), run) for run in entry.get("releases", ())]
    same = [] if wanted is None else (
        [(numbers, run) for numbers, run in runs if numbers[:len(wanted)] == wanted]
        or [(numbers, run) for numbers, run in runs if numbers[:2] == wanted[:2]])
    return max(same, key=lambda pair: pair[0])[1] if same else None


def release_remark(entry: dict, release: str, labels: dict[str, str]) -> str | None:
    """Was the row's text seen on the reader's torch? From the release matrix the data carries:
    the run that speaks for it (run_on), else the nearest runs on either side (saying that this
    release was not run)."""
    wanted = release_numbers(release)
    runs = [(release_numbers(run["release"]), run) for run in entry.get("releases", ())]
    if wanted is None or not runs:
        return None
    run = run_on(entry, release)
    if run is not None:
        said = f"torch {run['release']} 上实跑：{labels[run['seen']]}"
        return f"{said}，那里打印的是 {run['excerpt']}" if run.get("excerpt") else said
    below = [pair for pair in runs if pair[0] < wanted]
    above = [pair for pair in runs if pair[0] > wanted]
    nearest = [max(below, key=lambda pair: pair[0])] if below else []
    nearest += [min(above, key=lambda pair: pair[0])] if above else []
    around = "、".join(f"{run['release']} {labels[run['seen']]}" for _, run in nearest)
    return f"torch {release} 没有实跑过；最近的：{around}"


def release_line(entry: dict, labels: dict[str, str]) -> str | None:
    """The row's runs across the release matrix, as the page's release line says them:
    `1.0.1–1.4.0 换了措辞 · 1.7.1–2.15.0 逐字一致` (the spans the build grouped, ReleaseRuns.spans)."""
    said = [f"{span['first']}{'–' + span['last'] if span['last'] != span['first'] else ''} "
            f"{labels.get(span['seen'], span['seen'])}" for span in entry.get("release_spans", ())]
    return " · ".join(said) or None


class Answer(namedtuple("Answer", "verdict page ids query others message_missing fit reordered left_out uncalled",
                         defaults=("", 0, False, None, frozenset(), False, frozenset()))):
    """A verdict, the page and the rows it names (best first); `query`: the error of the paste
    it answers, on one line (paste.reduce_paste); `others`: how many other errors the paste held;
    `message_missing`: the paste is a traceback cut before its message (paste.message_missing),
    so "not covered" would be a guess: the verdict is `none`, with no rows; `fit`: for `match`,
    the template's rule.Fit (how_it_fits says it to the reader); `reordered`: for a ranked
    answer, the rows whose template fit a message holding its sizes only reordered (rule.best_fit);
    `uncalled`: for a ranked answer, the rows whose words another call prints too fit, with none
    of their calls shown (rule.best_fit);
    `left_out`: a `weak` answer that is an error the page says it leaves out (九): found only in
    those rows, or named by one (Page.left_out), not a loose guess.
    (Named tuples, not dataclasses, here: `dataclasses` costs the command a tenth of its start.)"""

    __slots__ = ()

    @property
    def entries(self) -> list[dict]:
        return [self.page.entry_by_id[entry_id] for entry_id in self.ids] if self.page else []


def how_it_fits(fit, *, raised: bool = False) -> str:
    """How a `match` fits, as the terminal and the notebook say it: a row's text with only the
    reader's own names and numbers changed, another release's wording of it (Template.said_by),
    or a symptom described in the reader's words. (find-suggest.js says the same on the page.)
    `raised`: the notebook's error was raised, not pasted."""
    if fit is not None and fit.described:
        return "有一条讲的正是你描述的现象"
    if fit is not None and fit.frame:
        return "有一条对上了：" + PASTE_RULES["from_frame_note"].format(frame=fit.frame)
    if fit is not None and fit.said_by:
        space = "" if fit.said_by.endswith("）") else " "
        subject = "这个报错是" if raised else "你贴的是"
        return f"有一条对上了：{subject} {fit.said_by}{space}的一种说法（下面是它在本页的原文）"
    return "有一条正好对上（只差你自己的名字、形状或数字）"


class Lookup:
    """The pages one data file describes."""

    def __init__(self, data: dict):
        self.pages = [Page.from_json(page) for page in data["pages"]]
        self.seen_labels: dict[str, str] = data.get("seen_labels", {})
        self.site_url: str | None = data.get("site_url")  # mkdocs.yml's, where the site is published

    def entry(self, entry_id: str) -> tuple[Page, dict] | None:
        """The page and row with this id, if any."""
        for page in self.pages:
            if entry_id in page.entry_by_id:
                return page, page.entry_by_id[entry_id]
        return None

    @classmethod
    def installed(cls) -> "Lookup":
        return cls(load_data())

    def seen_on(self, release: str) -> dict[str, str]:
        """Per row that was run: how its text came out on the reader's torch (a SEEN_KINDS
        value of refsite.model, `stale` included), or `not-run` when no run speaks for it."""
        return {entry["id"]: (run["seen"] if (run := run_on(entry, release)) else "not-run")
                for page in self.pages for entry in page.entries if entry.get("releases")}

    def __call__(self, text: str, *, rank: bool = True) -> Answer:
        """The verdict and entries for a paste. Of several errors in it (two ranks, two runs),
        the first the page explains, else the first; each error read as it is, then with its
        fixed-width wraps undone (paste.reduce_paste). With `rank=False`, an error the page does
        not explain is answered `none` without ranking (a caller that only needs to know)."""
        errors = reduce_paste(text)
        # A row whose context (`torch.load`) the pasted traceback never passes through, whose
        # `unless_shown` the paste shows or whose `only_if_shown` it does not, is not the
        # reader's situation: its templates do not count (it may still be suggested).
        skip = frozenset(entry["id"] for page in self.pages for entry in page.entries if why_not_said(entry, text))
        # A wording another situation prints too is a row's when the paste shows the row's call.
        called = frozenset(entry["id"] for page in self.pages for entry in page.entries if shows_call(entry, text))
        for error in errors:
            for reading in () if name_only(error) else error.readings:
                answer = self.answer(reading, rank=False, skip=skip, called=called)
                if answer.verdict in (LITERAL, MATCH):
                    return answer._replace(others=len(errors) - 1)
        if message_missing(text, errors):
            # Cut before its message, a traceback may still show a frame only one row's
            # situation runs through (its `frames`): that row, said from the frames.
            frames = shown_frames(text)
            for page in self.pages if frames else ():
                fit = best_fit(page.templates, fold(frames), skip, called)
                if fit is not None and fit.frame:
                    return Answer(verdict_for(literal=False, fit=fit), page, (fit.entry,), frames, fit=fit)
            return Answer(NONE, None, (), message_missing=True)
        if not errors:
            return Answer(NONE, None, ())
        # A row whose message alone is any such error's: its words fitting say nothing (looked
        # for only to rank).
        generic = frozenset(entry["id"] for page in self.pages for entry in page.entries
                            if rank and lacks_own_context(entry, text))
        first = next((error for error in errors if not name_only(error)), errors[0])  # one with a message
        return self.answer(first.text, rank=rank, skip=skip, called=called,
                           generic=generic)._replace(others=len(errors) - 1)

    def answer(self, query: str, *, rank: bool = True, skip: frozenset[str] = frozenset(),
               called: frozenset[str] = frozenset(), generic: frozenset[str] = frozenset()) -> Answer:
        """The verdict and entries for one error on one line, in the order rule.verdict_for gives;
        the templates of the rows in `skip` do not say them, those that need a call only for the
        rows in `called` (rule.best_fit). A row of `skip` whose words fit all the same, one passed
        over for its sizes only reordered, or one whose call is not shown, is suggested first
        (rank.suggested_first), unless it is `generic`: its message alone is any such error's."""
        needles = literal_needles(query)
        if not needles:
            return Answer(NONE, None, ())
        pasted_line = bool(split_exception(query)[0])
        for page in self.pages:
            on_page, rows = page.literal(needles, fragments_first=pasted_line)
            if on_page:
                explains = page.explains(rows)
                return Answer(verdict_for(literal=True, explains=explains), page, tuple(rows), query, left_out=not explains)
        folded = fold(query)
        reordered: set[str] = set()  # rows passed over for sizes only reordered: said under their suggestion
        # Rows whose words fit but not their context, or without their call shown: suggested
        # first (looked for only to rank).
        passed_over: set[str] | None = set() if rank else None
        uncalled: set[str] | None = set() if rank else None
        fits = [(fit, page) for page in self.pages
                if (fit := best_fit(page.templates, folded, skip, called, reordered, passed_over, uncalled))]
        if fits:
            fit, page = max(fits, key=lambda pair: pair[0].rank)
            return Answer(verdict_for(literal=False, fit=fit), page, (fit.entry,), query, fit=fit)
        for page in self.pages:
            if left_out := page.left_out(folded):
                return Answer(WEAK, page, (left_out,), query, left_out=True)  # as text found only in 九
        for page in self.pages if rank else ():
            closest = ((reordered | passed_over | uncalled) - generic) & page.entry_by_id.keys()
            ranked = suggested_first(page.rank(query), closest, page.order)
            if ranked:
                return Answer(verdict_for(literal=False, ranked=ranked), page, tuple(ranked), query,
                              reordered=frozenset(reordered), uncalled=frozenset(uncalled))
        return Answer(verdict_for(literal=False), None, (), query)


@functools.lru_cache(maxsize=1)
def load_data() -> dict:
    """The data the installed package carries; in a source checkout, built from data/ (and kept
    in the user's cache under a digest of data/ and the code that builds it, so that only the
    first call after a change pays for the build)."""
    # Installed, it is a module setup.py wrote: its .pyc loads in 1.8 ms where json takes 4.8 to
    # import itself and parse the same data, on every call of the command. In a source checkout
    # (the site's code beside this package) data/ is read even if such a module was written here.
    if not os.path.isfile(os.path.join(os.path.dirname(__file__), os.pardir, "refsite", "lookup_data.py")):
        try:
            from .packaged_data import DATA
            return DATA
        except ModuleNotFoundError as missing:
            if missing.name != f"{__package__}.packaged_data":
                raise
    from pathlib import Path  # a source checkout only

    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "data").is_dir():
        return _built_from_checkout(checkout)
    raise FileNotFoundError("packaged_data.py is missing from the installed package; reinstall pytorch-error-lookup")


def _built_from_checkout(checkout) -> dict:
    import hashlib
    import json
    from pathlib import Path

    digest = hashlib.sha256()
    # Everything the data is written from: data/, the site's code, and mkdocs.yml (its site_url).
    for path in sorted([*(checkout / "data").rglob("*"), *(checkout / "hooks").rglob("*.py"),
                        *(checkout / "hooks").rglob("*.html"), checkout / "mkdocs.yml"]):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(checkout)).encode() + b"\0" + path.read_bytes() + b"\0")
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cached = cache_home / "pytorch-error-lookup" / f"lookup-data-{digest.hexdigest()[:16]}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        os.utime(cached)  # used now: the newest builds are the ones kept (_forget_old_builds)
        return data
    except (OSError, ValueError):
        pass
    # The site's build step writes it (the lookup never imports the site): with the site's own
    # dependencies, `pip install -e ".[site]"`.
    import subprocess  # a source checkout's first call only: not on every call's start
    import sys
    import tempfile

    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
    except OSError:  # a read-only home: build again next time
        partial = Path(tempfile.mkdtemp()) / CHECKOUT_DATA_FILE
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(checkout / "hooks"), os.environ.get("PYTHONPATH")]))}
    built = subprocess.run([sys.executable, "-m", "refsite.lookup_data", str(partial), "--data", str(checkout / "data")],
                           env=environment, capture_output=True, text=True)
    if built.returncode != 0:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"building the lookup's data from {checkout / 'data'} failed:\n{built.stderr.strip()}")
    data = json.loads(partial.read_text(encoding="utf-8"))
    try:
        partial.replace(cached)  # whole or not at all, whoever else is writing it
    except OSError:
        partial.unlink(missing_ok=True)
    _forget_old_builds(cached.parent)
    return data


KEPT_BUILDS = 8


def _forget_old_builds(folder) -> None:
    """Each change to data/ or the code builds a new file: the newest few are kept (several
    checkouts may share the folder), not one per edit for ever."""
    def age(path):
        try:
            return -path.stat().st_mtime
        except OSError:  # removed meanwhile by another call
            return 0.0
    for old in sorted(folder.glob("lookup-data-*.json"), key=age)[KEPT_BUILDS:]:
        try:
            old.unlink()
        except OSError:
            pass
