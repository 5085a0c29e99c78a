"""The two plain agents: :class:`RandomAgent` and :class:`GreedyAgent`."""

from __future__ import annotations

import random
from typing import Any

from regalia.ai.base import evaluate_after, pick_best
from regalia.core.game import State


class RandomAgent:
    """Picks uniformly among the legal actions.

    >>> import random, regalia
    >>> state = regalia.load_game("two-heirs").new_state(seed=3)
    >>> RandomAgent().choose(state, random.Random(0)) in state.legal_actions()
    True
    """

    __slots__ = ("name",)

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        return legal[rng.randrange(len(legal))]

    def reset(self) -> None:
        """Nothing to forget."""

    def __repr__(self) -> str:
        return f"RandomAgent(name={self.name!r})"


class GreedyAgent:
    """One-ply lookahead: the action whose resulting state evaluates best for the acting seat.

    The evaluation is the game's hook ``state.evaluate(seat)`` when the state defines one, else the
    score difference (see :func:`regalia.ai.base.evaluate`); a finished game counts by its result.
    Actions are tried on a determinization for the acting seat, so hidden information (the order
    of draw piles) is never peeked at. Ties are broken by ``rng``.

    ``sample`` limits the number of actions evaluated (a random subset; ``None``: all of them).
    """

    __slots__ = ("name", "sample")

    def __init__(self, sample: int | None = None, name: str = "greedy") -> None:
        if sample is not None and (not isinstance(sample, int) or sample < 1):
            raise ValueError(f"sample must be a positive integer, got {sample!r}")
        self.sample = sample
        self.name = name

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        if len(legal) == 1:
            return legal[0]
        if self.sample is not None and len(legal) > self.sample:
            legal = rng.sample(legal, self.sample)
        seat = state.current_player
        base = state.determinize(seat, rng)
        values = []
        for action in legal:
            child = base.clone()
            child.apply_unchecked(action)
            values.append(evaluate_after(child, seat))
        return pick_best(legal, values, rng)

    def reset(self) -> None:
        """Nothing to forget."""

    def __repr__(self) -> str:
        return f"GreedyAgent(sample={self.sample!r}, name={self.name!r})"
