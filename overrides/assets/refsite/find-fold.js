// Literal matching forgives what pasted text varies in. Page text and query are folded the same
// way, one code point at a time, so every folded character still knows where it came from:
// case, width (NFKC, which also turns `…` into `...`), curly quotes, runs of whitespace and line
// breaks (one space), and invisible characters (dropped).

import { INVISIBLE_CLASS, QUOTES } from "./find-textfold.js";

const INVISIBLE = new RegExp(`^[${INVISIBLE_CLASS}]$`);
const WHITESPACE = /^\s$/;

// Folding a non-ASCII character costs a normalize(); pages repeat few distinct characters.
const folded = new Map();

function foldNonAscii(char) {
  let result = folded.get(char);
  if (result === undefined) {
    if (INVISIBLE.test(char)) result = "";
    else if (WHITESPACE.test(char)) result = " ";
    else {
      result = "";
      for (const part of char.normalize("NFKC").toLowerCase()) {
        result += QUOTES[part] ?? (WHITESPACE.test(part) ? " " : part);
      }
    }
    folded.set(char, result);
  }
  return result;
}

/**
 * The folded form of `text`, runs of whitespace collapsed. Each folded character's offset in
 * `text` is pushed to `offsets` (a GrowableInt32; null when nobody needs them); a character that
 * folds to several (`…` to `...`) gives each of them its own offset. `state.space` carries "the
 * last folded character was a space" across calls, so text split over several nodes collapses
 * as one. Stretches that fold to themselves (lowercase ASCII, most CJK) are copied whole: one
 * string per character made folding a long page a few hundred milliseconds of garbage.
 */
export function foldText(text, state, offsets = null) {
  let out = "";
  let space = state.space;
  let run = 0; // text[run, i) folds to itself and is not in `out` yet
  const flush = (end) => {
    if (end === run) return;
    out += text.slice(run, end);
    if (offsets) for (let k = run; k < end; k++) offsets.push(k);
  };
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const blank = code === 32 || (code >= 9 && code <= 13);
    if (code < 128 && !blank && (code < 65 || code > 90)) {
      space = false; // Fast path: almost all of an error page is ASCII or CJK.
      i += 1;
      continue;
    }
    let width = 1;
    let result;
    if (code < 128) {
      result = blank ? " " : String.fromCharCode(code + 32);
    } else {
      width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      const char = width === 2 ? text.slice(i, i + 2) : text[i];
      result = foldNonAscii(char);
      if (width === 1 && result === char) {
        space = false;
        i += 1;
        continue;
      }
    }
    flush(i);
    for (let k = 0; k < result.length; k++) {
      const char = result[k];
      if (char === " ") {
        if (space) continue;
        space = true;
      } else {
        space = false;
      }
      out += char;
      offsets?.push(i);
    }
    i += width;
    run = i;
  }
  flush(text.length);
  state.space = space;
  return out;
}

// The last query folded: a paste's text is folded to find it on the page, to fit the templates
// and to search again as the box's query; a megabyte's fold is tens of milliseconds each time.
let lastQuery = { text: null, folded: "" };

/** The folded form of a query: the same folding, without leading or trailing space. */
export function foldQuery(query) {
  const text = String(query);
  if (text !== lastQuery.text) {
    const out = foldText(text, { space: true });
    lastQuery = { text, folded: out.endsWith(" ") ? out.slice(0, -1) : out };
  }
  return lastQuery.folded;
}
