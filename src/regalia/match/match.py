"""A match: a game, its seats, its secret source of chance, its clocks, and the one game loop.

Every front end (the terminal, the server, the lab, the research adapters, the benchmarks, the
conformance kit) runs games through a :class:`Match`: :meth:`Match.advance` applies chance's
draws, automata's steps and computer seats' moves until a person is to act or the game is over;
:meth:`Match.play` checks and applies a person's move (a refusal names the rule and changes
nothing); :meth:`Match.undo` takes back through one policy (:meth:`Match.takeback`);
:meth:`Match.hint`, :meth:`Match.resign` and the clocks are here once.

>>> import regalia
>>> from regalia.match import Match, Seat
>>> game = regalia.load_game("royal-court")
>>> match = Match(game, [Seat.human("Ada"), Seat.computer("greedy")], seed=0)
>>> [entry.text for entry in match.advance()]   # chance: blue begins; the computer plays blue
['first blue', 'play Bishop 3,-1', 'move 3,-1 4,0']
>>> match.to_act, match.play(1, "pass")
Traceback (most recent call last):
...
regalia.match.match.NotYourTurn: it is not your turn: seat 1 (Ada) is to act
>>> entry = match.play(0, match.state.notation(match.state.legal_actions()[0]))
>>> replies = match.advance()                   # the computer's reply; then Ada again
>>> match.to_act, match.takeback(0) == 1 + len(replies)  # back to Ada's move, with the reply
(0, True)
>>> match.undo(0) and match.state.ply
3
>>> match.resign(0)
>>> match.is_over(), match.returns(), match.record().ending
(True, [-1.0, 1.0], {'reason': 'resign', 'seat': 0})
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Final, NamedTuple

from regalia.ai.base import Agent, close_agent, observe_agent, reset_agent
from regalia.ai.registry import agent_from_spec
from regalia.core.errors import RecordError, RegaliaError, ReplayDivergence
from regalia.core.game import (
    CHANCE,
    OMNISCIENT,
    TERMINAL,
    Game,
    Ply,
    State,
    fresh_seed,
    ranked_returns,
    single_best,
)
from regalia.core.record import Record, check_ending, check_result, initial_state
from regalia.match.chance import ChanceSource, SeededChance
from regalia.match.clock import Clock, ClockError, TimeControl
from regalia.match.seats import AUTOMATON, COMPUTER, HUMAN, Seat, SeatError

#: The agent a hint asks, wherever a hint is given.
HINT_AGENT: Final = "mcts:medium"
#: A game longer than this many plies stops with an error (a game that never ends is a bug).
MAX_PLIES: Final = 100_000


class MatchError(RegaliaError):
    """A request the match refuses (the game is over, nothing to take back...); nothing changed."""


class NotYourTurn(MatchError):
    """A seat acted out of turn."""


class ConsentNeeded(MatchError):
    """A takeback that the other side must allow first (online play)."""


@dataclasses.dataclass(frozen=True)
class Ending:
    """A game ended that its rules did not end, by ``seat``: ``reason`` ``resign``, ``time`` (its
    flag fell) or ``abandon`` (it was to act and nobody moved for too long: a server's
    abandonment). That seat ranks last, as after a resignation."""

    reason: str
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "seat": self.seat}


class LogEntry(NamedTuple):
    """One ply as a log shows it: its index from 0, the seat (or :data:`CHANCE`), the notation as
    the viewer may read it, what it did in the words of the rules ("" when hidden), the
    seconds its seat used (``None`` for chance and automata), and where on the board it happened
    (``Plugin.places``: ``data-pos`` values; ``()`` when hidden, or not described)."""

    ply: int
    seat: int
    text: str
    description: str
    seconds: float | None
    places: tuple[str, ...] = ()


class Match:
    """One game between seats (see the module's doc).

    ``seats``: one :class:`Seat` per seat (default: people, and the automaton where the rules
    play a seat). ``seed``: the secret seed of chance (and of the computer seats' generators);
    ``chance``: the source of draws (default :class:`SeededChance` of the seed); with
    ``manual_chance`` chance's outcomes are entered by a person (a draw at a real table) through
    :meth:`play` as ``CHANCE``. ``time_control``: the clocks; ``consent``: a takeback needs the
    other people's consent (online play). ``agents``: agents already built, by seat (instead of
    the seats' specs); ``agent_rngs``: their generators by seat (default: drawn from the seed at
    each decision). ``describe``: keep the rules' description of each ply for :meth:`log`.
    ``now``: the clock's time source (default ``time.monotonic``).
    """

    def __init__(
        self,
        game: Game[Any],
        seats: Sequence[Seat] | None = None,
        *,
        seed: int | None = None,
        chance: ChanceSource | None = None,
        manual_chance: bool = False,
        time_control: TimeControl | None = None,
        consent: bool = False,
        agents: dict[int, Agent] | None = None,
        agent_rngs: dict[int, random.Random] | None = None,
        describe: bool = True,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.game = game
        self.seats = _checked_seats(game, seats)
        self.seed = fresh_seed() if seed is None else seed
        self.chance = chance if chance is not None else SeededChance(self.seed)
        self.manual_chance = manual_chance
        self.time_control = time_control or TimeControl()
        self.clock = Clock(self.time_control, len(self.seats))
        self.consent = consent
        self.ending: Ending | None = None
        self.state: State[Any] = game.initial_state()
        self.state.seed = self.seed
        self.now = now or time.monotonic
        self._describe = describe
        self._plugin = game.plugin()
        self._times: list[float | None] = []
        self._notes: list[str] = []
        #: Per ply: where it happened on the board (``Plugin.places``), kept beside its note.
        self._places: list[tuple[str, ...]] = []
        self._agents: dict[int, Agent] = dict(agents or {})
        self._agent_rngs = agent_rngs
        #: The seat whose turn is in progress on the clock (it has made a timed ply of the turn).
        self._turn: int | None = None
        #: Per seat: the decisions taken and the seconds they took (the lab's figures).
        self.decisions = [0] * len(self.seats)
        self.seconds = [0.0] * len(self.seats)
        self._start_clock()

    # -- where the match stands -------------------------------------------------------------
    @property
    def to_act(self) -> int:
        """The seat to act, :data:`CHANCE`, or :data:`TERMINAL` once the match is over."""
        return TERMINAL if self.is_over() else self.state.current_player

    def is_over(self) -> bool:
        """True once the game is over, by its rules or by a resignation, a fallen flag or an
        abandonment."""
        return self.ending is not None or self.state.is_terminal()

    def kind(self, player: int) -> str:
        """Who acts for ``player``: ``human``, ``computer``, ``automaton`` or ``chance`` (a person
        when chance is entered by hand)."""
        if player == CHANCE:
            return HUMAN if self.manual_chance else "chance"
        return self.seats[player].kind

    def waiting_for_person(self) -> bool:
        """True when a person is to act (the match does not go on by itself)."""
        return not self.is_over() and self.kind(self.state.current_player) == HUMAN

    def people(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.is_person]

    def names(self) -> list[str]:
        """The seats' display names (a seat's own name, else the game's name for it)."""
        game_names = self.state.seat_names()
        return [seat.name or game_names[s] for s, seat in enumerate(self.seats)]

    def scores(self) -> list[int]:
        return self.state.scores()

    def returns(self) -> list[float]:
        """Per seat in [-1, 1]: the game's returns, or, after a resignation, a fallen flag or an
        abandonment, that seat last and the others ranked by their scores."""
        if self.ending is None:
            return self.state.returns()
        scores = self.state.scores()
        return ranked_returns([(s != self.ending.seat, scores[s]) for s in range(len(scores))])

    def winner(self) -> int | None:
        """The seat with the single best return once over (``None``: shared, a draw, not over)."""
        return single_best(self.returns()) if self.is_over() else None

    def remaining(self, seat: int) -> float:
        """The seconds ``seat`` has left on its clock (infinite without a time control)."""
        return self.clock.remaining(seat, self.now())

    def clock_since(self) -> float | None:
        """When the running clock started (a time of ``now``'s; ``None``: no clock runs): what a
        store keeps so that :meth:`resume_clock` goes on from it."""
        return self.clock.since if self.clock.running is not None else None

    def resume_clock(self, since: float) -> None:
        """The running clock started at ``since`` (a time of ``now``'s), not when the match was
        restored: a match read again from a store counts the turn in progress from when it began
        (the turn's earlier plies are counted from their recorded times). No-op when no clock runs."""
        if self.clock.running is not None:
            self.clock.since = since

    # -- the loop ---------------------------------------------------------------------------
    def advance(
        self,
        on_ply: Callable[[LogEntry], None] | None = None,
        *,
        computers: bool = True,
        thinking: Callable[[int], AbstractContextManager[Any]] | None = None,
    ) -> list[LogEntry]:
        """Apply chance's draws, automata's steps and (with ``computers``) the computer seats'
        moves until a person is to act or the match is over; returns the log of what was applied
        (``on_ply(entry)`` is called after each). ``thinking(seat)`` is entered while a computer
        seat thinks (a progress spinner, a measurement)."""
        done: list[LogEntry] = []
        state = self.state
        timed = self.time_control.timed
        kinds = [seat.kind for seat in self.seats]
        manual = self.manual_chance
        while self.ending is None and not state.is_terminal() and not (timed and self.check_time()):
            player = state.current_player
            if player == CHANCE:
                if manual:
                    break
                kind = "chance"
            else:
                kind = kinds[player]
            if kind == "chance":
                action = state.sample_chance(self.chance.rng(state.ply))
            elif kind == AUTOMATON:
                action = state.forced_action()
            elif kind == COMPUTER and computers:
                if thinking is None:
                    action = self.choose()
                else:
                    with thinking(player):
                        action = self.choose()
            else:
                break
            entry = self._apply(action, checked=True)
            done.append(entry)
            if on_ply is not None:
                on_ply(entry)
            if state.ply > MAX_PLIES:
                raise MatchError(f"the game did not end in {MAX_PLIES} plies")
        return done

    def choose(self, agent: str | None = None) -> Any:
        """The move of the computer seat to act (or of ``agent``, a spec, for any seat: a hint),
        from a generator drawn from the match's seed; nothing is applied."""
        state = self.state
        seat = state.current_player
        if seat < 0:
            raise MatchError("no seat is to act")
        if agent is not None:
            hinter: Agent = agent_from_spec(agent)
            try:
                return hinter.choose(state, random.Random(f"{self.seed}:{state.ply}:hint"))
            finally:
                close_agent(hinter)  # built for this one move
        else:
            chooser: Agent = self._agents.get(seat) or self._agent(seat)
            rngs = self._agent_rngs
            rng = rngs[seat] if rngs else random.Random(f"{self.seed}:{state.ply}:ai")
        return chooser.choose(state, rng)

    def play(self, seat: int, move: Any) -> LogEntry:
        """A person's move for ``seat`` (or :data:`CHANCE`, a draw entered by hand): notation text
        or an action. Refused with :class:`MatchError` (the game is over, not ``seat``'s turn, time
        is up) or the engine's error naming the rule; a refusal changes nothing."""
        state = self.state
        if self.is_over():
            raise MatchError("the game is over")
        if self.check_time():
            fallen = self.ending.seat if self.ending is not None else state.current_player
            raise MatchError(f"time is up for {self._who(fallen)}: the game is over")
        player = state.current_player
        if seat != player:
            raise NotYourTurn(f"it is not your turn: {self._who(player)} is to act")
        action = state.parse_action(move) if isinstance(move, str) else move
        return self._apply(action, checked=True)  # the engine checks before anything changes

    def hint(self, seat: int, agent: str = HINT_AGENT) -> Any:
        """What ``agent`` would play for ``seat``, which must be to act."""
        if self.is_over():
            raise MatchError("the game is over")
        if seat != self.state.current_player:
            raise NotYourTurn(f"a hint is given to the seat to act: {self._who(self.to_act)} is to act")
        return self.choose(agent)

    def resign(self, seat: int) -> None:
        """``seat`` resigns: the match is over and that seat ranks last (refused once the game is
        over, a fallen flag included: that seat lost on time first)."""
        if self.check_time() or self.is_over():
            raise MatchError("the game is over")
        if not 0 <= seat < len(self.seats):
            raise MatchError(f"no seat {seat}")
        self.ending = Ending("resign", seat)
        self.clock.pause()

    def abandon(self, seat: int | None = None) -> None:
        """``seat`` (default: the seat to act) abandoned the match: it is over and that seat ranks
        last, as after a resignation (a server ends a match nobody moved in for too long so).
        Refused once the game is over, a fallen flag included, or when no seat is to act."""
        if self.check_time() or self.is_over():
            raise MatchError("the game is over")
        if seat is None:
            seat = self.state.current_player
            if seat < 0:
                raise MatchError("no seat is to act")
        if not 0 <= seat < len(self.seats):
            raise MatchError(f"no seat {seat}")
        self.ending = Ending("abandon", seat)
        self.clock.pause()

    def check_time(self) -> bool:
        """End the match if the flag of the seat to act has fallen (with a ``loss`` time control);
        True when that happened now or before."""
        if self.ending is not None:
            return self.ending.reason == "time"
        fallen = self.clock.fallen(self.now())
        if fallen is None or self.time_control.flag != "loss":
            return False
        self.ending = Ending("time", fallen)
        self.clock.pause()
        return True

    # -- taking back ------------------------------------------------------------------------
    def takeback(self, seat: int) -> int:
        """How many plies an undo by ``seat`` takes back, by the one policy: back to (and with)
        the seat's last decision, with whatever chance, automata and computers played after it,
        as long as no other person has acted since. Raises :class:`MatchError` saying why not."""
        if self.is_over():
            raise MatchError("the game is over: nothing can be taken back")
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            raise MatchError("only a person's moves are taken back")
        actors = self.state.actors()
        own = {seat, CHANCE} if self.manual_chance else {seat}
        last = next((k for k in range(len(actors) - 1, -1, -1) if actors[k][0] in own), None)
        if last is None:
            raise MatchError("there is no move of yours to take back")
        for player, _ in actors[last + 1 :]:
            if player >= 0 and self.seats[player].is_person and player != seat:
                raise MatchError("another player has moved since: your move can no longer be taken back")
        return len(actors) - last

    def needs_consent(self, seat: int) -> bool:
        """True if a takeback by ``seat`` must first be allowed by another person."""
        return self.consent and any(s != seat for s in self.people())

    def undo(self, seat: int, consented: bool = False) -> int:
        """Take back as :meth:`takeback` says (the other side's consent given, where it is needed);
        returns the number of plies taken back. Refused once a flag has fallen (found now, or
        before): the time spent on a move is not won back by taking the move back."""
        self.check_time()
        count = self.takeback(seat)
        if self.needs_consent(seat) and not consented:
            raise ConsentNeeded("the other side must allow the takeback first")
        self.truncate(self.state.ply - count)
        return count

    def truncate(self, keep: int) -> None:
        """Go back to the position after the first ``keep`` plies (the match layer's undo; a
        server also uses it to take back what it could not store)."""
        actions = [action for _, action in self.state.actors()[:keep]]
        times, notes, places = self._times[:keep], self._notes[:keep], self._places[:keep]
        state = self.game.initial_state()
        state.seed = self.seed
        for action in actions:
            state.apply(action)
        self.state, self._times, self._notes, self._places = state, times, notes, places
        self.ending = None
        for agent in self._agents.values():
            reset_agent(agent)
        self._replay_clock()

    # -- the log and the record ---------------------------------------------------------------
    def log(self, viewer: int | None = OMNISCIENT, start: int = 0) -> list[LogEntry]:
        """The plies from ``start`` on as ``viewer`` may read them, with their descriptions and
        places (both only where the viewer may read the ply's text)."""
        state = self.state
        notes, places, times = self._notes, self._places, self._times
        out = []
        for k, ply in enumerate(state.plies(start), start=start):
            text = (
                ply.text if viewer == OMNISCIENT else state.redact(ply.player, ply.action, ply.text, viewer)
            )
            readable = text == ply.text
            note = notes[k] if k < len(notes) and readable else ""
            where = places[k] if k < len(places) and readable else ()
            seconds = times[k] if k < len(times) else None
            out.append(LogEntry(k, ply.player, text, note, seconds, where))
        return out

    def record(self, viewer: int | None = OMNISCIENT) -> Record:
        """The record as ``viewer`` may see it: the plies, who played, the times, and how the game
        ended (the result once over)."""
        record: Record = self.state.record(viewer)
        record = dataclasses.replace(
            record,
            seats=tuple(self.names()),
            players=tuple(seat.label for seat in self.seats),
            times=tuple(self._times) if any(t is not None for t in self._times) else (),
        )
        if self.time_control.timed:
            record = dataclasses.replace(record, time_control=self.time_control.to_json())
        if self.ending is not None:
            result = {"scores": self.scores(), "returns": self.returns(), "winner": self.winner()}
            record = dataclasses.replace(record, ending=self.ending.to_json(), result=result)
        return record

    @classmethod
    def from_record(
        cls,
        record: Record,
        seats: Sequence[Seat] | None = None,
        *,
        game: Game[Any] | None = None,
        trusted: bool = False,
        **kwargs: Any,
    ) -> Match:
        """The match a record describes, every ply checked (``ReplayDivergence`` names the first
        that fails) unless ``trusted`` (a record this program wrote and stored), seats from its
        ``players`` unless given, its time control unless one is given; ``kwargs`` as for
        :class:`Match` (the seed for what follows)."""
        game = initial_state(record, game=game).game
        if record.time_control is not None and kwargs.get("time_control") is None:
            try:
                kwargs["time_control"] = TimeControl.from_json(record.time_control)
            except ClockError as exc:
                raise RecordError(f"field 'time_control': {exc}") from None
        if seats is None and record.players:
            names = record.seats
            try:
                seats = _checked_seats(
                    game,
                    [
                        dataclasses.replace(Seat.from_label(label), name=names[s] if s < len(names) else "")
                        for s, label in enumerate(record.players)
                    ],
                )
            except SeatError as exc:
                raise RecordError(f"field 'players': {exc}") from None
        match = cls(game, seats, **kwargs)
        match.restore(record, trusted=trusted)
        return match

    def restore(self, record: Record, trusted: bool = False) -> None:
        """Play a new match's plies from ``record`` (checked unless ``trusted``), with their times
        (none measured: a record without times gives plies without times) and its ending."""
        if self.state.ply:
            raise MatchError("a record is restored into a new match")
        state = self.state
        for ply, text in enumerate(record.actions, start=1):
            seconds = record.times[ply - 1] if record.times else None
            try:  # checked once, by the engine's apply, before anything changes (unless trusted)
                self._apply(state.parse_action(text), checked=not trusted, seconds=seconds, measured=False)
            except RegaliaError as exc:
                raise ReplayDivergence(ply, text, str(exc)) from None
        if record.ending is not None:
            check_ending(record.ending, len(self.seats))
        check_result(record, state)  # an ending only where the rules have not ended the game
        if record.ending is not None:
            self.ending = Ending(str(record.ending["reason"]), int(record.ending["seat"]))
        self._replay_clock()

    # -- inside ---------------------------------------------------------------------------------
    def _apply(
        self, action: Any, checked: bool, seconds: float | None = None, measured: bool = True
    ) -> LogEntry:
        """Apply ``action``; the seconds its seat used are measured on the clock unless given
        (``seconds``, or none at all when not ``measured``: a restored ply)."""
        state = self.state
        player = state.current_player
        acting = player >= 0 and self.seats[player].kind != AUTOMATON
        if checked:
            state.apply(action)
            ply = state.last_ply()
        else:
            ply = Ply(player, action, state.notation(action))
            state.apply_unchecked(action)
        nxt = state.current_player
        now = self.now()
        used: float | None = None
        if acting:
            measure = seconds is None and measured
            used = self.clock.take(player, now) if measure else seconds
            self.decisions[player] += 1
            self.seconds[player] += used or 0.0
            if used is not None:
                self._turn = player
        self._end_turn(self.clock, nxt)
        self._times.append(used)
        if self._describe:
            note = self._plugin.describe(state, ply)
            where = tuple(self._plugin.places(state, ply))
        else:
            note, where = "", ()
        self._notes.append(note)
        self._places.append(where)
        if player >= 0 and self._agents:
            for other, agent in self._agents.items():
                if other != player:
                    observe_agent(agent, state)
        if nxt >= 0 and self.ending is None and self.seats[nxt].kind != AUTOMATON:
            self.clock.start(nxt, now)
        else:
            self.clock.pause()
        return LogEntry(state.ply - 1, player, ply.text, note, used, where)

    def _start_clock(self) -> None:
        state = self.state
        player = state.current_player
        if player < 0 or self.ending is not None or self.seats[player].kind == AUTOMATON:
            self.clock.pause()
        else:
            self.clock.start(player, self.now())

    def _end_turn(self, clock: Clock, nxt: int) -> None:
        """After a ply, with ``nxt`` to act: the turn in progress is over once a seat other than
        its own is to act or the game is over (chance's draws inside a turn do not end it: The
        Two Heirs' take, its draws, build..., end is one turn, with one increment)."""
        turn = self._turn
        if turn is not None and nxt != CHANCE and nxt != turn:
            clock.end_turn(turn)
            self._turn = None

    def _replay_clock(self) -> None:
        """Count the clocks again from the plies' recorded times (after an undo or a restore),
        turn by turn as :meth:`_apply` counts them."""
        clock = Clock(self.time_control, len(self.seats))
        self._turn = None
        actors = self.state.actors()
        for k, (player, _) in enumerate(actors):
            used = self._times[k] if k < len(self._times) else None
            if player >= 0 and self.seats[player].kind != AUTOMATON and used is not None:
                clock.charge(player, float(used))
                self._turn = player
            nxt = actors[k + 1][0] if k + 1 < len(actors) else self.state.current_player
            self._end_turn(clock, nxt)
        self.clock = clock
        self._start_clock()

    def _agent(self, seat: int) -> Agent:
        agent = self._agents.get(seat)
        if agent is None:
            spec = self.seats[seat].agent
            if spec is None:
                raise MatchError(f"{self._who(seat)} has no computer player")
            agent = self._agents[seat] = agent_from_spec(spec)
            reset_agent(agent)
        return agent

    def _who(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        if player == TERMINAL:
            return "no one"
        return f"seat {player + 1} ({self.names()[player]})"


def _checked_seats(game: Game[Any], seats: Sequence[Seat] | None) -> list[Seat]:
    """The seats of a match: given ones checked against the game (an automaton exactly where the
    rules play a seat), or people and the rules' automata."""
    automata = game.automaton_seats()
    n = game.num_players
    if seats is None:
        return [Seat.automaton() if s in automata else Seat.human() for s in range(n)]
    if len(seats) != n:
        raise SeatError(f"seats: {game.name} with these options has {n} seats, not {len(seats)}")
    for s, seat in enumerate(seats):
        if (seat.kind == AUTOMATON) != (s in automata):
            which = "is played by the rules (an automaton)" if s in automata else "is not an automaton's"
            raise SeatError(f"seats[{s}]: seat {s + 1} {which}")
    return list(seats)


__all__ = [
    "HINT_AGENT",
    "MAX_PLIES",
    "ConsentNeeded",
    "Ending",
    "LogEntry",
    "Match",
    "MatchError",
    "NotYourTurn",
]
