"""The ranked index written at build time: what goes in, where it lands, and that lunr can read it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from lunr.index import Index

from refsite.find_index import (
    INDEX_GLOBAL,
    INDEX_URL_PATTERN,
    build_index,
    compact_index,
    documents_for,
    tokenize,
)
from refsite.pipeline import load_site

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def appendix():
    site = load_site(ROOT / "data")
    return next(page for book in site.included_books for page in book.pages if page.id == "appendix-a")


def rank(index: Index, text: str) -> list[str]:
    query = index.create_query()
    for term in dict.fromkeys(tokenize(text)):
        query.term(term, use_pipeline=False)
    return [result["ref"] for result in index.query(query)]


def expand_index(compact: Mapping[str, Any]) -> dict[str, Any]:
    """The serialized lunr index a compact one came from: the compact form loses nothing
    lunr reads (and lunr.py / lunr.js can load what the page ranks with, to compare)."""
    fields = compact["fields"]
    postings = [{field: {} for field in fields} | {"_index": number} for number in range(len(compact["terms"]))]
    for field_ref, elements in compact["fieldVectors"]:
        field, _, doc_ref = field_ref.partition("/")
        for number in elements[::2]:
            postings[number][field][doc_ref] = {}
    inverted = sorted(zip(compact["terms"], postings), key=lambda pair: pair[0])
    return {key: compact[key] for key in ("version", "fields")} | {
        "fieldVectors": compact["fieldVectors"], "invertedIndex": [list(pair) for pair in inverted],
        "pipeline": compact["pipeline"]}


def test_documents_are_the_rows_that_answer_an_error(appendix):
    expected = [entry.id for section in appendix.sections for entry in section.entries]
    documents = documents_for(appendix)
    assert [document["id"] for document in documents] == expected
    by_id = {document["id"]: document for document in documents}
    assert "Original Traceback" in by_id["worker-envelope"]["head"]  # the second line is part of it
    assert "验证集精度" in by_id["forgot-eval"]["head"]
    assert "model.eval()" in by_id["forgot-eval"]["body"]


def test_index_terms_are_exactly_the_tokenizer_terms(appendix):
    documents = documents_for(appendix)
    serialized = build_index(documents)
    terms = {term for term, _ in serialized["invertedIndex"]}
    expected = ({token for document in documents for token in tokenize(document["head"])}
                | {token for document in documents for token in tokenize(document["body"], cjk=False)})
    assert terms == expected
    assert serialized["pipeline"] == []  # lunr's own trimmer and stemmer would undo the tokenizer


def test_chinese_is_indexed_from_what_readers_see_not_from_the_explanations(appendix):
    # Bigrams of the causes made most of the index at 10,000 entries; pasted lines never hold them.
    documents = {document["id"]: document for document in documents_for(appendix)}
    terms = {term for term, _ in build_index(documents.values())["invertedIndex"]}
    assert "验证" in terms  # from the symptom 验证集精度…, in `head`
    assert "默认" not in tokenize(documents["backward-twice"]["head"])
    assert "默认" in tokenize(documents["backward-twice"]["body"])  # ⭐ 图默认用完就扔, a cause
    assert "默认" not in terms
    assert "retain_graph" in terms  # the causes' code still counts


def test_the_shipped_index_is_compact_and_expands_to_the_same_index(appendix):
    serialized = build_index(documents_for(appendix))
    compact = compact_index(serialized)
    assert "invertedIndex" not in compact
    assert len(json.dumps(compact)) < 0.7 * len(json.dumps(serialized))
    assert expand_index(compact) == serialized


def test_chinese_symptom_ranks_the_forgotten_eval_first(appendix):
    index = Index.load(build_index(documents_for(appendix)))
    assert rank(index, "验证集精度比训练差")[0] == "forgot-eval"


def shipped_index(site_dir: Path, key: str) -> dict:
    """The compact index a built site ships for the page `key`."""
    script = (site_dir / INDEX_URL_PATTERN.format(key=key)).read_text(encoding="utf-8")
    prefix = f"globalThis.{INDEX_GLOBAL}="
    assert script.startswith(prefix)
    return json.loads(script[len(prefix):].rstrip().rstrip(";"))


def test_build_writes_an_index_lunr_can_load(built_site, appendix):
    compact = shipped_index(built_site, appendix.key)
    assert expand_index(compact) == build_index(documents_for(appendix))
    index = Index.load(expand_index(compact))
    assert rank(index, "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x7 and 9x2)")[0] == "matmul-shapes"
    # The page scores with the index alone (find-rank.js): no copy of lunr.js is shipped for it.
    assert not list(built_site.glob("assets/refsite/**/lunr*.js"))
