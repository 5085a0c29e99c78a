"""Properties of the match layer over random games with random takebacks, resignations and time:
the record always rebuilds the same match (position, ending, returns, clocks, log)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.record import Record, replay
from regalia.match import Match, MatchError, Seat, TimeControl

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("two-heirs", {}),
    ("two-heirs", {"solo": True}),
    ("royal-court", {}),
    ("carcassonne", {"players": 3}),
]


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def assert_rebuilt(match: Match, now: FakeTime) -> None:
    record = Record.loads(match.record().dumps())
    again = Match.from_record(record, now=now)
    since = match.clock_since()
    if since is not None:
        again.resume_clock(since)
    assert again.state.to_json() == match.state.to_json()
    assert again.ending == match.ending and again.returns() == match.returns()
    for seat in range(len(match.seats)):
        assert again.remaining(seat) == match.remaining(seat) or (
            abs(again.remaining(seat) - match.remaining(seat)) < 1e-6
        )
    assert again.log() == match.log()
    assert again.record() == match.record()
    replay(record)


operation = st.tuples(st.sampled_from(["play", "play", "play", "play", "undo", "resign"]), st.integers(0, 99))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    control=st.sampled_from(["none", "fischer:60+3", "move:20"]),
    flag=st.sampled_from(["loss", "continue"]),
    computer=st.booleans(),
    operations=st.lists(st.tuples(operation, st.sampled_from([0.0, 0.5, 3.0, 9.0])), max_size=30),
)
def test_the_record_rebuilds_the_match(
    game: tuple[str, dict[str, Any]],
    seed: int,
    control: str,
    flag: str,
    computer: bool,
    operations: list[tuple[tuple[str, int], float]],
) -> None:
    loaded = regalia.load_game(game[0], **game[1])
    automata = loaded.automaton_seats()
    seats = [
        Seat.automaton()
        if s in automata
        else Seat.computer("random")
        if computer and s == 1
        else Seat.human()
        for s in range(loaded.num_players)
    ]
    now = FakeTime()
    match = Match(loaded, seats, seed=seed, time_control=TimeControl.parse(control, flag=flag), now=now)
    match.advance()
    for (kind, pick), seconds in operations:
        if match.is_over():
            break
        now.t += seconds
        try:
            if kind == "undo":
                match.undo(pick % len(seats), consented=True)
            elif kind == "resign":
                match.resign(pick % len(seats))
            else:
                legal = match.state.legal_actions()
                match.play(match.to_act, legal[pick % len(legal)])
                match.advance()
        except MatchError:
            pass
        match.check_time()
        assert_rebuilt(match, now)
