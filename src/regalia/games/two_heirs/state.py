"""The Two Heirs rules engine: :class:`TwoHeirsState`.

Section names in error messages and docstrings are those of rules/the-two-heirs.md. The position's
fields and the rules' queries are in :mod:`.base`, the legal actions and checks in :mod:`.rules`,
the effects of actions in :mod:`.effects`, the views in :mod:`.views`; this module puts them
together with the setup, cloning and scoring. :meth:`TwoHeirsState.clone` copies only the mutable
parts.

Chance is explicit ("Setup", "Action A"): the coin flip of the royal shield, the six tiles of the
royal reserve, the starting landscape, the colour shown by the supply's top tile and every refill
are outcomes of chance, drawn when the rules draw.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> [state.action_text(a) for a in state.advance()][:2]
['first blue', 'draw W7']
>>> state.apply_text("end")
Traceback (most recent call last):
...
regalia.core.errors.IllegalAction: you must first take a tile from the royal reserve [Action A]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from regalia.core.errors import PositionError
from regalia.core.game import JSON, ranked_returns
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.base import (
    CH_SETS,
    HAND_LIMIT,
    RESERVE_SIZE,
    START,
    UNITS_PER_SEAT,
)
from regalia.games.two_heirs.scoring import ScoreSheet, score_board
from regalia.games.two_heirs.tally import totals
from regalia.games.two_heirs.views import Views

if TYPE_CHECKING:
    from regalia.games.two_heirs.game import TwoHeirs

__all__ = ["HAND_LIMIT", "RESERVE_SIZE", "START", "UNITS_PER_SEAT", "TwoHeirsState"]


class TwoHeirsState(Views):
    """A position of The Two Heirs with its history."""

    __slots__ = ()

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: TwoHeirs, seed: int | None = None) -> Self:
        """The table before setup's chance: sets chosen (or to be drawn), nothing dealt yet."""
        s = cls(game, seed)
        s.tiles = game.catalogue.tiles
        options = game.options
        random_sets = options.sets == ("random",)
        s.sets = () if random_sets else tuple(options.sets)
        s.supply = [] if random_sets else [t.index for t in s.tiles if t.set in s.sets]
        if not random_sets and len(s.supply) < RESERVE_SIZE + 1:
            raise PositionError(f"the chosen sets hold {len(s.supply)} tiles in this catalogue; 8 are needed")
        s.top = -1
        s.refill = -1
        s.first = -1
        s.player = 0
        s.shield = 0
        s.reserve = [-1] * RESERVE_SIZE
        s.board = {}
        s.units = [None] * (2 * UNITS_PER_SEAT)
        s.unit_at = {}
        s.cells = []
        s.hands = [[], []]
        s.box = []
        s.took = False
        s.shield_mine = True
        s.moved = 0
        s.discounts = 0
        s.pending = ()
        s.discarding = False
        s.final = False
        s.trigger = False
        s.finals_left = -1
        s.terminal = False
        s.last_built = [None, None]
        s.prod = [[0, 0, 0], [0, 0, 0]]
        s.camps_up = [0, 0]
        s._legal = None
        s._score_cache = None
        s._tally = None
        s._dirty = ()
        s.chance = CH_SETS if random_sets else 0
        if not random_sets:
            s._after_sets()
        s._new_fields(game)
        return s

    def _new_fields(self, game: TwoHeirs) -> None:
        """Set up the fields a subclass adds (the solo game's), last in :meth:`new` (a hook rather
        than ``super().new()``, which the compiled build's class methods get wrong)."""

    def clone(self) -> Self:
        if self._tally is None:
            # made here once, for this state and every clone of it: a search clones its root at
            # every iteration, and each clone would otherwise score the board from scratch
            self.tally()
        s = self.__class__(self.game, self.seed)  # (a compiled class's __new__ runs __init__)
        self._copy_base(s)
        s.tiles = self.tiles
        s.sets = self.sets
        s.first = self.first
        s.player = self.player
        s.shield = self.shield
        s.reserve = self.reserve[:]
        s.board = self.board.copy()
        s.units = self.units[:]
        s.unit_at = self.unit_at.copy()
        s.cells = self.cells[:]
        s.supply = self.supply[:]
        s.top = self.top
        s.chance = self.chance
        s.refill = self.refill
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.box = self.box[:]
        s.took = self.took
        s.shield_mine = self.shield_mine
        s.moved = self.moved
        s.discounts = self.discounts
        s.pending = self.pending
        s.discarding = self.discarding
        s.final = self.final
        s.trigger = self.trigger
        s.finals_left = self.finals_left
        s.terminal = self.terminal
        s.last_built = self.last_built[:]
        s.prod = [self.prod[0][:], self.prod[1][:]]
        s.camps_up = self.camps_up[:]
        s._legal = self._legal
        s._score_cache = self._score_cache
        s._tally = self._tally
        s._dirty = self._dirty
        self._clone_extra(s)
        return s

    def _clone_extra(self, s: Self) -> None:
        """Copy the fields of variants (the solo game)."""

    # ------------------------------------------------------------------ scoring
    def score_sheet(self) -> ScoreSheet:
        """The full scoring of the current board (final once the game is over)."""
        if self._score_cache is None:
            self._score_cache = score_board(
                self.board,
                self.tiles,
                [self.unit_positions(0), self.unit_positions(1)],
                roads=self.game.options.roads,
            )
        sheet: ScoreSheet = self._score_cache
        return sheet

    def scores(self) -> list[int]:
        """Points per seat now (the final scoring once the game is over), from the incremental
        tally: the same totals as :meth:`score_sheet`, without rebuilding the board's scoring."""
        return totals(self.tally(), self.board, self.tiles, [self.unit_positions(0), self.unit_positions(1)])

    def returns(self) -> list[float]:
        """Winner: more points, then more units in the royal reserve; else a draw ("Winner")."""
        if not self.terminal:
            return [0.0, 0.0]
        a, b = self.scores()
        return ranked_returns([(a, self.units_in_reserve(0)), (b, self.units_in_reserve(1))])

    # ------------------------------------------------------------------ notation
    def notation(self, action: Action) -> str:
        return act.action_text(action, self.game.catalogue, self.game.token_ids)

    def parse_action(self, text: str) -> Action:
        return act.parse_action(text, self.game.catalogue, self.game.token_ids)

    @classmethod
    def from_json(cls, game: TwoHeirs, doc: JSON) -> TwoHeirsState:
        """Read a state written by :meth:`to_json`, naming the first bad field."""
        from regalia.games.two_heirs.position import state_from_doc

        return state_from_doc(cls, game, doc)
