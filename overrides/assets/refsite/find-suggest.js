// Ranked suggestions, for text that is not on the page: the closest entries from lunr
// (find-rank.js), as links to their anchors, with the status lines that go with them. Landing on
// one makes it the current entry, brings it into view and names it in the URL.

import { loadRanker, rank } from "./find-rank.js";

const LABEL_LENGTH = 140;

export class Suggestions {
  /**
   * `list`: the <ol> of suggestions; `status`: the Status line; `current`: the CurrentEntry;
   * `viewport`: scrolls below the box; `url`: the UrlSync; `pageKey` names the page's index.
   */
  constructor({ list, status, current, viewport, url, pageKey, entryOrder }) {
    Object.assign(this, { list, status, current, viewport, url, pageKey, entryOrder });
    this.ranked = [];
    this.landOnArrival = false;
    this.generation = 0; // bumped by clear(); a ranking for an older query stops when it sees it
  }

  clear() {
    this.generation += 1;
    this.ranked = [];
    this.landOnArrival = false;
    this.list.replaceChildren();
  }

  /** Rank the page's entries against `query` (not on the page) and list the closest. */
  async suggest(query) {
    this.clear();
    const generation = this.generation;
    this.status.set("本页没有这段原文，正在找最接近的条目…");
    let results;
    try {
      const index = await loadRanker(this.pageKey);
      if (generation !== this.generation) return;
      results = rank(index, query, this.entryOrder).filter(({ id }) => document.getElementById(id));
    } catch (error) {
      if (generation !== this.generation) return;
      this.status.set("本页没有这段原文；相近条目的索引没能加载。");
      console.warn("refsite find:", error);
      return;
    }
    if (generation !== this.generation) return;
    this.ranked = results;
    if (results.length === 0) {
      this.status.set("本页没有这段原文，也没有相近的条目。");
      return;
    }
    this.list.replaceChildren(...results.map(({ id }) => this.item(id)));
    this.status.set(`本页没有这段原文 · 最接近的 ${results.length} 条如下，回车跳到第一条`);
    if (this.landOnArrival) this.land(results[0].id);
  }

  /** Enter: land on the best suggestion, or as soon as the ranking arrives. */
  landOnFirst() {
    if (this.ranked.length > 0) this.land(this.ranked[0].id);
    else this.landOnArrival = true; // ranking still loading
  }

  item(id) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${id}`;
    link.dataset.findSuggestion = id;
    link.textContent = entryLabel(document.getElementById(id));
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.land(id);
    });
    item.append(link);
    return item;
  }

  /** Go to a suggested entry: it becomes current, comes into view, and the URL points at it. */
  land(id) {
    const entry = document.getElementById(id);
    if (!entry) return;
    this.current.mark(entry);
    for (const link of this.list.querySelectorAll("[data-find-suggestion]")) {
      link.classList.toggle("rs-find__suggestion--landed", link.dataset.findSuggestion === id);
    }
    this.url.pointAt(id);
    this.viewport.scrollIntoViewBelowBox(entry, null, "start");
    const rankOf = this.ranked.findIndex((result) => result.id === id) + 1;
    this.status.set(rankOf > 0 ? `已跳到第 ${rankOf} 个最接近的条目（共 ${this.ranked.length} 个）` : "已跳到这个条目");
  }

  destroy() {
    this.generation += 1;
  }
}

function entryLabel(entry) {
  const text = (entry.querySelector("[data-find-text]") ?? entry).textContent.replace(/\s+/g, " ").trim();
  return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
}
