// How sure the box is: every query ends in one verdict, `literal`, `match`, `weak` or `none`.
// The rule is pytorch_error_lookup/rule.py's (its docstring says it in full). Its patterns come
// from there too: the ones a keystroke needs are written on the form [data-find] (patternsOf),
// the row templates in find-index/<page>.rules.js (loadRules). This module applies them in the
// same order; tests/fixtures/lookup_cases.yml holds the labelled cases both sides are tested on.

import { LITERAL, MATCH, NONE, WEAK, isPastedLine, messageOf, patternsOf, verdictFor } from "./find-rule.js";
import { loadContextData, loadPasteRules, loadRules, rulesUrl } from "./find-rules-data.js";
import { decoded, endsUnfinished, frameFiles, framesOf, showsFrames } from "./find-paste.js";

// (The rule's constants, the steps a keystroke needs and the data loaders live in find-rule.js
// and find-rules-data.js, loaded with the page; this module, needed only for text that is not
// on the page or for a paste, comes later.)
export { LITERAL, MATCH, NONE, WEAK, isPastedLine, messageOf, patternsOf, verdictFor };
export { loadContextData, loadPasteRules, loadRules, rulesUrl };

/**
 * What a pasted (or typed) text shows about its context, for bestFit: `skip`, the rows it never
 * passed through the context of (offContextRows), shows another cause of (otherCauseRows) or
 * lacks what they need beside their message (unshownContextRows), and `called`, the rows it
 * shows a call of (calledRows); `why`, for each skipped row, why in the reader's words, as the
 * terminal says it under a suggestion (pytorch_error_lookup.lookup.why_not_said); `otherCauses`,
 * for each row whose other causes it shows, what the box says beside that row when it is the
 * answer (otherCauseRemarks); `generic`, the rows whose message alone is any such error's
 * (unshownContextRows). As pytorch_error_lookup.lookup reads the whole text it is given.
 */
export async function loadContextReader(pageKey) {
  const {
    contextCode, calledThrough, unlessShown, onlyIfShown, notSaidBecause, otherCausesShownBy, otherCauseShown, pasteRules,
  } = await loadContextData(pageKey);
  return (text) => {
    // The first rule that rules a row out says why, in lookup.why_not_said's order.
    const why = new Map();
    const say = (rows, rule, words) => rows.forEach((row) => {
      if (!why.has(row)) why.set(row, notSaidBecause[rule].replace("{}", words(row).join("、")));
    });
    say(offContextRows(contextCode, text, pasteRules), "off_context", (row) => contextCode[row]);
    say(otherCauseRows(unlessShown, text), "other_cause", (row) => unlessShown[row].filter((it) => text.includes(it)));
    say(unshownContextRows(onlyIfShown, text), "no_own_context", (row) => onlyIfShown[row]);
    return {
      skip: new Set(why.keys()),
      called: calledRows(calledThrough, text),
      why,
      otherCauses: otherCauseRemarks(otherCausesShownBy, otherCauseShown, text),
      // The rows whose message alone is any such error's: their words fitting say nothing.
      generic: unshownContextRows(onlyIfShown, text),
    };
  };
}

/**
 * For each row some of whose other causes `text` shows (their `shown_by`, as plain text, in
 * `shownBy` {row: [what shows each cause]}), the sentence said beside the row (`sentence`,
 * lookup.OTHER_CAUSE_SHOWN): what showed them, and their places in the list from 1
 * (pytorch_error_lookup.lookup.other_cause_remark).
 */
export function otherCauseRemarks(shownBy, sentence, text) {
  const remarks = new Map();
  for (const [row, causes] of Object.entries(shownBy)) {
    const shown = causes.map((words, place) => [place, words.find((it) => text.includes(it))])
      .filter(([, found]) => found !== undefined);
    if (!shown.length) continue;
    const words = [...new Set(shown.map(([, found]) => found))].join("、");
    const places = shown.map(([place]) => place + 1).join("、");
    remarks.set(row, sentence.replace("{shown}", () => words).replace("{places}", () => places));
  }
  return remarks;
}

/**
 * The rows `text` shows a cause of that they do not explain (their `unless_shown`, as plain
 * text: pytorch_error_lookup.lookup.shows_other_cause).
 */
export function otherCauseRows(unlessShown, text) {
  return new Set(Object.entries(unlessShown).filter(([, shown]) => shown.some((it) => text.includes(it))).map(([row]) => row));
}

/**
 * The rows whose `only_if_shown` `text` shows none of: their message alone is any such error's
 * (pytorch_error_lookup.lookup.lacks_own_context).
 */
export function unshownContextRows(onlyIfShown, text) {
  return new Set(Object.entries(onlyIfShown).filter(([, shown]) => !shown.some((it) => text.includes(it))).map(([row]) => row));
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether one of the files is under `folder` (`torch/onnx`), `/` or `\` apart (lookup._in_folder). */
function inFolder(files, folder) {
  const inside = `/${folder}/`;
  return files.some((file) => `/${file.replaceAll("\\", "/")}`.includes(inside));
}

/**
 * The rows whose context the pasted `text` shows it never went through: a traceback with no code
 * line calling it, no frame of that function and, for a call below torch's top level
 * (`torch.onnx.export`), no frame whose file is in its package's folder (`torch/onnx/`)
 * (pytorch_error_lookup.lookup.off_context). Frames as Python and as IPython print them. A single
 * line shows no frames, and a traceback cut before its exception hides them: either rules out nothing.
 */
export function offContextRows(contextCode, text, pasteRules) {
  if (!Object.values(contextCode).some((codes) => codes.length)) return new Set();
  if (!showsFrames(text, pasteRules) || endsUnfinished(text, pasteRules)) return new Set();
  const functions = new Set(framesOf(text, pasteRules).map(([, fn]) => fn));
  const files = frameFiles(text, pasteRules);
  const shown = decoded(text, pasteRules); // IPython colours its code lines: `torch\x1b[…m.\x1b[…monnx`
  const calls = (code) => {
    const fn = code.slice(code.lastIndexOf(".") + 1);
    const pkg = code.includes(".") ? code.slice(0, code.lastIndexOf(".")) : "";
    return shown.includes(code) || functions.has(fn) || new RegExp(`, in ${escapeRegExp(fn)}\\b`).test(shown)
      || (pkg.startsWith("torch.") && inFolder(files, pkg.replaceAll(".", "/")));
  };
  return new Set(Object.entries(contextCode).filter(([, codes]) => codes.length && !codes.some(calls)).map(([row]) => row));
}

/**
 * The rows `text` shows a call of (their `called_through`: `torch.matmul`, `@`), as a whole name
 * (pytorch_error_lookup.lookup.shows_call): a wording a near miss prints too is theirs then.
 */
export function calledRows(calledThrough, text) {
  const shows = (call) => new RegExp(`(?<![A-Za-z0-9_.])${escapeRegExp(call)}(?![A-Za-z0-9_])`).test(text);
  return new Set(Object.entries(calledThrough).filter(([, calls]) => calls.some(shows)).map(([row]) => row));
}

export function messageStarts(foldedQuery, patterns) {
  return [...foldedQuery.matchAll(patterns.messageStart)].map((found) => found.index);
}

/** Where each message's own words begin, its exception's name passed (rule.message_text_starts). */
export function messageTextStarts(foldedQuery, patterns) {
  return [...foldedQuery.matchAll(patterns.messageStart)].map((found) => found.index + found[0].length);
}

/**
 * The row of 九 naming the error a message of the folded query starts with (`cuda out of memory.
 * tried to allocate …`), or words of it the query holds anywhere (its `printed_as`), or null:
 * the page leaves that error out (lookup.Page.left_out).
 */
export function leftOutRow(leftOutHeads, foldedQuery, patterns) {
  const starts = [0, ...messageTextStarts(foldedQuery, patterns)];
  const named = leftOutHeads.find(([, head, anywhere]) => (anywhere ? foldedQuery.includes(head)
    : starts.some((start) => foldedQuery.startsWith(head, start))));
  return named ? named[0] : null;
}

/**
 * The template that explains the folded query best: { entry, message, fixed, end, saidBy,
 * described, frame } (rule.Fit) or null.
 * When several fit, the one in the last error message wins (Python prints the error that
 * matters last); within one message the most specific, then the one ending last. Ties keep page
 * order. A partial template (a head or tail) counts only when no whole one fits and it is the
 * only row's to fit. `context` (loadContextReader): the rows in `skip` are not tried; a template
 * that needs a call counts only for the rows in `called`. `reordered`, a Set if given, is told
 * the rows passed over because the message their template fits holds its sizes only reordered;
 * `passedOver`, a Set if given, the rows in `skip` whose templates fit all the same (the closest
 * rows there are: suggested first, saying why); `uncalled`, a Set if given, the rows whose
 * template that needs a call fits all the same (suggested first too: the words may be theirs).
 */
export function bestFit(templates, foldedQuery, patterns, { skip = new Set(), called = new Set() } = {}, reordered = null,
  passedOver = null, uncalled = null) {
  let best = null;
  const partial = new Map(); // entry -> its best partial fit
  let starts = null;
  // In a long query, a template whose anchor holds a word the query never has is passed over
  // without scanning the query for the anchor (a scan per template is most of a megabyte's wait).
  const words = foldedQuery.length > LONG_QUERY ? new Set(foldedQuery.match(LETTERS)) : null;
  for (const template of templates) {
    // A pasted traceback that never passes through its context: tried only to tell `passedOver`.
    const ruledOut = skip.has(template.entry);
    if (ruledOut && (!passedOver || passedOver.has(template.entry))) continue;
    const noCall = template.needs_call && !called.has(template.entry); // a near miss prints the words too
    if (noCall && !uncalled) continue;
    if (words && !innerWords(template.anchor).every((word) => words.has(word))) continue;
    if (template.max_query !== undefined && longerThan(foldedQuery, template.max_query)) continue;
    if (!foldedQuery.includes(template.anchor)) continue;
    if (template.needles && !template.needles.every((needle) => foldedQuery.includes(needle))) continue;
    const found = regexOf(template).exec(foldedQuery);
    if (!found) continue;
    starts ??= messageStarts(foldedQuery, patterns);
    const message = starts.filter((start) => start <= found.index).length;
    // `not_with`: from the start of the message the match is in (a partial may begin after it).
    const since = message ? starts[message - 1] : 0;
    if (shownOtherwise(template, foldedQuery, since)) continue;
    if (template.sizes_differ && onlyReordered(foldedQuery.slice(since, messageEnd(foldedQuery, starts, found.index)))) {
      reordered?.add(template.entry);
      continue;
    }
    if (ruledOut) {
      passedOver.add(template.entry);
      continue;
    }
    if (noCall) {
      uncalled.add(template.entry);
      continue;
    }
    const fit = {
      entry: template.entry,
      message,
      fixed: template.fixed,
      end: found.index + found[0].length,
      saidBy: template.said_by ?? null, // another release's wording of the row: who printed it
      described: template.max_query !== undefined, // a symptom in the reader's words
      frame: template.frame ?? null, // a function only the row's situation runs through
    };
    if (template.partial) {
      const known = partial.get(template.entry);
      if (!known || outranks(fit, known)) partial.set(template.entry, fit);
    } else if (!best || outranks(fit, best)) {
      best = fit;
    }
  }
  if (!best && partial.size === 1) return [...partial.values()][0];
  return best;
}

// rule.LONG_QUERY and rule._LETTERS: the word filter is exact (a word whole inside an anchor is
// whole wherever the anchor is), so where it starts changes only the time an answer takes.
const LONG_QUERY = 20_000;
const LETTERS = /[a-z]+/g;
const innerWordsOf = new Map(); // anchor -> its inner words (rule._inner_words)

/** The words of a fixed piece that are whole in it: not at either end, where a query may run them on. */
function innerWords(anchor) {
  let words = innerWordsOf.get(anchor);
  if (!words) {
    words = [...anchor.matchAll(LETTERS)]
      .filter((found) => found.index > 0 && found.index + found[0].length < anchor.length)
      .map((found) => found[0]);
    innerWordsOf.set(anchor, words);
  }
  return words;
}

/** Whether `text` holds more than `most` characters (code points, as Python counts them). */
function longerThan(text, most) {
  if (text.length <= most) return false;
  if (text.length > 2 * most) return true; // a character is one or two UTF-16 units
  return characterCount(text) > most;
}

function characterCount(text) {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) surrogatePairs += 1;
  }
  return text.length - surrogatePairs;
}

/** A text in the matched message or after it that shows another situation (the row's `not_with`, rule.Template). */
function shownOtherwise(template, foldedQuery, start) {
  return (template.not_with ?? []).some((text) => foldedQuery.indexOf(text, start) >= 0);
}

/** Where the message the place `at` is in ends: a head or a tail of it holds one shape or none. */
function messageEnd(foldedQuery, starts, at) {
  return starts.find((start) => start > at) ?? foldedQuery.length;
}

const SIZES = /\[([0-9, ]*)\]/g; // a shape, `[]` (a scalar's) included

/**
 * Whether every mismatch of a message (its shapes two by two) holds the same sizes in another
 * order (rule.only_reordered): `[3, 3, 3, 128, 128]` against `[128, 3, 3, 3, 128]`, a changed
 * layout. One mismatch whose sizes changed is the row's.
 */
export function onlyReordered(message) {
  const shapes = [...message.matchAll(SIZES)].map((found) => found[1].match(/[0-9]+/g) ?? []);
  const sorted = (sizes) => [...sizes].sort().join();
  let pairs = 0;
  for (let i = 0; i + 1 < shapes.length; i += 2, pairs += 1) {
    const [ours, theirs] = [shapes[i], shapes[i + 1]];
    if (ours.join() === theirs.join() || sorted(ours) !== sorted(theirs)) return false;
  }
  return pairs > 0;
}

// A template's pattern is compiled the first time its anchor is in a query, not when the rules
// load: a page of 10,000 rows would otherwise compile 10,000 patterns before the first answer.
const compiled = new WeakMap(); // template -> RegExp

function regexOf(template) {
  let regex = compiled.get(template);
  if (!regex) {
    regex = new RegExp(template.pattern);
    compiled.set(template, regex);
  }
  return regex;
}

function outranks(a, b) {
  if (a.message !== b.message) return a.message > b.message;
  if (a.fixed !== b.fixed) return a.fixed > b.fixed;
  return a.end > b.end;
}
