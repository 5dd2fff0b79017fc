"""The ranked half in the browser: find-rank.js scores entries exactly as lunr.js's own query
would, without lunr.js (loading it and rebuilding lunr's index was most of the wait for the
first ranked query on a long page; its per-document match objects made a query of common words
cost hundreds of milliseconds)."""

from __future__ import annotations

from pathlib import Path

import mkdocs
import pytest
import yaml

from pytorch_error_lookup.lookup import Lookup
from pytorch_error_lookup.rank import query_terms
from test_find_index import expand_index, shipped_index
from test_find_tokenize import ODD_INPUTS

pytestmark = pytest.mark.browser

# lunr.js 2.3.9 as the installed MkDocs ships it: the reference the scores are held to.
LUNR_JS = Path(mkdocs.__file__).parent / "contrib" / "search" / "templates" / "search" / "lunr.js"
PASTED = yaml.safe_load((Path(__file__).parent / "fixtures" / "pasted_errors.yml").read_text(encoding="utf-8"))
TEXTS = [case["pasted"] for case in PASTED] + ODD_INPUTS + [
    "验证集精度比训练差",
    "RuntimeError error tensor",  # only words most entries hold
    "size mismatch for head.weight: copying a param with shape torch.Size([10, 512])",
]

COMPARE_JS = """async ([serialized, texts]) => {
    const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
    const rankModule = await import(new URL("find-rank.js", base));
    const ranker = await rankModule.loadRanker(document.querySelector("[data-find]").dataset.findPage);
    const index = lunr.Index.load(serialized);
    const order = new Map([...document.querySelectorAll("[data-entry]")].map((entry, i) => [entry.id, i]));
    const position = (id) => order.get(id) ?? Infinity;
    const compared = [];
    for (const text of texts) {
        const terms = rankModule.queryTerms(text);
        const inLunr = terms.filter((term) => Object.hasOwn(index.invertedIndex, term));
        const known = terms.filter((term) => ranker.has(term));
        const byLunr = inLunr.length === 0 ? [] : index.query((query) => {
            for (const term of inLunr) query.term(term, { usePipeline: false });
        });
        const ours = known.length === 0 ? [] : ranker.scoreAll(known);
        const asMap = (results) => Object.fromEntries(results.map(({ ref, score }) => [ref, score]));
        const ranked = rankModule.rank(ranker, text, order).map(({ id }) => id);
        // What rank() did through lunr before: the discriminating terms (no stop words, as
        // lunr's own stopWordFilter leaves out), index.query(), a full sort.
        const entries = Object.keys(index.fieldVectors).length / index.fields.length;
        const holding = (term) => Math.max(...index.fields.map((field) => Object.keys(index.invertedIndex[term][field]).length));
        const content = inLunr.filter((term) => lunr.stopWordFilter(new lunr.Token(term)) !== undefined);
        const rare = content.filter((term) => holding(term) <= entries * 0.2);
        const chosen = rare.length > 0 ? rare : content;
        const throughLunr = chosen.length === 0 ? [] : index.query((query) => {
            for (const term of chosen) query.term(term, { usePipeline: false });
        }).sort((a, b) => b.score - a.score || position(a.ref) - position(b.ref)).slice(0, 5).map(({ ref }) => ref);
        compared.push({ known, inLunr, lunr: asMap(byLunr), ours: asMap(ours), ranked, throughLunr });
    }
    return compared;
}"""


def test_scores_and_ranking_are_lunrs_own_for_every_text(page, site_url, built_site):
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    key = page.get_attribute("[data-find]", "data-find-page")
    page.add_script_tag(path=str(LUNR_JS))  # for the comparison only: the page itself never loads lunr.js
    compared = page.evaluate(COMPARE_JS, [expand_index(shipped_index(built_site, key)), TEXTS])
    assert sum(1 for result in compared if result["lunr"]) > 30  # most texts do score entries
    for text, result in zip(TEXTS, compared):
        assert result["known"] == result["inLunr"], text[:80]  # the same terms are in the index
        assert result["ours"] == result["lunr"], text[:80]  # the same entries, the very same floats
        assert result["ranked"] == result["throughLunr"], text[:80]


def test_the_terminal_ranks_as_the_page_does_without_lunr(page, site_url):
    """pytorch_error_lookup.rank (the command's, lunr never imported) against find-rank.js (held
    to lunr.js above): the same terms, the same floats, the same order, for every text."""
    page.goto(site_url + "pytorch/appendix-a.html")
    page.wait_for_selector("[data-find-copy]", state="attached")
    in_browser = page.evaluate(
        """async (texts) => {
            const base = new URL("assets/refsite/", document.baseURI.replace(/[^/]*$/, "../"));
            const rankModule = await import(new URL("find-rank.js", base));
            const ranker = await rankModule.loadRanker(document.querySelector("[data-find]").dataset.findPage);
            const order = new Map([...document.querySelectorAll("[data-entry]")].map((entry, i) => [entry.id, i]));
            return texts.map((text) => {
                const known = rankModule.queryTerms(text).filter((term) => ranker.has(term));
                return { scores: known.length ? ranker.scoreAll(known).map(({ ref, score }) => [ref, score]) : [],
                         ranked: rankModule.rank(ranker, text, order).map(({ id }) => id) };
            });
        }""",
        TEXTS,
    )
    lookup_page = Lookup.installed().pages[0]
    for text, js in zip(TEXTS, in_browser):
        terms = query_terms(text)
        known = [term for term in terms if term in lookup_page.ranker.term_numbers]
        scores = [list(pair) for pair in lookup_page.ranker.score_all(known)] if known else []
        assert scores == js["scores"], text[:80]
        assert lookup_page.rank(text) == js["ranked"], text[:80]


def test_a_pasted_line_is_ranked_without_lunr_js(page, site_url):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site_url + "pytorch/appendix-a.html")
    page.fill("[data-find-input]", "RuntimeError: Given groups=1, weight of size [8, 3, 3, 3], expected input[4, 1, 28, 28] to have 3 channels")
    page.wait_for_selector("[data-find-suggestions] a")
    assert page.evaluate("typeof window.lunr") == "undefined"
    assert not [url for url in requested if "lunr" in url.rsplit("/", 1)[-1] and "/refsite/" in url]


def test_the_lookup_data_is_fetched_while_the_reader_reads(page, site_url):
    # Issue "Fast on a phone": the first paste must not wait on the network for the templates
    # and the index, so they are fetched at idle once the page has loaded, with nothing typed.
    page.goto(site_url + "pytorch/appendix-a.html")
    fetched = """() => performance.getEntriesByType("resource")
        .filter((entry) => entry.name.includes("/find-index/"))"""
    page.wait_for_function(fetched + ".length === 2")
    starts = page.evaluate(f"() => ({fetched})().map((entry) => entry.startTime)")
    painted = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0")
    assert min(starts) >= painted  # never before the first paint: nothing the first screen waits on
    page.fill("[data-find-input]", "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7 and 9x2)")
    page.wait_for_function("() => document.querySelector('[data-find]').dataset.findVerdict === 'match'")
    assert page.evaluate(fetched + ".length") == 2  # nothing fetched again
