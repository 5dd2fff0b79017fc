"""Our direct lunr serializer gives exactly what lunr.py's Builder gives."""

import json
import random
from pathlib import Path

import pytest
from lunr.builder import Builder

from refsite.find_index import FIELDS, documents_for, tokenize
from refsite.lunr_index import serialized_index
from refsite.pipeline import load_site

DATA = Path(__file__).resolve().parent.parent / "data"


def lunr_py_index(documents, fields, terms_of):
    """The reference: lunr.py 0.8's own builder, pipeline off, fed the same terms."""
    builder = Builder()
    builder.ref("id")
    for name, boost in fields.items():
        builder.field(name, boost=boost, extractor=lambda doc, name=name: terms_of(doc, name))
    for document in documents:
        builder.add(document)
    return builder.build().serialize()


def as_json(index):
    return json.dumps(index, ensure_ascii=False, sort_keys=False)


def test_matches_lunr_py_on_the_real_page():
    page = load_site(DATA).book("pytorch").pages[0]
    documents = documents_for(page)
    terms_of = lambda document, field: tokenize(document[field])  # noqa: E731
    assert as_json(serialized_index(documents, FIELDS, terms_of)) == as_json(
        lunr_py_index(documents, FIELDS, terms_of))


@pytest.mark.parametrize("seed", range(5))
def test_matches_lunr_py_on_random_documents(seed):
    rng = random.Random(seed)
    vocabulary = ["grad", "tensor", "验证", "证集", "x", "Shape", "dtype", "backward"]
    documents = [
        {"id": f"d{n}", **{field: [rng.choice(vocabulary) for _ in range(rng.randint(0, 12))]
                           for field in ("head", "body")}}
        for n in range(rng.randint(1, 40))
    ]
    fields = {"head": rng.choice([1, 4, 2.5]), "body": 1}
    terms_of = lambda document, field: document[field]  # noqa: E731
    assert as_json(serialized_index(documents, fields, terms_of)) == as_json(
        lunr_py_index(documents, fields, terms_of))
