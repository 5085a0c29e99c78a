"""Game-agnostic agents: random, greedy and MCTS/ISMCTS, by name and strength level.

Agents use only the core :class:`~regalia.core.game.State` contract, so they play every
registered game.

>>> import random, regalia
>>> from regalia.ai import make_agent
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> agent = make_agent("mcts", iterations=20)
>>> agent.choose(state, random.Random(0)) in state.legal_actions()
True
"""

from regalia.ai.base import (
    Agent,
    close_agent,
    evaluate,
    observe_agent,
    reset_agent,
    score_difference,
)
from regalia.ai.bench import bench_mcts, bench_mcts_report
from regalia.ai.mcts import MCTSAgent
from regalia.ai.registry import (
    AGENTS,
    LEVELS,
    agent_from_spec,
    agent_levels,
    agent_names,
    agent_parameters,
    make_agent,
    parse_agent_spec,
)
from regalia.ai.simple import GreedyAgent, RandomAgent

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_from_spec",
    "agent_levels",
    "agent_names",
    "agent_parameters",
    "bench_mcts",
    "bench_mcts_report",
    "close_agent",
    "evaluate",
    "make_agent",
    "observe_agent",
    "parse_agent_spec",
    "reset_agent",
    "score_difference",
]
