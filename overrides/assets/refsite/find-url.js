// The query lives in the URL as ?find= (Material owns ?q= and ?h=), so a search can be shared;
// an entry a suggestion landed on is named in the hash until the query changes.

const URL_PARAM = "find";
const URL_WRITE_DELAY_MS = 300;
// A query longer than this once encoded is no link to share (a key list of a megabyte; Chinese
// text is nine bytes a character in a URL, and many servers refuse one over 8 KB): the URL drops it.
const URL_QUERY_BYTES = 6000;

function shareable(query) {
  if (query.length > URL_QUERY_BYTES) return false;
  try {
    return encodeURIComponent(query).length <= URL_QUERY_BYTES;
  } catch {
    return false; // a lone surrogate (half a character): no link to share
  }
}

/** The query a shared link carries, or null. */
export function queryFromUrl() {
  return new URL(location.href).searchParams.get(URL_PARAM);
}

function replaceUrl(change) {
  const url = new URL(location.href);
  change(url);
  try {
    if (url.href !== location.href) history.replaceState(history.state, "", url);
  } catch { // a browser refusing history writes (too many, a sandbox): the address stays as it was
  }
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
      if (query && shareable(query)) url.searchParams.set(URL_PARAM, query);
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
