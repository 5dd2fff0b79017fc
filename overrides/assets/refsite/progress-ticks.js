// Checkpoint ticks (`[data-tick]`) and page check-ins (`[data-checkin]`): each box shows what is
// stored, stores what the reader clicks, and follows ticks made in another tab.

import { isCheckedIn, isTicked, setCheckedIn, setTicked } from "./progress-format.js";
import { mountOnEachPage } from "./progress-mount.js";
import { progressStore } from "./progress-store.js";

const isMarked = (progress, box) => ("tick" in box.dataset
  ? isTicked(progress, box.dataset.page, box.dataset.checkpointId)
  : isCheckedIn(progress, box.dataset.page));

const mark = (progress, box) => ("tick" in box.dataset
  ? setTicked(progress, box.dataset.page, box.dataset.checkpointId, box.checked)
  : setCheckedIn(progress, box.dataset.page, box.checked));

function mountTicks(doc) {
  const boxes = [...doc.querySelectorAll("input[data-tick], input[data-checkin]")];
  if (!boxes.length) return undefined;
  const store = progressStore();
  const show = (progress) => {
    for (const box of boxes) box.checked = isMarked(progress, box);
  };
  // Listeners sit on the boxes themselves: a new page brings new boxes, never a second listener.
  for (const box of boxes) {
    box.addEventListener("change", () => store.update((progress) => mark(progress, box)));
  }
  store.load().then(show);
  return store.subscribe(show);
}

mountOnEachPage(mountTicks);
