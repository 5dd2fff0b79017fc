// Which matches are registered with the painter. Chromium re-applies every range of a highlight
// whenever the highlight changes, so tens of thousands of ranges (a one-letter query on a long
// page) would cost hundreds of milliseconds per change. Up to PAINT_ALL_UP_TO matches all are
// registered at once; beyond it, only the matches within a screen of the viewport are, and the
// window follows the scrolling: every match the reader can see is highlighted, and all of them
// are counted.

export const PAINT_ALL_UP_TO = 2000;

export class PaintWindow {
  constructor(painter, matches, viewport) {
    this.painter = painter;
    this.matches = matches;
    this.viewport = viewport;
    this.windowed = false;
    this.painted = null; // {from, to} of the registered matches, when windowed
    this.frame = 0;
    this.onScroll = this.onScroll.bind(this);
    window.addEventListener("scroll", this.onScroll, { passive: true });
  }

  /** Nothing registered, nothing to follow (the painter was cleared). */
  reset() {
    this.windowed = false;
    this.painted = null;
  }

  /** Register the new query's matches: all of them, or the window around the viewport. */
  paint() {
    this.painted = null;
    this.windowed = this.matches.count > PAINT_ALL_UP_TO;
    if (this.windowed) this.follow();
    else this.painter.replace(this.matches.allBounds());
  }

  /** Register the matches within a screen of the viewport, if that window has moved. */
  follow() {
    if (!this.windowed) return;
    const screen = window.innerHeight;
    const from = this.matches.firstFromElement(this.viewport.firstElementBelow(-screen));
    const to = this.matches.firstFromElement(this.viewport.firstElementBelow(2 * screen) + 1);
    if (this.painted && this.painted.from === from && this.painted.to === to) return;
    this.painted = { from, to };
    this.painter.replace(this.matches.boundsBetween(from, to));
  }

  onScroll() {
    if (!this.windowed || this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.follow();
    });
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    window.removeEventListener("scroll", this.onScroll);
  }
}
