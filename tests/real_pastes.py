"""The set of real pastes (fixtures/real_pastes.yml) and its split.

Each paste belongs to one part by a hash of its thread's address, fixed before any tuning: the
`tune` part is what the lookup may be tuned and tested on; the `held-out` part is only ever
scored (benchmarks/real_pastes.py), never read while changing the lookup.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import yaml

FILE = Path(__file__).parent / "fixtures" / "real_pastes.yml"
TUNE, HELD_OUT = "tune", "held-out"
HELD_OUT_PERCENT = 30


def part_of(source: str) -> str:
    bucket = int(hashlib.sha256(source.encode("utf-8")).hexdigest()[:8], 16) % 100
    return HELD_OUT if bucket < HELD_OUT_PERCENT else TUNE


def load(part: str | None = None) -> list[dict]:
    """Every paste (with its `part`), or those of one part."""
    pastes = yaml.safe_load(FILE.read_text(encoding="utf-8"))
    for paste in pastes:
        paste["part"] = part_of(paste["source"])
    return [paste for paste in pastes if part in (None, paste["part"])]


@functools.lru_cache(maxsize=None)
def _texts(part: str | None) -> dict[str, str]:
    return {paste["source"]: paste["paste"] for paste in load(part)}


def texts_by_source(part: str | None = TUNE) -> dict[str, str]:
    """{thread's address: paste} of one part (a test names the real paste it asserts on by its
    thread), parsed once for every test that asks."""
    return dict(_texts(part))
