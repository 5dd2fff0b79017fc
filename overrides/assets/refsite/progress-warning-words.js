// The words progress-warning.js says for each fault the store finds, fetched when a fault first
// shows: a reader whose storage works never needs them.

const MESSAGES = {
  blocked: () => "这个浏览器不允许本站存储数据，进度既读不到也存不下：这一页上的勾选和打卡，"
    + "刷新或关闭后就没了。允许本站保存数据后刷新即可。",
  full: () => "浏览器的存储空间满了，刚才的勾选或打卡没能保存；已经保存的进度没有改动。"
    + "清理一些网站数据后再勾一次即可。",
  unreadable: ({ aside }) => "以前保存的进度读不懂（可能被别的程序改过）。原来的内容没有删除，"
    + `已原样另存在浏览器存储的「${aside}」下；进度从现在起重新记录。`,
  "unreadable-kept": () => "以前保存的进度读不懂，存储空间又不够把它另存一份。为了不覆盖它，"
    + "这一页上的勾选和打卡不会保存。",
};

/** What the page says for a fault (`problem.kind`: blocked, full, unreadable, unreadable-kept). */
export function warningFor(problem) {
  return MESSAGES[problem.kind](problem);
}
