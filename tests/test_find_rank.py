"""The ranked half in the browser: find-rank.js scores entries exactly as lunr.js's own query
would, without going through it (its per-document match objects made a query of common words
cost hundreds of milliseconds on a long page)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from test_find_tokenize import ODD_INPUTS

pytestmark = pytest.mark.browser

PASTED = yaml.safe_load((Path(__file__).parent / "fixtures" / "pasted_errors.yml").read_text(encoding="utf-8"))
TEXTS = [case["pasted"] for case in PASTED] + ODD_INPUTS + [
    "验证集精度比训练差",
    "RuntimeError error tensor",  # only words most entries hold
    "size mismatch for head.weight: copying a param with shape torch.Size([10, 512])",
]

COMPARE_JS = """async (texts) => {
    const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
    const rankModule = await import(new URL("find-rank.js", base));
    const index = await rankModule.loadRanker(document.querySelector("[data-find]").dataset.findPage);
    const order = new Map([...document.querySelectorAll("[data-entry]")].map((entry, i) => [entry.id, i]));
    const position = (id) => order.get(id) ?? Infinity;
    const compared = [];
    for (const text of texts) {
        const known = rankModule.queryTerms(text).filter((term) => Object.hasOwn(index.invertedIndex, term));
        const byLunr = known.length === 0 ? [] : index.query((query) => {
            for (const term of known) query.term(term, { usePipeline: false });
        });
        const ours = known.length === 0 ? [] : rankModule.scoreAll(index, known);
        const asMap = (results) => Object.fromEntries(results.map(({ ref, score }) => [ref, score]));
        // rank() itself, with lunr's query switched off: it must never need it.
        const query = index.query;
        index.query = () => { throw new Error("rank() went through index.query()"); };
        let ranked;
        try { ranked = rankModule.rank(index, text, order).map(({ id }) => id); } finally { index.query = query; }
        // What rank() did through lunr before: the discriminating terms, index.query(), a full sort.
        const entries = Object.keys(index.fieldVectors).length / index.fields.length;
        const holding = (term) => Math.max(...index.fields.map((field) => Object.keys(index.invertedIndex[term][field]).length));
        const rare = known.filter((term) => holding(term) <= entries * 0.2);
        const terms = rare.length > 0 ? rare : known;
        const throughLunr = terms.length === 0 ? [] : index.query((query) => {
            for (const term of terms) query.term(term, { usePipeline: false });
        }).sort((a, b) => b.score - a.score || position(a.ref) - position(b.ref)).slice(0, 5).map(({ ref }) => ref);
        compared.push({ lunr: asMap(byLunr), ours: asMap(ours), ranked, throughLunr });
    }
    return compared;
}"""


def test_scores_and_ranking_are_lunrs_own_for_every_text(page, site_url):
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    compared = page.evaluate(COMPARE_JS, TEXTS)
    assert sum(1 for result in compared if result["lunr"]) > 30  # most texts do score entries
    for text, result in zip(TEXTS, compared):
        assert result["ours"] == result["lunr"], text[:80]  # the same entries, the very same floats
        assert result["ranked"] == result["throughLunr"], text[:80]
