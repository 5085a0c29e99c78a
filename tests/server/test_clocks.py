"""Clocks on the server (docs/server.md, "Clocks"): a match's time control is accepted, stored,
listed and shown in the view's clock; a fallen flag ends the match as a loss for that seat, found by
any request that touches the match and by the application's background task, and a move after it is
refused. The clocks read a fake wall clock the tests move by hand (no real waiting beyond the
background task's few hundredths of a second)."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regalia.server.app import create_app

from .test_api import HUMANS, act, bearer, create, tokens, view


class FakeTime:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


def timed_app(tmp_path: Path, fake: FakeTime, pool: concurrent.futures.Executor) -> TestClient:
    app = create_app(f"sqlite:///{tmp_path / 'clocks.db'}", pool=pool, now=fake, clock_interval=0.02)
    return TestClient(app)


@pytest.fixture
def client(tmp_path: Path, fake: FakeTime) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    with timed_app(tmp_path, fake, pool) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


def finish_turn(client: TestClient, made: dict[str, Any]) -> dict[str, Any]:
    """Play the seat to act's first legal actions until its turn is over; the view after."""
    current = view(client, made["id"])
    seat = current["to_act"]
    while current["to_act"] == seat and current["status"] == "active":
        answer = act(client, made["id"], tokens(made)[seat], current["legal"][0])
        assert answer.status_code == 200, answer.text
        current = view(client, made["id"])
    return current


def listed(client: TestClient, match_id: str) -> dict[str, Any]:
    """The match as the listing shows it (read from the store: it touches no match's clock)."""
    rows: list[dict[str, Any]] = client.get("/api/matches").json()
    return next(row for row in rows if row["id"] == match_id)


def test_a_time_control_is_accepted_stored_listed_and_shown_in_the_view(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS, time_control="fischer:300+5", public=True)
    assert made["time_control"] == "fischer:300+5"
    current = view(client, made["id"])
    assert current["time_control"] == "fischer:300+5"
    assert current["clock"] == {
        "control": "fischer:300+5",
        "remaining": [300.0, 300.0],
        "running": current["to_act"],
    }
    assert listed(client, made["id"])["time_control"] == "fischer:300+5"
    days = create(client, "royal-court", HUMANS, time_control="days:2", public=True)
    assert (
        days["time_control"] == "move:172800" and listed(client, days["id"])["time_control"] == "move:172800"
    )
    untimed = create(client, "royal-court", HUMANS, public=True)
    assert untimed["time_control"] == "none" and view(client, untimed["id"])["clock"] is None
    assert listed(client, untimed["id"])["time_control"] == "none"


@pytest.mark.parametrize(
    ("control", "words"),
    [
        ("fast", "expected none, move:SECONDS, days:N or fischer:SECONDS+INCREMENT"),
        ("move:0", "the seconds must be more than 0"),
        ("fischer:-5+1", "time_control"),
        ("x" * 65, "time_control"),
        (300, "time_control"),
    ],
)
def test_a_bad_time_control_is_a_422_naming_what_is_wrong(
    client: TestClient, control: Any, words: str
) -> None:
    answer = client.post(
        "/api/matches", json={"game": "royal-court", "seats": HUMANS, "time_control": control}
    )
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"] and "time_control" in answer.json()["detail"]


def test_the_clock_counts_the_seat_to_act_and_adds_the_increment(client: TestClient, fake: FakeTime) -> None:
    made = create(client, "royal-court", HUMANS, time_control="fischer:60+5")
    seat = view(client, made["id"])["to_act"]
    fake.t += 10
    assert view(client, made["id"])["clock"]["remaining"][seat] == pytest.approx(50.0)
    after = finish_turn(client, made)
    assert after["clock"]["remaining"][seat] == pytest.approx(55.0)
    assert after["clock"]["running"] == after["to_act"] == 1 - seat
    record = client.get(f"/api/matches/{made['id']}/record").json()
    assert sum(t for t in record["times"] if t is not None) == pytest.approx(10.0)


def test_a_fallen_flag_ends_the_match_as_a_loss_for_that_seat(client: TestClient, fake: FakeTime) -> None:
    made = create(client, "royal-court", HUMANS, time_control="move:60", public=True)
    seat = view(client, made["id"])["to_act"]
    fake.t += 61
    over = view(client, made["id"])
    assert over["status"] == "finished" and over["clock"]["running"] is None
    assert over["clock"]["remaining"][seat] == 0.0
    assert over["result"]["ending"] == {"reason": "time", "seat": seat}
    assert over["result"]["winner"] == 1 - seat and "lost on time" in over["result"]["text"]
    record = client.get(f"/api/matches/{made['id']}/record").json()
    assert record["ending"] == {"reason": "time", "seat": seat} and record["time_control"]["kind"] == "move"
    assert listed(client, made["id"])["result"]["ending"] == {"reason": "time", "seat": seat}


def test_a_move_after_the_flag_fell_is_refused_and_the_match_is_over(
    client: TestClient, fake: FakeTime
) -> None:
    made = create(client, "royal-court", HUMANS, time_control="fischer:30+0")
    current = view(client, made["id"])
    seat = current["to_act"]
    fake.t += 31
    answer = act(client, made["id"], tokens(made)[seat], current["legal"][0], version=current["version"])
    assert answer.status_code == 409 and "time is up" in answer.json()["detail"]
    again = act(client, made["id"], tokens(made)[seat], current["legal"][0])
    assert again.status_code == 409 and "time is up" in again.json()["detail"]
    over = view(client, made["id"])
    assert over["status"] == "finished" and over["plies"] == current["plies"]
    assert over["result"]["ending"] == {"reason": "time", "seat": seat}
    undo = client.post(f"/api/matches/{made['id']}/undo", headers=bearer(tokens(made)[seat]))
    assert undo.status_code == 409


def wait_listed(client: TestClient, match_id: str, status: str, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (row := listed(client, match_id))["status"] != status:
        assert time.monotonic() < deadline, f"the match is still {row['status']}"
        time.sleep(0.02)
    return row


def test_the_background_task_ends_a_match_with_nobody_acting(client: TestClient, fake: FakeTime) -> None:
    made = create(client, "royal-court", HUMANS, time_control="move:60", public=True)
    seat = view(client, made["id"])["to_act"]
    with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
        ws.send_json({"token": None})
        assert ws.receive_json()["type"] == "view"
        fake.t += 61
        row = wait_listed(client, made["id"], "finished")  # the listing reads the store only
        assert row["result"]["ending"] == {"reason": "time", "seat": seat}
        pushed = ws.receive_json()  # and it is pushed
        assert pushed["type"] == "delta" and pushed["view"]["status"] == "finished"
        assert pushed["view"]["result"]["ending"] == {"reason": "time", "seat": seat}


def test_a_computer_seats_time_counts_too(tmp_path: Path, fake: FakeTime) -> None:
    """A computer that thinks past its time loses on time (its pool is kept busy here)."""
    busy = threading.Event()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    pool.submit(busy.wait, 30)
    try:
        with timed_app(tmp_path, fake, pool) as c:
            made = create(
                c,
                "royal-court",
                [{"kind": "computer", "agent": "random"}, {"kind": "human"}],
                time_control="move:60",
                public=True,
            )
            if view(c, made["id"])["to_act"] == 1:
                finish_turn(c, made)
            assert view(c, made["id"])["to_act"] == 0
            fake.t += 61
            row = wait_listed(c, made["id"], "finished")
            assert row["result"]["ending"] == {"reason": "time", "seat": 0} and row["result"]["winner"] == 1
    finally:
        busy.set()
        pool.shutdown(wait=True, cancel_futures=True)
