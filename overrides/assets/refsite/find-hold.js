// Holding the place a jump lands on. A reference page's sections are skipped while off screen
// (refsite.css) and take a guessed height until first drawn: when a box above the place the reader
// was just taken to (an anchor, a match) is drawn, its real height moves everything below it, and
// Chromium's scroll anchoring leaves that move uncorrected after a jump (`#silent-bugs` ended
// 527 px above the screen). So until the reader scrolls away, the place stays put. (Scrolling
// up from there is the browser's to keep steady, and it does: the box then drawn is wholly above
// what the reader sees.)

const SAME_PLACE_PX = 2;

export class PlaceHold {
  /** `boxes`: the elements whose size may change as they are first drawn, in document order. */
  constructor(boxes) {
    this.held = null; // { element, top }: where on screen `element` is kept
    this.observer = null;
    // A scroll that leaves the held element where it is was the jump's own, or this hold's, or
    // the browser's keeping the view steady; one that moves it is the reader's (wheel, finger,
    // keys, scrollbar): from then on, the place is theirs.
    this.onScroll = () => {
      if (this.held && Math.abs(this.offset()) > SAME_PLACE_PX) this.held = null;
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
  hold(element, top = element.getBoundingClientRect().top) {
    this.held = { element, top };
  }

  /** Keep an anchor's target where landing on it puts it: its scroll margin below the top. */
  holdAnchor(element) {
    this.hold(element, parseFloat(getComputedStyle(element).scrollMarginTop) || 0);
  }

  /** After boxes resized (before that frame is painted): move the held element back. */
  restore() {
    if (!this.held || !this.held.element.isConnected) return;
    const moved = this.offset();
    if (Math.abs(moved) >= 1) window.scrollBy({ top: moved, behavior: "instant" });
  }

  /** How far the held element is from where it is kept. */
  offset() {
    return this.held.element.getBoundingClientRect().top - this.held.top;
  }
}

/** Hold the target of the URL's anchor, on load and whenever the anchor changes; returns the
 * function that stops. */
export function holdAnchors(place) {
  const holdTarget = () => {
    const target = anchorTarget(location.hash);
    if (target) place.holdAnchor(target);
  };
  // A reload or a step back puts the reader where they were, not on the anchor.
  const [navigation] = performance.getEntriesByType?.("navigation") ?? [];
  if (!navigation || navigation.type === "navigate") holdTarget();
  window.addEventListener("hashchange", holdTarget);
  return () => window.removeEventListener("hashchange", holdTarget);
}

function anchorTarget(hash) {
  try {
    return hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch (malformed) { // `#%E0`: no element has such an id
    return null;
  }
}
