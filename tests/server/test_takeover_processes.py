"""Two `regalia serve` processes on one database (a SQLite file, and PostgreSQL when
REGALIA_TEST_POSTGRES is set): the process thinking about a computer move is killed (SIGKILL) and the
other takes the move over within 10 s; the same move without a version sent to both at once is
applied once."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from .conftest import Server, at_once, tokens_of, wait_listening

pytestmark = pytest.mark.slow

#: A computer seat that thinks a few seconds a move (within the server's caps, if it has any).
SLOW = [
    {"kind": "computer", "agent": "mcts:seconds=2.5"},
    {"kind": "computer", "agent": "mcts", "level": "hard"},
]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def pair(
    request: pytest.FixtureRequest, tmp_path: Path, servers: Callable[..., Server]
) -> tuple[Server, Server, str]:
    if request.param == "sqlite":
        db = f"sqlite:///{tmp_path / 'shared.db'}"
    else:
        db = request.getfixturevalue("postgres_url")
    a = servers(db, name="a")
    b = servers(db, name="b")
    if request.param == "postgresql":
        wait_listening(db, 2)
    return a, b, db


def lease(db: str, match_id: str) -> tuple[str | None, int]:
    engine = sa.create_engine(db)
    try:
        with engine.connect() as c:
            row = c.execute(
                sa.text("SELECT lease_owner, version FROM matches WHERE id = :id"), {"id": match_id}
            ).one()
    finally:
        engine.dispose()
    return row.lease_owner, int(row.version)


def slow_match(server: Server) -> dict[str, object]:
    """A Royal Court match against a computer seat that thinks a few seconds a move, computer first."""
    for _ in range(40):
        for computer in SLOW:
            answer = server.http.post(
                "/api/matches", json={"game": "royal-court", "seats": [{"kind": "human"}, computer]}
            )
            if answer.status_code == 201:
                break
        assert answer.status_code == 201, answer.text
        made: dict[str, object] = answer.json()
        if server.view(str(made["id"]))["to_act"] == 1:
            return made
    raise AssertionError("the computer never moved first")


def test_killing_the_thinking_process_hands_the_move_to_the_other(pair: tuple[Server, Server, str]) -> None:
    a, b, db = pair
    made = slow_match(a)
    match_id = str(made["id"])
    owner, version = lease(db, match_id)
    assert owner is not None and f":{a.pid}:" in owner, owner  # A created it, A thinks
    a.kill()
    killed = time.monotonic()
    while True:
        view = b.view(match_id)
        if view["version"] > version:
            break
        assert time.monotonic() - killed < 10.0, f"B did not take the move over: {lease(db, match_id)}"
        time.sleep(0.1)
    taken = time.monotonic() - killed
    assert view["to_act"] == 0 or lease(db, match_id)[0] is not None
    assert [e["seat"] for e in view["log"]].count(1) >= 1  # the computer's move, played by B
    print(f"taken over and played {taken:.1f} s after the kill")


def test_two_versionless_moves_on_two_servers_apply_once(pair: tuple[Server, Server, str]) -> None:
    a, b, _db = pair
    made = a.create("royal-court", [{"kind": "human"}, {"kind": "human"}])
    match_id, tokens = str(made["id"]), tokens_of(made)
    for _ in range(6):
        view = a.view(match_id)
        seat, move = view["to_act"], view["legal"][0]
        answers = at_once(
            {
                name: functools.partial(server.act, match_id, tokens[seat], move)
                for name, server in (("a", a), ("b", b))
            }
        )
        codes = sorted(r.status_code for r in answers.values())
        assert codes[0] == 200 and 400 <= codes[1] < 500, {
            n: (r.status_code, r.text) for n, r in answers.items()
        }
        for server in (a, b):
            now = server.view(match_id)
            assert now["version"] == view["version"] + 1
            assert [e["text"] for e in now["log"][view["plies"] :] if e["seat"] == seat] == [move]
