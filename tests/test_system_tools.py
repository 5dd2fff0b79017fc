"""How a test session brings Chromium and firefox-esr, checked against a stand-in apt-get."""

from __future__ import annotations

import os
import stat

import pytest

from system_tools import DebianTool, Installer, Missing

FAKE_APT = """#!/bin/sh
echo "$@" >> "{log}"
case "$1" in
  update) exit 0 ;;
  install) {install} ;;
esac
"""


@pytest.fixture
def apt(tmp_path, monkeypatch):
    """A stand-in apt-get first on PATH, logging its calls; `install` runs the given shell code."""
    bin_dir, log = tmp_path / "bin", tmp_path / "apt.log"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(os, "geteuid", lambda: 0)

    def install_does(shell: str):
        script = bin_dir / "apt-get"
        script.write_text(FAKE_APT.format(log=log, install=shell))
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        return lambda: log.read_text().splitlines() if log.exists() else []

    return install_does


def a_tool(tmp_path) -> DebianTool:
    return DebianTool("chromium", str(tmp_path / "opt" / "chromium"), "CHROMIUM_PATH")


def executable_at(path) -> str:
    return f'mkdir -p "{path.parent}" && printf "#!/bin/sh\\n" > "{path}" && chmod +x "{path}"'


def test_a_missing_tool_is_installed_with_apt_get_and_said(tmp_path, apt):
    tool = a_tool(tmp_path)
    calls = apt(executable_at(tmp_path / "opt" / "chromium"))
    said = []
    installer = Installer(said.append)
    assert installer.bring(tool) == tool.executable
    assert calls() == ["update", "install -y --no-install-recommends chromium"]
    assert said == [f"{tool.executable} is missing: installing Debian's chromium "
                    "(apt-get install -y --no-install-recommends chromium) …",
                    f"installed chromium: {tool.executable}"]
    assert installer.brought == [f"chromium ({tool.executable}), by apt-get install -y --no-install-recommends chromium"]
    assert installer.bring(tool) == tool.executable and len(calls()) == 2  # found now: nothing more to do


def test_a_tool_that_is_there_is_used_as_it_is(tmp_path, apt):
    tool = a_tool(tmp_path)
    calls = apt("exit 1")
    (tmp_path / "opt").mkdir()
    (tmp_path / "opt" / "chromium").write_text("#!/bin/sh\n")
    (tmp_path / "opt" / "chromium").chmod(0o755)
    assert Installer(print).bring(tool) == tool.executable
    assert calls() == []


def test_without_root_nothing_is_installed_and_the_reason_says_how(tmp_path, apt, monkeypatch):
    calls = apt("exit 1")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(Missing) as missing:
        Installer(print).bring(a_tool(tmp_path))
    assert str(missing.value) == (f"chromium is not installed and installing needs root: apt-get install -y "
                                  f"chromium, or point CHROMIUM_PATH at one (it is {tmp_path}/opt/chromium now)")
    assert calls() == []


def test_a_failed_install_says_what_apt_get_said(tmp_path, apt):
    apt('echo "E: Unable to locate package chromium" >&2; exit 100')
    with pytest.raises(Missing, match=r"`apt-get install -y --no-install-recommends chromium` failed "
                                      r"\(E: Unable to locate package chromium\), so chromium is missing"):
        Installer(print).bring(a_tool(tmp_path))


def test_an_install_that_does_not_bring_the_executable_says_so(tmp_path, apt):
    apt("exit 0")  # installed, but the executable lives elsewhere than the variable says
    with pytest.raises(Missing, match=r"installed chromium, but .*/opt/chromium is still missing"):
        Installer(print).bring(a_tool(tmp_path))
