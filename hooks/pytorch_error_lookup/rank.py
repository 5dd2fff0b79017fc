"""The ranked suggestions for an error the page does not cover, without lunr.

The page's index is lunr's, compacted by the build (refsite.find_index.compact_index: its terms
by number, and the field vectors with their BM25 weights). The score of an entry is what lunr's
`index.query()` gives plain terms: per field, the weights of the query's terms summed and divided
by the query vector's length, summed over fields. This is the mirror, step for step, of
find-rank.js's Ranker; tests/test_find_rank.py holds both to lunr.js, float for float. (lunr.py
did the same here, but importing it was half of a ranked answer's wait in the terminal.)

Standard library only.
"""

from __future__ import annotations

import math

from .textfold import distinct_tokens

# A 10,000-character paste yields thousands of terms; the first distinct ones say enough.
MAX_TERMS = 256
MAX_SUGGESTIONS = 5
# A term found in more than this share of the entries barely moves a score (its idf is near
# zero) but makes every entry a result: it is left out while rarer terms remain.
COMMON_TERM_SHARE = 0.2
# lunr's English stop words (lunr.stopWordFilter): what a sentence has whatever it is about. A
# description in words (`loss since 2nd epoch becomes huge and unchanged`) is ranked on its
# other words, not on `and`, `on` and `that`, which short rows' scores inflate. The build marks
# those of an index's terms in the index itself (`stopWords`), which both rankers read.
STOP_WORDS = frozenset(
    "a able about across after all almost also am among an and any are as at be because been but by can cannot "
    "could dear did do does either else ever every for from get got had has have he her hers him his how however "
    "i if in into is it its just least let like likely may me might most must my neither no nor not of off often "
    "on only or other our own rather said say says she should since so some than that the their them then there "
    "these they this tis to too twas us wants was we were what when where which while who whom why will with "
    "would yet you your".split())


def query_terms(text: str) -> list[str]:
    """The query's first MAX_TERMS distinct terms, in order (find-rank.js queryTerms)."""
    return distinct_tokens(text, MAX_TERMS)


class Ranker:
    """One page's index, as find-rank.js reads it."""

    def __init__(self, compact: dict):
        terms = compact["terms"]
        self.term_numbers = {term: number for number, term in enumerate(terms)}
        self.documents: list[str] = []  # entry ids, in the order their first field vector comes
        self.vectors: list[tuple[int, list[int], list[float]]] = []  # (document, term numbers, weights)
        numbers_of: dict[str, int] = {}
        # Entries holding each term, the most over fields (what lunr's postings would say).
        holding = {field: [0] * len(terms) for field in compact["fields"]}
        for field_ref, elements in compact["fieldVectors"]:
            field, _, ref = field_ref.partition("/")
            if ref not in numbers_of:
                numbers_of[ref] = len(self.documents)
                self.documents.append(ref)
            numbers = elements[0::2]
            for number in numbers:
                holding[field][number] += 1
            self.vectors.append((numbers_of[ref], numbers, elements[1::2]))
        self.frequency = [max(counts) for counts in zip(*holding.values())]
        self.stop_numbers = frozenset(compact.get("stopWords", ()))

    def discriminating(self, terms: list[str]) -> list[str]:
        """The terms that are in the index and not its stop words, without those common to most
        entries (unless that is all)."""
        known = [term for term in terms
                 if (number := self.term_numbers.get(term)) is not None and number not in self.stop_numbers]
        limit = len(self.documents) * COMMON_TERM_SHARE
        rare = [term for term in known if self.frequency[self.term_numbers[term]] <= limit]
        return rare or known

    def score_all(self, terms: list[str]) -> list[tuple[str, float]]:
        """Every entry holding one of `terms` (all in the index, distinct) with lunr's score, in
        document order."""
        wanted = {self.term_numbers[term] for term in terms}
        magnitude = math.sqrt(len(terms))
        scores: dict[int, float] = {}
        for document, numbers, weights in self.vectors:
            # One field of one entry: lunr's dot product, in the vector's (term number) order.
            dot = 0.0
            matched = False
            for number, weight in zip(numbers, weights):
                if number in wanted:
                    dot += weight
                    matched = True
            if matched:
                scores[document] = scores.get(document, 0.0) + dot / magnitude
        return [(self.documents[document], scores[document]) for document in sorted(scores)]

    def rank(self, terms: list[str], order: dict[str, int]) -> list[str]:
        """The MAX_SUGGESTIONS entries closest to a query's terms (`query_terms`), best first;
        ties in page order (`order`: entry id -> position)."""
        chosen = self.discriminating(terms)
        if not chosen:
            return []
        results = self.score_all(chosen)
        results.sort(key=lambda result: (-result[1], order.get(result[0], math.inf)))  # stable
        return [ref for ref, _ in results[:MAX_SUGGESTIONS]]


def suggested_first(ranked: list[str], first: set[str] | frozenset[str], order: dict[str, int]) -> list[str]:
    """The suggestions: the rows in `first` (whose own words fit the text, though it is not
    their situation: the closest there are), in page order, then the ranked ones;
    MAX_SUGGESTIONS in all (find-rank.js suggestedFirst)."""
    lead = sorted(first, key=lambda row: order.get(row, math.inf))
    return (lead + [row for row in ranked if row not in first])[:MAX_SUGGESTIONS]
