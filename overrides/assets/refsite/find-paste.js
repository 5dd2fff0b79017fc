// What a reader pastes, reduced to the error messages in it: the mirror, step for step, of
// hooks/pytorch_error_lookup/paste.py (its docstring says each step). The patterns are that
// module's PASTE_RULES, written by the build into find-index/<page>.rules.js; tests/fixtures/
// paste_cases.yml runs through both engines and requires equal output (tests/test_paste.py).

import { stripTracebackNoise } from "./find-tokenize.js";

const LINE_BREAK = /\r\n|\r|\n/;
const SPACES = /[ \t\u00a0]+/g;
const CJK = /[\u3400-\u9fff]/;

/** The rules as RegExps, compiled once per rules object. */
const compiledRules = new WeakMap();

/** One pattern for a list: each line is looked at once, not once per rule. */
const anyOf = (patterns) => new RegExp(patterns.map((pattern) => `(?:${pattern})`).join("|"));

function compile(rules) {
  let compiled = compiledRules.get(rules);
  if (!compiled) {
    const one = (key, flags = "m") => new RegExp(rules[key], flags);
    compiled = {
      jsonString: one("json_string"),
      notJson: one("not_json"),
      jsonEscape: one("json_escape", "gm"),
      entity: one("entity", "gm"),
      ansi: one("ansi", "gm"),
      escapedQuote: one("escaped_quote", "gm"),
      prefix: anyOf(rules.prefixes),
      drop: anyOf(rules.drop_lines),
      dropNotNumbered: anyOf(rules.drop_lines.filter((pattern) => pattern !== rules.numbered_line)),
      ipythonArrow: one("ipython_arrow"),
      markup: one("markup", "gm"),
      rank: one("rank"),
      traceback: one("traceback"),
      tracebackStart: one("traceback_start"),
      continues: one("continues", "im"),
      errorLine: one("error_line"),
      messageLine: one("message_line"),
      bareError: one("bare_error", ""),
      raiseLine: one("raise_line"),
      stack: one("stack"),
      frame: one("frame", ""),
      frameName: one("frame_name", ""),
      namesAnError: one("names_an_error", ""),
      englishWords: one("english_words", ""),
      quoted: Object.entries(rules.quoted).map(([opener, pattern]) => [opener, new RegExp(pattern, "gm")]),
      quotedWord: one("quoted_word", "gm"),
    };
    compiledRules.set(rules, compiled);
  }
  return compiled;
}

// Python's str.strip() and JavaScript's trim() differ on a few control characters; both sides
// strip exactly these.
const EDGE_SPACE = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g;
const TRAILING_SPACE = /[\s\x1c-\x1f\x85]+$/;
const strip = (text) => text.replace(EDGE_SPACE, "");
const codePoints = (text) => [...text].length;

// A paste is read by several steps (reducePaste, its frames, its end): the last one decoded is kept.
let lastDecoded = { text: null, rules: null, decoded: "" };

function decode(text, rules, re) {
  if (lastDecoded.text === text && lastDecoded.rules === rules) return lastDecoded.decoded;
  lastDecoded = { text, rules, decoded: decodeAfresh(text, rules, re) };
  return lastDecoded.decoded;
}

function decodeAfresh(text, rules, re) {
  let decoded = text;
  if (!/[\r\n]/.test(decoded) && re.jsonString.test(decoded) && !re.notJson.test(decoded)) {
    decoded = decoded.replace(re.jsonEscape, (escape) => rules.json_escapes[escape]);
  }
  decoded = decoded.replace(re.entity, (entity) => rules.entities[entity]);
  decoded = decoded.replace(re.escapedQuote, "$1");
  return decoded.replace(re.ansi, "");
}

function stripPrefixes(line, re) {
  let rest = line;
  let found;
  while (rest && (found = re.prefix.exec(rest)) && found.index === 0 && found[0].length > 0) {
    rest = rest.slice(found[0].length);
  }
  return rest;
}

function byRank(lines, re) {
  const streams = new Map();
  let current = null;
  for (const line of lines) {
    const found = re.rank.exec(line);
    if (found) current = found[1];
    const key = current ?? "";
    if (!streams.has(key)) streams.set(key, []);
    streams.get(key).push(line);
  }
  return [...streams.values()].filter((stream) => stream.length > 0);
}

/** The text on one line, its Markdown still in. */
function joinedLine(text) {
  const parts = stripTracebackNoise(text).split(LINE_BREAK).map((part) => strip(part.replace(SPACES, " ")));
  return parts.filter(Boolean).join(" ");
}

function oneLine(text, re) {
  return strip(joinedLine(text).replace(re.markup, ""));
}

/** The messages quoted in an error's text (`joined`: its Markdown still in, so that a `code` span
 * is a quote), in the order they appear, once each: runs of at least `quoted_words` words. */
function quotedIn(joined, text, rules, re) {
  const found = re.quoted.filter(([opener]) => joined.includes(opener)).flatMap(([, pattern]) => [...joined.matchAll(pattern)]
    .map((match) => [match.index, strip(match[1].replace(re.markup, ""))]));
  found.sort((a, b) => a[0] - b[0]);
  const spans = found.map(([, span]) => span)
    .filter((span) => span !== text && (span.match(re.quotedWord) ?? []).length >= rules.quoted_words);
  return [...new Set(spans)];
}

function unwrapped(lines, rawLengths, rules, re) {
  const width = Math.max(0, ...rawLengths);
  if (width < rules.wrap_width || !rawLengths.slice(0, -1).some((length) => length === width)) return null;
  let joined = "";
  lines.forEach((line, index) => {
    joined += rawLengths[index] === width ? strip(line) : `${strip(line)}\n`;
  });
  return oneLine(joined, re) || null;
}

function errorsOf(lines, rules, re) {
  const stripped = lines.map((line) => stripPrefixes(line, re));
  const ipython = stripped.some((line) => re.ipythonArrow.test(line));
  const drop = ipython ? re.drop : re.dropNotNumbered;
  const kept = [];
  const rawLengths = [];
  lines.forEach((raw, index) => {
    const line = stripped[index];
    if (drop.test(line)) return;
    kept.push(line);
    rawLengths.push(codePoints(raw.replace(TRAILING_SPACE, "")));
  });
  const blocks = [[]];
  let hasError = false;
  let hasMessage = false; // of the block being read
  kept.forEach((line, index) => {
    const block = blocks[blocks.length - 1];
    if (re.traceback.test(line) && block.length > 0
        && !block.slice(-3).some((previous) => re.continues.test(kept[previous]))) {
      if (hasError) blocks.push([]);
      else if (!hasMessage) blocks[blocks.length - 1] = [];
      if (blocks[blocks.length - 1].length === 0) hasError = hasMessage = false;
    }
    blocks[blocks.length - 1].push(index);
    if (re.messageLine.test(line)) { // every error line is a message line
      hasMessage = true;
      hasError ||= re.errorLine.test(line);
    }
  });
  const errors = [];
  for (const block of blocks) {
    const textLines = block.map((index) => kept[index]);
    const joined = joinedLine(textLines.join("\n"));
    const text = strip(joined.replace(re.markup, ""));
    const raised = re.messageLine.test(text) ? null : raisedMessage(textLines, re);
    if (raised) {
      const withRaised = strip(`${text} ${raised}`);
      errors.push({ text: withRaised, unwrapped: null, quoted: [], readings: [withRaised] });
    } else if (text) {
      const wraps = unwrapped(textLines, block.map((index) => rawLengths[index]), rules, re);
      const other = wraps === text ? null : wraps;
      const quoted = quotedIn(joined, text, rules, re);
      errors.push({ text, unwrapped: other, quoted, readings: [text, ...(other === null ? [] : [other]), ...quoted] });
    }
  }
  return errors;
}

/** `RuntimeError: message` from the last `raise RuntimeError("message")` code line, if any. */
function raisedMessage(lines, re) {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const found = re.raiseLine.exec(lines[index]);
    if (found) return `${found[1]}: ${found[3]}`;
  }
  return null;
}

/** The errors of a paste, in order: [{ text, unwrapped, quoted, readings }]. */
export function reducePaste(text, rules) {
  const re = compile(rules);
  const lines = [...tailOf(String(text), rules, re)];
  return byRank(lines, re).flatMap((stream) => errorsOf(stream, rules, re));
}

/** Whether a query is a description in the reader's words (a symptom), not an error's text
 * (paste.in_words): it is in Chinese, names no exception and holds no run of English words. */
export function inWords(query, rules) {
  const re = compile(rules);
  return CJK.test(query) && !re.namesAnError.test(query) && !re.englishWords.test(query);
}

/**
 * Whether the traceback a paste ends with names no error or warning (paste.ends_unfinished):
 * from its last `Traceback` line (else its first frame) on, no line does. Cut before its end,
 * it hides the frames below, where a row's call would be.
 */
export function endsUnfinished(text, rules) {
  const re = compile(rules);
  const lines = decode(String(text), rules, re).split(LINE_BREAK);
  let start = lines.findLastIndex((line) => re.tracebackStart.test(line));
  if (start < 0) start = lines.findIndex((line) => re.stack.test(line));
  if (start < 0) start = lines.length;
  return !lines.slice(start + 1).some((line) => re.messageLine.test(line));
}

/** A paste as every step reads it: JSON's escapes, HTML's entities and colour codes undone (paste.decoded). */
export function decoded(text, rules) {
  return decode(String(text), rules, compile(rules));
}

// Read by reducePaste and by each row with a context (find-verdict.js offContextRows), of the same paste.
let lastTail = { text: null, rules: null, lines: [] };

/** The last `tail_lines` lines of a paste as decoded: an error is read from them, and a
 * traceback's frames are among them (paste._tail_of). */
function tailOf(text, rules, re) {
  if (lastTail.text !== text || lastTail.rules !== rules) {
    lastTail = { text, rules, lines: decode(text, rules, re).split(LINE_BREAK).slice(-rules.tail_lines) };
  }
  return lastTail.lines;
}

/** [file, function] of each frame of a paste, in order, as Python and IPython print them (the
 * file "" where a frame names none) (paste.frames_of). */
export function framesOf(text, rules) {
  const re = compile(rules);
  return tailOf(String(text), rules, re).map((line) => re.frameName.exec(line))
    .filter((found) => found !== null).map((found) => [found[1] ?? found[3] ?? found[4] ?? "", found[2] ?? found[5]]);
}

/** Whether a paste shows a traceback's frames, as Python or IPython prints them (paste.shows_frames). */
export function showsFrames(text, rules) {
  const re = compile(rules);
  return tailOf(String(text), rules, re).some((line) => re.frame.test(line) || re.frameName.test(line));
}

/** The files a paste's frames name, as Python or IPython prints them, once each (paste.frame_files). */
export function frameFiles(text, rules) {
  const re = compile(rules);
  const python = tailOf(String(text), rules, re).map((line) => re.frame.exec(line))
    .filter((found) => found !== null).map((found) => found[1] ?? found[2]);
  return [...new Set([...python, ...framesOf(text, rules).map(([file]) => file)].filter(Boolean))];
}

/** The functions a paste's frames ran, in order, as one line (paste.shown_frames): what a
 * traceback cut before its message still says. */
export function shownFrames(text, rules) {
  return framesOf(text, rules).map(([, fn]) => fn).join(" → ");
}

/** Whether the error is an exception's name alone (`RuntimeError`, paste.name_only). */
export function nameOnly(error, rules) {
  return compile(rules).bareError.test(error.text);
}

/** Whether the paste shows an error without its message (paste.message_missing): none of its
 * errors (reducePaste's) names an exception or a warning with words after it, and it is a
 * traceback (frames) or one of its errors is an exception's name alone (`RuntimeError`). */
export function messageMissing(text, errors, rules) {
  const re = compile(rules);
  const bare = errors.map((error) => nameOnly(error, rules));
  if (errors.some((error, index) => !bare[index] && re.messageLine.test(error.text))) return false;
  return bare.some(Boolean) || re.stack.test(decode(String(text), rules, re));
}
