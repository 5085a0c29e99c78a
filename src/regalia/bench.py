"""Game-agnostic benchmarks: random full games per second and the cost of ``legal_actions()``.

Figures are reported, never asserted in tests (they depend on the machine).

>>> result = bench_random_games("two-heirs", games=2, seed=1)
>>> {"games_per_s", "legal_actions_us", "games", "plies_per_game"} <= set(result)
True
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

from regalia.core.registry import load_game


def bench_random_games(game_id: str, games: int = 200, seed: int = 0, **options: Any) -> dict[str, Any]:
    """Play ``games`` uniformly random full games on one core and time them.

    Returns a dict with ``games_per_s`` (complete games per second, setup and final scoring
    included),
    ``legal_actions_us`` (median microseconds of one ``legal_actions()`` call), ``games``,
    ``plies_per_game`` (mean actions per game) and a few details of the run.

    ``legal_actions()`` is timed on the real playout, right after ``apply`` (or setup), when a
    state has no cached list yet: every timed call is a cold one. Game ``i`` uses seed
    ``seed + i``; the random choices come from ``random.Random(seed)``. One untimed warm-up game
    (seed ``seed - 1``) is played first.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    game = load_game(game_id, **options)
    rng = random.Random(seed)
    # warm-up (untimed): lazy imports and first-use caches are not part of the figures
    state = game.new_state(seed - 1)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    rng = random.Random(seed)
    timer = time.perf_counter_ns
    legal_ns: list[int] = []
    plies = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(seed + i)
        while not state.is_terminal():
            t0 = timer()
            actions = state.legal_actions()
            legal_ns.append(timer() - t0)
            state.apply(actions[rng.randrange(len(actions))])
            plies += 1
        state.scores()  # a full game ends with its final scoring
    elapsed = time.perf_counter() - start
    return {
        "game": game_id,
        "options": game.options.to_json(),
        "seed": seed,
        "games": games,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 2),
        "plies_per_game": round(plies / games, 2),
        "plies_per_s": round(plies / elapsed, 1),
        "legal_actions_us": round(statistics.median(legal_ns) / 1000, 2) if legal_ns else 0.0,
        "legal_actions_calls": len(legal_ns),
        "python": platform.python_version(),
    }
