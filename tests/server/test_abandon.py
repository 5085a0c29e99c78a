"""Abandoned matches (docs/server.md, "Abandoned matches"): a match nobody moved in for
``--abandon-after`` ends, the seat to act having abandoned it, found by a request that touches it,
by a move, and by the background check, which asks the store (so a match not in memory ends too).
The server reads a fake wall clock the tests move by hand (no real waiting beyond the background
task's few hundredths of a second)."""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from regalia.core.errors import OptionError
from regalia.server import cli
from regalia.server.app import create_app
from regalia.server.clocks import ABANDON_AFTER, ABANDON_INTERVAL, parse_duration
from regalia.server.service import MatchService
from regalia.server.store import Store, matches

from .test_api import HUMANS, act, create, tokens, view

HOUR = 3600.0


class FakeTime:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def pool() -> Iterator[concurrent.futures.Executor]:
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


def app_client(
    tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor, **kwargs: Any
) -> TestClient:
    kwargs.setdefault("abandon_after", HOUR)
    kwargs.setdefault("clock_interval", 0.02)
    app = create_app(f"sqlite:///{tmp_path / 'abandon.db'}", pool=pool, now=fake, **kwargs)
    return TestClient(app)


def stored(client: TestClient, match_id: str) -> Any:
    service: MatchService = client.app.state.service  # type: ignore[attr-defined]
    return service.store.match(match_id)


def wait_for(check: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def test_durations() -> None:
    assert parse_duration("30d") == ABANDON_AFTER == 30 * 86400
    assert (parse_duration("12h"), parse_duration("90m"), parse_duration("3600s")) == (43200, 5400, 3600)
    assert parse_duration("1.5h") == 5400 and parse_duration(" OFF ") is None
    for bad in ("", "30", "d", "-1d", "0s", "3w", "1e9s", "30 d"):
        with pytest.raises(OptionError, match="expected a number and a unit"):
            parse_duration(bad)


def test_a_bad_option_is_named() -> None:
    app = typer.Typer()
    cli.register(app)
    result = CliRunner().invoke(app, ["--abandon-after", "a month"])
    assert result.exit_code == 1 and isinstance(result.exception, OptionError)
    assert str(result.exception).startswith("--abandon-after: duration 'a month': expected")


def test_a_touched_match_ends_abandoned(
    tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor
) -> None:
    with app_client(tmp_path, fake, pool) as client:
        made = create(client, "royal-court", HUMANS)
        first = view(client, made["id"])
        seat = first["to_act"]
        assert act(client, made["id"], tokens(made)[seat], first["legal"][0]).status_code == 200
        fake.t += HOUR - 1  # a move resets the idle time: an hour from it, not from the creation
        current = view(client, made["id"])
        assert current["status"] == "active"
        waiting = current["to_act"]
        fake.t += 2
        done = view(client, made["id"])
        assert done["status"] == "finished" and done["to_act"] is None
        result = done["result"]
        assert result["ending"] == {"reason": "abandon", "seat": waiting}
        assert result["returns"][waiting] == -1.0 and result["winner"] == 1 - waiting
        name = done["seats"][waiting]["name"]
        assert result["text"].startswith(f"{name} abandoned the match. Scores: ")
        row = stored(client, made["id"])
        assert row.status == "finished" and row.result["ending"] == {"reason": "abandon", "seat": waiting}
        record = client.get(f"/api/matches/{made['id']}/record").json()
        assert record["ending"] == {"reason": "abandon", "seat": waiting}
        refused = act(
            client, made["id"], tokens(made)[waiting], done["legal"][0] if done["legal"] else "pass"
        )
        assert refused.status_code == 409


def test_a_move_after_the_deadline_is_refused(
    tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor
) -> None:
    with app_client(tmp_path, fake, pool, clock_interval=3600) as client:  # no background look
        made = create(client, "royal-court", HUMANS)
        first = view(client, made["id"])
        seat = first["to_act"]
        fake.t += HOUR + 1
        refused = act(client, made["id"], tokens(made)[seat], first["legal"][0], version=first["version"])
        assert refused.status_code == 409
        assert "abandoned the match" in refused.json()["detail"]
        assert stored(client, made["id"]).result["ending"] == {"reason": "abandon", "seat": seat}


def test_the_background_check_ends_it(
    tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor
) -> None:
    with app_client(tmp_path, fake, pool) as client:
        made = create(client, "royal-court", HUMANS)
        seat = view(client, made["id"])["to_act"]
        assert wait_for(lambda: False, 0.1) is False  # a few looks: nothing ends while it is fresh
        assert stored(client, made["id"]).status == "active"
        fake.t += HOUR + ABANDON_INTERVAL
        assert wait_for(lambda: stored(client, made["id"]).status == "finished")
        assert stored(client, made["id"]).result["ending"] == {"reason": "abandon", "seat": seat}


def test_a_match_not_in_memory_ends_too(tmp_path: Path, fake: FakeTime) -> None:
    store = Store(f"sqlite:///{tmp_path / 'cold.db'}")
    service = MatchService(store, now=fake, abandon_after=HOUR)
    try:
        fresh = service.create("royal-court", {}, HUMANS, "online")
        before = store.match(fresh["id"])
        assert before is not None and before.to_act is not None
        assert service.check_clocks() == 0  # the first look finds nothing idle
        fake.t += HOUR / 2
        other = service.create("royal-court", {}, HUMANS, "online")
        for made in (fresh, other):
            service.forget(made["id"])
        fake.t += HOUR / 2 + ABANDON_INTERVAL
        changed: list[str] = []
        service.on_change = changed.append
        assert service.check_clocks() == 1  # the older one only
        assert changed == [fresh["id"]]
        old, new = store.match(fresh["id"]), store.match(other["id"])
        assert old is not None and new is not None
        assert old.status == "finished" and old.result is not None
        assert old.result["ending"] == {"reason": "abandon", "seat": before.to_act}
        assert new.status == "active"
        assert service.check_clocks() == 0  # looked at again only after ABANDON_INTERVAL
    finally:
        store.close()


def test_the_store_query(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'query.db'}")
    service = MatchService(store, abandon_after=None)
    try:
        ids = [service.create("royal-court", {}, HUMANS, "online")["id"] for _ in range(3)]
        long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=400)
        with store.engine.begin() as c:  # a match stored before its running clock was (no clock_since)
            c.execute(
                sa.update(matches).where(matches.c.id == ids[0]).values(clock_since=None, updated=long_ago)
            )
            c.execute(sa.update(matches).where(matches.c.id == ids[1]).values(clock_since=100.0))
            c.execute(
                sa.update(matches).where(matches.c.id == ids[2]).values(status="finished", clock_since=50.0)
            )
        recent = dt.datetime.now(dt.UTC) - dt.timedelta(days=1)
        assert store.idle_matches(200.0, recent, 10) == [ids[1], ids[0]]
        assert store.idle_matches(200.0, recent, 1) == [ids[1]]
        assert store.idle_matches(50.0, long_ago - dt.timedelta(days=1), 10) == []
        for match_id in ids:
            service.forget(match_id)
        again = MatchService(store, abandon_after=HOUR)  # on the real wall clock
        assert again.check_clocks() == 2  # the one stored without clock_since, by its updated
        for match_id in ids[:2]:
            row = store.match(match_id)
            assert row is not None and row.status == "finished"
            assert row.result is not None and row.result["ending"]["reason"] == "abandon"
    finally:
        store.close()


def test_off_never_abandons(tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor) -> None:
    with app_client(tmp_path, fake, pool, abandon_after=None) as client:
        made = create(client, "royal-court", HUMANS)
        fake.t += 10 * 365 * 86400.0
        time.sleep(0.1)  # a few background looks
        assert view(client, made["id"])["status"] == "active"
