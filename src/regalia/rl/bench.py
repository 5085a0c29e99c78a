"""The cost of the PettingZoo wrapper: environment steps per second beside the raw engine.

>>> figures = env_benchmark("royal-court", {}, steps=50, seed=1)
>>> sorted(figures)
['engine_actions_per_s', 'env_steps_per_s', 'overhead', 'steps']
>>> figures["overhead"] > 0
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from regalia.core.game import State
from regalia.core.loop import playout
from regalia.core.registry import load_game


def env_benchmark(game_id: str, options: Mapping[str, Any], steps: int, seed: int) -> dict[str, float]:
    """Random play of ``game_id`` with ``options`` through the PettingZoo environment and on the
    raw engine, alternating game by game until ``steps`` agent decisions each, on one core, after
    one untimed warm-up game on each side (lazy imports and first-use caches are not measured).

    Both count *decisions*: an action of a seat agents play (chance and automaton steps are applied
    in between, inside the timed loops, but not counted). Both time whole games, from a new state
    (``reset`` on the environment's side, ``new_state`` on the engine's) to the end, so the two
    rates are over games of the same kind (random games of the same options and seeds; the two
    sides draw chance differently, so they are not the same games).

    * ``env_steps_per_s``: ``env.step(action)`` calls per second of an AEC loop as a learner
      writes it (``agent_iter``, ``last()`` with the observation tensor and the action mask, a
      uniformly random legal id from the mask, ``step``); the end-of-game steps with ``None`` and
      ``reset`` are timed but not counted. The legal ids are read as
      ``np.flatnonzero(mask == 1)``: numpy finds the nonzero entries of the bool array that
      comparison makes some ten times faster than those of the int8 mask itself (36 against 5 us
      for The Two Heirs' 7,924 ids, measured under load), a cost of the learner's, not of the environment.
    * ``engine_actions_per_s``: decisions per second of the engine alone (``legal_actions()``, a
      uniformly random one, ``apply_unchecked``; chance and automata by the one trusted loop,
      :func:`regalia.core.loop.playout`): the fast path of the AI's searches and of
      ``regalia bench``, which counts every ply instead.
    * ``overhead``: ``engine_actions_per_s / env_steps_per_s``, how many times slower a step
      through the environment is (the observation tensor is most of it).
    * ``steps``: the decisions each side made (``steps``, rounded up to a whole last game: games are
      played to the end).
    """
    if steps < 1:
        raise ValueError("steps must be at least 1")
    import numpy as np

    from regalia.rl.pettingzoo import env as make_env

    environment = make_env(game_id, **dict(options))
    game = load_game(game_id, **dict(options))
    pick = np.random.default_rng(seed)
    _env_game(environment, seed - 1, pick)  # warm-up games, untimed
    _engine_game(game.new_state(seed - 1), random.Random(seed - 1))
    env_steps = engine_steps = 0
    env_time = engine_time = 0.0
    games = 0
    while env_steps < steps or engine_steps < steps:
        if env_steps < steps:
            start = time.perf_counter()
            env_steps += _env_game(environment, seed + games, pick)
            env_time += time.perf_counter() - start
        if engine_steps < steps:
            rng = random.Random(seed + games)
            start = time.perf_counter()
            engine_steps += _engine_game(game.new_state(seed + games), rng)
            engine_time += time.perf_counter() - start
        games += 1
    env_rate = env_steps / env_time
    engine_rate = engine_steps / engine_time
    return {
        "env_steps_per_s": round(env_rate, 1),
        "engine_actions_per_s": round(engine_rate, 1),
        "overhead": round(engine_rate / env_rate, 2),
        "steps": float(min(env_steps, engine_steps)),
    }


def _env_game(environment: Any, seed: int, pick: Any) -> int:
    """One game through the AEC API with random legal ids; returns the decisions made."""
    import numpy as np

    environment.reset(seed=seed)
    done = 0
    for _agent in environment.agent_iter():
        observation, _reward, termination, truncation, _info = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"] == 1)  # on int8, some 10x slower
        environment.step(int(legal[pick.integers(len(legal))]))
        done += 1
    return done


def _engine_game(state: State[Any], rng: random.Random) -> int:
    """One game on the engine (:func:`regalia.core.loop.playout`) with random legal actions;
    returns the decisions made."""
    done = 0

    def choose(state: State[Any], rng: random.Random) -> Any:
        nonlocal done
        done += 1
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]

    playout(state, rng, choose)
    return done


__all__ = ["env_benchmark"]
