"""The analysis of a finished match on the server (docs/server.md, "Analysis"): queued, computed
once within the caps, cached in the store across a restart, 409 in progress, 429 on a full queue,
the JSON's shape and where each best move would have been played."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regalia.core.record import Record, apply_ply, initial_state
from regalia.core.registry import game_plugin
from regalia.server import analysis as server_analysis
from regalia.server.app import create_app

OPTIONS = {"turn_cap": 10}


def client_for(db: str, pool: concurrent.futures.Executor, iterations: int = 8) -> TestClient:
    return TestClient(create_app(db, pool=pool, analysis_iterations=iterations, max_think_seconds=1.0))


def play_out(client: TestClient, options: dict[str, Any] | None = None) -> str:
    """A Royal Court match between two people, each playing its first legal action until the end."""
    made = client.post(
        "/api/matches",
        json={"game": "royal-court", "options": options or OPTIONS, "seats": [{"kind": "human"}] * 2},
    ).json()
    tokens = [s["token"] for s in made["seats"]]
    match_id = made["id"]
    view = client.get(f"/api/matches/{match_id}").json()
    while view["status"] == "active":
        seat = view["to_act"]
        legal = view["legal"]
        ack = client.post(
            f"/api/matches/{match_id}/actions",
            json={"action": legal[0], "version": view["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert ack.status_code == 200, ack.text
        view = client.get(f"/api/matches/{match_id}").json()
    return str(match_id)


def wait_done(client: TestClient, match_id: str, timeout: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        doc: dict[str, Any] = client.get(f"/api/matches/{match_id}/analysis").json()
        seen.append(doc["status"])
        if doc["status"] in ("done", "failed"):
            doc["seen"] = seen
            return doc
        time.sleep(0.05)
    raise AssertionError(f"the analysis did not end: {seen[-5:]}")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'analysis.db'}"


@pytest.fixture
def pool() -> Iterator[concurrent.futures.ThreadPoolExecutor]:
    executor = concurrent.futures.ThreadPoolExecutor(1)
    yield executor
    executor.shutdown(wait=False, cancel_futures=True)


def test_none_queued_done_and_cached_across_a_restart(db: str, pool: concurrent.futures.Executor) -> None:
    with client_for(db, pool) as client:
        match_id = play_out(client)
        first = client.get(f"/api/matches/{match_id}/analysis").json()
        assert first == {
            "status": "none",
            "progress": {"done": 0, "total": 0},
            "analysis": None,
            "best": [],
            "budget": None,
            "error": None,
        }
        asked = client.post(f"/api/matches/{match_id}/analysis")
        assert asked.status_code == 200
        assert asked.json()["status"] in ("queued", "running", "done")
        assert asked.json()["budget"] == "mcts:iterations=8:deadline_seconds=1"
        done = wait_done(client, match_id)
        assert done["status"] == "done", done
        doc = done["analysis"]
        assert doc["format"] == "regalia-analysis" and doc["game"] == "royal-court"
        decisions = [p for p in doc["plies"] if p["kind"] == "decision"]
        assert decisions and all(p["value"] is not None and p["best"] for p in decisions)
        assert done["progress"] == {"done": len(decisions), "total": len(decisions)}
        assert doc["plies"][0]["kind"] == "chance"
        record = client.get(f"/api/matches/{match_id}/record").json()
        assert len(doc["plies"]) == len(record["actions"])
        # where each best move would have been played
        best = {b["ply"]: b for b in done["best"]}
        assert set(best) == {p["ply"] for p in decisions}
        rec = Record.from_json(record)
        plugin = game_plugin("royal-court")
        for p in decisions:
            b = best[p["ply"]]
            assert b["best"] == p["best"] and b["label"] and isinstance(b["places"], list)
            state = initial_state(rec)
            for k, text in enumerate(rec.actions[: p["ply"] - 1], start=1):
                apply_ply(state, k, text)
            state.apply_text(p["best"])
            assert b["places"] == list(plugin.places(state, state.last_ply()))
            assert b["places"], p  # every Royal Court play and move happens somewhere
        # the board had the ply been its best move: the best move's places are on it
        p = decisions[0]
        shown = client.get(f"/api/matches/{match_id}/analysis/board", params={"ply": p["ply"]})
        assert shown.status_code == 200, shown.text
        assert all(f'data-pos="{pos}"' in shown.json()["board"] for pos in best[p["ply"]]["places"])
        assert client.get(f"/api/matches/{match_id}/analysis/board", params={"ply": 1}).status_code == 422
        again = client.post(f"/api/matches/{match_id}/analysis").json()
        assert again["status"] == "done" and again["analysis"] == doc  # computed once
    # a restart of the application on the same database: the analysis is kept, not computed again
    calls: list[Any] = []
    original = server_analysis.analyse_position

    def counting(*args: Any) -> dict[str, Any]:
        calls.append(args)
        return original(*args)

    server_analysis.analyse_position = counting  # type: ignore[assignment]
    try:
        with client_for(db, pool) as client:
            kept = client.get(f"/api/matches/{match_id}/analysis").json()
            assert kept["status"] == "done" and kept["analysis"] == doc
            assert client.post(f"/api/matches/{match_id}/analysis").json()["analysis"] == doc
    finally:
        server_analysis.analyse_position = original
    assert calls == []


def test_a_match_in_progress_is_not_analysed(db: str, pool: concurrent.futures.Executor) -> None:
    with client_for(db, pool) as client:
        body = {"game": "royal-court", "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/matches", json=body).json()
        refused = client.post(f"/api/matches/{made['id']}/analysis")
        assert refused.status_code == 409
        assert "over" in refused.json()["detail"]
        assert client.get(f"/api/matches/{made['id']}/analysis").json()["status"] == "none"
        assert client.get(f"/api/matches/{made['id']}/analysis/board?ply=2").status_code == 409
        assert client.post("/api/matches/nosuchmatch0000000000/analysis").status_code == 404
        assert client.get("/api/matches/nosuchmatch0000000000/analysis").status_code == 404


class Held(concurrent.futures.ThreadPoolExecutor):
    """A pool whose analysis jobs wait until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__(1)
        self.release = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        if getattr(fn, "__name__", "") != "analyse_position":
            return super().submit(fn, *args, **kwargs)

        def held() -> Any:
            self.release.wait(30)
            return fn(*args, **kwargs)

        return super().submit(held)


def test_a_full_queue_is_429(db: str) -> None:
    pool = Held()
    try:
        with client_for(db, pool) as client:
            ids = [play_out(client) for _ in range(server_analysis.QUEUE_LIMIT + 2)]
            first = client.post(f"/api/matches/{ids[0]}/analysis").json()
            assert first["status"] in ("queued", "running")
            deadline = time.monotonic() + 10
            while client.get(f"/api/matches/{ids[0]}/analysis").json()["status"] != "running":
                assert time.monotonic() < deadline
                time.sleep(0.02)
            statuses = [client.post(f"/api/matches/{i}/analysis") for i in ids[1:]]
            assert [s.status_code for s in statuses] == [200] * server_analysis.QUEUE_LIMIT + [429]
            assert all(s.json()["status"] == "queued" for s in statuses[:-1])
            assert "analyses waiting" in statuses[-1].json()["detail"]
            assert client.get(f"/api/matches/{ids[-1]}/analysis").json()["status"] == "none"
            # asking again for one queued changes nothing
            assert client.post(f"/api/matches/{ids[1]}/analysis").json()["status"] == "queued"
            pool.release.set()
            for i in ids[:-1]:
                assert wait_done(client, i)["status"] == "done"
            assert client.post(f"/api/matches/{ids[-1]}/analysis").status_code == 200
            assert wait_done(client, ids[-1])["status"] == "done"
    finally:
        pool.release.set()
        pool.shutdown(wait=False, cancel_futures=True)


def test_the_budget_is_within_the_caps() -> None:
    from regalia.server.budgets import Caps

    assert server_analysis.analysis_budget(Caps(think_seconds=0.05), 5000) == (
        "mcts:iterations=50:deadline_seconds=0.05"
    )
