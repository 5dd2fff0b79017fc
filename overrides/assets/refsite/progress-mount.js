// Material emits `document$` for the first page and again after each instant navigation, with
// the new page's document. Components mount on each one and undo the previous mount first, so
// nothing is bound twice and no listener outlives its page.

export function mountOnEachPage(mount) {
  let unmount = () => {};
  window.document$.subscribe((doc) => {
    unmount();
    unmount = mount(doc) ?? (() => {});
  });
}
