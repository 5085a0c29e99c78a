"""What the actions of The Two Heirs do: :class:`Effects` changes the position for an action that
:mod:`.rules` has found legal, including chance's outcomes (setup and refills of the reserve).

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> _ = state.advance()
>>> shield = state.shield
>>> state.apply(state.legal_actions()[0])        # take the first tile in reach
>>> state.shield != shield, state.reserve[shield]  # the shield moved; its old place awaits a draw
(True, -1)
>>> state.action_text(state.legal_actions()[0]).split()[0]
'draw'
"""

from __future__ import annotations

from typing import Final

from regalia.core.grid import Pos, neighbours4
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import SET_CHOICES, Action
from regalia.games.two_heirs.base import (
    CH_DEAL,
    CH_DRAW,
    CH_FIRST,
    CH_START,
    CH_TOP,
    HAND_LIMIT,
    RESERVE_SIZE,
    START,
    UNITS_PER_SEAT,
)
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.rules import Rules
from regalia.games.two_heirs.tiles import PRODUCERS

#: Kinds that move units (the score sheet's doubling changes; the board does not).
_UNIT_MOVES: Final = frozenset({act.STEP, act.CALL, act.WITHDRAW})


class Effects(Rules):
    """The effect of every action (on top of the rules: one line of classes, which a compiler
    lays out as one native class each; the method order is that of the state's former mixins)."""

    __slots__ = ()

    def _apply(self, action: Action) -> None:
        self._legal = None
        if self.chance:
            self._chance_effect(action)
            return
        p = self.player
        kind = action.kind
        if kind in _UNIT_MOVES:
            self._score_cache = None
        if kind == act.STEP:
            i = self._unit_index(action.src, p)  # type: ignore[arg-type]
            self._move_unit(i, action.dst)
        elif kind == act.TAKE:
            self._take(action.tile)
        elif kind == act.END:
            if len(self.hands[p]) > HAND_LIMIT:
                self.discarding = True
            else:
                self._end_turn()
        elif kind == act.TERRAIN:
            self.hands[p].remove(action.tile)
            self.board[action.dst] = action.tile * 4  # type: ignore[index]
            self._laid(action.dst)  # type: ignore[arg-type]
            self.discounts += 1
        elif kind == act.CALL:
            base = p * UNITS_PER_SEAT
            i = next(
                base + k
                for k in range(1, UNITS_PER_SEAT)
                if self.units[base + k] is None and not self.moved >> (base + k) & 1
            )
            self._move_unit(i, action.dst)
        elif kind == act.WITHDRAW:
            i = self._unit_index(action.src, p)  # type: ignore[arg-type]
            self._move_unit(i, None)
        elif kind == act.BUILD:
            self._build(action.tile, action.dst, p)  # type: ignore[arg-type]
        elif kind == act.CAMP:
            pos = next(q for q, c in self.board.items() if c == action.tile * 4 + p + 1)
            self.board[pos] = action.tile * 4
            self.camps_up[p] -= 1
            self._flipped()
            self.shield_mine = True
        elif kind == act.DESTROY:
            self._flip_down(action.dst)  # type: ignore[arg-type]
            self.pending = tuple(q for q in self.pending if q != action.dst)
        elif kind == act.SPARE:
            self.pending = ()
        elif kind == act.DISCARD:
            self.hands[p].remove(action.tile)
            self.box.append(action.tile)
            if len(self.hands[p]) <= HAND_LIMIT:
                self.discarding = False
                self._end_turn()

    # ------------------------------------------------------------------ chance
    def _chance_effect(self, action: Action) -> None:
        kind = action.kind
        if kind == act.TOP:
            self.top = action.tile
            self.chance = 0
        elif kind == act.DRAW:
            self._draw(action.tile)
        elif kind == act.FIRST:
            self.first = self.player = action.tile
            self.chance = CH_DEAL
            self.refill = 1
        elif kind == act.SETS_DRAWN:
            self.sets = SET_CHOICES[action.tile]
            self.supply = [t.index for t in self.tiles if t.set in self.sets]
            self._after_sets()
        else:
            self._more_chance_effects(action)

    def _after_sets(self) -> None:
        """The setup after the sets are known: the coin flip (the solo game skips it)."""
        self.chance = CH_FIRST

    def _more_chance_effects(self, action: Action) -> None:
        """Chance outcomes of variants (the solo game's treasures)."""
        raise AssertionError(f"unknown chance outcome {action}")

    def _draw(self, tile: int) -> None:
        """The supply's top tile is ``tile``: it fills the reserve position (or the start)."""
        self.supply.remove(tile)
        step = self.chance
        if step == CH_START:
            self.board[START] = tile * 4  # face down
            self._laid(START)
            self._place_start_units()
            self._reindex_units()
            self.chance = CH_TOP
            return
        self.reserve[self.refill] = tile
        if step == CH_DEAL:
            self.refill += 1
            if self.refill == RESERVE_SIZE:
                self.refill = -1
                self.chance = CH_START
            return
        self.refill = -1
        self.top = -1
        if self.supply:
            self.chance = CH_TOP
        else:
            self.chance = 0
            self.trigger = True

    def _place_start_units(self) -> None:
        """Both elites on the starting landscape ("Prepare the starting landscape")."""
        self.units[0] = START
        self.units[UNITS_PER_SEAT] = START

    # ------------------------------------------------------------------ a seat's actions
    def _unit_index(self, pos: Pos, p: int) -> int:
        base = p * UNITS_PER_SEAT
        for k in range(UNITS_PER_SEAT):
            if self.units[base + k] == pos and not self.moved >> (base + k) & 1:
                return base + k
        raise AssertionError("no unmoved unit there")

    def _move_unit(self, i: int, dst: Pos | None) -> None:
        src = self.units[i]
        if src is not None and self.unit_at.get(src) == i:
            del self.unit_at[src]
            if src == START:  # the start tile may still hold the other elite (no other tile holds two)
                for j, q in enumerate(self.units):
                    if j != i and q == src:
                        self.unit_at[src] = j
                        break
        self.units[i] = dst
        if dst is not None:
            self.unit_at[dst] = i
        self._unit_moved(src, dst)
        self.moved |= 1 << i

    def _take(self, tile: int) -> None:
        """Action A: into the hand; the shield moves to the gap; its old place is refilled from the
        supply unless the final turns have begun (the draw is chance's)."""
        pos = self.reserve.index(tile)
        self.reserve[pos] = -1
        old = self.shield
        self.shield = pos
        self.hands[self.player].append(tile)
        self.took = True
        self.shield_mine = False
        if not self.final and self.supply:
            self.refill = old
            self.chance = CH_DRAW

    def _build(self, tile: int, pos: Pos, p: int) -> None:
        deficit = self._deficit(tile, self.resources(p))
        self.discounts -= deficit
        self.hands[p].remove(tile)
        self.board[pos] = tile * 4 + p + 1
        self._laid(pos)
        self.last_built[p] = pos
        t = self.tiles[tile]
        if t.building in PRODUCERS:
            self.prod[p][PRODUCERS[t.building]] += 1
        if t.building == "siege-tower":
            self.pending = self._besieged(pos, p)
        elif t.building == "camp":
            self.camps_up[p] += 1

    def _besieged(self, pos: Pos, p: int) -> tuple[Pos, ...]:
        """Opponent's buildings that the tower at ``pos`` makes the second tower to touch by a side."""
        board = self.board
        tiles = self.tiles
        out = []
        for q in neighbours4(pos):
            c = board.get(q)
            if c is None or owner_of(c) in (-1, p):
                continue
            towers = 0
            for r in neighbours4(q):
                rc = board.get(r)
                if rc is not None and owner_of(rc) == p and tiles[tile_of(rc)].building == "siege-tower":
                    towers += 1
            if towers == 2:
                out.append(q)
        return tuple(out)

    def _flip_down(self, pos: Pos) -> None:
        code = self.board[pos]
        owner = owner_of(code)
        t = self.tiles[tile_of(code)]
        if owner >= 0 and t.building in PRODUCERS:
            self.prod[owner][PRODUCERS[t.building]] -= 1
        elif owner >= 0 and t.building == "camp":
            self.camps_up[owner] -= 1
        self.board[pos] = tile_of(code) * 4
        self._flipped()

    def _end_turn(self) -> None:
        self.moved = 0
        self.discounts = 0
        self.took = False
        self.shield_mine = True
        if self.final:
            self.finals_left -= 1
            if self.finals_left == 0:
                self.terminal = True
                return
        elif self.trigger:
            self.final = True
            self.finals_left = 2
        self.player = 1 - self.player


__all__ = ["CH_DRAW", "CH_TOP", "Effects"]
