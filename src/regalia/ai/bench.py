"""Measuring the search: MCTS iterations per second from mid-game states.

``regalia bench GAME --mcts`` reports :func:`bench_mcts` as ``mcts_iterations_per_s``.

>>> from regalia.ai.bench import bench_mcts
>>> bench_mcts("two-heirs", seconds=0.2, positions=1) > 0
True
"""

from __future__ import annotations

import random
from typing import Any

from regalia.ai.mcts import MCTSAgent
from regalia.core.game import JSON, Game, State
from regalia.core.registry import load_game


def midgame_state(game: Game[Any], seed: int, plies: int | None = None) -> State[Any]:
    """A state reached by random play (chance from ``seed``): ``plies`` actions in (default: half a
    random game's length), then on to the first decision with at least two legal actions."""
    if plies is None:
        probe = _random_play(game.new_state(seed), random.Random(seed), None)
        plies = probe.ply // 2
    return _random_play(game.new_state(seed), random.Random(seed), plies)


def _random_play(state: State[Any], rng: random.Random, plies: int | None) -> State[Any]:
    """Play uniformly random actions (chance with its probabilities) until ``plies`` actions are
    applied and a seat has a choice of two or more (``None``: to the end)."""
    while not state.is_terminal():
        state.advance(rng)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if plies is not None and state.ply >= plies and len(legal) >= 2:
            break
        state.apply(legal[rng.randrange(len(legal))])
    return state


def bench_mcts_report(
    game: str | Game[Any],
    seconds: float = 3.0,
    seed: int = 0,
    positions: int = 3,
    rollout: str = "random",
    **options: Any,
) -> JSON:
    """MCTS as the agents play it (rollouts cut at the game's ``rollout_depth``, to the end where
    it has none) searching ``seconds`` in total over ``positions`` mid-game states.

    Returns ``mcts_iterations_per_s``, the ``rollout_depth`` used and the figures of each position.
    """
    built = load_game(game, **options) if isinstance(game, str) else game
    total_iterations = 0
    total_seconds = 0.0
    per_position = []
    for k in range(positions):
        state = midgame_state(built, seed + k)
        if state.is_terminal():
            continue
        agent = MCTSAgent(seconds=seconds / positions, rollout=rollout, reuse=False)
        agent.search(state, random.Random(seed + k))
        total_iterations += agent.last_iterations
        total_seconds += agent.last_seconds
        per_position.append(
            {
                "ply": state.ply,
                "legal_actions": len(state.legal_actions()),
                "iterations_per_s": agent.last_iterations / agent.last_seconds,
            }
        )
    return {
        "game": built.id,
        "rollout": rollout,
        "rollout_depth": built.search_defaults().get("depth"),
        "mcts_iterations_per_s": total_iterations / total_seconds if total_seconds else 0.0,
        "iterations": total_iterations,
        "seconds": total_seconds,
        "positions": per_position,
    }


def bench_mcts(
    game: str | Game[Any], seconds: float = 3.0, seed: int = 0, positions: int = 3, **options: Any
) -> float:
    """MCTS iterations per second with random rollouts (cut at the game's ``rollout_depth``) from
    mid-game states."""
    doc = bench_mcts_report(game, seconds, seed, positions, **options)
    rate: float = doc["mcts_iterations_per_s"]
    return rate
