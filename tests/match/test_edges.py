"""The match layer at its edges: turns broken by chance, clocks recounted, records read back."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.core.errors import RecordError, ReplayDivergence
from regalia.core.game import CHANCE
from regalia.core.record import Record, replay
from regalia.match import Ending, Match, MatchError, Seat, TimeControl


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def heirs(control: str, now: FakeTime, **kwargs: object) -> Match:
    game = regalia.load_game("two-heirs")
    match = Match(
        game,
        [Seat.human(), Seat.human()],
        seed=1,
        time_control=TimeControl.parse(control),
        now=now,
        **kwargs,  # type: ignore[arg-type]
    )
    match.advance()
    return match


def play_turn(match: Match, now: FakeTime, seconds: float) -> list[str]:
    """The seat to act plays its first legal actions, ``seconds`` each, until its turn is over
    (chance's draws inside it applied); returns the plies' notation."""
    seat = match.to_act
    texts = []
    while match.to_act == seat:
        now.t += seconds
        texts.append(match.play(seat, match.state.legal_actions()[0]).text)
        match.advance()
    return texts


@pytest.mark.parametrize(("control", "left"), [("fischer:300+5", 300 - 4 * 3 + 5), ("move:60", 60)])
def test_a_turn_broken_by_chances_draws_is_one_turn(control: str, left: float) -> None:
    now = FakeTime()
    match = heirs(control, now)
    seat = match.to_act
    now.t += 3
    match.play(seat, "take T2")  # the draws that refill the market follow, then the same seat
    match.advance()
    assert CHANCE in [p for p, _ in match.state.actors()[-3:]] and match.to_act == seat
    # the turn goes on: no increment yet, and a move clock still counts the take
    assert match.remaining(seat) == pytest.approx(300 - 3 if control.startswith("f") else 60 - 3)
    texts = play_turn(match, now, 3)
    assert texts[-1] == "end" and len(texts) == 3  # take, then build, step, end: 4 plies of 3 s
    assert match.remaining(seat) == pytest.approx(left)  # the increment added once


def test_a_restored_match_mid_turn_has_the_live_matchs_time() -> None:
    now = FakeTime()
    match = heirs("fischer:300+5", now)
    for _ in range(14):
        seat = match.to_act
        now.t += 3
        match.play(seat, match.state.legal_actions()[0])
        match.advance()
        again = Match.from_record(match.record(), now=now)
        since = match.clock_since()
        assert since is not None
        again.resume_clock(since)
        now.t += 1  # the seat to act thinks on, in both
        assert [again.remaining(s) for s in range(2)] == [match.remaining(s) for s in range(2)]
        now.t -= 1


def test_an_undo_inside_a_turn_recounts_its_time() -> None:
    now = FakeTime()
    match = heirs("fischer:300+5", now)
    seat = match.to_act
    play_turn(match, now, 2)  # seat's first turn: 4 plies, 8 s, one increment
    other = match.to_act
    now.t += 10
    match.play(other, match.state.legal_actions()[0])  # the take
    match.advance()
    now.t += 10
    match.play(other, match.state.legal_actions()[0])
    match.advance()
    assert match.undo(other) == 1  # the second ply of the turn: the take's 10 s stay counted
    assert match.remaining(seat) == pytest.approx(300 - 8 + 5)
    assert match.remaining(other) == pytest.approx(300 - 10)
    now.t += 4  # and the clock of the seat to act runs from the undo
    assert match.remaining(other) == pytest.approx(300 - 14)


def court(control: str, now: FakeTime) -> Match:
    game = regalia.load_game("royal-court")
    match = Match(
        game,
        [Seat.human(), Seat.computer("random")],
        seed=0,
        time_control=TimeControl.parse(control),
        now=now,
    )
    match.advance()
    return match


def test_a_fallen_flag_is_not_won_back_by_an_undo_nor_turned_into_a_resignation() -> None:
    now = FakeTime()
    match = court("fischer:10+0", now)
    seat = match.to_act
    now.t += 1
    while match.to_act == seat:
        match.play(seat, match.state.legal_actions()[0])
    match.advance()  # the computer's reply; the person thinks on past the flag
    now.t += 50
    with pytest.raises(MatchError, match="over"):
        match.undo(seat)
    assert match.ending == Ending("time", seat) and match.is_over()
    again = court("fischer:10+0", now)
    now.t += 50
    with pytest.raises(MatchError, match="over"):
        again.resign(1 - again.to_act)
    assert again.ending is not None and again.ending.reason == "time"


def test_a_move_after_the_flag_fell_names_the_fallen_seat_whoever_sends_it() -> None:
    now = FakeTime()
    match = court("move:10", now)
    fallen = match.to_act
    now.t += 20
    with pytest.raises(MatchError, match=rf"time is up for seat {fallen + 1} "):
        match.play(5, "pass")  # a seat that does not exist: refused, not an IndexError


def finished_record() -> dict[str, Any]:
    match = Match(regalia.load_game("royal-court"), [Seat.human(), Seat.computer("random")], seed=0)
    match.advance()
    match.play(match.to_act, match.state.legal_actions()[0])
    match.advance()
    match.resign(0)
    return match.record().to_json()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_control", {"kind": "fischer", "seconds": "x", "increment": 1, "flag": "loss"}, "seconds"),
        ("time_control", {"kind": "blitz", "seconds": 1, "increment": 1, "flag": "loss"}, "kind"),
        ("time_control", {"kind": "move", "seconds": 1, "flag": "draw"}, "flag"),
        ("time_control", {"kind": "move", "seconds": -1}, "seconds"),
        ("time_control", {"kind": "move", "minutes": 1}, "time_control"),
        ("times", [float("inf")] * 4, r"times\[0\]"),
    ],
)
def test_a_malformed_time_field_is_a_record_error_naming_it(field: str, value: Any, message: str) -> None:
    doc = finished_record()
    assert len(doc["actions"]) == 4
    doc[field] = value
    with pytest.raises(RecordError, match=message):
        replay(doc)
    with pytest.raises(RecordError, match=message):
        Match.from_record(Record.from_json(doc))


def test_a_time_control_the_match_refuses_is_a_record_error() -> None:
    doc = finished_record()
    doc["time_control"] = {"kind": "move", "seconds": 0, "increment": 0, "flag": "loss"}
    with pytest.raises(RecordError, match="time_control"):
        Match.from_record(Record.from_json(doc))


def test_players_that_do_not_fit_the_game_are_a_record_error() -> None:
    doc = finished_record()
    doc["players"] = ["human"]
    with pytest.raises(RecordError, match="players"):
        Match.from_record(Record.from_json(doc))
    doc["players"], doc["seats"] = ["human", "random"], ["Ada"]  # fewer names: the game's for the rest
    assert Match.from_record(Record.from_json(doc)).names() == ["Ada", "blue"]


def test_an_ending_on_a_game_over_by_its_rules_is_refused_with_or_without_a_result() -> None:
    match = Match(regalia.load_game("two-heirs"), [Seat.computer("random"), Seat.computer("random")], seed=2)
    match.advance()
    doc = match.record().to_json()
    doc["ending"], doc["result"] = {"reason": "resign", "seat": 0}, None
    with pytest.raises(ReplayDivergence, match="game is over"):
        replay(doc)
    with pytest.raises(ReplayDivergence, match="game is over"):
        Match.from_record(Record.from_json(doc))
