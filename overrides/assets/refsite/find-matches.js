// The literal matches of the query on screen, as state: no DOM is read here beyond the text the
// corpus folds once (find-corpus.js). Which match is current lives here too; showing it is the
// wiring's job (find.js).

import { firstIndexWhere } from "./find-bisect.js";
import { CorpusBuilder, GrowableInt32, elementsOf, findAll, spanBounds } from "./find-corpus.js";
import { foldQuery } from "./find-fold.js";
import { whenIdle } from "./find-idle.js";

// Folding in the background uses the idle time the browser offers (up to 50 ms a period, with
// no input waiting); when the page stays busy and an idle period is forced, slices this long.
const FORCED_SLICE_MS = 16;
// A keystroke that comes before the fold is done folds this much more at most, then searches what
// is folded (the page's start: the matches come in document order) and says it is still counting.
const KEYSTROKE_FOLD_MS = 10;

const NO_MATCHES = { starts: new Int32Array(0), length: 0, elementIndex: new Int32Array(0), entryCount: 0 };

export class Matches {
  /**
   * `elements`: the page's [data-find-text] elements, in document order; `keystrokeFoldMs`: how
   * long a keystroke before the fold ends may fold (at least one element).
   */
  constructor(elements, { keystrokeFoldMs = KEYSTROKE_FOLD_MS } = {}) {
    this.elements = elements;
    this.keystrokeFoldMs = keystrokeFoldMs;
    this.entryOfElement = elements.map((element) => element.closest("[data-entry]"));
    this.corpus = null;
    this.builder = null; // folding in progress
    this.stopIdle = () => {}; // cancels the next idle slice of the fold
    // Where every query writes its matches: reused, so that a keystroke allocates nothing per match.
    this.startBuffer = new GrowableInt32(1 << 12);
    this.elementBuffer = new GrowableInt32(1 << 12);
    this.found = NO_MATCHES;
    this.current = -1;
    this.folding = false; // an idle fold is scheduled
    this.counting = false; // the last find searched only the text folded so far
    this.onCounted = () => {}; // called when the fold ends after such a find
  }

  /** The page's folded text: what is left of it is folded now. */
  prepare() {
    this.corpus ??= (this.builder ??= new CorpusBuilder(this.elements)).work();
    return this.corpus;
  }

  /**
   * Fold the page's text a slice at a time whenever the main thread is idle, starting now: by
   * the reader's first keystroke there is nothing left to fold. Returns the function that stops.
   */
  prepareWhenIdle() {
    this.folding = true;
    const slice = (deadline) => {
      if (this.corpus) {
        this.folding = false;
        return;
      }
      const stopAt = performance.now() + FORCED_SLICE_MS;
      const hasTime = deadline.didTimeout ? () => performance.now() < stopAt : () => deadline.timeRemaining() > 1;
      this.corpus = (this.builder ??= new CorpusBuilder(this.elements)).work(hasTime);
      if (!this.corpus) {
        this.stopIdle = whenIdle(slice, { timeout: 100 });
        return;
      }
      this.folding = false;
      if (this.counting) {
        this.counting = false;
        this.onCounted();
      }
    };
    this.stopIdle = whenIdle(slice, { timeout: 100 });
    return () => {
      this.stopIdle();
      this.folding = false;
    };
  }

  /** The text nodes changed (the <mark> fallback split them): fold again when next needed. */
  invalidate() {
    this.corpus = null;
    this.builder = null;
    this.found = { ...this.found, corpus: null }; // its matches' places hold; their text nodes do not
  }

  /**
   * Find every match of `query`; false when the query folds to nothing. `whole`: fold all of the
   * page's text first, so that the count is never partial.
   */
  find(query, { whole = false } = {}) {
    this.current = -1;
    const needle = foldQuery(query);
    if (!needle) {
      this.found = NO_MATCHES;
      return false;
    }
    const corpus = whole ? this.prepare() : this.foldFor(this.keystrokeFoldMs);
    this.counting = corpus !== this.corpus;
    const starts = findAll(corpus, needle, this.startBuffer);
    const elementIndex = elementsOf(corpus, starts, this.elementBuffer);
    this.found = { starts, length: needle.length, elementIndex, entryCount: this.countEntries(elementIndex), corpus };
    return true;
  }

  /** The folded text: all of it, or (folding for at most `ms` more) what is folded so far. */
  foldFor(ms) {
    if (this.corpus) return this.corpus;
    const stopAt = performance.now() + ms;
    this.builder ??= new CorpusBuilder(this.elements);
    this.corpus = this.builder.work(() => performance.now() < stopAt);
    if (this.corpus) return this.corpus;
    if (!this.folding) this.prepareWhenIdle(); // the rest, in the background (it tells onCounted)
    return this.builder.snapshot();
  }

  get count() { return this.found.starts.length; }
  get entryCount() { return this.found.entryCount; }

  /**
   * Index of the first match in the element `elementIndex` or after it (count if none); with
   * `fragment`, the first such match in a row's verbatim error text ([data-fragment]), if any.
   */
  firstFromElement(elementIndex, { fragment = false } = {}) {
    const elementOf = this.found.elementIndex;
    const first = firstIndexWhere(this.count, (index) => elementOf[index] >= elementIndex);
    if (!fragment) return first;
    for (let index = first; index < this.count; index++) {
      if (this.elements[elementOf[index]].hasAttribute("data-fragment")) return index;
    }
    return first;
  }

  /**
   * Whether the matches are in something that explains them: false when every match in a table
   * row is in the page's list of what it leaves out (九, `.rs-section--not-covered`).
   */
  explained() {
    let leftOut = false;
    for (let index = 0; index < this.count; index++) {
      const entry = this.entryOf(index);
      if (!entry) continue;
      if (entry.closest(".rs-section--errors, .rs-section--symptoms")) return true;
      if (entry.closest(".rs-section--not-covered")) leftOut = true;
    }
    return !leftOut;
  }

  /** Move the current match by `delta`, wrapping around. */
  step(delta) {
    this.current = (this.current + delta + this.count) % this.count;
  }

  elementOf(index) { return this.elements[this.found.elementIndex[index]]; }
  entryOf(index) { return this.entryOfElement[this.found.elementIndex[index]]; }

  /** The text-node boundaries of a match (a StaticRange init dictionary). */
  bounds(index) {
    const start = this.found.starts[index];
    return spanBounds(this.found.corpus ?? this.prepare(), start, start + this.found.length);
  }

  boundsBetween(from, to) {
    const bounds = [];
    for (let index = from; index < to; index++) bounds.push(this.bounds(index));
    return bounds;
  }

  allBounds() { return this.boundsBetween(0, this.count); }

  countEntries(elementIndexes) {
    // Matches are in document order and an entry's elements are contiguous, so each entry is
    // counted where it first appears; no Set of tens of thousands of items per keystroke.
    let count = 0;
    let previous = null;
    for (let i = 0; i < elementIndexes.length; i++) {
      const entry = this.entryOfElement[elementIndexes[i]];
      if (entry && entry !== previous) {
        count += 1;
        previous = entry;
      }
    }
    return count;
  }
}
