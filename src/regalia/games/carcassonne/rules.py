"""The legal actions of Carcassonne and the checks that name the rule an illegal action breaks.

Placements are read from the free positions next to the board (:attr:`Base.need`): a rotation of the
drawn tile fits where every side matches the neighbour's edge; the matching rotations of a tile for
each pattern of neighbours are memoised. With Heretics and Shrines, a shrine may not touch (by a side
or a corner) more than one cloister, a cloister not more than one shrine, and no placement may give
an existing one a second ("Placing a tile", footnotes [2] to [4]).

Rule names in errors: "Placing a tile", "Deploying a follower" (base game), "Heretics and Shrines:
placing a tile", "Heretics and Shrines: deploying a follower".

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state()
>>> _ = state.apply_text("draw V")
>>> state.is_legal(state.parse_action("place V 5,5 0"))
False
>>> state.apply_text("place V 5,5 0")
Traceback (most recent call last):
...
regalia.core.errors.IllegalAction: 5,5 does not touch a tile by a side [Placing a tile]
"""

from __future__ import annotations

import random
from typing import Final

from regalia.core.errors import IllegalAction
from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import (
    DRAW,
    FOLLOWER,
    PASS,
    PASS_ACTION,
    PLACE,
    Action,
    follower,
    placed,
)
from regalia.games.carcassonne.base import AROUND, PH_DRAW, PH_PLACE, Base
from regalia.games.carcassonne.tiles import ABBEYS, CLOISTER, FIELD, ROTATIONS, SHRINE, pattern_mark

_new = tuple.__new__
#: The draw of tile type ``t`` (made once: chance's outcomes are listed at every draw).
_DRAWS: Final[list[Action]] = []
#: The rotations of a mask (bit ``rotation // 90``), ascending.
_MASK_ROTATIONS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r for r in ROTATIONS if mask >> (r // 90) & 1) for mask in range(16)
)


class Rules(Base):
    """Legal actions, chance's outcomes and checks."""

    __slots__ = ()

    # ------------------------------------------------------------------ legal actions
    def _generate(self) -> tuple[Action, ...]:
        if self.terminal:
            return ()
        phase = self.phase
        if phase == PH_DRAW:
            return tuple(a for a, _ in self.chance_outcomes())
        if phase == PH_PLACE:
            tile = self.drawn
            return placed(tile, self.placements(tile))
        return (*self.follower_options(), PASS_ACTION)

    def uniform_action(self, u: float) -> Action:
        """``legal_actions()[int(u * n)]``; at a placement step the placement picked is made alone,
        from the placements (what random playouts and rollouts play)."""
        if self._legal is None and self.phase == PH_PLACE and not self.terminal:
            tile = self.drawn
            places = self.placements(tile)
            if places:
                return placed(tile, (places[int(u * float(len(places)))],))[0]
        return super().uniform_action(u)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The tile types left in the bag, each with its share of the tiles left."""
        if self.terminal or self.phase != PH_DRAW:
            return []
        total = self.bag_left
        draws = self._draws()
        return [(draws[t], n / total) for t, n in enumerate(self.bag) if n]

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """The tile drawn: the outcome the core's :meth:`State.sample_chance` would draw with the
        same ``rng`` (the same sum of the same shares, in the same order), without listing them."""
        if self.terminal or self.phase != PH_DRAW:
            return super().sample_chance(rng)
        r = (rng or self._chance_rng()).random()
        total = self.bag_left
        draws = self._draws()
        acc = 0.0
        last = -1
        for t, n in enumerate(self.bag):
            if n:
                acc += n / total
                last = t
                if r < acc:
                    return draws[t]
        return draws[last]

    def _draws(self) -> list[Action]:
        """The draw of each tile type of the bag (made once)."""
        draws = _DRAWS
        if len(draws) < len(self.bag):
            draws.extend(_new(Action, (DRAW, t, None, 0, "", "")) for t in range(len(draws), len(self.bag)))
        return draws

    def fits(self, tile: int, pattern: int) -> tuple[int, ...]:
        """The rotations of ``tile`` whose edges match pattern number ``pattern`` (the edges a free
        position's neighbours show it, :data:`.tiles.PATTERNS`)."""
        mask = self.cat.fit_masks[tile][pattern]
        if mask < 0:
            mask = self._fit_mask(tile, pattern)
        return _MASK_ROTATIONS[mask]

    def placements(self, tile: int) -> tuple[tuple[Pos, int], ...]:
        """Every (position, rotation) where ``tile`` may be laid, in position order ("Placing a tile")."""
        if self.drawn == tile and self._places is not None:
            return self._places
        abbey = self.cat.types[tile]
        restricted = (abbey.cloister or abbey.shrine) and self.game.options.shrines != "off"
        out: list[tuple[Pos, int]] = []
        masks = self.cat.fit_masks[tile]
        # the positions in order, each with its rotations ascending: the placements in order
        # (every look-up below is a list's, by the pattern's number and the rotations' mask)
        for pos, pattern, slots in self.need_sorted:
            mask = masks[pattern]
            if mask < 0:
                mask = self._fit_mask(tile, pattern)
            if mask and (not restricted or self._abbey_allowed(pos, SHRINE if abbey.shrine else CLOISTER)):
                found = slots[mask]
                if found is None:
                    found = slots[mask] = tuple((pos, r) for r in _MASK_ROTATIONS[mask])
                out += found
        places = tuple(out)
        if self.drawn == tile:
            self._places = places
        return places

    def _fit_mask(self, tile: int, pattern: int) -> int:
        """The mask of the rotations of ``tile`` that fit pattern number ``pattern``. The tile's row
        of the catalogue's table is filled whole on first need: a rotation fits the 16 patterns
        that show, on each side, either no neighbour or the rotation's own edge there."""
        cat = self.cat
        masks = cat.fit_masks[tile]
        for i in range(len(masks)):
            masks[i] = 0
        for r in cat.types[tile].rotations:
            edges = cat.turned(tile, r).edges
            marks = [pattern_mark(side, edges[side]) for side in range(4)]
            bit = 1 << (r // 90)
            for shown in range(16):  # the sides with a neighbour, as bits
                number = 0
                for side in range(4):
                    if shown >> side & 1:
                        number += marks[side]
                masks[number] |= bit
        return masks[pattern]

    def _abbey_allowed(self, pos: Pos, kind: str) -> bool:
        """A shrine touches at most one cloister and a cloister at most one shrine, the new one
        included, whatever the order they were laid in (footnotes [2] to [4])."""
        other = CLOISTER if kind == SHRINE else SHRINE
        abbeys = self.abbeys
        x, y = pos
        facing = [(x + dx, y + dy) for dx, dy in AROUND if abbeys.get((x + dx, y + dy)) == other]
        if len(facing) > 1:
            return False
        return not any(abbeys.get((fx + dx, fy + dy)) == kind for fx, fy in facing for dx, dy in AROUND)

    def follower_options(self) -> list[Action]:
        """The followers the seat may deploy on the tile just laid ("Deploying a follower"): one on a
        feature of that tile whose whole connected feature holds no follower, if the seat has one left
        (farmers only with the option ``farmers``)."""
        if self.followers[self.player] == 0 or self.placed is None:
            return []
        pos = self.placed
        turned = self.turned(pos)
        base = self.nodes[pos]
        farmers = self.game.options.farmers
        out = []
        for i, seg in enumerate(turned.segments):
            if seg.kind == FIELD and not farmers:
                continue
            record = self.fdata[self.find(base + i)]
            assert record is not None
            if record.meeples:
                continue
            side = "" if seg.kind in ABBEYS else seg.name
            out.append(follower(seg.kind, side))
        return out

    # ------------------------------------------------------------------ checking
    def check(self, action: object) -> None:
        """Raise :class:`IllegalAction` naming the rule when ``action`` is illegal (``action`` may be
        anything: the compiled build would refuse a non-action at the call if typed ``Action``)."""
        if not isinstance(action, Action) or action.kind not in (DRAW, PLACE, FOLLOWER, PASS):
            raise IllegalAction(f"{action!r} is not a Carcassonne action", "Course of the game")
        if self.terminal:
            raise IllegalAction("the game is over", "End of the game")
        if type(action) is Action and action in self.legal_actions():
            return
        kind = action.kind
        phase = self.phase
        if phase == PH_DRAW:
            if kind != DRAW:
                raise IllegalAction("a tile is to be drawn from the bag first (chance)", "Drawing a tile")
            raise IllegalAction("no tile of that kind is left in the bag", "Drawing a tile")
        if kind == DRAW:
            then = "place it" if phase == PH_PLACE else "it is placed: deploy a follower or pass"
            raise IllegalAction(f"a tile has been drawn already; {then}", "Drawing a tile")
        if phase == PH_PLACE:
            self._check_place(action)
        else:
            self._check_follower(action)

    def _check_place(self, action: Action) -> None:
        if action.kind != PLACE:
            raise IllegalAction("place the drawn tile first ('place TILE X,Y ROTATION')", "Placing a tile")
        if action.feature or action.side:
            raise IllegalAction(f"{action!r} is not a placement: it names a feature", "Placing a tile")
        tile = self.cat.types[self.drawn]
        if action.tile != self.drawn:
            raise IllegalAction(f"the tile drawn is {tile.id}", "Placing a tile")
        pos = action.pos
        if pos is None:
            raise IllegalAction("a position is needed ('place TILE X,Y ROTATION')", "Placing a tile")
        where = format_pos(pos)
        if pos in self.board:
            raise IllegalAction(f"{where} holds a tile already", "Placing a tile")
        pattern = self.need.get(pos)
        if pattern is None:
            raise IllegalAction(f"{where} does not touch a tile by a side", "Placing a tile")
        if action.rotation not in self.fits(self.drawn, pattern):
            raise IllegalAction(
                f"{tile.id} turned {action.rotation} does not match the edges next to {where}",
                "Placing a tile",
            )
        raise IllegalAction(
            f"{tile.id} at {where} would let a shrine touch two cloisters or a cloister two shrines",
            "Heretics and Shrines: placing a tile",
        )

    def _check_follower(self, action: Action) -> None:
        if action.kind == PLACE:
            raise IllegalAction("the tile is placed; deploy a follower or pass", "Deploying a follower")
        if action.kind == PASS:
            raise IllegalAction("'pass' takes nothing", "Deploying a follower")
        if self.followers[self.player] == 0:
            raise IllegalAction("you have no follower left", "Deploying a follower")
        if action.feature == FIELD and not self.game.options.farmers:
            raise IllegalAction("farmers are not played (option farmers=false)", "Deploying a follower")
        assert self.placed is not None
        turned = self.turned(self.placed)
        name = action.side or action.feature
        index = turned.segment_named(action.feature, name)
        if index < 0:
            same = [
                s for s in turned.segments if s.kind == action.feature and name in _names(s.kind, s.sides)
            ]
            if same:
                raise IllegalAction(
                    f"name the {action.feature} by its first side clockwise from north: "
                    f"'follower {action.feature} {same[0].name}'",
                    "Deploying a follower",
                )
            raise IllegalAction(
                f"the tile just laid has no {action.feature} at {name}", "Deploying a follower"
            )
        raise IllegalAction(
            f"that {action.feature} already holds a follower (its connected parts count)",
            "Deploying a follower",
        )


def _names(kind: str, sides: tuple[int, ...]) -> list[str]:
    from regalia.games.carcassonne.tiles import HALVES, SIDES

    names = HALVES if kind == FIELD else SIDES
    return [names[s] for s in sides]


__all__ = ["Rules"]
