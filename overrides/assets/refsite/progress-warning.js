// Says once, on the page, when progress cannot be saved or read (`[data-storage-warning]`).
// The store finds the faults; this only words them, in words fetched when a fault first shows
// (progress-warning-words.js), not with every page.

import { mountOnEachPage } from "./progress-mount.js";
import { progressStore } from "./progress-store.js";

function mountWarning(doc) {
  const warning = doc.querySelector("[data-storage-warning]");
  if (!warning) return undefined;
  warning.setAttribute("role", "status");
  return progressStore().onProblem((problem) => {
    const line = doc.createElement("span");
    line.className = "rs-storage-warning__line";
    warning.append(line); // in the order the faults came, whenever their words arrive
    import("./progress-warning-words.js")
      .then(({ warningFor }) => warningFor(problem))
      .catch(() => "进度没法保存或读取。") // the words did not load: the fault is still said
      .then((words) => {
        line.textContent = `⚠️ ${words}`;
        warning.hidden = false;
      });
  });
}

mountOnEachPage(mountWarning);
