// The home page's panel (`[data-progress-panel]`): export progress to a JSON file, import one
// (checked first, then merged: an import only ever adds), and reset behind a confirmation.
// Only the home page has one, so progress-figures.js imports this module there and nowhere else.

import { countMarks, emptyProgress, mergeProgress, parseProgress, ProgressFormatError } from "./progress-format.js";
import { progressStore, siteKey } from "./progress-store.js";

function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000); // revoked at once, some browsers lose it
}

function exportName(now = new Date()) {
  const site = siteKey().replace(/[\\/:*?"<>|\s]+/g, "-") || "progress";
  return `${site}-进度-${now.toISOString().slice(0, 10)}.json`;
}

/** The file's progress, or a ProgressFormatError saying why not (another site's file, too). */
function readExport(text) {
  const progress = parseProgress(text);
  const { site } = JSON.parse(text);
  if (site !== undefined && site !== siteKey()) {
    throw new ProgressFormatError(`这份进度来自另一个网站（${JSON.stringify(site)}）`);
  }
  return progress;
}

const unsavedNote = (saved) => (saved ? "" : "但没能存进浏览器，见页面上的提示。");

/** Binds the panel on `doc`, a page that has one. */
export function mountPanel(doc) {
  const panel = doc.querySelector("[data-progress-panel]");
  const store = progressStore();
  const status = panel.querySelector("[data-progress-panel-status]");
  const fileInput = panel.querySelector("[data-progress-import]");
  const dialog = panel.querySelector("[data-progress-reset-dialog]");
  const say = (text) => { status.textContent = text; };

  panel.querySelector("[data-progress-export]").addEventListener("click", async () => {
    const progress = await store.load();
    const filename = exportName();
    const file = { ...progress, site: siteKey(), exported: new Date().toISOString() };
    download(filename, `${JSON.stringify(file, null, 2)}\n`);
    say(`已导出「${filename}」，共 ${countMarks(progress)} 项进度。`);
  });

  panel.querySelector("[data-progress-import-button]").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", async () => {
    const [file] = fileInput.files;
    fileInput.value = ""; // so that choosing the same file again is a new change
    if (!file) return;
    let incoming;
    try {
      incoming = readExport(await file.text());
    } catch (error) {
      if (!(error instanceof ProgressFormatError)) throw error;
      say(`没有导入「${file.name}」：${error.message}。你的进度没有任何改动。`);
      return;
    }
    let added = 0;
    const { saved } = await store.update((progress) => {
      const merged = mergeProgress(progress, incoming);
      added = countMarks(merged) - countMarks(progress);
      return merged;
    });
    say(added
      ? `已从「${file.name}」导入 ${added} 项新的进度。${unsavedNote(saved)}`
      : `「${file.name}」里的进度这里都已经有了，没有变化。`);
  });

  panel.querySelector("[data-progress-reset]").addEventListener("click", () => {
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "reset") return;
    const { saved } = await store.update(() => emptyProgress());
    say(`进度已清空。${unsavedNote(saved)}`);
  });
}
