// The verdict's order and the rule's patterns a keystroke needs: the part of find-verdict.js
// that loads with the page (the code that applies the templates and reads a paste's context
// comes with the lazy file, when a query is not on the page). The rule is
// pytorch_error_lookup/rule.py's.

export const LITERAL = "literal";
export const MATCH = "match";
export const WEAK = "weak";
export const NONE = "none";

/**
 * The rule's own patterns, as pytorch_error_lookup.rule wrote them on the form: `exception`
 * (`RuntimeError: ` and the like at the start of a pasted line), `messageStart` (where each error
 * message of a folded pasted text starts), and the words a message needs to count.
 */
export function patternsOf(form) {
  return {
    exception: new RegExp(form.dataset.findException),
    messageStart: new RegExp(form.dataset.findMessageStart, "g"),
    word: new RegExp(form.dataset.findWord, "g"),
    messageWords: Number(form.dataset.findMessageWords),
  };
}

/** Whether `query` starts with an exception's name, as a pasted last line does. */
export function isPastedLine(query, patterns) {
  return patterns.exception.test(query);
}

/**
 * The message of a pasted last line, its exception's name set aside; null if it names none, or
 * if too little is left to count (`KeyError: 0` is on the page by accident).
 */
export function messageOf(query, patterns) {
  const found = patterns.exception.exec(query);
  if (!found) return null;
  const message = query.slice(found[0].length);
  return (message.match(patterns.word) ?? []).length >= patterns.messageWords ? message : null;
}

/**
 * The order every lookup follows; each argument is what one step found. `explains`: the literal
 * hits are not all in the rows where the page says it leaves this out (九).
 */
export function verdictFor({ literal, explains = true, fit = null, ranked = [] }) {
  if (literal) return explains ? LITERAL : WEAK;
  if (fit) return MATCH;
  return ranked.length > 0 ? WEAK : NONE;
}
