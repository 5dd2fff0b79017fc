"""Synthetic but valid data at any size, for the benchmarks.

`write_project(dest, entries)` copies the project's build inputs and replaces 附录A's tables
with `entries` generated error rows (plus the real checkpoints), written as YAML the same
way an author would, so they go through the same load → validate → render path.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import copy_project  # noqa: E402
PAGE = Path("data/pytorch/appendix-a.yml")

_WORDS = ("tensor", "grad", "shape", "module", "stride", "dtype", "batch", "worker", "export",
          "trace", "graph", "leaf", "view", "buffer", "param", "device", "kernel", "scalar")
_CAUSE = ("⭐ 图默认用完就扔。多半是同一个 loss 调了两次 `backward()`，或者把上一步的图挂在了这一步上"
          "（RNN 的 hidden 忘了 `detach()`）。真需要就 `retain_graph=True`，但先想想是不是漏了 **detach**，")


def fragment(rng: random.Random, index: int) -> str:
    """About 120 characters of English error text, unique by its index."""
    words = [rng.choice(_WORDS) for _ in range(14)]
    return f"RuntimeError E{index:05d}: " + " ".join(words) + f" at dimension {rng.randint(0, 9)}."


def cause(rng: random.Random, index: int) -> str:
    """About 150 characters of Chinese prose with code spans, as real causes are."""
    return _CAUSE + f"见第 {index} 条，步长 {rng.randint(1, 64)}。"


def synthetic_page(entries: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    page = yaml.safe_load((ROOT / PAGE).read_text(encoding="utf-8"))
    chapters = [f"{number:02d}" for number in range(1, 11)]
    per_section = 100
    sections = [
        {
            "id": f"section-{start // per_section + 1}",
            "title": f"📏 第 {start // per_section + 1} 组",
            "kind": "errors",
            "entries": [
                {"id": f"e{index:05d}", "fragment": fragment(rng, index), "cause": cause(rng, index),
                 "chapters": sorted(rng.sample(chapters, rng.randint(1, 2)))}
                for index in range(start, min(start + per_section, entries))
            ],
        }
        for start in range(0, entries, per_section)
    ]
    page["groups"] = [{"title": "合成条目", "lead": "基准测试用的合成数据。", "sections": sections}]
    page["related"]["links"] = [link for link in page["related"]["links"] if "chapter" in link]
    return page


def copy_inputs(destination: Path) -> Path:
    """A fresh copy of everything `mkdocs build` reads (the tests' own helper)."""
    if destination.exists():
        shutil.rmtree(destination)
    return copy_project(destination)


def write_project(destination: Path, entries: int) -> Path:
    """A copy of the project whose 附录A holds `entries` synthetic error rows."""
    copy_inputs(destination)
    text = yaml.dump(synthetic_page(entries), allow_unicode=True, sort_keys=False, width=10_000,
                     Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))
    (destination / PAGE).write_text(text, encoding="utf-8")
    # Reproducers and their results name the real rows, which the synthetic page replaces.
    for companion in ("reproducers.yml", "verification.yml"):
        (destination / PAGE.parent / companion).unlink(missing_ok=True)
    return destination


if __name__ == "__main__":
    write_project(Path(sys.argv[1]), int(sys.argv[2]))
