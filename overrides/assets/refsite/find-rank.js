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

function loadScript(url) {
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
        const serialized = globalThis[INDEX_GLOBAL];
        delete globalThis[INDEX_GLOBAL];
        return window.lunr.Index.load(serialized);
      })
      .catch((error) => {
        indexes.delete(pageKey);
        throw error;
      }));
  }
  return indexes.get(pageKey);
}

export function queryTerms(text) {
  return [...new Set(tokenize(text))].slice(0, MAX_TERMS);
}

const statistics = new WeakMap(); // index -> { entries, frequency: Map(term -> entries holding it) }

function statisticsOf(index) {
  if (!statistics.has(index)) {
    statistics.set(index, { entries: Object.keys(index.fieldVectors).length / index.fields.length, frequency: new Map() });
  }
  return statistics.get(index);
}

function documentFrequency(index, term) {
  const { frequency } = statisticsOf(index);
  if (!frequency.has(term)) {
    const posting = index.invertedIndex[term];
    frequency.set(term, Math.max(...index.fields.map((field) => Object.keys(posting[field] ?? {}).length)));
  }
  return frequency.get(term);
}

/** The terms that are in the index, without those common to most entries (unless that is all). */
function discriminating(index, terms) {
  const { entries } = statisticsOf(index);
  const known = terms.filter((term) => Object.hasOwn(index.invertedIndex, term));
  const rare = known.filter((term) => documentFrequency(index, term) <= entries * COMMON_TERM_SHARE);
  return rare.length > 0 ? rare : known;
}

/**
 * The entries closest to `text`, best first: [{ id, score }]. The terms go in as terms, never
 * through idx.search(), whose query syntax (`:`, `^`, `~`, `*`, `+`, `-`) a pasted line is full of.
 * Ties keep page order (`order`: entry id -> position).
 */
export function rank(index, text, order) {
  const terms = discriminating(index, queryTerms(text));
  if (terms.length === 0) return [];
  const results = index.query((query) => {
    for (const term of terms) query.term(term, { usePipeline: false });
  });
  const position = (id) => order.get(id) ?? Infinity;
  return results
    .sort((a, b) => b.score - a.score || position(a.ref) - position(b.ref))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ ref, score }) => ({ id: ref, score }));
}
