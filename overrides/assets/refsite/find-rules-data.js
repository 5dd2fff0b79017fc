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

/** {row: the code its context names}, for the rows that have one (`torch.load`). */
export function loadContextCode(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.context_code ?? {});
}

/** {row: the calls its mistake is made through}, for the rows that have them (`F.linear`). */
export function loadCalledThrough(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.called_through ?? {});
}

/** {row: what shows a cause it does not explain}, for the rows that name one (`requires_grad`). */
export function loadUnlessShown(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.unless_shown ?? {});
}

/** Why a row is only suggested, by rule, with `{}` for the code or words (lookup.NOT_SAID_BECAUSE). */
export function loadNotSaidBecause(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.not_said_because ?? {});
}

/** {row: what a paste must show to be the row's}, for the rows that name it (`torch.load`). */
export function loadOnlyIfShown(pageKey) {
  return loadPayload(pageKey).then((payload) => payload.only_if_shown ?? {});
}
