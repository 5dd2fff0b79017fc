// Long reference pages: sections off screen are kept out of rendering work
// (`content-visibility: auto`), so that the repaint after a keystroke's highlights costs what the
// screen shows, not what the page holds (at 10,000 rows: ~130 ms down to ~11 ms per keystroke).
// A long section comes as tables of 100 rows (`[data-rows]`, see _row_tables.html), skipped the
// same way: a section of 10,000 rows on screen otherwise made every change in one row (the
// current entry's mark) lay out and paint all of its rows, 130-230 ms per keystroke.
// Each placeholder size is the box's measured height, so the scrollbar and #anchors keep their
// places.

export function skipOffscreenSections(root) {
  const boxes = [...root.querySelectorAll("[data-section], [data-rows]")];
  const heights = boxes.map((box) => box.getBoundingClientRect().height); // one layout
  boxes.forEach((box, index) => {
    box.style.containIntrinsicSize = `auto ${Math.ceil(heights[index])}px`;
    box.classList.add("rs-offscreen-skip");
  });
}
