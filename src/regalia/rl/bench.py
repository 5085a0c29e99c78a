"""The cost of the PettingZoo wrapper: environment steps per second beside the raw engine.

>>> figures = env_benchmark("royal-court", {}, steps=50, seed=1)
>>> sorted(figures)
['engine_actions_per_s', 'env_steps_per_s', 'floor_steps_per_s', 'overhead', 'steps']
>>> figures["overhead"] > 0
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, ClassVar

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
    * ``floor_steps_per_s``: steps per second of the same AEC loop over an environment that does
      nothing (:func:`floor_env`: no game; the same action and observation spaces, a fixed
      observation and mask): what PettingZoo and the learner's loop cost alone, the most
      ``env_steps_per_s`` could reach however fast the engine and the encoding were. Timed in the
      same alternation, ``steps`` decisions too.
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
    floor = floor_env(environment)
    _env_game(floor, seed - 1, pick)
    env_steps = engine_steps = floor_steps = 0
    env_time = engine_time = floor_time = 0.0
    games = 0
    while env_steps < steps or engine_steps < steps or floor_steps < steps:
        if env_steps < steps:
            start = time.perf_counter()
            env_steps += _env_game(environment, seed + games, pick)
            env_time += time.perf_counter() - start
        if engine_steps < steps:
            rng = random.Random(seed + games)
            start = time.perf_counter()
            engine_steps += _engine_game(game.new_state(seed + games), rng)
            engine_time += time.perf_counter() - start
        if floor_steps < steps:
            start = time.perf_counter()
            floor_steps += _env_game(floor, seed + games, pick)
            floor_time += time.perf_counter() - start
        games += 1
    env_rate = env_steps / env_time
    engine_rate = engine_steps / engine_time
    return {
        "env_steps_per_s": round(env_rate, 1),
        "engine_actions_per_s": round(engine_rate, 1),
        "overhead": round(engine_rate / env_rate, 2),
        "floor_steps_per_s": round(floor_steps / floor_time, 1),
        "steps": float(min(env_steps, engine_steps)),
    }


#: Decisions per game of :func:`floor_env` (about a Royal Court game; the resets cost little).
FLOOR_GAME = 60
#: Legal ids at each decision of :func:`floor_env`.
FLOOR_LEGAL = 8


def floor_env(like: Any) -> Any:
    """A PettingZoo AEC environment that does nothing, with the agents and spaces of the
    environment ``like``: its agents take turns for :data:`FLOOR_GAME` decisions a game, each
    seeing one fixed observation (zeros) and a mask of :data:`FLOOR_LEGAL` legal ids, with the
    bookkeeping of :class:`regalia.rl.pettingzoo.RegaliaEnv` (rewards cleared and accumulated,
    terminations at the end). What it costs a step is PettingZoo's and the loop's own share.

    >>> from regalia.rl.pettingzoo import env
    >>> floor = floor_env(env("royal-court"))
    >>> floor.reset(seed=0)
    >>> observation, *_ = floor.last()
    >>> int(observation["action_mask"].sum()), floor.agent_selection
    (8, 'red_0')
    """
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

    agents = list(like.possible_agents)
    first = agents[0]
    observation = np.zeros(like.observation_space(first)["observation"].shape, dtype=np.float32)
    mask = np.zeros(like.action_space(first).n, dtype=np.int8)
    mask[: min(FLOOR_LEGAL, len(mask))] = 1

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "regalia_floor_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = agents
            self.observation_spaces = {a: like.observation_space(a) for a in agents}
            self.action_spaces = {a: like.action_space(a) for a in agents}
            self.decisions = 0

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = list(agents)
            self.rewards = dict.fromkeys(agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(agents, 0.0)
            self.terminations = dict.fromkeys(agents, False)
            self.truncations = dict.fromkeys(agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
            self.agent_selection = first
            self.decisions = 0

        def observe(self, agent: str) -> dict[str, Any]:
            return {"observation": observation.copy(), "action_mask": mask.copy()}

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def render(self) -> None:
            """Nothing to show."""

        def close(self) -> None:
            """Nothing to release."""

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            self.decisions += 1
            if self.decisions >= FLOOR_GAME:
                for a in self.agents:
                    self.terminations[a] = True
            else:
                self.agent_selection = agents[(agents.index(agent) + 1) % len(agents)]
            self._accumulate_rewards()

    return FloorEnv()


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


__all__ = ["FLOOR_GAME", "FLOOR_LEGAL", "env_benchmark", "floor_env"]
