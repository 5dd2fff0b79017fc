// Where progress is kept when the site is opened from disk (file://).
//
// Chromium shares one localStorage among all file:// pages, but Firefox gives every file its own
// (with its default security.fileuri.strict_origin_policy): a tick on 附录A never reached the
// home page's total. So from disk every page embeds one hidden page, progress-store-frame.html,
// and asks it by postMessage. An iframe's storage belongs to the iframe's own document, so it is
// the same whichever page embeds it — measured in Firefox ESR 153 and Chromium (README, "Offline copy").
//
// Same interface as the localStorage store in progress-store.js, which picks this one for
// file:// pages: load(), update(change) → { progress, saved }, subscribe(listener) and
// onProblem(listener). Same fault policy too: a store page that never answers or whose storage
// is blocked → "blocked" (ticks live in memory for this page); a write refused → "full"; a value
// that is not progress is copied aside before it is removed ("unreadable"), or, if even the copy
// fails, never written over ("unreadable-kept").

import { emptyProgress, ProgressFormatError, readProgress } from "./progress-format.js";

const CHANNEL = "refsite-progress-store";
const FRAME_URL = new URL("./progress-store-frame.html", import.meta.url).href;
// Long enough for a slow disk; after that the page says progress can't be saved.
const READY_TIMEOUT_MS = 5000;

/** True where pages cannot be trusted to share localStorage: the copy opened from disk. */
export function usesFrameStore(location = window.location) {
  return location.protocol === "file:";
}

/** The hidden store page: request(op, key, value) → Promise, onChange(listener), ready. */
function openFrame(url) {
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.title = "进度存储";
  frame.setAttribute("aria-hidden", "true");
  frame.dataset.progressStoreFrame = "";
  frame.src = url;

  const pending = new Map();
  const changeListeners = new Set();
  let nextId = 1;
  let markReady;
  const ready = new Promise((resolve) => { markReady = resolve; });
  const timeout = setTimeout(() => markReady(false), READY_TIMEOUT_MS);

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== frame.contentWindow || message?.channel !== CHANNEL) return;
    if (message.event === "ready") {
      clearTimeout(timeout);
      markReady(true);
    } else if (message.event === "changed") {
      for (const listener of changeListeners) listener(message.key);
    } else if (pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) resolve(message.value);
      else reject(new Error(`progress store: ${message.error}`));
    }
  });
  (document.body ?? document.documentElement).append(frame);

  return {
    ready,
    request(op, key, value) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        frame.contentWindow.postMessage({ channel: CHANNEL, id, op, key, value }, "*");
      });
    },
    onChange(listener) {
      changeListeners.add(listener);
    },
  };
}

export function createFrameStore(key, frameUrl = FRAME_URL) {
  const frame = openFrame(frameUrl);
  const listeners = new Set();
  const problemListeners = new Set();
  const problems = [];
  let current = emptyProgress();
  let usable = false; // the store page answered and could read `key`
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
      await frame.request("set", aside, text);
      await frame.request("remove", key);
      report({ kind: "unreadable", aside });
    } catch {
      keepOut = true;
      report({ kind: "unreadable-kept" });
    }
  }

  // What the store holds now (another page or tab may have written since we last looked).
  async function readStored() {
    const text = await frame.request("get", key);
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
    if (!(await frame.ready)) return report({ kind: "blocked" });
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

  frame.onChange((changedKey) => {
    if (changedKey !== key && changedKey !== null) return;
    inTurn(async () => {
      if (!canSave()) return;
      current = await readStored();
      unsaved = false;
      emit();
    });
  });

  return {
    load: () => inTurn(async () => current),

    /** change(progress) → new progress. Resolves with { progress, saved }. */
    update: (change) => inTurn(async () => {
      const base = canSave() && !unsaved ? await readStored() : current;
      current = change(base);
      let saved = false;
      if (canSave()) {
        try {
          await frame.request("set", key, JSON.stringify(current));
          saved = true;
        } catch {
          report({ kind: "full" });
        }
      }
      unsaved = !saved;
      emit();
      return { progress: current, saved };
    }),

    /** listener(progress) after every change, from this page or another; returns unsubscribe. */
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
