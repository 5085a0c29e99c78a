"""Computer seats by level, within the server's caps (issue 17, part 1): explicit budgets over the
caps refused, every search cut at ``max_think_seconds`` (so a huge budget stored before the caps
delays no other match's computer by more than the cap, after a restart too), and hints bounded: a
storm of them is refused with 429 or 503, never a 500, while the rest of the API answers.

The server runs in-process (FastAPI's TestClient) with a cap of half a second and one thinking
thread (a thread pool: the deadline is wall-clock time, so it holds there as in a process)."""

from __future__ import annotations

import concurrent.futures
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from regalia.ai.mcts import MCTSAgent
from regalia.core.errors import OptionError
from regalia.server.app import create_app
from regalia.server.budgets import Caps, _clamped, capped_agent, checked_spec
from regalia.server.store import matches

CAP = 0.5
#: match id -> its plies when it was stored before the caps.
PLIES_STORED: dict[str, int] = {}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(db: str, pool: concurrent.futures.Executor, cap: float = CAP) -> TestClient:
    return TestClient(create_app(db, pool=pool, max_think_seconds=cap))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'budgets.db'}"


@pytest.fixture
def pool() -> Iterator[concurrent.futures.ThreadPoolExecutor]:
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def client(db: str, pool: concurrent.futures.Executor) -> Iterator[TestClient]:
    with start(db, pool) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": "royal-court", "seats": seats, **body})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def view(client: TestClient, match_id: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}")
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


def wait_for(
    client: TestClient, match_id: str, test: Callable[[dict[str, Any]], bool], timeout: float
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        current = view(client, match_id)
        if test(current):
            return current
        assert time.monotonic() < deadline, (
            f"not within {timeout} s: {current['version']}, {current['to_act']}"
        )
        time.sleep(0.01)


def play_until(client: TestClient, made: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Play the human seats' random moves until ``seat`` is to act (a computer's moves come by
    themselves)."""
    tokens = {s["seat"]: s["token"] for s in made["seats"] if "token" in s}
    for _ in range(200):
        current = view(client, made["id"])
        assert current["status"] == "active", current["result"]
        if current["to_act"] == seat:
            return current
        if current["to_act"] not in tokens:
            time.sleep(0.01)
            continue
        sent = {"action": rng.choice(current["legal"]), "version": current["version"]}
        answer = client.post(
            f"/api/matches/{made['id']}/actions", json=sent, headers=bearer(tokens[current["to_act"]])
        )
        assert answer.status_code in (200, 409), answer.text
    raise AssertionError(f"seat {seat} never came to act")


def stored_before_the_caps(db: str, pool: concurrent.futures.Executor, agents: list[str]) -> str:
    """A match of two computer seats with these specs, stored as a server before the caps would
    have stored it (the specs are written into the row: this server refuses them), its first seat
    to act: the id."""
    with start(db, pool) as client:
        made = create(client, [{"kind": "human"}, {"kind": "human"}])
        current = play_until(client, made, 0, random.Random(7))
        assert current["to_act"] == 0
    seats = [{"kind": "computer", "name": f"old {s}", "agent": agent} for s, agent in enumerate(agents)]
    engine = sa.create_engine(db)
    with engine.begin() as c:
        c.execute(sa.update(matches).where(matches.c.id == made["id"]).values(seats=seats))
    engine.dispose()
    match_id: str = made["id"]
    PLIES_STORED[match_id] = current["plies"]
    return match_id


# -- creating: levels, and explicit budgets only within the caps ----------------------------------
@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"agent": "mcts:iterations=1000000000"}, ["iterations=1000000000", "cap of 500 iterations"]),
        ({"agent": "mcts:seconds=1e9"}, ["seconds=1e+09", "cap of 0.5 seconds"]),
        ({"agent": "mcts:hard:seconds=1e9"}, ["seconds=1e+09", "--max-think-seconds 0.5"]),
        ({"agent": "mcts", "level": "hard:seconds=1e9"}, ["seconds=1e+09"]),
        ({"agent": "mcts:c=nan"}, ["c must be a non-negative finite number", "nan"]),
        ({"agent": "mcts:seconds=inf"}, ["seconds=inf"]),
        ({"agent": "mcts:min_iterations=100000"}, ["min_iterations=100000"]),
        ({"agent": "mcts:deadline_seconds=100"}, ["deadline_seconds is set by the server"]),
        ({"agent": "mcts:name=x"}, ["name is set by the server"]),
        ({"agent": "mcts:hard:workers=64"}, ["workers is set by the server"]),
        ({"agent": "mcts", "level": "superb"}, ["unknown level 'superb'"]),
        ({"agent": "mcts:speed=3"}, ["unknown parameter(s) speed"]),
    ],
)
def test_a_budget_over_the_caps_or_a_bad_parameter_is_refused_naming_it(
    client: TestClient, seat: dict[str, Any], words: list[str]
) -> None:
    before = client.get("/api/matches").json()
    refused = client.post(
        "/api/matches",
        json={"game": "royal-court", "seats": [{"kind": "human"}, {"kind": "computer", **seat}]},
    )
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"]
    assert detail.startswith("seats[1]: "), detail
    for word in words:
        assert word in detail, detail
    assert client.get("/api/matches").json() == before


def test_levels_and_budgets_within_the_caps_are_accepted(client: TestClient) -> None:
    for seat, agent in [
        ({"agent": "mcts", "level": "hard"}, "mcts:hard"),
        ({"agent": "mcts", "level": "easy"}, "mcts:easy"),
        ({"agent": "mcts:iterations=500"}, "mcts:iterations=500"),
        ({"agent": "mcts:seconds=0.5:c=0.7"}, "mcts:seconds=0.5:c=0.7"),
        ({"agent": "mcts", "level": "seconds=0.2"}, "mcts:seconds=0.2"),
        ({"agent": "random"}, "random"),
        ({}, "mcts"),
    ]:
        made = create(client, [{"kind": "human"}, {"kind": "computer", **seat}])
        assert view(client, made["id"])["seats"][1]["agent"] == agent


# -- every search has a deadline ------------------------------------------------------------------
def test_a_huge_budget_stored_before_the_caps_is_clamped_when_resumed(
    db: str, pool: concurrent.futures.Executor
) -> None:
    """The four reproductions, stored as an old server stored them: after a restart each seat moves
    within the cap (unbounded, the first would never move) and keeps its spec."""
    old = stored_before_the_caps(db, pool, ["mcts:iterations=1000000000", "mcts:seconds=1e9"])
    other = stored_before_the_caps(db, pool, ["mcts:hard:seconds=1e9", "mcts:c=nan"])
    with start(db, pool) as client:
        begun = time.monotonic()
        # both seats of both matches move, one search at a time on the one thread
        for match_id in (old, other):
            seen: set[int] = set()
            first = PLIES_STORED[match_id]

            def moved(v: dict[str, Any], first: int = first, seen: set[int] = seen) -> bool:
                seen.update(e["seat"] for e in v["log"][first:] if e["seat"] >= 0)
                return seen >= {0, 1} or v["status"] == "finished"

            wait_for(client, match_id, moved, timeout=12 * CAP + 4)
        elapsed = time.monotonic() - begun
        agents = [s["agent"] for s in view(client, old)["seats"]]
        assert agents == ["mcts:iterations=1000000000", "mcts:seconds=1e9"]
        assert [s["agent"] for s in view(client, other)["seats"]][1] == "mcts:c=nan"
    assert elapsed < 12 * CAP + 4


def test_a_huge_budget_delays_another_matchs_computer_by_the_cap_at_most(
    db: str, pool: concurrent.futures.Executor
) -> None:
    """Match A (stored before the caps: two seats of a billion iterations each) keeps the one
    thinking thread busy; match B's computer still moves within the cap of its human's move."""
    hog = stored_before_the_caps(db, pool, ["mcts:iterations=1000000000", "mcts:iterations=1000000000"])
    with start(db, pool) as client:
        hogged = wait_for(client, hog, lambda v: v["thinking"], timeout=5)["version"]
        made = create(client, [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
        rng = random.Random(3)
        delays = []
        for _ in range(3):
            current = play_until(client, made, 0, rng)
            if current["status"] != "active":
                break
            token = made["seats"][0]["token"]
            # play the human's turn out; then time the computer's answer
            while current["to_act"] == 0:
                sent = {"action": rng.choice(current["legal"]), "version": current["version"]}
                answer = client.post(f"/api/matches/{made['id']}/actions", json=sent, headers=bearer(token))
                assert answer.status_code == 200, answer.text
                current = view(client, made["id"])
            if current["status"] != "active":
                break
            assert current["to_act"] == 1
            asked = time.monotonic()
            wait_for(client, made["id"], lambda v: v["to_act"] != 1, timeout=10)
            delays.append(time.monotonic() - asked)
        # the hog kept the thread busy meanwhile, a cut search after another
        assert view(client, hog)["version"] >= hogged + 2, "the hog did not think: the test measured nothing"
    # Without the cap the hog's search would run for hours and B's computer would never answer
    # within wait_for's 10 s; with it, B waits for one cut search at most, plus its own move and
    # the polling: a bound of two caps and a second leaves room for a loaded 2-core machine (CI
    # once measured 1.29 s against the former bound of CAP + 0.75).
    assert delays and max(delays) < 2 * CAP + 1.0, delays


# -- hints: bounded, refused with 429 or 503, never a 500 ----------------------------------------
def test_a_hint_storm_gets_429_or_503_and_the_games_list_still_answers(client: TestClient) -> None:
    shared = [create(client, [{"kind": "human"}, {"kind": "human"}], screen="shared") for _ in range(6)]
    calls = [(made["id"], made["seats"][0]["token"]) for made in shared] * 50  # 300 hints
    statuses: list[int] = []
    details: list[str] = []
    lock = threading.Lock()

    def ask(call: tuple[str, str]) -> None:
        answer = client.post(f"/api/matches/{call[0]}/hint", headers=bearer(call[1]))
        with lock:
            statuses.append(answer.status_code)
            details.append(answer.json().get("detail", ""))

    listing = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=64) as senders:
        sent = [senders.submit(ask, call) for call in calls]
        for _ in range(5):
            begun = time.monotonic()
            assert client.get("/api/games").status_code == 200
            listing.append(time.monotonic() - begun)
            time.sleep(0.05)
        for future in sent:
            future.result()
    assert len(statuses) == 300
    assert set(statuses) <= {200, 429, 503}, sorted(set(statuses))
    assert statuses.count(429) > 200  # refused at once, not queued
    assert 200 in statuses
    refused = {d for s, d in zip(statuses, details, strict=True) if s != 200}
    assert all(refused) and any("being thought already" in d for d in refused), refused
    assert any("hints already" in d for d in refused), refused
    # The listing shares the in-process client's one event loop with 64 senders, so even idle it
    # takes up to 0.6 s here and CI once measured 1.03 s against a bound of 1.0; a listing queued
    # behind the storm's thinking would instead wait for every hint accepted (each up to the cap,
    # on one thinking thread). The bound is the one the computer-delay test above uses.
    assert max(listing) < 2 * CAP + 1.0, listing


def test_a_hint_not_ready_in_time_is_a_503_and_one_per_match_a_429(
    db: str, pool: concurrent.futures.Executor
) -> None:
    with start(db, pool, cap=0.2) as client:
        made = create(client, [{"kind": "human"}, {"kind": "human"}], screen="shared")
        url, token = f"/api/matches/{made['id']}/hint", made["seats"][0]["token"]
        release = threading.Event()
        blocker = pool.submit(release.wait, 30)  # the one thinking thread is busy
        answers: dict[str, Any] = {}
        first = threading.Thread(target=lambda: answers.update(first=client.post(url, headers=bearer(token))))
        begun = time.monotonic()
        first.start()
        service = client.app.state.service  # type: ignore[attr-defined]
        while not len(service.computers.hints):
            time.sleep(0.005)
        second = client.post(url, headers=bearer(token))
        assert second.status_code == 429, second.text
        assert "being thought already" in second.json()["detail"]
        first.join(10)
        waited = time.monotonic() - begun
        late = answers["first"]
        assert late.status_code == 503, late.text
        assert "not ready within 1.4 s" in late.json()["detail"]
        assert 1.3 < waited < 4, waited
        release.set()
        blocker.result(5)
        served = client.post(url, headers=bearer(token))  # the late one's place was given back
        assert served.status_code == 200, served.text
        assert served.json()["action"] in view(client, made["id"])["legal"]


def test_an_outside_agents_simulation_budget_is_capped() -> None:
    """docs/server.md (budgets): OpenSpiel's ``max_simulations`` is an iteration budget like MCTS's
    ``iterations``: over the cap it is refused for a client and clamped for a stored spec."""
    caps = Caps(think_seconds=1.0)
    with pytest.raises(OptionError, match="max_simulations=1000000 is over"):
        checked_spec("openspiel:mcts:max_simulations=1000000", caps)
    assert _clamped({"max_simulations": 10**9}, caps)["max_simulations"] == caps.iterations


def test_a_computer_seat_searches_in_one_process_whatever_its_spec_says() -> None:
    """docs/server.md (budgets): MCTS's ``workers`` (root parallelism, helper processes) is the
    server's to set: a stored spec that asks for helpers is built with ``workers=1``."""
    caps = Caps(think_seconds=1.0)
    agent = capped_agent("mcts:iterations=50:workers=8", caps)
    assert isinstance(agent, MCTSAgent)
    assert (agent.workers, agent.iterations, agent.deadline_seconds) == (1, 50, 1.0)
