// Work for when the reader is not typing or scrolling: requestIdleCallback, or a zero timeout
// where the browser has none (Safari before 18), which says it has no idle time left.

export const whenIdle = window.requestIdleCallback?.bind(window)
  ?? ((callback) => setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 0));

export const cancelIdle = window.cancelIdleCallback?.bind(window) ?? clearTimeout;
