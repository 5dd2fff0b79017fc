"""The site's ES modules, linked into one classic script for the offline copy.

Browsers refuse `<script type="module">` from `file://`: Chromium blocks the fetch (CORS), and
Firefox gives every file its own origin. Classic scripts still load there. So for the offline
copy the modules under `overrides/assets/` are linked, at build time, into one classic script
that runs the same code in the same order, with no bundler and nothing fetched at runtime.

Only the small, regular subset of module syntax the site's own modules use is understood:
top-level `import { a, b as c } from "./x.js"`, `import * as ns from "./x.js"`,
`import "./x.js"`, `export function|async function|class|const|let|var name`,
`export { a, b as c }`, `import.meta.url`, and `import("./x.js")` (a dynamic import of a
relative path written as a string literal: the target is linked like any other module but, as in
a browser, run only when the import() is). Anything else at the start of a line that begins with
`import` or `export`, and any other import(), is refused with a message naming the file, never
guessed at.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

_NAME = r"[A-Za-z_$][\w$]*"
_SPECIFIER = r"""(?P<quote>["'])(?P<specifier>[^"'\n]+)(?P=quote)"""
_END = r"[ \t]*;?[ \t]*$"

_IMPORT_FROM = re.compile(rf"^import\s+(?P<clause>[^;'\"]*?)\s+from\s+{_SPECIFIER}{_END}", re.M)
_IMPORT_BARE = re.compile(rf"^import\s+{_SPECIFIER}{_END}", re.M)
_EXPORT_DECLARATION = re.compile(
    rf"^export\s+(?P<keyword>(?:async\s+)?function\s*\*?|class|const|let|var)\s+(?P<name>{_NAME})", re.M)
_EXPORT_LIST = re.compile(rf"^export\s*\{{(?P<names>[^}}]*)\}}{_END}", re.M)
# What is left after the forms above: anything that still starts a line this way is unsupported.
_LEFTOVER = re.compile(r"^(?:import|export)\b(?![.(])", re.M)
_IMPORT_META = re.compile(r"\bimport\.meta\b")
_DYNAMIC_IMPORT_LITERAL = re.compile(rf"\bimport\s*\(\s*{_SPECIFIER}\s*\)")
_DYNAMIC_IMPORT = re.compile(r"\bimport\s*\(")


class ModuleLinkError(ValueError):
    """A module uses syntax this linker does not handle, or imports what it cannot resolve."""


@dataclass
class Module:
    path: str  # site-relative, POSIX: "assets/refsite/find.js"
    body: str  # the source with its import and export syntax rewritten
    dependencies: list[str] = field(default_factory=list)  # static: run before this module
    dynamic_dependencies: list[str] = field(default_factory=list)  # run when import() is
    exports: dict[str, str] = field(default_factory=dict)  # exported name -> local name


def _resolve(importer: str, specifier: str) -> str:
    if not specifier.startswith(("./", "../")):
        raise ModuleLinkError(f"{importer}: cannot link import of {specifier!r}: "
                              "only relative paths ('./x.js') are supported")
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))


def _pairs(names: str, separator: str, where: str) -> list[tuple[str, str]]:
    """`a, b as c` -> [("a", "a"), ("b", "c")], checking every name."""
    pairs = []
    for item in filter(None, (part.strip() for part in names.split(","))):
        original, _, alias = (word.strip() for word in item.partition(separator))
        alias = alias or original
        if not (re.fullmatch(_NAME, original) and re.fullmatch(_NAME, alias)):
            raise ModuleLinkError(f"{where}: cannot link {item!r}")
        pairs.append((original, alias))
    return pairs


def parse_module(path: str, source: str) -> Module:
    module = Module(path, source)

    def import_from(match: re.Match) -> str:
        dependency = _resolve(path, match["specifier"])
        module.dependencies.append(dependency)
        clause = " ".join(match["clause"].split())
        target = f"__import({json.dumps(dependency)})"
        if namespace := re.fullmatch(rf"\*\s+as\s+({_NAME})", clause):
            return f"const {namespace[1]} = {target};"
        if named := re.fullmatch(r"\{(.*)\}", clause):
            bindings = ", ".join(name if name == alias else f"{name}: {alias}"
                                 for name, alias in _pairs(named[1], " as ", path))
            return f"const {{ {bindings} }} = {target};"
        raise ModuleLinkError(f"{path}: cannot link `import {clause} from ...`: "
                              "use named imports (`import {{ a }} from`) or `import * as`")

    def import_bare(match: re.Match) -> str:
        dependency = _resolve(path, match["specifier"])
        module.dependencies.append(dependency)
        return f"__import({json.dumps(dependency)});"

    def export_declaration(match: re.Match) -> str:
        module.exports[match["name"]] = match["name"]
        return match[0].removeprefix("export").lstrip()

    def export_list(match: re.Match) -> str:
        for local, exported in _pairs(match["names"], " as ", path):
            module.exports[exported] = local
        return ""

    def dynamic_import(match: re.Match) -> str:
        specifier = match["specifier"]
        if not specifier.startswith(("./", "../")):
            raise ModuleLinkError(f"{path}: cannot link a dynamic import() of {specifier!r}: "
                                  'only relative paths (import("./x.js")) are supported')
        dependency = _resolve(path, specifier)
        module.dynamic_dependencies.append(dependency)
        return f"__load({json.dumps(dependency)})"

    body = _IMPORT_FROM.sub(import_from, source)
    body = _IMPORT_BARE.sub(import_bare, body)
    body = _EXPORT_DECLARATION.sub(export_declaration, body)
    body = _EXPORT_LIST.sub(export_list, body)
    if leftover := _LEFTOVER.search(body):
        line = body[leftover.start():].splitlines()[0]
        raise ModuleLinkError(f"{path}: cannot link {line.strip()!r}")
    body = _DYNAMIC_IMPORT_LITERAL.sub(dynamic_import, body)
    if _DYNAMIC_IMPORT.search(body):
        raise ModuleLinkError(f"{path}: cannot link a dynamic import() of anything but a string "
                              'literal naming a relative path (import("./x.js"))')
    module.body = _IMPORT_META.sub("__meta", body)
    return module


def _load_order(entries: Sequence[str], read: Callable[[str], str]) -> list[Module]:
    """Every module reachable from `entries`, each after its static dependencies (as browsers
    run them), then those reachable only through import()."""
    ordered: dict[str, Module] = {}
    visiting: list[str] = []
    # (module, importer): the entries, then each import() target once the static graph is done,
    # since an import() may lead back to a module still being visited (a cycle browsers allow).
    roots: list[tuple[str, str | None]] = [(entry, None) for entry in entries]

    def visit(path: str, importer: str | None) -> None:
        if path in ordered:
            return
        if path in visiting:
            cycle = " -> ".join(visiting[visiting.index(path):] + [path])
            raise ModuleLinkError(f"cannot link an import cycle: {cycle}")
        visiting.append(path)
        try:
            source = read(path)
        except FileNotFoundError:
            raise ModuleLinkError(f"{importer}: no module at {path}" if importer else f"no module at {path}") from None
        module = parse_module(path, source)
        for dependency in module.dependencies:
            visit(dependency, path)
        visiting.pop()
        ordered[path] = module
        roots.extend((dependency, path) for dependency in module.dynamic_dependencies)

    while roots:
        visit(*roots.pop(0))
    return list(ordered.values())


DEFINE_GLOBAL = "refsiteLinkedDefine"  # how a lazy file reaches the main file's registry


def _static_closure(modules: list[Module], entries: Sequence[str]) -> set[str]:
    """The modules the entries reach by static imports alone: what runs at load."""
    by_path = {module.path: module for module in modules}
    reached: set[str] = set()
    stack = list(entries)
    while stack:
        path = stack.pop()
        if path not in reached:
            reached.add(path)
            stack.extend(by_path[path].dependencies)
    return reached


def _define(module: Module, here: str) -> str:
    getters = ", ".join(f"{json.dumps(name)}: () => {local}" for name, local in module.exports.items())
    return (
        f"\n// ---- {module.path}\n"
        f"define({json.dumps(module.path)}, {json.dumps(posixpath.relpath(module.path, here))}, "
        f"{json.dumps(module.dependencies)}, function (__import, __export, __meta, __load) {{\n"
        f"__export({{ {getters} }});\n"
        f"{module.body.rstrip()}\n"
        "});\n"
    )


def link_modules(entries: Sequence[str], read: Callable[[str], str], output: str,
                 lazy_output: str | None = None) -> str | tuple[str, str]:
    """One classic script, to be served at site path `output`, that runs the `entries` modules.

    `read(path)` returns a module's source by site-relative path (FileNotFoundError if none).
    Each module becomes a function that runs once, when first imported and after its static
    dependencies, so the entries run in order as browsers would run them and an import() target
    runs only when imported. Exports are getters over the module's own bindings, and
    `import.meta.url` is the URL the module would have had.

    With `lazy_output`, the modules only an import() reaches go into a second classic script
    at that site path, loaded the first time one of them is imported (as a browser fetches a
    dynamically imported module then): returns (the main script, the lazy one).
    """
    here = posixpath.dirname(output)
    modules = _load_order(entries, read)
    at_load = _static_closure(modules, entries) if lazy_output else {module.path for module in modules}
    lazy_url = json.dumps(posixpath.relpath(lazy_output, here)) if lazy_output else "null"
    parts = [
        "// Generated by refsite.classic_scripts: the site's ES modules, linked into one classic\n"
        "// script, because browsers refuse module scripts from file://. Entries, in order:\n"
        + "".join(f"//   {entry}\n" for entry in entries) +
        "(function (entries, lazyUrl) {\n"
        '  "use strict";\n'
        "  var here = document.currentScript.src;\n"
        "  var modules = {};\n"
        "  var lazy = null; // the lazy file, loading or loaded\n"
        "  function __import(path) {\n"
        "    var module = modules[path];\n"
        "    var run = module.run;\n"
        "    module.run = null; // once, even if an import() leads back here while it runs\n"
        "    if (run) run();\n"
        "    return module.exports;\n"
        "  }\n"
        "  function __load(path) { // import(): a module of this file, or of the lazy one\n"
        "    if (modules[path] || !lazyUrl) return Promise.resolve().then(function () { return __import(path); });\n"
        "    lazy = lazy || new Promise(function (resolve, reject) {\n"
        "      var script = document.createElement(\"script\");\n"
        "      script.src = new URL(lazyUrl, here).href;\n"
        "      script.onload = resolve;\n"
        "      script.onerror = function () { lazy = null; reject(new Error(\"could not load \" + script.src)); };\n"
        "      document.head.appendChild(script);\n"
        "    });\n"
        "    return lazy.then(function () { return __import(path); });\n"
        "  }\n"
        "  function define(path, relative, dependencies, body) {\n"
        "    var exports = {};\n"
        "    function __export(getters) {\n"
        "      for (var name in getters) Object.defineProperty(exports, name, { get: getters[name], enumerable: true });\n"
        "    }\n"
        "    modules[path] = { exports: exports, run: function () {\n"
        "      dependencies.forEach(__import);\n"
        "      body(__import, __export, { url: new URL(relative, here).href }, __load);\n"
        "    } };\n"
        "  }\n"
        f"  globalThis.{DEFINE_GLOBAL} = define;\n"
    ]
    parts += [_define(module, here) for module in modules if module.path in at_load]
    parts.append(f"\nentries.forEach(__import);\n}})({json.dumps(list(entries))}, {lazy_url});\n")
    main = "".join(parts)
    if not lazy_output:
        return main
    lazy = ("// Generated by refsite.classic_scripts: the modules only an import() reaches, loaded the\n"
            f"// first time one is imported by {posixpath.basename(output)}.\n"
            f"(function (define) {{\n  \"use strict\";\n"
            + "".join(_define(module, here) for module in modules if module.path not in at_load)
            + f"}})(globalThis.{DEFINE_GLOBAL});\n")
    return main, lazy
