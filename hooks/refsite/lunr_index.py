"""A serialized lunr 2.3.9 index, written directly from already-tokenized fields.

lunr.py's `Builder` does the same and more: it wraps every term in a `Token`, keeps a sorted
`Vector` per field with list inserts, and builds a `TokenSet` that serialization never uses. At
10,000 entries that cost ~10 s of a build. This module computes exactly what
`Builder(...).build().serialize()` returns, with an empty pipeline and no metadata, for terms
that are already final; `tests/test_lunr_index.py` checks it is equal, key for key, to lunr.py's
output. The formulas are lunr's: BM25 with k1 = 1.2 and b = 0.75, scores rounded to 3 places.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

LUNR_JS_VERSION = "2.3.9"
K1 = 1.2
B = 0.75


def serialized_index(documents: Iterable[Mapping[str, Any]], fields: Mapping[str, float],
                     terms_of: Callable[[Mapping[str, Any], str], list[str]], ref: str = "id") -> dict:
    """`fields` maps field name → boost; `terms_of(document, field)` gives that field's terms."""
    inverted: dict[str, dict] = {}  # term -> {field: {doc ref: {}}, "_index": n}, as lunr keeps it
    field_terms: list[tuple[str, str, Counter, int]] = []  # (field, doc ref, term counts, length)
    lengths = dict.fromkeys(fields, 0)
    document_count = 0

    for document in documents:
        document_count += 1
        doc_ref = str(document[ref])
        for field in fields:
            terms = [str(term).lower() for term in terms_of(document, field)]
            counts = Counter(terms)
            field_terms.append((field, doc_ref, counts, len(terms)))
            lengths[field] += len(terms)
            for term in counts:  # first-occurrence order: lunr numbers terms as it meets them
                posting = inverted.get(term)
                if posting is None:
                    posting = inverted[term] = {name: {} for name in fields}
                    posting["_index"] = len(inverted) - 1
                posting[field][doc_ref] = {}

    average_length = {field: lengths[field] / document_count if document_count else 0 for field in fields}
    idf = {
        term: math.log(1 + abs((document_count - with_term + 0.5) / (with_term + 0.5)))
        for term, posting in inverted.items()
        for with_term in [sum(len(posting[field]) for field in fields)]
    }

    field_vectors = []
    for field, doc_ref, counts, length in field_terms:
        norm = K1 * (1 - B + B * (length / average_length[field])) if length else K1 * (1 - B)
        elements = []
        for term, frequency in sorted(counts.items(), key=lambda item: inverted[item[0]]["_index"]):
            score = round(idf[term] * ((K1 + 1) * frequency) / (norm + frequency) * fields[field], 3)
            elements += (inverted[term]["_index"], score)
        field_vectors.append([f"{field}/{doc_ref}", elements])

    return {
        "version": LUNR_JS_VERSION,
        "fields": list(fields),
        "fieldVectors": field_vectors,
        "invertedIndex": [[term, inverted[term]] for term in sorted(inverted)],
        "pipeline": [],
    }
