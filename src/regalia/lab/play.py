"""Playing one game between agents: the unit of work that worker processes and Ray tasks run.

A :class:`GameJob` says everything a game needs (game, options, seed, agent spec per seat, agent
seeds), so a game's result depends on the job alone, not on the process or machine that plays it.
Jobs and results are small picklable values.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from regalia.ai import agent_from_spec, observe_agent, reset_agent
from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import CHANCE, JSON, Game
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


def play_game(job: GameJob) -> GameResult:
    """Play ``job`` to the end and return its result.

    Chance draws from ``random.Random(job.seed)``; seats the rules play themselves (a solo
    automaton) take their forced steps; every other seat asks its agent.
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
    curve: list[list[int]] | None = [] if job.curves else None
    clock = time.perf_counter
    automata = set(state.automaton_seats())
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
        if curve is not None:
            curve.append(list(state.scores()))
        if state.ply > MAX_PLIES:
            raise LabError(f"game {job.index} (seed {job.seed}) did not end in {MAX_PLIES} plies")
    record = None
    if job.record:
        rec = Record.of_state(state)
        players = tuple(
            spec or ("automaton" if s in automata else "?") for s, spec in enumerate(job.specs)
        )
        record = rec.with_players(players).to_json()
    return GameResult(
        index=job.index,
        group=job.group,
        seed=job.seed,
        agents=job.agents,
        scores=list(state.scores()),
        returns=[float(r) for r in state.returns()],
        plies=state.ply,
        moves=moves,
        seconds=seconds,
        curve=curve,
        record=record,
    )


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
