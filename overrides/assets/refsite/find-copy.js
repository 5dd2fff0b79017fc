// A copy button after each verbatim error fragment: the fragment is what a reader searches
// their logs or the web for, so copying it must give exactly its text.

const COPIED_FOR_MS = 1500;

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (no permission, or an insecure origin): the old way still works.
    const scratch = document.createElement("textarea");
    scratch.value = text;
    scratch.setAttribute("readonly", "");
    scratch.className = "rs-copy-scratch";
    document.body.append(scratch);
    scratch.select();
    const copied = document.execCommand("copy");
    scratch.remove();
    return copied;
  }
}

function copyButton(fragment) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rs-copy";
  button.dataset.findCopy = "";
  button.setAttribute("aria-label", "复制这段报错原文");
  button.title = "复制";
  button.textContent = "复制";
  button.addEventListener("click", async () => {
    const copied = await copyText(fragment.textContent);
    button.textContent = copied ? "已复制" : "复制失败";
    button.classList.toggle("rs-copy--done", copied);
    setTimeout(() => {
      button.textContent = "复制";
      button.classList.remove("rs-copy--done");
    }, COPIED_FOR_MS);
  });
  return button;
}

export function mountCopyButtons(root) {
  for (const fragment of root.querySelectorAll("[data-fragment]")) {
    if (fragment.nextElementSibling?.matches("[data-find-copy]")) continue;
    fragment.after(copyButton(fragment));
  }
}
