"""Minify the site's own scripts and styles in the built folder.

The sources under overrides/assets/refsite/ keep their comments for the next engineer; readers
get the same code without them (about a third less to download, gzipped). rjsmin and rcssmin
only drop comments and whitespace, so the modules stay the modules the tests exercise.
"""

from __future__ import annotations

from pathlib import Path

import rcssmin
import rjsmin

MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def minify_tree(folder: Path, skip: tuple[Path, ...] = ()) -> int:
    """Minify every .js and .css under `folder` in place, except below the `skip` folders.
    Returns how many bytes were saved."""
    saved = 0
    for path in sorted(folder.rglob("*")):
        minify = MINIFIERS.get(path.suffix)
        if minify is None or any(path.is_relative_to(skipped) for skipped in skip):
            continue
        source = path.read_text(encoding="utf-8")
        minified = minify(source)
        path.write_text(minified, encoding="utf-8")
        saved += len(source.encode()) - len(minified.encode())
    return saved
