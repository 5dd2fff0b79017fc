"""The folding tables (curly quotes, invisible characters) exist once per language: the Python
copy (pytorch_error_lookup.textfold) and the browser's (find-textfold.js) must hold the same characters, and
both searches in the browser must use them."""

from __future__ import annotations

import re
import sys

import pytest

from pytorch_error_lookup import textfold

pytestmark = pytest.mark.browser

# Every code point the browser's table folds, enumerated in the browser, and what the literal
# search (foldQuery) and the tokenizer (normalize) make of each.
BROWSER_TABLES_JS = """async () => {
    const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
    const { QUOTES, INVISIBLE_CLASS } = await import(new URL("find-textfold.js", base));
    const { foldQuery } = await import(new URL("find-fold.js", base));
    const { normalize } = await import(new URL("find-tokenize.js", base));
    const invisible = new RegExp(`^[${INVISIBLE_CLASS}]$`, "u");
    const codes = [];
    for (let code = 0; code <= 0x10ffff; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue;
        if (invisible.test(String.fromCodePoint(code))) codes.push(code);
    }
    const marked = (char) => `a${char}b`;
    return {
        quotes: QUOTES,
        invisible: codes,
        foldedInvisible: codes.map((code) => foldQuery(marked(String.fromCodePoint(code)))),
        normalizedInvisible: codes.map((code) => normalize(marked(String.fromCodePoint(code)))),
        foldedQuotes: Object.keys(QUOTES).map((quote) => foldQuery(marked(quote))),
        normalizedQuotes: Object.keys(QUOTES).map((quote) => normalize(marked(quote))),
    };
}"""


def python_invisible() -> list[int]:
    pattern = re.compile(f"[{textfold.INVISIBLE_CLASS}]")
    return [code for code in range(sys.maxunicode + 1)
            if not 0xD800 <= code <= 0xDFFF and pattern.fullmatch(chr(code))]


def test_python_tables_fold_what_they_name():
    assert textfold.normalize("a\u200bb\u00adc\ufeff") == "abc"
    assert textfold.normalize("“quoted” ‘single’") == "\"quoted\" 'single'"
    assert set(textfold.QUOTES.values()) == {"'", '"'}


def test_the_browser_and_python_tables_hold_the_same_characters(page, site_url):
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    browser = page.evaluate(BROWSER_TABLES_JS)
    assert browser["quotes"] == textfold.QUOTES
    assert browser["invisible"] == python_invisible()
    assert len(browser["invisible"]) >= 5
    # Both browser searches fold through the table: each invisible character vanishes, each
    # quote becomes its straight twin, as in Python.
    assert set(browser["foldedInvisible"]) == set(browser["normalizedInvisible"]) == {"ab"}
    straight = [f"a{plain}b" for plain in textfold.QUOTES.values()]
    assert browser["foldedQuotes"] == browser["normalizedQuotes"] == straight
    assert [textfold.normalize(f"a{quote}b") for quote in textfold.QUOTES] == straight


# The per-character fold foldText replaced (find-fold.js copies stretches that fold to themselves
# whole): kept here as the reference its output and offsets must equal, character for character.
REFERENCE_FOLD_JS = """async (texts) => {
    const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
    const { foldText } = await import(new URL("find-fold.js", base));
    const { GrowableInt32 } = await import(new URL("find-corpus.js", base));
    const { INVISIBLE_CLASS, QUOTES } = await import(new URL("find-textfold.js", base));
    const invisible = new RegExp(`^[${INVISIBLE_CLASS}]$`);
    const whitespace = /^\\s$/;
    const foldChar = (char) => {
        if (invisible.test(char)) return "";
        if (whitespace.test(char)) return " ";
        let result = "";
        for (const part of char.normalize("NFKC").toLowerCase()) result += QUOTES[part] ?? (whitespace.test(part) ? " " : part);
        return result;
    };
    const reference = (text, state) => {
        let out = "";
        const offsets = [];
        for (let i = 0; i < text.length; i++) {
            const code = text.charCodeAt(i);
            const wide = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
            const ascii = (code === 32 || (code >= 9 && code <= 13)) ? " " : text[i].toLowerCase();
            const result = code < 128 ? ascii : foldChar(wide ? text.slice(i, i + 2) : text[i]);
            for (const char of result.split("")) {
                if (char === " ") { if (state.space) continue; state.space = true; } else state.space = false;
                out += char;
                offsets.push(i);
            }
            if (wide) i++;
        }
        return { out, offsets };
    };
    // The page's own text nodes, folded in a row as the corpus folds them, and each text alone.
    const nodes = [];
    for (const element of document.querySelectorAll("[data-find-text]")) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node.data);
    }
    const differences = [];
    for (const group of [nodes, ...texts.map((text) => [text])]) {
        const ours = { space: true };
        const theirs = { space: true };
        for (const text of group) {
            const offsets = new GrowableInt32(4);
            const out = foldText(text, ours, offsets);
            const expected = reference(text, theirs);
            if (out !== expected.out || [...offsets.view()].join() !== expected.offsets.join() || ours.space !== theirs.space) {
                differences.push(text.slice(0, 80));
            }
        }
    }
    return { differences, nodes: nodes.length };
}"""


def test_folding_copies_whole_stretches_but_folds_as_one_character_at_a_time_did(page, site_url):
    from test_find_tokenize import ODD_INPUTS

    texts = ODD_INPUTS + [
        "A\u00a0\u00a0B  \t\nC", " leading and trailing ", "ＡＢＣ…“x”", "中文\u200b中文 ＭＡＴ", "𝐀𝐁 🔥x",
        "\ud83d", "a\ud83d", "é" + "e\u0301" + "ﬀ", "Straße" * 3, "ŉ ǅ ẞ", "\u3000\u3000全角",
    ]
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    result = page.evaluate(REFERENCE_FOLD_JS, texts)
    assert result["nodes"] > 400
    assert result["differences"] == []
