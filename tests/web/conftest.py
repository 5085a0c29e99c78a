"""Fixtures of the browser tests: a `regalia serve` subprocess on a free port with a throwaway SQLite
database, Debian's Chromium driven by Playwright, and the folder the screenshots go to.

The tests are skipped (with the reason) only when Chromium (``/usr/bin/chromium``, Debian's
``chromium`` package) or the Playwright Python package is missing; Playwright never downloads a
browser here.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Where the screenshots of the games' pages are saved (ignored by git).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Seconds the server has to answer its first request.
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def regalia_command() -> list[str]:
    """The `regalia` console script of this interpreter (or the module it runs)."""
    script = Path(sys.executable).with_name("regalia")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "regalia.cli"]


class Server:
    """A running `regalia serve` and a few calls of its API (to set matches up quickly)."""

    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """One API request: (status, JSON answer)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create(
        self,
        game: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        screen: str = "online",
    ) -> dict[str, Any]:
        body = {"game": game, "options": options or {}, "seats": seats, "screen": screen}
        status, made = self.call("POST", "/api/matches", body)
        assert status == 201, made
        return dict(made)

    def url(self, link: str) -> str:
        return self.base + link


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`regalia serve` on a free port and a fresh SQLite file, killed (with its group) after the tests."""
    folder = tmp_path_factory.mktemp("web-server")
    port = free_port()
    log = folder / "serve.log"
    command = [*regalia_command(), "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'web.db'}"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"regalia serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}"
                )
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(base + "/api/games", timeout=2) as answer,
            ):
                if answer.status == 200:
                    break
            if time.monotonic() > deadline:
                output = log.read_text(errors="replace")
                pytest.fail(f"regalia serve did not answer within {START_TIMEOUT} s:\n{output}")
            time.sleep(0.1)
        yield Server(base, proc, log)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless (skips the test when it or Playwright is missing)."""
    if not CHROMIUM.is_file():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(
            "the playwright Python package is missing: pip install playwright (no browser download needed)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own localStorage), desktop-sized."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(20_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
