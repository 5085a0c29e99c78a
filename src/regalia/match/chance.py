"""A match's source of chance: seeded, secret, never written to a record.

:class:`SeededChance` derives the generator of each ply's draw from the seed and the ply number, so
a match rebuilt from its record (a server that restarted) draws what it would have drawn;
:class:`StreamChance` draws every outcome from one generator (the lab: cheaper, and the arena's
results stay those of earlier versions for the same seed).

>>> SeededChance(7).rng(3).random() == SeededChance(7).rng(3).random()
True
>>> stream = StreamChance(7)
>>> stream.rng(0) is stream.rng(5)
True

:class:`StateChance` leaves the draw to the state's own seeded source (:meth:`State.sample_chance`
without a generator, the state's seed being the match's), so a match draws what
``game.new_state(seed).advance()`` draws: ``regalia play --seed N`` plays the game of ``new_state(N)``.
"""

from __future__ import annotations

import random
from typing import Protocol


class ChanceSource(Protocol):
    """Gives the generator chance draws from at a ply (``None``: the state's own seeded source)."""

    def rng(self, ply: int) -> random.Random | None: ...


class SeededChance:
    """The draw at ply ``p`` of a match with secret ``seed`` comes from ``Random(f"{seed}:{p}")``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def rng(self, ply: int) -> random.Random:
        return random.Random(f"{self.seed}:{ply}")


class StreamChance:
    """Every draw from one generator seeded once."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def rng(self, ply: int) -> random.Random:
        return self._rng


class StateChance:
    """Every draw from the state's own source, seeded by the match's seed (as ``State.advance``)."""

    def rng(self, ply: int) -> None:
        return None
