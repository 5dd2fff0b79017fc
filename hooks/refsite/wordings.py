"""How a torch release says a row's mistake in words of its own: the row's other wordings.

The verifier records what each release really printed (data/pytorch/verification-*.yml). Where
a release did not print the row's text (`seen: different`), its last error line is usually the
same mistake in that release's words: torch 1.0.1 says `size mismatch, m1: [3 x 4], m2: [5 x 2]
at …/THTensorMath.cpp:940` where 2.13.0 says `mat1 and mat2 shapes cannot be multiplied (3x4 and
5x2)`. Such a line joins the row's lookup, compiled like its fragment (refsite.find_rules), so a
paste from that release lands as surely as one from today's.

Not every other line is the mistake's own wording, so a line is taken only when
- its exception is of the row's kind on the reference run, or else neither is of a kind Python
  raises for any slip in any program (`TypeError: forward() missing 1 required positional
  argument: 'x'` is how torch 1.0.1 fails the legacy-function reproducer, and says nothing about
  legacy functions; `OnnxExporterError: Module onnx is not installed!` is not the row about a
  `ModuleNotFoundError` for `onnxscript`);
- it is an error where the row's is an error, a warning where the row's is a warning;
- its message is not written in the reproducer itself (the error a DataLoader worker raises to
  show the envelope is the reproducer's, not torch's), nor only the introduction of an error
  printed below it (`BackendCompilerFailed: backend='inductor' raised:`).

Pure functions over the recorded text (the standard library, and the lookup's paste rules).
"""

from __future__ import annotations

import re

from pytorch_error_lookup.paste import PASTE_RULES

# The last part of an exception's qualified name, before `: ` (`torch.onnx.errors.OnnxExporterError`);
# or, at a line's start, a qualified class name whatever it ends in, as Python prints an exception
# of a module's own (`torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: `).
EXCEPTION_LINE = re.compile(r"\b\w*(?:Error|Exception|Warning)\b: |^(?:[A-Za-z_]\w*\.)+[A-Z]\w*: ")
_EXCEPTION_KIND = re.compile(r"\b(\w*(?:Error|Exception|Warning))\b: |^(?:[A-Za-z_]\w*\.)+([A-Z]\w*): ")
WARNING_LOCATION = re.compile(r"^\S+\.py:\d+: (?=\w+Warning: )")  # "/path/x.py:4: " before a warning
# What a process of torch.distributed prints goes out behind its rank (`[rank0]: `, 2.2 on), as a
# paste shows it (the lookup's own rule).
RANK_PREFIX = re.compile(PASTE_RULES["rank"] + "[ \t]?")

# Raised by Python for a slip anywhere, so never a torch release's own wording of a row.
PYTHON_SLIPS = frozenset({
    "TypeError", "AttributeError", "NameError", "SyntaxError", "IndentationError", "ImportError",
    "ModuleNotFoundError", "KeyError", "UnboundLocalError", "RecursionError",
    "DeprecationWarning", "FutureWarning", "PendingDeprecationWarning",
})


def last_error_line(output: str) -> str | None:
    """The last line that names an exception or a warning (`RuntimeError: …`), without the
    warning's file location; None if there is none."""
    for line in reversed(output.splitlines()):
        if EXCEPTION_LINE.search(line):
            return WARNING_LOCATION.sub("", RANK_PREFIX.sub("", line.strip()))
    return None


def last_error_message(output: str) -> str | None:
    """The last error or warning line with the lines that continue its message (indented with a
    tab, as `Error(s) in loading state_dict` lists its keys), on one line each as printed."""
    lines = [RANK_PREFIX.sub("", line) for line in output.splitlines()]
    for index in range(len(lines) - 1, -1, -1):
        if EXCEPTION_LINE.search(lines[index]):
            message = [WARNING_LOCATION.sub("", lines[index].strip())]
            for follower in lines[index + 1:]:
                if not follower.startswith("\t"):
                    break
                message.append(follower.strip())
            return " ".join(message)
    return None


def exception_kind(line: str | None) -> str | None:
    """`RuntimeError` for `RuntimeError: …`, `GradcheckError` for
    `torch.autograd.gradcheck.GradcheckError: …`; None for a line that names none."""
    found = _EXCEPTION_KIND.search(line or "")
    return (found.group(1) or found.group(2)) if found else None


def _is_warning(kind: str) -> bool:
    return kind.endswith("Warning")


_ONE_NAME = re.compile(r"[A-Za-z0-9_.]+")


def wording_of(output: str | None, reference_kind: str | None, code: str, *, same_kind: bool = True) -> str | None:
    """The line of `output` (a run that did not print the row's text) that says the row's
    mistake in that release's words, or None when it says something else (see the module).
    `same_kind=False` for a row's variant, another call path whose author vouches that it is
    the same mistake (`Can't get attribute 'Net'` beside `No module named 'my_models'`)."""
    line = last_error_message(output or "")
    kind = exception_kind(line)
    if line is None or kind is None or (same_kind and reference_kind is None):
        return None
    if same_kind and kind != reference_kind and (kind in PYTHON_SLIPS or reference_kind in PYTHON_SLIPS
                                                 or _is_warning(kind) != _is_warning(reference_kind)):
        return None
    message = line[line.index(f"{kind}: ") + len(kind) + 2:].strip()
    if not message or message in code or message.endswith(":") or _ONE_NAME.fullmatch(message):
        # (`backend='inductor' raised:` only introduces the error printed on the lines below;
        # torch 2.0's `Unsupported: Tensor.item` names what stopped it and says nothing of its
        # own: the lookup would make the name a slot, and a slot alone fits any text.)
        return None
    return line
