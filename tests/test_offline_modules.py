"""Linking the site's ES modules into one classic script (refsite.classic_scripts).

The behaviour in a browser is covered by test_offline.py, which runs the linked script from
disk; these tests pin what the linker accepts, what it refuses, and the order it runs modules in.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from refsite.classic_scripts import ModuleLinkError, link_modules, parse_module

NODE = shutil.which("node")


def reader(sources: dict[str, str]):
    def read(path: str) -> str:
        if path not in sources:
            raise FileNotFoundError(path)
        return sources[path]
    return read


def test_imports_and_exports_are_rewritten_and_import_meta_becomes_the_modules_own():
    module = parse_module("assets/app/main.js", (
        'import { a, b as c } from "./lib/a.js";\n'
        "import * as tools from '../tools.js';\n"
        'import "./side-effect.js";\n'
        "export function f() { return new URL('x', import.meta.url); }\n"
        "export async function g() {}\n"
        "export class K {}\n"
        "export const ONE = 1;\n"
        "const two = 2;\n"
        "export { two, two as TWO };\n"
    ))
    assert module.dependencies == ["assets/app/lib/a.js", "assets/tools.js", "assets/app/side-effect.js"]
    assert module.exports == {"f": "f", "g": "g", "K": "K", "ONE": "ONE", "two": "two", "TWO": "two"}
    assert 'const { a, b: c } = __import("assets/app/lib/a.js");' in module.body
    assert 'const tools = __import("assets/tools.js");' in module.body
    assert "new URL('x', __meta.url)" in module.body
    assert "export" not in module.body and "import " not in module.body


@pytest.mark.parametrize("source, complaint", [
    ('import thing from "./x.js";', "named imports"),
    ('export default function () {}', "export default"),
    ('export * from "./x.js";', r"export \*"),
    ('import { a } from "lodash";', "only relative paths"),
    # import("./x.js") itself is linked now (test_a_dynamic_import_of_a_relative_literal_...):
    # every other dynamic import is still refused.
    ('const m = import(name);', "dynamic import"),
    ('const m = import("lodash");', "dynamic import"),
    ('const m = import(`./${name}.js`);', "dynamic import"),
    ('const m = import("./" + name);', "dynamic import"),
])
def test_syntax_it_does_not_handle_is_refused_with_the_file_named(source, complaint):
    with pytest.raises(ModuleLinkError, match=complaint) as raised:
        parse_module("assets/x/entry.js", source)
    assert "assets/x/entry.js" in str(raised.value)


def test_a_missing_module_and_an_import_cycle_are_refused():
    with pytest.raises(ModuleLinkError, match=r"a\.js: no module at gone\.js"):
        link_modules(["a.js"], reader({"a.js": 'import { x } from "./gone.js";'}), "out.js")
    with pytest.raises(ModuleLinkError, match=r"cycle: a\.js -> b\.js -> a\.js"):
        link_modules(["a.js"], reader({"a.js": 'import { y } from "./b.js";',
                                       "b.js": 'import { x } from "./a.js";'}), "out.js")


@pytest.mark.node
def test_the_linked_script_runs_each_module_once_after_its_dependencies(tmp_path):
    sources = {
        "js/log.js": "export const seen = [];\n",
        "js/shared.js": 'import { seen } from "./log.js";\nseen.push("shared");\nlet count = 0;\n'
                        "export function next() { return ++count; }\n",
        "js/first.js": 'import { seen } from "./log.js";\nimport { next } from "./shared.js";\n'
                       'seen.push("first " + next());\n',
        "js/second.js": 'import { seen } from "./log.js";\nimport { next } from "./shared.js";\n'
                        'seen.push("second " + next() + " " + import.meta.url);\n'
                        "globalThis.result = seen;\n",
    }
    linked = link_modules(["js/first.js", "js/second.js"], reader(sources), "js/linked.js")
    # The browser globals a classic script relies on, and nothing more.
    harness = ('globalThis.document = { currentScript: { src: "file:///site/js/linked.js" } };\n'
               + linked + "\nconsole.log(JSON.stringify(globalThis.result));\n")
    (tmp_path / "run.js").write_text(harness)
    output = subprocess.run([NODE, str(tmp_path / "run.js")], capture_output=True, text=True, check=True)
    assert json.loads(output.stdout) == ["shared", "first 1", "second 2 file:///site/js/second.js"]


def test_a_dynamic_import_of_a_relative_literal_is_linked_and_becomes_a_promise_of_the_module():
    module = parse_module("assets/app/main.js", (
        'import { a } from "./lib/a.js";\n'
        'export function later() { return import("./lib/late.js"); }\n'
        "const other = () => import( '../other.js' );\n"
    ))
    assert module.dependencies == ["assets/app/lib/a.js"]
    assert module.dynamic_dependencies == ["assets/app/lib/late.js", "assets/other.js"]
    assert 'return __load("assets/app/lib/late.js");' in module.body
    assert 'const other = () => __load("assets/other.js");' in module.body
    assert not re.search(r"\bimport\s*\(", module.body)


def test_a_missing_dynamic_import_target_is_refused_with_its_importer_named():
    with pytest.raises(ModuleLinkError, match=r"a\.js: no module at gone\.js"):
        link_modules(["a.js"], reader({"a.js": 'const later = () => import("./gone.js");'}), "out.js")


def run_linked(tmp_path, linked: str, then: str) -> list:
    """Runs a linked script in node with only the browser globals it relies on; `then` is an
    expression whose (awaited) value is printed as JSON."""
    harness = ('globalThis.document = { currentScript: { src: "file:///site/js/linked.js" } };\n'
               + linked + f"\nPromise.resolve({then}).then((value) => console.log(JSON.stringify(value)));\n")
    (tmp_path / "run.js").write_text(harness)
    output = subprocess.run([NODE, str(tmp_path / "run.js")], capture_output=True, text=True, check=True)
    return json.loads(output.stdout)


@pytest.mark.node
def test_a_dynamically_imported_module_runs_only_when_imported_and_only_once(tmp_path):
    sources = {
        "js/log.js": "export const seen = [];\n",
        "js/entry.js": 'import { seen } from "./log.js";\nseen.push("entry");\n'
                       'export const load = () => import("./late.js");\n'
                       'export const never = () => import("./never.js");\n'
                       "globalThis.entry = { seen, load };\n",
        # The late module imports the entry back: a cycle browsers allow through import().
        "js/late.js": 'import { seen } from "./log.js";\nimport { load } from "./entry.js";\n'
                      'seen.push("late " + typeof load);\n'
                      "export function url() { return import.meta.url; }\n",
        "js/never.js": 'import { seen } from "./log.js";\nseen.push("never");\n',
    }
    linked = link_modules(["js/entry.js"], reader(sources), "js/linked.js")
    assert '// ---- js/never.js' in linked  # linked, though nothing here imports it
    result = run_linked(tmp_path, linked, """
        (async () => {
          const before = [...globalThis.entry.seen];
          const first = await globalThis.entry.load();
          const second = await globalThis.entry.load();
          return { before, after: globalThis.entry.seen, url: first.url(), same: first === second };
        })()
    """)
    assert result == {"before": ["entry"], "after": ["entry", "late function"],
                      "url": "file:///site/js/late.js", "same": True}


@pytest.mark.node
def test_what_only_an_import_reaches_goes_in_a_second_file_loaded_when_imported(tmp_path):
    sources = {
        "js/entry.js": 'import { shared } from "./shared.js";\nglobalThis.seen = [shared];\n'
                       'export const load = () => import("./late.js");\nglobalThis.entry = { load };\n',
        "js/shared.js": 'export const shared = "shared";\n',
        "js/late.js": 'import { shared } from "./shared.js";\nimport { helper } from "./helper.js";\n'
                      'globalThis.seen.push("late " + shared + " " + helper);\nexport const url = import.meta.url;\n',
        "js/helper.js": 'export const helper = "helper";\n',
    }
    main, lazy = link_modules(["js/entry.js"], reader(sources), "js/linked.js", "js/lazy.js")
    assert "// ---- js/shared.js" in main and "// ---- js/late.js" not in main
    assert "// ---- js/late.js" in lazy and "// ---- js/helper.js" in lazy and "js/shared.js\n" not in lazy
    # A browser's script element, as node has none: appending it runs the lazy file, then onload.
    harness = ('globalThis.loaded = [];\n'
               f"const LAZY = {json.dumps(lazy)};\n"
               'globalThis.document = { currentScript: { src: "file:///site/js/linked.js" },\n'
               '  createElement: () => ({}),\n'
               '  head: { appendChild(script) { globalThis.loaded.push(script.src); (0, eval)(LAZY);'
               ' setTimeout(script.onload); } } };\n'
               + main + """
(async () => {
  const before = [...globalThis.seen];
  const first = await globalThis.entry.load();
  const second = await globalThis.entry.load();
  console.log(JSON.stringify({ before, after: globalThis.seen, url: first.url, same: first === second,
                               loaded: globalThis.loaded }));
})();
""")
    (tmp_path / "run.js").write_text(harness)
    output = subprocess.run([NODE, str(tmp_path / "run.js")], capture_output=True, text=True, check=True)
    assert json.loads(output.stdout) == {
        "before": ["shared"], "after": ["shared", "late shared helper"], "url": "file:///site/js/late.js",
        "same": True, "loaded": ["file:///site/js/lazy.js"]}
