// What the box shows of a pasted query, and what it says about the paste. Loaded with the code
// that reads a paste (find-paste.js, in the lazy file), not with the page.

// The most of a pasted query the box shows whole (a 10,000-character paste is); a longer one is
// shown cut. A text field lays out each change between Latin and other script (Han) as a run of
// its own, about 0.1 ms each (10,000 characters of `loss 下降 ` took 230 ms to show, the same
// length in one script 2 ms): the box shows at most SHOWN_RUNS runs of other script.
const SHOWN_MAX = 10_000;
const SHOWN_RUNS = 200;
const OTHER_SCRIPT = /[^\u0000-\u024f]+/g; // beyond Latin (and Latin Extended)

/** What the box shows of `query`: all of it, or its start and `…`. */
export function shownPart(query) {
  const head = query.slice(0, SHOWN_MAX);
  let end = head.length;
  let runs = 0;
  for (const run of head.matchAll(OTHER_SCRIPT)) {
    if (++runs === SHOWN_RUNS) {
      end = run.index + run[0].length;
      break;
    }
  }
  return end === query.length ? query : `${cutAt(query, end)}…`;
}

/** `text`'s first `length` code units, never half of a character outside the BMP. */
function cutAt(text, length) {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * What the status line adds for a paste (find.js pastedQuery's answer `chosen`, shown as
 * `shown`): that it held several errors, and that the box shows it cut.
 */
export function pasteNote({ query, others, explained }, shown) {
  return [
    others === 0 ? "" : `粘贴里共有 ${others + 1} 条报错，这里查的是${explained ? "本页能解释的第一条" : "第一条"}`,
    shown === query ? "" : `框里只显示开头，查的是全文（${query.length} 字）；改动框里的字，就只查框里的部分`,
  ].filter(Boolean).join(" · ");
}
