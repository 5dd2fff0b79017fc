"""MkDocs hooks: the site's own scripts and styles linked into one file each, for every reader.

The sources under overrides/assets/refsite/ stay one file per component. Readers get
- the ES modules linked at build time into `modules-linked.js` (refsite.classic_scripts), one
  deferred classic script in place of the module entries of `extra_javascript`, and what only
  an `import()` reaches into `modules-lazy.js`, loaded the first time it is imported: browsers refuse
  module scripts from `file://`, so a copy opened from disk needs it anyway, and over http(s)
  one file gzips smaller and costs one round trip where two dozen modules were an import
  waterfall (on a phone, 150 ms each);
- the stylesheets of `extra_css` under assets/refsite/ joined, in order, into `site.css`: one
  render-blocking request instead of three.

Thin: refsite.site_files does both, for these hooks and for `python -m refsite.generate`.
"""

from __future__ import annotations

import logging

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from refsite.site_files import LINKED, OwnAssets, SiteFilesError, own_assets, own_assets_config

log = logging.getLogger("mkdocs.hooks.offline")

# Set in on_config on every (re)build, so `mkdocs serve` never links yesterday's lists.
_own: OwnAssets | None = None


def on_config(config):
    global _own
    _own = own_assets_config(config.extra_css, config.extra_javascript)
    config.extra_css = _own.extra_css
    config.extra_javascript = _own.extra_javascript
    return config


def on_files(files: Files, config):
    def read(path: str) -> str:
        file = files.get_file_from_path(path)
        if file is None:
            raise FileNotFoundError(path)
        return file.content_string

    try:
        generated = own_assets(_own, read)
    except SiteFilesError as error:
        raise PluginError(str(error)) from None
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    log.debug("linked %d module entries into %s", len(_own.modules), LINKED)
    return files
