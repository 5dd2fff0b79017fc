// Work for when the main thread is idle: requestIdleCallback, or a timer where a browser has
// none (Safari), with a deadline that says there is no time left (work then takes its own slice).

/** Run `work(deadline)` when idle, within `timeout` ms; returns the function that cancels it. */
export function whenIdle(work, { timeout }) {
  if (window.requestIdleCallback) {
    const handle = window.requestIdleCallback(work, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => work({ didTimeout: true, timeRemaining: () => 0 }), 0);
  return () => clearTimeout(handle);
}

// A text at least this long is answered in steps, each a task of its own, so that the page
// answers input between them: a megabyte's paste answered in one task left it deaf for a third
// of a second. (Shorter ones are answered at once: each step waits for the next task.)
export const LONG_TEXT = 20_000;

/** A promise that resolves in a later task, after input waiting to be handled. */
export function yieldToInput() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
