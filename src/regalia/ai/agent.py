"""The agent interface (:class:`Agent`, re-exported by :mod:`regalia.ai.base`).

A module of its own because it is not compiled: a ``runtime_checkable`` protocol stays a plain
Python class (the compiled build compiles :mod:`regalia.ai.base`).

>>> from regalia.ai import RandomAgent
>>> isinstance(RandomAgent(), Agent), isinstance(object(), Agent)
(True, False)
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from regalia.core.game import State


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action: a ``name`` and :meth:`choose`.

    Agents may also define ``reset()`` (forget everything, e.g. at a new game) and
    ``observe(state)`` (see a state the agent did not choose for, e.g. after an opponent's move);
    callers use :func:`reset_agent` and :func:`observe_agent`, which skip them when absent.
    """

    name: str

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        """A legal action of ``state.current_player`` (``state`` is not modified)."""
        ...
