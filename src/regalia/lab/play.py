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

from regalia.ai import agent_from_spec, observe_agent, reset_agent
from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import CHANCE, JSON, Game, State
from regalia.core.record import Record
from regalia.core.registry import load_game

#: Games longer than this many plies stop the run with an error (a game that never ends is a bug).
MAX_PLIES = 100_000


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


def run_game(
    job: GameJob,
    on_decision: Callable[[State[Any]], None] | None = None,
    on_ply: Callable[[State[Any]], None] | None = None,
) -> PlayedGame:
    """Play ``job`` to the end: chance draws from ``random.Random(job.seed)``, seats the rules play
    themselves (a solo automaton) take their forced steps, every other seat asks its agent.

    ``on_decision(state)`` is called before each agent's decision, ``on_ply(state)`` after each ply.
    """
    game = resolve_game(job.game, job.options)
    state = game.new_state(job.seed)
    chance_rng = random.Random(job.seed)
    agents = [agent_from_spec(spec) if spec else None for spec in job.specs]
    for agent in agents:
        if agent is not None:
            reset_agent(agent)
    rngs = [random.Random(s) for s in job.agent_seeds]
    n = state.num_players
    moves = [0] * n
    seconds = [0.0] * n
    clock = time.perf_counter
    automata = frozenset(state.automaton_seats())
    while not state.is_terminal():
        seat = state.current_player
        if seat == CHANCE:
            state.apply(state.sample_chance(chance_rng))
        elif seat in automata:
            state.apply(state.forced_action())
        else:
            agent = agents[seat] if 0 <= seat < len(agents) else None
            if agent is None:
                raise LabError(f"game {job.index} (seed {job.seed}): seat {seat} to move has no agent")
            if on_decision is not None:
                on_decision(state)
            start = clock()
            action = agent.choose(state, rngs[seat])
            seconds[seat] += clock() - start
            moves[seat] += 1
            try:
                state.apply(action)
            except IllegalAction as exc:
                raise LabError(
                    f"agent {job.specs[seat]!r} chose an illegal action {action!r} in game {job.index}"
                    f" (seed {job.seed}) at ply {state.ply + 1}: {exc}"
                ) from None
            for other in agents:
                if other is not None and other is not agent:
                    observe_agent(other, state)
        if on_ply is not None:
            on_ply(state)
        if state.ply > MAX_PLIES:
            raise LabError(f"game {job.index} (seed {job.seed}) did not end in {MAX_PLIES} plies")
    return PlayedGame(state, moves, seconds, automata)


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
