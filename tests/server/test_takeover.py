"""Takeover between server processes (issue 17, part 3), without subprocesses: two MatchServices on
one database stand for two processes (SQLite file and PostgreSQL). A computer move's lease is held by
the process thinking about it, is not taken while it runs, is claimed by another once it has run
out, and only its holder commits the move; a create is one transaction; a move without a version is
applied at most once. test_takeover_processes.py kills real `regalia serve` processes."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from regalia.server.service import ApiError, MatchService, repeats_last
from regalia.server.store import Store, matches, plies, tokens


class Held(concurrent.futures.Executor):
    """A pool that runs nothing until told: ``release()`` runs the jobs submitted so far."""

    def __init__(self) -> None:
        self.jobs: list[tuple[concurrent.futures.Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.jobs.append((future, fn, args))
        return future

    def release(self) -> int:
        jobs, self.jobs = self.jobs, []
        for future, fn, args in jobs:
            future.set_result(fn(*args))
        return len(jobs)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[MatchService, MatchService, list[float]]]:
    """Services A and B on one database, each with a pool that thinks only when released, and the
    wall clock of their leases (``clock[0]``)."""
    clock = [1_000_000.0]
    services = (MatchService(Store(db_url), Held()), MatchService(Store(db_url), Held()))
    for service in services:
        service.lives.lease_clock = lambda: clock[0]
    yield services[0], services[1], clock
    for service in services:
        service.store.close()


def lease(service: MatchService, match_id: str) -> tuple[str | None, float | None, int]:
    with service.store.engine.connect() as c:
        row = c.execute(
            sa.select(matches.c.lease_owner, matches.c.lease_until, matches.c.version).where(
                matches.c.id == match_id
            )
        ).one()
    return row.lease_owner, row.lease_until, int(row.version)


SEATS = [{"kind": "human"}, {"kind": "computer", "agent": "random"}]


def computer_first(service: MatchService) -> dict[str, Any]:
    """A Royal Court match against the computer in which the computer moves first (chance decides)."""
    for _ in range(100):
        made = service.create("royal-court", {}, SEATS, "online")
        if service.live(made["id"]).match.state.current_player == 1:
            return made
    raise AssertionError("the computer never moved first")


def test_the_creating_process_holds_the_lease_and_thinks(
    two: tuple[MatchService, MatchService, list[float]],
) -> None:
    a, b, clock = two
    made = computer_first(a)
    owner, until, version = lease(a, made["id"])
    assert owner == a.lives.owner and until == clock[0] + a.lives.lease_seconds and version == 1
    assert len(a.pool.jobs) == 1  # type: ignore[attr-defined]
    assert b.tick_computers() == 0  # the lease runs: B leaves it alone
    clock[0] += 2.0
    a.tick_computers()  # renewed while A thinks
    assert lease(a, made["id"])[1] == clock[0] + a.lives.lease_seconds
    clock[0] += 2.0
    assert b.tick_computers() == 0
    assert b.pool.jobs == []  # type: ignore[attr-defined]
    assert a.pool.release() == 1  # type: ignore[attr-defined]
    owner, _until, version = lease(a, made["id"])
    assert version == 2 and owner in (None, a.lives.owner)  # A's move committed (A leases what follows)


def test_a_lease_that_ran_out_is_taken_over_and_only_its_holder_commits(
    two: tuple[MatchService, MatchService, list[float]],
) -> None:
    a, b, clock = two
    made = computer_first(a)
    match_id = made["id"]
    clock[0] += a.lives.lease_seconds + 0.5  # A stopped renewing (as if it died)
    assert b.tick_computers() == 1
    assert lease(b, match_id)[0] == b.lives.owner and len(b.pool.jobs) == 1  # type: ignore[attr-defined]
    assert a.tick_computers() == 0  # A's renewal finds the lease gone, and B's runs
    a.pool.release()  # type: ignore[attr-defined]
    assert lease(a, match_id)[2] == 1  # A's late move is not committed: the lease is B's
    b.pool.release()  # type: ignore[attr-defined]
    owner, _until, version = lease(b, match_id)
    assert version == 2 and owner in (None, b.lives.owner)
    assert a.view(match_id, None)["version"] == 2  # both agree on what was played
    assert a.view(match_id, None)["log"] == b.view(match_id, None)["log"]


def test_a_match_taken_over_is_claimed_by_one_process_only(
    two: tuple[MatchService, MatchService, list[float]],
) -> None:
    a, b, clock = two
    made = computer_first(a)
    clock[0] += 10.0
    assert b.tick_computers() + a.tick_computers() == 1
    assert len(a.pool.jobs) + len(b.pool.jobs) == 2  # type: ignore[attr-defined]
    assert lease(a, made["id"])[0] in (a.lives.owner, b.lives.owner)


def test_a_person_to_act_holds_no_lease(two: tuple[MatchService, MatchService, list[float]]) -> None:
    a, _b, _clock = two
    made = a.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    assert lease(a, made["id"])[:2] == (None, None)


def test_a_create_is_one_transaction(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    service = MatchService(Store(db_url), concurrent.futures.ThreadPoolExecutor(1))
    try:

        def fail(*_args: Any, **_kwargs: Any) -> bool:
            raise RuntimeError("the server died between the row and its plies")

        monkeypatch.setattr(service.store, "_write_change", fail)  # after the row and tokens' inserts
        with pytest.raises(RuntimeError):
            service.create(
                "royal-court", {}, [{"kind": "human"}, {"kind": "computer", "agent": "random"}], "online"
            )
        with service.store.engine.connect() as c:
            for table in (matches, tokens, plies):
                assert c.execute(sa.select(sa.func.count()).select_from(table)).scalar() == 0
        monkeypatch.undo()
        made = service.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
        assert service.view(made["id"], None)["version"] == 1
    finally:
        service.pool.shutdown()
        service.store.close()


def test_a_versionless_move_is_not_tried_again_after_a_conflict(
    two: tuple[MatchService, MatchService, list[float]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same move without a version sent to A and B: B read the match, then A's copy committed
    first; B's is refused (409), not applied again on the newer position."""
    a, b, _clock = two
    made = a.create("carcassonne", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    match_id, seat_tokens = made["id"], {s["seat"]: s["token"] for s in made["seats"]}
    view = a.view(match_id, None)
    seat, move = view["to_act"], view["legal"][0]
    commit = b.store.commit_change
    done: list[dict[str, Any]] = []

    def a_first(*args: Any, **kwargs: Any) -> bool:
        if not done:
            done.append(a.act(match_id, seat_tokens[seat], move))
        return commit(*args, **kwargs)

    monkeypatch.setattr(b.store, "commit_change", a_first)
    with pytest.raises(ApiError) as refused:
        b.act(match_id, seat_tokens[seat], move)
    assert refused.value.status == 409
    assert done[0]["version"] == view["version"] + 1
    after = b.view(match_id, None)
    assert after["version"] == view["version"] + 1
    assert [e["text"] for e in after["log"]].count(move) == 1


def test_a_versionless_repeat_of_the_seats_last_move_is_refused(
    two: tuple[MatchService, MatchService, list[float]],
) -> None:
    a, _b, _clock = two
    made = a.create("carcassonne", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    match_id, seat_tokens = made["id"], {s["seat"]: s["token"] for s in made["seats"]}
    view = a.view(match_id, None)
    seat, move = view["to_act"], view["legal"][0]
    a.act(match_id, seat_tokens[seat], move)
    live = a.live(match_id)
    assert live.match.state.current_player == seat  # Carcassonne: the same seat decides its meeple
    assert repeats_last(live, seat, move)
    assert not repeats_last(live, 1 - seat, move)
    with pytest.raises(ApiError) as refused:
        a.act(match_id, seat_tokens[seat], move)
    assert refused.value.status == 409 and "without a version" in refused.value.detail
    assert a.view(match_id, None)["version"] == view["version"] + 1
