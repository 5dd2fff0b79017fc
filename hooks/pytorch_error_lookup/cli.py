"""pytorch-error-lookup: what 附录A says about an error, in the terminal where it appeared.

    pytorch-error-lookup [--json] [--torch VERSION] [--site URL|FOLDER] [FILE]
    pytorch-error-lookup --explain ID
    pytorch-error-lookup "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)"
    python train.py 2>&1 | tail -n 80 | pytorch-error-lookup
    python -m pytorch_error_lookup traceback.txt

Reads one line or a whole traceback (FILE, standard input, or the error itself as the argument:
one that names no file and does not look like a file's name) and prints the verdict and the
entries that go with it; `--explain ID` prints one entry whole. Exit status: 0 when the page
explains it (`literal`, `match`; an entry found), 1 when it does not (`weak`, `none`), 2 on bad
usage.

Links go to the published site: `--site`, else $PYTORCH_ERROR_LOOKUP_SITE, else the `site_url`
of mkdocs.yml the package was built with. With none of them the answer says how to read the
entry here (`--explain ID`) instead of printing an address that goes nowhere.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections import namedtuple

from .lookup import (OTHER_CAUSES_LABEL, SHOWN_BY_HINT, Answer, Lookup, Page, how_it_fits, release_line,
                     release_numbers, release_remark, remark_on, row_above_note, row_read_on_from,
                     shown_other_causes, why_only_suggested)
from .paste import PASTE_RULES, in_words, names_an_error
from .rule import LITERAL, MATCH, NONE, WEAK, has_a_word
from .terminal import Painter, display_width, is_terminal, wants_colour, wrap

SITE_VARIABLE = "PYTORCH_ERROR_LOOKUP_SITE"
# A whole log is read (its last lines, paste.PASTE_RULES' `tail_lines`); past this it is no paste.
MAX_INPUT_BYTES = 64 << 20
# A file an error is kept in ends so (`error.txt`, `run.log`, `nohup.out`); `torch.cat` or
# `model.eval` is a query. (A string, compiled by `re` only when an argument names no file.)
FILE_SUFFIX = r"(?i)\.(?:txt|log|out|err|text|py|ipynb|json|jsonl|md|ya?ml|csv|html?)$"
QUOTED_MAX = 120  # the most of the error answered that the note on a paste's other errors quotes
INDENT = "   "  # what is said of a row, under its text (as wide as a suggestion's "1. ")
EXIT_EXPLAINED, EXIT_NOT_EXPLAINED, EXIT_USAGE = 0, 1, 2

HEADLINES = {
    LITERAL: ("good", "✔ 附录A 里有这段原文"),
    MATCH: ("good", "✔ 附录A {how}"),  # how_it_fits
    WEAK: ("warn", "✘ 附录A 没有收录这条报错。下面几条只是字面相近，不一定相关："),
    NONE: ("warn", "✘ 附录A 没有收录这条报错，也没有字面相近的条目。"),
}
# An error the page names in 九 as left out: the rows said are why, not guesses (Answer.left_out).
LEFT_OUT_WEAK = "✘ 附录A 故意没有收录这类报错，下面说了为什么："
# A query in Chinese describes what the reader sees rather than quoting an error: "this error is
# not covered" would answer something not asked (the page's box says it the same way).
DESCRIBED_WEAK = "✘ 附录A 没有这句原文。按字面最接近的几条如下，不一定就是你遇到的情况："
# The first row's words fit, but the text cannot show it is that row's situation (its sizes only
# reordered, or words another call prints too with none of the row's calls shown): "not covered"
# would be untrue (the page's box says it the same way).
WORDS_FIT_WEAK = "✘ 附录A 有一条字面对得上，但看不出是不是它讲的情况（见它下面的 ⚠️）。请对照原文再用："


class UsageError(Exception):
    """Bad input: said in one line on stderr, exit 2, no traceback."""


def looks_like_a_file(argument: str) -> bool:
    """Whether an argument that names no existing file was meant as one (`traceback.txt`,
    `logs/run1`), not as the text to look up (`验证集精度比训练差`, `"KeyError:'label'"`)."""
    if names_an_error(argument, at_start=True) or not argument.isascii() or any(char.isspace() for char in argument):
        return False
    return "/" in argument or "\\" in argument or re.search(FILE_SUFFIX, argument) is not None


def read_input(path: str | None, stdin=None, stderr=None) -> str:
    stdin = stdin or sys.stdin
    if path is not None and path != "-" and not path.strip():
        raise UsageError("nothing to look up: the argument is empty")
    if path and path != "-" and not os.path.exists(path) and not looks_like_a_file(path):
        # The error itself, quoted on the command line (`pytorch-error-lookup "RuntimeError: …"`),
        # or a symptom in the reader's words, not a file's name.
        return _text_to_look_up(path, "the argument")
    try:
        if path and path != "-":
            with open(path, "rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
        else:
            if is_terminal(stdin):  # a reader who typed the bare command: say what it waits for
                print("粘贴报错（一行或整段 traceback），然后按 Ctrl-D（Windows：Ctrl-Z 再回车）：",
                      file=stderr or sys.stderr)
            raw = stdin.buffer.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"no such file: {path} (to look the text up, pipe it in: echo '{path}' | pytorch-error-lookup)") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder, not a file with an error in it") from None
    except OSError as error:
        raise UsageError(f"cannot read {path or 'standard input'}: {error.strerror or error}") from None
    where = path if path and path != "-" else "standard input"
    if len(raw) > MAX_INPUT_BYTES:
        raise UsageError(f"{where} is over {MAX_INPUT_BYTES >> 20} MiB; pipe the error's last lines (tail -n 80), not a whole log")
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # (UTF-32's mark starts as UTF-16's)
        text = raw.decode("utf-32", errors="replace")
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # What PowerShell's `>` writes: UTF-16 with its byte-order mark (half its bytes are NUL).
        text = raw.decode("utf-16", errors="replace")
    elif b"\0" in raw:
        raise UsageError(f"{where} looks binary (it holds NUL bytes); give the error as text")
    else:
        # Not UTF-8 (a log from a Chinese Windows console is often GBK): the error's own words are
        # ASCII and survive; only the undecodable bytes are replaced.
        text = raw.decode("utf-8-sig", errors="replace")
    return _text_to_look_up(text, where)


def _text_to_look_up(text: str, where: str) -> str:
    if not text.strip():
        raise UsageError(f"nothing to look up: {where} is empty")
    if not has_a_word(text):
        # `a`, `.`, `0`: found all over the page, explained nowhere.
        raise UsageError(f"nothing to look up: {where} holds no word (give the error's text)")
    return text


def site_base(option: str | None, environ=os.environ, published: str | None = None) -> str | None:
    """Where entries link to: a URL as given, or the folder `mkdocs build` wrote, as file://;
    else the site's published address (`site_url`), if the data knows one."""
    base = option or environ.get(SITE_VARIABLE) or published or None
    if base is None or "://" in base:
        return base
    from pathlib import Path  # only for a folder given as the site

    folder = Path(base).expanduser().resolve()
    if not (folder / "index.html").is_file():
        raise UsageError(f"{base} is not a built site (no index.html in it); run `mkdocs build` or give a URL")
    return folder.as_uri() + "/"


def entry_url(base: str | None, page_url: str, entry_id: str) -> str:
    from urllib.parse import urljoin  # only where a site is known

    relative = f"{page_url}#{entry_id}"
    return urljoin(base if base.endswith("/") else base + "/", relative) if base else relative


def as_json(answer: Answer, base: str | None, text: str) -> dict:
    return {
        "verdict": answer.verdict,
        "others": answer.others,  # other errors the input held (two ranks, two runs)
        # A traceback cut before its error message that nothing could be said from (one said from
        # a row's `frames` is a match, with "frame" below).
        "message_missing": answer.message_missing,
        # For `weak`: an error the page says it leaves out (九); the results say why, not guesses.
        "left_out": answer.left_out,
        # For `match`: the wording that fits is another release's (`torch 1.0.1–1.7.1`), or a
        # symptom described in words.
        "said_by": answer.fit.said_by if answer.fit else None,
        "described": bool(answer.fit and answer.fit.described),
        "frame": answer.fit.frame if answer.fit else None,  # said from a frame only its row's situation runs
        "results": [
            {"id": entry["id"], "page": answer.page.key, "fragment": entry["fragment"], "cause": entry["cause"],
             "other_causes": entry.get("other_causes", []),
             "chapters": [chapter["id"] for chapter in entry["chapters"]],
             "url": entry_url(base, answer.page.url, entry["id"]) if base else None,
             # Why a row whose words fit is only suggested, as the text output says under it.
             "why": why_only_suggested(answer, entry, text) if answer.verdict == WEAK else None,
             # The places (from 0) of the other causes the input shows, for a row said (literal
             # or match), as the text output points at them.
             "other_causes_shown": ([place for place, _ in shown_other_causes(entry, text)]
                                    if answer.verdict in (LITERAL, MATCH) else []),
             # A cause that reads on from the row above (同上): that row, whose words it leaves out.
             "reads_on": _read_on_from(answer.page, entry)}
            for entry in answer.entries
        ],
    }


def _read_on_from(page, entry: dict) -> dict | None:
    above = row_read_on_from(page, entry)
    return {"id": above["id"], "fragment": above["fragment"], "cause": above["cause"]} if above else None


def installed_torch() -> str | None:
    """The torch release installed with this Python, read from the name of its metadata folder
    (`torch-2.13.0+cpu.dist-info`): neither torch nor importlib.metadata is imported, which
    would double the command's start."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("torch-") and name.endswith(".dist-info"):
                return name[len("torch-"):-len(".dist-info")]
    return None


def where_to_read(base: str | None, page_url: str, entry_id: str, paint: Painter, width: int,
                  indent: str = "", command: str | None = None) -> list[str]:
    """The entry's address on the site; with no site known, the command that shows it here
    (`command`, by default this one's `--explain`), on a line of its own where the two do not
    fit on one (a command cut in two is no use to copy), and without the indent where even
    that line would be wider than `width`."""
    if base:
        return wrap(paint.link(entry_url(base, page_url, entry_id)), width, indent)
    label = paint("全文：", "dim")
    command = paint(command or f"pytorch-error-lookup --explain {entry_id}", "code")
    together = wrap(label + command, width, indent)
    if len(together) == 1:
        return together
    return [indent + label, indent + command if display_width(indent + command) <= width else command]


BULLET_INDENT = "    "  # as wide as "➜1. ": the page numbers the list too, the remark says "第 1 种"


def cause_lines(page: Page, entry: dict, paint: Painter, width: int, indent: str = "", *,
                after: dict | None = None) -> list[str]:
    """The row's cause (its Markdown as a terminal shows it), and the row it reads on from unless
    it is shown `after` that row (lookup.row_above_note)."""
    lines = wrap(paint.markdown(entry["cause"]), width, indent)
    if note := row_above_note(page, entry, after):
        lines += wrap(paint(paint.markdown(note), "dim"), width, indent)
    return lines


def other_cause_lines(entry: dict, paint: Painter, width: int, indent: str = "", *,
                      sources: bool = False, text: str = "") -> list[str]:
    """The row's other causes (the same words, another mistake), as the page lists them under
    its cause; with `sources`, each with the thread that traced it. When the pasted `text` shows
    some of them (lookup.shown_other_causes), a line before the list says so and their numbers
    are pointed at (➜)."""
    if not entry.get("other_causes"):
        return []
    lines = []
    shown = shown_other_causes(entry, text)
    if remark := remark_on(shown):
        lines += wrap(paint(f"⚠️ {remark}", "warn"), width, indent)
    places = {place for place, _ in shown}
    lines += wrap(paint(OTHER_CAUSES_LABEL, "dim"), width, indent)
    for place, other in enumerate(entry["other_causes"]):
        said = wrap(paint.markdown(other["cause"]), width, indent + BULLET_INDENT)  # hangs under its bullet
        bullet = f"{'➜' if place in places else ' '}{place + 1}. "
        said[0] = indent + bullet + said[0][len(indent + BULLET_INDENT):]
        lines += said
        if sources and other.get("shown_by"):  # how to tell it, as 附录A says beside it
            telltales = " 或 ".join(f"`{it}`" for it in other["shown_by"])
            lines += wrap(paint(paint.markdown(SHOWN_BY_HINT.format(shown=telltales)), "dim"), width,
                          indent + BULLET_INDENT)
        if sources:
            lines += wrap(paint("出处：", "dim") + paint.link(other["source"]), width, indent + BULLET_INDENT)
    return lines


def explain_text(page: Page, entry: dict, base: str | None, paint: Painter, width: int,
                 torch: str | None = None, labels: dict[str, str] | None = None, *, in_section: bool = False,
                 after: dict | None = None) -> list[str]:
    """One entry whole, as the page's row shows it: its text, context, cause (its ⭐ and ⚠️
    markers included), chapters by number and title, the release line and the address, after
    the page's and section's titles unless it is listed `in_section` (under its title, `after`
    the row before it)."""
    lines = []
    if not in_section:
        lines += wrap(paint(f"{page.title} · {entry['section']}", "dim"), width)
        lines.append("")
    lines += wrap(paint(entry["fragment"], "title"), width)
    if entry.get("second_line"):
        lines += wrap("+ " + paint(entry["second_line"], "title"), width)
    if entry.get("context"):
        lines += wrap(f"（{entry['context']}）", width)
    lines.append("")
    lines += cause_lines(page, entry, paint, width, after=after)
    lines += other_cause_lines(entry, paint, width, sources=True)
    if entry["chapters"]:
        lines.append("")
        lines += wrap(paint("去哪读：", "dim"), width)
        for chapter in entry["chapters"]:
            lines += wrap(f"{chapter['id']} {chapter['title']}", width, INDENT)
    said = release_line(entry, labels or {})
    if said:
        lines.append("")
        lines += wrap(paint("各版本实跑：", "dim") + said, width)
        remark = release_remark(entry, torch, labels or {}) if torch else None
        if remark:
            lines += wrap(paint("你的 torch：", "dim") + remark, width)
    if base:
        lines.append("")
        lines += where_to_read(base, page.url, entry["id"], paint, width)
    return lines


def as_text(answer: Answer, pages, base: str | None, paint: Painter, width: int,
            torch: str | None = None, labels: dict[str, str] | None = None, text: str = "") -> list[str]:
    if answer.message_missing:
        return wrap(paint(f"✘ {PASTE_RULES['missing_message_note']}。", "warn"), width)
    style, headline = HEADLINES[answer.verdict]
    if answer.verdict == WEAK and answer.left_out:
        headline = LEFT_OUT_WEAK
    elif answer.verdict == WEAK and in_words(answer.query):
        headline = DESCRIBED_WEAK
    elif answer.verdict == WEAK and answer.ids[0] in answer.reordered | answer.uncalled:
        headline = WORDS_FIT_WEAK
    lines = wrap(paint(headline.format(how=how_it_fits(answer.fit)), style), width)
    if answer.others:
        which = "本页能解释的第一条" if answer.verdict in (LITERAL, MATCH) else "第一条"
        # (Cut, it says so: `No module named 'numpy` is not the message that named `numpy._core`.)
        quoted = answer.query if len(answer.query) <= QUOTED_MAX else answer.query[:QUOTED_MAX - 1] + "…"
        lines += wrap(paint(f"（输入里共有 {answer.others + 1} 条报错，这里答的是{which}：{quoted}）", "dim"), width)
    # Loose guesses stay as short as the page's list of them: each row's text, why it is only
    # suggested, and where to read it whole. (A row the page leaves out is said whole: why it is
    # left out is the answer.)
    loose_guesses = answer.verdict == WEAK and not answer.left_out
    for number, entry in enumerate(answer.entries, 1):
        lines.append("")
        # A suggestion's text hangs under its number, as everything said of it does; a row the
        # page explains starts flush left, and so do its text's wrapped lines.
        if answer.verdict == WEAK:
            title = wrap(paint(entry["fragment"], "title"), width, INDENT)
            title[0] = f"{number}. " + title[0][len(INDENT):]
        else:
            title = wrap(paint(entry["fragment"], "title"), width)
        lines += title
        if answer.verdict == WEAK and (why := why_only_suggested(answer, entry, text)):
            lines += wrap(paint(f"⚠️ {why}", "warn"), width, INDENT)
        if loose_guesses:
            lines += where_to_read(base, answer.page.url, entry["id"], paint, width, INDENT)
            continue
        if entry.get("second_line"):
            lines += wrap("+ " + paint(entry["second_line"], "title"), width, INDENT)
        if entry.get("context"):
            lines += wrap(f"（{entry['context']}）", width, INDENT)
        after = answer.entries[number - 2] if number > 1 else None
        lines += cause_lines(answer.page, entry, paint, width, INDENT, after=after)
        if answer.verdict != WEAK:  # a row said, whole; a row of 九 says why it is left out, no more
            lines += other_cause_lines(entry, paint, width, INDENT, text=text)
        chapters = " · ".join(f"{chapter['id']} {chapter['title']}" for chapter in entry["chapters"])
        if chapters:
            lines += wrap(paint("去哪：", "dim") + chapters, width, INDENT)
        remark = release_remark(entry, torch, labels or {}) if torch and answer.verdict != WEAK else None
        if remark:
            lines += wrap(paint(remark, "dim"), width, INDENT)
        lines += where_to_read(base, answer.page.url, entry["id"], paint, width, INDENT)
    if answer.verdict in (WEAK, NONE):
        lines.append("")
        for page in pages:
            for section in page.not_covered:
                lines += wrap(f"{page.title} 故意没收的几类见「{section['title']}」：", width)
                lines += where_to_read(base, page.url, section["id"], paint, width, INDENT)
            if page.chapter_map:
                lines += wrap("也可以按章节地图找讲这个机制的那一章" + ("：" if base else "。"), width)
                if base:
                    lines += wrap(paint.link(entry_url(base, *page.chapter_map.split("#"))), width, INDENT)
    return lines


Arguments = namedtuple("Arguments", "file json explain torch site", defaults=(None, False, None, None, None))


def installed_version() -> str:
    """The installed distribution's version; run from a checkout (`PYTHONPATH=hooks`) there is none."""
    from importlib import metadata
    try:
        return metadata.version("pytorch-error-lookup")
    except metadata.PackageNotFoundError:
        return "(not installed: run from a checkout)"


def parse_args(argv) -> Arguments:
    argv = sys.argv[1:] if argv is None else list(argv)
    # The common call, `pytorch-error-lookup [FILE]`, needs no parser: building argparse's (and
    # importing it, and gettext for its messages) is a sixth of the command's start.
    if len(argv) <= 1 and not any(argument.startswith("-") for argument in argv):
        return Arguments(file=argv[0] if argv else None)
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # one line, our way, instead of argparse's usage block and exit
            raise UsageError(f"{message} (see pytorch-error-lookup --help)")

    class Version(argparse.Action):
        """The installed release, looked up only when asked: importlib.metadata would add a
        third to every call that takes an option (`--explain`, `--json`)."""
        def __call__(self, parser, namespace, values, option_string=None):
            print(f"{parser.prog} {installed_version()}")
            parser.exit()

    parser = Parser(
        prog="pytorch-error-lookup",
        description="Look a PyTorch error up in 附录A · 报错反查表: a line or a whole traceback, from FILE or stdin.",
        epilog="Exit status: 0 the page explains it, 1 it does not, 2 bad usage.")
    parser.add_argument("file", nargs="?", metavar="FILE", help="a file holding the error, or the error itself in quotes "
                                                         "(none or -: standard input)")
    parser.add_argument("--json", action="store_true", help="print the verdict and results as JSON")
    parser.add_argument("--explain", metavar="ID", help="print the entry with this id whole (the id is the "
                                                         "part after # in its address, e.g. matmul-shapes); "
                                                         "not-covered: what the page leaves out, and why")
    parser.add_argument("--torch", metavar="VERSION",
                        help="your torch release, to say whether the row's text was seen on it "
                             "(default: the torch installed with this Python, if any)")
    parser.add_argument("--site", metavar="URL|FOLDER",
                        help=f"where entries link to: the site's URL or the folder `mkdocs build` wrote (default: "
                             f"${SITE_VARIABLE}, else the site_url the package was built with)")
    parser.add_argument("--version", action=Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the installed release and exit")
    return Arguments(**vars(parser.parse_args(argv)))


def main(argv: list[str] | None = None, *, stdin=None, stdout=None, stderr=None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    lookup = None
    try:
        arguments = parse_args(argv)
        explaining = arguments.explain is not None  # (`--explain ""` is an id too: none such)
        if explaining and arguments.file:
            raise UsageError("--explain ID reads no input; give either an ID or an error")
        if arguments.torch and release_numbers(arguments.torch) is None:
            raise UsageError(f"--torch {arguments.torch}: not a torch release (give one like 2.6.0)")
        text = None if explaining else read_input(arguments.file, stdin, stderr)
        lookup = Lookup.installed()
        base = site_base(arguments.site, published=lookup.site_url)
        found = explained(lookup, arguments.explain) if explaining else None
    except UsageError as error:
        print(f"pytorch-error-lookup: {error}", file=stderr)
        return EXIT_USAGE
    try:
        if found:
            show_entry(found, lookup, arguments, base, stdout)
            status = EXIT_EXPLAINED
        else:
            answer = lookup(text)
            if arguments.json:
                print_json(as_json(answer, base, text), stdout)
            else:
                show_text(answer, lookup, arguments, base, text, stdout)
            status = EXIT_EXPLAINED if answer.verdict in (LITERAL, MATCH) else EXIT_NOT_EXPLAINED
        if stdout is not None:  # (None: started with it closed, `>&-`; the exit status still says)
            stdout.flush()
    except BrokenPipeError:  # `| head`: the reader has what they wanted
        _drop_unwritten_output()
        status = EXIT_EXPLAINED
    except OSError as error:  # `> /dev/full`, a disk that filled up
        _drop_unwritten_output()
        print(f"pytorch-error-lookup: cannot write the answer: {error.strerror or error}", file=stderr)
        status = EXIT_USAGE
    return status


def _drop_unwritten_output() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit has nowhere to fail."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real file behind it (a test's StringIO)
        pass


def explained(lookup: Lookup, wanted: str) -> tuple[Page, list[dict], dict | None]:
    """What --explain shows: the row with this id, or every row of a section saying what the
    page leaves out (九: every "not covered" answer names it, and with no site this is the way
    to read it). The page, the rows, and the section when it is one."""
    wanted_id = wanted.strip().rsplit("#", 1)[-1]  # an id, `#id`, or an entry's address
    found = lookup.entry(wanted_id)
    if found is not None:
        return found[0], [found[1]], None
    for page in lookup.pages:
        for section in page.not_covered:
            if section["id"] == wanted_id:
                return page, [entry for entry in page.entries if entry["section"] == section["title"]], section
    ids = [item["id"] for page in lookup.pages for item in (*page.entries, *page.not_covered)]
    import difflib

    close = difflib.get_close_matches(wanted_id, ids, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else " (an id is what follows # in an entry's address)"
    raise UsageError(f"--explain {wanted}: no entry or section with this id{hint}")


def terminal_width() -> int:
    """As shutil.get_terminal_size (COLUMNS first, then the terminal, else 80), without shutil's import."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80  # a pty with no size says 0


def print_json(value, stdout) -> None:
    import json  # --json only: not on every call's start

    print(json.dumps(value, ensure_ascii=False, indent=2), file=stdout)


def painter(stdout) -> Painter:
    return Painter(wants_colour(stdout), links=is_terminal(stdout))


def show_entry(found: tuple[Page, list[dict], dict | None], lookup: Lookup, arguments, base: str | None,
               stdout) -> None:
    page, entries, section = found
    width = terminal_width()

    def url(item_id: str) -> str | None:
        return entry_url(base, page.url, item_id) if base else None

    if arguments.json:
        rows = [{"page": page.key, **entry, "url": url(entry["id"])} for entry in entries]
        print_json(rows[0] if section is None else {"page": page.key, **section, "url": url(section["id"]), "entries": rows},
                   stdout)
        return
    torch = arguments.torch or installed_torch()
    paint = painter(stdout)
    if section is None:
        lines = explain_text(page, entries[0], base, paint, width, torch, lookup.seen_labels)
    else:  # the section's title and what it says of all its rows, then each row
        lines = wrap(paint(f"{page.title} · {section['title']}", "dim"), width)
        if section.get("intro"):
            lines += [""] + wrap(paint.markdown(section["intro"]), width)
        for after, entry in zip([None, *entries], entries):
            lines += [""] + explain_text(page, entry, None, paint, width, torch, lookup.seen_labels, in_section=True,
                                         after=after)
        if base:
            lines += [""] + where_to_read(base, page.url, section["id"], paint, width)
    print("\n".join(lines), file=stdout)


def show_text(answer: Answer, lookup: Lookup, arguments, base: str | None, text: str, stdout) -> None:
    width = terminal_width()
    torch = arguments.torch or installed_torch()
    lines = as_text(answer, lookup.pages, base, painter(stdout), width, torch, lookup.seen_labels, text)
    print("\n".join(lines), file=stdout)


if __name__ == "__main__":
    raise SystemExit(main())
