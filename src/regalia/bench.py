"""Game-agnostic benchmarks: random full games per second and the cost of ``legal_actions()``.

Figures are reported, never asserted in tests (they depend on the machine).

>>> result = bench_random_games("two-heirs", games=2, seed=1)
>>> {"games_per_s", "legal_actions_us", "games", "plies_per_game", "chance_per_game"} <= set(result)
True
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

from regalia._native import compiled
from regalia.core.loop import playout
from regalia.core.registry import load_game


def bench_random_games(game_id: str, games: int = 200, seed: int = 0, **options: Any) -> dict[str, Any]:
    """Play ``games`` random full games on one core and time them, chance included.

    The games are the one trusted loop's (:func:`regalia.core.loop.playout`, as the AI's searches'
    rollouts): seats pick uniformly among their legal actions; chance draws each outcome with its
    probability; automata take their forced steps; actions go through the engine's trusted fast
    path (``apply_unchecked``); the seats' random choices cost one ``rng.random()`` each.
    Returns a dict with ``games_per_s`` (complete games per second, setup and final scoring
    included), ``legal_actions_us`` (median microseconds of one ``legal_actions()`` call at a
    seat's decision), ``compiled`` (whether the engine modules that played are the compiled
    build's C extensions: :mod:`regalia._native`), ``games``, ``plies_per_game`` (mean actions per
    game, chance's outcomes included), ``chance_per_game`` and a few details of the run.

    ``legal_actions()`` is timed on the real playout at one decision in :data:`TIMING_STRIDE`, right
    after ``apply``, when a state has no cached list yet: every timed call is a cold one. Game ``i`` uses seed
    ``seed + i`` for its chance; the seats' choices come from ``random.Random(seed)``. One untimed
    warm-up game (seed ``seed - 1``) is played first.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    game = load_game(game_id, **options)
    rng = random.Random(seed)
    # warm-up (untimed): lazy imports and first-use caches are not part of the figures
    _play(game.new_state(seed - 1), rng, random.Random(seed - 1), None)
    rng = random.Random(seed)
    legal_ns: list[int] = []
    plies = chance = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(seed + i)
        chance += _play(state, rng, random.Random(seed + i), legal_ns)
        plies += state.ply
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
        "chance_per_game": round(chance / games, 2),
        "plies_per_s": round(plies / elapsed, 1),
        "legal_actions_us": round(statistics.median(legal_ns) / 1000, 2) if legal_ns else 0.0,
        "legal_actions_calls": len(legal_ns),
        "python": platform.python_version(),
        # the engine modules that played were the compiled build's (regalia._native)
        "compiled": compiled(),
    }


#: ``legal_actions()`` is timed at one decision in this many (timing every call would slow the games).
TIMING_STRIDE = 8


def _play(state: Any, rng: random.Random, chance_rng: random.Random, legal_ns: list[int] | None) -> int:
    """Play ``state`` to the end (:func:`regalia.core.loop.playout`: chance from ``chance_rng``, the
    seats' choices from ``rng``); returns the number of chance outcomes."""
    timer = time.perf_counter_ns
    draw = rng.random
    decisions = 0

    def choose(state: Any, _chance: random.Random) -> Any:
        nonlocal decisions
        decisions += 1
        if legal_ns is not None and decisions % TIMING_STRIDE == 0:
            t0 = timer()
            actions = state.legal_actions()
            legal_ns.append(timer() - t0)
        else:
            actions = state.legal_actions()
        return actions[int(draw() * len(actions))]

    playout(state, chance_rng, choose)
    automata = state.automaton_seats()
    forced = sum(1 for player, _ in state.actors() if player in automata) if automata else 0
    return int(state.ply) - decisions - forced
