"""A `regalia serve` killed with SIGKILL and started again on the same SQLite database continues every
match from its record: the same views, the same tokens, and computer seats that were to move move."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, tokens_of

pytestmark = pytest.mark.slow


def play(
    server: Server, match_id: str, tokens: dict[int, str], moves: int, rng: random.Random
) -> dict[str, Any]:
    """Play ``moves`` actions of the human seats (each a legal one, with the match's version);
    returns the last answer. Stops early at the end of the match or at a computer seat's turn."""
    view = server.view(match_id)
    state = {k: view[k] for k in ("version", "plies", "status", "to_act", "legal")}
    for _ in range(moves):
        seat = state["to_act"]
        if state["status"] != "active" or seat not in tokens:
            break
        action = rng.choice(state["legal"])
        answer = server.act(match_id, tokens[seat], action, state["version"])
        assert answer.status_code == 200, (action, answer.text)
        new = answer.json()
        assert new["version"] == state["version"] + 1
        assert new["plies"] > state["plies"]
        state = new
    return state


def views(server: Server, match_id: str, tokens: dict[int, str]) -> dict[int | None, dict[str, Any]]:
    """Every seat's view and a spectator's."""
    out: dict[int | None, dict[str, Any]] = {seat: server.view(match_id, t) for seat, t in tokens.items()}
    out[None] = server.view(match_id)
    return out


def wait_for(
    server: Server, match_id: str, ready: Callable[[dict[str, Any]], bool], timeout: float = 60.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        view = server.view(match_id)
        if ready(view):
            return view
        if time.monotonic() > deadline:
            pytest.fail(
                f"the match did not get there in {timeout} s: version {view['version']}, "
                f"to_act {view['to_act']}, thinking {view['thinking']}"
            )
        time.sleep(0.05)


@pytest.mark.parametrize("game", ["royal-court", "two-heirs", "carcassonne"])
def test_a_killed_server_continues_the_match(
    game: str, servers: Callable[..., Server], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'regalia.db'}"
    server = servers(db)
    made = server.create(game, [{"kind": "human"}, {"kind": "human"}], public=True)  # listed below
    match_id, tokens = made["id"], tokens_of(made)
    rng = random.Random(f"restart {game}")
    last = play(server, match_id, tokens, 8, rng)
    assert last["plies"] >= 8 and last["status"] == "active"
    before = views(server, match_id, tokens)

    server.kill()
    assert server.proc is not None and server.proc.returncode == -signal.SIGKILL

    again = servers(db, port=server.port, name="restarted")
    after = views(again, match_id, tokens)
    for viewer, view in before.items():
        assert view["viewer"] == viewer
        assert after[viewer] == view, f"the view of {viewer} changed across the restart"
    listed = again.http.get("/api/matches", params={"status": "active"}).json()
    assert [(m["id"], m["version"], m["plies"]) for m in listed] == [
        (match_id, last["version"], last["plies"])
    ]

    # An action meant for an older position is still refused, and the game goes on.
    stale = again.act(match_id, tokens[last["to_act"]], last["legal"][0], last["version"] - 1)
    assert stale.status_code == 409, stale.text
    more = play(again, match_id, tokens, 6, rng)
    assert more["version"] == last["version"] + 6 or more["status"] == "finished"
    log = again.view(match_id)["log"]
    assert log[: len(before[None]["log"])] == before[None]["log"]
    assert len(log) == more["plies"]


def test_a_computer_seat_to_move_at_the_kill_moves_after_the_restart(
    servers: Callable[..., Server], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'regalia.db'}"
    server = servers(db)
    # The computer thinks for a second each step, so that the kill comes while it thinks.
    made = server.create(
        "royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "mcts", "level": "seconds=1"}]
    )
    match_id, tokens = made["id"], tokens_of(made)
    assert set(tokens) == {0}
    rng = random.Random("restart computer")
    wait_for(server, match_id, lambda v: v["to_act"] == 0)  # if the computer plays first
    last = play(server, match_id, tokens, 50, rng)  # to the end of the human's turn
    assert last["to_act"] == 1 and len(last["legal"]) > 1, last
    server.kill()

    again = servers(db, port=server.port, name="restarted")
    view = again.view(match_id)
    assert (view["version"], view["plies"], view["to_act"]) == (last["version"], last["plies"], 1)
    # The killed process's lease on the move runs out (a few seconds), then the restarted server
    # takes the move over and thinks (docs/server.md, takeover between processes).
    wait_for(again, match_id, lambda v: v["thinking"] or v["to_act"] != 1, timeout=10.0)
    done = wait_for(again, match_id, lambda v: v["to_act"] != 1)
    assert done["version"] > last["version"]
    assert {e["seat"] for e in done["log"][last["plies"] :]} == {1}
    assert done["status"] == "active" and done["to_act"] == 0
    more = play(again, match_id, tokens, 3, rng)  # (to the end of the human's turn at most)
    assert more["version"] > done["version"]
