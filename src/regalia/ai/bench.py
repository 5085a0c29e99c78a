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
    """A state reached by random play: ``plies`` actions in (default: half a random game's
    length), then on to the first decision with at least two legal actions."""
    if plies is None:
        probe = game.new_state(seed)
        rng = random.Random(seed)
        while not probe.is_terminal():
            legal = probe.legal_actions()
            probe.apply(legal[rng.randrange(len(legal))])
        plies = len(probe.history) // 2
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (len(state.history) < plies or len(state.legal_actions()) < 2):
        legal = state.legal_actions()
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
    """MCTS with full rollouts searching ``seconds`` in total over ``positions`` mid-game states.

    Returns ``mcts_iterations_per_s`` and the figures of each position.
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
                "ply": len(state.history),
                "legal_actions": len(state.legal_actions()),
                "iterations_per_s": agent.last_iterations / agent.last_seconds,
            }
        )
    return {
        "game": built.id,
        "rollout": rollout,
        "mcts_iterations_per_s": total_iterations / total_seconds if total_seconds else 0.0,
        "iterations": total_iterations,
        "seconds": total_seconds,
        "positions": per_position,
    }


def bench_mcts(
    game: str | Game[Any], seconds: float = 3.0, seed: int = 0, positions: int = 3, **options: Any
) -> float:
    """MCTS iterations per second with full random rollouts from mid-game states."""
    doc = bench_mcts_report(game, seconds, seed, positions, **options)
    rate: float = doc["mcts_iterations_per_s"]
    return rate
