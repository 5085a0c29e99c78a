"""The log's places (``Plugin.places``): kept per ply beside its note, given where the ply's text
may be read, and kept through every path that rebuilds the notes (docs/table.md, issue 18)."""

from __future__ import annotations

import re
from typing import Any

import pytest

import regalia
from regalia.core.game import CHANCE, OMNISCIENT, Game, Ply, State
from regalia.match import LogEntry, Match, Seat

COORDINATES = re.compile(r"-?\d+,-?\d+")


def places_of(ply: Ply) -> tuple[str, ...]:
    """What the toy plugin says: the coordinates the ply's notation names."""
    return tuple(COORDINATES.findall(ply.text))


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch) -> Game[Any]:
    """The Royal Court, its plugin giving each ply's coordinates as its places."""
    game = regalia.load_game("royal-court")
    real = type(game.plugin())

    class Placing(real):  # type: ignore[valid-type, misc]
        def places(self, state: State[Any], ply: Ply) -> tuple[str, ...]:
            assert state.ply >= 1 and state.last_ply().text == ply.text  # the state right after it
            return places_of(ply)

    toy = Placing()
    monkeypatch.setattr(type(game), "plugin", classmethod(lambda cls: toy))
    return game


def played(game: Game[Any], plies: int = 8, **kwargs: Any) -> Match:
    match = Match(game, [Seat.human("Ada"), Seat.human("Bo")], seed=3, **kwargs)
    while match.state.ply < plies and not match.is_over():
        match.advance()
        if match.waiting_for_person():
            state = match.state
            match.play(state.current_player, state.legal_actions()[0])
    return match


def test_each_ply_has_its_places(game: Game[Any]) -> None:
    match = played(game)
    log = match.log()
    assert len(log) == match.state.ply
    assert [e.places for e in log] == [places_of(p) for p in match.state.plies()]
    assert any(e.places for e in log)  # a card laid somewhere
    assert all(e.places == () for e in log if e.seat == CHANCE)  # "first blue" names no place


def test_applied_entries_carry_their_places(game: Game[Any]) -> None:
    match = Match(game, [Seat.human("Ada"), Seat.human("Bo")], seed=3)
    entries: list[LogEntry] = match.advance()
    state = match.state
    entries.append(match.play(state.current_player, state.legal_actions()[0]))
    assert [e.places for e in entries] == [e.places for e in match.log()]
    assert entries[-1].places == places_of(match.state.last_ply())


def test_the_field_is_last_with_a_default() -> None:
    entry = LogEntry(0, 1, "pass", "", None)
    assert entry.places == () and LogEntry._fields[-1] == "places"
    ply, seat, text, description, seconds, places = LogEntry(2, 0, "t", "d", 1.5, ("1,2",))
    assert (ply, seat, text, description, seconds, places) == (2, 0, "t", "d", 1.5, ("1,2",))


def test_places_only_where_the_text_may_be_read(game: Game[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    match = played(game)
    state = match.state
    played_by_0 = [k for k, p in enumerate(state.plies()) if p.player == 0 and places_of(p)]
    assert played_by_0

    def redact(self: State[Any], actor: int, action: Any, text: str, viewer: int | None) -> str:
        return "a card" if actor == 0 and viewer != 0 else text

    monkeypatch.setattr(type(state), "redact", redact)
    for viewer in (1, None):
        log = match.log(viewer)
        for k in played_by_0:
            assert log[k].text == "a card" and log[k].places == () and log[k].description == ""
    own = match.log(0)
    assert all(own[k].places == places_of(state.plies()[k]) for k in played_by_0)
    assert match.log(OMNISCIENT) == own


def test_places_survive_undo_restore_and_records(game: Game[Any]) -> None:
    match = played(game, plies=10)
    before = match.log()
    again = Match.from_record(match.record(), game=game, seed=match.seed)
    assert [e.places for e in again.log()] == [e.places for e in before]
    trusted = Match(game, [Seat.human("Ada"), Seat.human("Bo")], seed=match.seed)
    trusted.restore(match.record(), trusted=True)
    assert [e.places for e in trusted.log()] == [e.places for e in before]

    last = next(p.player for p in reversed(match.state.plies()) if p.player >= 0)
    count = match.undo(last)
    assert count >= 1
    assert [e.places for e in match.log()] == [e.places for e in before[: len(before) - count]]
    match.truncate(4)
    assert [e.places for e in match.log()] == [e.places for e in before[:4]]
    match.advance()
    state = match.state
    if match.waiting_for_person():
        entry = match.play(state.current_player, state.legal_actions()[0])
        assert entry.places == places_of(state.last_ply()) == match.log()[-1].places
    assert len(match.log()) == match.state.ply


def test_no_description_no_places(game: Game[Any]) -> None:
    match = played(game, describe=False)
    assert all(e.places == () and e.description == "" for e in match.log())
