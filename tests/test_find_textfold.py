"""The folding tables (curly quotes, invisible characters) exist once per language: the Python
copy (refsite.textfold) and the browser's (find-textfold.js) must hold the same characters, and
both searches in the browser must use them."""

from __future__ import annotations

import re
import sys

import pytest

from refsite import textfold

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
