// The one place that knows where progress is kept.
//
// UI modules only call load(), update(), subscribe() and onProblem(), and get Promises back.
// The store keeps one JSON value (format in progress-format.js) under the site-scoped key
// "refsite-progress:<site key>". The site key comes from <meta data-progress-key content="…">
// (overrides/main.html: mkdocs.yml `extra.progress_key`, else `site_name`), so it survives moving
// the site to another folder or host path.
//
// The store is written once, over a backend: { get(key), set(key, value), remove(key) } returning
// Promises (a refused write rejects), and onChange(listener(key)) for writes made by other tabs
// (key null: storage cleared). Two backends:
// - over http(s): this page's window.localStorage (localStorageBackend below); other tabs are
//   heard through the `storage` event.
// - from disk (file://): a hidden store page talked to by postMessage (progress-filestore.js).
//   Firefox gives every file its own localStorage, so a tick on 附录A would never reach the home
//   page's total; the store page's storage is the same whichever page embeds it. That module is
//   imported only there, so pages served over http(s) never fetch it.
//
// Faults never break the page and never destroy data:
// - blocked: no backend (touching `localStorage` throws, or the store page never answers), or it
//   cannot even be read. Ticks live in memory for this page only.
// - full: a write is refused. What is stored stays as it was; the tick stays on screen, unsaved.
// - unreadable: the value is not progress. It is copied to "<key>:unreadable:<time>" and only
//   then removed; if even the copy cannot be written, nothing is ever written over it.
// Each fault is reported once to onProblem() listeners (progress-warning.js says it on the page).

import { emptyProgress, ProgressFormatError, readProgress } from "./progress-format.js";

const KEY_PREFIX = "refsite-progress:";

export function storageKey(doc = document) {
  const siteKey = doc.querySelector("meta[data-progress-key]")?.content ?? "";
  return KEY_PREFIX + siteKey;
}

export function siteKey(doc = document) {
  return storageKey(doc).slice(KEY_PREFIX.length);
}

/** This page's localStorage as a backend, or null where merely touching it throws (blocked). */
function localStorageBackend() {
  let storage;
  try {
    storage = window.localStorage;
    storage.getItem(KEY_PREFIX); // some browsers only throw on first use
  } catch {
    return null;
  }
  return {
    get: async (key) => storage.getItem(key),
    set: async (key, value) => storage.setItem(key, value),
    remove: async (key) => storage.removeItem(key),
    onChange(listener) {
      window.addEventListener("storage", (event) => listener(event.key));
    },
  };
}

/** The store under `key`, over `backendOpened`: a Promise of a backend, or of null if blocked. */
function createStore(key, backendOpened) {
  const listeners = new Set();
  const problemListeners = new Set();
  const problems = [];
  let backend = null;
  let current = emptyProgress();
  let usable = false; // the backend opened and could read `key`
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

  async function moveAside(text) {
    const aside = `${key}:unreadable:${new Date().toISOString()}`;
    try {
      await backend.set(aside, text);
      await backend.remove(key);
      report({ kind: "unreadable", aside });
    } catch {
      keepOut = true;
      report({ kind: "unreadable-kept" });
    }
  }

  // What storage holds now (another tab may have written since we last looked).
  async function readStored() {
    const text = await backend.get(key);
    if (text === null) return emptyProgress();
    try {
      return readProgress(JSON.parse(text));
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof ProgressFormatError)) throw error;
      await moveAside(text);
      return emptyProgress();
    }
  }

  const canSave = () => usable && !keepOut;

  // Every read-modify-write waits for the one before: two quick ticks must not both start from
  // the same stored value, or the second would write over the first.
  let queue = (async () => {
    backend = await backendOpened.catch(() => null);
    if (backend === null) return report({ kind: "blocked" });
    backend.onChange((changedKey) => {
      if (changedKey !== key && changedKey !== null) return;
      inTurn(async () => {
        if (!canSave()) return;
        current = await readStored();
        unsaved = false;
        emit();
      });
    });
    try {
      current = await readStored();
      usable = true;
    } catch {
      report({ kind: "blocked" });
    }
  })();

  function inTurn(task) {
    const run = queue.then(task);
    queue = run.catch(() => {});
    return run;
  }

  return {
    load: () => inTurn(async () => current),

    /** change(progress) → new progress. Resolves with { progress, saved }. */
    update: (change) => inTurn(async () => {
      const base = canSave() && !unsaved ? await readStored() : current;
      current = change(base);
      let saved = false;
      if (canSave()) {
        try {
          await backend.set(key, JSON.stringify(current));
          saved = true;
        } catch {
          report({ kind: "full" });
        }
      }
      unsaved = !saved;
      emit();
      return { progress: current, saved };
    }),

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

function openBackend() {
  // Opened from disk, pages may not share localStorage (Firefox): a store page does instead.
  if (location.protocol === "file:") {
    return import("./progress-filestore.js").then((filestore) => filestore.openFrameBackend());
  }
  return Promise.resolve(localStorageBackend());
}

let store = null;

/** The page's store: one per page load, shared by every progress module. */
export function progressStore() {
  store ??= createStore(storageKey(), openBackend());
  return store;
}
