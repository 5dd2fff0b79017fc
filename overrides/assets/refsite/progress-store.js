// The one place that knows where progress is kept.
//
// UI modules only call load(), update(), subscribe() and onProblem(), and get Promises back, so
// another backend can replace this one without touching them (issue 5: from file:// in Firefox
// every file has a localStorage of its own, so a store page talked to by postMessage is planned).
//
// This backend: window.localStorage, one JSON value (format in progress-format.js) under the
// site-scoped key "refsite-progress:<site key>". The site key comes from
// <meta data-progress-key content="…"> (overrides/main.html: mkdocs.yml `extra.progress_key`,
// else `site_name`), so it survives moving the site to another folder or host path.
//
// Faults never break the page and never destroy data:
// - blocked: merely touching `localStorage` throws. Ticks live in memory for this page only.
// - full: setItem throws. What is stored stays as it was; the tick stays on screen, unsaved.
// - unreadable: the value is not progress. It is copied to "<key>:unreadable:<time>" and only
//   then removed; if even the copy cannot be written, nothing is ever written over it.
// Each fault is reported once to onProblem() listeners (progress-warning.js says it on the page).

import { emptyProgress, ProgressFormatError, readProgress } from "./progress-format.js";
import { createFrameStore, usesFrameStore } from "./progress-filestore.js";

const KEY_PREFIX = "refsite-progress:";

export function storageKey(doc = document) {
  const siteKey = doc.querySelector("meta[data-progress-key]")?.content ?? "";
  return KEY_PREFIX + siteKey;
}

export function siteKey(doc = document) {
  return storageKey(doc).slice(KEY_PREFIX.length);
}

function openLocalStorage() {
  try {
    const storage = window.localStorage;
    storage.getItem(KEY_PREFIX); // some browsers only throw on first use
    return storage;
  } catch {
    return null;
  }
}

function createLocalStore(key) {
  const storage = openLocalStorage();
  const listeners = new Set();
  const problemListeners = new Set();
  const problems = [];
  let current = emptyProgress();
  let keepOut = false; // an unreadable value we could not move aside sits under `key`
  let unsaved = false; // the last save failed, so `current` holds more than storage does

  function report(problem) {
    if (problems.some((seen) => seen.kind === problem.kind)) return;
    problems.push(problem);
    for (const listener of problemListeners) listener(problem);
  }

  function emit() {
    for (const listener of listeners) listener(current);
  }

  function moveAside(text) {
    const aside = `${key}:unreadable:${new Date().toISOString()}`;
    try {
      storage.setItem(aside, text);
      storage.removeItem(key);
      report({ kind: "unreadable", aside });
    } catch {
      keepOut = true;
      report({ kind: "unreadable-kept" });
    }
  }

  // What storage holds now (another tab may have written since we last looked).
  function readStored() {
    const text = storage.getItem(key);
    if (text === null) return emptyProgress();
    try {
      return readProgress(JSON.parse(text));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof ProgressFormatError)) throw error;
      moveAside(text);
      return emptyProgress();
    }
  }

  const usable = () => storage !== null && !keepOut;

  if (storage === null) report({ kind: "blocked" });
  else current = readStored();

  if (storage !== null) {
    window.addEventListener("storage", (event) => {
      // key null: another tab cleared the whole storage.
      if ((event.key !== key && event.key !== null) || !usable()) return;
      current = readStored();
      unsaved = false;
      emit();
    });
  }

  return {
    load: async () => current,

    /** change(progress) → new progress. Resolves with { progress, saved }. */
    async update(change) {
      const base = usable() && !unsaved ? readStored() : current;
      current = change(base);
      let saved = false;
      if (usable()) {
        try {
          storage.setItem(key, JSON.stringify(current));
          saved = true;
        } catch {
          report({ kind: "full" });
        }
      }
      unsaved = !saved;
      emit();
      return { progress: current, saved };
    },

    /** listener(progress) after every change, from this tab or another; returns unsubscribe. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** listener({ kind, aside? }) once per fault, including those found before subscribing. */
    onProblem(listener) {
      problems.forEach(listener);
      problemListeners.add(listener);
      return () => problemListeners.delete(listener);
    },
  };
}

let store = null;

/** The page's store: one per page load, shared by every progress module. */
export function progressStore() {
  // Opened from disk, pages may not share localStorage (Firefox): a store page does instead.
  store ??= usesFrameStore() ? createFrameStore(storageKey()) : createLocalStore(storageKey());
  return store;
}
