// What goes in the box for a paste (pytorch_error_lookup.lookup.Lookup, mirrored): of its errors
// (find-paste.js), the first the page explains, else the first; a traceback cut before its
// message is said from a frame only one row's situation runs through, or said to be cut.
// Imported on the first paste, or at idle (find.js): no reader waits for it at load.

import { foldQuery } from "./find-fold.js";
import { LONG_TEXT, yieldToInput } from "./find-idle.js";
import { messageMissing, nameOnly, reducePaste, shownFrames } from "./find-paste.js";
import { messageOf } from "./find-rule.js";
import { loadPasteRules, loadRules } from "./find-rules-data.js";
import { bestFit, loadContextReader } from "./find-verdict.js";

/**
 * What the box gets for `pasted`: `chosen` (pastedQuery), `shown`, the part of its query the box
 * shows (a query too long to lay out in a text field at once, a megabyte of keys, is shown
 * shortened) and `note`, what the box says about it (find-paste-shown.js).
 */
export async function readPaste(pasted, deps) {
  const [chosen, box] = await Promise.all([pastedQuery(pasted, deps), import("./find-paste-shown.js")]);
  if (chosen.query.length >= LONG_TEXT) { // folded for the search to come in a task of its own
    foldQuery(chosen.query);
    await yieldToInput();
  }
  const shown = box.shownPart(chosen.query);
  return { chosen, shown, note: box.pasteNote(chosen, shown) };
}

/**
 * { query, others, explained, context, missing? } for `pasted`: `query` is what the box gets, on
 * one line; `others` counts the paste's other errors; `missing` says what a cut traceback lacks.
 * `matches` (find-matches.js) answers whether the page's text holds a reading; `patterns` are
 * the rule's (find-rule.js); `doc` holds the rows; `pageKey` names the page's rules.
 */
async function pastedQuery(pasted, { matches, patterns, doc, pageKey }) {
  // The code (this lazy file) and the data (the page's rules script) are fetched side by side.
  const [rules, readContext] = await Promise.all([loadPasteRules(pageKey), loadContextReader(pageKey)]);
  // A long paste is read in steps, the page answering input between them (find-idle.js).
  const pause = pasted.length >= LONG_TEXT ? yieldToInput : () => undefined;
  const errors = reducePaste(pasted, rules);
  await pause();
  const others = Math.max(0, errors.length - 1);
  const missing = messageMissing(pasted, errors, rules);
  const context = readContext(pasted);
  if (errors.length === 1 && errors[0].readings.length === 1 && !missing) {
    return { query: errors[0].text, others, explained: true, context };
  }
  const templates = await loadRules(pageKey);
  const fitOf = (text) => {
    const fit = bestFit(templates, foldQuery(text), patterns, context);
    return fit !== null && doc.getElementById(fit.entry) !== null ? fit : null;
  };
  for (const error of errors) {
    for (const reading of nameOnly(error, rules) ? [] : error.readings) {
      await pause();
      if (explainedHere(reading, matches, patterns, fitOf)) return { query: reading, others, explained: true, context };
    }
  }
  if (missing) {
    // Cut before its message, a traceback may still show a frame only one row's situation runs
    // through (a row's `frames`): that row, said from the frames. Otherwise "not covered" would
    // be a guess, so say what is missing.
    const frames = shownFrames(pasted, rules);
    if (frames && fitOf(frames)?.frame) return { query: frames, others: 0, explained: true, context };
    return { query: "", others: 0, explained: false, missing: rules.missing_message_note, context };
  }
  if (errors.length === 0) return { query: "", others, explained: false, context };
  const first = errors.find((error) => !nameOnly(error, rules)) ?? errors[0]; // one with a message
  return { query: first.text, others, explained: false, context };
}

/** Whether the page explains `reading`: its text (or message) on the page outside 九, or a template fits. */
function explainedHere(reading, matches, patterns, fitOf) {
  matches.prepare(); // all of the page's text: a paste's answer never rests on part of it
  if (matches.find(reading) && matches.count === 0) {
    const message = messageOf(reading, patterns);
    if (message !== null) matches.find(message);
  }
  if (matches.count > 0) return matches.explained();
  return fitOf(reading) !== null;
}
