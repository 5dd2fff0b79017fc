"""What the in-page search tests look at, as a reader would see it."""

from __future__ import annotations

from urllib.parse import quote

REFERENCE = "pytorch/appendix-a.html"
INPUT = "[data-find-input]"
STATUS = "[data-find-status]"


def open_reference(page, site_url: str, find: str | None = None):
    url = site_url + REFERENCE + (f"?find={quote(find)}" if find is not None else "")
    page.goto(url)
    page.wait_for_selector("[data-find-copy]", state="attached")  # find.js has mounted
    return page


def current_entries(page) -> list[str]:
    return page.eval_on_selector_all('[data-entry][aria-current="true"]', "els => els.map(e => e.id)")


def visible_entries(page) -> list[str]:
    """Ids of the entries on screen or reachable by scrolling, in page order."""
    return page.eval_on_selector_all(
        "[data-entry]",
        "els => els.filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true})"
        " && e.getClientRects().length > 0).map(e => e.id)",
    )


def highlights(page, name: str = "rs-find") -> list[str]:
    """The text under every range of a CSS highlight, once all slices are painted."""
    page.wait_for_function(
        """() => {
            const status = document.querySelector('[data-find-status]').textContent;
            const total = /共 (\\d+) 处/.exec(status);
            return !total || (CSS.highlights.get('rs-find')?.size ?? 0) >= Number(total[1]);
        }"""
    )
    return page.evaluate(
        """(name) => [...(CSS.highlights.get(name) ?? [])].map((r) => {
            const range = document.createRange();
            range.setStart(r.startContainer, r.startOffset);
            range.setEnd(r.endContainer, r.endOffset);
            return range.toString();
        })""",
        name,
    )


def status(page) -> str:
    return page.text_content(STATUS).strip()


def type_query(page, text: str):
    page.fill(INPUT, text)


def paste(page, text: str):
    """A real paste (Ctrl+V) into the empty search box."""
    page.fill(INPUT, "")
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.focus(INPUT)
    page.keyboard.press("Control+V")
