// The release view on a reference page: "我的 torch 是 …" (`[data-release-view]`) marks, and
// never hides, the rows whose text differs on that release. Each row's release line
// (`[data-releases]`, "2.0.1:different 2.4.1:verbatim …", written at build time from the verifier's
// runs) says how its text came out on each release. The choice is kept with the reader's
// progress (`settings.torch` in progress-format.js), so it follows them across pages and tabs.

import { readerTorch, setReaderTorch } from "./progress-format.js";
import { mountOnEachPage } from "./progress-mount.js";
import { progressStore } from "./progress-store.js";

// What a reader on that release would see: other text, or nothing the matrix can vouch for.
export const DIFFERS = new Set(["reworded", "different", "missing", "api-missing"]); // model.DIFFERING_KINDS
const UNKNOWN = new Set(["stale", "not-run", "unchecked"]);

/** How a row's text came out on `release`, from its `data-releases` value; null if not run. */
export function seenOn(releases, release) {
  for (const pair of releases.split(" ")) {
    const [name, seen] = pair.split(":");
    if (name === release) return seen;
  }
  return null;
}

/** "differs" | "unknown" | null: the mark a row gets for a reader on `release`. */
export function markFor(releases, release) {
  if (!release) return null;
  const seen = seenOn(releases, release);
  if (seen === null || UNKNOWN.has(seen)) return "unknown";
  return DIFFERS.has(seen) ? "differs" : null;
}

function mountReleaseView(doc) {
  const form = doc.querySelector("[data-release-view]");
  if (!form) return undefined;
  const select = form.querySelector("[data-release-select]");
  const status = form.querySelector("[data-release-status]");
  const rows = [...doc.querySelectorAll("[data-entry]")]
    .map((row) => ({ row, line: row.querySelector("[data-releases]") }))
    .filter(({ line }) => line);
  const store = progressStore();

  const show = (release) => {
    const known = [...select.options].some((option) => option.value === release);
    const chosen = known ? release : "";
    select.value = chosen;
    let differs = 0;
    let unknown = 0;
    for (const { row, line } of rows) {
      const mark = markFor(line.dataset.releases, chosen);
      if (mark) row.dataset.releaseMark = mark;
      else delete row.dataset.releaseMark;
      if (mark === "differs") differs += 1;
      if (mark === "unknown") unknown += 1;
      for (const span of line.querySelectorAll("[data-span-releases]")) {
        span.toggleAttribute("data-release-current",
          Boolean(chosen) && span.dataset.spanReleases.split(" ").includes(chosen));
      }
    }
    status.textContent = !chosen ? "" : `torch ${chosen}：${differs} 条的原文在这个版本上不同，已用 ⚑ 标出`
      + (unknown ? `；${unknown} 条没在这个版本核对过，标 ?` : "") + "。";
  };

  // Shown at once, stored after: a store that cannot save still leaves the marks on screen.
  select.addEventListener("change", () => {
    show(select.value);
    store.update((progress) => setReaderTorch(progress, select.value || null));
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  store.load().then((progress) => show(readerTorch(progress) ?? ""));
  return store.subscribe((progress) => show(readerTorch(progress) ?? ""));
}

mountOnEachPage(mountReleaseView);
