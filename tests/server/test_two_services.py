"""Two MatchServices on one SQLite file stand for two server processes on one database: a change made
by one between the other's steps is never lost, misapplied or misreported. The interleavings are
forced (the other's write is made from inside this one's store call), so these run without
PostgreSQL and without timing luck; test_multiprocess.py races real processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from regalia.server.service import ApiError, MatchService
from regalia.server.store import Store


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[MatchService, MatchService]]:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    services = (MatchService(Store(url)), MatchService(Store(url)))
    yield services
    for service in services:
        service.pool.shutdown()
        service.store.close()


@pytest.fixture
def match(two: tuple[MatchService, MatchService]) -> tuple[str, dict[int, str]]:
    a, _b = two
    made = a.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    return made["id"], {s["seat"]: s["token"] for s in made["seats"]}


def first_then(call: Callable[..., Any], meanwhile: Callable[[], object]) -> Callable[..., Any]:
    """``call``, then ``meanwhile()`` once (another process's write right after this read)."""
    done = False

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        nonlocal done
        result = call(*args, **kwargs)
        if not done:
            done = True
            meanwhile()
        return result

    return wrapped


def before_then(call: Callable[..., Any], meanwhile: Callable[[], object]) -> Callable[..., Any]:
    """``meanwhile()`` once, then ``call`` (another process's write just before this write)."""
    done = False

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        nonlocal done
        if not done:
            done = True
            meanwhile()
        return call(*args, **kwargs)

    return wrapped


def test_a_move_made_elsewhere_is_seen(
    two: tuple[MatchService, MatchService], match: tuple[str, dict[int, str]]
) -> None:
    a, b = two
    match_id, tokens = match
    view = b.view(match_id, None)  # B holds the match in memory
    a.act(match_id, tokens[view["to_act"]], view["legal"][0], view["version"])
    with pytest.raises(ApiError) as refused:
        b.act(match_id, tokens[view["to_act"]], view["legal"][1], view["version"])
    assert refused.value.status == 409
    assert b.view(match_id, None) == a.view(match_id, None)


def test_a_move_made_elsewhere_while_the_match_is_read(
    two: tuple[MatchService, MatchService],
    match: tuple[str, dict[int, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A commits between B's reading of the match's row and of its plies: B must not take the new
    plies for the old version (it used to judge the old version's action on the new position and
    refuse it as illegal, 422, instead of as stale, 409)."""
    a, b = two
    match_id, tokens = match
    view = a.view(match_id, None)
    seat, version, legal = view["to_act"], view["version"], view["legal"]
    monkeypatch.setattr(
        b.store, "match", first_then(b.store.match, lambda: a.act(match_id, tokens[seat], legal[0], version))
    )
    with pytest.raises(ApiError) as refused:
        b.act(match_id, tokens[seat], legal[1], version)
    assert refused.value.status == 409, refused.value.detail
    assert b.view(match_id, None) == a.view(match_id, None)
    assert b.view(match_id, None)["version"] == version + 1


def test_a_move_made_elsewhere_while_one_is_written(
    two: tuple[MatchService, MatchService],
    match: tuple[str, dict[int, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A commits after B checked its action and before B writes it: B's write is refused (409),
    nothing of it stays, in the store or in B's memory."""
    a, b = two
    match_id, tokens = match
    view = b.view(match_id, None)
    seat, version, legal = view["to_act"], view["version"], view["legal"]
    monkeypatch.setattr(
        b.store,
        "commit_change",
        before_then(b.store.commit_change, lambda: a.act(match_id, tokens[seat], legal[0], version)),
    )
    with pytest.raises(ApiError) as refused:
        b.act(match_id, tokens[seat], legal[1], version)
    assert refused.value.status == 409
    assert "reload" in refused.value.detail  # judged again on the stored match: its version moved on
    after = b.view(match_id, tokens[seat])
    assert after == a.view(match_id, tokens[seat])
    assert after["version"] == version + 1
    assert after["log"][view["plies"]]["text"] == legal[0]  # A's action
    # and B goes on from there
    answer = b.act(match_id, tokens[after["to_act"]], after["legal"][0], after["version"])
    assert answer["version"] == version + 2
    assert a.view(match_id, None)["version"] == version + 2
