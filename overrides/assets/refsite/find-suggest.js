// Text that is not on the page: does one entry explain it, or does the page not cover it?
// The templates (find-verdict.js) decide `match`: one entry, the reader's own names, shapes and
// numbers aside. Otherwise the closest entries by lunr's scores (find-rank.js) are listed as what they
// are, loose guesses (`weak`), with the page's own word on what it leaves out (九) and the
// chapter map; or nothing at all (`none`). Only a `match` is landed on with Enter.

import { foldQuery } from "./find-fold.js";
import { LONG_TEXT, yieldToInput } from "./find-idle.js";
import { inWords } from "./find-paste.js";
import { loadPasteRules } from "./find-rules-data.js";
import { RULES_FAILED } from "./find-status.js";
import {
  MATCH, NONE, WEAK, bestFit, leftOutRow, loadContextData, loadContextReader, loadRules, verdictFor,
} from "./find-verdict.js";

const LABEL_LENGTH = 140;
// An error the page names in 九 as left out (cli.LEFT_OUT_WEAK says the same).
const LEFT_OUT = "本页故意没有收录这类报错，下面这一条说了为什么。";

/** How a `match` fits (pytorch_error_lookup.lookup.how_it_fits, in the page's words). */
function howItFits({ saidBy, described, frame }, pasteRules) {
  if (described) return "你描述的正是这一条讲的现象";
  if (frame) return pasteRules.from_frame_note.replace("{frame}", frame);
  if (saidBy) return `你贴的是 ${saidBy}${saidBy.endsWith("）") ? "" : " "}的一种说法，本页列的是它今天的原文`;
  return "本页没有逐字的原文，只差你自己的名字、形状或数字";
}

/** The ranked half (find-rank.js and its tokenizer), imported when first needed: no reader
 * waits for it at load (find.js fetches it at idle), and most never need it. */
function loadRanking() {
  return import("./find-rank.js");
}

export class Suggestions {
  /**
   * `list`: the <ol> of suggestions; `elsewhere`: where to look when the page does not cover it;
   * `status`: the Status line; `current`: the CurrentEntry; `viewport`: scrolls below the box;
   * `url`: the UrlSync; `pageKey` names the page's index; `onVerdict(verdict)` is told the outcome.
   */
  constructor({ list, elsewhere, status, current, viewport, url, pageKey, entryOrder, onVerdict, patterns }) {
    Object.assign(this, { list, elsewhere, status, current, viewport, url, pageKey, entryOrder, onVerdict, patterns });
    this.ranked = [];
    this.fit = null;
    this.leftOut = false; // the ranked row is the 九 row naming the error: why it is left out, not a guess
    this.wordsFit = new Set(); // rows whose words fit, their situation not shown (reordered, uncalled)
    this.why = new Map();
    this.otherCauses = new Map();
    this.deciding = false;
    this.landOnArrival = false;
    this.generation = 0; // bumped by clear(); a lookup for an older query stops when it sees it
  }

  clear() {
    this.generation += 1;
    this.ranked = [];
    this.fit = null;
    this.leftOut = false;
    this.wordsFit = new Set();
    this.deciding = false;
    this.landOnArrival = false;
    this.list.replaceChildren();
    this.list.classList.remove("rs-find__suggestions--loose");
    if (this.elsewhere) this.elsewhere.hidden = true;
  }

  /**
   * Decide `match`, `weak` or `none` for `query` (not on the page) and show what goes with it.
   * `context`: what the paste it came from showed (find-verdict.js loadContextReader); a typed
   * query is its own context.
   */
  async suggest(query, context = undefined) {
    this.clear();
    this.query = query;
    const generation = this.generation;
    // Silent while the templates and the index load: the status speaks once, with the verdict.
    this.status.set("");
    this.deciding = true;
    let templates;
    let ranking;
    let ranker;
    let readContext;
    let notSaidBecause;
    let calledThrough;
    let leftOutHeads;
    try {
      [templates, ranking, readContext, this.pasteRules, { notSaidBecause, calledThrough, leftOutHeads }] = await Promise.all([
        loadRules(this.pageKey), loadRanking(), loadContextReader(this.pageKey), loadPasteRules(this.pageKey),
        loadContextData(this.pageKey)]);
      ranker = await ranking.loadRanker(this.pageKey);
    } catch (error) {
      if (generation !== this.generation) return;
      this.deciding = false;
      this.status.set(RULES_FAILED);
      console.warn("refsite find:", error);
      return;
    }
    // A long query is fitted and ranked each in a task of its own (find-idle.js).
    const stillWanted = async () => {
      if (query.length >= LONG_TEXT) await yieldToInput();
      return generation === this.generation; // false: a newer query took over meanwhile
    };
    if (!await stillWanted()) return;
    this.deciding = false;
    const shown = context ?? readContext(query);
    this.why = shown.why ?? new Map(); // why a row its words fit is only suggested
    this.otherCauses = shown.otherCauses ?? new Map(); // what is said beside a row whose other cause it shows
    const reordered = new Set(); // rows passed over for sizes only reordered: said under their suggestion
    const passedOver = new Set(); // rows whose words fit but not their context: suggested first
    const uncalled = new Set(); // rows whose words another call prints too, their call not shown: the same
    const folded = foldQuery(query);
    const fit = bestFit(templates, folded, this.patterns, shown, reordered, passedOver, uncalled);
    const onPage = (id) => document.getElementById(id);
    this.fit = fit && onPage(fit.entry) ? fit : null;
    // An error 九 names is answered with that row alone, as the literal search answers its text.
    const leftOut = this.fit ? null : leftOutRow(leftOutHeads, folded, this.patterns);
    this.leftOut = Boolean(leftOut && onPage(leftOut));
    if (!this.fit && !this.leftOut && !await stillWanted()) return;
    if (this.leftOut) this.ranked = [{ id: leftOut }];
    else this.ranked = this.fit ? [] : ranking.suggestedFirst(ranking.rank(ranker, query, this.entryOrder),
      new Set([...reordered, ...passedOver, ...uncalled].filter((id) => onPage(id) && !shown.generic?.has(id))), this.entryOrder)
      .filter(({ id }) => onPage(id));
    this.wordsFit = new Set([...reordered, ...uncalled]);
    if (this.ranked.length) { // as lookup.why_only_suggested: the context's reason first
      this.why = new Map(this.why);
      for (const row of reordered) {
        if (!this.why.has(row)) this.why.set(row, notSaidBecause.reordered);
      }
      for (const row of uncalled) {
        if (!this.why.has(row)) this.why.set(row, notSaidBecause.no_call.replace("{}", calledThrough[row].join("、")));
      }
    }
    const verdict = verdictFor({ literal: false, fit: this.fit, ranked: this.ranked });
    this.onVerdict(verdict);
    if (verdict === MATCH) this.showMatch();
    else this.showNotCovered(verdict);
  }

  showMatch() {
    const { entry } = this.fit;
    this.list.replaceChildren(this.item(entry));
    this.status.set(`对上了一条：「${entryLabel(document.getElementById(entry), 60)}」。${howItFits(this.fit, this.pasteRules)}`
      + `${this.otherCauseShown(entry)} · 回车跳过去`);
    if (this.landOnArrival) this.land(entry);
  }

  showNotCovered(verdict) {
    this.showElsewhere();
    if (verdict === NONE) {
      this.status.set("本页没有收录这条报错，也没有字面相近的条目。");
      return;
    }
    if (this.leftOut) {
      this.list.replaceChildren(this.item(this.ranked[0].id));
      this.status.set(LEFT_OUT);
      return;
    }
    this.list.classList.add("rs-find__suggestions--loose");
    this.list.replaceChildren(...this.ranked.map(({ id }) => this.item(id)));
    this.status.set(inWords(this.query, this.pasteRules)
      // A description in the reader's words (a symptom), not an error's text: nothing to be "not covered".
      ? `本页没有这句原文。按字面最接近的 ${this.ranked.length} 条如下，不一定就是你遇到的情况。`
      // The first row's words fit, its situation not shown (cli.WORDS_FIT_WEAK): not "not covered".
      : this.wordsFit.has(this.ranked[0].id)
        ? `本页有一条字面对得上，但看不出是不是它讲的情况（见它下面的 ⚠️）。下面 ${this.ranked.length} 条请对照原文再用。`
        : `本页没有收录这条报错。下面 ${this.ranked.length} 条只是字面相近，不一定相关，请对照原文再用。`);
  }

  /**
   * What the terminal says beside the row when the text shows one of its other causes
   * (lookup.other_cause_remark), as a part of the status line; else "". (A template literal
   * inside another's `${…}` loses its spaces to the minifier: tests/test_minify.py.)
   */
  otherCauseShown(id) {
    const remark = this.otherCauses.get(id);
    return remark ? ` · ⚠️ ${remark}` : "";
  }

  /** Where else to look: the page's 九 and the chapter map. */
  showElsewhere() {
    if (this.elsewhere) this.elsewhere.hidden = false;
  }

  /** Enter: land on the entry that explains the text (or as soon as that is known). */
  landOnFirst() {
    if (this.fit) this.land(this.fit.entry);
    else if (this.deciding) this.landOnArrival = true; // a `weak` or `none` verdict never lands
  }

  item(id) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${id}`;
    link.dataset.findSuggestion = id;
    link.textContent = entryLabel(document.getElementById(id), LABEL_LENGTH);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.land(id);
    });
    item.append(link);
    if (this.leftOut) item.append(this.note(leftOutReason(document.getElementById(id))));
    const why = this.why.get(id);
    if (why) item.append(this.note(`⚠️ ${why}`, { why: true })); // as the terminal says it under the same suggestion
    return item;
  }

  /** A line said under a suggestion. */
  note(text, { why = false } = {}) {
    const note = document.createElement("span");
    note.className = "rs-find__why";
    if (why) note.dataset.findWhy = "";
    note.textContent = text;
    return note;
  }

  /** Go to an entry: it becomes current, comes into view, and the URL points at it. */
  land(id) {
    const entry = document.getElementById(id);
    if (!entry) return;
    this.current.mark(entry);
    for (const link of this.list.querySelectorAll("[data-find-suggestion]")) {
      link.classList.toggle("rs-find__suggestion--landed", link.dataset.findSuggestion === id);
    }
    this.url.pointAt(id);
    this.viewport.scrollIntoViewBelowBox(entry, null, "start");
    const label = entryLabel(entry, 60);
    if (this.fit?.entry === id) this.status.set(`已跳到对上的那一条：「${label}」${this.otherCauseShown(id)}`);
    else if (this.leftOut) this.status.set(`已跳到「${label}」：本页故意没收这类报错，这里说了为什么。`);
    else this.status.set(`已跳到「${label}」。它只是字面相近，不一定解释你的报错。`);
  }

  destroy() {
    this.generation += 1;
  }
}

/** Why the page leaves a row of 九's errors out: its second cell, as the terminal prints it under the row. */
function leftOutReason(entry) {
  return entry?.querySelectorAll("[data-find-text]")[1]?.textContent.replace(/\s+/g, " ").trim() ?? "";
}

function entryLabel(entry, length) {
  const text = (entry.querySelector("[data-find-text]") ?? entry).textContent.replace(/\s+/g, " ").trim();
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
