"""Shared fixtures of the server tests: free ports, `regalia serve` subprocesses (started, waited for,
killed), and a fresh PostgreSQL database per test.

PostgreSQL tests need ``REGALIA_TEST_POSTGRES`` (a ``postgresql+psycopg://`` URL of a database
whose user may create databases); ``.ci/postgres.sh start`` starts a throwaway cluster and prints it
(docs/server.md, "Tests"). Without it they are skipped.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa

from regalia.server.process import ServerProcess, free_port
from regalia.server.store import libpq_dsn

T = TypeVar("T")

POSTGRES_ENV = "REGALIA_TEST_POSTGRES"
NO_POSTGRES = f'{POSTGRES_ENV} is not set: start a cluster with `eval "$(.ci/postgres.sh start)"`'


class Server(ServerProcess):
    """A `regalia serve` subprocess (in its own process group, so that killing it also kills the
    processes its computer seats think in) and an HTTP client of its API."""

    def __init__(self, db: str, folder: Path, port: int | None = None, name: str = "server") -> None:
        port = port or free_port()
        super().__init__(db, folder / f"{name}-{port}.log", port)
        self.http = httpx.Client(base_url=self.url, timeout=30.0)

    def stop(self, signum: signal.Signals = signal.SIGTERM, timeout: float = 10.0) -> None:
        """End the server (SIGTERM, then SIGKILL for whatever is left of its group)."""
        super().stop(signum, timeout)
        self.http.close()

    # -- the API ------------------------------------------------------------------------------
    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        answer = self.http.post("/api/matches", json={"game": game, "seats": seats, **extra})
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        return made

    def view(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        answer = self.http.get(f"/api/matches/{match_id}", headers=auth(token))
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def act(self, match_id: str, token: str, action: str, version: int | None = None) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if version is not None:
            body["version"] = version
        return self.http.post(f"/api/matches/{match_id}/actions", json=body, headers=auth(token))


def at_once(calls: dict[str, Callable[[], T]], timeout: float = 60.0) -> dict[str, T]:
    """Run the calls in threads released together; their results by name (an exception is raised
    again)."""
    barrier = threading.Barrier(len(calls))
    results: dict[str, T] = {}
    errors: list[BaseException] = []

    def run(name: str, call: Callable[[], T]) -> None:
        barrier.wait()
        try:
            results[name] = call()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    if errors:
        raise errors[0]
    assert set(results) == set(calls), "a call did not finish in time"
    return results


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def tokens_of(made: dict[str, Any]) -> dict[int, str]:
    """Seat -> token of a created match's human seats."""
    return {s["seat"]: s["token"] for s in made["seats"] if "token" in s}


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``servers(db)`` starts a `regalia serve` on ``db`` and waits for it; all are ended after
    the test (their logs are in the test's tmp_path)."""
    started: list[Server] = []

    def start(db: str, port: int | None = None, wait: bool = True, name: str = "server") -> Server:
        server = Server(db, tmp_path, port, name)
        started.append(server)
        return server.start(wait=wait)

    yield start
    for server in started:
        server.stop()


# -- PostgreSQL -----------------------------------------------------------------------------------
def postgres_base() -> str:
    """The URL of ``REGALIA_TEST_POSTGRES`` (skips the test when it is not set)."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(NO_POSTGRES)
    return url


psycopg_dsn = libpq_dsn


@contextlib.contextmanager
def fresh_database(base_url: str) -> Iterator[str]:
    """A new database with a random name on the server of ``base_url``; dropped afterwards (with
    whatever connections are left)."""
    import psycopg

    name = f"regalia_test_{secrets.token_hex(6)}"
    admin = psycopg_dsn(base_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield sa.engine.make_url(base_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database (``postgresql+psycopg://`` URL) for one test."""
    with fresh_database(postgres_base()) as url:
        yield url


def wait_listening(url: str, count: int, timeout: float = 20.0) -> None:
    """Wait until ``count`` sessions on the database of ``url`` have sent ``LISTEN`` (the
    :class:`~regalia.server.store.Listener` threads of as many stores or servers)."""
    import psycopg

    deadline = time.monotonic() + timeout
    with psycopg.connect(psycopg_dsn(url), autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query ILIKE 'LISTEN %'"
            ).fetchone()
            if row is not None and row[0] >= count:
                return
            if time.monotonic() > deadline:
                pytest.fail(f"{count} listeners expected on {url}, {row[0] if row else 0} found")
            time.sleep(0.05)
