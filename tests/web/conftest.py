"""Fixtures of the browser tests: a `regalia serve` subprocess on a free port with a throwaway SQLite
database, Debian's Chromium driven by Playwright, and the folder the screenshots go to.

The tests are skipped (with the reason) only when Chromium (``/usr/bin/chromium``, Debian's
``chromium`` package) or the Playwright Python package is missing; Playwright never downloads a
browser here.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regalia.server.process import ServerProcess

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


class Server:
    """A running `regalia serve` and a few calls of its API (to set matches up quickly)."""

    def __init__(self, base: str) -> None:
        self.base = base

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
        time_control: str = "none",
    ) -> dict[str, Any]:
        body = {
            "game": game,
            "options": options or {},
            "seats": seats,
            "screen": screen,
            "time_control": time_control,
        }
        status, made = self.call("POST", "/api/matches", body)
        assert status == 201, made
        return dict(made)

    def url(self, link: str) -> str:
        return self.base + link


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`regalia serve` on a free port and a fresh SQLite file, killed (with its group) after the tests."""
    folder = tmp_path_factory.mktemp("web-server")
    process = ServerProcess(f"sqlite:///{folder / 'web.db'}", folder / "serve.log")
    try:
        yield Server(process.start().url)
    finally:
        process.stop()


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
