// `/` focuses the search box on a reference page. Listening on window in the capture phase runs
// before Material's own shortcuts (which would open its search dialog); `f` and `s` stay Material's.

function isEditable(target) {
  return target instanceof Element && (target.isContentEditable || target.closest("input, textarea, select, [contenteditable]"));
}

/** Start the shortcut for `input`; returns the function that stops it. */
export function focusOnSlash(input) {
  const onKeydown = (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    input.focus();
    input.select();
  };
  window.addEventListener("keydown", onKeydown, { capture: true });
  return () => window.removeEventListener("keydown", onKeydown, { capture: true });
}
