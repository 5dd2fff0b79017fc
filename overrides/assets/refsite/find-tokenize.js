// Terms for the ranked search: the mirror, rule for rule, of `tokenize` in
// hooks/pytorch_error_lookup/textfold.py, which built the index. tests/test_find_tokenize.py runs both on
// the same inputs and requires equal output. No stemming: lunr.py's and lunr.js's Porter stemmers
// disagree, and a pasted error repeats the page's own wording anyway.

import { INVISIBLE_CLASS, QUOTES } from "./find-textfold.js";

const QUOTE_CHARS = new RegExp(`[${Object.keys(QUOTES).join("")}]`, "g");
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, "g");
const ANSI_ESCAPE = /\x1b\[[0-9;]*[A-Za-z]/g;
const URL_TEXT = /https?:\/\/[^ \t\r\n]+/g;

const TRACEBACK_HEADER = /traceback \(most recent call last\):?/gi;
const LINE_BREAK = /\r\n|\r|\n/;
const INDENT = /^[ \t]*/;
// A frame's line, also with its `File ` cut (then with its `, in f`): textfold._FRAME_LINE.
const FRAME_LINE = /^([ \t]*)(?:File "[^"\n]*", line \d+|"[^"\n]*", line \d+, in )/i;
const FRAME_INLINE = /File "[^"\n]*", line \d+(?:, in [^ \t\r\n]+)?/gi;
const CARETS = /[\^~]{2,}/g;
const CHAIN_LINES = /during handling of the above exception, another exception occurred:|the above exception was the direct cause of the following exception:/gi;

const WORD = /([A-Za-z0-9_]+)|([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)/g;
const CAMEL_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const NUMERIC = /^(?:\d+(?:x\d+)*|0x[0-9a-f]+)$/;

export function normalize(text) {
  return text.normalize("NFKC").replace(QUOTE_CHARS, (quote) => QUOTES[quote]).replace(INVISIBLE, "");
}

export function stripTracebackNoise(text) {
  const kept = [];
  let frameIndent = null;
  for (const line of text.replace(ANSI_ESCAPE, " ").split(LINE_BREAK)) {
    const frame = FRAME_LINE.exec(line);
    if (frame) {
      frameIndent = frame[1].length;
      continue;
    }
    const indent = INDENT.exec(line)[0].length;
    if (frameIndent !== null && indent > frameIndent && indent < line.length) continue;
    frameIndent = null;
    kept.push(line);
  }
  let result = kept.join("\n");
  for (const noise of [FRAME_INLINE, TRACEBACK_HEADER, CHAIN_LINES, CARETS, URL_TEXT]) {
    result = result.replace(noise, " ");
  }
  return result;
}

function wordTokens(word) {
  const parts = word.split("_").flatMap((piece) => piece.split(CAMEL_BOUNDARY)).map((part) => part.toLowerCase());
  const kept = parts.filter((part) => part.length > 1 && !NUMERIC.test(part));
  if (kept.length > 1) kept.push(word.replace(/^_+|_+$/g, "").toLowerCase());
  return kept;
}

function cjkTokens(run) {
  if (run.length === 1) return [run];
  const bigrams = [];
  for (let i = 0; i + 1 < run.length; i++) bigrams.push(run.slice(i, i + 2));
  return bigrams;
}

/** Each word of `text` as [word, Latin word, run of CJK], in order, its traceback frames and noise gone. */
function words(text) {
  return stripTracebackNoise(normalize(String(text))).matchAll(WORD);
}

function terms(latin, cjk) {
  return latin ? wordTokens(latin) : cjkTokens(cjk);
}

/** Terms of `text`, in order, repeats kept. */
export function tokenize(text) {
  const tokens = [];
  for (const [, latin, cjk] of words(text)) tokens.push(...terms(latin, cjk));
  return tokens;
}

/**
 * The first `limit` distinct terms of `text`, in order: tokenize's, repeats dropped (textfold.
 * distinct_tokens). Each distinct word is split once however often it comes.
 */
export function distinctTokens(text, limit) {
  const seen = new Set();
  const found = new Set();
  for (const [word, latin, cjk] of words(text)) {
    if (seen.has(word)) continue;
    seen.add(word);
    for (const term of terms(latin, cjk)) found.add(term);
    if (found.size >= limit) break;
  }
  return [...found].slice(0, limit);
}
