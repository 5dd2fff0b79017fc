"""The ranked search's tokenizer: error text in, index terms out, the same in Python and in the browser."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pytorch_error_lookup.textfold import distinct_tokens
from refsite.find_index import tokenize

FIXTURES = Path(__file__).parent / "fixtures"
PASTED = yaml.safe_load((FIXTURES / "pasted_errors.yml").read_text(encoding="utf-8"))


def test_tokenize_splits_camel_and_snake_case_and_keeps_the_compound():
    assert tokenize("RuntimeError") == ["runtime", "error", "runtimeerror"]
    assert tokenize("grad_fn") == ["grad", "fn", "grad_fn"]
    assert tokenize("_orig_mod.fc1.weight") == ["orig", "mod", "orig_mod", "fc1", "weight"]
    assert tokenize("HTTPServer") == ["http", "server", "httpserver"]


def test_tokenize_drops_the_readers_numbers_shapes_and_addresses():
    tokens = tokenize("mat1 and mat2 shapes cannot be multiplied (8x16 and 32x4) at 0x7f3a2c, torch.Size([1, 64])")
    assert "mat1" in tokens and "mat2" in tokens
    assert not {"8x16", "32x4", "0x7f3a2c", "1", "64"} & set(tokens)
    assert tokens.count("size") == 1 and "torch" in tokens


def test_tokenize_folds_width_quotes_and_invisible_characters():
    assert tokenize("ＲｕｎｔｉｍｅＥｒｒｏｒ") == tokenize("RuntimeError")
    assert tokenize("Can’t call numpy()") == tokenize("Can't call numpy()")
    assert tokenize("gra\u200bd_fn") == tokenize("grad_fn")


def test_tokenize_strips_traceback_frames_code_and_carets():
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 12, in <module>\n'
        "    logits = classifier_head(features)\n"
        "             ^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "ValueError: optimizer got an empty parameter list"
    )
    assert tokenize(traceback) == tokenize("ValueError: optimizer got an empty parameter list")


def test_tokenize_indexes_chinese_as_character_bigrams():
    assert tokenize("验证集精度") == ["验证", "证集", "集精", "精度"]
    assert tokenize("差") == ["差"]
    assert tokenize("忘了 model.eval()") == ["忘了", "model", "eval"]


ODD_INPUTS = [
    "",
    "   \n\t  ",
    "🔥💀 emoji 😀 and 👩‍💻",
    "<img src=x onerror=alert(1)> {{ config }} {% raw %} ${alert(1)}",
    ".*+?^${}()|[]\\/",
    "\x1b[1mdo those steps only if you trust the source\x1b[0m",
    "ＡＢＣ　全角　１２３ ｍａｔ１",
    "ﬁle ligature … “quoted” ‘single’",
    "HTTPServerError __init__ _orig_mod.fc1 3x4 0xdeadbeef u0 Eq(u0, 1)",
    "Ünïcödé Straße İstanbul ΣΑΣ",
    "한국어 テキスト 中文混合English文本",
    "x" * 10_000,
]


@pytest.mark.browser
def test_the_browser_tokenizer_gives_the_same_terms_as_the_python_one(page, site_url):
    texts = ODD_INPUTS + [case["pasted"] for case in PASTED]
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    in_browser = page.evaluate(
        """async (texts) => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const { distinctTokens, tokenize } = await import(new URL("find-tokenize.js", base));
            return texts.map((text) => [tokenize(text), distinctTokens(text, 7), distinctTokens(text, 256)]);
        }""",
        texts,
    )
    for text, (tokens, first_seven, first_256) in zip(texts, in_browser):
        assert tokens == tokenize(text), text[:80]
        # what a query ranks by (find-rank.js queryTerms), read word by distinct word
        assert (first_seven, first_256) == (distinct_tokens(text, 7), distinct_tokens(text, 256)), text[:80]


def test_a_querys_distinct_terms_are_the_tokenizers_in_order_without_repeats():
    """What a query ranks by, taken word by distinct word (textfold.distinct_tokens), is what
    tokenizing it whole and dropping repeats gives, for every paste and any limit."""
    import real_pastes

    texts = ODD_INPUTS + [case["pasted"] for case in PASTED] + [paste["paste"] for paste in real_pastes.load(real_pastes.TUNE)]
    texts.append("RuntimeError: abc def_ghi AbcDef 验证集精度 " * 2000)
    for text in texts:
        whole = list(dict.fromkeys(tokenize(text)))
        for limit in (1, 7, 256):
            assert distinct_tokens(text, limit) == whole[:limit], (text[:80], limit)
