"""`%load_ext pytorch_error_lookup`: after an uncaught exception that 附录A explains, a short
note under the traceback (HTML with a link in Jupyter, text in terminal IPython).

The traceback is printed first, whole and unchanged, by IPython's own `showtraceback`; the note
follows only for a `literal` or `match` verdict. Anything failing inside the note is reported in
one line and never hides the user's error. `%unload_ext` puts back the handler that was there.
"""

from __future__ import annotations

import html
import os
import sys
import traceback

from .inline import parse_inline

from .cli import INDENT, SITE_VARIABLE, cause_lines, entry_url, other_cause_lines, terminal_width, where_to_read
from .lookup import (OTHER_CAUSES_LABEL, Lookup, how_it_fits, off_context, release_remark, remark_on, row_above_note,
                     shown_other_causes)
from .rule import LITERAL, MATCH
from .terminal import Painter, wrap

_saved = {}  # id(shell) -> (custom_exceptions, CustomTB) before loading


class Note:
    """What 附录A says about the error; IPython's display picks HTML or text."""

    def __init__(self, answer, base: str | None, release_said: str | None = None, traceback_text: str = ""):
        self.answer = answer
        self.entry = answer.entries[0]
        self.traceback_text = traceback_text  # what the error printed: it may show an other cause
        # With no site known, the command that shows the entry whole, as a cell runs it: with
        # the kernel's own Python (`%run -m`), not whichever `pytorch-error-lookup` is first on
        # PATH, which a kernel whose environment is not activated does not have.
        self.base = base
        self.url = entry_url(base, answer.page.url, self.entry["id"]) if base else None
        self.explain = f"%run -m pytorch_error_lookup -- --explain {self.entry['id']}"
        self.release_said = release_said  # was the row's text seen on the reader's torch

    def _chapters(self) -> str:
        return " · ".join(f"{chapter['id']} {chapter['title']}" for chapter in self.entry["chapters"])

    def headline(self) -> str:
        how = "原文就在" if self.answer.verdict == LITERAL else how_it_fits(self.answer.fit, raised=True)
        return f"📖 附录A · 报错反查表：{how}"

    def text(self, width: int | None = None) -> str:
        """The note in plain text, wrapped as the command wraps its answer (to `width`, by
        default the terminal's: COLUMNS, the terminal, else 80)."""
        width = width or terminal_width()
        paint = Painter(colour=False)
        lines = wrap(self.headline(), width) + wrap(self.entry["fragment"], width, INDENT)
        if self.entry.get("context"):
            lines += wrap(f"（{self.entry['context']}）", width, INDENT)
        lines += cause_lines(self.answer.page, self.entry, paint, width, INDENT)
        lines += other_cause_lines(self.entry, paint, width, INDENT, text=self.traceback_text)
        if self._chapters():
            lines += wrap(f"去哪：{self._chapters()}", width, INDENT)
        if self.release_said:
            lines += wrap(self.release_said, width, INDENT)
        lines += where_to_read(self.base, self.answer.page.url, self.entry["id"], paint, width, INDENT,
                               command=self.explain)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        escape = html.escape
        chapters = f"<div>去哪：{escape(self._chapters())}</div>" if self._chapters() else ""
        chapters += f"<div>{escape(self.release_said)}</div>" if self.release_said else ""
        return (
            '<div class="pytorch-error-lookup" style="border-left:3px solid #4caf50;padding:4px 10px;margin:4px 0">'
            f"<div><strong>{escape(self.headline())}</strong></div>"
            f"<div><code>{escape(self.entry['fragment'])}</code>"
            f"{escape('（' + self.entry['context'] + '）') if self.entry.get('context') else ''}</div>"
            f"<div>{_inline_html(self.entry['cause'])}{self._row_above_html()}</div>"
            f"{self._other_causes_html()}{chapters}<div>{self._where_html()}</div>"
            "</div>"
        )

    def _row_above_html(self) -> str:
        note = row_above_note(self.answer.page, self.entry)
        return f"<div>{_inline_html(note)}</div>" if note else ""

    def _other_causes_html(self) -> str:
        """The row's other causes, numbered as the page numbers them, each with a link to the
        thread that traced it; those the traceback shows pointed at (➜)."""
        others = self.entry.get("other_causes")
        if not others:
            return ""
        shown = shown_other_causes(self.entry, self.traceback_text)
        places = {place for place, _ in shown}
        items = "".join(f'<li>{"➜ " if place in places else ""}{_inline_html(other["cause"])} '
                        f'<a href="{html.escape(other["source"], quote=True)}" target="_blank">出处</a></li>'
                        for place, other in enumerate(others))
        remark = remark_on(shown)
        said = f"<div>⚠️ {html.escape(remark)}</div>" if remark else ""
        return f'{said}<div>{html.escape(OTHER_CAUSES_LABEL)}<ol style="margin:2px 0">{items}</ol></div>'

    def _where_html(self) -> str:
        if self.url:
            return f'<a href="{html.escape(self.url, quote=True)}" target="_blank">{html.escape(self.url)}</a>'
        return f"全文：<code>{html.escape(self.explain)}</code>"


def _inline_html(markdown: str) -> str:
    """The cause's inline Markdown as HTML, every piece of text escaped (pytorch_error_lookup.inline's spans)."""
    def spans_html(spans) -> str:
        parts = []
        for span in spans:
            if span.kind == "text":
                parts.append(html.escape(span.text))
            elif span.kind == "code":
                parts.append(f"<code>{html.escape(span.text)}</code>")
            elif span.kind == "strong":
                parts.append(f"<strong>{spans_html(span.children)}</strong>")
            else:
                parts.append(f'<a href="{html.escape(span.href, quote=True)}">{spans_html(span.children)}</a>')
        return "".join(parts)
    return spans_html(parse_inline(markdown))


def note_for(etype, value, tb, lookup: Lookup) -> Note | None:
    """The note for an exception, or None when the page does not explain it."""
    if not str(value).strip():
        return None  # a bare `AssertionError`: no message, nothing a row could explain
    text = "".join(traceback.format_exception(etype, value, tb))
    answer = lookup(text, rank=False)
    if answer.verdict not in (LITERAL, MATCH) or not answer.entries:
        return None
    if off_context(answer.entries[0], text):
        return None  # `No module named 'x'` from an import, not from the `torch.load` the row is about
    torch = sys.modules.get("torch")  # the note runs in the reader's own process
    release = getattr(torch, "__version__", None)
    release_said = release_remark(answer.entries[0], str(release), lookup.seen_labels) if release else None
    return Note(answer, os.environ.get(SITE_VARIABLE) or lookup.site_url, release_said, text)


def _handler(lookup: Lookup):
    def handle(shell, etype, value, tb, tb_offset=None):
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)  # the user's error, whole and first
        try:
            note = note_for(etype, value, tb, lookup)
            if note is not None:
                from IPython.display import display

                display(note)
        except Exception as error:  # noqa: BLE001 - the note must never hide the user's error
            print(f"pytorch_error_lookup: no note ({type(error).__name__}: {error})", file=sys.stderr)
        return None

    return handle


def load_ipython_extension(shell) -> None:
    if id(shell) in _saved:
        return  # loaded already
    _saved[id(shell)] = (shell.custom_exceptions, shell.CustomTB)
    shell.set_custom_exc((Exception,), _handler(Lookup.installed()))


def unload_ipython_extension(shell) -> None:
    saved = _saved.pop(id(shell), None)
    if saved is not None:
        shell.custom_exceptions, shell.CustomTB = saved
