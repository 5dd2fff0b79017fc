// Progress figures (`[data-progress="KEY"]`): a <progress> and a "3/10" count per page, per book
// and in total, counted from the page's manifest (`[data-progress-manifest]`), which lists the
// checkpoints that exist in this build. They follow ticks made in another tab at once.

import { pageDone } from "./progress-format.js";
import { mountOnEachPage } from "./progress-mount.js";
import { progressStore } from "./progress-store.js";

// Key "" is the whole site, "pytorch" one book, "pytorch/02" one page.
const pagesUnder = (manifest, key) => manifest.books
  .flatMap((book) => book.pages)
  .filter((page) => key === "" || page.key === key || page.key.startsWith(`${key}/`));

function tally(manifest, key, progress) {
  const pages = pagesUnder(manifest, key);
  return {
    done: pages.reduce((sum, page) => sum + pageDone(progress, page), 0),
    total: pages.reduce((sum, page) => sum + page.units, 0),
  };
}

function showFigure(figure, { done, total }) {
  const bar = figure.querySelector("progress");
  const count = figure.querySelector("[data-progress-count]");
  bar.max = total;
  bar.value = done;
  bar.setAttribute("aria-valuetext", `${done}/${total}`);
  count.textContent = `${done}/${total}`;
  figure.toggleAttribute("data-progress-complete", total > 0 && done === total);
}

function mountFigures(doc) {
  const figures = [...doc.querySelectorAll("[data-progress]")];
  const manifestScript = doc.querySelector("script[data-progress-manifest]");
  if (!figures.length || !manifestScript) return undefined;
  const manifest = JSON.parse(manifestScript.textContent);
  const store = progressStore();
  const show = (progress) => {
    for (const figure of figures) showFigure(figure, tally(manifest, figure.dataset.progress, progress));
  };
  store.load().then(show);
  return store.subscribe(show);
}

mountOnEachPage(mountFigures);

// The home page's export/import/reset panel sits by its total; other pages never fetch it.
mountOnEachPage((doc) => {
  if (!doc.querySelector("[data-progress-panel]")) return;
  import("./progress-panel.js").then((panel) => panel.mountPanel(doc));
});
