"""Drive Debian's firefox-esr through Marionette, Firefox's own remote protocol.

Playwright's Firefox is a patched build that cannot be downloaded here, and geckodriver is no
Debian package; Marionette is built into every Firefox and speaks length-prefixed JSON over TCP
("<length>:<json>"), so a few lines of the standard library are enough.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

FIREFOX = os.environ.get("FIREFOX_PATH", "firefox-esr")

# Marionette applies "recommended preferences" for automation unless the profile sets them. One
# of them, security.fileuri.strict_origin_policy=false, lets file:// pages share storage, which a
# reader's Firefox does not do; the profile pins Firefox's own default so the test sees what a
# reader sees.
READER_PREFERENCES = {
    "security.fileuri.strict_origin_policy": True,
    "marionette.port": 0,  # any free port; Firefox writes it to <profile>/MarionetteActivePort
    "browser.shell.checkDefaultBrowser": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.aboutwelcome.enabled": False,
}


class MarionetteError(RuntimeError):
    pass


class Firefox:
    """One headless Firefox with a fresh profile, and one Marionette session in it."""

    def __init__(self, startup_timeout: float = 60):
        self.profile = Path(tempfile.mkdtemp(prefix="refsite-firefox-"))
        (self.profile / "user.js").write_text("".join(
            f"user_pref({json.dumps(name)}, {json.dumps(value)});\n"
            for name, value in READER_PREFERENCES.items()))
        self.process = subprocess.Popen(
            [FIREFOX, "--headless", "--marionette", "--no-remote", "--profile", str(self.profile)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._buffer = b""
        self._message_id = 0
        try:
            self._socket = self._connect(startup_timeout)
            self._receive()  # the server's hello
            self.version = self.command("WebDriver:NewSession", {"capabilities": {}})["capabilities"]["browserVersion"]
        except BaseException:
            self.close()
            raise

    def _connect(self, timeout: float) -> socket.socket:
        port_file = self.profile / "MarionetteActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise MarionetteError(f"{FIREFOX} exited with {self.process.returncode}")
            if port_file.exists() and port_file.read_text().strip():
                try:
                    return socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=60)
                except OSError:
                    pass
            time.sleep(0.2)
        raise MarionetteError(f"Marionette did not start within {timeout} s")

    def _receive(self):
        while b":" not in self._buffer:
            self._buffer += self._read_some()
        length, _, rest = self._buffer.partition(b":")
        while len(rest) < int(length):
            rest += self._read_some()
        self._buffer = rest[int(length):]
        return json.loads(rest[:int(length)])

    def _read_some(self) -> bytes:
        data = self._socket.recv(65536)
        if not data:
            raise MarionetteError("Firefox closed the connection")
        return data

    def command(self, name: str, parameters: dict | None = None):
        self._message_id += 1
        payload = json.dumps([0, self._message_id, name, parameters or {}]).encode()
        self._socket.sendall(str(len(payload)).encode() + b":" + payload)
        while True:
            kind, message_id, error, result = self._receive()
            if kind == 1 and message_id == self._message_id:
                if error:
                    raise MarionetteError(f"{name}: {error.get('error')}: {error.get('message')}")
                return result

    def go(self, url: str) -> None:
        self.command("WebDriver:Navigate", {"url": url})

    def run(self, script: str, *args):
        """Run `script` as a function body in the page; its `return` value comes back."""
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": list(args)})["value"]

    def wait_for(self, script: str, *args, timeout: float = 10):
        """Run `script` until it returns something truthy; that value, or the last one at timeout."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script, *args)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.1)

    def close(self) -> None:
        try:
            if getattr(self, "_socket", None):
                self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
        except (OSError, MarionetteError):
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
