// The reader's place across a reload or a step back. The browser restores a scroll offset, but a
// reference page's sections are skipped while off screen (refsite.css) and come back with a
// guessed height, so the same offset shows another part of the page (附录A: a row read at the
// top came back up to 1,067 px off at 1280 px wide, 2,933–4,991 at 390). So as the reader's
// scroll comes to rest, what is at the top of the screen is written into the history entry, the
// browser is told not to restore the offset, and the next load of that entry puts it back and
// holds it there (find-hold.js) while the boxes above are drawn.

import { rectOwner } from "./find-viewport.js";

const STATE_KEY = "refsitePlace";
// A scroll is at rest when no scroll event came for this long.
const AT_REST_MS = 300;

/** Write where the reader is into the history entry once a scroll comes to rest; returns the
 * function that stops. Never as the page is left or hidden: a reload takes the entry as it was
 * before the page's pagehide anyway, and a history write then makes Chromium evict the page from
 * the back/forward cache (Lighthouse's bf-cache audit: "IgnoreEventAndEvict"), so a step back
 * would load it again. */
export function rememberPlace(viewport, root) {
  let timer = 0;
  let last = "";
  const remember = () => {
    clearTimeout(timer);
    let written = false;
    try {
      const place = placeInView(viewport, root);
      const key = JSON.stringify(place);
      // Each write is a history call, and browsers refuse too many (Safari: 100 in 30 s).
      if (place && key !== last) history.replaceState({ ...stateObject(), [STATE_KEY]: place }, "");
      last = key;
      written = place !== null;
    } catch { // too many history writes, a sandboxed frame: the browser restores its offset then
      last = "";
    }
    try {
      // Set on the entry, so the next load of it finds it set before the browser would restore.
      // "manual" also says the place in the entry is the one written last (restorePlace).
      history.scrollRestoration = written ? "manual" : "auto";
    } catch {
    }
  };
  const rememberAtRest = () => {
    clearTimeout(timer);
    timer = setTimeout(remember, AT_REST_MS);
  };
  window.addEventListener("scroll", rememberAtRest, { passive: true });
  // Started at idle (find.js): a reader who scrolled before then and reads on is written down too.
  if (window.scrollY > 0) rememberAtRest();
  return () => {
    clearTimeout(timer);
    window.removeEventListener("scroll", rememberAtRest);
  };
}

/** On a reload or a step back to a page left with its place written (find.js asks, before this
 * module is fetched), put that place back where it was on screen and hold it until the reader
 * scrolls (even over the address's anchor: a reload is a return to where the reader was, not a
 * jump). */
export function restorePlace(place, root) {
  const saved = savedPlace();
  if (!saved) return;
  const scope = saved.id ? document.getElementById(saved.id) : root;
  if (!scope || !root.contains(scope)) { // the page changed since: the offset, as the browser would
    window.scrollTo({ top: saved.y, behavior: "instant" });
    return;
  }
  const element = scope.querySelectorAll("[data-find-text]")[saved.nth] ?? scope;
  place.hold(rectOwner(element), saved.top);
  place.restore();
}

/** The first text at the top of the screen, as an id to find again (its row's, or its section's
 * heading's) and its place among that element's texts, and how far from the top it is. */
function placeInView(viewport, root) {
  const { elements } = viewport;
  if (!elements.length) return null;
  // Below the last text (the page's foot), the last text is kept, where it is above the screen.
  const element = elements[Math.min(viewport.firstElementInView(), elements.length - 1)];
  const owner = element.closest("[id]:not([id=''])");
  const scope = owner && root.contains(owner) ? owner : root;
  return {
    id: scope === root ? "" : scope.id,
    nth: [...scope.querySelectorAll("[data-find-text]")].indexOf(element),
    top: rectOwner(element).getBoundingClientRect().top,
    y: window.scrollY,
  };
}

function savedPlace() {
  try {
    // "auto" means the last write of the place failed: the browser restored its offset, and a
    // place still in the entry is an older one.
    if (history.scrollRestoration !== "manual") return null;
    const saved = history.state?.[STATE_KEY];
    const valid = typeof saved?.id === "string" && Number.isInteger(saved.nth)
      && Number.isFinite(saved.top) && Number.isFinite(saved.y);
    return valid ? saved : null;
  } catch { // history.state can throw in a document that cannot read it
    return null;
  }
}

/** The entry's state to add to (find-url.js keeps it as it rewrites the address). */
function stateObject() {
  const state = history.state;
  return state && typeof state === "object" && !Array.isArray(state) ? state : {};
}
