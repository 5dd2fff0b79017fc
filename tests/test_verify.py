"""The verifier's own logic, without torch: matching, statuses, timeouts, the rows it reads.

Programs here are tiny stand-ins run under this very Python, so they say what a torch program
would say without needing torch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from refsite.model import Reproducer
from refsite.pipeline import load_site
from refsite.verify import cli
from refsite.verify.cases import cases_from_site
from refsite.verify.judging import (API_MISSING, FAILED, NOT_HERE, REPRODUCED, REPRODUCED_FOLDED, SIMULATED,
                                    STATUSES, Case, Run, find, judge)
from refsite.verify.results import drift, dump
from refsite.verify.runner import run_all, run_program

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SCHEMA = DATA / "schema" / "reproducers.schema.json"
REPRODUCERS_FILE = DATA / "pytorch" / "reproducers.yml"


def ran(output: str, returncode: int | None = 1) -> Run:
    return Run(output, returncode, 0.5)


def row(*fragments: str, **fields) -> Case:
    return Case("row", fragments, Reproducer("pass", **fields))


def symptom(*expect: str) -> Case:
    return Case("symptom", (), Reproducer("pass", expect=expect))


# ── Matching ───────────────────────────────────────────────────────────────────────────────

def test_fragment_found_verbatim():
    match = find("mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)",
                 "RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)\n")
    assert match is not None and not match.folded


def test_brackets_and_regex_characters_are_plain_text():
    assert find("a (3) must match [x] *", "a (3) must match [x] *") is not None
    assert find("a (3)", "a 3") is None


def test_ellipsis_stands_for_any_text():
    fragment = "modified by an inplace operation: […], which is output 0 of Sigmoid"
    output = "modified by an inplace operation: [torch.FloatTensor [2]], which is output 0 of Sigmoid"
    assert find(fragment, output) is not None


def test_ellipsis_at_the_end_and_inside_quotes():
    assert find('Unexpected key(s) in state_dict: "_orig_mod.fc1.weight", …',
                'Unexpected key(s) in state_dict: "_orig_mod.fc1.weight", "_orig_mod.fc1.bias".')
    assert find("found <class '…'>", "found <class '__main__.Sample'>")


def test_ellipsis_does_not_excuse_the_text_around_it():
    assert find("Hint: enable anomaly detection …set_detect_anomaly(True, check_nan=False)",
                "Hint: enable anomaly detection with torch.autograd.set_detect_anomaly(True).") is None


def test_xxx_stands_for_the_readers_name_and_says_which():
    match = find("function XxxBackward returned", "function ScaleBackward returned")
    assert match is not None and match.names == (("Xxx", "Scale"),)
    match = find("GLOBAL xxx was not an allowed global",
                 "GLOBAL argparse.Namespace was not an allowed global")
    assert match.names == (("xxx", "argparse.Namespace"),)


def test_xxx_inside_a_word_is_plain_text():
    assert find("a maxxxed value", "a maxxxed value") is not None
    assert find("a maxxxed value", "a maStuffed value") is None


def test_whitespace_folded_only_when_needed():
    fragment = "Error(s) in loading state_dict for X: size mismatch for 0.weight"
    output = "RuntimeError: Error(s) in loading state_dict for X:\n\tsize mismatch for 0.weight: ..."
    match = find(fragment, output)
    assert match is not None and match.folded


def test_folding_does_not_invent_whitespace():
    assert find("state_dict for X", "state_dictfor X") is None


# ── Statuses ───────────────────────────────────────────────────────────────────────────────

def test_reproduced_with_excerpt_of_the_real_line():
    verdict = judge(row("grad can be implicitly created only for scalar outputs"),
                    ran("Traceback (most recent call last):\n  File ...\n"
                        "RuntimeError: grad can be implicitly created only for scalar outputs\n"))
    assert verdict.status == REPRODUCED
    assert verdict.excerpt == "RuntimeError: grad can be implicitly created only for scalar outputs"


def test_reproduced_whitespace_folded_says_so():
    verdict = judge(row("state_dict for X: size mismatch"),
                    ran("Error(s) in loading state_dict for X:\n\tsize mismatch for 0.weight\n"))
    assert verdict.status == REPRODUCED_FOLDED
    assert "空白折叠" in verdict.why
    assert verdict.excerpt == "Error(s) in loading state_dict for X:\nsize mismatch for 0.weight"


def test_every_fragment_and_expectation_must_appear():
    reproducer = row("Caught RuntimeError in DataLoader worker process 0.",
                     "Original Traceback (most recent call last):",
                     expect=("RuntimeError: the real error",))
    whole = ("RuntimeError: Caught RuntimeError in DataLoader worker process 0.\n"
             "Original Traceback (most recent call last):\n  File ...\n"
             "RuntimeError: the real error\n")
    assert judge(reproducer, ran(whole)).status == REPRODUCED
    verdict = judge(reproducer, ran(whole.replace("the real error", "something else")))
    assert verdict.status == FAILED
    assert "RuntimeError: the real error" in verdict.why


def test_excerpt_joins_distant_lines_with_an_ellipsis():
    verdict = judge(row("first", expect=("third",)), ran("first\nsecond\nthird\n", 0))
    assert verdict.excerpt == "first\n…\nthird"


def test_excerpt_drops_the_warning_location():
    verdict = judge(row("UserWarning: Input #0 requires gradient"),
                    ran("/somewhere/gradcheck.py:2124: UserWarning: Input #0 requires gradient\n", 0))
    assert verdict.excerpt == "UserWarning: Input #0 requires gradient"


def test_symptom_check_passes_on_the_measured_values():
    reproducer = symptom("[2.0, 4.0, 6.0]")
    verdict = judge(reproducer, ran("w.grad after each backward(): [2.0, 4.0, 6.0]\n", 0))
    assert verdict.status == REPRODUCED
    assert judge(reproducer, ran("w.grad after each backward(): [2.0, 2.0, 2.0]\n", 0)).status == FAILED


def test_simulated_says_how():
    verdict = judge(row("bootstrapping phase.", simulation="asks for spawn"),
                    ran("current process has finished its bootstrapping phase.\n"))
    assert verdict.status == SIMULATED
    assert "asks for spawn" in verdict.why


def test_a_simulation_that_misses_the_text_fails():
    verdict = judge(row("bootstrapping phase.", simulation="asks for spawn"), ran("ok\n", 0))
    assert verdict.status == FAILED


def test_other_platform_says_why_and_shows_what_happened_here():
    verdict = judge(row("Compiler: cl is not found.", platform="Windows only"),
                    ran("Traceback ...\nInductorError: InvalidCxxCompiler: No working C++ compiler\n"
                        "Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace\n"))
    assert verdict.status == NOT_HERE
    assert verdict.why == "Windows only"
    assert verdict.excerpt == "InductorError: InvalidCxxCompiler: No working C++ compiler"


def test_other_platform_message_seen_here_counts_as_reproduced():
    verdict = judge(row("Compiler: cl is not found.", platform="Windows only"),
                    ran("InvalidCxxCompiler: Compiler: cl is not found.\n"))
    assert verdict.status == REPRODUCED


def test_a_program_that_raises_nothing_fails():
    verdict = judge(row("does not have a grad_fn"), ran("all fine\n", 0))
    assert verdict.status == FAILED
    assert "退出码 0" in verdict.why and "什么也没报" in verdict.why


def test_a_different_error_fails_with_the_real_message():
    verdict = judge(row("does not have a grad_fn"),
                    ran("Traceback ...\nTypeError: unsupported operand\n"))
    assert verdict.status == FAILED
    assert verdict.excerpt == "TypeError: unsupported operand"


def test_a_variant_in_words_of_its_own_is_the_row_reproduced_differently():
    variant = Case("row/data-parallel", ("'Linear' object has no attribute 'fc3'",), Reproducer("pass"))
    verdict = judge(variant, ran("AttributeError: 'DataParallel' object has no attribute 'encoder'\n"))
    assert (verdict.status, verdict.seen) == (REPRODUCED, "different")


def test_a_variant_that_stops_before_its_mistake_fails():
    """torch 1.0's DistributedDataParallel takes no CPU model: it stops in its constructor,
    never reaching the attribute the variant reads, and that IndexError is no wording of the row."""
    variant = Case("row/distributed-data-parallel", ("'Linear' object has no attribute 'fc3'",),
                   Reproducer("pass", expect=("object has no attribute 'encoder'",)))
    verdict = judge(variant, ran("Traceback ...\n    output_device = device_ids[0]\nIndexError: list index out of range\n"))
    assert (verdict.status, verdict.seen) == (FAILED, "different")
    assert "object has no attribute 'encoder'" in verdict.why and "IndexError" in verdict.why
    verdict = judge(variant, ran("AttributeError: 'DistributedDataParallel' object has no attribute 'encoder'\n"))
    assert verdict.status == REPRODUCED


def near_miss() -> Case:
    return Case("row/near-miss/conv", ("mat1 and mat2 must have the same dtype",), Reproducer("pass"), near_miss=True)


def test_a_near_miss_holds_when_it_raises_another_error():
    verdict = judge(near_miss(), ran("Traceback ...\nRuntimeError: expected scalar type Double but found Float\n"))
    assert (verdict.status, verdict.seen) == (REPRODUCED, "different")
    assert "expected scalar type Double but found Float" in verdict.why


def test_a_near_miss_that_prints_the_rows_text_is_a_variant_not_a_near_miss():
    verdict = judge(near_miss(), ran("RuntimeError: mat1 and mat2 must have the same dtype, but got Double\n"))
    assert verdict.status == FAILED and "变体" in verdict.why


def test_a_near_miss_on_a_release_without_its_api_is_api_missing_not_another_error():
    """torch 1.x has no `torch.compile`: the AttributeError is the release's, not the near
    miss's error (it would be shown as what the near miss printed, and held against the row)."""
    verdict = judge(near_miss(), ran("Traceback ...\nAttributeError: module 'torch' has no attribute 'compile'\n"),
                    torch_name="torch 1.4.0")
    assert (verdict.status, verdict.seen) == (API_MISSING, API_MISSING)
    assert verdict.why.startswith("torch 1.4.0 没有 `torch.compile`"), verdict.why


def test_a_near_miss_that_raises_nothing_fails():
    verdict = judge(near_miss(), ran("fine\n", 0))
    assert verdict.status == FAILED and "没有报错" in verdict.why


def test_a_timed_out_run_fails_even_if_the_text_was_printed():
    verdict = judge(row("bootstrapping phase."), Run("bootstrapping phase.\n", None, 3.0))
    assert verdict.status == FAILED
    assert "超时" in verdict.why


def test_nothing_to_check_is_no_pass():
    assert judge(symptom(), ran("anything", 0)).status == FAILED


# ── A release without the API, and how the text came out ───────────────────────────────────

def traceback_from(case_id: str, last_line: str, *, inside_torch: bool = False) -> str:
    frames = f'  File "{case_id}.py", line 7, in <module>\n    call()\n'
    if inside_torch:
        frames += '  File "site-packages/torch/serialization.py", line 3, in load\n    f()\n'
    return f"Traceback (most recent call last):\n{frames}{last_line}\n"


@pytest.mark.parametrize("last_line, lacking", [
    ("AttributeError: module 'torch' has no attribute 'export'", "没有 `torch.export`"),
    ("AttributeError: module 'torch.serialization' has no attribute 'add_safe_globals'",
     "没有 `torch.serialization.add_safe_globals`"),
    ("ImportError: cannot import name 'Dim' from 'torch.export' (site-packages/torch/export/__init__.py)",
     "没有 `torch.export.Dim`"),
    ("ModuleNotFoundError: No module named 'torch.export'", "没有模块 `torch.export`"),
    ("TypeError: load() got an unexpected keyword argument 'weights_only'",
     "的 `load()` 还不认识参数 `weights_only`"),
    ("RuntimeError: Python 3.11+ not yet supported for torch.compile",
     "的 `torch.compile` 还不支持 Python 3.11+"),
])
def test_a_release_without_the_api_is_recorded_as_such_not_as_a_failure(last_line, lacking):
    case = Case("guard", ("Guard failed: x.size()[0] == 2",), Reproducer("pass"))
    verdict = judge(case, ran(traceback_from("guard", last_line)), "torch 2.0.1")
    assert (verdict.status, verdict.seen) == ("api-missing", "api-missing")
    assert verdict.why.startswith(f"torch 2.0.1 {lacking}：")
    assert verdict.excerpt == last_line


@pytest.mark.parametrize("last_line, inside_torch", [
    ("AttributeError: module 'numpy' has no attribute 'float'", False),  # not a torch name
    ("ModuleNotFoundError: No module named 'onnxscript'", False),  # a package, not a torch API
    ("AttributeError: 'Linear' object has no attribute 'fc3'", False),  # a row's own story
    # A keyword refused inside torch is torch's behaviour, not a missing API of the release.
    ("TypeError: f() got an unexpected keyword argument 'weights_only'", True),
])
def test_other_errors_are_the_row_coming_out_differently(last_line, inside_torch):
    case = Case("row", ("the row's text",), Reproducer("pass"))
    verdict = judge(case, ran(traceback_from("row", last_line, inside_torch=inside_torch)))
    assert (verdict.status, verdict.seen) == (FAILED, "different")


def test_a_missing_api_does_not_excuse_a_run_that_printed_the_text():
    output = "Guard failed: x.size()[0] == 2\nAttributeError: module 'torch' has no attribute 'x'\n"
    verdict = judge(Case("guard", ("Guard failed: x.size()[0] == 2",), Reproducer("pass")), ran(output))
    assert (verdict.status, verdict.seen) == (REPRODUCED, "verbatim")


@pytest.mark.parametrize("output, returncode, seen", [
    ("RuntimeError: grad can be implicitly created only for scalar outputs\n", 1, "verbatim"),
    ("state_dict for X:\n\tsize mismatch\n", 1, "folded"),
    ("Traceback ...\nRuntimeError: expected scalar type Long but found Float\n", 1, "different"),
    ("UserWarning: Error detected in SigmoidBackward0\nwith anomaly detection: …\n", 0, "different"),
    ("", 0, "missing"),
    ("y.grad = tensor([1., 1.])\n", 0, "missing"),
])
def test_seen_says_how_the_text_came_out(output, returncode, seen):
    case = row("grad can be implicitly created only for scalar outputs") if seen == "verbatim" else (
        row("state_dict for X: size mismatch") if seen == "folded" else row("the row's own text"))
    assert judge(case, ran(output, returncode)).seen == seen


def test_other_platform_and_timeouts_are_seen_as_such():
    assert judge(row("Compiler: cl is not found.", platform="Windows only"),
                 ran("No working C++ compiler\n")).seen == "other-platform"
    assert judge(row("text"), Run("", None, 3.0)).seen == "unchecked"


# ── Running programs ───────────────────────────────────────────────────────────────────────

def test_run_captures_stdout_and_stderr_in_order():
    run = run_program(sys.executable, "import sys\nprint('out', flush=True)\n"
                                      "sys.stderr.write('err\\n')\nraise RuntimeError('boom')\n",
                      name="mixed")
    assert run.returncode == 1
    assert run.output.index("out") < run.output.index("err") < run.output.index("boom")
    assert 'File "mixed.py", line 4' in run.output  # the temporary directory is not shown


def test_run_of_a_program_that_raises_nothing():
    run = run_program(sys.executable, "x = 1\n")
    assert (run.output, run.returncode) == ("", 0)
    assert judge(row("RuntimeError"), run).status == FAILED


def test_run_of_a_program_that_hangs_is_killed_at_the_timeout():
    run = run_program(sys.executable, "print('started', flush=True)\nwhile True:\n    pass\n",
                      timeout=1)
    assert run.timed_out and run.returncode is None
    assert run.output.strip() == "started"
    assert 1 <= run.seconds < 10


def test_timeout_kills_the_children_too():
    # A child holding the pipe open would make the verifier wait for ever.
    hang = ("import subprocess, sys, time\n"
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
            "time.sleep(60)\n")
    run = run_program(sys.executable, hang, timeout=1)
    assert run.timed_out and run.seconds < 10


def test_run_all_keeps_the_given_order_and_runs_two_at_a_time():
    sleepy = [Case(f"r{n}", (), Reproducer("import time\ntime.sleep(1)\nprint('done')\n",
                                           expect=("done",)))
              for n in range(4)]
    outcomes = run_all(sys.executable, sleepy, jobs=2)
    assert list(outcomes) == ["r0", "r1", "r2", "r3"]
    assert all(verdict.status == REPRODUCED for _, verdict in outcomes.values())


# ── The data and the results file ──────────────────────────────────────────────────────────

@pytest.fixture(scope="module")
def cases():
    return {case.id: case for case in cases_from_site(load_site(DATA))}


def test_a_variants_expected_text_is_what_its_case_checks(cases):
    assert cases["missing-attribute/distributed-data-parallel"].reproducer.expect == \
        ("object has no attribute 'encoder'",)


def test_every_error_row_has_a_reproducer_and_every_measured_symptom_a_check(cases):
    page = load_site(DATA).book("pytorch").pages[0]
    without = [row.id for row in page.rows("errors") if not cases[row.id].reproducer]
    assert not without, f"error rows with no program in data/pytorch/reproducers.yml: {without}"
    for symptom_id in ("forgot-zero-grad", "rng-in-self", "iterable-not-sharded",
                       "ctx-attribute-save", "trace-baked-branch"):
        assert cases[symptom_id].reproducer.expect


def test_cases_carry_the_text_the_page_shows(cases):
    """The verifier checks the validated site's rows: fragment and second line, as shown."""
    page = load_site(DATA).book("pytorch").pages[0]
    entry = next(row for row in page.rows("errors") if row.second_line)
    assert cases[entry.id].fragments == (entry.fragment, entry.second_line)
    rows = [case_id for case_id in cases if "/" not in case_id]
    assert rows == [row.id for section in page.sections
                    if section.kind in ("errors", "symptoms") for row in section.entries
                    if row.id in cases]
    # Each variant and near miss right after its row, checked against the row's text (a near
    # miss for not printing it).
    for case_id, case in cases.items():
        row_id, _, variant = case_id.partition("/")
        if variant:
            assert list(cases).index(case_id) > list(cases).index(row_id)
            assert case.fragments == cases[row_id].fragments
            assert case.near_miss == variant.startswith("near-miss/")
    assert any(case.near_miss for case in cases.values())


def test_reproducers_follow_their_published_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = yaml.safe_load(REPRODUCERS_FILE.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=str)
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_an_error_row_without_a_reproducer_is_run_as_a_failure():
    case = Case("orphan", ("some error text",), None)
    run, verdict = run_all(sys.executable, [case])["orphan"]
    assert run is None and verdict.status == FAILED
    assert "reproducers.yml" in verdict.why


def test_the_committed_results_match_the_current_programs(cases):
    """A result is only worth its stamp if it was produced by the program now in the data. (A
    row added since the last run has none: its page says 尚未实跑核对, test_adding_an_entry.py.)"""
    results = yaml.safe_load(cli.RESULTS_FILE.read_text(encoding="utf-8"))
    assert results["torch"].startswith("2.13.0")
    for key in ("python", "platform", "date"):
        assert results[key]
    assert set(results["results"]) <= set(cases)
    for id_, result in results["results"].items():
        assert result["status"] in STATUSES
        assert result["why"] and result["excerpt"]
        assert result["code_sha"] == cases[id_].reproducer.code_sha, f"{id_}: re-run the verifier"


def test_release_files_are_named_after_the_release():
    assert cli.release_file("2.6.0+cu124").name == "verification-2.6.0.yml"
    assert cli.release_file("2.13.0").name == "verification-2.13.0.yml"


def test_drift_names_only_what_changed():
    before = {"torch": "2.13.0", "date": "2026-01-01",
              "results": {"a": {"status": REPRODUCED, "excerpt": "x"},
                          "b": {"status": REPRODUCED, "excerpt": "y"}}}
    now = {"a": {"status": REPRODUCED, "excerpt": "x"}, "b": {"status": FAILED, "excerpt": "z"}}
    report = drift(now, before)
    assert report["unchanged"] == 1
    assert report["changed"] == {"b": {"status": {"before": REPRODUCED, "now": FAILED},
                                       "excerpt": {"before": "y", "now": "z"}}}


def test_results_file_keeps_messages_readable():
    text = dump({"results": {"a": {"excerpt": "line one\nline two"}}})
    assert "excerpt: |-\n      line one\n      line two" in text
    assert yaml.safe_load(text)["results"]["a"]["excerpt"] == "line one\nline two"


def test_the_verifier_refuses_to_check_another_checkouts_data(tmp_path):
    """An editable install puts one checkout's hooks/ on every path: run in a second checkout,
    the verifier would read and rewrite the first one's data. It says so and stops instead."""
    from refsite.verify.cli import ROOT, other_checkout

    second = tmp_path / "second"
    (second / "hooks" / "refsite").mkdir(parents=True)
    (second / "data").mkdir()
    assert other_checkout(second) == second
    assert other_checkout(second / "data") == second  # anywhere inside it
    assert other_checkout(ROOT) is None and other_checkout(ROOT / "hooks") is None
    assert other_checkout(tmp_path) is None  # not a checkout at all: nothing to mix up


def test_a_merged_run_reports_the_rows_it_ran_not_those_it_kept(tmp_path, monkeypatch, capsys):
    """`--only`/`--stale` on a release file full of api-missing rows: only what was run now is
    listed, so a new row's failure is not lost among every row kept from the first run."""
    kept = Path(__file__).resolve().parent.parent / "data/pytorch/verification-1.0.1.yml"
    out = tmp_path / "verification-1.0.1.yml"
    out.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")
    torch = yaml.safe_load(out.read_text(encoding="utf-8"))["torch"]
    assert "api-missing" in out.read_text(encoding="utf-8")  # rows kept that are not reproduced
    monkeypatch.setattr(cli, "probe", lambda python: {"torch": torch, "python": "3.7.16", "platform": "linux",
                                                       "site_packages": "/nowhere"})

    def run_all(python, cases, **options):
        return {case.id: (run := Run("RuntimeError: nothing like the row\n", 1, 0.1), judge(case, run)) for case in cases}

    monkeypatch.setattr(cli, "run_all", run_all)
    assert cli.main(["--out", str(out), "--only", "view-stride"]) == 1
    listed = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("torch ")]
    ran = [line for line in listed if not line.startswith("failed (kept")]
    assert ran and all(" view-stride" in line for line in ran), listed
    # The rows kept that fail the run (the exit code counts them) are named, apart; not the
    # kept api-missing ones.
    kept = [line for line in listed if line.startswith("failed (kept")]
    assert kept and not any("api-missing" in line for line in listed)
    assert cli.main(["--out", str(out), "--only", "view-stride", "--allow-failures"]) == 0
    assert not any(line.startswith("failed (kept") for line in capsys.readouterr().out.splitlines())
