"""MkDocs hooks: turn the YAML under data/ into pages. Thin by design.

The work happens in the `refsite` package (load → validate → model → render); these hooks only
hand MkDocs what it produced. Everything a build needs is created in `on_config` and kept on
one `_Build` object, replaced on every (re)build, so `mkdocs serve` never carries state over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import jieba
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url

from refsite.find_index import ASSETS, INDEX_DIR, BackgroundIndexes
from refsite.find_rules import write_rules
from refsite.minify import minify_tree
from refsite.load import DataError
from refsite.model import Site
from refsite.render import Renderer
from refsite.sitemap import SitePage, site_pages
from refsite.pipeline import load_site

log = logging.getLogger("mkdocs.hooks.refsite")


@dataclass
class _Build:
    site: Site
    pages: dict[str, SitePage]  # by src_uri
    renderer: Renderer
    indexes: BackgroundIndexes  # the in-page search's ranked indexes, built alongside

_build: _Build | None = None


def data_dir(config) -> Path:
    return Path(config.config_file_path).parent / "data"


def on_config(config):
    global _build
    # Material's search cuts Chinese with jieba, which prints its start-up chatter to stderr on
    # every build; keep the build's output to what MkDocs and we have to say.
    jieba.setLogLevel(logging.WARNING)
    if _build is not None:  # a rebuild under `mkdocs serve`: drop the last build's work
        _build.indexes.cancel()
    _build = None
    try:
        site = load_site(data_dir(config))
    except DataError as error:
        # A PluginError stops the build with this message and no traceback.
        raise PluginError(str(error)) from None
    pages = site_pages(site)
    references = [page.reference for page in pages if page.kind == "reference"]
    _build = _Build(site, {page.src_uri: page for page in pages}, Renderer(site), BackgroundIndexes(references))
    return config


def on_serve(server, config, builder):
    server.watch(str(data_dir(config)))
    return server


def on_files(files: Files, config):
    for page in _build.pages.values():
        if files.get_file_from_path(page.src_uri):
            raise PluginError(f"docs/{page.src_uri} is written by hand, but the data generates it too; "
                              "remove one of them")
        files.append(File.generated(config, page.src_uri, content=f"# {page.title}\n"))
    return files


def on_nav(nav: Navigation, config, files):
    # A folder's section would be titled from its name ("Pytorch"); use the book's title.
    for item in nav.items:
        if isinstance(item, Section) and item.children:
            first = item.children[0]
            generated = _build.pages.get(getattr(getattr(first, "file", None), "src_uri", ""))
            if generated and generated.book:
                item.title = generated.book.title
    return nav


def on_page_content(html: str, page, config, files):
    generated = _build.pages.get(page.file.src_uri)
    if generated is None:
        return html

    urls: dict[str, str] = {}  # a page links to the same few pages many times over

    def href(target_src_uri: str, anchor: str | None = None) -> str:
        url = urls.get(target_src_uri)
        if url is None:
            target = files.get_file_from_path(target_src_uri)
            url = urls[target_src_uri] = get_relative_url(target.url, page.file.url)
        return f"{url}#{anchor}" if anchor else url

    rendered = _build.renderer.render(generated, href)
    page.toc = get_toc([item.as_mkdocs_token() for item in rendered.toc])
    return rendered.html


def on_post_build(config):
    # In-page search: each reference page's ranked index, next to the page assets.
    _build.indexes.write(config.site_dir)
    # The honest lookup's templates (pytorch_error_lookup.rule), one small script per page.
    write_rules([page.reference for page in _build.pages.values() if page.kind == "reference"], config.site_dir)
    # Then our scripts and styles lose their comments (the indexes are compact JSON already).
    site_dir = Path(config.site_dir)
    saved = minify_tree(site_dir / ASSETS, skip=(site_dir / INDEX_DIR,))
    log.debug("minified the site's scripts and styles: %d bytes less", saved)


def on_build_error(error):
    if _build is not None:
        _build.indexes.cancel()
