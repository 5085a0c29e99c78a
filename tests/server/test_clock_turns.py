"""The server's clocks over a turn of several plies broken by chance's draws (The Two Heirs' take,
its draws, build..., end), and after a restart in the middle of such a turn."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_api import HUMANS, act, create, tokens, view
from .test_clocks import FakeTime, timed_app


@pytest.fixture
def pool() -> Iterator[concurrent.futures.Executor]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


def test_a_restart_mid_turn_keeps_the_seats_time(tmp_path: Path, pool: concurrent.futures.Executor) -> None:
    fake = FakeTime()
    with timed_app(tmp_path, fake, pool) as client:
        made = create(client, "two-heirs", HUMANS, time_control="fischer:300+5")
        current = view(client, made["id"])
        seat = current["to_act"]
        fake.t += 3
        assert act(client, made["id"], tokens(made)[seat], current["legal"][0]).status_code == 200
        current = view(client, made["id"])
        assert current["to_act"] == seat  # the take, chance's draws, and the same seat's turn goes on
        assert current["clock"]["remaining"][seat] == pytest.approx(297.0)  # no increment inside a turn
        fake.t += 4
    with timed_app(tmp_path, fake, pool) as client:  # the server restarts while the seat thinks
        again = view(client, made["id"])
        assert again["clock"]["running"] == seat
        assert again["clock"]["remaining"][seat] == pytest.approx(293.0)
