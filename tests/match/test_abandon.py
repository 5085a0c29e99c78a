"""The ``abandon`` ending (a server ends a match nobody moved in for too long, docs/server.md): the
seat to act ranks last as after a resignation, and the ending goes through the record, a restore
and ``regalia replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.errors import RecordError
from regalia.core.record import Record, check_ending, replay
from regalia.match import Ending, Match, MatchError, Seat


def court() -> Match:
    match = Match(regalia.load_game("royal-court"), [Seat.human("Ada"), Seat.human("Bo")], seed=0)
    match.advance()
    state = match.state
    match.play(state.current_player, state.legal_actions()[0])
    match.advance()
    return match


def test_the_seat_to_act_abandons_and_loses() -> None:
    match = court()
    seat = match.to_act
    assert seat >= 0
    match.abandon()
    assert match.is_over() and match.ending == Ending("abandon", seat)
    assert match.returns()[seat] == -1.0 and match.winner() == 1 - seat
    assert match.clock.running is None
    record = match.record()
    assert record.ending == {"reason": "abandon", "seat": seat}
    assert record.result is not None and record.result["winner"] == 1 - seat
    with pytest.raises(MatchError, match="over"):
        match.abandon()
    with pytest.raises(MatchError, match="over"):
        match.play(seat, match.state.legal_actions()[0])


def test_a_named_seat_and_refusals() -> None:
    match = court()
    with pytest.raises(MatchError, match="no seat 5"):
        match.abandon(5)
    assert not match.is_over()
    match.abandon(0)
    assert match.ending == Ending("abandon", 0)


def test_the_ending_round_trips() -> None:
    match = court()
    seat = match.to_act
    match.abandon()
    doc = match.record().to_json()
    loaded = Record.from_json(json.loads(json.dumps(doc)))
    assert loaded.ending == {"reason": "abandon", "seat": seat}
    again = Match.from_record(loaded)
    assert again.ending == Ending("abandon", seat) and again.is_over()
    assert again.returns() == match.returns() and again.record().to_json() == doc
    trusted = Match(match.game, match.seats, seed=match.seed)
    trusted.restore(loaded, trusted=True)
    assert trusted.ending == match.ending
    assert replay(loaded).ply == match.state.ply
    check_ending({"reason": "abandon", "seat": 1}, 2)
    with pytest.raises(RecordError, match="abandon"):
        check_ending({"reason": "gone", "seat": 1}, 2)


def test_regalia_replay_says_so(tmp_path: Path) -> None:
    match = court()
    seat = match.to_act
    match.abandon()
    path = tmp_path / "abandoned.json"
    path.write_text(json.dumps(match.record().to_json()))
    result = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert f"{match.names()[seat]} abandoned the match after" in result.output
