// Ranked search for text that is not on the page, over the index hooks/refsite/find_index.py
// wrote for this page: lunr's serialized index, compacted (its terms by number, and the field
// vectors), as a classic script, which loads from `file://` too, where fetch() is refused.
// The scores are lunr.js's own (tests/test_find_rank.py holds them equal, float for float), but
// the page never loads lunr.js: a query reads only the term numbers and the field vectors, and
// rebuilding lunr's index from them (its postings and token set, tens of thousands of objects on
// a long page) was work, and garbage, that the reader's first ranked query waited for.

import { loadScript } from "./find-script.js";
import { distinctTokens } from "./find-tokenize.js";

const INDEX_GLOBAL = "refsiteFindIndex";
// A 10,000-character paste yields thousands of terms; the first distinct ones say enough.
const MAX_TERMS = 256;
export const MAX_SUGGESTIONS = 5;
// A term found in more than this share of the entries barely moves a score (its idf is near
// zero) but makes lunr score nearly every entry: it is left out while rarer terms remain.
export const COMMON_TERM_SHARE = 0.2;

const rankers = new Map(); // page key -> Promise<Ranker>

export function indexUrl(pageKey) {
  return new URL(`./find-index/${pageKey}.js`, import.meta.url).href;
}

/** The index's script fetched ahead (at idle): the Ranker is built from it on first use, not in
 * whichever task its load event lands in (on a phone, often a keystroke's). */
export function fetchIndex(pageKey) {
  return loadScript(indexUrl(pageKey));
}

/** This page's Ranker, loaded on first use. */
export function loadRanker(pageKey) {
  if (!rankers.has(pageKey)) {
    rankers.set(pageKey, loadScript(indexUrl(pageKey))
      .then(() => {
        // The index script ran synchronously before its load event: take what it set.
        const compact = globalThis[INDEX_GLOBAL];
        delete globalThis[INDEX_GLOBAL];
        return new Ranker(compact);
      })
      .catch((error) => {
        rankers.delete(pageKey);
        throw error;
      }));
  }
  return rankers.get(pageKey);
}

export function queryTerms(text) {
  return distinctTokens(text, MAX_TERMS);
}

/**
 * The page's index as flat arrays, and the scores lunr's `index.query()` gives for plain terms
 * (BM25 weights stored per field vector, summed over the query's terms and divided by the query
 * vector's length, then summed over fields), without its per-document match objects. Those made
 * a query of words common to most entries (a real torch line on a page of 10,000 synthetic rows)
 * cost 25-350 ms; this one scan of the field vectors costs the same few milliseconds for every
 * query.
 */
export class Ranker {
  /**
   * `compact`: what find_index.py's `compact_index` wrote (`terms`, `fields`, `fieldVectors`, and
   * `stopWords`: the numbers of the terms no query is ranked on, pytorch_error_lookup.rank.STOP_WORDS).
   */
  constructor({ terms, fields, fieldVectors, stopWords = [] }) {
    this.termNumbers = new Map(terms.map((term, number) => [term, number]));
    this.stopNumbers = new Set(stopWords);
    let length = 0;
    for (const [, elements] of fieldVectors) length += elements.length / 2;
    // Field vector v holds numbers/weights [ends[v - 1], ends[v]) and belongs to documentOf[v].
    this.numbers = new Int32Array(length);
    this.weights = new Float64Array(length);
    this.ends = new Int32Array(fieldVectors.length);
    this.documentOf = new Int32Array(fieldVectors.length);
    this.documents = []; // entry ids, in the order their first field vector comes
    const documentNumber = new Map();
    // Entries holding each term, the most over fields (what lunr's postings would say).
    const byField = new Map(fields.map((field) => [field, new Int32Array(terms.length)]));
    let at = 0;
    fieldVectors.forEach(([fieldRef, elements], v) => {
      const slash = fieldRef.indexOf("/");
      const ref = fieldRef.slice(slash + 1);
      const holding = byField.get(fieldRef.slice(0, slash));
      if (!documentNumber.has(ref)) {
        documentNumber.set(ref, this.documents.length);
        this.documents.push(ref);
      }
      this.documentOf[v] = documentNumber.get(ref);
      for (let k = 0; k < elements.length; k += 2) {
        this.numbers[at] = elements[k];
        this.weights[at] = elements[k + 1];
        holding[elements[k]] += 1;
        at += 1;
      }
      this.ends[v] = at;
    });
    this.frequency = new Int32Array(terms.length);
    for (const holding of byField.values()) {
      for (let n = 0; n < terms.length; n++) this.frequency[n] = Math.max(this.frequency[n], holding[n]);
    }
    // Reused by every query.
    this.wanted = new Uint8Array(terms.length);
    this.scores = new Float64Array(this.documents.length);
    this.hit = new Uint8Array(this.documents.length);
  }

  /** Whether the index holds `term`. */
  has(term) {
    return this.termNumbers.has(term);
  }

  /** The terms that are in the index and not its stop words, without those common to most entries (unless that is all). */
  discriminating(terms) {
    const known = terms.filter((term) => this.has(term) && !this.stopNumbers.has(this.termNumbers.get(term)));
    const limit = this.documents.length * COMMON_TERM_SHARE;
    const rare = known.filter((term) => this.frequency[this.termNumbers.get(term)] <= limit);
    return rare.length > 0 ? rare : known;
  }

  /** Every entry holding one of `terms` (all in the index, distinct), with lunr's score: [{ ref, score }]. */
  scoreAll(terms) {
    const { numbers, weights, ends, documentOf, documents, wanted, scores, hit } = this;
    const magnitude = Math.sqrt(terms.length);
    for (const term of terms) wanted[this.termNumbers.get(term)] = 1;
    scores.fill(0);
    hit.fill(0);
    let start = 0;
    for (let v = 0; v < ends.length; v++) {
      // One field of one entry: lunr's dot product, in the vector's (term number) order.
      let dot = 0;
      let matched = false;
      for (let k = start; k < ends[v]; k++) {
        if (wanted[numbers[k]]) {
          dot += weights[k];
          matched = true;
        }
      }
      start = ends[v];
      if (!matched) continue;
      scores[documentOf[v]] += dot / magnitude || 0;
      hit[documentOf[v]] = 1;
    }
    for (const term of terms) wanted[this.termNumbers.get(term)] = 0;
    const results = [];
    for (let d = 0; d < documents.length; d++) if (hit[d]) results.push({ ref: documents[d], score: scores[d] });
    return results;
  }
}

/**
 * The entries closest to `text`, best first: [{ id, score }]. The terms are looked up as they
 * are: a pasted line is full of what lunr's idx.search() would read as query syntax (`:`, `^`,
 * `~`, `*`, `+`, `-`). Ties keep page order (`order`: entry id -> position).
 */
export function rank(ranker, text, order) {
  const terms = ranker.discriminating(queryTerms(text));
  if (terms.length === 0) return [];
  const position = (id) => order.get(id) ?? Infinity;
  const best = []; // the MAX_SUGGESTIONS best so far, in order: no sort of thousands of results
  for (const result of ranker.scoreAll(terms)) {
    if (best.length === MAX_SUGGESTIONS && !before(result, best[best.length - 1], position)) continue;
    let at = best.length;
    while (at > 0 && before(result, best[at - 1], position)) at -= 1;
    best.splice(at, 0, result);
    if (best.length > MAX_SUGGESTIONS) best.pop();
  }
  return best.map(({ ref, score }) => ({ id: ref, score }));
}

/**
 * The suggestions: the rows in `first` (whose own words fit the text, though it is not their
 * situation: the closest there are), in page order, then the `ranked` ones ({ id, score });
 * MAX_SUGGESTIONS in all (pytorch_error_lookup.rank.suggested_first).
 */
export function suggestedFirst(ranked, first, order) {
  const lead = [...first].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity)).map((id) => ({ id }));
  return [...lead, ...ranked.filter(({ id }) => !first.has(id))].slice(0, MAX_SUGGESTIONS);
}

function before(a, b, position) {
  return a.score > b.score || (a.score === b.score && position(a.ref) < position(b.ref));
}
