"""The built site's scripts are rjsmin's output of overrides/assets/refsite/ (refsite.minify):
only comments and whitespace between tokens may go. rjsmin reads a template literal opened
inside another's `${…}` as code and drops its spaces (`` `${a ? ` · b` : ""}` `` came out as
`·b` in the box's status line): every template literal's text must come through unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
import rjsmin

MODULES = sorted((Path(__file__).parent.parent / "overrides" / "assets" / "refsite").glob("*.js"))


def template_texts(source: str) -> list[str]:
    """The literal text of every template literal, in order (each `${…}` written `${}`): a
    scanner of quotes, comments, templates and their expressions, enough for the site's modules.
    Each open template is a frame ["text", what it holds so far]; each open `${` one ["code",
    the depth of the braces opened inside it]."""
    texts, frames, index = [], [], 0
    while index < len(source):
        char = source[index]
        if frames and frames[-1][0] == "text":
            frame = frames[-1]
            if char == "\\":
                frame[1] += source[index:index + 2]
                index += 2
                continue
            if char == "`":
                texts.append(frames.pop()[1])
            elif source.startswith("${", index):
                frame[1] += "${}"
                frames.append(["code", 0])
                index += 1
            else:
                frame[1] += char
            index += 1
            continue
        if source.startswith("//", index):
            end = source.find("\n", index)
            index = len(source) if end < 0 else end
        elif source.startswith("/*", index):
            end = source.find("*/", index + 2)
            index = len(source) if end < 0 else end + 2
        elif char in "\"'":
            end = index + 1
            while end < len(source) and source[end] != char:
                end += 2 if source[end] == "\\" else 1
            index = end + 1
        else:
            if char == "`":
                frames.append(["text", ""])
            elif frames and char == "{":
                frames[-1][1] += 1
            elif frames and char == "}":
                if frames[-1][1] == 0:
                    frames.pop()
                else:
                    frames[-1][1] -= 1
            index += 1
    return texts


@pytest.mark.parametrize("module", MODULES, ids=[module.name for module in MODULES])
def test_minifying_keeps_every_template_literals_text(module):
    source = module.read_text(encoding="utf-8")
    assert template_texts(rjsmin.jsmin(source)) == template_texts(source)
