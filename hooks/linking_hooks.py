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
"""

from __future__ import annotations

import logging

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from refsite.classic_scripts import ModuleLinkError, link_modules

log = logging.getLogger("mkdocs.hooks.offline")

LINKED = "assets/refsite/modules-linked.js"
LAZY = "assets/refsite/modules-lazy.js"  # what only import() reaches: the ranked half, the home page's panel
STYLES = "assets/refsite/site.css"
OWN_STYLES = "assets/refsite/"

# Set in on_config on every (re)build, so `mkdocs serve` never links yesterday's lists.
_module_entries: list[str] = []
_style_entries: list[str] = []


def on_config(config):
    global _module_entries, _style_entries
    styles = [str(path).removeprefix("./") for path in config.extra_css]
    _style_entries = [path for path in styles if path.startswith(OWN_STYLES)]
    if _style_entries:
        at = styles.index(_style_entries[0])
        others = [path for path in styles if path not in _style_entries]
        config.extra_css = others[:at] + [STYLES] + others[at:]
    scripts = list(config.extra_javascript)
    modules = [script for script in scripts if getattr(script, "type", "") == "module"]
    _module_entries = [str(script).removeprefix("./") for script in modules]
    if not modules:
        return config
    at = scripts.index(modules[0])
    classic = [script for script in scripts if script not in modules]
    linked = ExtraScriptValue(LINKED)
    linked.defer = True  # runs once the page is parsed, as the modules did
    config.extra_javascript = classic[:at] + [linked] + classic[at:]
    return config


def on_files(files: Files, config):
    def read(path: str) -> str:
        file = files.get_file_from_path(path)
        if file is None:
            raise FileNotFoundError(path)
        return file.content_string

    if _style_entries:
        try:
            joined = "\n".join(f"/* {path} */\n{read(path)}" for path in _style_entries)
        except FileNotFoundError as missing:
            raise PluginError(f"extra_css names {missing}, which is not in the site") from None
        files.append(File.generated(config, STYLES, content=joined))
    if not _module_entries:
        return files
    try:
        linked, lazy = link_modules(_module_entries, read, LINKED, LAZY)
    except ModuleLinkError as error:
        raise PluginError(f"linking the site's modules: {error}") from None
    files.append(File.generated(config, LINKED, content=linked))
    files.append(File.generated(config, LAZY, content=lazy))
    log.debug("linked %d module entries into %s", len(_module_entries), LINKED)
    return files
