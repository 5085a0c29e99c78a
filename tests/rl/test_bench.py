"""env_benchmark (regalia.rl.bench): what it counts and how its figures relate. The rates depend on
the machine and are never asserted beyond being positive."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .configs import need

need("pettingzoo")

from regalia.core.registry import load_game  # noqa: E402
from regalia.rl import bench  # noqa: E402


def test_figures_are_decisions_per_second_and_their_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    decisions: dict[str, list[int]] = {"env": [], "engine": []}
    env_game, engine_game = bench._env_game, bench._engine_game

    def count_env(environment: Any, *args: Any) -> int:
        done = env_game(environment, *args)
        if type(environment).__name__ != "FloorEnv":  # the floor's games are its own figure
            decisions["env"].append(done)
        return done

    def count_engine(*args: Any) -> int:
        decisions["engine"].append(engine_game(*args))
        return decisions["engine"][-1]

    monkeypatch.setattr(bench, "_env_game", count_env)
    monkeypatch.setattr(bench, "_engine_game", count_engine)
    figures = bench.env_benchmark("two-heirs", {"solo": True}, steps=100, seed=0)
    env_done, engine_done = sum(decisions["env"][1:]), sum(decisions["engine"][1:])  # [0]: warm-up
    assert env_done >= 100 and engine_done >= 100
    assert env_done - decisions["env"][-1] < 100 and engine_done - decisions["engine"][-1] < 100
    assert figures["steps"] == min(env_done, engine_done)
    assert figures["env_steps_per_s"] > 0 and figures["engine_actions_per_s"] > 0
    ratio = figures["engine_actions_per_s"] / figures["env_steps_per_s"]
    assert figures["overhead"] == pytest.approx(ratio, rel=0.01)


def test_a_decision_is_an_agent_action() -> None:
    """The solo game's automaton and chance act in both loops but are not counted."""
    game = load_game("two-heirs", solo=True)
    state = game.new_state(seed=1)
    done = bench._engine_game(state, random.Random(1))
    assert done == sum(1 for player, _ in state.actors() if player == 0) < state.ply


def test_the_floor_is_a_pettingzoo_environment_of_the_same_spaces() -> None:
    """The floor environment passes PettingZoo's own API test, has the real environment's agents
    and spaces, and ends its games after FLOOR_GAME decisions; the benchmark reports its rate."""
    from pettingzoo.test import api_test

    from regalia.rl.pettingzoo import env

    real = env("two-heirs")
    floor = bench.floor_env(real)
    api_test(floor, num_cycles=200)
    assert floor.possible_agents == real.possible_agents
    for agent in real.possible_agents:
        assert floor.observation_space(agent) == real.observation_space(agent)
        assert floor.action_space(agent) == real.action_space(agent)
    done = bench._env_game(floor, 0, __import__("numpy").random.default_rng(0))
    assert done == bench.FLOOR_GAME
    figures = bench.env_benchmark("royal-court", {}, steps=30, seed=0)
    assert figures["floor_steps_per_s"] > 0


def test_steps_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        bench.env_benchmark("royal-court", {}, steps=0, seed=0)
