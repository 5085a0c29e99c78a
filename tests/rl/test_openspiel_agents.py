"""OpenSpiel's bots as regalia agents (regalia.rl.agents): found by name through the regalia.agents
entry points, spec strings whose name holds a colon, a clear error without OpenSpiel, legal moves
for whole games of every shipped game, reproducibility and the calibrated time budget."""

from __future__ import annotations

import random
import sys
from types import SimpleNamespace
from typing import Any

import pytest

import regalia
from regalia.ai import agent_from_spec, agent_names, make_agent, parse_agent_spec
from regalia.ai.registry import agent_parameters
from regalia.core.errors import OptionError
from regalia.rl.agents import OpenSpielISMCTSAgent, OpenSpielMCTSAgent

from .configs import need

# -- without OpenSpiel itself -----------------------------------------------------------------------


def test_registered_by_name_through_the_entry_points() -> None:
    names = agent_names()
    assert "openspiel:mcts" in names and "openspiel:ismcts" in names
    assert {"max_simulations", "seconds", "uct_c", "rollouts", "solve"} <= set(
        agent_parameters("openspiel:mcts")
    )


def test_a_name_with_a_colon_parses_as_one_agent() -> None:
    assert parse_agent_spec("openspiel:mcts:max_simulations=50") == (
        "openspiel:mcts",
        None,
        {"max_simulations": 50},
    )
    assert parse_agent_spec("openspiel:ismcts:seconds=0.5:uct_c=1.4") == (
        "openspiel:ismcts",
        None,
        {"seconds": 0.5, "uct_c": 1.4},
    )
    assert parse_agent_spec("openspiel:mcts") == ("openspiel:mcts", None, {})
    # the names without a colon are unchanged
    assert parse_agent_spec("mcts:hard:rollout=greedy") == ("mcts", "hard", {"rollout": "greedy"})
    with pytest.raises(OptionError, match="unknown agent 'openspiel'"):
        parse_agent_spec("openspiel:alphazero")


def test_a_clear_error_when_open_spiel_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    for spec in ("openspiel:mcts", "openspiel:ismcts:max_simulations=5"):
        with pytest.raises(OptionError, match=r"needs OpenSpiel.*regalia\[rl\].*x86_64"):
            agent_from_spec(spec)


# -- with OpenSpiel -------------------------------------------------------------------------------


@pytest.fixture
def open_spiel() -> None:
    need("pyspiel")


def play(game_id: str, agents: list[Any], seed: int) -> int:
    """A whole game, every action checked; returns the number of decisions."""
    state = regalia.load_game(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while True:
        state.advance(rng)
        if state.is_terminal():
            return decisions
        agent = agents[state.current_player % len(agents)]
        state.apply(agent.choose(state, rng))
        decisions += 1


@pytest.mark.usefixtures("open_spiel")
@pytest.mark.parametrize("game_id", ["carcassonne", "two-heirs", "royal-court"])
def test_both_bots_play_legal_moves_for_a_whole_game(game_id: str) -> None:
    agents: list[Any] = [
        agent_from_spec("openspiel:mcts:max_simulations=2"),
        agent_from_spec("openspiel:ismcts:max_simulations=2"),
    ]
    assert isinstance(agents[0], OpenSpielMCTSAgent) and isinstance(agents[1], OpenSpielISMCTSAgent)
    assert play(game_id, agents, seed=3) > 10
    assert not any(a.last_fallback for a in agents)


@pytest.mark.usefixtures("open_spiel")
def test_reproducible_with_a_simulation_budget() -> None:
    state = regalia.load_game("royal-court").new_state(seed=2)
    state.advance(random.Random(2))
    for spec in ("openspiel:mcts:max_simulations=30", "openspiel:ismcts:max_simulations=30"):
        picks = {state.notation(agent_from_spec(spec).choose(state, random.Random(9))) for _ in range(3)}
        assert len(picks) == 1, spec
    agent: Any = make_agent("openspiel:mcts", max_simulations=30)
    agent.choose(state, random.Random(0))
    assert agent.last_simulations == 30


@pytest.mark.usefixtures("open_spiel")
def test_a_time_budget_calibrates_the_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is turned into simulations from the rate measured by a probe (first decision) or
    by the decision before; a fake clock that advances 1 ms per simulation makes that exact."""
    import regalia.rl.agents as agents

    now = [0.0]
    monkeypatch.setattr(agents, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    real_run = OpenSpielMCTSAgent._run

    def run(self: Any, game: Any, core: Any, simulations: int, rs: Any) -> tuple[int, int | None]:
        done, chosen = real_run(self, game, core, simulations, rs)
        now[0] += 0.001 * done
        return done, chosen

    monkeypatch.setattr(OpenSpielMCTSAgent, "_run", run)
    state = regalia.load_game("two-heirs").new_state(seed=5)
    state.advance(random.Random(5))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
        state.advance(random.Random(5))
    agent = OpenSpielMCTSAgent(seconds=0.3)
    agent.choose(state, random.Random(0))  # a probe of 16 at 1,000/s, then 0.284 s of search
    assert agent.last_simulations in (299, 300)  # 1,000 * (0.3 - 0.016), rounded down
    assert agent.last_seconds == pytest.approx(0.3, abs=0.002)
    agent.choose(state, random.Random(1))  # the rate measured before: no probe
    assert agent.last_simulations in (299, 300)
    assert agent.last_seconds == pytest.approx(0.3, abs=0.002)
    capped = OpenSpielMCTSAgent(seconds=5.0, max_simulations=20)
    capped.choose(state, random.Random(0))  # the probe and the search together stay under the cap
    assert capped.last_simulations <= 20 + 16


@pytest.mark.usefixtures("open_spiel")
def test_bad_settings_are_refused() -> None:
    with pytest.raises(OptionError, match="max_simulations"):
        agent_from_spec("openspiel:mcts:max_simulations=0")
    with pytest.raises(OptionError, match="uct_c"):
        agent_from_spec("openspiel:ismcts:uct_c=-1")
    with pytest.raises(OptionError, match="unknown parameter"):
        agent_from_spec("openspiel:ismcts:solve=false")


@pytest.mark.usefixtures("open_spiel")
def test_one_simulation_still_chooses_a_searched_move() -> None:
    """MCTSBot expands its root on its second simulation: the agent never runs fewer than two (a
    tight time budget calibrated to one simulation once crashed the arena)."""
    state = regalia.load_game("carcassonne").new_state(seed=1)
    state.advance(random.Random(1))
    agent: Any = make_agent("openspiel:mcts", max_simulations=1)
    assert agent.choose(state, random.Random(0)) in state.legal_actions()
    assert not agent.last_fallback and agent.last_simulations == 2
