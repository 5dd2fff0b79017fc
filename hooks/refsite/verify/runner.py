"""Running reproducers: each in its own process and empty directory, under the Python given.

Stdlib only, and never imports torch: the torch to check lives in the other Python.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from .judging import Case, Run, Verdict, judge, no_program, program_file

TIMEOUT_SECONDS = 120
JOBS = 2  # the machine's two cores; each reproducer gets one thread (OMP_NUM_THREADS=1)
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def run_program(python: str, code: str, *, name: str = "reproducer",
                timeout: float = TIMEOUT_SECONDS) -> Run:
    """Run `code` as `<name>.py` (judging.program_file) in an empty directory, in a session of its own, so that at the
    timeout the whole group (DataLoader workers included) is killed and no pipe stays open."""
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",  # keep stdout and stderr in the order they were written
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",  # two reproducers share two cores
    }
    with tempfile.TemporaryDirectory(prefix="refsite-verify-") as workdir:
        script = Path(workdir) / program_file(name)
        script.write_text(code, encoding="utf-8")
        began = time.monotonic()
        process = subprocess.Popen(
            [python, script.name], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            raw, _ = process.communicate(timeout=timeout)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raw, _ = process.communicate()
            returncode = None
        seconds = time.monotonic() - began
        output = raw.decode("utf-8", errors="replace").replace(workdir + os.sep, "")
    return Run(ANSI_ESCAPE.sub("", output), returncode, seconds)


def run_all(python: str, cases: list[Case], *, jobs: int = JOBS, timeout: float = TIMEOUT_SECONDS,
            torch_name: str = "这个 torch") -> dict[str, tuple[Run | None, Verdict]]:
    """Every case, `jobs` at a time, judged; results in the order given. A case without a
    reproducer is not run and fails (Run None)."""
    def one(case: Case) -> tuple[Run | None, Verdict]:
        if case.reproducer is None:
            return None, no_program(case)
        run = run_program(python, case.reproducer.code, name=case.id, timeout=timeout)
        return run, judge(case, run, torch_name)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {case.id: pool.submit(one, case) for case in cases}
        return {id_: future.result() for id_, future in futures.items()}


PROBE = """
import json, platform, sysconfig
try:
    import torch
    version = torch.__version__
except ImportError:
    version = None
print(json.dumps({"torch": version, "python": platform.python_version(),
                  "platform": platform.platform(), "site_packages": sysconfig.get_paths()["purelib"]}))
"""


def probe(python: str) -> dict:
    """The torch, Python and platform behind `python`, asked in a process of its own."""
    done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"cannot run {python}: {done.stderr.strip()}")
    return json.loads(done.stdout)
