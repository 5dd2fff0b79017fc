"""What a run's output says about a row: pure functions, no processes, no files.

A row is judged by its verbatim text (`fragment`, `second_line`) and its reproducer's `expect`:
all of them must occur in what the program printed. In those, `…` stands for any text and
`xxx` / `Xxx` for a name of the reader's own (`argparse.Namespace`, `ScaleBackward`); when the
text only matches with runs of whitespace treated alike (a message wrapped over lines), the
verdict says so. Each verdict has a `status` (how the row's claim fared) and a `seen` (how its
text came out on this release: what the release matrix on the page shows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import VARIANT_SEPARATOR, Reproducer
from ..wordings import WARNING_LOCATION, last_error_line

REPRODUCED = "reproduced"
REPRODUCED_FOLDED = "reproduced-whitespace-folded"
SIMULATED = "simulated"
NOT_HERE = "not-reproducible-here"
API_MISSING = "api-missing"  # the release lacks an API the reproducer calls: not the row's failure
FAILED = "failed"
STATUSES = (REPRODUCED, REPRODUCED_FOLDED, SIMULATED, NOT_HERE, API_MISSING, FAILED)

# How the row's text came out (model.SEEN_KINDS holds these and the build's own two).
VERBATIM = "verbatim"
FOLDED = "folded"
DIFFERENT = "different"  # the program reported something else instead
MISSING = "missing"  # the program ran quietly: no such text, nothing in its place
OTHER_PLATFORM = "other-platform"
UNCHECKED = "unchecked"  # timed out, or nothing to run or to check

EXCERPT_CHARS = 800
WILDCARD = "…"
# `xxx` / `Xxx` at the start of a word: the reader's own name (`'xxx'`, `XxxBackward`).
TOKENS = re.compile(r"(…|(?<![A-Za-z])(?:xxx|Xxx))")


@dataclass(frozen=True)
class Case:
    """One row to check: its id, the verbatim text it shows, and its reproducer (None: an error
    row that has none, which fails visibly)."""

    id: str
    fragments: tuple[str, ...]
    reproducer: Reproducer | None
    near_miss: bool = False  # another error: it must raise, and not with the row's text

    @property
    def wanted(self) -> tuple[str, ...]:
        return self.fragments + (self.reproducer.expect if self.reproducer else ())


@dataclass(frozen=True)
class Run:
    output: str
    returncode: int | None  # None: killed at the timeout
    seconds: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    folded: bool  # found only with whitespace folded
    names: tuple[tuple[str, str], ...] = ()  # (placeholder, what it stood for here)


@dataclass(frozen=True)
class Verdict:
    status: str
    seen: str
    why: str
    excerpt: str
    matches: tuple[Match, ...] = field(default=(), compare=False)


# ── Matching ───────────────────────────────────────────────────────────────────────────────

def pattern_for(text: str, *, fold: bool) -> re.Pattern[str]:
    """A regex for a fragment: `…` is any text, `xxx` a name; with `fold`, any run of
    whitespace matches any other run (and `…` may then cross lines, as folding joins them)."""
    parts = []
    for token in TOKENS.split(text):
        if token == WILDCARD:
            parts.append(r".*?")
        elif token in ("xxx", "Xxx"):
            parts.append(r"([\w.]+?)")
        elif fold:
            parts.append(r"\s+".join(re.escape(word) for word in re.split(r"\s+", token)))
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts), re.DOTALL if fold else 0)


def find(text: str, output: str) -> Match | None:
    """Where `text` occurs in `output`: verbatim first, else with whitespace folded."""
    placeholders = [token for token in TOKENS.findall(text) if token != WILDCARD]
    for fold in (False, True):
        found = pattern_for(text, fold=fold).search(output)
        if found:
            return Match(found.start(), found.end(), fold, tuple(zip(placeholders, found.groups())))
    return None


# ── An API the release does not have ──────────────────────────────────────────────────────

# Each rule reads the last error line of a failed run and says what the release lacks. They only
# apply when the row's text did not appear: the reproducer, written for today's torch, stopped
# before it could make the row happen. (pattern, what is missing, must the reproducer's own line
# have raised it)
_TORCH = r"torch(?:\.\w+)*"
_MISSING_API_RULES = (
    (re.compile(rf"AttributeError: module '(?P<module>{_TORCH})' has no attribute '(?P<name>\w+)'"),
     "没有 `{module}.{name}`", False),
    (re.compile(rf"ImportError: cannot import name '(?P<name>\w+)' from '(?P<module>{_TORCH})'"),
     "没有 `{module}.{name}`", False),
    (re.compile(rf"ModuleNotFoundError: No module named '(?P<module>{_TORCH})'"),
     "没有模块 `{module}`", False),
    # A keyword counts only when the reproducer's own call passed it: a TypeError raised inside
    # torch is torch's business, and may be exactly the row's story.
    (re.compile(r"TypeError: (?P<function>[\w.]+)\(\) got an unexpected keyword argument "
                r"'(?P<name>\w+)'"),
     "的 `{function}()` 还不认识参数 `{name}`", True),
    (re.compile(r"RuntimeError: Python (?P<python>[\d.]+\+) not yet supported for (?P<api>torch\.\w+)"),
     "的 `{api}` 还不支持 Python {python}", False),
)
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line \d+', re.MULTILINE)


def program_file(case_id: str) -> str:
    """The file a case's program runs as: `matmul-dtype.py`, `matmul-dtype__mm.py` for a variant."""
    return case_id.replace("/", "__") + ".py"


def missing_api(case_id: str, output: str) -> str | None:
    """What the release lacks, read from the last error line the run printed; None if nothing."""
    line = last_error_line(output)
    if line is None:
        return None
    for rule, saying, own_line in _MISSING_API_RULES:
        found = rule.search(line)
        if not found:
            continue
        if own_line and _FRAME.findall(output)[-1:] != [program_file(case_id)]:
            continue
        return saying.format(**found.groupdict())
    return None


# ── Judging one run ────────────────────────────────────────────────────────────────────────

def judge(case: Case, run: Run, torch_name: str = "这个 torch") -> Verdict:
    """The status of a row from what its reproducer printed. Never a pass without the text.

    `torch_name` names the release in the reasons ("torch 2.0.1 没有 `torch.export`").
    """
    if run.timed_out:
        return Verdict(FAILED, UNCHECKED, f"超时：{run.seconds:.0f} 秒内没有结束，已终止。",
                       tail(run.output))
    if case.near_miss:
        return judge_near_miss(case, run, torch_name)
    reproducer = case.reproducer
    wanted = case.wanted
    if not wanted:
        return Verdict(FAILED, UNCHECKED, "没有可核对的文字：这一条既没有 fragment 也没有 expect。",
                       tail(run.output))
    found = {text: find(text, run.output) for text in wanted}
    missing = [text for text, match in found.items() if match is None]
    matches = tuple(match for match in found.values() if match is not None)

    if missing:
        lacking = missing_api(case.id, run.output) if run.returncode else None
        if lacking:
            return Verdict(API_MISSING, API_MISSING,
                           f"{torch_name} {lacking}：复现程序跑不到这一步，不算这一条失败。",
                           tail(run.output))
        if reproducer and reproducer.platform:
            return Verdict(NOT_HERE, OTHER_PLATFORM, reproducer.platform, tail(run.output))
        said = last_error_line(run.output)
        if VARIANT_SEPARATOR in case.id and said is not None:
            if unmet := [text for text in reproducer.expect if found[text] is None]:
                # It stopped before its mistake (the release cannot take that call path here).
                return Verdict(FAILED, DIFFERENT, f"变体没走到它的错就停了：输出里没有「{unmet[0]}」，报的是：{trim(said, 200)}",
                               tail(run.output))
            # A variant is another call path of the row's mistake: in words of its own is what
            # it is for (refsite.wordings takes them into the row's lookup).
            return Verdict(REPRODUCED, DIFFERENT, f"变体（另一条调用路径）用自己的话报了这个错：{trim(said, 200)}",
                           tail(run.output))
        reported = bool(run.returncode) or said is not None
        if run.returncode == 0:
            why = f"程序正常结束（退出码 0），什么也没报；输出里没有：{missing[0]}"
            if reported:
                why = f"程序正常结束（退出码 0），报的是别的；输出里没有：{missing[0]}"
        else:
            why = f"输出与条目不同（退出码 {run.returncode}）；没有找到：{missing[0]}"
        return Verdict(FAILED, DIFFERENT if reported else MISSING, why, tail(run.output))

    folded = any(match.folded for match in matches)
    seen = FOLDED if folded else VERBATIM
    names = [f"`{token}` 在这里是 `{value}`" for match in matches for token, value in match.names]
    detail = f"（{'，'.join(names)}）" if names else ""
    excerpt = excerpt_of(run.output, matches)
    if reproducer and reproducer.simulation:
        fold_note = "空白折叠后匹配。" if folded else ""
        return Verdict(SIMULATED, seen, f"模拟：{reproducer.simulation}{fold_note}", excerpt, matches)
    if reproducer and reproducer.platform:
        why = f"标为只在别的平台出现，却在这里复现了{detail}。原说明：{reproducer.platform}"
    elif folded:
        why = f"只有把空白折叠之后才匹配：真实报错在这里换了行或缩进不同{detail}。"
    elif not case.fragments:
        why = "输出与条目里的实测数值一致。"
    else:
        why = f"原文逐字出现在输出里{detail}。"
    return Verdict(REPRODUCED_FOLDED if folded else REPRODUCED, seen, why, excerpt, matches)


def judge_near_miss(case: Case, run: Run, torch_name: str = "这个 torch") -> Verdict:
    """A near miss holds when its program reports an error that is not the row's text: what it
    printed is then kept, so that the row's lookup can be held to not fitting it. A release
    without the near miss's API (`torch.compile` on 1.x) printed no such error: api-missing."""
    said = last_error_line(run.output)
    if any(find(text, run.output) for text in case.fragments):
        return Verdict(FAILED, VERBATIM, "近似错误印出了这一条的原文：它是这一条的变体，不是近似错误。",
                       tail(run.output))
    if run.returncode and (lacking := missing_api(case.id, run.output)):
        return Verdict(API_MISSING, API_MISSING, f"{torch_name} {lacking}：近似错误的程序跑不到这一步。",
                       tail(run.output))
    if said is None:
        return Verdict(FAILED, MISSING, f"近似错误的程序没有报错（退出码 {run.returncode}）。", tail(run.output))
    return Verdict(REPRODUCED, DIFFERENT, f"近似错误（另一个错，不是这一条）：{trim(said, 200)}", tail(run.output))


def no_program(case: Case) -> Verdict:
    """An error row whose reproducer is missing: a failure, never a silent skip."""
    return Verdict(FAILED, UNCHECKED, "reproducers.yml 里没有这一条的复现程序。", "")


# ── What to quote ──────────────────────────────────────────────────────────────────────────

def excerpt_of(output: str, matches: tuple[Match, ...]) -> str:
    """The lines the matches cover, in order, with `…` for the lines skipped between them."""
    starts = line_starts(output)
    covered: set[int] = set()
    for match in matches:
        covered.update(range(line_index(starts, match.start), line_index(starts, match.end - 1) + 1))
    lines = output.splitlines()
    shown, previous = [], None
    for index in sorted(covered):
        if previous is not None and index > previous + 1:
            shown.append(WILDCARD)
        shown.append(WARNING_LOCATION.sub("", lines[index].strip()))
        previous = index
    return trim("\n".join(shown).strip("\n"))


def tail(output: str) -> str:
    """What a failed or foreign run said: its last error or warning line, else its last lines."""
    line = last_error_line(output)
    if line is not None:
        return trim(line)
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return trim("\n".join(lines[-3:])) if lines else "（没有任何输出）"


def trim(text: str, limit: int = EXCERPT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + WILDCARD


def line_starts(text: str) -> list[int]:
    return [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]


def line_index(starts: list[int], position: int) -> int:
    low, high = 0, len(starts) - 1
    while low < high:  # the last line start at or before `position`
        middle = (low + high + 1) // 2
        if starts[middle] <= position:
            low = middle
        else:
            high = middle - 1
    return low
