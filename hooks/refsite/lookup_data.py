"""What the terminal and notebook lookup carries: each reference page's rows, searchable text,
templates and ranked index, produced from data/ by the same pipeline as the site.

    python -m refsite.lookup_data OUT.json|OUT.py [--data DIR]

`pip install .` writes it into the installed `pytorch_error_lookup` package as a module
(`packaged_data.py`, setup.py), so the installed command needs neither data/ nor MkDocs. The
searchable text is read back from the page as rendered ([data-find-text] elements, each with the
row that holds it), so the command's literal search sees exactly what the page's box searches.
"""

from __future__ import annotations

import argparse
import json
from html.parser import HTMLParser
from pathlib import Path

import yaml

from .find_index import build_index, compact_index, documents_for
from .find_rules import left_out_heads, templates_for
from pytorch_error_lookup.inline import parse_inline
from pytorch_error_lookup.rule import fold
from .model import SEEN_LABELS, ReleaseRuns
from .pipeline import load_site
from .render import Renderer
from .sitemap import book_index_uri, site_pages

FORMAT = 2  # 2: texts carry their folded form; the index is compacted (no lunr to read it)


class _FindTexts(HTMLParser):
    """The text of every [data-find-text] element: [id of the [data-entry] around it, text,
    whether it is a row's verbatim error text ([data-fragment])]."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[list] = []
        self._open: list[tuple[str, str | None, bool]] = []  # (tag, entry id, collects text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        entry = attributes.get("id") if "data-entry" in attributes else (self._open[-1][1] if self._open else None)
        collecting = "data-find-text" in attributes
        if tag in ("br", "img", "input", "wbr", "hr", "meta", "link"):
            return
        if collecting and not any(open_[2] for open_ in self._open):
            self.texts.append([entry, "", "data-fragment" in attributes])
        self._open.append((tag, entry, collecting or bool(self._open and self._open[-1][2])))

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self._open and self._open[-1][2]:
            self.texts[-1][1] += data


def _plain(markdown: str) -> str:
    def text(spans) -> str:
        return "".join(span.text if span.kind in ("text", "code") else text(span.children) for span in spans)
    return text(parse_inline(markdown))


def _last_line(text: str | None, limit: int = 160) -> str | None:
    line = (text or "").strip().splitlines()[-1:] or [""]
    return line[0][:limit] or None


def _page_data(site_page, renderer: Renderer) -> dict:
    page, book = site_page.reference, site_page.book
    rendered = renderer.render(site_page, lambda target, anchor=None: f"#{anchor or ''}")
    parser = _FindTexts()
    parser.feed(rendered.html)
    entries = []
    for section in page.sections:
        for entry in section.entries:
            if section.kind == "errors":
                fragment, cause = entry.fragment, entry.cause
            elif section.kind == "symptoms":
                fragment, cause = entry.symptom, entry.truth
            else:
                fragment, cause = entry.category, entry.reason
            entries.append({
                "id": entry.id,
                "kind": section.kind,
                "section": section.title,
                "fragment": fragment if section.kind == "errors" else _plain(fragment),
                "second_line": getattr(entry, "second_line", None),
                "context": _plain(entry.context) if getattr(entry, "context", None) else None,
                # The code the context names (`torch.load`): a traceback that never passes
                # through it is not this row's situation.
                "context_code": list(getattr(entry, "context_code", ())),
                # The calls its mistake is made through: a paste showing one is this row's even
                # in words another situation prints too.
                "called_through": list(getattr(entry, "called_through", ())),
                # What shows another cause (`Half`): a paste showing it is not this row's.
                "unless_shown": list(getattr(entry, "unless_shown", ())),
                # What a paste must show to be this row's (`torch.load`): its message alone is not.
                "only_if_shown": list(getattr(entry, "only_if_shown", ())),
                "cause": cause,  # inline Markdown: the terminal shows code spans as `code`
                # Other mistakes that print the same words, each with the thread that traced it.
                "other_causes": [{"cause": other.cause, "source": other.source,
                                  **({"shown_by": list(other.shown_by)} if other.shown_by else {})}
                                 for other in getattr(entry, "other_causes", ())],
                "chapters": [{"id": chapter, "title": book.chapter(chapter).title}
                             for chapter in getattr(entry, "chapters", ())],
                # How the row's text came out on each torch release run (the release matrix).
                "releases": [{"release": run.torch_release, "seen": run.shown_as,
                              "excerpt": _last_line(run.excerpt) if run.differs else None}
                             for run in getattr(entry, "releases", ReleaseRuns()).runs],
                # The same runs as the page's release line groups them (ReleaseRuns.spans).
                "release_spans": [{"seen": span.kind, "first": span.first, "last": span.last}
                                  for span in getattr(entry, "releases", ReleaseRuns()).spans],
            })
    return {
        "key": page.key,
        "title": page.title,
        "url": site_page.src_uri.removesuffix(".md") + ".html",
        "entries": entries,
        # Where to look when the page does not cover an error, as the page's box says.
        "not_covered": [{"id": section.id, "title": section.title, "intro": section.intro}
                        for section in page.sections if section.kind == "not-covered"],
        "chapter_map": book_index_uri(book).removesuffix(".md") + ".html#chapters",
        # Each with its folded form (rule.fold), so that the command does not fold the page's
        # text again on every call: [entry, text, is a fragment, folded].
        "texts": [[owner, text, fragment, fold(text)] for owner, text, fragment in parser.texts],
        "templates": [template.as_json() for template in templates_for(page)],
        "left_out_heads": left_out_heads(page),  # as the page's rules carry them
        "index": compact_index(build_index(documents_for(page))),  # as find-rank.js reads it
    }


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml as plain data: a tag MkDocs resolves (`!ENV`, `!!python/name:`) reads as None."""


_ConfigLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def published_address(config: Path) -> str | None:
    """The `site_url` of mkdocs.yml, where the site is published (None if it says none)."""
    if not config.is_file():
        return None
    site_url = (yaml.load(config.read_text(encoding="utf-8"), Loader=_ConfigLoader) or {}).get("site_url")
    return site_url if isinstance(site_url, str) and site_url.strip() else None


def lookup_data(data_dir: Path, config: Path | None = None) -> dict:
    """`config`: the mkdocs.yml beside data/ unless given, for the site's published address."""
    site = load_site(data_dir)
    renderer = Renderer(site)
    pages = [_page_data(page, renderer) for page in site_pages(site) if page.kind == "reference"]
    data = {"format": FORMAT, "seen_labels": SEEN_LABELS, "pages": pages}
    site_url = published_address(config or data_dir.parent / "mkdocs.yml")
    if site_url:
        data["site_url"] = site_url
    return data


def write_lookup_data(data_dir: Path, target: Path) -> Path:
    """JSON, or for a `.py` target the module the installed package imports (`DATA = {…}`): pip
    compiles it, and its .pyc loads in a third of the time json takes to parse the same data
    (json's own import included), which the command pays on every call."""
    text = json.dumps(lookup_data(data_dir), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix == ".py":
        # repr() of what JSON reads back (dicts, lists, str, int, float, bool, None: no tuple,
        # no NaN) is a Python literal with the same value.
        text = f'"""Written by setup.py from data/ (refsite.lookup_data); never edited by hand."""\n\nDATA = {json.loads(text)!r}\n'
    target.write_text(text, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m refsite.lookup_data", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "data")
    arguments = parser.parse_args(argv)
    print(write_lookup_data(arguments.data, arguments.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
