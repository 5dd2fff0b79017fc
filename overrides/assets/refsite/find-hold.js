// Holding the place a jump lands on. A reference page's sections are skipped while off screen
// (refsite.css) and take a guessed height until first drawn: when a box above the place the reader
// was just taken to (an anchor, a match) is drawn, its real height moves everything below it, and
// Chromium's scroll anchoring leaves that move uncorrected after a jump. So until the reader
// scrolls away, or the address names another anchor, the place stays put. (Scrolling
// up from there is the browser's to keep steady, and it does: the box then drawn is wholly above
// what the reader sees.)

const SAME_PLACE_PX = 2;

export class PlaceHold {
  /** `boxes`: the elements whose size may change as they are first drawn, in document order. */
  constructor(boxes) {
    this.held = null; // { element, top, hash }: where on screen `element` is kept (for `hash`)
    this.scrolledTo = null; // the scroll offset this hold (or the jump it holds) left the page at
    this.observer = null;
    // A scroll that leaves the held element where it is was the jump's own, or this hold's, or
    // the browser's keeping the view steady; one that moves it is the reader's (wheel, finger,
    // keys, scrollbar): from then on, the place is theirs. But the event of this hold's own scroll
    // can come after the page moved again (a script's button added above the place, laid out
    // before the event; the boxes' resize is only seen after it): the offset is still this
    // hold's, so the place is put back, not given up.
    this.onScroll = () => {
      if (!this.held) return;
      if (window.scrollY === this.scrolledTo) this.restore();
      else if (Math.abs(this.offset()) > SAME_PLACE_PX) this.held = null;
    };
    if (!window.ResizeObserver || !boxes.length) return;
    this.observer = new ResizeObserver(() => this.restore());
    for (const box of boxes) this.observer.observe(box);
    window.addEventListener("scroll", this.onScroll, { passive: true });
  }

  destroy() {
    this.held = null;
    this.observer?.disconnect();
    window.removeEventListener("scroll", this.onScroll);
  }

  /** Keep `element` at `top` (viewport pixels; by default where it is now). */
  hold(element, top = element.getBoundingClientRect().top, hash = null) {
    this.held = { element, top, hash };
    this.scrolledTo = window.scrollY;
  }

  /** Keep an anchor's target where landing on it puts it: its scroll margin below the top, or
   * below `clearTop` (viewport pixels) when that is lower: a box the reader has filled (a verdict,
   * its suggestions) outgrows the margin, and its link to a section would land the section under it. */
  holdAnchor(element, clearTop = 0) {
    const margin = parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
    this.hold(element, Math.max(margin, clearTop), location.hash);
  }

  /** After boxes resized (before that frame is painted): move the held element back. */
  restore() {
    if (!this.held) return;
    // An anchor's hold ends when the address names another (the browser's jump to it comes
    // before its hashchange), and any hold when its element is gone.
    if (!this.held.element.isConnected || (this.held.hash !== null && this.held.hash !== location.hash)) {
      this.held = null;
      return;
    }
    const moved = this.offset();
    if (Math.abs(moved) >= 1) {
      window.scrollBy({ top: moved, behavior: "instant" });
      this.scrolledTo = window.scrollY;
    }
  }

  /** How far the held element is from where it is kept. */
  offset() {
    return this.held.element.getBoundingClientRect().top - this.held.top;
  }
}

/** Hold the target of the URL's anchor, on load and whenever the anchor changes, below
 * `clearTop(target)` (where a sticky box above it ends); returns the function that stops. */
export function holdAnchors(place, clearTop = () => 0) {
  const holdTarget = () => {
    const target = anchorTarget(location.hash);
    if (target) {
      place.holdAnchor(target, clearTop(target));
      place.restore();
    }
  };
  // A reload or a step back is the browser's to restore (to an offset: sections above not yet
  // drawn there may have another height than when the reader left), not the anchor's.
  const [navigation] = performance.getEntriesByType?.("navigation") ?? [];
  if (!navigation || navigation.type === "navigate") holdTarget();
  window.addEventListener("hashchange", holdTarget);
  return () => window.removeEventListener("hashchange", holdTarget);
}

function anchorTarget(hash) {
  try {
    if (hash.length <= 1) return null;
    return document.getElementById(hash.slice(1)) ?? document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch (malformed) { // `#%E0`: no element has such an id
    return null;
  }
}
