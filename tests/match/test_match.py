"""The match layer: the one loop, takeback policy, resign, clocks, records (docs/match.md)."""

from __future__ import annotations

import pytest

import regalia
from regalia.core.errors import IllegalAction, OptionError, RecordError, ReplayDivergence
from regalia.core.game import CHANCE, TERMINAL
from regalia.core.record import Record, replay
from regalia.match import (
    ConsentNeeded,
    Match,
    MatchError,
    NotYourTurn,
    Seat,
    SeatError,
    TimeControl,
)


class FakeTime:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def court(*seats: Seat, **kwargs: object) -> Match:
    return Match(regalia.load_game("royal-court"), list(seats), seed=0, **kwargs)  # type: ignore[arg-type]


def first_legal(match: Match) -> str:
    state = match.state
    return state.notation(state.legal_actions()[0])


def finish_turn(match: Match, seat: int) -> int:
    """Play ``seat``'s first legal actions until its turn is over; returns the plies played."""
    count = 0
    while match.to_act == seat:
        match.play(seat, first_legal(match))
        count += 1
    return count


def test_advance_stops_at_a_person_and_plays_computers_and_chance() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    entries = match.advance()
    assert entries[0].seat == CHANCE
    assert all(e.seat in (CHANCE, 1) for e in entries)
    assert match.to_act == 0 and match.waiting_for_person()
    assert match.advance() == []  # a person is to act: nothing happens by itself


def test_advance_without_computers_stops_before_a_computer_seat() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance(computers=False)
    assert match.to_act == 1 and not match.waiting_for_person()
    assert match.state.ply == 1


def test_a_refused_move_names_the_rule_and_changes_nothing() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance()
    before = match.state.to_json()
    with pytest.raises(IllegalAction, match=r"\[ruling RC-joker-optional\]"):
        match.play(0, "pass")
    with pytest.raises(NotYourTurn, match="not your turn"):
        match.play(1, first_legal(match))
    assert match.state.to_json() == before and len(match.log()) == match.state.ply


def test_undo_against_the_computer_goes_back_to_the_persons_last_decision() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance()
    at = match.state.ply
    played = finish_turn(match, 0)
    replies = match.advance()
    assert replies and match.to_act == 0
    # the person's last decision (the last ply of the turn) and the replies after it
    assert match.undo(0) == 1 + len(replies)
    assert match.state.ply == at + played - 1 and match.to_act == 0


def test_undo_needs_consent_online_and_not_after_the_other_person_moved() -> None:
    match = court(Seat.human(), Seat.human(), consent=True)
    match.advance()
    seat = match.to_act
    finish_turn(match, seat)
    with pytest.raises(ConsentNeeded):
        match.undo(seat)
    other = match.to_act
    assert other != seat
    match.play(other, first_legal(match))
    with pytest.raises(MatchError, match="another player has moved"):
        match.takeback(seat)
    assert match.undo(other, consented=True) == 1


def test_nothing_to_take_back_before_a_persons_first_move() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance()
    with pytest.raises(MatchError, match="no move of yours"):
        match.undo(0)
    with pytest.raises(MatchError, match="only a person"):
        match.undo(1)


def test_resign_ranks_the_seat_last_and_the_record_replays_it() -> None:
    match = court(Seat.human("Ada"), Seat.computer("greedy"))
    match.advance()
    match.resign(0)
    assert match.is_over() and match.to_act == TERMINAL and match.winner() == 1
    assert match.returns() == [-1.0, 1.0]
    with pytest.raises(MatchError, match="over"):
        match.play(0, "pass")
    record = Record.loads(match.record().dumps())
    assert record.ending == {"reason": "resign", "seat": 0}
    again = Match.from_record(record)
    assert again.is_over() and again.returns() == [-1.0, 1.0] and again.names()[0] == "Ada"
    replay(record)  # the engine's replay accepts a record that ended by resignation


def test_a_record_with_an_ending_but_a_finished_game_is_refused() -> None:
    match = Match(regalia.load_game("two-heirs"), [Seat.computer("random"), Seat.computer("random")], seed=2)
    match.advance()
    doc = match.record().to_json()
    doc["ending"] = {"reason": "resign", "seat": 0}
    with pytest.raises(ReplayDivergence, match="game is over"):
        replay(doc)
    doc["ending"] = {"reason": "boredom", "seat": 0}
    with pytest.raises(RecordError, match=r"ending\.reason"):
        Record.from_json(doc)


def test_fischer_clock_counts_each_turn_and_adds_the_increment() -> None:
    now = FakeTime()
    match = court(Seat.human(), Seat.human(), time_control=TimeControl.parse("fischer:60+5"), now=now)
    match.advance()
    seat = match.to_act
    now.t += 10
    finish_turn(match, seat)  # the first ply after 10 s, the rest of the turn at once
    assert match.remaining(seat) == pytest.approx(55.0)
    times = [t for t in match.record().times if t is not None]
    assert times[0] == pytest.approx(10.0)


def test_a_fallen_flag_ends_the_game_as_a_loss_for_that_seat() -> None:
    now = FakeTime()
    match = court(Seat.human(), Seat.human(), time_control=TimeControl.parse("move:30"), now=now)
    match.advance()
    seat = match.to_act
    now.t += 31
    with pytest.raises(MatchError, match="time is up"):
        match.play(seat, first_legal(match))
    assert match.ending is not None and match.ending.reason == "time" and match.returns()[seat] == -1.0


def test_a_flag_that_only_shows_lets_the_game_go_on() -> None:
    now = FakeTime()
    tc = TimeControl.parse("move:30", flag="continue")
    match = court(Seat.human(), Seat.human(), time_control=tc, now=now)
    match.advance()
    now.t += 31
    match.play(match.to_act, first_legal(match))
    assert not match.is_over()


def test_time_controls_parse_and_refuse() -> None:
    assert TimeControl.parse("days:2").seconds == 2 * 86400
    assert TimeControl.parse("300+2") == TimeControl("fischer", 300, 2)
    assert TimeControl.from_json(TimeControl.parse("move:30").to_json()).text == "move:30"
    with pytest.raises(OptionError, match="expected none"):
        TimeControl.parse("blitz")


def test_seats_are_checked_against_the_game() -> None:
    solo = regalia.load_game("two-heirs", solo=True)
    with pytest.raises(SeatError, match="played by the rules"):
        Match(solo, [Seat.human(), Seat.human()])
    with pytest.raises(SeatError, match="has 2 seats"):
        Match(regalia.load_game("royal-court"), [Seat.human()])
    match = Match(solo, seed=3)
    assert [s.kind for s in match.seats].count("automaton") == 1


def test_manual_chance_waits_for_a_person_and_can_be_taken_back() -> None:
    match = Match(regalia.load_game("carcassonne"), [Seat.human(), Seat.human()], seed=1, manual_chance=True)
    assert match.advance() == [] and match.to_act == CHANCE and match.waiting_for_person()
    outcome = match.state.chance_outcomes()[0][0]
    match.play(CHANCE, match.state.notation(outcome))
    assert match.state.ply == 1
    assert match.undo(match.state.current_player if match.state.current_player >= 0 else 0) == 1


def test_the_log_describes_each_ply_and_the_record_round_trips() -> None:
    match = Match(
        regalia.load_game("carcassonne"), [Seat.computer("random"), Seat.computer("random")], seed=4
    )
    match.advance()
    log = match.log()
    assert len(log) == match.state.ply and any(e.description for e in log)
    again = Match.from_record(Record.loads(match.record().dumps()), seed=4)
    assert again.state.to_json() == match.state.to_json()
    assert [e.text for e in again.log()] == [e.text for e in log]


def test_hint_is_for_the_seat_to_act() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance()
    assert match.state.is_legal(match.hint(0, agent="greedy"))
    with pytest.raises(NotYourTurn):
        match.hint(1, agent="greedy")


def test_a_record_without_times_restores_without_times_and_a_trusted_one_unchecked() -> None:
    match = Match(
        regalia.load_game("royal-court"), [Seat.computer("random"), Seat.computer("random")], seed=5
    )
    match.advance()
    doc = match.record().to_json()
    assert doc["times"]  # the computers' plies were timed
    del doc["times"]
    again = Match.from_record(Record.from_json(doc))
    assert again.record().times == () and all(e.seconds is None for e in again.log())
    trusted = Match.from_record(match.record(), trusted=True)
    assert trusted.state.to_json() == match.state.to_json()
    assert trusted.record().times == match.record().times


def test_the_record_carries_the_time_control_and_the_clocks_go_on_from_it() -> None:
    now = FakeTime()
    match = court(Seat.human(), Seat.human(), time_control=TimeControl.parse("fischer:60+5"), now=now)
    match.advance()
    seat = match.to_act
    now.t += 20
    finish_turn(match, seat)
    record = Record.loads(match.record().dumps())
    assert record.time_control == {"kind": "fischer", "seconds": 60.0, "increment": 5.0, "flag": "loss"}
    again = Match.from_record(record, now=now)
    assert again.time_control == match.time_control
    assert again.remaining(seat) == pytest.approx(45.0)
    doc = record.to_json()
    doc["time_control"] = "fast"
    with pytest.raises(RecordError, match="time_control"):
        Record.from_json(doc)


def test_a_restored_match_resumes_the_running_clock_from_when_the_turn_began() -> None:
    now = FakeTime()
    match = court(Seat.human(), Seat.human(), time_control=TimeControl.parse("fischer:60+5"), now=now)
    match.advance()
    seat = match.to_act
    since = match.clock_since()
    assert since == now.t
    now.t += 50  # the seat thinks; meanwhile the match is stored and read again
    again = Match.from_record(match.record(), now=now)
    assert again.remaining(seat) == pytest.approx(60.0)  # counted from the restore
    assert since is not None
    again.resume_clock(since)
    assert again.remaining(seat) == pytest.approx(10.0)  # counted from when the turn began
    now.t += 11
    assert again.check_time() and again.ending is not None and again.ending.seat == seat
    assert again.clock_since() is None
    again.resume_clock(0.0)  # no clock runs: nothing changes
    assert again.clock_since() is None


def test_a_resigned_record_whose_scores_disagree_with_the_replay_is_refused() -> None:
    match = court(Seat.human(), Seat.computer("greedy"))
    match.advance()
    match.resign(0)
    doc = match.record().to_json()
    doc["result"]["scores"] = [99, 0]
    with pytest.raises(ReplayDivergence, match="recorded scores"):
        replay(doc)
