"""The match layer: one game loop under every front end (docs/match.md).

A :class:`Match` holds a game, its seats (people, computers by agent spec, the rules' automata),
its secret source of chance, its clocks, and the loop that runs it; the terminal, the server,
the lab, the research adapters, the benchmarks and the conformance kit all play through it.

>>> import regalia
>>> match = Match(regalia.load_game("two-heirs"), [Seat.computer("random"), Seat.computer("greedy")], seed=1)
>>> _ = match.advance()                 # two computers: the whole game
>>> match.is_over(), Match.from_record(match.record()).state.to_json() == match.state.to_json()
(True, True)
"""

from regalia.match.chance import ChanceSource, SeededChance, StateChance, StreamChance
from regalia.match.clock import Clock, ClockError, TimeControl
from regalia.match.match import (
    HINT_AGENT,
    MAX_PLIES,
    ConsentNeeded,
    Ending,
    LogEntry,
    Match,
    MatchError,
    NotYourTurn,
)
from regalia.match.seats import AUTOMATON, COMPUTER, HUMAN, Seat, SeatError

__all__ = [
    "AUTOMATON",
    "COMPUTER",
    "HINT_AGENT",
    "HUMAN",
    "MAX_PLIES",
    "ChanceSource",
    "Clock",
    "ClockError",
    "ConsentNeeded",
    "Ending",
    "LogEntry",
    "Match",
    "MatchError",
    "NotYourTurn",
    "Seat",
    "SeatError",
    "SeededChance",
    "StateChance",
    "StreamChance",
    "TimeControl",
]
