"""Programs the tests need from outside pip, and how a test session gets them.

The browser tests need Debian's Chromium, the offline copy's Firefox tests Debian's firefox-esr.
On a fresh Debian machine `python -m pytest` brings them: the first test that needs a missing
one installs its Debian package with apt-get when it may (as root, with apt-get at hand) and says
so; anywhere else the tests that need it are skipped, with the command that installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class DebianTool:
    package: str
    executable: str  # an absolute path, or a command looked up on PATH
    variable: str  # the environment variable that points elsewhere

    def path(self) -> str | None:
        return shutil.which(self.executable)


def chromium() -> DebianTool:
    return DebianTool("chromium", os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"), "CHROMIUM_PATH")


def firefox() -> DebianTool:
    return DebianTool("firefox-esr", os.environ.get("FIREFOX_PATH", "firefox-esr"), "FIREFOX_PATH")


class Missing(Exception):
    """A tool that is not here and could not be brought; the message says how to get it."""


class Installer:
    """Installs missing Debian packages with apt-get, once per session, saying what it does."""

    def __init__(self, say: Callable[[str], None]):
        self.say = say
        self.brought: list[str] = []  # what this session installed, for the closing summary
        self._updated = False

    def why_not(self) -> str | None:
        """Why this session may not install packages, or None when it may."""
        if shutil.which("apt-get") is None:
            return "there is no apt-get here"
        if os.geteuid() != 0:
            return "installing needs root"
        return None

    def bring(self, tool: DebianTool) -> str:
        """The tool's path, installing its package first if it is missing; Missing otherwise."""
        if found := tool.path():
            return found
        how = (f"apt-get install -y {tool.package}, or point {tool.variable} at one "
               f"(it is {tool.executable} now)")
        if reason := self.why_not():
            raise Missing(f"{tool.package} is not installed and {reason}: {how}")
        command = ["apt-get", "install", "-y", "--no-install-recommends", tool.package]
        self.say(f"{tool.executable} is missing: installing Debian's {tool.package} ({' '.join(command)}) …")
        if not self._updated:
            self._apt(["apt-get", "update"], tool, how)
            self._updated = True
        self._apt(command, tool, how)
        if not (found := tool.path()):
            raise Missing(f"installed {tool.package}, but {tool.executable} is still missing: {how}")
        self.say(f"installed {tool.package}: {found}")
        self.brought.append(f"{tool.package} ({found}), by {' '.join(command)}")
        return found

    def _apt(self, command: list[str], tool: DebianTool, how: str) -> None:
        result = subprocess.run(command, capture_output=True, text=True,
                                env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        if result.returncode != 0:
            last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["(no output)"]
            raise Missing(f"`{' '.join(command)}` failed ({last[0]}), so {tool.package} is missing: {how}")
