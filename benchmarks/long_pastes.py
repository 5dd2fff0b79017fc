"""Long and hostile pastes through the terminal's lookup: time per call, to check it grows linearly.

    python benchmarks/long_pastes.py [SCALE]          # SCALE 1: about 1 MB each, a 3.7 MB log
    python benchmarks/long_pastes.py --page [SCALE]   # and each pasted into 附录A's box

Each case is one call of `Lookup()(text)` (the command reads up to 64 MiB): a training log with
and without a traceback at its end, a 2 MB key list, and texts built to make a regular
expression backtrack (a prefix repeated without its end, one huge word, repeated gaps, one long
line of a few words). With `--page`, each is also pasted into the box in Chromium (a real paste
event, page_lookup.py): the time from the paste to the verdict, the longest task meanwhile (the
page answers no input during a task), and whether the page's answer is the terminal's.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))
from pytorch_error_lookup.lookup import Lookup  # noqa: E402


def training_log(lines: int) -> str:
    return "\n".join(f"2026-11-30 12:00:{i % 60:02d},123 - INFO - step {i} loss={random.random():.4f} lr=0.001 "
                     f"epoch {i // 1000}" for i in range(lines))


def cases(scale: float) -> dict[str, str]:
    def times(count: int) -> int:
        return int(count * scale)

    traceback = ('\nTraceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
                 "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
    return {
        "log + traceback": training_log(times(50000)) + traceback,
        "log, no traceback": training_log(times(50000)) + "\nERROR RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
        "missing keys": "RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "
                        + ", ".join(f'"layer{i}.conv.weight"' for i in range(times(80000))) + ".",
        "keys with no end": "Unexpected key(s) in state_dict: " + ", ".join(f'"module.l{i}.w"' for i in range(times(60000))),
        "a prefix, repeated": "Weights only load failed. " * times(40000),
        "a fragment's head, repeated": "mat1 and mat2 shapes cannot be multiplied (" * times(25000),
        "a gap's start, repeated": "enable anomaly detection " * times(40000),
        "a symptom's words, repeated": "loss 下降 " * times(100000),
        "one word": "x" * times(1_000_000),
        "escapes": "\\n\\x" * times(200000),
        "traceback headers": "Traceback (most recent call last):\n" * times(50000),
        "error lines": "RuntimeError: x\n" * times(60000),
        "frames": '  File "x.py", line 1, in f\n    y = g(x)\n' * times(20000) + "RuntimeError: boom",
        # A traceback and then one huge word: where its exception would be (paste.ends_unfinished).
        "frames, then one word": ('Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
                                  "    y = f(x)\nstate: " + "A" * times(1_000_000) + "-"),
        # Quoted messages are readings of their own (paste.py `quoted`): quotes that never close,
        # and a sentence quoting the same message again and again.
        "quotes never closed": 'it says "leaf Variable that requires grad ' * times(25000),
        "a message quoted again and again": ('it says "a leaf Variable that requires grad is being used in an in-place '
                                             'operation" and then ') * times(10000),
        "one line of a few words": "RuntimeError: " + "abc def " * times(125000),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scale", nargs="?", type=float, default=1.0, help="1: about 1 MB a case (default)")
    parser.add_argument("--page", action="store_true", help="also paste each into the page's box in Chromium")
    arguments = parser.parse_args()
    lookup = Lookup.installed()
    lookup("RuntimeError: warm up")
    random.seed(0)
    texts = cases(arguments.scale)
    print(f"{'case':34} {'size':>8} {'time':>9}  answer")
    terminal = {}
    for name, text in texts.items():
        began = time.perf_counter()
        answer = lookup(text)
        took = time.perf_counter() - began
        terminal[name] = (answer.verdict, answer.ids[0] if answer.ids else None)
        print(f"{name:34} {len(text) / 1e6:6.2f} MB {took * 1000:7.0f} ms  {answer.verdict} {answer.ids[:1]}", flush=True)
    if arguments.page:
        from page_lookup import page_answers

        print(f"\n附录A's box (a paste event in Chromium)\n{'case':34} {'size':>8} {'answer':>9} {'longest task':>13}  same as the terminal")
        for (name, text), (verdict, first, took, longest) in zip(texts.items(), page_answers(list(texts.values()), timed=True)):
            same = (verdict, first if verdict != "none" else None) == terminal[name]
            # (No verdict: a traceback cut before its message, which the box says in words.)
            waited = f"{took:7.0f} ms {longest:10.0f} ms" if took is not None else f"{'no verdict':>10} {'':>13}"
            print(f"{name:34} {len(text) / 1e6:6.2f} MB {waited}  {'yes' if same else f'NO: {verdict} {first}'}", flush=True)


if __name__ == "__main__":
    main()
