// The suggestions (find-suggest.js, with the templates' rule and the ranked half) are needed only
// for a query that is not on the page: they come with the lazy file, fetched at idle, not with
// the page. This stands in for them until they are there, with the same methods; a suggestion
// asked for meanwhile is made once they load, unless a newer query or a cleared box came first.

import { RULES_FAILED } from "./find-status.js";

export class DeferredSuggestions {
  /** `options`: what find-suggest.js's Suggestions is made with. */
  constructor(options) {
    this.options = options;
    this.real = null; // the Suggestions, once loaded
    this.loading = null;
    this.generation = 0; // bumped by clear(): a suggestion asked for before it is stale
    this.pending = false; // a suggestion waits for the module
    this.landPending = false; // ...and Enter asked to land on it
  }

  load() {
    this.loading ??= import("./find-suggest.js").then(({ Suggestions }) => {
      this.real = new Suggestions(this.options);
      return this.real;
    });
    return this.loading;
  }

  clear() {
    this.generation += 1;
    this.pending = this.landPending = false;
    if (this.real) this.real.clear();
    else if (this.options.elsewhere) this.options.elsewhere.hidden = true; // nothing else was shown yet
  }

  async suggest(query, context = undefined) {
    if (this.real) return this.real.suggest(query, context);
    const asked = this.generation;
    this.pending = true;
    this.options.status.set(""); // silent while it loads, as Suggestions is while its data loads
    let real;
    try {
      real = await this.load();
    } catch (error) {
      this.loading = null; // tried again next time
      if (asked !== this.generation) return undefined;
      this.pending = false;
      this.options.status.set(RULES_FAILED);
      console.warn("refsite find:", error);
      return undefined;
    }
    if (asked !== this.generation) return undefined;
    this.pending = false;
    const done = real.suggest(query, context);
    if (this.landPending) real.landOnFirst();
    return done;
  }

  showElsewhere() {
    if (this.real) this.real.showElsewhere();
    else if (this.options.elsewhere) this.options.elsewhere.hidden = false;
  }

  /** Enter: land on the entry that explains the text, as soon as that is known. */
  landOnFirst() {
    if (this.real) this.real.landOnFirst();
    else if (this.pending) this.landPending = true;
  }

  destroy() {
    this.generation += 1;
    this.real?.destroy();
  }
}
