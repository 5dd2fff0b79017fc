// What pasted text varies in, as tables: once for the browser, imported by the literal search's
// folding (find-fold.js) and the ranked search's tokenizer (find-tokenize.js). The Python side
// keeps the same tables once too (hooks/pytorch_error_lookup/textfold.py); tests/test_find_textfold.py checks
// that both hold the same characters.

/** Curly and low quotes a word processor or a chat client puts where the program printed straight ones. */
export const QUOTES = { "‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"' };

/**
 * Characters that take no room on screen but survive a copy (soft hyphen, zero-width spaces and
 * joiners, direction marks, word joiner, byte-order mark), as a regular-expression class body.
 */
export const INVISIBLE_CLASS = "\u00ad\u200b-\u200f\u2060\ufeff";
