"""The verifier's own logic, without torch: matching, statuses, timeouts, the data it reads.

Programs here are tiny stand-ins run under this very Python, so they say what a torch program
would say without needing torch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from refsite import verify
from refsite.verify import (FAILED, NOT_HERE, REPRODUCED, REPRODUCED_FOLDED, SIMULATED, Reproducer,
                            Run, find, judge, run_program)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "data" / "schema" / "reproducers.schema.json"


def ran(output: str, returncode: int | None = 1) -> Run:
    return Run(output, returncode, 0.5)


def row(*fragments: str, **fields) -> Reproducer:
    return Reproducer("row", "pass", fragments, **fields)


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
    reproducer = Reproducer("forgot-zero-grad", "pass", expect=("[2.0, 4.0, 6.0]",))
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


def test_a_timed_out_run_fails_even_if_the_text_was_printed():
    verdict = judge(row("bootstrapping phase."), Run("bootstrapping phase.\n", None, 3.0))
    assert verdict.status == FAILED
    assert "超时" in verdict.why


def test_nothing_to_check_is_no_pass():
    assert judge(Reproducer("row", "pass"), ran("anything", 0)).status == FAILED


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
    sleepy = [Reproducer(f"r{n}", "import time\ntime.sleep(1)\nprint('done')\n", expect=("done",))
              for n in range(4)]
    outcomes = verify.run_all(sys.executable, sleepy, jobs=2)
    assert list(outcomes) == ["r0", "r1", "r2", "r3"]
    assert all(verdict.status == REPRODUCED for _, verdict in outcomes.values())


# ── The data and the results file ──────────────────────────────────────────────────────────

def test_every_error_row_has_a_reproducer_and_every_measured_symptom_a_check():
    reproducers = {r.id: r for r in verify.load_reproducers()}
    error_rows = [r for r in reproducers.values() if r.fragments]
    assert len(error_rows) == 43
    assert all(r.code for r in error_rows)
    for symptom in ("forgot-zero-grad", "rng-in-self", "iterable-not-sharded",
                    "ctx-attribute-save", "trace-baked-branch"):
        assert reproducers[symptom].expect


def test_reproducers_follow_their_published_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = yaml.safe_load(verify.REPRODUCERS_FILE.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=str)
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_a_reproducer_for_an_unknown_row_is_an_error(tmp_path):
    extra = tmp_path / "reproducers.yml"
    extra.write_text("no-such-row:\n  code: pass\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no-such-row"):
        verify.load_reproducers(reproducers_file=extra)


def test_an_error_row_without_a_reproducer_is_reported_failed(tmp_path):
    empty = tmp_path / "reproducers.yml"
    empty.write_text("{}\n", encoding="utf-8")
    reproducers = verify.load_reproducers(reproducers_file=empty)
    assert len(reproducers) == 43 and not any(r.code for r in reproducers)


def test_the_committed_results_cover_every_row_and_match_the_current_programs():
    """A result is only worth its stamp if it was produced by the program now in the data."""
    results = yaml.safe_load(verify.RESULTS_FILE.read_text(encoding="utf-8"))
    assert results["torch"].startswith("2.13.0")
    for key in ("python", "platform", "date"):
        assert results[key]
    reproducers = {r.id: r for r in verify.load_reproducers()}
    assert set(results["results"]) == set(reproducers)
    for id_, result in results["results"].items():
        assert result["status"] in verify.STATUSES
        assert result["why"] and result["excerpt"]
        assert result["code_sha"] == reproducers[id_].code_sha, f"{id_}: re-run the verifier"


@pytest.mark.parametrize("name", ["verification.yml", "verification-2.14.1.yml"])
def test_results_files_follow_their_published_schema(name):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "data" / "schema" / "verification.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    data = yaml.safe_load((ROOT / "data" / "pytorch" / name).read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=str)
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_drift_names_only_what_changed():
    before = {"torch": "2.13.0", "date": "2026-01-01",
              "results": {"a": {"status": REPRODUCED, "excerpt": "x"},
                          "b": {"status": REPRODUCED, "excerpt": "y"}}}
    now = {"a": {"status": REPRODUCED, "excerpt": "x"}, "b": {"status": FAILED, "excerpt": "z"}}
    report = verify.drift(now, before)
    assert report["unchanged"] == 1
    assert report["changed"] == {"b": {"status": {"before": REPRODUCED, "now": FAILED},
                                       "excerpt": {"before": "y", "now": "z"}}}


def test_results_file_keeps_messages_readable():
    text = verify.dump({"results": {"a": {"excerpt": "line one\nline two"}}})
    assert "excerpt: |-\n      line one\n      line two" in text
    assert yaml.safe_load(text)["results"]["a"]["excerpt"] == "line one\nline two"
