// Ranked search for text that is not on the page: lunr.js (the copy MkDocs ships, copied into the
// site at build time) over the index hooks/refsite/find_index.py wrote for this page. Both come
// as classic scripts, which load from `file://` too, where fetch() is refused.

import { tokenize } from "./find-tokenize.js";

const LUNR_URL = new URL("./vendor/lunr.js", import.meta.url).href;
const INDEX_GLOBAL = "refsiteFindIndex";
// A 10,000-character paste yields thousands of terms; the first distinct ones say enough.
const MAX_TERMS = 256;
export const MAX_SUGGESTIONS = 5;
// A term found in more than this share of the entries barely moves a score (its idf is near
// zero) but makes lunr score nearly every entry: it is left out while rarer terms remain.
const COMMON_TERM_SHARE = 0.2;

const scripts = new Map(); // url -> Promise, so each script loads once per session

export function loadScript(url) {
  if (!scripts.has(url)) {
    scripts.set(url, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.onload = () => resolve(script);
      script.onerror = () => {
        scripts.delete(url);
        reject(new Error(`could not load ${url}`));
      };
      document.head.append(script);
    }));
  }
  return scripts.get(url);
}

const indexes = new Map(); // page key -> Promise<lunr.Index>

export function indexUrl(pageKey) {
  return new URL(`./find-index/${pageKey}.js`, import.meta.url).href;
}

/** lunr and this page's index, loaded on first use. */
export function loadRanker(pageKey) {
  if (!indexes.has(pageKey)) {
    const url = indexUrl(pageKey);
    indexes.set(pageKey, loadScript(LUNR_URL)
      .then(() => loadScript(url))
      .then(() => {
        // The index script ran synchronously before its load event: take what it set.
        const compact = globalThis[INDEX_GLOBAL];
        delete globalThis[INDEX_GLOBAL];
        return window.lunr.Index.load(expandIndex(compact));
      })
      .catch((error) => {
        indexes.delete(pageKey);
        throw error;
      }));
  }
  return indexes.get(pageKey);
}

/**
 * The serialized lunr index that the page's compact index came from (the mirror of
 * `expand_index` in hooks/refsite/find_index.py): the compact one carries the terms, by lunr's
 * number, and the field vectors; each term's postings are the field vectors that hold it.
 */
export function expandIndex({ version, fields, pipeline, terms, fieldVectors }) {
  const postings = terms.map((term, number) => {
    const posting = { _index: number };
    for (const field of fields) posting[field] = {};
    return posting;
  });
  for (const [fieldRef, elements] of fieldVectors) {
    const slash = fieldRef.indexOf("/");
    const field = fieldRef.slice(0, slash);
    const docRef = fieldRef.slice(slash + 1);
    for (let k = 0; k < elements.length; k += 2) postings[elements[k]][field][docRef] = {};
  }
  // lunr builds its token set from the terms in sorted order.
  const invertedIndex = terms.map((term, number) => [term, postings[number]])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { version, fields, pipeline, fieldVectors, invertedIndex };
}

export function queryTerms(text) {
  return [...new Set(tokenize(text))].slice(0, MAX_TERMS);
}

// Scoring, computed directly from lunr's loaded index: the same numbers lunr's `index.query()`
// gives for these plain terms (BM25 weights stored per field vector, summed over the query's
// terms and divided by the query vector's length, then summed over fields), without its
// per-document match objects. Those made a query of words common to most entries (a real torch
// line on a page of 10,000 synthetic rows) cost 25-350 ms; this one scan of the field vectors
// costs the same few milliseconds for every query. tests/test_find_rank.py holds both equal.

const scorers = new WeakMap(); // lunr index -> its field vectors as flat arrays, and term statistics

function scorerOf(index) {
  let scorer = scorers.get(index);
  if (scorer) return scorer;
  const vectors = Object.entries(index.fieldVectors);
  const termCount = Object.keys(index.invertedIndex).length;
  let length = 0;
  for (const [, vector] of vectors) length += vector.elements.length / 2;
  const numbers = new Int32Array(length);
  const weights = new Float64Array(length);
  const ends = new Int32Array(vectors.length);
  const documentOf = new Int32Array(vectors.length);
  const documents = [];
  const documentNumber = new Map();
  // Entries holding each term, the most over fields (what lunr's postings would say).
  const byField = new Map(index.fields.map((field) => [field, new Int32Array(termCount)]));
  let at = 0;
  vectors.forEach(([fieldRef, vector], v) => {
    const slash = fieldRef.indexOf("/");
    const ref = fieldRef.slice(slash + 1);
    const holding = byField.get(fieldRef.slice(0, slash));
    if (!documentNumber.has(ref)) {
      documentNumber.set(ref, documents.length);
      documents.push(ref);
    }
    documentOf[v] = documentNumber.get(ref);
    const { elements } = vector;
    for (let k = 0; k < elements.length; k += 2) {
      numbers[at] = elements[k];
      weights[at] = elements[k + 1];
      holding[elements[k]] += 1;
      at += 1;
    }
    ends[v] = at;
  });
  const frequency = new Int32Array(termCount);
  for (const holding of byField.values()) {
    for (let n = 0; n < termCount; n++) frequency[n] = Math.max(frequency[n], holding[n]);
  }
  scorer = {
    numbers, weights, ends, documentOf, documents, frequency,
    wanted: new Uint8Array(termCount),
    scores: new Float64Array(documents.length),
    hit: new Uint8Array(documents.length),
  };
  scorers.set(index, scorer);
  return scorer;
}

/** The terms that are in the index, without those common to most entries (unless that is all). */
function discriminating(index, terms) {
  const { documents, frequency } = scorerOf(index);
  const known = terms.filter((term) => Object.hasOwn(index.invertedIndex, term));
  const rare = known.filter((term) => frequency[index.invertedIndex[term]._index] <= documents.length * COMMON_TERM_SHARE);
  return rare.length > 0 ? rare : known;
}

/** Every entry holding one of `terms` (all in the index, distinct), with lunr's score: [{ ref, score }]. */
export function scoreAll(index, terms) {
  const { numbers, weights, ends, documentOf, documents, wanted, scores, hit } = scorerOf(index);
  const magnitude = Math.sqrt(terms.length);
  for (const term of terms) wanted[index.invertedIndex[term]._index] = 1;
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
  for (const term of terms) wanted[index.invertedIndex[term]._index] = 0;
  const results = [];
  for (let d = 0; d < documents.length; d++) if (hit[d]) results.push({ ref: documents[d], score: scores[d] });
  return results;
}

/**
 * The entries closest to `text`, best first: [{ id, score }]. The terms go in as terms, never
 * through idx.search(), whose query syntax (`:`, `^`, `~`, `*`, `+`, `-`) a pasted line is full of.
 * Ties keep page order (`order`: entry id -> position).
 */
export function rank(index, text, order) {
  const terms = discriminating(index, queryTerms(text));
  if (terms.length === 0) return [];
  const position = (id) => order.get(id) ?? Infinity;
  const best = []; // the MAX_SUGGESTIONS best so far, in order: no sort of thousands of results
  for (const result of scoreAll(index, terms)) {
    if (best.length === MAX_SUGGESTIONS && !before(result, best[best.length - 1], position)) continue;
    let at = best.length;
    while (at > 0 && before(result, best[at - 1], position)) at -= 1;
    best.splice(at, 0, result);
    if (best.length > MAX_SUGGESTIONS) best.pop();
  }
  return best.map(({ ref, score }) => ({ id: ref, score }));
}

function before(a, b, position) {
  return a.score > b.score || (a.score === b.score && position(a.ref) < position(b.ref));
}
