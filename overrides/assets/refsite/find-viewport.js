// Geometry: where the sticky search box ends, which elements are on screen, and scrolling a match
// into view below the box.

import { firstIndexWhere } from "./find-bisect.js";

const VIEW_MARGIN_PX = 48;

export class Viewport {
  constructor(form, elements, place) {
    this.form = form;
    this.place = place; // find-hold.js: where a jump lands stays put while boxes above are drawn
    this.elements = elements; // in document order
    // The box each element is skipped with while off screen (refsite.css): a table of a
    // long section, or a section. Its own size is known without laying out what it holds.
    this.boxes = elements.map((element) => element.closest("[data-rows]") ?? element.closest("[data-section]"));
    this.pendingFrame = 0; // a scroll to come (scrollIntoViewAfterPaint)
    this.pendingTimer = 0;
  }

  /** The first element whose bottom is below `y` (viewport pixels); elements.length if none. */
  firstElementBelow(y) {
    // Elements are in document order, so those below a line are a suffix: find where it starts.
    return firstIndexWhere(this.elements.length, (index) => {
      // An element's own box would make the browser lay out the skipped box around it (its rows)
      // first; a box wholly above or below the line answers for everything in it.
      const box = this.boxes[index]?.getBoundingClientRect();
      if (box && box.bottom <= y) return false;
      if (box && box.top > y) return true;
      return rectOwner(this.elements[index]).getBoundingClientRect().bottom > y;
    });
  }

  /** The first element at or below the top of what the reader sees (below the stuck box). */
  firstElementInView() {
    return this.firstElementBelow(this.stuckBottom());
  }

  /** Where the sticky box ends: content above this line is hidden behind it. */
  stuckBottom() {
    return Math.max(this.onceStuckBottom(), this.form.getBoundingClientRect().bottom);
  }

  /** Where the box ends once stuck, wherever it is now (what a jump further down lands below). */
  onceStuckBottom() {
    return (parseFloat(getComputedStyle(this.form).top) || 0) + this.form.offsetHeight;
  }

  /** Bring `element` (or the match `bounds` inside it) into view below the box. */
  scrollIntoViewBelowBox(element, bounds, align = "center") {
    element.scrollIntoView({ block: "nearest", inline: "nearest" }); // horizontal scrollers too
    const rect = bounds ? rangeRect(bounds) : rectOwner(element).getBoundingClientRect();
    const top = this.stuckBottom();
    const bottom = window.innerHeight;
    // Already in view, with a margin (a match on the last visible line is easy to miss).
    const inView = align === "center" && rect.top >= top + VIEW_MARGIN_PX && rect.bottom <= bottom - VIEW_MARGIN_PX;
    if (!inView) {
      const offset = align === "start" ? top + 8 : top + (bottom - top - rect.height) / 2;
      window.scrollBy({ top: rect.top - offset, behavior: "instant" });
    }
    this.place?.hold(rectOwner(element));
  }

  /**
   * The same once the frame that shows a keystroke's highlights and count is painted: scrolling
   * lays out and paints another part of the page, a frame of its own. A newer keystroke or step
   * cancels a scroll not yet made (cancelScroll).
   */
  scrollIntoViewAfterPaint(element, bounds, then) {
    this.cancelScroll();
    this.pendingFrame = requestAnimationFrame(() => {
      this.pendingFrame = 0;
      this.pendingTimer = setTimeout(() => {
        this.pendingTimer = 0;
        this.scrollIntoViewBelowBox(element, bounds);
        then();
      }, 0);
    });
  }

  cancelScroll() {
    cancelAnimationFrame(this.pendingFrame);
    clearTimeout(this.pendingTimer);
    this.pendingFrame = this.pendingTimer = 0;
  }
}

/** A match's box; a throwaway live Range, since StaticRange has no geometry. */
function rangeRect(bounds) {
  const range = document.createRange();
  range.setStart(bounds.startContainer, bounds.startOffset);
  range.setEnd(bounds.endContainer, bounds.endOffset);
  const rect = range.getBoundingClientRect();
  range.detach();
  return rect;
}

/** What is on screen for an element: itself, or the collapsed answer that holds it. */
export function rectOwner(element) {
  return element.closest("details:not([open])") ?? element;
}
