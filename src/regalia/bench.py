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
from regalia.core.game import CHANCE
from regalia.core.loop import playout
from regalia.core.registry import load_game


def bench_random_games(game_id: str, games: int = 200, seed: int = 0, **options: Any) -> dict[str, Any]:
    """Play ``games`` random full games on one core and time them, chance included.

    The games are the one trusted loop's, as the AI's searches' rollouts play them
    (:func:`regalia.core.loop.playout` with its uniform policy): seats pick uniformly among their
    legal actions (:meth:`~regalia.core.game.State.uniform_action`, one ``rng.random()`` each);
    chance draws each outcome with its probability; automata take their forced steps; actions go
    through the engine's trusted fast path (``apply_unchecked``). Game ``i`` plays from seed
    ``seed + i``, for its chance and its seats' draws alike; one untimed warm-up game (seed
    ``seed - 1``) is played first. Nothing of the benchmark's own runs between the plies.

    Returns a dict with ``games_per_s`` (complete games per second, setup and final scoring
    included), ``legal_actions_us`` (median microseconds of one ``legal_actions()`` call at a
    seat's decision), ``compiled`` (whether the engine modules that played are the compiled
    build's C extensions: :mod:`regalia._native`), ``games``, ``plies_per_game`` (mean actions per
    game, chance's outcomes included), ``chance_per_game`` and a few details of the run.

    ``legal_actions()`` is timed afterwards, untimed for ``games_per_s``: the same games are
    played again, and at one seat decision in :data:`TIMING_STRIDE`, right after the ply before
    it (when the state has no list of its actions yet: every timed call is a cold one), the call
    is timed before the seat picks.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    game = load_game(game_id, **options)
    # warm-up (untimed): lazy imports and first-use caches are not part of the figures
    playout(game.new_state(seed - 1), random.Random(seed - 1))
    plies = chance = 0
    start = time.perf_counter()
    for i in range(games):
        state = playout(game.new_state(seed + i), random.Random(seed + i))
        state.scores()  # a full game ends with its final scoring
        plies += state.ply
    elapsed = time.perf_counter() - start
    legal_ns: list[int] = []
    for i in range(games):
        chance += _timed_replay(game.new_state(seed + i), random.Random(seed + i), legal_ns)
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


#: ``legal_actions()`` is timed at one decision in this many.
TIMING_STRIDE = 8


def _timed_replay(state: Any, rng: random.Random, legal_ns: list[int]) -> int:
    """Play ``state`` to the end as :func:`bench_random_games` does (the same game for the same
    seed: a listed state picks the same action as one that is not), timing ``legal_actions()``
    at one seat decision in :data:`TIMING_STRIDE` into ``legal_ns``; returns the number of chance
    outcomes."""
    timer = time.perf_counter_ns
    automata = state.automaton_seats()
    decisions = chance = 0

    def on_ply(state: Any) -> None:
        nonlocal decisions, chance
        player = state.current_player
        if player == CHANCE:
            chance += 1
        if player < 0 or player in automata:
            return
        decisions += 1
        if decisions % TIMING_STRIDE == 0:
            t0 = timer()
            state.legal_actions()
            legal_ns.append(timer() - t0)

    on_ply(state)  # the first ply is chance's or a seat's too
    playout(state, rng, on_ply=on_ply)
    return chance
