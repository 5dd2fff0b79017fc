"""`pytorch-error-lookup` as readers call it: a line or a traceback on stdin or in a file, text or
JSON out, the exit status, bad usage, colour and wrapping. Same verdicts as the page: the
labelled set (tests/fixtures/lookup_cases.yml) through the command's own code path."""

from __future__ import annotations

import io
import os
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pytorch_error_lookup import cli
from pytorch_error_lookup.terminal import display_width, wrap
from refsite.lookup_data import published_address

ROOT = Path(__file__).resolve().parents[1]
CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "lookup_cases.yml").read_text(encoding="utf-8"))
MATMUL = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)"


class _Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def run(argv, stdin: bytes = b"", environ=None):
    """(exit status, stdout, stderr) of the command, in this process."""
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(argv, stdin=_Stdin(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['kind']}-{case.get('entry') or case.get('helpful')}")
def test_the_command_gives_the_labelled_verdicts(case):
    status, out, _ = run(["--json"], case["text"].encode())
    answer = json.loads(out)
    if case["kind"] == "uncovered":
        assert answer["verdict"] in ("weak", "none") and status == 1
    else:
        assert answer["verdict"] in (("literal", "match") if case["kind"] == "covered" else ("match",))
        assert answer["results"][0]["id"] == case["entry"] and status == 0


def test_json_has_exactly_the_documented_shape(tmp_path):
    (tmp_path / "index.html").write_text("")
    status, out, _ = run(["--json", "--site", str(tmp_path)], MATMUL.encode())
    answer = json.loads(out)
    assert status == 0 and set(answer) == {"verdict", "others", "message_missing", "left_out", "said_by", "described", "frame",
                                           "results"}
    assert answer["verdict"] == "match" and answer["others"] == 0 and answer["message_missing"] is False and answer["left_out"] is False
    assert answer["said_by"] is None and answer["described"] is False  # the row's own text, numbers aside
    first = answer["results"][0]
    assert set(first) == {"id", "page", "fragment", "cause", "other_causes", "chapters", "url", "why",
                          "other_causes_shown", "reads_on"}
    assert first == {
        "id": "matmul-shapes", "page": "pytorch/appendix-a",
        "fragment": "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)",
        "cause": first["cause"], "other_causes": cli.Lookup.installed().entry("matmul-shapes")[1]["other_causes"],
        "chapters": ["01"],
        "url": (tmp_path.resolve() / "pytorch/appendix-a.html").as_uri() + "#matmul-shapes",
        "why": None, "other_causes_shown": [], "reads_on": None,
    }
    assert "`4 != 5`" in first["cause"]
    assert all(set(other) <= {"cause", "source", "shown_by"} and other["source"].startswith("https://")
               for other in first["other_causes"])


def test_json_names_the_row_a_cause_reads_on_from():
    """A cause written as 同上 (the row above) leaves that row's words out: the JSON names it,
    as the text answer quotes it."""
    line = "RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation."
    first = json.loads(run(["--json"], line.encode())[1])["results"][0]
    assert first["id"] == "leaf-view-inplace" and first["cause"].startswith("同上")
    above = cli.Lookup.installed().entry("leaf-inplace")[1]
    assert first["reads_on"] == {"id": "leaf-inplace", "fragment": above["fragment"], "cause": above["cause"]}


def test_json_says_why_a_row_is_only_suggested_as_the_text_does():
    """`No module named 'cv2'` alone: the row about a checkpoint's module is suggested, and the
    JSON carries the reason the text answer prints under it."""
    status, out, _ = run(["--json"], b"ModuleNotFoundError: No module named 'cv2'")
    row = next(row for row in json.loads(out)["results"] if row["id"] == "load-module-not-found")
    assert status == 1 and "torch.load" in row["why"]
    _, text, _ = run([], b"ModuleNotFoundError: No module named 'cv2'")
    assert "".join(row["why"].split()) in "".join(text.split())  # the text wraps it over lines


def test_a_match_says_whether_it_fit_another_releases_wording_or_a_description():
    old = "RuntimeError: size mismatch, m1: [2 x 64], m2: [18496 x 256] at /pytorch/aten/src/THC/generic/THCTensorMathBlas.cu:273"
    _, out, _ = run([], old.encode())
    headline = out.splitlines()[0]
    assert "你贴的是 torch 1." in headline and "一种说法" in headline and "正好对上" not in headline
    _, out, _ = run(["--json"], old.encode())
    assert json.loads(out)["said_by"].startswith("torch 1.")
    _, out, _ = run([], "验证集精度比训练差很多".encode())
    assert "讲的正是你描述的现象" in out.splitlines()[0]
    _, out, _ = run(["--json"], "验证集精度比训练差很多".encode())
    assert json.loads(out)["described"] is True


def test_a_traceback_cut_before_its_message_is_said_from_a_frame_only_its_row_runs():
    """A spawned child's traceback, cut by its thread before the bootstrapping message (real
    paste, tune part): its frames run through `_fixup_main_from_path`, the row's. Cut before any
    such frame, the answer says the message is missing, as for any cut traceback."""
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/lxztju/pytorch_classification/issues/37"]
    assert "bootstrapping" not in paste and "_fixup_main_from_path" in paste
    status, out, _ = run([], paste.encode())
    assert status == 0 and "栈里经过 _fixup_main_from_path" in out.splitlines()[0]
    _, out, _ = run(["--json"], paste.encode())
    answer = json.loads(out)
    assert (answer["verdict"], answer["frame"], answer["results"][0]["id"]) == (
        "match", "_fixup_main_from_path", "spawn-bootstrapping")
    above = paste[:paste.index('  File "C:\\ProgramData\\Anaconda3\\lib\\multiprocessing\\spawn.py", line 236')]
    _, out, _ = run(["--json"], above.encode())
    assert (json.loads(out)["verdict"], json.loads(out)["message_missing"]) == ("none", True)


def test_a_url_base_is_joined_and_the_environment_gives_it_too(monkeypatch):
    _, out, _ = run(["--json", "--site", "https://example.org/book"], MATMUL.encode())
    assert json.loads(out)["results"][0]["url"] == "https://example.org/book/pytorch/appendix-a.html#matmul-shapes"
    monkeypatch.setenv(cli.SITE_VARIABLE, "https://example.org/other/")
    _, out, _ = run(["--json"], MATMUL.encode())
    assert json.loads(out)["results"][0]["url"] == "https://example.org/other/pytorch/appendix-a.html#matmul-shapes"


def test_text_output_names_fragment_cause_chapters_and_link():
    status, out, _ = run(["--site", "https://example.org/book"], MATMUL.encode())
    assert status == 0
    assert "正好对上" in out and "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)" in out
    assert "⭐" in out and "`4 != 5`" in out  # markers and code kept
    assert "01 张量" in out and "https://example.org/book/pytorch/appendix-a.html#matmul-shapes" in out
    assert "\x1b" not in out  # not a terminal: no colour, no hyperlink marks


def test_with_no_site_known_the_answer_says_how_to_read_the_entry_here(monkeypatch):
    monkeypatch.delenv(cli.SITE_VARIABLE, raising=False)
    monkeypatch.setattr(cli.Lookup, "site_url", None, raising=False)
    _, out, _ = run([], MATMUL.encode())
    assert "pytorch-error-lookup --explain matmul-shapes" in out
    assert "appendix-a.html" not in out  # no address that goes nowhere


def test_an_uncovered_error_says_so_and_points_elsewhere():
    status, out, _ = run(["--site", "https://example.org/book/"], b"RuntimeError: Found dtype Long but expected Float\n")
    assert status == 1
    assert "没有收录这条报错" in out and "不一定相关" in out
    assert "#not-covered" in out and "index.html#chapters" in out


def test_loose_guesses_are_listed_as_short_as_the_page_lists_them(monkeypatch):
    """An uncovered error's suggestions are each the row's text and where to read it whole (as
    the page's box lists them), not five causes that read like an answer; with no site, the
    pointer to what the page leaves out is a command too."""
    monkeypatch.delenv(cli.SITE_VARIABLE, raising=False)
    monkeypatch.setattr(cli.Lookup, "site_url", None, raising=False)
    status, out, _ = run([], b"ImportError: libGL.so.1: cannot open shared object file: No such file or directory\n")
    answer = json.loads(run(["--json"], b"ImportError: libGL.so.1: cannot open shared object file\n")[1])
    assert status == 1 and answer["verdict"] == "weak" and len(answer["results"]) > 1
    for result in answer["results"]:
        assert result["fragment"].splitlines()[0] in out
        assert f"pytorch-error-lookup --explain {result['id']}" in out
        assert cli.Painter(False).markdown(result["cause"]).splitlines()[0][:12] not in out
    assert "--explain not-covered" in out
    # A row of 九 the error is named by is the answer, said whole: why the page leaves it out.
    status, out, _ = run([], b"RuntimeError: CUDA error: device-side assert triggered\n")
    assert status == 1 and "需要 GPU" in out


def test_explain_not_covered_lists_what_the_page_leaves_out():
    """The section's heading and what it says of all its rows (why nothing from CUDA is on the
    page), then each row in order, so that a row's `同上` reads on from the one above it."""
    status, out, _ = run(["--explain", "not-covered", "--site", "https://example.org/book/"])
    section = json.loads(run(["--explain", "#not-covered", "--json"])[1])
    assert status == 0 and section["id"] == "not-covered" and section["title"] in out.splitlines()[0]
    assert set(section) == {"page", "id", "title", "intro", "url", "entries"} and section["url"] is None
    assert "CUDA 不可用" in section["intro"] and "CUDA 不可用" in out
    assert [entry["id"] for entry in section["entries"]] == ["cuda-errors", "distributed-timeouts", "compile-runtime-behaviour"]
    for entry in section["entries"]:
        assert entry["fragment"].splitlines()[0][:20] in out
    assert out.count(section["title"]) == 1  # the heading once, not over every row
    assert "上一条是「" not in out  # listed in order, the row above is there
    assert out.rstrip().endswith("https://example.org/book/pytorch/appendix-a.html#not-covered")


def test_a_row_that_reads_on_from_the_row_above_names_it_when_shown_without_it():
    """`同上，只是隔了一层 view` is the page's table reading on from the row above it: shown
    without that row (an answer, --explain), the row names it and its cause; shown just after it,
    it does not say it again."""
    _, leaf = cli.Lookup.installed().entry("leaf-inplace")
    for argv, stdin in ((["--explain", "leaf-view-inplace"], b""),
                        ([], b"RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.\n")):
        status, out, _ = run(argv, stdin)
        flat = "".join(out.split())  # as wrapped, without the breaks and the spaces wrapping took
        assert status == 0 and "".join(f"上一条是「{leaf['fragment']}」".split()) in flat, out
        assert "".join(cli.Painter(False).markdown(leaf["cause"]).split()) in flat
    status, out, _ = run(["--explain", "gradcheck-not-double"])  # `就是上一条那个 dtype 问题`
    assert "上一条是「" in out
    both = json.loads(run(["--json"], b"is being used in an in-place operation.\n")[1])
    assert [result["id"] for result in both["results"]][:2] == ["leaf-inplace", "leaf-view-inplace"]
    assert "上一条是「" not in run([], b"is being used in an in-place operation.\n")[1]
    assert "上一条是「" not in run(["--explain", "matmul-shapes"])[1]


def test_an_error_the_page_leaves_out_is_said_to_be_left_out_not_guessed_at():
    """Named by 九 (a message starting with `CUDA out of memory`) or found only there: the row
    is why the page leaves it out, so the headline says so, and --json marks it."""
    for text in (b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 238.00 MiB. GPU 0 has a total capacity of 7.63 GiB\n",
                 b"RuntimeError: CUDA error: device-side assert triggered\n"):
        status, out, _ = run([], text)
        assert status == 1 and out.splitlines()[0] == cli.LEFT_OUT_WEAK, out
        assert "cuda-errors" in out and "2. " not in out
        assert json.loads(run(["--json"], text)[1])["left_out"] is True
    assert json.loads(run(["--json"], b"RuntimeError: Found dtype Long but expected Float\n")[1])["left_out"] is False


def test_a_row_whose_words_fit_but_not_its_situation_is_not_called_not_covered(monkeypatch):
    """Real pastes (tune part): torch 1.x's `Sizes of tensors must match except in dimension 0`
    with no `default_collate` shown (any torch.cat prints it), and a size mismatch whose shapes are
    only reordered. The row is suggested first with why; the headline does not say the page
    lacks the error. An error no row's words fit still says so."""
    import real_pastes

    monkeypatch.setenv("COLUMNS", "200")  # the headline on one line
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/yumingj/C2-Matching/issues/17", "https://github.com/ouenal/scribblekitti/issues/10"):
        status, out, _ = run([], pastes[source].encode())
        assert status == 1 and out.splitlines()[0] == cli.WORDS_FIT_WEAK, (source, out)
        assert "没有收录这条报错" not in out
    status, out, _ = run([], b"ImportError: libGL.so.1: cannot open shared object file: No such file or directory\n")
    assert out.splitlines()[0] == cli.HEADLINES[cli.WEAK][1]


def test_an_exceptions_name_alone_is_no_message_not_text_on_the_page():
    """`RuntimeError` (raised without a message) is on the page only as a word: it says no row,
    and the answer says what is missing, not "the page has this text" (exit 0)."""
    for text in (b"RuntimeError\n", b"ValueError:\n", b"  torch.cuda.OutOfMemoryError  \n"):
        status, out, _ = run([], text)
        assert status == 1 and out.startswith(f"✘ {cli.PASTE_RULES['missing_message_note'][:12]}"), out
        assert json.loads(run(["--json"], text)[1])["message_missing"] is True
    # Beside an error with a message, the name alone is passed over: the message is answered.
    status, out, _ = run(["--json"], b"RuntimeError\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)\n")
    assert status == 0 and json.loads(out)["results"][0]["id"] == "matmul-shapes"


def test_a_description_in_chinese_no_row_covers_is_not_called_an_error():
    status, out, _ = run([], "训练很慢怎么办".encode())
    assert status == 1
    assert out.splitlines()[0] == cli.DESCRIBED_WEAK and "没有收录这条报错" not in out


def test_an_error_quoted_in_a_chinese_sentence_is_still_called_an_error():
    # From a real thread (the tune part): the error no row covers, in the reader's sentence.
    status, out, _ = run([], "PLE运行 RuntimeError: DataLoader worker (pid 1022) is killed by signal: Killed.".encode())
    assert status == 1
    assert "没有收录这条报错" in out.splitlines()[0]


def test_explain_prints_the_whole_entry():
    status, out, _ = run(["--explain", "matmul-dtype", "--site", "https://example.org/book", "--torch", "1.7.1"])
    assert status == 0
    assert "mat1 and mat2 must have the same dtype, but got Double and Float" in out
    assert "⚠️" in out or "⭐" in out  # the cause with its markers
    assert "01 张量" in out  # chapters by number and title
    assert "各版本实跑：1.0.1–" in out and "–2.15.0 逐字一致" in out  # the release line, oldest first
    assert "你的 torch：torch 1.7.1 上实跑" in out
    assert "https://example.org/book/pytorch/appendix-a.html#matmul-dtype" in out
    as_json = json.loads(run(["--explain", "matmul-dtype", "--json"])[1])
    assert as_json["id"] == "matmul-dtype" and as_json["releases"]


def test_a_rows_other_causes_are_said_with_it_and_explain_gives_their_threads(monkeypatch):
    """The same words from another mistake (a loss class built with the tensors): the answer
    says the row's other causes under its own; --explain adds the thread of each; --json carries them."""
    monkeypatch.setenv("COLUMNS", "200")  # each on one line
    pasted = "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"
    status, out, _ = run([], pasted.encode())
    assert status == 0
    cause_at, others_at = out.index("`.any()`"), out.index("同样这句报错，也可能是：")
    assert cause_at < others_at and  " 1. 把张量传给了类的构造函数：`nn.CrossEntropyLoss(out, y)`" in out[others_at:]
    assert "https://github.com/nikhilroxtomar/DDANet/issues/1" not in out  # the thread: with --explain
    status, out, _ = run(["--explain", "bool-ambiguous"])
    assert status == 0 and "出处：https://github.com/nikhilroxtomar/DDANet/issues/1" in out
    [other] = json.loads(run(["--json"], pasted.encode())[1])["results"][0]["other_causes"]
    assert other["source"] == "https://github.com/nikhilroxtomar/DDANet/issues/1"
    assert other["cause"].startswith("把张量传给了类的构造函数")


def test_a_paste_that_shows_one_of_the_rows_other_causes_is_told_which(monkeypatch):
    """Real pastes (tune part): `no attribute 'module'` is the DataParallel cause of the missing
    attribute row; `filter(lambda p: p.requires_grad, …)` at the empty parameter list's frozen
    parameters. The answer says so before the list and points at it; --json gives its place."""
    import real_pastes

    monkeypatch.setenv("COLUMNS", "200")
    pastes = real_pastes.texts_by_source()
    module = pastes["https://github.com/izmailovpavel/flowgmm/issues/8"]
    status, out, _ = run([], module.encode())
    assert status == 0
    remark = out.index("⚠️ 报错里有 no attribute 'module'：多半是下面「也可能是」里的第 1 种")
    assert remark < out.index("同样这句报错，也可能是：") < out.index("➜1. 缺的是 `module`")
    assert json.loads(run(["--json"], module.encode())[1])["results"][0]["other_causes_shown"] == [0]
    status, out, _ = run(["--explain", "missing-attribute"])  # how to tell it, as 附录A says beside it
    assert status == 0 and "（报错里有 `no attribute 'module'` 时，多半是这一种）" in out
    frozen = pastes["https://github.com/lxztju/pytorch_classification/issues/13"]
    status, out, _ = run([], frozen.encode())
    assert "报错里有 p.requires_grad：多半是下面「也可能是」里的第 1 种" in out
    # Numbered as the page numbers them, the one shown pointed at.
    assert out.count("➜") == 1 and "➜1. 参数全被冻结了" in out and " 2. 传进去的是一个已经被读空的生成器" in out
    # The row's text alone shows none of them: no remark, every bullet plain.
    status, out, _ = run([], b"AttributeError: 'Net' object has no attribute 'encoder'")
    assert status == 0 and "报错里有" not in out and "➜" not in out


def test_why_a_row_is_only_suggested_is_said_of_suggestions_only(monkeypatch):
    """The page's own example pasted with frames that pass no collate: on the page word for word
    (`literal`), so no reason it is only suggested, neither in the text nor in --json."""
    monkeypatch.setenv("COLUMNS", "200")
    pasted = ('Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    batch = torch.stack(rows)\n'
              "RuntimeError: stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at entry 1")
    status, out, _ = run([], pasted.encode())
    assert status == 0 and "没有经过" not in out
    answer = json.loads(run(["--json"], pasted.encode())[1])
    assert answer["verdict"] == "literal" and answer["results"][0]["why"] is None


def test_words_another_call_prints_too_put_the_row_first_and_say_its_call_is_not_shown():
    """torch 1.4's collate printed the words `torch.cat` prints: the row is the first suggestion,
    saying the paste shows none of its calls; with `default_collate` in it, the row is said."""
    line = ("RuntimeError: invalid argument 0: Sizes of tensors must match except in dimension 0. "
            "Got 3 and 4 in dimension 1 at /pytorch/aten/src/TH/generic/THTensor.cpp:612")
    status, out, _ = run(["--json", line])
    answer = json.loads(out)
    assert status == 1 and answer["verdict"] == "weak"
    assert answer["results"][0]["id"] == "stack-unequal-size"
    assert "default_collate" in answer["results"][0]["why"]
    assert all(result["why"] is None for result in answer["results"][1:])
    frame = '  File "/usr/lib/python3/site-packages/torch/utils/data/_utils/collate.py", line 55, in default_collate\n'
    status, out, _ = run(["--json"], ("Traceback (most recent call last):\n" + frame + line + "\n").encode())
    assert status == 0 and json.loads(out)["results"][0]["id"] == "stack-unequal-size"


def test_explain_an_unknown_id_suggests_close_ones():
    status, out, err = run(["--explain", "matmul-shape"])
    assert status == 2 and out == "" and "matmul-shapes" in err


def test_explain_with_an_empty_id_is_bad_usage_not_a_lookup_of_stdin():
    status, out, err = run(["--explain", ""], MATMUL.encode())
    assert status == 2 and out == "" and "no entry or section" in err


def test_explain_takes_no_input_file(tmp_path):
    status, _, err = run(["--explain", "matmul-shapes", str(tmp_path / "error.txt")])
    assert status == 2 and "--explain" in err


def test_version_names_the_installed_release(capsys):
    from importlib import metadata
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"pytorch-error-lookup {metadata.version('pytorch-error-lookup')}"


def test_links_are_hyperlinks_on_a_terminal_only_and_no_color_is_honoured(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = Tty()
    cli.main(["--site", "https://example.org/book"], stdin=_Stdin(MATMUL.encode()), stdout=out, stderr=io.StringIO())
    link = "https://example.org/book/pytorch/appendix-a.html#matmul-shapes"
    assert f"\x1b]8;;{link}\x1b\\" in out.getvalue() and "\x1b[" in out.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Tty()
    cli.main(["--site", "https://example.org/book"], stdin=_Stdin(MATMUL.encode()), stdout=plain, stderr=io.StringIO())
    assert "\x1b[" not in plain.getvalue() and f"\x1b]8;;{link}" in plain.getvalue()


def test_the_published_address_comes_from_mkdocs_yml(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nsite_url: https://example.org/book/\nfoo: !ENV [HOME]\n", encoding="utf-8")
    assert published_address(config) == "https://example.org/book/"
    config.write_text("site_name: x\n", encoding="utf-8")
    assert published_address(config) is None
    assert cli.site_base(None, {}, published="https://example.org/book/") == "https://example.org/book/"
    assert cli.site_base("https://mine.example/", {}, published="https://example.org/book/") == "https://mine.example/"


def test_a_whole_traceback_from_a_file(tmp_path):
    traceback = next(case["text"] for case in CASES if case["kind"] == "covered" and case.get("how") == "traceback"
                     and case["entry"] == "stack-unequal-size")
    path = tmp_path / "error.txt"
    path.write_text(traceback, encoding="utf-8")
    status, out, _ = run(["--json", str(path)])
    assert status == 0 and json.loads(out)["results"][0]["id"] == "stack-unequal-size"


@pytest.mark.parametrize("argv, stdin, says", [
    ([], b"", "empty"),
    ([], b"   \n\n", "empty"),
    ([], b"\x00\x01binary\x00", "binary"),
    ([], b"x" * (65 << 20), "MiB"),
    (["/nonexistent/error.txt"], b"", "no such file"),
    (["--site", "/nonexistent/site"], MATMUL.encode(), "not a built site"),
    (["--no-such-option"], MATMUL.encode(), "unrecognized"),
    (["--torch", "banana"], MATMUL.encode(), "not a torch release"),
])
def test_bad_usage_exits_2_with_one_clear_line(argv, stdin, says):
    status, out, err = run(argv, stdin)
    assert status == 2 and out == ""
    assert says in err and "Traceback" not in err


def test_the_error_itself_may_be_the_argument(tmp_path):
    """`pytorch-error-lookup "RuntimeError: …"`: an argument naming no file, with a space in it,
    is the error; a file whose name has a space is still read as a file."""
    assert run([MATMUL]) == run([], MATMUL.encode())
    named = tmp_path / "my error.txt"
    named.write_text("ValueError: optimizer got an empty parameter list", encoding="utf-8")
    status, out, _ = run(["--json", str(named)])
    assert status == 0 and json.loads(out)["results"][0]["id"] == "empty-parameter-list"


def test_a_folder_given_as_file_is_bad_usage(tmp_path):
    status, _, err = run([str(tmp_path)])
    assert status == 2 and "folder" in err and len(err.strip().splitlines()) == 1


def test_colour_only_on_a_terminal_without_no_color():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    assert cli.wants_colour(Tty(), {"TERM": "xterm"})
    assert not cli.wants_colour(Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not cli.wants_colour(io.StringIO(), {"TERM": "xterm"})


def test_chinese_wraps_by_display_width_not_characters():
    text = "⚠️ 十有八九是数据是 `float64`、模型是 `float32`。源头常在 DataLoader：`__getitem__` 返回了 python float"
    lines = wrap(text, 30, "   ")
    assert len(lines) > 2
    assert all(display_width(line) <= 30 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.strip().startswith(("，", "。", "、")) for line in lines)


def test_short_inline_code_is_never_cut_across_lines_and_long_code_still_fits():
    """`pretraining_tp > 1` cut after `>` reads as a shell redirect; a span too long for a line
    breaks at its spaces rather than run past the edge."""
    text = "是别的代码动了打包的权重：Llama 的 `pretraining_tp > 1` 把它切片（把 config 的 `pretraining_tp` 设成 1）"
    for width in range(21, 61):  # from narrower than the span (20 columns): it breaks at its space
        lines = wrap(text, width, "     ")
        assert all(display_width(line) <= width for line in lines), (width, lines)
        if width - 5 >= 20:
            assert any("`pretraining_tp > 1`" in line for line in lines), (width, lines)
    long_code = "读取 `" + " ".join(["torch.load(path, map_location='cpu')"] * 3) + "` 之后"
    assert all(display_width(line) <= 40 for line in wrap(long_code, 40))


def test_an_error_given_as_an_argument_without_spaces_is_looked_up_not_opened():
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["KeyError:'label'"], stdout=out, stderr=err)
    assert status == cli.EXIT_NOT_EXPLAINED and "no such file" not in err.getvalue()
    assert cli.main(["no_such_file.txt"], stdout=io.StringIO(), stderr=err) == cli.EXIT_USAGE
    assert "no such file: no_such_file.txt" in err.getvalue()
    # A file named after an exception is still a file: the error's line has its colon.
    assert cli.main(["RuntimeError-log.txt"], stdout=io.StringIO(), stderr=err) == cli.EXIT_USAGE
    assert "no such file: RuntimeError-log.txt" in err.getvalue()
    # A path is a file's name too; so it says how to look its text up instead.
    assert cli.main(["logs/run1"], stdout=io.StringIO(), stderr=err) == cli.EXIT_USAGE
    assert "no such file: logs/run1 (to look the text up, pipe it in" in err.getvalue()


def test_a_symptom_in_chinese_given_as_the_argument_is_looked_up_not_opened():
    """No space, no exception name, no file by that name: Chinese words are the reader's query,
    answered as the same words piped in are."""
    assert run(["验证集精度比训练差"]) == run([], "验证集精度比训练差".encode())
    assert run(["验证集精度比训练差"])[0] == cli.EXIT_EXPLAINED
    long_words = "最近用PyTorch训练模型验证集精度比训练差很多" * 40  # too long a name for any file
    assert run([long_words]) == run([], long_words.encode())
    assert run(["慢"])[0] != cli.EXIT_USAGE  # one Chinese character is a word
    assert "no such file" not in run(["model.eval"])[2]  # a call's name, not a file's


@pytest.mark.parametrize("argv, stdin, says", [
    ([""], b"", "the argument is empty"),
    (["   "], b"", "the argument is empty"),
    (["a"], b"", "the argument holds no word"),
    ([], b".\n", "standard input holds no word"),
    ([], b"0", "standard input holds no word"),
])
def test_nothing_to_look_up_is_bad_usage_said_in_one_line(argv, stdin, says):
    """A letter or a number is found all over the page and explained nowhere: no answer to give."""
    status, out, err = run(argv, stdin)
    assert (status, out) == (cli.EXIT_USAGE, "") and says in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_a_utf16_file_as_powershell_writes_it_is_read(tmp_path, encoding):
    saved = tmp_path / "error.txt"
    saved.write_bytes("RuntimeError: grad can be implicitly created only for scalar outputs\r\n".encode(encoding))
    status, out, _ = run(["--json", str(saved)])
    assert status == 0 and json.loads(out)["results"][0]["id"] == "grad-scalar-only"


def test_an_answer_that_cannot_be_written_is_said_in_one_line_without_a_traceback():
    for redirect in (">&-", "> /dev/full"):
        done = subprocess.run(f"{sys.executable} -m pytorch_error_lookup 'RuntimeError: a thing' {redirect}", shell=True,
                              capture_output=True, text=True, cwd=ROOT / "hooks", env={"PATH": "/usr/bin:/bin"})
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, (redirect, done.stderr)
        assert done.returncode in (cli.EXIT_NOT_EXPLAINED, cli.EXIT_USAGE)
    assert "cannot write the answer: No space left on device" in done.stderr


def test_the_bare_command_on_a_terminal_says_what_it_waits_for(monkeypatch):
    class Typed(io.TextIOWrapper):
        def isatty(self):
            return True

    monkeypatch.delenv("TERM", raising=False)
    err = io.StringIO()
    text = cli.read_input(None, Typed(io.BytesIO(b"RuntimeError: x\n")), err)
    assert text == "RuntimeError: x\n" and "Ctrl-D" in err.getvalue()


def test_an_emoji_takes_two_columns_and_a_list_of_names_breaks_between_them():
    assert display_width("⚠️ x") == 4  # U+26A0 with the emoji selector: two columns on a terminal
    lines = wrap("⚠️ 你贴的内容里没有 torch.load、serialization.py、checkpoint、.pth、.pt、.ckpt 里的任何一个", 40, "   ")
    assert all(display_width(line) <= 40 for line in lines)
    assert display_width(lines[0]) > 32  # not cut short before an unbreakable run of names


def test_the_module_runs_as_python_dash_m_in_a_narrow_terminal():
    done = subprocess.run([sys.executable, "-m", "pytorch_error_lookup"], input=MATMUL, text=True,
                          capture_output=True, cwd=ROOT / "hooks", env={"COLUMNS": "40", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # Only what must stay whole to be copied runs past the width: an address, the command.
    command = "pytorch-error-lookup --explain matmul-shapes"
    assert all(display_width(line) <= 40 or "://" in line or "/" in line or line.strip() == command for line in lines)
    assert command in [line.strip() for line in lines]


@pytest.mark.parametrize("release, says", [
    ("2.13.0", "torch 2.13.0 上实跑：逐字一致"),
    ("2.13", "torch 2.13.0 上实跑：逐字一致"),
    ("2.6.0+cu124", "torch 2.6.0 上实跑：换了措辞，那里打印的是 RuntimeError: expected scalar type Long but found Float"),
    ("1.0.1", "torch 1.0.1 上实跑：换了措辞，那里打印的是 RuntimeError: Expected object of scalar type Long"),
    ("0.4.1", "torch 0.4.1 没有实跑过；最近的：1.0.1 换了措辞"),  # older than the matrix
    ("2.16.0", "torch 2.16.0 没有实跑过；最近的：2.15.0 逐字一致"),  # newer
])
def test_the_release_remark_says_whether_the_row_was_seen_on_that_torch(release, says, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # one remark, one line
    status, out, _ = run(["--torch", release], b"RuntimeError: expected target dtype to be Long or Byte, but got Float")
    assert status == 0 and says in out


def test_without_a_torch_the_command_makes_no_release_remark(monkeypatch):
    monkeypatch.setattr(cli, "installed_torch", lambda: None)
    _, out, _ = run([], MATMUL.encode())
    assert "实跑" not in out


def test_text_that_is_not_utf8_is_read_with_its_english_intact():
    gbk = "训练失败：".encode("gbk") + MATMUL.encode()
    status, out, _ = run(["--json"], gbk)
    assert status == 0 and json.loads(out)["results"][0]["id"] == "matmul-shapes"


def test_a_traceback_that_never_passes_through_the_rows_context_is_warned_about(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    traceback = ('Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n'
                 "    import transformers\nModuleNotFoundError: No module named 'transformers'\n")
    _, out, _ = run([], traceback.encode())
    assert "没有经过 torch.load" in out
    from_load = traceback.replace("import transformers", "model = torch.load('ckpt.pt', weights_only=False)")
    _, out, _ = run([], from_load.encode())
    assert "没有经过" not in out


def test_piping_into_head_ends_quietly():
    done = subprocess.run(f"{sys.executable} -m pytorch_error_lookup --json | head -1", shell=True, input=MATMUL,
                          text=True, capture_output=True, cwd=ROOT / "hooks")
    assert done.stdout == "{\n" and done.stderr == ""


def test_a_terminal_that_reports_no_width_gets_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "0")
    monkeypatch.setattr(cli.os, "get_terminal_size", lambda fd: os.terminal_size((0, 0)))
    assert cli.terminal_width() == 80
    monkeypatch.setenv("COLUMNS", "120")
    assert cli.terminal_width() == 120


def test_explain_takes_an_entrys_address_too():
    status, out, _ = run(["--explain", "https://example.org/book/pytorch/appendix-a.html#matmul-shapes"])
    assert status == 0 and "mat1 and mat2 shapes cannot be multiplied" in out


def test_a_ranked_answer_needs_neither_lunr_nor_argparse():
    # The command's own start (issue "One small lookup package"): a call with no options builds
    # no argument parser, and ranking an error the page does not cover reads the compacted index
    # itself (pytorch_error_lookup.rank) instead of importing lunr.
    script = ("import sys; from pytorch_error_lookup.cli import main; status = main([]); "
              "print(status, 'lunr' in sys.modules, 'argparse' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], input="RuntimeError: CUDA error: an illegal memory access "
                          "was encountered", text=True, capture_output=True, cwd=ROOT / "hooks")
    assert done.stderr.split()[-3:] == ["1", "False", "False"], done.stderr
    assert "附录A 没有收录" in done.stdout and "1. " in done.stdout  # suggestions were ranked


def test_the_texts_come_folded_as_the_lookup_folds_them():
    from pytorch_error_lookup.lookup import Lookup
    from pytorch_error_lookup.rule import fold

    for page in Lookup.installed().pages:
        assert page.texts and all(folded == fold(text) for _, text, _, folded in page.texts)


def test_a_checkouts_cache_keeps_the_newest_builds_only(tmp_path):
    """From a source checkout, each change to data/ builds the lookup's data anew into the user's
    cache: the newest few stay (other checkouts share the folder), not one file per edit."""
    from pytorch_error_lookup import lookup

    for age in range(12):
        built = tmp_path / f"lookup-data-{age:016x}.json"
        built.write_text("{}", encoding="utf-8")
        os.utime(built, (1_000_000 - age, 1_000_000 - age))
    (tmp_path / "notes.txt").write_text("not ours", encoding="utf-8")
    lookup._forget_old_builds(tmp_path)
    assert sorted(path.name for path in tmp_path.glob("lookup-data-*.json")) == [
        f"lookup-data-{age:016x}.json" for age in range(lookup.KEPT_BUILDS)]
    assert (tmp_path / "notes.txt").exists()
