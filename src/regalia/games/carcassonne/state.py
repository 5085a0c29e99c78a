"""The Carcassonne rules engine: :class:`CarcassonneState`.

The position's fields and the feature union-find are in :mod:`.base`, the legal actions and the
checks in :mod:`.rules`, the effects of actions (scoring included) in :mod:`.effects`, the views in
:mod:`.views`; this module puts them together with the setup, cloning and the search heuristic.

The start tile (a D, city up) lies at 0,0; seat 0 plays first (the rules let the youngest begin:
the seats are taken in playing order, see docs/rulings.md). Every turn, chance draws a tile from
the bag with probability by the counts left; the seat places it, then deploys a follower or passes.

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=5)
>>> [state.action_text(a) for a in state.advance()]
['draw B']
>>> [state.action_text(a) for a in state.legal_actions()]  # a cloister: fields all round
['place B 0,-1 0']
>>> state.apply_text("place B 0,1 0")
Traceback (most recent call last):
...
regalia.core.errors.IllegalAction: B turned 0 does not match the edges next to 0,1 [Placing a tile]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Self

from regalia.core.grid import Pos, square
from regalia.games.carcassonne import actions as act
from regalia.games.carcassonne.actions import Action
from regalia.games.carcassonne.base import FOLLOWERS, PH_DRAW, Feature
from regalia.games.carcassonne.effects import ABBEY_POINTS, FIELD_POINTS
from regalia.games.carcassonne.tiles import ABBEYS, CITY, FIELD, HALVES, ROAD, SIDES, Catalogue
from regalia.games.carcassonne.views import Views

if TYPE_CHECKING:
    from regalia.games.carcassonne.game import Carcassonne

__all__ = ["CarcassonneState"]

#: Search heuristic (:meth:`CarcassonneState.evaluate`): a follower in hand while the bag is full.
FOLLOWER_VALUE: Final = 3.0
#: The share of an open city's completion bonus hoped for, by open edges (0, 1, 2, 3 or more).
CITY_HOPE: Final[tuple[float, ...]] = (1.0, 0.9, 0.7, 0.5)
#: The share of a cloister's or shrine's missing points hoped for while the bag is full.
ABBEY_HOPE: Final = 0.8
#: The share of 3 points hoped for each open city a field touches while the bag is full.
FIELD_HOPE: Final = 0.4


class CarcassonneState(Views):
    """A position of Carcassonne with its history."""

    __slots__ = ()

    @classmethod
    def new(cls, game: Carcassonne, seed: int | None = None) -> Self:
        """The start tile laid at 0,0, the bag full, seat 0 to play (chance draws first)."""
        s = cls.empty(game, seed=seed)
        s.lay_tile(square((0, 0)), game.start_tile, 0)
        return s

    @classmethod
    def empty(cls, game: Carcassonne, catalogue: Catalogue | None = None, seed: int | None = None) -> Self:
        """A table with no tile laid (not even the start tile), the bag full (the start tile out),
        every follower in hand, seat 0 to play once chance has drawn: the base of :meth:`new` and
        of positions set up tile by tile (:meth:`lay_tile`, :meth:`stand_follower`), such as the
        score calculator's. ``catalogue`` replaces the game's (a catalogue with tiles of its own)."""
        s = cls(game, seed)
        s.cat = game.catalogue if catalogue is None else catalogue
        s.board = {}
        s.nodes = {}
        s.parent = []
        s.fdata = []
        s.cells = []
        s.need_sorted = []
        s.need_keys = []
        s.abbeys = {}
        s.meeples = {}
        s.at_end = {}
        n = game.num_players
        s.followers = [FOLLOWERS] * n
        s.points = [0] * n
        s.bag = game.bag_counts()
        s.bag_left = sum(s.bag)
        s.drawn = -1
        s.player = 0
        s.phase = PH_DRAW
        s.placed = None
        s.terminal = False
        s.log = ()
        s._legal = None
        s._places = None
        return s

    def clone(self) -> Self:
        s = self.__class__(self.game, self.seed)  # (a compiled class's __new__ runs __init__)
        self._copy_base(s)
        s.cat = self.cat
        s.board = self.board.copy()
        s.nodes = self.nodes.copy()
        s.parent = self.parent[:]
        s.fdata = self.fdata[:]
        s.cells = self.cells[:]
        s.need_sorted = self.need_sorted[:]
        s.need_keys = self.need_keys[:]
        s.abbeys = self.abbeys.copy()
        s.meeples = self.meeples.copy()
        s.at_end = self.at_end  # set once, at the end, never changed in place
        s.followers = self.followers[:]
        s.points = self.points[:]
        s.bag = self.bag[:]
        s.bag_left = self.bag_left
        s.drawn = self.drawn
        s.player = self.player
        s.phase = self.phase
        s.placed = self.placed
        s.terminal = self.terminal
        s.log = self.log
        s._legal = self._legal
        s._places = self._places
        return s

    # ------------------------------------------------------------------ notation
    def notation(self, action: Action) -> str:
        return act.action_text(action, self.cat)

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names; a follower may name its feature by any side (or half) it
        reaches on the tile just laid (``follower road W`` for the road named ``E``), resolved as
        the calculator resolves a follower's name, and is read as the feature's own name."""
        action = act.parse_action(text, self.cat)
        if action.kind == act.FOLLOWER and action.side and self.placed is not None:
            labels = HALVES if action.feature == FIELD else SIDES
            side = labels.index(action.side)
            for seg in self.turned(self.placed).segments:
                if seg.kind == action.feature and side in seg.sides:
                    return action._replace(side=seg.name)
        return action

    # ------------------------------------------------------------------ scores and heuristics
    def scores(self) -> list[int]:
        """Points scored so far (the final scoring included once the game is over)."""
        return list(self.points)

    def potential(self) -> list[float]:
        """Per seat, what the followers on the board would still score: for the seats with the
        majority on each occupied feature, the final scoring's value (farms included), or the full
        value of a feature the tile just laid has completed (it is scored once the turn's follower
        is chosen)."""
        return self._shares(self._value_now)

    def prospects(self) -> list[float]:
        """Per seat, what its followers on the board may still bring, counting on completion: an open
        city or cloister is worth its final-scoring value plus part of what completing it would add,
        the larger the share of the bag still to come and the fewer its open edges; a field adds part
        of 3 points for each open city it touches. A guess for search, not a rule."""
        return self._shares(self._value_hoped)

    def evaluate(self, seat: int) -> float:
        """The search heuristic: points plus :meth:`prospects` plus the followers still in hand
        (worth :data:`FOLLOWER_VALUE` each while the bag is full, nothing at the end), minus the best
        other seat's."""
        left = self.bag_share()
        prospects = self.prospects()
        totals = [
            p + q + FOLLOWER_VALUE * left * f
            for p, q, f in zip(self.points, prospects, self.followers, strict=True)
        ]
        mine = totals[seat]
        others = [t for i, t in enumerate(totals) if i != seat]
        return mine - max(others)

    def bag_share(self) -> float:
        """The share of the bag's tiles still to be drawn (1 at the start, 0 at the end)."""
        size: int = self.game.bag_size
        return self.bag_left / size

    def _shares(self, value_of: Callable[[Pos, Feature], float]) -> list[float]:
        """``value_of`` each occupied feature, given to every seat of its majority."""
        out = [0.0] * self.num_players
        if self.terminal:
            return out
        seen = set()
        for pos, (_, segment) in self.meeples.items():
            root = self.find(self.nodes[pos] + segment)
            if root in seen:
                continue
            seen.add(root)
            record = self.fdata[root]
            assert record is not None
            value = value_of(pos, record)
            if len(record.meeples) == 1:
                out[self.meeples[record.meeples[0]][0]] += value
            else:
                for seat in self.majority(record):
                    out[seat] += value
        return out

    def _value_now(self, pos: Pos, record: Feature) -> float:
        kind = record.kind
        if record.open == 0 and kind in (CITY, ROAD):
            return self._closed_value(record)
        if kind in ABBEYS and self.abbey_neighbours(pos) == 8:
            return ABBEY_POINTS
        return self.end_value(record)

    def _value_hoped(self, pos: Pos, record: Feature) -> float:
        kind = record.kind
        if kind == ROAD:
            return len(record.tiles)
        left = self.bag_share()
        if kind == CITY:
            if record.open == 0:
                return self._closed_value(record)
            now = len(record.tiles) + record.pennants
            return now + now * left * CITY_HOPE[min(record.open, len(CITY_HOPE) - 1)]
        if kind in ABBEYS:
            now = 1 + self.abbey_neighbours(pos)
            return now + (ABBEY_POINTS - now) * left * ABBEY_HOPE
        cities = {self.find(node) for node in record.cities}
        done = self.completed_cities(record)
        return FIELD_POINTS * (len(done) + FIELD_HOPE * left * (len(cities) - len(done)))
