// Where progress is kept when the site is opened from disk (file://): the store page's backend.
//
// Chromium shares one localStorage among all file:// pages, but Firefox gives every file its own
// (with its default security.fileuri.strict_origin_policy): a tick on 附录A never reached the
// home page's total. So from disk every page embeds one hidden page, progress-store-frame.html,
// and asks it by postMessage. An iframe's storage belongs to the iframe's own document, so it is
// the same whichever page embeds it — measured in Firefox ESR 153 and Chromium (README, "Offline copy").
//
// Only the transport lives here. progress-store.js imports this module on file:// pages and runs
// the one store (its read-modify-write queue and fault rules) over the backend it returns:
// get/set/remove(key) → Promise, each a request the store page answers (a refused write
// rejects), and onChange(listener) for the store page's "changed" messages.

const CHANNEL = "refsite-progress-store";
const FRAME_URL = new URL("./progress-store-frame.html", import.meta.url).href;
// Long enough for a slow disk; after that the page says progress can't be saved.
const READY_TIMEOUT_MS = 5000;

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

/** The store page as a backend for progress-store.js, or null if it never answers (blocked). */
export async function openFrameBackend(frameUrl = FRAME_URL) {
  const frame = openFrame(frameUrl);
  if (!(await frame.ready)) return null;
  return {
    get: (key) => frame.request("get", key),
    set: (key, value) => frame.request("set", key, value),
    remove: (key) => frame.request("remove", key),
    onChange: frame.onChange,
  };
}
