// The query lives in the URL as ?find= (Material owns ?q= and ?h=), so a search can be shared;
// an entry a suggestion landed on is named in the hash until the query changes.

const URL_PARAM = "find";
const URL_WRITE_DELAY_MS = 300;
// A query longer than this (a key list of a megabyte) is no link to share: the URL drops it.
// (The box shows such a query cut: find.js SHOWN_MAX, the same length.)
const URL_QUERY_MAX = 10_000;

/** The query a shared link carries, or null. */
export function queryFromUrl() {
  return new URL(location.href).searchParams.get(URL_PARAM);
}

function replaceUrl(change) {
  const url = new URL(location.href);
  change(url);
  if (url.href !== location.href) history.replaceState(history.state, "", url);
}

export class UrlSync {
  constructor() {
    this.timer = 0;
    this.landedId = null;
  }

  /** Write the query once the reader pauses (not a history write per keystroke). */
  writeSoon(query) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => replaceUrl((url) => {
      if (query && query.length <= URL_QUERY_MAX) url.searchParams.set(URL_PARAM, query);
      else url.searchParams.delete(URL_PARAM);
    }), URL_WRITE_DELAY_MS);
  }

  /** Name the entry a suggestion landed on in the hash. */
  pointAt(id) {
    replaceUrl((url) => { url.hash = id; });
    this.landedId = id;
  }

  /** A landing belonged to the previous query: a new one must not share a stale #entry. */
  forgetLanding() {
    if (!this.landedId) return;
    const landed = `#${this.landedId}`;
    replaceUrl((url) => { if (url.hash === landed) url.hash = ""; });
    this.landedId = null;
  }

  destroy() {
    clearTimeout(this.timer);
  }
}
