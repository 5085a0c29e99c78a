"""The agent interface and the evaluation helpers shared by agents.

An agent picks an action for a state, given a seeded random generator; its budget (iterations or
seconds) is fixed when it is built. Agents see the true state but must not peek at hidden
information: the search agents play on ``state.determinize(seat, rng)`` copies.

>>> import random
>>> from regalia.ai import RandomAgent
>>> agent = RandomAgent()
>>> agent.name
'random'
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import Any, Final

from regalia.ai.agent import Agent as Agent  # where it is defined: an interpreted module
from regalia.core.errors import OptionError
from regalia.core.game import State

Action = Hashable


def reset_agent(agent: Agent) -> None:
    """Call ``agent.reset()`` if the agent has one."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset()


def close_agent(agent: Agent) -> None:
    """Call ``agent.close()`` if the agent has one (it frees what it holds: MCTS's helper
    processes)."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()


def observe_agent(agent: Agent, state: State[Any]) -> None:
    """Call ``agent.observe(state)`` if the agent has one."""
    observe = getattr(agent, "observe", None)
    if callable(observe):
        observe(state)


def score_difference(state: State[Any], seat: int) -> float:
    """``scores()[seat]`` minus the best other score (the plain score in a one-seat game)."""
    scores = state.scores()
    if len(scores) <= 1:
        return float(scores[seat]) if scores else 0.0
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return float(scores[seat] - best_other)


def evaluate(state: State[Any], seat: int, method: str = "evaluate") -> float:
    """How good ``state`` looks for ``seat`` (higher is better), without search.

    The game's hook :meth:`State.evaluate` (by default the score lead, as
    :func:`score_difference`), or the state's ``method`` of that name: a heuristic of
    :meth:`Game.heuristics`, found by :func:`heuristic_method`.
    """
    if method == "evaluate":
        return float(state.evaluate(seat))
    return float(getattr(state, method)(seat))


def heuristic_method(game: Any, name: str) -> str:
    """The :class:`State` method of ``game``'s heuristic ``name`` (:meth:`Game.heuristics`);
    an unknown name is refused with the game's heuristics.

    >>> import regalia
    >>> heuristic_method(regalia.load_game("carcassonne"), "score")
    'score_lead'
    >>> heuristic_method(regalia.load_game("carcassonne"), "luck")
    Traceback (most recent call last):
    ...
    regalia.core.errors.OptionError: Carcassonne has no heuristic 'luck'; its heuristics: evaluate, score
    """
    named: dict[str, str] = game.heuristics()
    method = named.get(name)
    if method is None:
        raise OptionError(f"{game.name} has no heuristic {name!r}; its heuristics: {', '.join(named)}")
    return method


#: Added to the evaluation of a finished game, times its return, so that wins come first.
TERMINAL_BONUS: Final = 1e6


def evaluate_after(state: State[Any], seat: int, method: str = "evaluate") -> float:
    """:func:`evaluate`, with a finished game's result (``returns()``) dominating."""
    if state.is_terminal():
        return TERMINAL_BONUS * state.returns()[seat] + score_difference(state, seat)
    return evaluate(state, seat, method)


def heuristic_values(
    state: State[Any],
    scale: float,
    zeros: Sequence[float] | None = None,
    method: str = "evaluate",
    zero_sum: bool = False,
) -> list[float]:
    """Per-seat values in (-1, 1) of an unfinished state: ``tanh(evaluate / scale)``, or with
    ``zeros`` (an evaluation per seat) ``tanh((evaluate - zeros[seat]) / scale)`` (``evaluate``
    the heuristic ``method``, :func:`evaluate`). With ``zero_sum`` (the game's
    :meth:`~regalia.core.game.Game.zero_sum_heuristics`) and two seats, the heuristic is computed
    for seat 0 only and seat 1's value is its negation."""
    if zero_sum and state.num_players == 2:
        e = evaluate(state, 0, method)
        v = math.tanh((e if zeros is None else e - zeros[0]) / scale)
        return [v, -v]
    if zeros is None:
        return [math.tanh(evaluate(state, seat, method) / scale) for seat in range(state.num_players)]
    return [math.tanh((evaluate(state, seat, method) - zero) / scale) for seat, zero in enumerate(zeros)]


def pick_best(actions: Sequence[Any], values: Sequence[float], rng: random.Random) -> Any:
    """The action of highest value, ties broken by ``rng``."""
    best = max(values)
    tied = [a for a, v in zip(actions, values, strict=True) if v == best]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]
