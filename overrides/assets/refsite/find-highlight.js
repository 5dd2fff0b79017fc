// Painting matches. With the CSS Custom Highlight API the DOM is never touched: matches are
// StaticRanges in two named highlights (all matches, the current one). StaticRange, not Range:
// live Ranges are updated on every later DOM change, which made the page ~60x slower with
// thousands registered. Where the API is missing, <mark> elements stand in.

export const supportsHighlights = typeof CSS !== "undefined" && "highlights" in CSS && typeof Highlight === "function";

const ALL = "rs-find";
const CURRENT = "rs-find-current";

export class HighlightPainter {
  constructor() {
    this.all = new Highlight();
    this.current = new Highlight();
    this.current.priority = 1;
    CSS.highlights.set(ALL, this.all);
    CSS.highlights.set(CURRENT, this.current);
  }

  get rewritesDom() { return false; }

  clear() {
    this.all.clear();
    this.current.clear();
  }

  /** Highlight exactly these matches (StaticRange init dictionaries). */
  replace(bounds) {
    this.all.clear();
    for (const bound of bounds) this.all.add(new StaticRange(bound));
  }

  setCurrent(bound) {
    this.current.clear();
    if (bound) this.current.add(new StaticRange(bound));
  }

  detach() {
    this.clear();
    if (CSS.highlights.get(ALL) === this.all) CSS.highlights.delete(ALL);
    if (CSS.highlights.get(CURRENT) === this.current) CSS.highlights.delete(CURRENT);
  }
}

/** The fallback: wraps each match in <mark>, and unwraps them before the next query. */
export class MarkPainter {
  constructor(root) {
    this.root = root;
    this.marks = [];
  }

  get rewritesDom() { return true; }

  clear() {
    const parents = new Set();
    for (const mark of this.marks) {
      parents.add(mark.parentNode);
      mark.replaceWith(...mark.childNodes);
    }
    for (const parent of parents) parent?.normalize();
    this.marks = [];
  }

  /**
   * Wrap every match; `bounds` in document order, `currentIndex` gets its own class.
   * Wrapping from the last match backwards keeps the offsets of earlier ones valid.
   */
  paint(bounds, currentIndex) {
    for (let i = bounds.length - 1; i >= 0; i--) {
      for (const piece of textPieces(bounds[i]).reverse()) {
        const mark = document.createElement("mark");
        mark.className = i === currentIndex ? "rs-find-mark rs-find-mark--current" : "rs-find-mark";
        const range = document.createRange();
        range.setStart(piece.node, piece.start);
        range.setEnd(piece.node, piece.end);
        range.surroundContents(mark);
        this.marks.push(mark);
      }
    }
  }

  detach() { this.clear(); }
}

/** The text nodes a match covers, each with the part of it that matched. */
function textPieces({ startContainer, startOffset, endContainer, endOffset }) {
  if (startContainer === endContainer) return [{ node: startContainer, start: startOffset, end: endOffset }];
  const pieces = [{ node: startContainer, start: startOffset, end: startContainer.length }];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  walker.currentNode = startContainer;
  for (let node = walker.nextNode(); node && node !== endContainer; node = walker.nextNode()) {
    pieces.push({ node, start: 0, end: node.length });
  }
  pieces.push({ node: endContainer, start: 0, end: endOffset });
  return pieces.filter((piece) => piece.end > piece.start);
}
