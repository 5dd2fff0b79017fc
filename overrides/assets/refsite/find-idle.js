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
