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
 * Calls emit(foldedChar, sourceOffset) for each folded character of `text`, collapsing runs of
 * whitespace. `state.space` carries "the last emitted character was a space" across calls, so
 * text split over several nodes collapses as one.
 */
export function foldInto(text, state, emit) {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let result;
    if (code < 128) {
      // Fast path: almost all of an error page is ASCII or CJK.
      if (code === 32 || (code >= 9 && code <= 13)) result = " ";
      else result = code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
    } else {
      const wide = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
      result = foldNonAscii(wide ? text.slice(i, i + 2) : text[i]);
      if (wide) {
        emitAll(result, i, state, emit);
        i++;
        continue;
      }
    }
    emitAll(result, i, state, emit);
  }
}

function emitAll(result, offset, state, emit) {
  for (let k = 0; k < result.length; k++) {
    const char = result[k];
    if (char === " ") {
      if (state.space) continue;
      state.space = true;
    } else {
      state.space = false;
    }
    emit(char, offset);
  }
}

/** The folded form of a query: the same folding, without leading or trailing space. */
export function foldQuery(query) {
  let out = "";
  foldInto(String(query), { space: true }, (char) => { out += char; });
  return out.endsWith(" ") ? out.slice(0, -1) : out;
}
