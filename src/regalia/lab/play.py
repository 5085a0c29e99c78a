"""Playing one game between agents: the unit of work that worker processes and Ray tasks run.

A :class:`GameJob` says everything a game needs (game, options, seed, agent spec per seat, agent
seeds), so a game's result depends on the job alone, not on the process or machine that plays it.
Jobs and results are small picklable values. With ``statistics=True`` the result also carries the
game's statistics hook (:meth:`regalia.core.plugin.Plugin.statistics`) of the finished game, counted
where the game was played (``regalia balance``).

>>> job = GameJob(0, "two-heirs", {}, ("greedy", "greedy"), (0, 1), 3, (1, 2), statistics=True)
>>> result = play_game(job)
>>> len(result.statistics), result.statistics[0]["score"] == result.scores[0]
(2, True)
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from regalia.ai import agent_from_spec, close_agent, reset_agent
from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import JSON, Game, State
from regalia.core.record import Record
from regalia.core.registry import load_game
from regalia.match import Match, MatchError, Seat, StreamChance


class LabError(RegaliaError):
    """A bad arena or ladder request (unknown backend, wrong number of agents, ...) or a failed run."""


@dataclasses.dataclass(frozen=True)
class GameJob:
    """One game to play. ``game`` is a registered id (with ``options``) or a :class:`Game`."""

    index: int
    game: str | Game[Any]
    options: JSON
    specs: tuple[str, ...]  # agent spec string per seat ("" for a seat the engine plays)
    agents: tuple[int, ...]  # the run's agent index per seat (-1 for a seat the engine plays)
    seed: int
    agent_seeds: tuple[int, ...]
    group: int = 0
    curves: bool = False
    record: bool = False
    statistics: bool = False


@dataclasses.dataclass
class GameResult:
    """What one game produced. ``curve[k]`` are the scores after ply ``k + 1``."""

    index: int
    group: int
    seed: int
    agents: tuple[int, ...]
    scores: list[int]
    returns: list[float]
    plies: int
    moves: list[int]  # decisions taken per seat
    seconds: list[float]  # time spent choosing, per seat
    curve: list[list[int]] | None = None
    record: JSON | None = None
    statistics: list[dict[str, float]] | None = None  # the plugin's hook, per seat (job.statistics)

    def outcome(self) -> tuple[Any, ...]:
        """The reproducible part of the result (timing left out)."""
        return (self.index, self.group, self.seed, self.agents, self.scores, self.returns, self.plies)


_GAMES: dict[str, Game[Any]] = {}


def resolve_game(game: str | Game[Any], options: JSON) -> Game[Any]:
    """The :class:`Game` of a job (registered games are built once per process)."""
    if not isinstance(game, str):
        return game
    key = game + json.dumps(options, sort_keys=True)
    found = _GAMES.get(key)
    if found is None:
        found = _GAMES[key] = load_game(game, **options)
    return found


@dataclasses.dataclass
class PlayedGame:
    """A finished game of a job: its final state, the decisions taken and the seconds spent per seat."""

    state: State[Any]
    moves: list[int]
    seconds: list[float]
    automata: frozenset[int]


class _Thinking:
    """The context each agent decision runs in: ``on_decision(state)`` first, then the seconds the
    agent takes, added to its seat's (the lab's figures time the agent alone)."""

    def __init__(self, match: Match, on_decision: Callable[[State[Any]], None] | None, n: int) -> None:
        self.match = match
        self.on_decision = on_decision
        self.seconds = [0.0] * n
        self.seat = 0
        self.start = 0.0

    def __call__(self, seat: int) -> _Thinking:
        self.seat = seat
        return self

    def __enter__(self) -> None:
        if self.on_decision is not None:
            self.on_decision(self.match.state)
        self.start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.seconds[self.seat] += time.perf_counter() - self.start


def run_game(
    job: GameJob,
    on_decision: Callable[[State[Any]], None] | None = None,
    on_ply: Callable[[State[Any]], None] | None = None,
) -> PlayedGame:
    """Play ``job`` to the end as a :class:`~regalia.match.Match`: chance draws from
    ``random.Random(job.seed)`` (:class:`~regalia.match.StreamChance`), seats the rules play
    themselves (a solo automaton) take their forced steps, every other seat asks its agent (built
    from its spec, with ``random.Random`` of its agent seed).

    ``on_decision(state)`` is called before each agent's decision, ``on_ply(state)`` after each ply.
    """
    game = resolve_game(job.game, job.options)
    n = game.num_players
    automata = frozenset(game.automaton_seats())
    specs = [job.specs[s] if s < len(job.specs) else "" for s in range(n)]
    seats = [
        Seat.automaton() if s in automata else Seat.computer(spec) if spec else Seat.human()
        for s, spec in enumerate(specs)
    ]
    agents = {s: agent_from_spec(spec) for s, spec in enumerate(specs) if spec and s not in automata}
    for agent in agents.values():
        reset_agent(agent)
    match = Match(
        game,
        seats,
        seed=job.seed,
        chance=StreamChance(job.seed),
        agents=agents,
        agent_rngs={s: random.Random(seed) for s, seed in enumerate(job.agent_seeds)},
        describe=False,
        now=time.perf_counter,
    )
    # the agents' seconds are the match's (each decision and its ply), unless on_decision runs
    # before each: then the agent alone is timed, in the thinking context
    thinking = None if on_decision is None else _Thinking(match, on_decision, n)
    ply_hook = None if on_ply is None else (lambda _entry: on_ply(match.state))
    try:
        match.advance(ply_hook, thinking=thinking)
    except IllegalAction as exc:
        seat = match.state.current_player
        raise LabError(
            f"agent {specs[seat]!r} chose an illegal action in game {job.index}"
            f" (seed {job.seed}) at ply {match.state.ply + 1}: {exc}"
        ) from None
    except MatchError as exc:
        raise LabError(f"game {job.index} (seed {job.seed}): {exc}") from None
    finally:
        for agent in agents.values():
            close_agent(agent)
    if not match.is_over():
        raise LabError(
            f"game {job.index} (seed {job.seed}): seat {match.state.current_player} to move has no agent"
        )
    seconds = list(match.seconds) if thinking is None else thinking.seconds
    return PlayedGame(match.state, list(match.decisions), seconds, automata)


def play_game(job: GameJob) -> GameResult:
    """Play ``job`` to the end (:func:`run_game`) and return its result."""
    curve: list[list[int]] | None = [] if job.curves else None
    played = run_game(job, on_ply=None if curve is None else lambda s: curve.append(list(s.scores())))
    state = played.state
    record = None
    if job.record:
        rec = Record.of_state(state)
        players = tuple(
            spec or ("automaton" if s in played.automata else "?") for s, spec in enumerate(job.specs)
        )
        record = rec.with_players(players).to_json()
    statistics = finished_statistics(state.game, state) if job.statistics else None
    return GameResult(
        index=job.index,
        group=job.group,
        seed=job.seed,
        agents=job.agents,
        scores=list(state.scores()),
        returns=[float(r) for r in state.returns()],
        plies=state.ply,
        moves=played.moves,
        seconds=played.seconds,
        curve=curve,
        record=record,
        statistics=statistics,
    )


def finished_statistics(game: Game[Any], state: State[Any]) -> list[dict[str, float]]:
    """The plugin's statistics of a finished game: one ``{name: number}`` dict per seat, checked
    (a game whose plugin counts nothing of its own gives each seat its score)."""
    raw: Any = game.plugin().statistics(state)
    n = state.num_players
    if not isinstance(raw, list) or len(raw) != n:
        raise LabError(f"the statistics hook of {game.id} must return a list of {n} dicts, one per seat")
    out: list[dict[str, float]] = []
    for seat, doc in enumerate(raw):
        if not isinstance(doc, dict):
            raise LabError(
                f"the statistics hook of {game.id} gave seat {seat} a {type(doc).__name__}, not a dict"
            )
        values: dict[str, float] = {}
        for key, value in doc.items():
            if (
                not isinstance(key, str)
                or isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
            ):
                raise LabError(
                    f"the statistics hook of {game.id} gave seat {seat} {key!r}: {value!r}; "
                    "expected a name and a finite number"
                )
            values[key] = float(value)
        out.append(values)
    return out


def outcome_of(returns: Sequence[float], seat: int) -> int:
    """A seat's result in a game: 1 win (the single best return), 0 draw (a best return shared,
    or every return equal), -1 loss."""
    best = max(returns)
    if returns[seat] < best:
        return -1
    return 1 if returns.count(best) == 1 else 0


def play_chunk(jobs: Sequence[GameJob]) -> list[GameResult]:
    """Play several jobs in order (one task of a worker pool)."""
    return [play_game(job) for job in jobs]
