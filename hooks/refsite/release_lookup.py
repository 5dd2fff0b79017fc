"""Was a row's text seen on the reader's torch? A lookup over the release matrix for tools that
run outside the build (the terminal command, the notebook note): stdlib and PyYAML only, no
schema check, no site model.

    >>> seen_on("2.6.0+cu124", Path("data"))["load-module-not-found"]
    'different'

Each value is one of `SEEN_KINDS` (refsite.model): verbatim, folded (same text once whitespace
is folded), different, missing (the program ran quietly), api-missing (that release lacks an
API the reproducer calls), other-platform, unchecked (timed out), stale (the reproducer changed
since that run), not-run (no run of that release is kept, or it left the row out).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pytorch_error_lookup.lookup import release_numbers

from .model import code_sha



def kept_runs(data_dir: Path, book: str = "pytorch") -> dict[str, Path]:
    """Every kept run of the book by release ("2.13.0"): verification.yml and verification-*.yml."""
    book_dir = Path(data_dir) / book
    runs = {}
    for path in [book_dir / "verification.yml", *sorted(book_dir.glob("verification-*.yml"))]:
        if path.is_file():
            torch = yaml.safe_load(path.read_text(encoding="utf-8")).get("torch", "")
            runs[torch.split("+")[0]] = path
    return runs


def seen_on(release: str, data_dir: Path, book: str = "pytorch") -> dict[str, str]:
    """Per row id (every row with a reproducer): how its text came out on `release`.

    `release` is what the reader has: "2.6.0", "2.6.0+cu124", "2.6" (then the newest kept 2.6.x).
    Every row is `not-run` when no run of that release is kept.
    """
    programs = yaml.safe_load((Path(data_dir) / book / "reproducers.yml").read_text(encoding="utf-8")) or {}
    wanted = release_numbers(release)
    runs = {kept: path for kept, path in kept_runs(data_dir, book).items()
            if wanted and release_numbers(kept)[:len(wanted)] == wanted}
    if not runs:
        return {row_id: "not-run" for row_id in programs}
    newest = max(runs, key=release_numbers)
    results = yaml.safe_load(runs[newest].read_text(encoding="utf-8")).get("results", {})

    def seen(row_id: str) -> str:
        result = results.get(row_id)
        if result is None:
            return "not-run"
        if result.get("code_sha") != code_sha(programs[row_id]["code"]):
            return "stale"
        return result["seen"]

    return {row_id: seen(row_id) for row_id in programs}
