// In-page search on reference pages: locate, never hide. This module is the wiring; each part
// keeps its own state:
//   find-matches.js      the literal matches (folded page text, match buffers, the current one)
//   find-paint-window.js which matches are registered with the painter (find-highlight.js)
//   find-viewport.js     where the sticky box ends, what is on screen, scrolling into view
//   find-suggest.js      ranked suggestions for text that is not on the page (find-rank.js),
//                        loaded later (find-suggest-deferred.js stands in for it until then)
//   find-hold.js         a place jumped to stays put while the boxes above it are first drawn
//   find-restore.js      the reader's place, across a reload or a step back (loaded when needed)
//   find-paste-query.js  what a paste puts in the box (loaded when needed)
//   find-status.js, find-current.js, find-url.js (?find=), find-shortcut.js (`/`)
// Typing highlights every literal match (folded: case, width, quotes, whitespace; see
// find-fold.js) in the page's [data-find-text] elements and steps through them. Nothing is ever
// hidden, filtered or reordered.

import { mountCopyButtons } from "./find-copy.js";
import { CurrentEntry } from "./find-current.js";
import { HighlightPainter, MarkPainter, supportsHighlights } from "./find-highlight.js";
import { PlaceHold, holdAnchors } from "./find-hold.js";
import { whenIdle } from "./find-idle.js";
import { Matches } from "./find-matches.js";
import { PaintWindow } from "./find-paint-window.js";
import { focusOnSlash } from "./find-shortcut.js";
import { LITERAL, isPastedLine, messageOf, patternsOf, verdictFor } from "./find-rule.js";
import { loadRules } from "./find-rules-data.js";
import { STILL_COUNTING, Status, matchStatus } from "./find-status.js";
import { DeferredSuggestions } from "./find-suggest-deferred.js";
import { UrlSync, queryFromUrl } from "./find-url.js";
import { Viewport } from "./find-viewport.js";
import { mountOnEachPage } from "./progress-mount.js";

const ANCHOR_GAP_PX = 8; // between the sticky box and what an anchor lands on below it

function mountFind(doc) {
  const form = doc.querySelector("[data-find]");
  if (!form) return undefined;
  const input = form.querySelector("[data-find-input]");
  const prev = form.querySelector("[data-find-prev]");
  const next = form.querySelector("[data-find-next]");
  const root = form.closest("article") ?? doc.body;
  const elements = [...root.querySelectorAll("[data-find-text]")];

  const matches = new Matches(elements);
  const patterns = patternsOf(form); // the lookup rule's patterns, written on the form at build time
  // The last paste's reduced text, and what the paste showed of its context (the rows its
  // traceback rules out, the rows whose calls it shows): they hold while the box holds that text
  // (typed or reloaded, the same text has no frames to read).
  let lastPaste = { query: null, shown: null, context: undefined };
  let pasteContext; // lastPaste.context while the box searches that paste's text
  let messagePart = false; // the literal matches are of the query's message, its exception's name set aside
  let leftOut = false; // ...and all are in the rows where the page says it leaves this out (九)
  // The boxes skipped while off screen (refsite.css) grow or shrink as they are first drawn.
  const place = new PlaceHold([...root.querySelectorAll("[data-section], [data-rows]")]);
  const viewport = new Viewport(form, elements, place);
  // A section the box's own links lead to (九) lands below the box, however tall its answer;
  // what comes before the box in the page is never under it.
  const stopHoldingAnchors = holdAnchors(place, (target) =>
    form.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING ? viewport.onceStuckBottom() + ANCHOR_GAP_PX : 0);
  const painter = supportsHighlights ? new HighlightPainter() : new MarkPainter(root);
  const paintWindow = new PaintWindow(painter, matches, viewport);
  const status = new Status(form.querySelector("[data-find-status]"));
  const current = new CurrentEntry();
  const url = new UrlSync();
  const suggestions = new DeferredSuggestions({
    list: form.querySelector("[data-find-suggestions]"),
    elsewhere: form.querySelector("[data-find-elsewhere]"),
    status, current, viewport, url,
    onVerdict: setVerdict,
    patterns,
    pageKey: form.dataset.findPage,
    entryOrder: new Map([...root.querySelectorAll("[data-entry]")].map((entry, index) => [entry.id, index])),
  });

  // How a search brings its current match into view: typing paints the matches first.
  const SCROLL_NOW = "now", SCROLL_AFTER_PAINT = "after paint";

  // A keystroke before the page's text is all folded searched only its start: once the fold
  // ends, the count is made whole (and "not on the page" decided). A match already shown stays
  // where the reader is; one found only now is a landing, brought into view as a search's is.
  // (Not when the search it recounts did not scroll: a reload or an #anchor keeps its place.)
  let landingWanted = false; // the last search (not a recount) would bring its first match into view
  matches.onCounted = () => {
    if (!input.value.trim()) return;
    const land = landingWanted && !form.dataset.findVerdict;
    search(boxQuery(), { scroll: land ? SCROLL_NOW : false, recount: true });
  };

  mountCopyButtons(root);
  // A reload or a step back puts the reader where they were (once the copy buttons take their
  // room); a shared query then does not scroll. The code that does it is fetched for such a
  // return, and at idle to write the place down: no reader waits for it at load.
  const comingBack = returning();
  let mounted = true;
  let stopRememberingPlace = () => {};
  if (comingBack) {
    loadPlaceKeeper().then(({ restorePlace }) => {
      if (mounted) restorePlace(place, root);
    }).catch(() => {});
  }
  // Fold the page's text while the reader is still reading, not on the first keystroke.
  const stopPreparing = matches.prepareWhenIdle();
  // Fetch the lookup's rules and index then too, and the code that reads a paste and ranks:
  // a first paste on a phone's network would otherwise wait round trips for them. (Failures are
  // retried on first use.)
  const stopFetching = whenIdle(() => {
    loadRules(form.dataset.findPage).catch(() => {});
    import("./find-rank.js").then((ranking) => ranking.fetchIndex(form.dataset.findPage)).catch(() => {});
    loadPasteQuery().catch(() => {});
    suggestions.load().catch(() => {});
    loadPlaceKeeper().then(({ rememberPlace }) => {
      if (mounted) stopRememberingPlace = rememberPlace(viewport, root);
    }).catch(() => {});
  }, { timeout: 2000 });

  /** `literal`, `match`, `weak` or `none` (find-verdict.js); empty while the box is empty. */
  function setVerdict(verdict) {
    if (form.dataset.findVerdict !== verdict) form.dataset.findVerdict = verdict;
  }

  function setStepping(enabled) {
    prev.disabled = !enabled;
    next.disabled = !enabled;
  }

  function search(query, { scroll = SCROLL_NOW, recount = false } = {}) {
    if (!recount) landingWanted = Boolean(scroll);
    if (scroll) viewport.cancelScroll(); // a recount of the same query keeps the scroll to come
    painter.clear();
    paintWindow.reset();
    if (painter.rewritesDom) matches.invalidate(); // the <mark> fallback split the text nodes
    pasteContext = lastPaste.query === query ? lastPaste.context : undefined;
    suggestions.clear();
    setVerdict("");
    // The <mark> fallback paints every match, which folds all of the text anyway (showCurrent),
    // and each search unfolds it again: a partial count would be recounted, and refolded, forever.
    const folded = matches.find(query, { whole: painter.rewritesDom });
    // Still counting: only the start of the page's text was searched (find-matches.js).
    form.toggleAttribute("data-find-counting", matches.counting);
    // A pasted last line is on the page when its message is, `RuntimeError: ` set aside.
    const message = folded && matches.count === 0 ? messageOf(query, patterns) : null;
    messagePart = message !== null && matches.find(message);
    if (matches.count === 0) {
      current.mark(null);
      setStepping(false);
      if (folded && matches.counting) status.set(STILL_COUNTING); // not yet "not on the page"
      else if (folded) suggestions.suggest(query, pasteContext); // match, weak or none
      else status.set("");
      return;
    }
    const verdict = verdictFor({ literal: true, explains: matches.explained() });
    setVerdict(verdict);
    setStepping(true);
    // A pasted error line starts on a row's own error text, not on a note that quotes it.
    const first = matches.firstFromElement(viewport.firstElementInView(), { fragment: isPastedLine(query, patterns) });
    matches.current = first === matches.count ? 0 : first;
    leftOut = verdict !== LITERAL; // only in 九: on the page, not explained
    if (!painter.rewritesDom) paintWindow.paint(); // the <mark> fallback paints in showCurrent
    showCurrent({ scroll });
    if (leftOut) suggestions.showElsewhere();
  }

  function showCurrent({ scroll }) {
    const index = matches.current;
    const element = matches.elementOf(index);
    const closedAnswer = element.closest("details:not([open])");
    if (closedAnswer) closedAnswer.open = true; // a match in a collapsed answer is shown when current
    let bounds = null;
    if (painter.rewritesDom) {
      // Unwrap the old marks, then map the (unchanged) text to the new text nodes and rewrap.
      painter.clear();
      matches.invalidate();
      painter.paint(matches.allBounds(), index);
    } else {
      bounds = matches.bounds(index);
      painter.setCurrent(bounds);
    }
    const entry = matches.entryOf(index);
    current.mark(entry);
    // A pasted traceback that shows one of the row's other causes: said, as the terminal says it.
    const remark = pasteContext?.otherCauses?.get(entry?.id);
    status.set(matchStatus(index, matches.count, matches.entryCount, { messagePart, leftOut, counting: matches.counting })
      + (remark ? ` · ⚠️ ${remark}` : ""));
    if (scroll === SCROLL_AFTER_PAINT) {
      viewport.scrollIntoViewAfterPaint(element, bounds, () => paintWindow.follow());
      return;
    }
    if (scroll) viewport.scrollIntoViewBelowBox(element, bounds);
    paintWindow.follow();
  }

  function step(delta) {
    viewport.cancelScroll();
    if (matches.count === 0) return;
    matches.step(delta);
    showCurrent({ scroll: SCROLL_NOW });
  }

  /** What the box searches: what it shows, or the whole of a long pasted query it shows shortened. */
  function boxQuery() {
    return input.value === lastPaste.shown ? lastPaste.query : input.value;
  }

  function onQueryChanged() {
    url.forgetLanding();
    search(boxQuery(), { scroll: SCROLL_AFTER_PAINT });
    url.writeSoon(boxQuery());
  }

  // Bumped by each paste and by Escape: a long paste still being read when another paste comes,
  // or when the reader clears the box, is dropped, not put in the box after it.
  let pasteGeneration = 0;
  let pasteBeingRead = false;

  async function onPaste(event) {
    // The box reads the paste itself: a search box drops line breaks, and a traceback, a log or
    // a chat message carries more than the error. The box gets the error, on one line.
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    if (!pasted) return;
    event.preventDefault();
    const generation = ++pasteGeneration;
    pasteBeingRead = true;
    const before = { value: input.value, start: input.selectionStart, end: input.selectionEnd };
    let chosen, shown, note;
    try {
      ({ chosen, shown, note } = await loadPasteQuery().then(({ readPaste }) => readPaste(pasted, {
        matches, patterns, doc, pageKey: form.dataset.findPage })));
    } catch (error) {
      console.warn("refsite find:", error); // the rules did not load: the paste as the box would hold it
      shown = pasted.replace(/\s+/g, " ").trim();
      chosen = { query: shown, others: 0, explained: false, context: undefined };
      note = "";
    }
    if (generation !== pasteGeneration) return;
    pasteBeingRead = false;
    // The box's answer for this text reads the paste's frames; a query too long to lay out at
    // once is shown shortened, and answered whole for as long as the box shows that.
    lastPaste = { query: chosen.query, shown, context: chosen.context };
    status.note = note;
    pasting = true;
    // A long paste is read in steps: keys typed meanwhile moved the caret, and the paste goes there.
    const [start, end] = input.value === before.value ? [before.start, before.end] : [input.selectionStart, input.selectionEnd];
    input.setRangeText(shown, start, end, "end");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    pasting = false;
    if (chosen.missing) status.set(`${chosen.missing}。`);
  }

  function onKeydown(event) {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      if (matches.counting) { // the reader will not wait for the count: finish it now
        matches.prepare();
        search(boxQuery(), { scroll: false });
      }
      if (matches.count > 0) step(event.shiftKey ? -1 : 1);
      else if (input.value.trim()) suggestions.landOnFirst();
    } else if (event.key === "Escape" && (input.value || pasteBeingRead)) {
      event.preventDefault();
      event.stopPropagation();
      pasteGeneration += 1; // a paste still being read is dropped too
      pasteBeingRead = false;
      input.value = "";
      onQueryChanged();
    }
  }

  let pasting = false; // the input event onPaste dispatches keeps the paste's note
  input.addEventListener("input", (event) => {
    if (!pasting) status.note = "";
    if (!event.isComposing) onQueryChanged(); // wait for the IME to finish a Chinese word
  });
  input.addEventListener("compositionend", onQueryChanged);
  input.addEventListener("paste", onPaste);
  input.addEventListener("keydown", onKeydown);
  form.addEventListener("submit", (event) => event.preventDefault());
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  const stopShortcut = focusOnSlash(input);

  const initial = queryFromUrl();
  if (input.value) {
    // Typed before this script started (the box works as soon as the page shows; the box has
    // autocomplete="off", so the browser never restores an old value here).
    onQueryChanged();
  } else if (initial) {
    input.value = initial;
    search(initial, { scroll: location.hash || comingBack ? false : SCROLL_NOW });
  } else {
    setStepping(false);
  }

  return () => {
    suggestions.destroy();
    url.destroy();
    stopPreparing();
    stopFetching();
    viewport.cancelScroll();
    stopHoldingAnchors();
    mounted = false;
    stopRememberingPlace();
    place.destroy();
    paintWindow.destroy();
    painter.detach();
    stopShortcut();
  };
}

/** Where the reader was on a page they come back to (find-restore.js), imported when needed. */
function loadPlaceKeeper() {
  return import("./find-restore.js");
}

/** Whether this load comes back to the page (a reload, a step back; bfcache's return runs no
 * script): then find-restore.js puts the reader's place back, if it was written down. */
function returning() {
  return /^(reload|back_forward)$/.test(performance.getEntriesByType?.("navigation")[0]?.type);
}

/** What goes in the box for a paste (find-paste-query.js, which reads it with find-paste.js and
 * find-verdict.js), imported when first needed, as the ranked half is. */
function loadPasteQuery() {
  return import("./find-paste-query.js");
}

// Material's instant navigation swaps pages without reloading scripts: mount on each page.
mountOnEachPage(mountFind);
