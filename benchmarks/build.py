"""What the hooks cost: `mkdocs build` from YAML against the same pages as static files.

For each size, a project with that many synthetic error rows (benchmarks/synthetic.py, valid
through the real schema) is built with the hooks, and the same pages, rendered once and written
into docs/ as static files, are built without the hooks. Builds alternate, median of --runs.

    python benchmarks/build.py                 # 1,000 and 10,000 entries, 3 runs each
    python benchmarks/build.py --sizes 50 --runs 1
    python benchmarks/build.py --rows-per-section 10000   # one section of 1,000, then of 10,000

Goals: hooks at most 10% over static at every size; 1,000 → 10,000 at most 11x the time.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import copy_inputs, write_project  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
from mkdocs.utils import get_relative_url  # noqa: E402

from refsite.render import Renderer  # noqa: E402
from refsite.sitemap import site_pages  # noqa: E402
from refsite.pipeline import load_site  # noqa: E402


def html_url(src_uri: str) -> str:
    return src_uri[: -len(".md")] + ".html"  # use_directory_urls: false


def write_static_twin(hooked: Path, destination: Path) -> Path:
    """The hooked project's generated pages as hand-written files, and no hooks."""
    copy_inputs(destination)
    site = load_site(hooked / "data")
    renderer = Renderer(site)
    for page in site_pages(site):
        def href(target: str, anchor: str | None = None, _page=page) -> str:
            url = get_relative_url(html_url(target), html_url(_page.src_uri))
            return f"{url}#{anchor}" if anchor else url

        rendered = renderer.render(page, href)
        target = destination / "docs" / page.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"---\ntitle: {page.title!r}\n---\n\n{rendered.html}\n", encoding="utf-8")
    config = (destination / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("  - hooks/refsite_hooks.py\n", "")  # other hooks stay: they serve both
    (destination / "mkdocs.yml").write_text(config, encoding="utf-8")
    return destination


def build_seconds(project: Path, site_dir: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml"),
                    "-d", str(site_dir)], check=True, env=env, cwd=project)
    return time.perf_counter() - start


def sizes_of(path: Path) -> str:
    raw = path.read_bytes()
    return f"{len(raw) / 1e6:.2f} MB ({len(gzip.compress(raw, 6)) / 1e3:.0f} KB gz)"


def search_index(site_dir: Path) -> Path:
    for name in ("search/search_index.js", "search/search_index.json"):
        if (site_dir / name).exists():
            return site_dir / name
    raise FileNotFoundError("no search index in the built site")


def measure(entries: int, runs: int, work: Path, per_section: int = 100) -> dict:
    hooked = write_project(work / f"hooked-{entries}", entries, per_section=per_section)
    static = write_static_twin(hooked, work / f"static-{entries}")
    times = {"hooks": [], "static": []}
    for _ in range(runs):  # alternate, so drift in machine load hits both alike
        times["hooks"].append(build_seconds(hooked, work / f"site-hooked-{entries}"))
        times["static"].append(build_seconds(static, work / f"site-static-{entries}"))
    hooks, plain = statistics.median(times["hooks"]), statistics.median(times["static"])
    site_dir = work / f"site-hooked-{entries}"
    return {
        "entries": entries, "sections": -(-entries // per_section), "hooks": hooks, "static": plain, "ratio": hooks / plain,
        "page": sizes_of(site_dir / "pytorch" / "appendix-a.html"),
        "search": sizes_of(search_index(site_dir)),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--rows-per-section", type=int, default=100,
                        help="rows per section: 100 (the default) or e.g. 10000 for one long section")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="refsite-bench-") as tmp:
        results = [measure(size, args.runs, Path(tmp), args.rows_per_section) for size in args.sizes]

    print(f"{'entries':>8} {'hooks s':>8} {'static s':>9} {'ratio':>6}  sections  appendix page / search index")
    for r in results:
        print(f"{r['entries']:>8} {r['hooks']:>8.2f} {r['static']:>9.2f} {r['ratio']:>6.2f}  {r['sections']:>8}  "
              f"{r['page']} / {r['search']}")
    if len(results) > 1:
        first, last = results[0], results[-1]
        growth = last["hooks"] / first["hooks"]
        print(f"growth {first['entries']} -> {last['entries']} entries: {growth:.1f}x the time "
              f"for {last['entries'] / first['entries']:.0f}x the entries")


if __name__ == "__main__":
    main()
