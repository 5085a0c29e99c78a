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

from typing import Any, Self

from regalia.games.carcassonne import actions as act
from regalia.games.carcassonne.actions import Action
from regalia.games.carcassonne.base import FOLLOWERS, PH_DRAW
from regalia.games.carcassonne.effects import ABBEY_POINTS, Effects
from regalia.games.carcassonne.tiles import ABBEYS, CITY, ROAD
from regalia.games.carcassonne.views import Views

__all__ = ["CarcassonneState"]


class CarcassonneState(Views, Effects):
    """A position of Carcassonne with its history."""

    __slots__ = ()

    @classmethod
    def new(cls, game: Any, seed: int | None = None) -> Self:
        """The start tile laid at 0,0, the bag full, seat 0 to play (chance draws first)."""
        s = cls.__new__(cls)
        s._init_base(game, seed)
        s.cat = game.catalogue
        s.board = {}
        s.nodes = {}
        s.parent = []
        s.fdata = []
        s.need = {}
        s.abbeys = {}
        s.meeples = {}
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
        s.board[(0, 0)] = game.start_tile * 4
        s._join_tile((0, 0))
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        self._copy_base(s)
        s.cat = self.cat
        s.board = self.board.copy()
        s.nodes = self.nodes.copy()
        s.parent = self.parent[:]
        s.fdata = self.fdata[:]
        s.need = self.need.copy()
        s.abbeys = self.abbeys.copy()
        s.meeples = self.meeples.copy()
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
        return act.parse_action(text, self.cat)

    # ------------------------------------------------------------------ scores and heuristics
    def scores(self) -> list[int]:
        """Points scored so far (the final scoring included once the game is over)."""
        return list(self.points)

    def potential(self) -> list[float]:
        """Per seat, what the followers on the board would still score: for the seats with the
        majority on each occupied feature, the final scoring's value (farms included), or the full
        value of a feature the tile just laid has completed (it is scored once the turn's follower
        is chosen)."""
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
            kind = record.kind
            if record.open == 0 and kind in (CITY, ROAD):
                value = self._closed_value(record)
            elif kind in ABBEYS and self.abbey_neighbours(pos) == 8:
                value = ABBEY_POINTS
            else:
                value = self.end_value(record)
            if len(record.meeples) == 1:
                out[self.meeples[record.meeples[0]][0]] += value
            else:
                for seat in self.majority(record):
                    out[seat] += value
        return out

    def evaluate(self, seat: int) -> float:
        """Points plus the potential of the seat's followers, minus the best other seat's."""
        potential = self.potential()
        totals = [p + q for p, q in zip(self.points, potential, strict=True)]
        mine = totals[seat]
        others = [t for i, t in enumerate(totals) if i != seat]
        return mine - max(others)
