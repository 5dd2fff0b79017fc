"""`python -m refsite.generate`: the site as a folder a static generator builds without MkDocs hooks.

    python -m refsite.generate [--config mkdocs.yml] [--out build/generated]

writes into OUT
- `docs/`: the project's hand-written docs, every page the data generates as Markdown at its
  src_uri (refsite.markdown_page: raw HTML, its contents' headings as Markdown headings), and
  what the hooks add to a build: our scripts and styles from the theme overrides' assets/refsite/,
  `modules-linked.js`, `modules-lazy.js`, `site.css`, each reference page's ranked index and
  rules scripts, minified as the build minifies them;
- `overrides/`: the theme overrides (`custom_dir`), without assets/refsite/ (in docs/, minified);
- `mkdocs.yml`: the project's config without `hooks:` and `watch:`, with docs_dir and custom_dir
  pointed here, extra_css / extra_javascript as linking_hooks rewrites them, and the navigation
  the hooks give (titles from the data) written out as `nav:`.

`mkdocs build -f OUT/mkdocs.yml` then writes the same site as `mkdocs build` with the hooks
(tests/test_generate.py). Both call refsite.site_files; this is only the caller that writes
files. Bad data stops it as it stops the build: every problem as file:line, entry and field,
exit code 1, no traceback.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import yaml
from mkdocs.config import load_config
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import ConfigurationError
from mkdocs.structure.files import File, Files, get_files
from mkdocs.utils import yaml_load

from .find_index import ASSETS
from .load import DataError
from .site_files import GeneratedPages, SiteFilesError, data_dir, finish_assets, own_assets, own_assets_config

DEFAULT_OUT = Path("build/generated")
MARKER = ".refsite-generated"  # only a folder holding it is ever emptied
HEADER = ("# Written by `python -m refsite.generate` from {source}: edit that file, not this one.\n"
          "# MkDocs builds this folder as is, without hooks: `mkdocs build -f {config}`.\n")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m refsite.generate", description=(
        "Write the site's pages (Markdown at their src_uri), its generated scripts and styles and a "
        "MkDocs config without hooks into one folder."))
    parser.add_argument("--config", type=Path, default=Path("mkdocs.yml"),
                        help="the project's MkDocs config (default: mkdocs.yml); data/ lies beside it")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"the folder to write (default: {DEFAULT_OUT})")
    return parser.parse_args(argv)


def _empty(out: Path) -> None:
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).is_file():
            raise SiteFilesError(f"{out} is not empty and was not written by refsite.generate; "
                                 "give another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by python -m refsite.generate; emptied on every run\n", encoding="utf-8")


def _script_entry(script) -> str | dict:
    """An extra_javascript entry as mkdocs.yml spells it."""
    if not isinstance(script, ExtraScriptValue):
        return str(script)
    entry = {"path": script.path}
    if script.type:
        entry["type"] = script.type
    if script.defer:
        entry["defer"] = True
    if script.async_:
        entry["async"] = True
    return entry if len(entry) > 1 else script.path


def generate(config_file: Path, out: Path) -> int:
    """Write the folder; returns how many pages it generated."""
    config_file = config_file.resolve()
    config = load_config(str(config_file), hooks=[])  # the project's config, validated as MkDocs does
    pages = GeneratedPages.load(data_dir(config_file))
    hand_written = [file for file in get_files(config) if file.inclusion.is_included()]
    pages.check_hand_written((file.src_uri for file in hand_written), Path(config.docs_dir).name)

    out = out.resolve()
    _empty(out)
    docs = out / "docs"
    custom_dir = Path(config.theme.custom_dir) if config.theme.custom_dir else None
    # A file in docs/ wins over the theme's (MkDocs' rule): our assets from the overrides first.
    if custom_dir:
        shutil.copytree(custom_dir, out / "overrides", ignore=shutil.ignore_patterns("__pycache__"))
        if (out / "overrides" / ASSETS).is_dir():
            (docs / ASSETS).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(out / "overrides" / ASSETS, docs / ASSETS)
    for file in hand_written:
        target = docs / file.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file.abs_src_path, target)

    def read(path: str) -> str:  # as the build's files answer: docs first, then the theme's folders
        for folder in [docs, *config.theme.dirs]:
            if (Path(folder) / path).is_file():
                return (Path(folder) / path).read_text(encoding="utf-8")
        raise FileNotFoundError(path)

    own = own_assets_config(config.extra_css, config.extra_javascript)
    written = own_assets(own, read)
    for page in pages.pages:
        written[page.src_uri] = pages.markdown(page, config.use_directory_urls)
    for path, content in written.items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(content, encoding="utf-8")
    finish_assets(docs, pages.references)

    raw = yaml_load(config_file.read_text(encoding="utf-8"))
    raw.pop("INHERIT", None)  # yaml_load has merged it in
    for key in ("hooks", "watch"):
        raw.pop(key, None)
    raw["docs_dir"] = "docs"
    if custom_dir:
        raw["theme"]["custom_dir"] = "overrides"
    raw["extra_css"] = own.extra_css
    raw["extra_javascript"] = [_script_entry(script) for script in own.extra_javascript]
    if config.nav is None:
        every_page = Files(hand_written + [File(page.src_uri, None, None, config.use_directory_urls) for page in pages.pages])
        raw["nav"] = pages.nav_config(every_page.documentation_pages())
    (out / "mkdocs.yml").write_text(
        HEADER.format(source=config_file, config=out / "mkdocs.yml")
        + yaml.safe_dump(raw, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")
    return len(pages.pages)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        count = generate(args.config, args.out)
    except (DataError, SiteFilesError, ConfigurationError) as error:
        print(error, file=sys.stderr)
        return 1
    print(f"{count} pages and their files written to {args.out}/; build them with "
          f"`mkdocs build -f {args.out / 'mkdocs.yml'}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
