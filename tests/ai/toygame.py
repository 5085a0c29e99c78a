"""A tiny game implementing the core State contract, for testing agents and the lab.

"Market": a shuffled deck of numbered cards (hidden order) feeds a face-up market of three cards.
A turn is one or two steps: ``take I`` (take market card I, score its value; the market refills
from the top of the deck) then ``take I`` again or ``end``; after two takes only ``end`` remains.
The game ends when the market is empty. Highest score wins.

Options: ``players`` (1 to 3; solo wins with at least half of all points), ``cards`` (deck size),
``outcome`` (``play``; ``first``: seat 0 always wins; ``draw``: always a draw) for statistics tests.

Not registered in the core registry: tests pass a :class:`ToyGame` instance where a game id goes.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, Self

from regalia.core.errors import IllegalAction, NotationError, OptionError
from regalia.core.game import JSON, Game, Options, State


@dataclasses.dataclass(frozen=True, slots=True)
class ToyOptions(Options):
    players: int = 2
    cards: int = 12
    outcome: str = "play"

    def validate(self) -> None:
        if not 1 <= self.players <= 3:
            raise OptionError("players must be 1 to 3")
        if self.outcome not in ("play", "first", "draw"):
            raise OptionError("outcome must be play, first or draw")


class ToyGame(Game[str]):
    id = "toy-market"
    name = "Toy market"
    min_players = 1
    max_players = 3
    options_class = ToyOptions

    def new_state(self, seed: int | None = None) -> ToyState:
        return ToyState(self, 0 if seed is None else seed)

    def state_from_json(self, doc: JSON) -> ToyState:
        raise NotImplementedError


class ToyState(State[str]):
    def __init__(self, game: ToyGame, seed: int) -> None:
        self.game = game
        self.seed = seed
        opts = game.options
        assert isinstance(opts, ToyOptions)
        self.opts = opts
        deck = [1 + (i * 7) % 9 for i in range(opts.cards)]
        random.Random(seed).shuffle(deck)
        self.deck = deck
        self.market: list[int] = []
        self._refill()
        self.points = [0] * opts.players
        self.player = 0
        self.takes = 0
        self._history: list[str] = []

    def _refill(self) -> None:
        while len(self.market) < 3 and self.deck:
            self.market.append(self.deck.pop())

    @property
    def num_players(self) -> int:
        return self.opts.players

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.player

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        takes = [f"take {i}" for i in range(len(self.market))] if self.takes < 2 else []
        return takes + (["end"] if self.takes else [])

    def check(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not legal here", "Toy")

    def _apply(self, action: str) -> None:
        self._history.append(action)
        if action == "end":
            self.takes = 0
            self.player = (self.player + 1) % self.opts.players
            return
        card = self.market.pop(int(action[5:]))
        self.points[self.player] += card
        self.takes += 1
        self._refill()

    def is_terminal(self) -> bool:
        return not self.market

    def scores(self) -> list[int]:
        return list(self.points)

    def returns(self) -> list[float]:
        n = self.opts.players
        if not self.is_terminal():
            return [0.0] * n
        if self.opts.outcome == "first":
            return [1.0] + [-1.0] * (n - 1)
        if self.opts.outcome == "draw":
            return [0.0] * n
        if n == 1:
            total = sum(1 + (i * 7) % 9 for i in range(self.opts.cards))
            return [1.0 if 2 * self.points[0] >= total else -1.0]
        best = max(self.points)
        winners = [i for i, p in enumerate(self.points) if p == best]
        if len(winners) > 1:
            return [0.0 if i in winners else -1.0 for i in range(n)]
        return [1.0 if i in winners else -1.0 for i in range(n)]

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.deck = list(self.deck)
        other.market = list(self.market)
        other.points = list(self.points)
        other._history = list(self._history)
        return other

    def observation(self, seat: int | None = None) -> JSON:
        return {"market": list(self.market), "deck_size": len(self.deck), "points": self.scores()}

    def determinize(self, seat: int, rng: random.Random) -> Self:
        # Canonical order first: the result depends only on what ``seat`` sees and on ``rng``.
        other = self.clone()
        other.deck.sort()
        rng.shuffle(other.deck)
        return other

    def action_text(self, action: str) -> str:
        return action

    def parse_action(self, text: str) -> str:
        if text == "end" or (text.startswith("take ") and text[5:].isdigit()):
            return text
        raise NotationError(f"cannot read {text!r}")

    def to_json(self) -> JSON:
        return {"seed": self.seed, "history": list(self._history)}

    @property
    def history(self) -> Sequence[str]:
        return self._history


class EvalToyState(ToyState):
    """The toy game with an evaluation hook: prefers keeping the market poor for the next player."""

    def evaluate(self, seat: int) -> float:
        others = [p for i, p in enumerate(self.points) if i != seat]
        return self.points[seat] - (max(others) if others else 0) - 0.1 * sum(self.market)


class EvalToyGame(ToyGame):
    def new_state(self, seed: int | None = None) -> ToyState:
        return EvalToyState(self, 0 if seed is None else seed)


def toy(**options: Any) -> ToyGame:
    return ToyGame(**options)
