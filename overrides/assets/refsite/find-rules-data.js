// The data the lookup's rule reads, from this page's find-index/<page>.rules.js (written by
// refsite/find_rules.py): the templates, the paste rules, and what each row says about its
// context. Loaded with the page, so that a paste can fetch it while the code that applies it
// (find-verdict.js, in the lazy file) is still on its way.

import { loadScript } from "./find-script.js";

const RULES_GLOBAL = "refsiteFindRules";

const payloads = new Map(); // page key -> Promise<{ templates, paste }>

export function rulesUrl(pageKey) {
  return new URL(`./find-index/${pageKey}.rules.js`, import.meta.url).href;
}

function loadPayload(pageKey) {
  if (!payloads.has(pageKey)) {
    payloads.set(pageKey, loadScript(rulesUrl(pageKey)).then(() => {
      // The script ran before its load event: take what it set.
      const payload = globalThis[RULES_GLOBAL];
      delete globalThis[RULES_GLOBAL];
      return payload;
    }).catch((error) => {
      payloads.delete(pageKey);
      throw error;
    }));
  }
  return payloads.get(pageKey);
}

/** This page's templates, loaded on first use. */
export function loadRules(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.templates);
}

/** The paste reduction's rules (pytorch_error_lookup.paste.PASTE_RULES), from the same script. */
export function loadPasteRules(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.paste);
}

/**
 * What each row says about its context, for the paste's context reader (find-verdict.js):
 * `contextCode` {row: the code its context names, `torch.load`}, `calledThrough` {row: the calls
 * its mistake is made through, `F.linear`}, `unlessShown` {row: what shows a cause it does not
 * explain, `requires_grad`}, `onlyIfShown` {row: what a paste must show to be its own},
 * `notSaidBecause`, why such a row is only suggested (lookup.NOT_SAID_BECAUSE),
 * `otherCausesShownBy` {row: for each of its other causes, what shows it} and `otherCauseShown`,
 * what the box says beside a row then (lookup.OTHER_CAUSE_SHOWN); `leftOutHeads`, [row of 九, the
 * folded error it names, found anywhere] (find_rules.left_out_heads).
 */
export function loadContextData(pageKey) {
  return loadPayload(pageKey).then((payload) => ({
    contextCode: payload.context_code ?? {},
    calledThrough: payload.called_through ?? {},
    unlessShown: payload.unless_shown ?? {},
    onlyIfShown: payload.only_if_shown ?? {},
    notSaidBecause: payload.not_said_because ?? {},
    otherCausesShownBy: payload.other_causes_shown_by ?? {},
    otherCauseShown: payload.other_cause_shown ?? "",
    leftOutHeads: payload.left_out_heads ?? [],
    pasteRules: payload.paste,
  }));
}
