// The status line (role="status"): what the box found, in words a screen reader reads out.
// The ranked suggestions word their own states (find-suggest.js).

export class Status {
  constructor(element) {
    this.element = element;
    this.note = ""; // said after whatever the box found: a paste held several errors
  }

  set(text) {
    const said = text && this.note ? `${text} · ${this.note}` : text;
    if (this.element.textContent !== said) this.element.textContent = said;
  }
}

/**
 * Where the reader is among the literal matches. `messagePart`: what matched is the message of a
 * pasted line, without the exception's name in front of it; `leftOut`: every match is in 九.
 */
export function matchStatus(current, count, entryCount, { messagePart = false, leftOut = false, counting = false } = {}) {
  const found = leftOut ? "本页没有收录这条报错，它只出现在本页故意没收的那一节里"
    : messagePart ? "本页有这条报错的原文（不算开头的异常名）" : "本页有这段原文";
  if (counting) return `${found}：第 ${current + 1} 处 · 已找到 ${count} 处，还在数`;
  return `${found}：第 ${current + 1}/${count} 处 · 共 ${count} 处匹配，在 ${entryCount} 个条目里`;
}

/** Said while the page's text is still being read and nothing was found in what was read. */
export const STILL_COUNTING = "还在读这一页的正文，稍等";

/** Said when the templates or the index did not load: no verdict can be given. */
export const RULES_FAILED = "本页没有这段原文；比对用的索引没能加载，没法判断是否收录。";
