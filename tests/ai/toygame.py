"""A tiny game implementing the whole core contract, for testing agents, the lab and the kit.

"Market": a face-down deck of numbered cards feeds a face-up market of three cards; chance draws
each card when the market is refilled (``draw V``, each value with its share of the deck). A turn
is one or two steps: ``take I`` (take market card I, score its value) then ``take I`` again or
``end``; after two takes only ``end`` remains. The game ends when the market is empty and the deck
too. Highest score wins.

Options: ``players`` (1 to 3; solo wins with at least half of all points), ``cards`` (deck size),
``outcome`` (``play``; ``first``: seat 0 always wins; ``draw``: always a draw) for statistics tests.

Registered by the tests that need a game id (``register()``); otherwise tests pass a
:class:`ToyGame` instance where a game id goes.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Self

from regalia.core.errors import IllegalAction, NotationError, PositionError
from regalia.core.game import CHANCE, JSON, SPECTATOR, TERMINAL, Game, State
from regalia.core.options import Options, option
from regalia.core.registry import register_game


@dataclasses.dataclass(frozen=True, slots=True)
class ToyOptions(Options):
    players: int = option(2, "number of seats", minimum=1, maximum=3)
    cards: int = option(12, "cards in the deck", minimum=1, maximum=60)
    outcome: str = option(
        "play", "play; first: seat 0 wins; draw: always a draw", choices=("play", "first", "draw")
    )


def deck_values(cards: int) -> list[int]:
    return [1 + (i * 7) % 9 for i in range(cards)]


class ToyGame(Game[str]):
    id: ClassVar[str] = "toy-market"
    name: ClassVar[str] = "Toy market"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 3
    options_class: ClassVar[type[Options]] = ToyOptions
    options: ToyOptions

    def initial_state(self) -> ToyState:
        return ToyState(self)

    def state_from_json(self, doc: JSON) -> ToyState:
        state = ToyState(self)
        try:
            state.deck = [int(x) for x in doc["deck"]]
            state.market = [int(x) for x in doc["market"]]
            state.points = [int(x) for x in doc["points"]]
            state.player = int(doc["player"])
            state.takes = int(doc["takes"])
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad toy state: {exc}") from None
        state._restore_history(doc.get("history"))
        return state


class ToyState(State[str]):
    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        self.opts = game.options
        self.deck = [0] * 10  # count of each card value 1..9 (index 0 unused)
        for v in deck_values(self.opts.cards):
            self.deck[v] += 1
        self.market: list[int] = []
        self.points = [0] * self.opts.players
        self.player = 0
        self.takes = 0

    # -- who acts ---------------------------------------------------------------------------------
    def _to_draw(self) -> bool:
        return len(self.market) < 3 and sum(self.deck) > 0

    @property
    def current_player(self) -> int:
        if self._to_draw():
            return CHANCE
        return TERMINAL if not self.market else self.player

    def is_terminal(self) -> bool:
        return not self.market and not self._to_draw()

    def legal_actions(self) -> list[str]:
        if self._to_draw():
            return [f"draw {v}" for v in range(1, 10) if self.deck[v]]
        if self.is_terminal():
            return []
        takes = [f"take {i}" for i in range(len(self.market))] if self.takes < 2 else []
        return takes + (["end"] if self.takes else [])

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if not self._to_draw():
            return []
        total = sum(self.deck)
        return [(f"draw {v}", self.deck[v] / total) for v in range(1, 10) if self.deck[v]]

    def check(self, action: str) -> None:
        if not isinstance(action, str) or action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not legal here", "Toy")

    def _apply(self, action: str) -> None:
        if action.startswith("draw "):
            v = int(action[5:])
            self.deck[v] -= 1
            self.market.append(v)
            return
        if action == "end":
            self.takes = 0
            self.player = (self.player + 1) % self.opts.players
            return
        card = self.market.pop(int(action[5:]))
        self.points[self.player] += card
        self.takes += 1

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
            total = sum(deck_values(self.opts.cards))
            return [1.0 if 2 * self.points[0] >= total else -1.0]
        return super().returns()

    def clone(self) -> Self:
        other = type(self).__new__(type(self))  # (object.__new__ refuses a compiled base class)
        for name, value in vars(self).items():  # (a compiled base: the new object has no __dict__ yet)
            setattr(other, name, value)
        self._copy_base(other)
        other.deck = list(self.deck)
        other.market = list(self.market)
        other.points = list(self.points)
        return other

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        return {
            "market": list(self.market),
            "deck": list(self.deck),
            "points": self.scores(),
            "player": self.player,
        }

    def notation(self, action: str) -> str:
        return action

    def parse_action(self, text: str) -> str:
        words = text.split()
        if len(words) == 1 and words[0] == "end":
            return "end"
        if len(words) == 2 and words[0] in ("take", "draw") and words[1].isdigit():
            return f"{words[0]} {int(words[1])}"
        raise NotationError(f"cannot read {text!r}")

    def to_json(self) -> JSON:
        return {
            "deck": list(self.deck),
            "market": list(self.market),
            "points": list(self.points),
            "player": self.player,
            "takes": self.takes,
            "history": self.history_json(),
        }


class EvalToyState(ToyState):
    """The toy game with an evaluation hook: prefers keeping the market poor for the next player."""

    def evaluate(self, seat: int) -> float:
        others = [p for i, p in enumerate(self.points) if i != seat]
        return self.points[seat] - (max(others) if others else 0) - 0.1 * sum(self.market)


class EvalToyGame(ToyGame):
    def initial_state(self) -> ToyState:
        return EvalToyState(self)


def toy(**options: Any) -> ToyGame:
    return ToyGame(**options)


def dealt(game: ToyGame, seed: int) -> ToyState:
    """A new game of ``game`` with chance's first draws made (from ``seed``)."""
    state = game.new_state(seed)
    state.advance(random.Random(seed))
    assert isinstance(state, ToyState)
    return state


def register() -> str:
    """Register the toy game (as ``toy-market``) so that commands and the kit find it by id."""
    register_game(ToyGame.id, f"{__name__}:ToyGame")
    return ToyGame.id
