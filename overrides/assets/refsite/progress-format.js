// What a reader's progress is, as data: pure functions, no storage and no DOM.
//
// Format, version 1 (stored as JSON under one site-scoped key, see progress-store.js, and
// written as is into an exported file, which adds "site" and "exported"):
//
//   {
//     "format": "refsite-progress",
//     "version": 1,
//     "pages": {
//       "pytorch/appendix-a": {                        // page key: "<book id>/<page id>"
//         "checkin": "2025-05-01T09:30:00.000Z",       // when the page was checked in (打卡)
//         "checkpoints": {                             // ticked checkpoints, by checkpoint id
//           "cp-what-to-search": "2025-05-01T09:12:00.000Z"
//         }
//       }
//     },
//     "settings": {                                    // optional: the reader's choices
//       "torch": "2.6.0"                               // the release view's "我的 torch 是"
//     }
//   }
//
// `settings` came later, within version 1: it is optional, so values stored before it are read
// as they are, and a copy of the site that predates it still reads (and drops) it instead of
// refusing the reader's file, which a version bump would make it do.
//
// Ticks hang on ids only, never on positions, so reordering the data moves nothing. A tick
// whose checkpoint left the data stays here; only ids in the build's manifest are counted.
// A value is a time, so merging two copies keeps the earlier one and loses nothing.

export const FORMAT = "refsite-progress";
export const VERSION = 1;

/** A reader-facing reason why a value is not progress this site can read. */
export class ProgressFormatError extends Error {}

export function emptyProgress() {
  return { format: FORMAT, version: VERSION, pages: {} };
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isTime = (value) => typeof value === "string" && !Number.isNaN(Date.parse(value));
// The data's id grammar (data/schema); it also keeps "__proto__" and friends out of our objects.
const ID = /^[a-z0-9][a-z0-9-]*$/;
const PAGE_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;
const RELEASE = /^\d+\.\d+(\.\d+)?$/;

/** Checks a parsed JSON value and returns a clean copy; throws ProgressFormatError otherwise. */
export function readProgress(value) {
  if (!isObject(value) || value.format !== FORMAT) {
    throw new ProgressFormatError("这不是本站导出的进度文件");
  }
  if (value.version !== VERSION) {
    throw new ProgressFormatError(`进度格式的版本是 ${JSON.stringify(value.version)}，这里只认得版本 ${VERSION}`);
  }
  if (!isObject(value.pages)) throw new ProgressFormatError("文件里缺少 pages（各页的进度）");
  const progress = emptyProgress();
  for (const [pageKey, page] of Object.entries(value.pages)) {
    const where = `页面「${pageKey}」`;
    if (!PAGE_KEY.test(pageKey)) throw new ProgressFormatError(`${where}不是本站的页面`);
    if (!isObject(page)) throw new ProgressFormatError(`${where}的进度不是一个对象`);
    if (page.checkin !== undefined && !isTime(page.checkin)) {
      throw new ProgressFormatError(`${where}的打卡时间读不懂`);
    }
    if (page.checkpoints !== undefined && !isObject(page.checkpoints)) {
      throw new ProgressFormatError(`${where}的 checkpoints 不是一个对象`);
    }
    const checkpoints = {};
    for (const [id, time] of Object.entries(page.checkpoints ?? {})) {
      if (!ID.test(id)) throw new ProgressFormatError(`${where}里的检查点「${id}」不是本站的检查点`);
      if (!isTime(time)) throw new ProgressFormatError(`${where}的检查点「${id}」的时间读不懂`);
      checkpoints[id] = time;
    }
    progress.pages[pageKey] = page.checkin ? { checkin: page.checkin, checkpoints } : { checkpoints };
  }
  if (value.settings !== undefined) {
    if (!isObject(value.settings)) throw new ProgressFormatError("文件里的 settings 不是一个对象");
    const { torch } = value.settings;
    if (torch !== undefined && !(typeof torch === "string" && RELEASE.test(torch))) {
      throw new ProgressFormatError(`settings 里的 torch 版本「${torch}」读不懂`);
    }
    if (torch) progress.settings = { torch };
  }
  return progress;
}

/** Parses JSON text; throws ProgressFormatError (never SyntaxError) when it is not progress. */
export function parseProgress(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProgressFormatError("文件不是合法的 JSON");
  }
  return readProgress(value);
}

function withPage(progress, pageKey, change) {
  const next = structuredClone(progress);
  const page = next.pages[pageKey] ?? { checkpoints: {} };
  change(page);
  if (page.checkin || Object.keys(page.checkpoints).length) next.pages[pageKey] = page;
  else delete next.pages[pageKey];
  return next;
}

export function isTicked(progress, pageKey, checkpointId) {
  return Boolean(progress.pages[pageKey]?.checkpoints[checkpointId]);
}

export function isCheckedIn(progress, pageKey) {
  return Boolean(progress.pages[pageKey]?.checkin);
}

export function setTicked(progress, pageKey, checkpointId, ticked, now = new Date()) {
  return withPage(progress, pageKey, (page) => {
    if (!ticked) delete page.checkpoints[checkpointId];
    else page.checkpoints[checkpointId] ??= now.toISOString();
  });
}

export function setCheckedIn(progress, pageKey, checkedIn, now = new Date()) {
  return withPage(progress, pageKey, (page) => {
    if (!checkedIn) delete page.checkin;
    else page.checkin ??= now.toISOString();
  });
}

/** The release the reader said they run ("2.6.0"), or null. */
export function readerTorch(progress) {
  return progress.settings?.torch ?? null;
}

export function setReaderTorch(progress, release) {
  const next = structuredClone(progress);
  if (release) next.settings = { ...next.settings, torch: release };
  else if (next.settings) {
    delete next.settings.torch;
    if (!Object.keys(next.settings).length) delete next.settings;
  }
  return next;
}

const earlier = (a, b) => (!a ? b : !b ? a : Date.parse(a) <= Date.parse(b) ? a : b);

/** Everything ticked in either copy; for a tick in both, the earlier time. Our settings win. */
export function mergeProgress(ours, theirs) {
  const merged = structuredClone(ours);
  if (theirs.settings) merged.settings = { ...theirs.settings, ...ours.settings };
  for (const [pageKey, page] of Object.entries(theirs.pages)) {
    const into = (merged.pages[pageKey] ??= { checkpoints: {} });
    const checkin = earlier(into.checkin, page.checkin);
    if (checkin) into.checkin = checkin;
    for (const [id, time] of Object.entries(page.checkpoints)) {
      into.checkpoints[id] = earlier(into.checkpoints[id], time);
    }
  }
  return merged;
}

/** How many ticks and check-ins `progress` holds: what an import adds is the difference. */
export function countMarks(progress) {
  return Object.values(progress.pages)
    .reduce((sum, page) => sum + (page.checkin ? 1 : 0) + Object.keys(page.checkpoints).length, 0);
}

/** Units done on one page of the manifest: its check-in plus its ticked, still existing checkpoints. */
export function pageDone(progress, manifestPage) {
  const page = progress.pages[manifestPage.key];
  if (!page) return 0;
  return (page.checkin ? 1 : 0) + manifestPage.checkpoints.filter((id) => page.checkpoints[id]).length;
}
