"""What the progress tests share: where things are on the built site and how a reader reaches them."""

from __future__ import annotations

import re
from pathlib import Path

APPENDIX = "pytorch/appendix-a.html"
BOOK_INDEX = "pytorch/index.html"
CHAPTER = "pytorch/02.html"

TICK = "input[data-tick]"
CHECKIN = "input[data-checkin]"
TOTAL = "[data-progress=''] [data-progress-count]"
WARNING = "[data-storage-warning]"


def units_on_site(built_site: Path) -> int:
    """Every tick box and check-in box on the built pages: one unit of progress each."""
    pages = [path.read_text(encoding="utf-8") for path in built_site.rglob("*.html")]
    return sum(len(re.findall(r"<input[^>]*\bdata-(?:tick|checkin)\b", html)) for html in pages)


def ticks(page):
    """The checkpoint tick boxes, found as a reader finds them: by their label."""
    return page.get_by_role("checkbox", name="我答上来了")


def checkin(page):
    return page.get_by_role("checkbox", name=re.compile("打卡"))


def storage_key(page) -> str:
    return "refsite-progress:" + page.locator("meta[data-progress-key]").get_attribute("content")


def stored(page) -> str | None:
    """The raw stored progress, exactly as the browser holds it."""
    return page.evaluate("key => localStorage.getItem(key)", storage_key(page))


def storage_items(page) -> dict[str, str]:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")
