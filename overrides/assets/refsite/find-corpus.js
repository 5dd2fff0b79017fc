// The page's searchable text, prepared once (CorpusBuilder, in slices): every [data-find-text]
// element's text nodes folded (find-fold.js) into one string, with a map from each folded character back to its text node
// and offset. A keystroke then costs one indexOf loop over a string plus StaticRanges for the hits.

import { firstIndexWhere } from "./find-bisect.js";
import { foldText } from "./find-fold.js";

// Between elements, so that no match runs from one cell into the next (queries never hold it).
const SEPARATOR = "\n";

export class GrowableInt32 {
  constructor(capacity) { this.array = new Int32Array(capacity); this.length = 0; }
  clear() { this.length = 0; }
  /** The filled part, without copying (valid until the next clear or push). */
  view() { return this.array.subarray(0, this.length); }
  push(value) {
    if (this.length === this.array.length) {
      const bigger = new Int32Array(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }
}

/** Index of the last item of the sorted `starts` that is <= position (0 if none is). */
function lastAtOrBefore(starts, position, length) {
  return Math.max(0, firstIndexWhere(length, (index) => starts[index] > position) - 1);
}

/**
 * Folds the elements' text one element at a time, so that the work can be spread over idle
 * moments after the page opens (at 10,000 rows it is a few hundred milliseconds in all, which
 * as one task landed on the first keystroke).
 */
export class CorpusBuilder {
  constructor(elements) {
    this.elements = elements;
    this.chunks = [];
    this.offsets = new GrowableInt32(1 << 16); // folded index -> offset in its text node
    this.nodes = [];
    this.nodeStarts = new GrowableInt32(1 << 10);
    this.elementStarts = new Int32Array(elements.length);
    this.length = 0;
    this.next = 0; // the first element not folded yet
    this.corpus = null;
  }

  /** Fold elements while `hasTime()` says so (at least one); the corpus once all are folded, else null. */
  work(hasTime = () => true) {
    do {
      if (this.next === this.elements.length) return this.assemble();
      this.fold(this.next++);
    } while (hasTime());
    return this.next === this.elements.length ? this.assemble() : null;
  }

  fold(index) {
    this.elementStarts[index] = this.length;
    const state = { space: true };
    const walker = document.createTreeWalker(this.elements[index], NodeFilter.SHOW_TEXT);
    let lastNode = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      this.nodes.push(node);
      this.nodeStarts.push(this.length);
      const chunk = foldText(node.data, state, this.offsets);
      this.chunks.push(chunk);
      this.length += chunk.length;
      lastNode = node;
    }
    this.chunks.push(SEPARATOR);
    this.offsets.push(lastNode ? lastNode.length : 0);
    this.length += 1;
  }

  /**
   * The text folded so far, as a corpus of the elements done: the page's start when a reader
   * types before the fold ends, the whole page once every element is folded (assemble).
   */
  snapshot() {
    return {
      text: this.chunks.join(""),
      offsets: this.offsets.array,
      nodes: this.nodes,
      nodeStarts: this.nodeStarts.array,
      nodeCount: this.nodes.length,
      elements: this.elements,
      elementStarts: this.elementStarts.subarray(0, this.next),
    };
  }

  assemble() {
    this.corpus ??= this.snapshot();
    return this.corpus;
  }
}

export function buildCorpus(elements) {
  return new CorpusBuilder(elements).work();
}

/** The text-node boundaries of the folded span [start, end). */
export function spanBounds(corpus, start, end) {
  const { offsets, nodes, nodeStarts, nodeCount } = corpus;
  const first = lastAtOrBefore(nodeStarts, start, nodeCount);
  const last = lastAtOrBefore(nodeStarts, end - 1, nodeCount);
  const lastNode = nodes[last];
  const nextStart = last + 1 < nodeCount ? nodeStarts[last + 1] : corpus.text.length;
  // The end is where the next folded character begins, or the end of the node.
  const endOffset = end < nextStart && end < corpus.text.length && corpus.text[end] !== SEPARATOR
    ? offsets[end]
    : lastNode.length;
  return {
    startContainer: nodes[first],
    startOffset: offsets[start],
    endContainer: lastNode,
    endOffset,
  };
}

// A one-letter query on a long page has hundreds of thousands of matches (206,533 for `e` at
// 10,000 rows). Pushed into fresh JS arrays, they made V8 run its incremental marking of the whole
// DOM heap inside the keystroke, a 365-600 ms task. Written into typed arrays that the caller keeps
// across keystrokes, they allocate nothing once the arrays have grown.

/** Start positions of every non-overlapping occurrence of `needle` in the corpus, written into `into`. */
export function findAll(corpus, needle, into = new GrowableInt32(16)) {
  into.clear();
  if (!needle) return into.view();
  for (let at = corpus.text.indexOf(needle); at !== -1; at = corpus.text.indexOf(needle, at + needle.length)) {
    into.push(at);
  }
  return into.view();
}

/** For each match start (sorted), the index of the element it lies in, written into `into`. */
export function elementsOf(corpus, starts, into = new GrowableInt32(starts.length || 1)) {
  into.clear();
  const { elementStarts } = corpus;
  let element = 0;
  for (let i = 0; i < starts.length; i++) {
    while (element + 1 < elementStarts.length && elementStarts[element + 1] <= starts[i]) element++;
    into.push(element);
  }
  return into.view();
}
