// How sure the box is: every query ends in one verdict, `literal`, `match`, `weak` or `none`.
// The rule is pytorch_error_lookup/rule.py's (its docstring says it in full); this module applies
// it in the same order, to the templates that module compiled at build time for this page
// (find-index/<page>.rules.js). tests/fixtures/lookup_cases.yml holds the labelled cases that
// both sides are tested against.

import { loadScript } from "./find-rank.js";

export const LITERAL = "literal";
export const MATCH = "match";
export const WEAK = "weak";
export const NONE = "none";

const RULES_GLOBAL = "refsiteFindRules";

// `RuntimeError: `, `torch._dynamo.exc.UserError: `, a warning's `/path/x.py:4: UserWarning: `.
const EXCEPTION_PREFIX = /^\s*(?:\S+\.py:[0-9]+: )?(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*: /;

/** The message of a pasted last line, its exception's name set aside; null if it names none. */
export function messageOf(query) {
  const found = EXCEPTION_PREFIX.exec(query);
  return found ? query.slice(found[0].length) : null;
}

const rules = new Map(); // page key -> Promise<[{ entry, regex, anchor, fixed }]>

export function rulesUrl(pageKey) {
  return new URL(`./find-index/${pageKey}.rules.js`, import.meta.url).href;
}

/** This page's templates, loaded on first use. */
export function loadRules(pageKey) {
  if (!rules.has(pageKey)) {
    rules.set(pageKey, loadScript(rulesUrl(pageKey)).then(() => {
      // The script ran before its load event: take what it set.
      const { templates } = globalThis[RULES_GLOBAL];
      delete globalThis[RULES_GLOBAL];
      return templates.map((template) => ({ ...template, regex: new RegExp(template.pattern) }));
    }).catch((error) => {
      rules.delete(pageKey);
      throw error;
    }));
  }
  return rules.get(pageKey);
}

// Where each error message of a (folded) pasted text starts: `runtimeerror: `, `keyerror: `,
// `userwarning: ` (not `hint: `, which goes on the message before it).
const MESSAGE_START = /(?:^| )(?:[a-z_][a-z0-9_]*\.)*[a-z_][a-z0-9_]*(?:error|exception|warning): /g;

export function messageStarts(foldedQuery) {
  return [...foldedQuery.matchAll(MESSAGE_START)].map((found) => found.index);
}

/**
 * The template that explains the folded query best: { entry, message, fixed, end } or null.
 * When several fit, the one in the last error message wins (Python prints the error that
 * matters last); within one message the most specific, then the one ending last. Ties keep page
 * order.
 */
export function bestFit(templates, foldedQuery) {
  let best = null;
  let starts = null;
  for (const template of templates) {
    if (!foldedQuery.includes(template.anchor)) continue;
    const found = template.regex.exec(foldedQuery);
    if (!found) continue;
    starts ??= messageStarts(foldedQuery);
    const fit = {
      entry: template.entry,
      message: starts.filter((start) => start <= found.index).length,
      fixed: template.fixed,
      end: found.index + found[0].length,
    };
    if (!best || outranks(fit, best)) best = fit;
  }
  return best;
}

function outranks(a, b) {
  if (a.message !== b.message) return a.message > b.message;
  if (a.fixed !== b.fixed) return a.fixed > b.fixed;
  return a.end > b.end;
}

/** The order every lookup follows; each argument is what one step found. */
export function verdictFor({ literal, fit, ranked }) {
  if (literal) return LITERAL;
  if (fit) return MATCH;
  return ranked.length > 0 ? WEAK : NONE;
}
