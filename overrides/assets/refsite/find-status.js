// The status line (role="status"): what the box found, in words a screen reader reads out.
// The ranked suggestions word their own states (find-suggest.js).

export class Status {
  constructor(element) { this.element = element; }

  set(text) {
    if (this.element.textContent !== text) this.element.textContent = text;
  }
}

/** Where the reader is among the literal matches. */
export function matchStatus(current, count, entryCount) {
  return `第 ${current + 1}/${count} 处 · 共 ${count} 处匹配，在 ${entryCount} 个条目里`;
}
