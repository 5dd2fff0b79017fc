"""MkDocs hooks: turn the YAML under data/ into pages. Thin by design.

The work happens in the `refsite` package (load → validate → model → render, then
refsite.site_files: each page as Markdown, the navigation, the scripts next to the pages);
`python -m refsite.generate` calls the same functions to write a folder MkDocs builds without
these hooks, into the same site. Everything a build needs is created in `on_config` and kept on
one `_Build` object, replaced on every (re)build, so `mkdocs serve` never carries state over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import jieba
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, file_sort_key

from refsite.find_index import BackgroundIndexes
from refsite.load import DataError
from refsite.site_files import GeneratedPages, SiteFilesError, data_dir, finish_assets

log = logging.getLogger("mkdocs.hooks.refsite")


@dataclass
class _Build:
    pages: GeneratedPages
    indexes: BackgroundIndexes  # the in-page search's ranked indexes, built alongside

_build: _Build | None = None


def on_config(config):
    global _build
    # Material's search cuts Chinese with jieba, which prints its start-up chatter to stderr on
    # every build; keep the build's output to what MkDocs and we have to say.
    jieba.setLogLevel(logging.WARNING)
    if _build is not None:  # a rebuild under `mkdocs serve`: drop the last build's work
        _build.indexes.cancel()
    _build = None
    try:
        pages = GeneratedPages.load(data_dir(config.config_file_path))
    except DataError as error:
        # A PluginError stops the build with this message and no traceback.
        raise PluginError(str(error)) from None
    _build = _Build(pages, BackgroundIndexes(pages.references))
    return config


def on_serve(server, config, builder):
    server.watch(str(data_dir(config.config_file_path)))
    return server


def on_files(files: Files, config):
    generated = _build.pages
    try:
        generated.check_hand_written(file.src_uri for file in files)
        for page in generated.pages:
            files.append(File.generated(config, page.src_uri,
                                        content=generated.markdown(page, config.use_directory_urls)))
    except SiteFilesError as error:
        raise PluginError(str(error)) from None
    if config.nav is None:  # MkDocs' own navigation, with the titles the data gives
        config.nav = generated.nav_config(files.documentation_pages())
    # In the order MkDocs reads a docs folder (get_files), so pages are built, and the search
    # index written, in the order of the folder `python -m refsite.generate` writes.
    return Files(sorted(files, key=file_sort_key))


def on_post_build(config):
    saved = finish_assets(config.site_dir, _build.pages.references, _build.indexes)
    log.debug("minified the site's scripts and styles: %d bytes less", saved)


def on_build_error(error):
    if _build is not None:
        _build.indexes.cancel()
