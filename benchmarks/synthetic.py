"""Synthetic but valid data at any size and shape, for the benchmarks and the long-page tests.

`write_project(dest, entries, per_section)` copies the project's build inputs and replaces 附录A's
tables with `entries` generated error rows in sections of `per_section` rows (100×100 and
1×10,000 are both 10,000 entries), plus the real checkpoints, written as YAML the same way an
author would, so they go through the same load → validate → render path. With
`keep_real_rows=True` the real groups stay and the generated rows follow them in one more group:
every test of the real page still has its rows to find, on a long page. `root` picks the project
to copy (another checkout, for a before/after comparison).
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import PROJECT_PARTS  # noqa: E402

PAGE = Path("data/pytorch/appendix-a.yml")

_WORDS = ("tensor", "grad", "shape", "module", "stride", "dtype", "batch", "worker", "export",
          "trace", "graph", "leaf", "view", "buffer", "param", "device", "kernel", "scalar")
# About 130 characters of Chinese with code spans, like a real cause; on purpose none of the words
# the search tests look for on the real rows (a test that steps through every `detach` stays short).
_CAUSE = ("⭐ 形状在这一步就对不上了。多半是上一层输出的维度和这一层期望的不一致，或者批次那一维被 `view()`"
          "压扁了（先打印 `x.shape` 再往回找）。真要改就改 `reshape` 的参数，但先想想是不是漏了 **unsqueeze**，")


def fragment(rng: random.Random, index: int) -> str:
    """About 120 characters of English error text, unique by its index."""
    words = [rng.choice(_WORDS) for _ in range(14)]
    return f"RuntimeError E{index:05d}: " + " ".join(words) + f" at dimension {rng.randint(0, 9)}."


def cause(rng: random.Random, index: int) -> str:
    """About 150 characters of Chinese prose with code spans, as real causes are."""
    return _CAUSE + f"见第 {index} 条，步长 {rng.randint(1, 64)}。"


def synthetic_page(entries: int, per_section: int = 100, keep_real_rows: bool = False, seed: int = 7,
                   root: Path = ROOT) -> dict:
    rng = random.Random(seed)
    page = yaml.safe_load((root / PAGE).read_text(encoding="utf-8"))
    chapters = [f"{number:02d}" for number in range(1, 11)]
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
    generated = {"title": "合成条目", "lead": "基准测试用的合成数据。", "sections": sections}
    if keep_real_rows:
        page["groups"].append(generated)
    else:
        page["groups"] = [generated]
        page["related"]["links"] = [link for link in page["related"]["links"] if "chapter" in link]
    return page


def copy_inputs(destination: Path, root: Path = ROOT) -> Path:
    """A fresh copy of everything `mkdocs build` reads in the project at `root`."""
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    for part in PROJECT_PARTS:
        source = root / part
        if source.is_dir():
            shutil.copytree(source, destination / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif source.exists():
            shutil.copy2(source, destination / part)
    return destination


def write_project(destination: Path, entries: int, per_section: int = 100, keep_real_rows: bool = False,
                  root: Path = ROOT) -> Path:
    """A copy of the project at `root` whose 附录A holds `entries` synthetic error rows."""
    copy_inputs(destination, root)
    page = synthetic_page(entries, per_section, keep_real_rows, root=root)
    text = yaml.dump(page, allow_unicode=True, sort_keys=False, width=10_000,
                     Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))
    (destination / PAGE).write_text(text, encoding="utf-8")
    if not keep_real_rows:
        # Reproducers and their results name the real rows, which the synthetic page replaces.
        # So do the release matrix's runs (verification-<release>.yml).
        for companion in ["reproducers.yml", *(path.name for path in (destination / PAGE.parent).glob("verification*.yml"))]:
            (destination / PAGE.parent / companion).unlink(missing_ok=True)
    return destination


if __name__ == "__main__":
    write_project(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 100)
