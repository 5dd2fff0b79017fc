"""Every wording torch has printed for a row is part of that row: each release's recorded output,
each variant's, each seen only in the wild (refsite.wordings, refsite.find_rules)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import real_pastes
from pytorch_error_lookup import cli
from pytorch_error_lookup.lookup import Lookup
from pytorch_error_lookup.rule import compile_templates, fold
from refsite.find_rules import declined_wordings, templates_for
from refsite.lookup_data import lookup_data
from refsite.pipeline import load_site
from refsite.render import Renderer
from refsite.sitemap import site_pages
from refsite.wordings import last_error_message, wording_of

DATA = Path(__file__).resolve().parent.parent / "data"
SITE = load_site(DATA)
PAGE = SITE.book("pytorch").pages[0]
ERROR_ROWS = PAGE.rows("errors")
LOOKUP = Lookup(lookup_data(DATA))


def recorded_wordings():
    """(row, wording) for every wording the data holds: releases', variants', the wild's."""
    for row in ERROR_ROWS:
        for wording, *_ in row.releases.wordings:
            yield row.id, wording
        for seen in row.reproducer.seen_in_the_wild if row.reproducer else ():
            yield row.id, seen.wording


# What a near miss printed fits these, so the lookup leaves them out (refsite.find_rules).
DECLINED = set(declined_wordings(PAGE))
WORDINGS = [(row, wording) for row, wording in recorded_wordings() if (row, wording) not in DECLINED]


# A row whose text is the hint at the end of another row's message (`Hint: enable anomaly
# detection …`): its output is that other row's message too, which wins (rule.best_fit).
HINT_ROWS = {row.id for row in ERROR_ROWS if row.fragment.startswith("Hint:")}


def recorded_runs():
    """(row, message, run) for what every run of every row printed as the row's message, every
    release: the lines its text was found in, or the wording it printed instead."""
    for row in ERROR_ROWS:
        if row.id in HINT_ROWS:
            continue
        for run in row.releases.runs + row.releases.variant_runs:
            if run.shown_as == "reworded" and (row.id, run.wording) not in DECLINED:
                yield row.id, run.wording, run
            elif run.shown_as in ("verbatim", "folded") and run.variant is None:
                yield row.id, run.excerpt, run


def recorded_messages():
    for row_id, message, _ in recorded_runs():
        yield row_id, message


# ── Which lines are a row's wording ───────────────────────────────────────────────────────────

def test_a_line_of_the_rows_kind_is_its_wording():
    out = "Traceback…\nRuntimeError: size mismatch, m1: [3 x 4], m2: [5 x 2] at /pytorch/aten/src/TH/x.cpp:940"
    assert wording_of(out, "RuntimeError", "torch.randn(3, 4) @ torch.randn(5, 2)") == out.splitlines()[-1]


def test_a_slip_python_makes_anywhere_is_no_wording():
    out = "TypeError: forward() missing 1 required positional argument: 'x'"
    assert wording_of(out, "RuntimeError", "Square()(x)") is None
    assert wording_of("OnnxExporterError: Module onnx is not installed!", "ModuleNotFoundError", "export()") is None


def test_a_warning_is_no_wording_of_an_error_nor_the_reverse():
    assert wording_of("RuntimeWarning: Traceback of forward call", "RuntimeError", "") is None
    assert wording_of("RuntimeError: output 0 of traced region", "TracerWarning", "") is None


def test_a_message_the_reproducer_wrote_itself_is_no_wording():
    assert wording_of("RuntimeError: the real error", "RuntimeError", 'raise RuntimeError("the real error")') is None


def test_a_variant_is_vouched_for_by_its_author_whatever_its_kind():
    out = "AttributeError: Can't get attribute 'Net' on <module '__main__' from 'x.py'>"
    assert wording_of(out, "ModuleNotFoundError", "torch.load(p)", same_kind=False) == out


def test_an_exception_of_a_modules_own_is_a_line_whatever_its_class_ends_in():
    """torch 2.1 (the row's dynamo-export variant): a deprecation warning, then the error, whose
    class does not end in `Error`; the error is the wording, not the warning before it."""
    out = ("x.py:9: UserWarning: export(f, *args, **kwargs) is deprecated\n  warnings.warn(\n"
           "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: It appears that you're trying to "
           "get a value out of symbolic int/float whose value is data-dependent")
    assert wording_of(out, "GuardOnDataDependentSymNode", "torch._dynamo.export(Net(), x)", same_kind=False) == \
        out.splitlines()[-1]


def test_an_introduction_of_an_error_printed_below_is_no_wording():
    out = ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
           "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'cl')")
    assert wording_of(out, "InductorError", "torch.compile(f)(x)", same_kind=False) is None


def test_a_message_that_goes_on_over_tabbed_lines_is_taken_whole():
    out = ("RuntimeError: Error(s) in loading state_dict for Net:\n"
           '\tUnexpected key(s) in state_dict: "module.fc.weight".\nsomething after')
    assert last_error_message(out) == ('RuntimeError: Error(s) in loading state_dict for Net: '
                                       'Unexpected key(s) in state_dict: "module.fc.weight".')


def test_an_old_wording_any_cat_prints_is_the_collate_rows_only_through_default_collate():
    """torch 1.4 and older said the DataLoader's stack of unequal samples as any `torch.cat`
    does (the row's `cat` near miss prints it too): alone it is `weak`; in a traceback through
    `default_collate` it is the row's."""
    row = next(row for row in ERROR_ROWS if row.id == "stack-unequal-size")
    wording = next(wording for wording, releases, _ in row.releases.wordings if "1.4.0" in releases)
    assert "Sizes of tensors must match except in dimension 0" in wording
    assert any(row_id == row.id and "Sizes of tensors" in said for row_id, said in DECLINED)
    assert LOOKUP(wording).verdict == "weak"
    traceback = ('Traceback (most recent call last):\n'
                 '  File "/usr/lib/python3.7/site-packages/torch/utils/data/_utils/collate.py", line 55, in default_collate\n'
                 '    return torch.stack(batch, 0, out=out)\n'
                 f'RuntimeError: {wording}')
    assert (LOOKUP(traceback).verdict, LOOKUP(traceback).ids[:1]) == ("match", (row.id,))


# ── Each lands, and only on its row ──────────────────────────────────────────────────────────

def test_the_matrix_holds_wordings_from_releases_before_2_and_from_variants():
    releases = {release for row in ERROR_ROWS for _, found_on, _ in row.releases.wordings for release in found_on}
    assert {"1.0.1", "1.4.0"} <= releases
    assert any(path for row in ERROR_ROWS for *_, paths in row.releases.wordings for path in paths)


@pytest.mark.parametrize("row_id, wording", WORDINGS, ids=[f"{row}-{index}" for index, (row, _) in enumerate(WORDINGS)])
def test_each_recorded_wording_lands_on_its_row(row_id, wording):
    answer = LOOKUP(wording)
    assert answer.verdict in ("literal", "match") and answer.ids[0] == row_id


def test_no_rows_wording_fits_another_rows_recorded_output():
    """Every wording's template the page and the terminal load (releases', variants', the
    wild's; a symptom's descriptions) against what every other row's runs printed, on every
    release. (A fragment may be part of another's, `a leaf Variable…` of `a view of a leaf
    Variable…`: there the most specific wins, rule.best_fit.)"""
    messages = list(recorded_messages())
    assert len({row for row, _ in messages}) > 30
    fragments = {template.pattern for row in ERROR_ROWS for template in compile_templates(
        row.id, row.fragment, row.own_names, row.second_line, key_prefixes=row.key_prefixes, not_with=row.not_with)}
    wordings = [template for template in templates_for(PAGE) if template.pattern not in fragments]
    assert len(wordings) >= len(WORDINGS) - len(DECLINED)
    for template in wordings:
        for other, message in messages:
            if other != template.entry:
                assert not re.search(template.pattern, fold(message)), (template.entry, template.pattern, other, message)


def test_every_recorded_output_lands_on_its_own_row():
    """Its message; for a row whose message alone is any such error's (`only_if_shown`), the
    run's traceback, as a reader pastes it: its frames show where it came from. (From the
    traceback on: load-module-not-found's program prints the default load's failure first, and
    of two errors the lookup answers the first a row explains.)"""
    for row_id, message, run in recorded_runs():
        pasted = run.output[max(run.output.find("Traceback (most recent call last)"), 0):] if row_id in ONLY_IF else message
        answer = LOOKUP(pasted)
        assert answer.verdict in ("literal", "match") and row_id in answer.ids, (row_id, pasted)


def near_miss_messages():
    for row in ERROR_ROWS:
        for name, message, releases in row.releases.near_miss_messages:
            yield row.id, name, message, releases


NEAR_MISSES = list(near_miss_messages())


def test_near_misses_are_recorded_on_releases_before_2_and_after():
    assert {row for row, *_ in NEAR_MISSES} >= {"matmul-dtype", "matmul-shapes", "tracer-from-numpy"}
    releases = {release for *_, found_on in NEAR_MISSES for release in found_on}
    assert any(release.startswith("1.") for release in releases) and "2.13.0" in releases


@pytest.mark.parametrize("row_id, name, message, releases", NEAR_MISSES,
                         ids=[f"{row}-{name}-{index}" for index, (row, name, *_) in enumerate(NEAR_MISSES)])
def test_a_near_miss_is_never_answered_with_confidence(row_id, name, message, releases):
    """Another error readers take for a row's: the lookup does not say that row, nor any other
    (it is no row's), and each wording the lookup left out for it is answered `weak` too."""
    answer = LOOKUP(message)
    assert answer.verdict not in ("literal", "match"), (row_id, name, releases, answer.ids)


@pytest.mark.parametrize("row_id, wording", sorted(DECLINED))
def test_a_wording_left_out_for_a_near_miss_is_answered_weak(row_id, wording):
    assert LOOKUP(wording).verdict == "weak" and row_id in LOOKUP(wording).ids


# Rows whose mistake is made through calls the data names (`called_through`).
CALLED = {row.id: row.called_through for row in ERROR_ROWS if row.called_through}


@pytest.mark.parametrize("row_id, wording", sorted((row, wording) for row, wording in DECLINED if row in CALLED))
def test_a_wording_a_near_miss_prints_too_is_the_rows_where_the_paste_shows_its_call(row_id, wording):
    """Alone, `expected scalar type Float but found Double` is a convolution's too (`weak`); in a
    traceback through one of the row's calls it is the row's, whichever call it is."""
    for call in CALLED[row_id]:
        code = f"y = x {call} w" if call == "@" else f"y = {call}(x, w)"
        traceback = f'Traceback (most recent call last):\n  File "train.py", line 9, in forward\n    {code}\n{wording}'
        answer = LOOKUP(traceback)
        assert (answer.verdict, answer.ids[:1]) == ("match", (row_id,)), (call, answer)


def test_a_near_miss_traceback_showing_no_call_of_the_row_stays_weak():
    """The real paste (tune part) whose traceback goes through `torch.matmul` lands; the
    convolution near miss, printed in the same words by torch 1.x, does not."""
    paste = real_pastes.texts_by_source()["https://github.com/Xillv/Code-for-AEGCN-Glove/issues/3"]
    assert (LOOKUP(paste).verdict, LOOKUP(paste).ids[:1]) == ("match", ("matmul-dtype",))
    conv = paste.replace("torch.matmul(text, self.weight", "F.conv2d(text, self.weight")
    assert LOOKUP(conv).verdict == "weak"
    decorated = 'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    @torch.no_grad()\n'
    assert LOOKUP(decorated + "RuntimeError: expected scalar type Float but found Double").verdict == "weak"


def test_wordings_seen_in_the_wild_come_from_the_tune_part_only():
    """A thread the set holds is labelled with the row and shows the wording; one it does not hold
    still hashes to the tune part, so that a later round can never put it in the held-apart part."""
    wild = [(row.id, seen) for row in ERROR_ROWS if row.reproducer for seen in row.reproducer.seen_in_the_wild]
    assert wild
    pastes = {paste["source"]: paste for paste in real_pastes.load()}
    for row_id, seen in wild:
        assert real_pastes.part_of(seen.source) == real_pastes.TUNE, seen.source
        assert all(name in seen.wording for name in seen.own_names), (row_id, seen)
        if seen.source in pastes:
            paste = pastes[seen.source]
            assert paste["lands_on"] == row_id and seen.wording in paste["paste"].replace("\\\"", '"')


def test_a_wild_wordings_own_names_take_the_readers_words():
    """torch 0.3's bool text named the tensor's type: the one seen was a CUDA float's."""
    other_type = "RuntimeError: bool value of Variable objects containing non-empty torch.IntTensor is ambiguous"
    assert (LOOKUP(other_type).verdict, LOOKUP(other_type).ids[:1]) == ("match", ("bool-ambiguous",))


def test_wordings_that_differ_only_in_a_slot_are_one_template_but_each_is_declined():
    """torch 1.0.1–1.4.0 printed the collate's old wording with four source paths: one template,
    which the lookup loads once, while each wording is listed as declined (a near miss prints
    it too), so that the tests above run on every one."""
    old = [wording for row_id, wording in DECLINED
           if row_id == "stack-unequal-size" and "Sizes of tensors must match" in wording]
    assert len(old) == 4
    templates = [template for template in templates_for(PAGE)
                 if template.entry == "stack-unequal-size" and template.needs_call and "sizes of tensors" in template.anchor]
    assert len(templates) == 1
    assert HINT_ROWS == {"anomaly-hint"}


def test_bmm_inner_size_pastes_land_and_its_batch_near_miss_stays_weak():
    """Real pastes (tune part) of bmm's inner-size wording, through torch.matmul and a 3-D
    F.linear: the batch is the same in both lists, so they land; a batch of 1 against 2 (the
    near miss's) is the same words with the other number repeated."""
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/binary-husky/hmp2g/issues/10", "https://github.com/kyegomez/PALI3/issues/13",
                   "https://github.com/greatlog/DAN/issues/9"):
        answer = LOOKUP(pastes[source])
        assert (answer.verdict, answer.ids[:1]) == ("match", ("matmul-shapes",)), (source, answer)
    batch = "RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [1, 768] but got: [2, 768]."
    assert LOOKUP(batch).verdict == "weak"


def test_a_wild_wording_other_mistakes_printed_too_is_the_rows_only_with_its_call():
    """torch 0.3's `inconsistent tensor sizes` was any torch.cat's: alone it is only suggested; the
    real paste (tune part) whose traceback goes through default_collate lands."""
    bare = "RuntimeError: inconsistent tensor sizes at /pytorch/torch/lib/TH/generic/THTensorMath.c:2709"
    assert LOOKUP(bare).verdict == "weak" and LOOKUP(bare).ids[0] == "stack-unequal-size"
    paste = real_pastes.texts_by_source()["https://github.com/jwyang/faster-rcnn.pytorch/issues/126"]
    assert (LOOKUP(paste).verdict, LOOKUP(paste).ids[:1]) == ("match", ("stack-unequal-size",))
    assert LOOKUP(paste.replace("default_collate", "my_merge")).verdict == "weak"


# ── What the chapter page says ───────────────────────────────────────────────────────────────

def test_the_chapter_page_shows_each_wording_with_the_releases_that_print_it():
    renderer = Renderer(SITE)
    chapters = {page.src_uri: page for page in site_pages(SITE) if page.kind == "chapter"}
    html = renderer.render(chapters["pytorch/01.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    block = html[html.index('data-backlink="matmul-shapes"'):]
    block = block[:block.index("</li>\n  <li")] if "</li>\n  <li" in block else block
    assert "size mismatch, m1: [3 x 4], m2: [5 x 2]" in block
    assert re.search(r"torch 1\.0\.1[^<]*实跑", block)
    # A row whose wordings a near miss shares says which calls make them its own.
    dtype = html[html.index('data-backlink="matmul-dtype"'):]
    said = dtype[dtype.index("data-called-through"):]
    assert "<code>F.linear</code>" in said[:said.index("</p>")] and "<code>@</code>" in said[:said.index("</p>")]
    wild = renderer.render(chapters["pytorch/06.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    assert "While copying the parameter named" in wild and "未复现" in wild
    assert 'href="https://github.com/galsang/BIMPM-pytorch/issues/7"' in wild
    # A row that names what shows another cause says so, as the lookup reads it.
    modules = renderer.render(chapters["pytorch/05.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    missing = modules[modules.index('data-backlink="missing-attribute"'):]
    assert "<code>@property</code>" in missing[missing.index("data-unless-shown"):][:300]
    # A row whose message any situation prints names what a paste must show to be it.
    saved = renderer.render(chapters["pytorch/10.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    load = saved[saved.index('data-backlink="load-module-not-found"'):]
    assert "<code>torch.load</code>" in load[load.index("data-only-if-shown"):][:400]
    # A row that holds only where sizes differ, not their order, says so.
    mismatch = saved[saved.index('data-backlink="size-mismatch"'):] if 'data-backlink="size-mismatch"' in saved else ""
    assert "换了顺序" in mismatch[mismatch.index("data-sizes-differ"):][:300]


def test_the_chapter_page_lists_how_readers_describe_a_symptom():
    renderer = Renderer(SITE)
    chapters = {page.src_uri: page for page in site_pages(SITE) if page.kind == "chapter"}
    html = renderer.render(chapters["pytorch/07.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    assert "也常被说成" in html and "validation accuracy…lower than…train" in html


def test_an_error_described_in_words_lands_on_its_row_and_its_page_lists_how():
    """Real pastes (tune part): the bootstrapping error told, not pasted: the idiom it names
    (`freeze_support`), or Windows with DataLoader workers, in English and Chinese. Workers
    that fail some other way (a local object that cannot be pickled) are not it."""
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/stefanonardo/pytorch-esn/issues/4",
                   "https://github.com/MorvanZhou/PyTorch-Tutorial/issues/30",
                   "https://github.com/WZMIAOMIAO/deep-learning-for-image-processing/issues/198"):
        answer = LOOKUP(pastes[source])
        assert (answer.verdict, answer.ids[:1]) == ("match", ("spawn-bootstrapping",)), (source, answer)
        assert answer.fit.described
    for other in (pastes["https://github.com/xingyizhou/CenterNet/issues/649"],
                  "windows dataloader num_workers>0 is very slow", "num_workers on windows hangs forever",
                  "on windows with num_workers=2 I get an error: can't pickle local object"):
        assert LOOKUP(other).verdict not in ("literal", "match"), other
    renderer = Renderer(SITE)
    chapters = {page.src_uri: page for page in site_pages(SITE) if page.kind == "chapter"}
    html = renderer.render(chapters["pytorch/08.md"], lambda target, anchor=None: f"{target}#{anchor or ''}").html
    assert "也常被说成" in html and "windows…num_worker" in html


# Rows that name what shows a cause they do not explain (`unless_shown`).
UNLESS = {row.id: row.unless_shown for row in ERROR_ROWS if row.unless_shown}


@pytest.mark.parametrize("row_id", sorted(UNLESS))
def test_a_paste_showing_another_cause_is_not_said_to_be_the_row(row_id):
    """A paste the row's template fits is `match`; the same paste saying what shows another
    cause (`Half`: a half-precision model, not float64 data) is only suggested."""
    row = next(row for row in ERROR_ROWS if row.id == row_id)
    own = f" from {row.only_if_shown[0]}" if row.only_if_shown else ""  # what the row's own case shows
    asked = f"After loading the model{own} I get {row.fragment} here, how to fix?"
    assert (LOOKUP(asked).verdict, LOOKUP(asked).ids[:1]) == ("match", (row_id,))
    for shown in UNLESS[row_id]:
        answer = LOOKUP(f"{asked} My code has {shown} in it.")
        assert answer.verdict == "weak" and row_id in answer.ids, (shown, answer)
    # The terminal says why the suggestion is probably not the reader's.
    out = io.StringIO()
    cli.main([], stdin=_Stdin(f"{asked} My code has {UNLESS[row_id][0]} in it.".encode()), stdout=out, stderr=io.StringIO())
    assert f"⚠️ 你贴的内容里有 {UNLESS[row_id][0]}" in out.getvalue()


def test_a_half_precision_side_of_a_matmul_is_not_float64_data():
    """Real pastes (tune part): `Half and Float8_e4m3fn` (fp8 weights in a ComfyUI node) and
    `Float and BFloat16` (DeepSpeed under bf16) fit the row's words, not its cause; they are
    suggested with the reason. A float64 side still lands."""
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/kijai/ComfyUI-ControlNeXt-SVD/issues/7",
                   "https://github.com/kohya-ss/sd-scripts/pull/2060"):
        answer = LOOKUP(pastes[source])
        assert answer.verdict == "weak" and answer.ids[0] == "matmul-dtype", (source, answer)
    answer = LOOKUP("RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double")
    assert (answer.verdict, answer.ids[:1]) == ("match", ("matmul-dtype",))


def test_a_missing_module_attribute_is_the_wrapper_readers_expected():
    """Real pastes (tune part): code written for a DataParallel / DDP model (`model.module`) run
    on a model not wrapped: `'…' object has no attribute 'module'` is the row, one of its other
    causes. A class named `module` is still Python's module type, not the reader's model."""
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/huawei-noah/VanillaNet/issues/38",
                   "https://github.com/VisionRush/DeepFakeDefenders/issues/13"):
        answer = LOOKUP(pastes[source])
        assert (answer.verdict, answer.ids[:1]) == ("match", ("missing-attribute",)), (source, answer)
    assert any("`module`" in other.cause for other in next(row for row in ERROR_ROWS
                                                           if row.id == "missing-attribute").other_causes)
    answer = LOOKUP("AttributeError: 'module' object has no attribute 'fc3'")
    assert answer.verdict not in ("literal", "match"), answer


def test_a_wrapped_models_own_attribute_is_the_row_through_its_wrapper_variants():
    """Real pastes (tune part): a model wrapped in DataParallel / DDP read as if it were not
    (`model.encoder` for `model.module.encoder`), the reverse of the cause above. The wrappers'
    variants print it; the wrapper's cause is the one the answer points to. A private attribute
    of DDP's own (`_set_static_graph`, missing on an older torch) is another story."""
    pastes = real_pastes.texts_by_source()
    for source in ("https://github.com/thunlp/OpenPrompt/issues/152",
                   "https://github.com/lyhue1991/torchkeras/issues/3",  # torch 1.6–1.7's ModuleAttributeError
                   "https://github.com/zzz47zzz/CET/issues/3"):  # inside Chinese prose
        answer = LOOKUP(pastes[source])
        assert (answer.verdict, answer.ids[:1]) == ("match", ("missing-attribute",)), (source, answer)
    row = next(row for row in ERROR_ROWS if row.id == "missing-attribute")
    wrapper_cause = next(other for other in row.other_causes if "model.module.xxx" in other.cause)
    assert "'DistributedDataParallel' object has no attribute" in wrapper_cause.shown_by
    ddp = "[rank0]: AttributeError: 'DistributedDataParallel' object has no attribute 'train_model'"
    assert (LOOKUP(ddp).verdict, LOOKUP(ddp).ids[:1]) == ("match", ("missing-attribute",))
    private = pastes["https://github.com/JingyunLiang/VRT/issues/22"]
    assert LOOKUP(private).verdict not in ("literal", "match")
    # torch 1.0's DDP stops in its constructor on a CPU model: that variant run failed, and
    # what it printed instead is no wording of the row.
    assert LOOKUP("IndexError: list index out of range").verdict not in ("literal", "match")


def test_a_broadcast_paste_showing_a_fixed_size_model_or_a_channel_count_points_to_that_cause():
    """Real pastes (tune part): CoAtNet built for 224×224 fed 512×512 (its relative-bias table
    is in the frame's code), 6-channel audio inside a worker's envelope. Both land on the row;
    the first also says which of its other causes it shows, as Normalize on an RGBA image does."""
    from pytorch_error_lookup.lookup import shown_other_causes

    pastes = real_pastes.texts_by_source()
    row = next(row for row in ERROR_ROWS if row.id == "broadcast-mismatch")
    causes = {other.source: place for place, other in enumerate(row.other_causes)}
    entry = {"other_causes": [{"shown_by": list(other.shown_by)} for other in row.other_causes]}
    for source in ("https://github.com/chinhsuanwu/coatnet-pytorch/issues/5",
                   "https://github.com/descriptinc/descript-audio-codec/issues/70"):
        answer = LOOKUP(pastes[source])
        assert (answer.verdict, answer.ids[:1]) == ("match", ("broadcast-mismatch",)), (source, answer)
    fixed_size = causes["https://github.com/chinhsuanwu/coatnet-pytorch/issues/5"]
    assert [place for place, _ in shown_other_causes(
        entry, pastes["https://github.com/chinhsuanwu/coatnet-pytorch/issues/5"])] == [fixed_size]
    rgba = ("    tensor.sub_(mean).div_(std)\n"
            "RuntimeError: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0")
    assert [place for place, _ in shown_other_causes(entry, rgba)] == \
        [causes["https://github.com/StoryMY/take-off-eyeglasses/issues/1"]]
    # The same numbers from a loss are no image's channels.
    loss = "    loss = (pred - labels).pow(2)\n" + rgba.splitlines()[1]
    assert shown_other_causes(entry, loss) == []


def test_a_distributed_processs_rank_prefix_is_not_part_of_its_wording():
    out = ("[rank0]: Traceback (most recent call last):\n"
           "[rank0]:   File \"x.py\", line 15, in <module>\n"
           "[rank0]: AttributeError: 'DistributedDataParallel' object has no attribute 'encoder'")
    assert last_error_message(out) == "AttributeError: 'DistributedDataParallel' object has no attribute 'encoder'"


def test_a_size_mismatch_whose_shapes_are_only_reordered_is_not_said_to_be_the_row():
    """A real paste (tune part): spconv changed its weight layout, so the checkpoint's shape is
    the model's in another order; no hyperparameter changed. Nor is GPT-2's Conv1D weight, read
    into a Linear, a width that changed. A size that did change still lands, whole or cut."""
    from pytorch_error_lookup.lookup import NOT_SAID_BECAUSE, why_only_suggested

    paste = real_pastes.texts_by_source()["https://github.com/ouenal/scribblekitti/issues/10"]
    answer = LOOKUP(paste)
    assert answer.verdict == "weak" and answer.ids[0] == "size-mismatch"
    # The suggestion says why it is only suggested.
    assert why_only_suggested(answer, answer.entries[0], paste) == NOT_SAID_BECAUSE["reordered"]
    line = ("size mismatch for h.0.attn.c_attn.weight: copying a param with shape torch.Size([768, 2304]) from checkpoint, "
            "the shape in current model is torch.Size([2304, 768]).")
    assert LOOKUP(line).verdict == "weak" and "size-mismatch" in LOOKUP(line).reordered
    grown = line.replace("[2304, 768]", "[2304, 1024]")
    assert (LOOKUP(grown).verdict, LOOKUP(grown).ids[:1]) == ("match", ("size-mismatch",))
    unrelated = LOOKUP("RuntimeError: Error(s) in loading state_dict for Net: Missing key(s) in state_dict: x")
    assert not unrelated.reordered
    cut = "RuntimeError: Error(s) in loading state_dict for GPT2: size mismatch for h.0.attn.c_attn.weight: copying a param"
    assert (LOOKUP(cut).verdict, LOOKUP(cut).ids[:1]) == ("match", ("size-mismatch",))


# Rows whose message alone is any such error's (`only_if_shown`).
ONLY_IF = {row.id: row.only_if_shown for row in ERROR_ROWS if row.only_if_shown}


@pytest.mark.parametrize("row_id", sorted(ONLY_IF))
def test_a_message_any_situation_prints_is_the_row_only_where_the_paste_shows_its_own(row_id):
    """`No module named 'cv2'` alone is a package not installed: the row (a checkpoint saved with
    `torch.save(model)`) is only suggested; with the checkpoint's load in the paste it is `match`."""
    row = next(row for row in ERROR_ROWS if row.id == row_id)
    bare = row.fragment.replace("xxx", "cv2")
    assert LOOKUP(bare).verdict == "weak" and row_id in LOOKUP(bare).ids
    for shown in ONLY_IF[row_id]:
        answer = LOOKUP(f"{bare}\n(it happens in my code near {shown})")
        assert (answer.verdict, answer.ids[:1]) == ("match", (row_id,)), (shown, answer)
    out = io.StringIO()
    cli.main([], stdin=_Stdin(bare.encode()), stdout=out, stderr=io.StringIO())
    assert f"⚠️ 你贴的内容里没有 {ONLY_IF[row_id][0]}" in out.getvalue()


class _Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)
