"""Two `regalia serve` processes on one PostgreSQL database serve the same matches: a move through one
is seen by the other, pushed to the WebSocket clients of the other (LISTEN/NOTIFY), and of two
moves for the same version exactly one is accepted. Skipped without REGALIA_TEST_POSTGRES."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import Server, at_once, tokens_of, wait_listening

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def pair(postgres_url: str, servers: Callable[..., Server]) -> tuple[Server, Server]:
    """Servers A and B on one fresh database, each listening for the other's changes. B starts once
    A is up: two servers migrating a fresh database at once may collide (see the report of issue 10)."""
    a = servers(postgres_url, name="a")
    b = servers(postgres_url, name="b")
    wait_listening(postgres_url, 2)
    return a, b


def socket(stack: contextlib.ExitStack, server: Server, match_id: str, token: str | None) -> ClientConnection:
    """A WebSocket to ``server`` for the match, as the token's seat (or a spectator), closed with
    ``stack``."""
    url = f"ws://127.0.0.1:{server.port}/api/matches/{match_id}/ws"
    ws = stack.enter_context(connect(url, open_timeout=10, close_timeout=2))
    ws.send(json.dumps({"token": token} if token else {}))
    return ws


#: The log each socket holds (by ``id``): a push after the first view is a delta of it.
HELD: dict[int, list[Any]] = {}


def received(ws: ClientConnection, version: int | None = None, timeout: float = 10.0) -> dict[str, Any]:
    """The next view pushed (with ``version``: the next of that version or newer; a server may push
    one version twice), the deltas after the first view applied to the log the socket holds
    (docs/server.md, "WebSocket")."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if message["type"] == "view":
            view: dict[str, Any] = message["view"]
        else:
            assert message["type"] == "delta" and id(ws) in HELD, message
            log = HELD[id(ws)][: message["keep"]] + message["log"]
            view = {**message["view"], "log": log}
            assert len(log) == view["plies"]
        HELD[id(ws)] = view["log"]
        if version is None or view["version"] >= version:
            return view


@pytest.fixture
def match(pair: tuple[Server, Server]) -> Iterator[tuple[str, dict[int, str]]]:
    """A Royal Court match between two people, created on A."""
    a, _b = pair
    made = a.create("royal-court", [{"kind": "human"}, {"kind": "human"}], public=True)
    yield made["id"], tokens_of(made)


def test_a_match_made_on_one_server_is_played_on_the_other(
    pair: tuple[Server, Server], match: tuple[str, dict[int, str]]
) -> None:
    a, b = pair
    match_id, tokens = match
    for token in tokens.values():
        assert b.view(match_id, token) == a.view(match_id, token)
    assert [m["id"] for m in b.http.get("/api/matches").json()] == [match_id]
    for turn in range(6):
        here, there = (b, a) if turn % 2 == 0 else (a, b)
        view = there.view(match_id)
        seat, action = view["to_act"], view["legal"][0]
        answer = here.act(match_id, tokens[seat], action, view["version"])
        assert answer.status_code == 200, answer.text
        seen = there.view(match_id, tokens[seat])
        assert (seen["version"], seen["plies"]) == (answer.json()["version"], answer.json()["plies"])
        assert action in [e["text"] for e in seen["log"]]
        assert seen == here.view(match_id, tokens[seat])


def test_a_move_through_one_server_is_pushed_by_the_other(
    pair: tuple[Server, Server], match: tuple[str, dict[int, str]]
) -> None:
    a, b = pair
    match_id, tokens = match
    with contextlib.ExitStack() as stack:
        seat_sockets = {seat: socket(stack, a, match_id, token) for seat, token in tokens.items()}
        watcher = socket(stack, a, match_id, None)  # a spectator on A
        on_b = socket(stack, b, match_id, None)  # and one on B
        first = {seat: received(ws) for seat, ws in seat_sockets.items()}
        version = received(watcher)["version"]
        assert received(on_b)["version"] == version
        for seat, view in first.items():
            assert (view["viewer"], view["version"]) == (seat, version)

        for step in range(4):
            here = b if step % 2 == 0 else a  # moves through B are pushed by A, and the other way
            view = here.view(match_id)
            seat, action = view["to_act"], view["legal"][-1]
            answer = here.act(match_id, tokens[seat], action, version)
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            for viewer, ws in seat_sockets.items():
                pushed = received(ws, version)
                assert (pushed["viewer"], pushed["version"]) == (viewer, version)
                assert pushed == a.view(match_id, tokens[viewer])
                if viewer == seat:
                    assert action in [e["text"] for e in pushed["log"]]
            assert received(watcher, version)["version"] == version
            assert received(on_b, version)["version"] == version


def test_two_moves_for_one_version_on_two_servers(
    pair: tuple[Server, Server], match: tuple[str, dict[int, str]]
) -> None:
    a, b = pair
    match_id, tokens = match
    for _ in range(6):
        view = a.view(match_id)
        seat, version = view["to_act"], view["version"]
        moves = {"a": view["legal"][0], "b": view["legal"][-1]}
        answers = at_once(
            {
                name: functools.partial(server.act, match_id, tokens[seat], moves[name], version)
                for name, server in (("a", a), ("b", b))
            }
        )
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 409], {n: (r.status_code, r.text) for n, r in answers.items()}
        winner = next(n for n, r in answers.items() if r.status_code == 200)
        for server in (a, b):  # both servers agree on what was played, and nothing else was
            now = server.view(match_id, tokens[seat])
            assert now["version"] == version + 1
            assert now["plies"] == answers[winner].json()["plies"]
            assert now["log"][view["plies"]]["text"] == moves[winner]
    # and the match goes on through either server
    for server in (b, a, b):
        view = server.view(match_id)
        answer = server.act(match_id, tokens[view["to_act"]], view["legal"][0], view["version"])
        assert answer.status_code == 200, answer.text
