"""The results file: one verifier run of one torch, as YAML the site build reads
(data/schema/verification.schema.json). Written by the tool only, never by hand."""

from __future__ import annotations

import yaml

from .judging import STATUSES, Case, Run, Verdict

OUTPUT_LINES = 60


def result_record(case: Case, run: Run | None, verdict: Verdict, site_packages: str) -> dict:
    record = {"status": verdict.status, "seen": verdict.seen, "why": verdict.why,
              "excerpt": verdict.excerpt.replace(site_packages, "site-packages")}
    if case.reproducer and case.reproducer.note:
        record["note"] = case.reproducer.note
    if run is not None:
        record["seconds"] = round(run.seconds, 1)
        record["code_sha"] = case.reproducer.code_sha
        record["output"] = shortened(run.output.replace(site_packages, "site-packages"))
    return record


def shortened(output: str, keep: int = OUTPUT_LINES) -> str:
    lines = output.rstrip().splitlines()
    if len(lines) <= keep:
        return "\n".join(lines)
    return "\n".join([f"… (前面 {len(lines) - keep} 行略)"] + lines[-keep:])


def status_counts(results: dict) -> dict[str, int]:
    return {status: sum(r["status"] == status for r in results.values()) for status in STATUSES}


def drift(results: dict, baseline: dict) -> dict:
    """Rows whose status or message changed against another run's results."""
    changed = {}
    for id_, now in results.items():
        before = baseline.get("results", {}).get(id_)
        if before is None:
            changed[id_] = {"new": True}
            continue
        difference = {key: {"before": before.get(key), "now": now.get(key)}
                      for key in ("status", "excerpt") if before.get(key) != now.get(key)}
        if difference:
            changed[id_] = difference
    return {"against": {"torch": baseline.get("torch"), "date": baseline.get("date")},
            "unchanged": len(results) - len(changed), "changed": changed}


class _Dumper(yaml.SafeDumper):
    """Multi-line text as literal blocks, so a message reads in the file as it did on screen."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text and not any(c in text for c in "\t\r") else None
    if style and any(line != line.rstrip() for line in text.splitlines()):
        style = None  # YAML cannot keep trailing spaces inside a literal block
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


def dump(document: dict) -> str:
    header = ("# yaml-language-server: $schema=../schema/verification.schema.json\n"
              "# Written by `python -m refsite.verify`: do not edit by hand.\n"
              "# Each row's reproducer lives in data/pytorch/reproducers.yml.\n")
    return header + yaml.dump(document, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                              width=100)
