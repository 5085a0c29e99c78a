"""``regalia serve`` in a subprocess: on a free port, waited for until it answers, stopped with its group.

What the server benchmark (:mod:`regalia.server.bench`) and the tests that drive a real server share.
The server runs in a session (and process group) of its own, so that ending the group also ends the
processes its computer seats think in; the wait is over once ``GET /api/games`` answers 200, and a
server that ends first or does not answer in time is reported with the end of its output.

>>> port = free_port()
>>> 0 < port < 65536
True
>>> serve_command(8000, "sqlite:///regalia.db")[-7:]
['serve', '--host', '127.0.0.1', '--port', '8000', '--db', 'sqlite:///regalia.db']
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Self

from regalia.core.errors import RegaliaError

#: Seconds a server has to answer its first request.
START_TIMEOUT = 60.0
#: Lines of the server's output quoted when it did not start.
LOG_LINES = 40


class ServerStartError(RegaliaError):
    """The server ended at its start, or did not answer in time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on (now; nothing holds it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve_command(port: int, db: str, host: str = "127.0.0.1") -> list[str]:
    """The command of ``regalia serve`` on ``host``, ``port`` and ``db``: the `regalia` console
    script of this interpreter, or the module it runs (``python -m regalia.cli``) without one."""
    script = Path(sys.executable).with_name("regalia")
    regalia = [str(script)] if script.is_file() else [sys.executable, "-m", "regalia.cli"]
    return [*regalia, "serve", "--host", host, "--port", str(port), "--db", db]


def wait_answering(
    url: str, timeout: float = START_TIMEOUT, process: subprocess.Popen[bytes] | None = None
) -> None:
    """Return once ``GET {url}/api/games`` answers 200; :class:`ServerStartError` if ``process``
    ends first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise ServerStartError(f"regalia serve ended at its start (exit code {process.returncode})")
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(url + "/api/games", timeout=2.0) as answer,
        ):
            if answer.status == 200:
                return
        if time.monotonic() > deadline:
            raise ServerStartError(f"the server at {url} did not answer within {timeout:g} s")
        time.sleep(0.1)


#: The options of ``regalia serve`` a :class:`ServerProcess` adds by default: no limit on the
#: matches one address creates (the benchmark and the tests create thousands a minute from one).
UNLIMITED = ("--max-creates-per-minute", "0")


class ServerProcess:
    """``regalia serve`` on ``db`` and ``port`` (default: a free one) in a subprocess of its own
    session, its output appended to ``log_path``, with the options ``extra`` (by default
    :data:`UNLIMITED`). It may be started again once it has ended."""

    def __init__(
        self,
        db: str,
        log_path: Path,
        port: int | None = None,
        host: str = "127.0.0.1",
        extra: Sequence[str] = UNLIMITED,
    ) -> None:
        self.db = db
        self.extra = list(extra)
        self.host = host
        self.port = port or free_port()
        self.url = f"http://{host}:{self.port}"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The server's process id (``None`` before its start)."""
        return None if self.proc is None else self.proc.pid

    def start(self, wait: bool = True, timeout: float = START_TIMEOUT) -> Self:
        """Start the server and, with ``wait``, wait until it answers (:meth:`wait_ready`)."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*serve_command(self.port, self.db, self.host), *self.extra],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        if wait:
            self.wait_ready(timeout)
        return self

    def log(self) -> str:
        """What the server has written so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until ``GET /api/games`` answers 200; :class:`ServerStartError`, with the end of
        the server's output, if it ends first or ``timeout`` seconds pass."""
        assert self.proc is not None, "not started"
        try:
            wait_answering(self.url, timeout, self.proc)
        except ServerStartError as exc:
            tail = "\n".join(self.log().strip().splitlines()[-LOG_LINES:])
            raise ServerStartError(f"{exc}; its output:\n{tail}") from None

    def kill(self) -> None:
        """SIGKILL the server and whatever is left of its process group."""
        if self.proc is None:
            return
        with contextlib.suppress(OSError):  # the group outlives its leader while a member is left
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, signum: signal.Signals = signal.SIGTERM, timeout: float = 10.0) -> None:
        """End the server: ``signum`` (SIGTERM or SIGINT: it shuts down and ends its computer seats'
        workers), ``timeout`` seconds to do so, then :meth:`kill` for whatever is left."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signum)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)
        self.kill()
