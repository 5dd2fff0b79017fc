"""`%load_ext pytorch_error_lookup` in a real IPython shell (a subprocess, as a reader runs it):
the note comes after the whole traceback for an error the page explains, nothing for one it
does not, and `%unload_ext` puts back what was there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("IPython", reason="the notebook extension needs IPython (pip install '.[notebook]')")

from pytorch_error_lookup.lookup import Lookup  # noqa: E402
from pytorch_error_lookup.notebook import Note  # noqa: E402

HOOKS = Path(__file__).resolve().parents[1] / "hooks"
MATMUL = "import torch\ntorch.nn.Linear(32, 4)(torch.randn(8, 16))"  # a real traceback: torch tests only
# The same message raised without torch, for what does not depend on torch's frames.
MATMUL_RAISED = "raise RuntimeError('mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)')"


def ipython(*cells: str) -> str:
    """What a terminal IPython session prints for these cells, one after another."""
    script = "\n".join(cells) + "\nexit\n"
    environment = {**os.environ, "PYTHONPATH": str(HOOKS), "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "IPython", "--simple-prompt", "--colors=NoColor", "--no-banner",
                           "--HistoryManager.enabled=False"], input=script, text=True, capture_output=True,
                          env=environment, timeout=300)
    return done.stdout + done.stderr


@pytest.mark.torch
def test_a_covered_error_gets_the_note_after_its_whole_traceback():
    out = ipython("%load_ext pytorch_error_lookup", MATMUL)
    traceback_end = out.index("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)")
    assert "Traceback (most recent call last)" in out[:traceback_end]
    assert "F.linear(input, self.weight, self.bias)" in out[:traceback_end]  # the frames, unchanged
    note = out.index("附录A · 报错反查表")
    assert note > traceback_end
    assert "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)" in out[note:]
    assert "01 张量" in out[note:] and "全文：%run -m pytorch_error_lookup -- --explain matmul-shapes" in out[note:]  # no site known, as a cell runs it
    import torch

    assert f"torch {torch.__version__.split('+')[0]} 上实跑：逐字一致" in out[note:]  # the reader's own torch


@pytest.mark.torch
def test_an_unrelated_error_gets_no_note():
    out = ipython("%load_ext pytorch_error_lookup", "{}['label']", "import torch\ntorch.randn(3)[7]",
                  "{}[0]", "x = [1]\nassert len(x) == 2", "raise ValueError('nan')", "import not_installed_package")
    assert "KeyError: 'label'" in out and "IndexError: index 7 is out of bounds" in out
    assert "KeyError: 0" in out and "AssertionError" in out and "ValueError: nan" in out
    assert "No module named 'not_installed_package'" in out  # an import, not the torch.load row's case
    assert "附录A" not in out


def test_the_notes_command_runs_in_the_kernels_own_python_with_no_command_on_path(tmp_path):
    """The note's `%run -m …` shows the entry whole from the package the kernel imports, with
    a PATH that holds no `pytorch-error-lookup` (a kernel whose environment is not activated)."""
    answer = Lookup.installed()("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)")
    command = Note(answer, None).explain
    environment = {**os.environ, "PYTHONPATH": str(HOOKS), "COLUMNS": "120", "PATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "IPython", "--simple-prompt", "--colors=NoColor", "--no-banner",
                           "--HistoryManager.enabled=False"], input=f"{command}\nexit\n", text=True,
                          capture_output=True, env=environment, timeout=300)
    out = done.stdout + done.stderr
    assert "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)" in out and "去哪读：" in out
    assert "Error" not in out and "Traceback" not in out


def test_unload_puts_back_the_handler_that_was_there():
    out = ipython(
        "def mine(shell, etype, value, tb, tb_offset=None): print('MINE', etype.__name__)",
        "get_ipython().set_custom_exc((ZeroDivisionError,), mine)",
        "%load_ext pytorch_error_lookup",
        "%unload_ext pytorch_error_lookup",
        "1/0",
        MATMUL_RAISED,
        "print('handler', get_ipython().custom_exceptions)",
    )
    assert "MINE ZeroDivisionError" in out
    assert "附录A" not in out
    assert "handler (<class 'ZeroDivisionError'>,)" in out


def test_a_failure_inside_the_note_never_hides_the_error():
    out = ipython(
        "%load_ext pytorch_error_lookup",
        "import pytorch_error_lookup.notebook as notebook\n"
        "def broken(*args): raise RuntimeError('lookup broke')\n"
        "notebook.note_for = broken",
        MATMUL_RAISED,
    )
    assert "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)" in out
    assert "pytorch_error_lookup: no note (RuntimeError: lookup broke)" in out


def test_in_jupyter_the_note_is_html_with_a_clickable_link(monkeypatch):
    monkeypatch.setenv("PYTORCH_ERROR_LOOKUP_SITE", "https://example.org/book/")
    answer = Lookup.installed()("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4)")
    html = Note(answer, "https://example.org/book/")._repr_html_()
    assert '<a href="https://example.org/book/pytorch/appendix-a.html#matmul-shapes"' in html
    assert "<code>mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)</code>" in html
    assert "<code>4 != 5</code>" in html and "<script" not in html
    unpublished = Note(answer, None)._repr_html_()
    # No site: no link but each other cause's own thread.
    assert "<code>%run -m pytorch_error_lookup -- --explain matmul-shapes</code>" in unpublished
    threads = {other["source"] for other in answer.page.entry_by_id["matmul-shapes"]["other_causes"]}
    assert set(re.findall(r'href="([^"]*)"', unpublished)) == threads


def test_the_note_says_the_rows_other_causes_the_html_with_their_threads():
    answer = Lookup.installed()("RuntimeError: Boolean value of Tensor with more than one value is ambiguous")
    note = Note(answer, None)
    text = note.text()
    assert text.index("`.any()`") < text.index("同样这句报错，也可能是：") < text.index(" 1. 把张量传给了类的构造函数")
    html = note._repr_html_()
    assert "<code>nn.CrossEntropyLoss(out, y)</code>" in html
    assert '<a href="https://github.com/nikhilroxtomar/DDANet/issues/1" target="_blank">出处</a>' in html


def test_a_row_that_reads_on_from_the_row_above_names_it_in_the_note():
    answer = Lookup.installed()("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.")
    note = Note(answer, None)
    assert answer.ids[:1] == ("leaf-view-inplace",)
    assert "：⭐ 直接改参数" in note.text().replace("\n", "").replace("   ", "")
    assert "上一条是「a leaf Variable that requires grad is being used in an in-place operation.」：⭐ 直接改参数/叶子张量（<code>w += 1</code>" in note._repr_html_()


def test_an_older_releases_wording_is_named_as_the_raised_error_not_a_paste():
    """The reader raised it in a cell, they did not paste it."""
    old = "RuntimeError: size mismatch, m1: [8 x 16], m2: [32 x 4] at /pytorch/aten/src/TH/generic/THTensorMath.cpp:940"
    headline = Note(Lookup.installed()(old), None).headline()
    assert "这个报错是 torch 1." in headline and "一种说法" in headline and "你贴的" not in headline


def test_the_text_note_wraps_to_the_terminal_as_the_command_does_and_keeps_its_command_whole(monkeypatch):
    from pytorch_error_lookup.terminal import display_width

    monkeypatch.setenv("COLUMNS", "40")
    lines = Note(Lookup.installed()("RuntimeError: Boolean value of Tensor with more than one value is ambiguous"),
                 None).text().splitlines()
    command = "%run -m pytorch_error_lookup -- --explain bool-ambiguous"
    # On a line of its own, uncut, and without the indent, which would only make it wider still.
    assert [line for line in lines if display_width(line) > 40] == [command]
    assert any(line.startswith("    1. 把张量传给了类的构造函数") for line in lines)  # its other cause, wrapped too
    monkeypatch.setenv("COLUMNS", "60")  # the command fits without its indent: then no line is wider
    lines = Note(Lookup.installed()("RuntimeError: grad can be implicitly created only for scalar outputs"),
                 None).text().splitlines()
    assert "%run -m pytorch_error_lookup -- --explain grad-scalar-only" in lines
    assert [line for line in lines if display_width(line) > 60] == []
    monkeypatch.setenv("COLUMNS", "200")
    assert "   全文：" + command in Note(Lookup.installed()("RuntimeError: Boolean value of Tensor with more than one "
                                                        "value is ambiguous"), None).text().splitlines()


def test_the_note_points_at_the_other_cause_the_traceback_shows():
    """A real paste (tune part) standing for the traceback: `no attribute 'module'` is the
    missing attribute row's DataParallel cause. Text and HTML say so and point at it."""
    import real_pastes

    traceback_text = real_pastes.texts_by_source()["https://github.com/izmailovpavel/flowgmm/issues/8"]
    note = Note(Lookup.installed()(traceback_text), None, None, traceback_text)
    text = note.text(200)
    assert text.index("⚠️ 报错里有 no attribute 'module'：多半是下面「也可能是」里的第 1 种") < text.index("➜1. 缺的是 `module`")
    html = note._repr_html_()
    assert "多半是下面「也可能是」里的第 1 种" in html and "<ol" in html and "<li>➜ 缺的是 <code>module</code>" in html
    plain = Note(Lookup.installed()(traceback_text), None)  # no traceback text known: nothing pointed at
    assert "➜" not in plain.text(200) and "➜" not in plain._repr_html_()
