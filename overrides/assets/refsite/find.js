// In-page search on reference pages: locate, never hide.
//
// Typing highlights every literal match (folded: case, width, quotes, whitespace; see
// find-fold.js) in the page's [data-find-text] elements and steps through them. Text that is not
// on the page (a whole error line with the reader's own names, a traceback) gets the closest
// entries instead, ranked by lunr (find-rank.js). Nothing is ever hidden, filtered or reordered.
// The query lives in the URL as ?find= (Material owns ?q= and ?h=).

import { GrowableInt32, buildCorpus, elementsOf, findAll, spanBounds } from "./find-corpus.js";
import { mountCopyButtons } from "./find-copy.js";
import { skipOffscreenSections } from "./find-offscreen.js";
import { foldQuery } from "./find-fold.js";
import { HighlightPainter, MarkPainter, supportsHighlights } from "./find-highlight.js";
import { loadRanker, rank } from "./find-rank.js";
import { stripTracebackNoise } from "./find-tokenize.js";

const URL_PARAM = "find";
const URL_WRITE_DELAY_MS = 300;
// Chromium re-applies every range of a highlight whenever the highlight changes, so tens of
// thousands of ranges (a one-letter query on a long page) would cost hundreds of milliseconds per
// change. Up to this many matches all are registered at once; beyond it, only the matches within
// a screen of the viewport are, and the window follows the scrolling: every match the reader can
// see is highlighted, and all of them are counted.
const PAINT_ALL_UP_TO = 2000;
const LABEL_LENGTH = 140;
const VIEW_MARGIN_PX = 48;

const NO_MATCHES = { starts: new Int32Array(0), length: 0, elementIndex: new Int32Array(0), entryCount: 0 };

let active = null; // the search box of the page on screen

function mount(form) {
  const input = form.querySelector("[data-find-input]");
  const status = form.querySelector("[data-find-status]");
  const suggestions = form.querySelector("[data-find-suggestions]");
  const prev = form.querySelector("[data-find-prev]");
  const next = form.querySelector("[data-find-next]");
  const root = form.closest("article") ?? document.body;
  const pageKey = form.dataset.findPage;
  const elements = [...root.querySelectorAll("[data-find-text]")];
  const entryOfElement = elements.map((element) => element.closest("[data-entry]"));
  const entryOrder = new Map([...root.querySelectorAll("[data-entry]")].map((entry, index) => [entry.id, index]));
  const painter = supportsHighlights ? new HighlightPainter() : new MarkPainter(root);

  let corpus = null;
  // Where every query writes its matches: reused, so that a keystroke allocates nothing per match.
  const matchStarts = new GrowableInt32(1 << 12);
  const matchElements = new GrowableInt32(1 << 12);
  let generation = 0; // bumped by every query; stale async work checks it and stops
  let matches = NO_MATCHES;
  let currentIndex = -1;
  let currentEntry = null; // the entry marked aria-current="true"
  let ranked = [];
  let landOnArrival = false;
  let paintedWindow = null; // {from, to} of the registered matches, when not all are
  let scrollFrame = 0;
  let landedId = null; // the entry a suggestion landed on, named in the URL's hash
  let urlTimer = 0;
  let idleHandle = 0;

  mountCopyButtons(root);
  skipOffscreenSections(root);

  const prepared = () => (corpus ??= buildCorpus(elements));
  // Prepare the text while the reader is still reading, not on the first keystroke.
  if ("requestIdleCallback" in window) idleHandle = requestIdleCallback(prepared, { timeout: 3000 });

  function setStatus(text) {
    if (status.textContent !== text) status.textContent = text;
  }

  function markCurrentEntry(entry) {
    if (entry === currentEntry) return;
    currentEntry?.removeAttribute("aria-current");
    entry?.setAttribute("aria-current", "true");
    currentEntry = entry;
  }

  function clearSuggestions() {
    ranked = [];
    landOnArrival = false;
    suggestions.replaceChildren();
  }

  function setStepping(enabled) {
    prev.disabled = !enabled;
    next.disabled = !enabled;
  }

  // --- literal matches ----------------------------------------------------------------------

  function search(query, { scroll = true } = {}) {
    generation += 1;
    painter.clear();
    paintedWindow = null;
    if (painter.rewritesDom) corpus = null; // the <mark> fallback split the text nodes
    clearSuggestions();
    currentIndex = -1;
    const needle = foldQuery(query);
    if (!needle) {
      matches = NO_MATCHES;
      markCurrentEntry(null);
      setStepping(false);
      setStatus("");
      return;
    }
    const text = prepared();
    const starts = findAll(text, needle, matchStarts);
    const elementIndex = elementsOf(text, starts, matchElements);
    matches = { starts, length: needle.length, elementIndex, entryCount: countEntries(elementIndex) };
    if (starts.length === 0) {
      markCurrentEntry(null);
      setStepping(false);
      suggestClosest(query, generation);
      return;
    }
    setStepping(true);
    currentIndex = firstMatchFromViewport();
    if (!painter.rewritesDom) paintMatches(); // the <mark> fallback paints in showCurrent
    showCurrent({ scroll });
  }

  function boundsOf(index) {
    const start = matches.starts[index];
    return spanBounds(corpus, start, start + matches.length);
  }

  function allBounds() {
    return Array.from({ length: matches.starts.length }, (_, index) => boundsOf(index));
  }

  function paintMatches() {
    paintedWindow = null;
    if (matches.starts.length <= PAINT_ALL_UP_TO) painter.replace(allBounds());
    else paintWindow();
  }

  /** Register the matches within a screen of the viewport, if that window has moved. */
  function paintWindow() {
    const screen = window.innerHeight;
    const firstElement = firstElementBelow(-screen);
    const lastElement = firstElementBelow(2 * screen);
    const from = firstAtLeast(matches.elementIndex, firstElement);
    const to = firstAtLeast(matches.elementIndex, lastElement + 1);
    if (paintedWindow && paintedWindow.from === from && paintedWindow.to === to) return;
    paintedWindow = { from, to };
    const bounds = [];
    for (let index = from; index < to; index++) bounds.push(boundsOf(index));
    painter.replace(bounds);
  }

  function onScroll() {
    if (paintedWindow === null || scrollFrame) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      if (paintedWindow !== null) paintWindow();
    });
  }

  function countEntries(elementIndexes) {
    // Matches are in document order and an entry's elements are contiguous, so each entry is
    // counted where it first appears; no Set of tens of thousands of items per keystroke.
    let count = 0;
    let previous = null;
    for (let i = 0; i < elementIndexes.length; i++) {
      const entry = entryOfElement[elementIndexes[i]];
      if (entry && entry !== previous) {
        count += 1;
        previous = entry;
      }
    }
    return count;
  }

  /** The first element whose bottom is below `y` (viewport pixels); elements.length if none. */
  function firstElementBelow(y) {
    // Elements are in document order, so those below a line are a suffix: find where it starts.
    let low = 0;
    let high = elements.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (rectOwner(elements[middle]).getBoundingClientRect().bottom > y) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The first match at or below the top of what the reader sees, or the first of all. */
  function firstMatchFromViewport() {
    const first = firstAtLeast(matches.elementIndex, firstElementBelow(stuckBottom()));
    return first === matches.starts.length ? 0 : first;
  }

  function showCurrent({ scroll }) {
    const count = matches.starts.length;
    const element = elements[matches.elementIndex[currentIndex]];
    const closedAnswer = element.closest("details:not([open])");
    if (closedAnswer) closedAnswer.open = true; // a match in a collapsed answer is shown when current
    let bounds = null;
    if (painter.rewritesDom) {
      // Unwrap the old marks, then map the (unchanged) text to the new text nodes and rewrap.
      painter.clear();
      corpus = buildCorpus(elements);
      painter.paint(allBounds(), currentIndex);
    } else {
      bounds = boundsOf(currentIndex);
      painter.setCurrent(bounds);
    }
    markCurrentEntry(entryOfElement[matches.elementIndex[currentIndex]]);
    setStatus(`第 ${currentIndex + 1}/${count} 处 · 共 ${count} 处匹配，在 ${matches.entryCount} 个条目里`);
    if (scroll) scrollIntoViewBelowBox(element, bounds);
    if (matches.starts.length > PAINT_ALL_UP_TO && !painter.rewritesDom) paintWindow();
  }

  function step(delta) {
    const count = matches.starts.length;
    if (count === 0) return;
    currentIndex = (currentIndex + delta + count) % count;
    showCurrent({ scroll: true });
  }

  // --- ranked suggestions -------------------------------------------------------------------

  async function suggestClosest(query, forGeneration) {
    setStatus("本页没有这段原文，正在找最接近的条目…");
    let results;
    try {
      const index = await loadRanker(pageKey);
      if (forGeneration !== generation) return;
      results = rank(index, query, entryOrder).filter(({ id }) => document.getElementById(id));
    } catch (error) {
      if (forGeneration !== generation) return;
      setStatus("本页没有这段原文；相近条目的索引没能加载。");
      console.warn("refsite find:", error);
      return;
    }
    if (forGeneration !== generation) return;
    ranked = results;
    if (ranked.length === 0) {
      setStatus("本页没有这段原文，也没有相近的条目。");
      return;
    }
    suggestions.replaceChildren(...ranked.map(({ id }) => suggestionItem(id)));
    setStatus(`本页没有这段原文 · 最接近的 ${ranked.length} 条如下，回车跳到第一条`);
    if (landOnArrival) land(ranked[0].id);
  }

  function suggestionItem(id) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${id}`;
    link.dataset.findSuggestion = id;
    link.textContent = entryLabel(document.getElementById(id));
    link.addEventListener("click", (event) => {
      event.preventDefault();
      land(id);
    });
    item.append(link);
    return item;
  }

  function entryLabel(entry) {
    const text = (entry.querySelector("[data-find-text]") ?? entry).textContent.replace(/\s+/g, " ").trim();
    return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
  }

  /** Go to a suggested entry: it becomes current, comes into view, and the URL points at it. */
  function land(id) {
    const entry = document.getElementById(id);
    if (!entry) return;
    markCurrentEntry(entry);
    for (const link of suggestions.querySelectorAll("[data-find-suggestion]")) {
      link.classList.toggle("rs-find__suggestion--landed", link.dataset.findSuggestion === id);
    }
    const url = new URL(location.href);
    url.hash = id;
    history.replaceState(history.state, "", url);
    landedId = id;
    scrollIntoViewBelowBox(entry, null, "start");
    const rankOf = ranked.findIndex((result) => result.id === id) + 1;
    setStatus(rankOf > 0 ? `已跳到第 ${rankOf} 个最接近的条目（共 ${ranked.length} 个）` : "已跳到这个条目");
  }

  // --- scrolling ----------------------------------------------------------------------------

  /** Where the sticky box ends once stuck: content above this line is hidden behind it. */
  function stuckBottom() {
    const stickyTop = parseFloat(getComputedStyle(form).top) || 0;
    return Math.max(stickyTop + form.offsetHeight, form.getBoundingClientRect().bottom);
  }

  function scrollIntoViewBelowBox(element, bounds, align = "center") {
    element.scrollIntoView({ block: "nearest", inline: "nearest" }); // horizontal scrollers too
    const rect = bounds ? rangeRect(bounds) : rectOwner(element).getBoundingClientRect();
    const top = stuckBottom();
    const bottom = window.innerHeight;
    // Already in view, with a margin (a match on the last visible line is easy to miss).
    if (align === "center" && rect.top >= top + VIEW_MARGIN_PX && rect.bottom <= bottom - VIEW_MARGIN_PX) return;
    const offset = align === "start" ? top + 8 : top + (bottom - top - rect.height) / 2;
    window.scrollBy({ top: rect.top - offset, behavior: "instant" });
  }

  // --- URL ----------------------------------------------------------------------------------

  /** A landing belonged to the previous query: a new one must not share a stale #entry. */
  function forgetLanding() {
    if (!landedId) return;
    const url = new URL(location.href);
    if (url.hash === `#${landedId}`) {
      url.hash = "";
      history.replaceState(history.state, "", url);
    }
    landedId = null;
  }

  function writeUrlSoon(query) {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => {
      const url = new URL(location.href);
      if (query) url.searchParams.set(URL_PARAM, query);
      else url.searchParams.delete(URL_PARAM);
      if (url.href !== location.href) history.replaceState(history.state, "", url);
    }, URL_WRITE_DELAY_MS);
  }

  // --- events -------------------------------------------------------------------------------

  function onQueryChanged() {
    forgetLanding();
    search(input.value);
    writeUrlSoon(input.value);
  }

  function clear() {
    input.value = "";
    onQueryChanged();
  }

  input.addEventListener("input", (event) => {
    if (!event.isComposing) onQueryChanged(); // wait for the IME to finish a Chinese word
  });
  input.addEventListener("compositionend", onQueryChanged);
  input.addEventListener("paste", (event) => {
    // A pasted traceback keeps only its message lines: frames, code and carets are noise, and
    // a one-line box would otherwise glue the lines together.
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    if (!/[\r\n]/.test(pasted)) return;
    event.preventDefault();
    const line = stripTracebackNoise(pasted).replace(/\s+/g, " ").trim();
    input.setRangeText(line, input.selectionStart, input.selectionEnd, "end");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.isComposing) {
      event.preventDefault();
      if (matches.starts.length > 0) step(event.shiftKey ? -1 : 1);
      else if (ranked.length > 0) land(ranked[0].id);
      else if (input.value.trim()) landOnArrival = true; // ranking still loading
    } else if (event.key === "Escape" && input.value) {
      event.preventDefault();
      event.stopPropagation();
      clear();
    }
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  window.addEventListener("scroll", onScroll, { passive: true });
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));

  const initial = new URL(location.href).searchParams.get(URL_PARAM);
  if (input.value) {
    // Typed before this script started (the box works as soon as the page shows; the box has
    // autocomplete="off", so the browser never restores an old value here).
    onQueryChanged();
  } else if (initial) {
    input.value = initial;
    search(initial, { scroll: !location.hash });
  } else {
    setStepping(false);
  }

  return {
    form,
    input,
    destroy() {
      generation += 1;
      clearTimeout(urlTimer);
      if (idleHandle) cancelIdleCallback(idleHandle);
      cancelAnimationFrame(scrollFrame);
      window.removeEventListener("scroll", onScroll);
      painter.detach();
    },
  };
}

/** Index of the first item of the sorted `values` that is >= `target` (values.length if none). */
function firstAtLeast(values, target) {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
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
function rectOwner(element) {
  return element.closest("details:not([open])") ?? element;
}

function isEditable(target) {
  return target instanceof Element && (target.isContentEditable || target.closest("input, textarea, select, [contenteditable]"));
}

// `/` focuses this box on a reference page. Listening on window in the capture phase runs before
// Material's own shortcuts (which would open its search dialog); `f` and `s` stay Material's.
window.addEventListener("keydown", (event) => {
  if (!active || !active.form.isConnected) return;
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  active.input.focus();
  active.input.select();
}, { capture: true });

function start() {
  active?.destroy();
  const form = document.querySelector("[data-find]");
  active = form ? mount(form) : null;
}

// Material's instant navigation swaps pages without reloading scripts: start on each page.
if (window.document$) window.document$.subscribe(start);
else start();
