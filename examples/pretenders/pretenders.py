"""The Pretenders: two claimants to the throne and one bet each, the example game of docs/contract.md.

Kuhn poker in a crown (OpenSpiel's ``kuhn_poker.py`` is its model). Each pretender pays one gold piece
into the pot, then chance deals each a secret title from a small deck: by default one duke, one
prince and one king. The first pretender speaks first; each in turn may ``pass`` or ``bet`` (put
``stake`` more gold on their claim). A bet must be answered: ``bet`` to call it, and both titles are
shown, or ``pass`` to give up the claim and the pot unseen. Two passes go to the showdown too. The
higher title takes the pot; equal titles (a deck with ``copies`` above 1) share it.

The whole core contract in one file: options with a schema, explicit chance with its
probabilities, hidden titles (``observation``, ``redact``, ``determinize``) and a notation that
reads back (``deal 1 K``, ``pass``, ``bet``).

>>> state = Pretenders().initial_state()
>>> for text in ["deal 1 K", "deal 2 D", "pass", "bet", "bet"]:
...     _ = state.apply_text(text)
>>> state.is_terminal(), state.scores(), state.returns()
(True, [2, -2], [1.0, -1.0])
>>> state.record(1).actions
('deal 1 ?', 'deal 2 D', 'pass', 'bet', 'bet')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final, NamedTuple, Self, TypeAlias

from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE, JSON, SPECTATOR, TERMINAL, Game, Ply, State, notation_error
from regalia.core.options import Options, option
from regalia.core.plugin import Plugin

# -- the static facts, as data -------------------------------------------------------------------
#: The titles, lowest first: the letter the notation writes and the name.
TITLES: Final[dict[str, str]] = {"B": "baron", "E": "earl", "D": "duke", "P": "prince", "K": "king"}
#: Gold each pretender pays into the pot before the deal.
ANTE: Final = 1
#: What a pretender may say when it is their turn.
MOVES: Final = ("pass", "bet")


@dataclasses.dataclass(frozen=True, slots=True)
class PretendersOptions(Options):
    ranks: int = option(3, "titles in the deck, the highest (3: duke, prince, king)", minimum=3, maximum=5)
    copies: int = option(1, "copies of each title (above 1, equal titles tie)", minimum=1, maximum=3)
    stake: int = option(1, "gold a bet puts in the pot", minimum=1, maximum=3)

    def deck(self) -> dict[str, int]:
        """How many of each title the deck holds, lowest first."""
        return {title: self.copies for title in list(TITLES)[-self.ranks :]}


class Deal(NamedTuple):
    """Chance deals ``title`` (a letter of :data:`TITLES`) to ``seat``."""

    seat: int
    title: str


#: An action: a deal (chance's), ``"pass"`` or ``"bet"`` (a pretender's).
Action: TypeAlias = Deal | str


class Pretenders(Game[Action]):
    id: ClassVar[str] = "pretenders"
    name: ClassVar[str] = "The Pretenders"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_class: ClassVar[type[Options]] = PretendersOptions
    options: PretendersOptions

    def seat_names(self) -> list[str]:
        return ["first pretender", "second pretender"]

    @classmethod
    def plugin(cls) -> PretendersPlugin:
        return PLUGIN

    def initial_state(self) -> PretendersState:
        return PretendersState(self)

    def state_from_json(self, doc: JSON) -> PretendersState:
        # The document is the history and what it reaches: replayed, every field checked.
        return PretendersState.replay_document(self.initial_state(), doc)


class PretendersState(State[Action]):
    """The titles dealt so far and the moves said so far: everything else follows from them."""

    __slots__ = ("hands", "moves")
    game: Pretenders

    def __init__(self, game: Pretenders) -> None:
        super().__init__(game)
        self.hands: tuple[str, ...] = ()  # the title of each seat dealt so far
        self.moves: tuple[str, ...] = ()  # "pass" and "bet", the first pretender's first

    # -- whose turn, and what they may do ---------------------------------------------------------
    def is_terminal(self) -> bool:
        # Two passes, or any answer to a bet, end the game.
        return self.moves[-2:] == ("pass", "pass") or "bet" in self.moves[:-1]

    @property
    def current_player(self) -> int:
        if len(self.hands) < 2:
            return CHANCE
        return TERMINAL if self.is_terminal() else len(self.moves) % 2

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if len(self.hands) == 2:
            return []
        left = self.game.options.deck()
        for title in self.hands:
            left[title] -= 1
        total = sum(left.values())
        seat = len(self.hands)
        return [(Deal(seat, title), n / total) for title, n in left.items() if n]

    def legal_actions(self) -> list[Action]:
        if self.current_player == CHANCE:
            return [deal for deal, _ in self.chance_outcomes()]
        return [] if self.is_terminal() else list(MOVES)

    def check(self, action: Action) -> None:
        if self.is_terminal():
            raise IllegalAction("the claim is settled: the game is over", "Showdown")
        if action not in self.legal_actions():
            if self.current_player == CHANCE:
                raise IllegalAction(f"{action!r} is not a deal of a title left in the deck", "Deal")
            raise IllegalAction(f"{action!r} is not a move: a pretender may pass or bet", "Betting")

    def _apply(self, action: Action) -> None:
        if isinstance(action, Deal):
            self.hands += (action.title,)
        else:
            self.moves += (action,)

    # -- gold --------------------------------------------------------------------------------------
    def paid(self) -> list[int]:
        """The gold each pretender has put in the pot."""
        paid = [ANTE, ANTE]
        for i, move in enumerate(self.moves):
            if move == "bet":
                paid[i % 2] += self.game.options.stake
        return paid

    def folded(self) -> int | None:
        """The seat that passed on a bet, giving up the pot unseen (``None``: no one did)."""
        if self.is_terminal() and "bet" in self.moves and self.moves[-1] == "pass":
            return (len(self.moves) - 1) % 2
        return None

    def scores(self) -> list[int]:
        """The gold each pretender won (or lost) once the game is over; nothing before."""
        if not self.is_terminal():
            return [0, 0]
        paid, folded = self.paid(), self.folded()
        if folded is not None:
            winners = [1 - folded]
        else:
            rank = list(TITLES).index
            best = max(rank(title) for title in self.hands)
            winners = [s for s in (0, 1) if rank(self.hands[s]) == best]
        share = sum(paid) // len(winners)
        return [(share if s in winners else 0) - paid[s] for s in (0, 1)]

    def returns(self) -> list[float]:
        # The gold won, scaled to [-1, 1] by the most a game can win.
        return [gold / (ANTE + self.game.options.stake) for gold in self.scores()]

    # -- what each seat may see --------------------------------------------------------------------
    def shown(self, seat: int, viewer: int | None) -> bool:
        """Whether ``viewer`` sees ``seat``'s title: their own, or every title at a showdown."""
        return viewer == seat or (self.is_terminal() and self.folded() is None)

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        return {
            "hands": [title if self.shown(s, viewer) else "?" for s, title in enumerate(self.hands)],
            "moves": list(self.moves),
            "paid": self.paid(),
        }

    def redact(self, actor: int, action: Action, text: str, viewer: int | None) -> str:
        # A deal is read by the seat dealt to; the moves are said aloud.
        if isinstance(action, Deal) and viewer != action.seat:
            return f"deal {action.seat + 1} ?"
        return text

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """The same game with the titles ``seat`` cannot see dealt again from the rest of the deck."""
        pool = [title for title, n in self.game.options.deck().items() for _ in range(n)]
        for s, title in enumerate(self.hands):
            if self.shown(s, seat):
                pool.remove(title)
        rng.shuffle(pool)
        state = type(self)(self.game)
        state.seed = rng.getrandbits(31)
        for action in self.history:  # replayed, so that the history tells the same story
            if isinstance(action, Deal) and not self.shown(action.seat, seat):
                action = Deal(action.seat, pool.pop())
            state.apply(action)
        return state

    # -- notation and documents --------------------------------------------------------------------
    def notation(self, action: Action) -> str:
        return f"deal {action.seat + 1} {action.title}" if isinstance(action, Deal) else action

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if len(words) == 1 and words[0].lower() in MOVES:
            return words[0].lower()
        if len(words) == 3 and words[0].lower() == "deal" and words[1] in ("1", "2") and words[2] in TITLES:
            return Deal(int(words[1]) - 1, words[2])
        raise notation_error(text, "pass, bet or deal SEAT TITLE (deal 1 K)")

    def to_json(self) -> JSON:
        return {"hands": list(self.hands), "moves": list(self.moves), "history": self.history_json()}

    def clone(self) -> Self:
        other = type(self).__new__(type(self))
        self._copy_base(other)
        other.hands, other.moves = self.hands, self.moves  # tuples, never changed in place
        return other


# -- beyond the engine: the plugin ---------------------------------------------------------------
class PretendersPlugin(Plugin[PretendersState]):
    """What the game offers beyond its engine; every other hook keeps the base class's default."""

    notation_help: ClassVar[str] = "pass, bet; chance's deals: deal SEAT TITLE (deal 1 K: a king to seat 1)"
    check_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({}, {"copies": 2}, {"ranks": 5, "stake": 3})

    def describe(self, state: PretendersState, ply: Ply) -> str:
        """One sentence for the log, on the state right after ``ply``: never a hidden title."""
        names = state.seat_names()
        if isinstance(ply.action, Deal):
            return f"The {names[ply.action.seat]} is dealt a secret title."
        who = f"The {names[ply.player]}"
        if state.folded() is not None:
            return f"{who} gives up the claim; the pot goes unseen."
        if not state.is_terminal():
            return f"{who} bets {state.game.options.stake} gold." if ply.action == "bet" else f"{who} passes."
        said = "calls" if ply.action == "bet" else "passes"
        shown = " and ".join(TITLES[title] for title in state.hands)
        winner = state.winner()
        if winner is None:
            return f"{who} {said}: {shown}, equal titles share the pot."
        pot = sum(state.paid())
        return f"{who} {said}: {shown}; the {TITLES[state.hands[winner]]} takes the pot ({pot} gold)."

    def rules(self) -> str:
        return (__doc__ or "").split("\n\nThe whole core contract")[0]


PLUGIN: Final = PretendersPlugin()
