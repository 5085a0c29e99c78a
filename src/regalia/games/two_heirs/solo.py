"""The Two Heirs solo game against Henry: :class:`SoloState` ("Solo rules").

``load_game("two-heirs", solo=True, level=1|2|3)`` makes states of this class. The player is seat 0
(white) and always starts; Henry is seat 1 (blue). Henry's turn is played by the engine inside the
end of the player's turn, so :attr:`current_player` is always 0 while the game runs; his decisions
come from the pure functions of :mod:`regalia.games.two_heirs.henry` and every step is kept as an
event (:meth:`SoloState.events`, stored in the game record, the last turn shown in the
observation).

The two-player engine is untouched: the solo hooks are overrides in this subclass, so the
two-player hot path pays nothing for them. All solo data is immutable (ints and tuples), so
:meth:`clone` only copies references.

>>> import regalia
>>> state = regalia.load_game("two-heirs", solo=True, level=1).new_state(seed=4)
>>> state.current_player, len(state.pile), len(state.unseen_removed)
(0, 6, 4)
>>> state.apply(state.legal_actions()[0])  # the player takes a tile ...
>>> state.apply_text("end")  # ... and ends the turn: Henry plays at once
Action(kind='end', tile=-1, src=None, dst=None)
>>> state.current_player, [e["step"] for e in state.events()][:2]
(0, ['take', 'place'])
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, Self

from regalia.core.errors import PositionError
from regalia.core.game import JSON
from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs import henry
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.henry import HENRY, HenryTurn, TreasureSet
from regalia.games.two_heirs.position import parse_pos_field
from regalia.games.two_heirs.scoring import ScoreSheet, score_board
from regalia.games.two_heirs.state import START, UNITS_PER_SEAT, TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, PRODUCERS

#: Henry's unit ``k`` (0 = elite) is unit index ``HENRY_BASE + k`` of the state.
HENRY_BASE = HENRY * UNITS_PER_SEAT
ALL_OFF = (1 << UNITS_PER_SEAT) - 1

Event = tuple[tuple[str, Any], ...]


class SoloState(TwoHeirsState):
    """A position of the solo game: the two-player state plus Henry's treasures, units and log.

    ``pile``: token indices of the face-down treasure pile (top last; hidden order);
    ``unseen_removed``: tokens removed unseen at setup (hidden); ``treasures``: (position, token)
    pairs on Henry's buildings; ``taken``: tokens removed because their condition was met (seen);
    ``henry_off``: bit ``k`` set while Henry's unit ``k`` is still off the board (on the edge of the
    play area, never in the royal reserve); ``log``: the events; ``henry_turns``: turns played.
    """

    __slots__ = (
        "_ply_now",
        "henry_off",
        "henry_turns",
        "log",
        "pile",
        "taken",
        "treasures",
        "tset",
        "unseen_removed",
    )

    tset: TreasureSet
    pile: tuple[int, ...]
    unseen_removed: tuple[int, ...]
    treasures: tuple[tuple[Pos, int], ...]
    taken: tuple[int, ...]
    henry_off: int
    henry_turns: int
    log: tuple[Event, ...]
    _ply_now: int  # the ply of the Henry turn being played (transient)

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: Any, seed: int) -> SoloState:
        """Solo setup: the player starts, Henry's units wait off the board, the treasure pile."""
        s = super().new(game, seed)
        assert isinstance(s, SoloState)
        s.first = s.player = 0  # "You always start the game."
        s.units[HENRY_BASE] = None  # Henry's elite does not start on the starting landscape
        s._reindex_units()
        s.henry_off = ALL_OFF
        s.tset = game.treasure_set
        rng = random.Random(f"two-heirs-solo-treasures:{seed}")
        order = list(range(len(s.tset.tokens)))
        rng.shuffle(order)
        removed = henry.REMOVED_AT_LEVEL[game.options.level]
        s.unseen_removed = tuple(order[:removed])
        s.pile = tuple(order[removed:])
        s.treasures = ()
        s.taken = ()
        s.henry_turns = 0
        s.log = ()
        return s

    def clone(self) -> Self:
        s = super().clone()
        s.tset = self.tset
        s.pile = self.pile
        s.unseen_removed = self.unseen_removed
        s.treasures = self.treasures
        s.taken = self.taken
        s.henry_off = self.henry_off
        s.henry_turns = self.henry_turns
        s.log = self.log
        return s

    # ------------------------------------------------------------------ queries
    def automaton_seats(self) -> tuple[int, ...]:
        """Henry's seat: the engine plays it ("Solo course of the game")."""
        return (HENRY,)

    def seat_names(self) -> list[str]:
        return ["player", "henry"]

    def units_in_reserve(self, seat: int) -> int:
        """Henry's units are never in the royal reserve ("Solo setup"); he has unlimited reach."""
        if seat == HENRY:
            return 0
        return TwoHeirsState.units_in_reserve(self, seat)

    def last_building(self) -> Pos:
        """The building the player placed last, or the starting tile before the first one."""
        return self.last_built[0] or START

    def henry_units(self) -> list[Pos | None]:
        """Positions of Henry's units, elite first (``None``: still off the board)."""
        return self.units[HENRY_BASE : HENRY_BASE + UNITS_PER_SEAT]

    def plan_henry(self, with_removals: bool = True) -> HenryTurn:
        """Henry's next turn as it would be played now (pure: the state is not changed)."""
        return henry.plan_turn(
            board=self.board,
            tiles=self.tiles,
            reserve=self.reserve,
            shield=self.shield,
            top_colour=self.tiles[self.supply[-1]].colour if self.supply else None,
            last=self.last_building(),
            treasures=self.treasures,
            pile_size=len(self.pile),
            next_token=self.pile[-1] if self.pile else -1,
            tset=self.tset,
            unit_positions=self.henry_units(),
            with_removals=with_removals,
        )

    # ------------------------------------------------------------------ hooks into the engine
    def _apply(self, action: Action) -> None:
        super()._apply(action)
        if self.treasures and (action.kind == act.BUILD or action.kind == act.TERRAIN):
            self._remove_met("player", action.dst)

    def _end_turn(self) -> None:
        super()._end_turn()
        if self.player == HENRY and not self.terminal:
            self._henry_turn()
            super()._end_turn()

    def _henry_turn(self) -> None:
        """Play Henry's turn (the state's seat to move is Henry's while it runs)."""
        turn = self.plan_henry(with_removals=False)
        self.henry_turns += 1
        self._ply_now = self._ply
        take = turn.take
        if take is None:
            self._event("no-tile")
            return
        top = self.tiles[self.supply[-1]].colour_name if self.supply else None
        self._take(take.tile)  # the shield moves and flips, the reserve refills as usual
        self.hands[HENRY].remove(take.tile)
        tid = self.tiles[take.tile].id
        self._event(
            "take", tile=tid, reserve_pos=take.reserve_pos, rank=take.rank, rule=take.rule, supply_top=top
        )
        placement = turn.placement
        assert placement is not None
        last = format_pos(turn.last)
        pos = placement.pos
        if pos is None:
            self.box.append(take.tile)
            self._event("discard", tile=tid, rule="D", next_to=last)
            return
        self.board[pos] = take.tile * 4 + HENRY + 1
        building = self.tiles[take.tile].building
        if building in PRODUCERS:
            self.prod[HENRY][PRODUCERS[building]] += 1
        where = format_pos(pos)
        last_code = self.board[turn.last]
        self._event(
            "place",
            tile=tid,
            pos=where,
            rule=placement.rule,
            slot=f"C{placement.slot}",
            direction=placement.direction,
            next_to=last,
            next_to_tile=self.tiles[last_code >> 2].id,
            next_to_building=(last_code & 3) != 0,
        )
        if turn.placed_token:
            token = self.pile[-1]
            self.pile = self.pile[:-1]
            self.treasures = (*self.treasures, (pos, token))
            self._event("treasure", token=self.tset.tokens[token].id, pos=where)
        k = turn.unit
        src = self.units[HENRY_BASE + k]
        self._move_unit(HENRY_BASE + k, pos)
        self.henry_off &= ~(1 << k)
        self._event(
            "unit",
            unit=henry.UNIT_NAMES[k],
            cross=COLOURS[self.tset.crosses[k]],
            src=None if src is None else format_pos(src),
            dst=where,
        )
        if self.treasures:
            self._remove_met("henry", pos)

    def _remove_met(self, by: str, placed: Pos | None) -> None:
        """Remove every treasure whose condition the tile placed at ``placed`` makes true
        ("Treasures and how to get rid of them"; ruling R-henry-treasure-timing)."""
        met = henry.treasures_met(self.treasures, self.board, self.tiles, self.tset, placed)
        if not met:
            return
        self.treasures = tuple(t for t in self.treasures if t not in met)
        for pos, token in met:
            self.taken = (*self.taken, token)
            tok = self.tset.tokens[token]
            self._event(
                "treasure-removed", token=tok.id, pos=format_pos(pos), condition=tok.describe(), by=by
            )

    def _event(self, step: str, **data: Any) -> None:
        actor = "player" if data.get("by") == "player" else "henry"
        head: Event = (
            ("ply", self._ply_now if actor == "henry" else self._ply),
            ("turn", self.henry_turns),
            ("actor", actor),
            ("step", step),
        )
        self.log = (*self.log, head + tuple(data.items()))

    @property
    def _ply(self) -> int:
        """Actions applied so far (the length of the history)."""
        n = 0
        node = self.hist
        while node is not None:
            node = node[0]
            n += 1
        return n

    def events(self) -> list[JSON]:
        """Henry's steps (and treasures removed by the player's tiles), oldest first.

        Each event has ``ply`` (the number of player actions applied before it), ``turn`` (Henry's
        turn number), ``actor``, ``step`` (take, place, discard, no-tile, treasure, unit,
        treasure-removed) and the step's details.
        """
        return [dict(e) for e in self.log]

    def event_text(self, event: JSON) -> str:
        """One event as a sentence in the player's frame (used by ``regalia play``)."""
        from regalia.games.two_heirs.companion import event_text

        return event_text(event, self.game.catalogue)

    def last_henry_turn(self) -> list[JSON]:
        """The events of Henry's most recent turn (what the observation shows)."""
        n = self.henry_turns
        return [dict(e) for e in self.log if e[1][1] == n and e[2][1] == "henry"]

    # ------------------------------------------------------------------ scoring
    def score_sheet(self) -> ScoreSheet:
        """Solo scoring: Henry's three best buildings doubled, his units never double, 5 points
        per treasure left on the board or in the pile ("Solo scoring")."""
        if self._score_cache is None:
            sheet = score_board(
                self.board,
                self.tiles,
                [self.unit_positions(0), self.unit_positions(1)],
                roads=self.game.options.roads,
                automaton=HENRY,
            )
            n = len(self.treasures) + len(self.pile)
            if n:
                bonus = henry.TREASURE_POINTS * n
                sheet = dataclasses.replace(
                    sheet,
                    extra=(*sheet.extra, (HENRY, f"{n} treasures x {henry.TREASURE_POINTS}", bonus)),
                    totals=(sheet.totals[0], sheet.totals[1] + bonus),
                )
            self._score_cache = sheet
        result: ScoreSheet = self._score_cache
        return result

    def returns(self) -> list[float]:
        """The player wins only with strictly more points than Henry ("Solo scoring")."""
        if not self.terminal:
            return [0.0, 0.0]
        a, b = self.scores()
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    # ------------------------------------------------------------------ views
    def _public(self) -> JSON:
        doc = super()._public()
        for i, u in enumerate(doc["units"]):
            if u["seat"] == HENRY:
                u["off_board"] = bool(self.henry_off >> (i - HENRY_BASE) & 1)
        tokens = self.tset.tokens
        doc["solo"] = {
            "level": self.game.options.level,
            "henry_units": [
                {
                    "unit": henry.UNIT_NAMES[k],
                    "cross": COLOURS[self.tset.crosses[k]],
                    "pos": None if p is None else format_pos(p),
                    "off_board": bool(self.henry_off >> k & 1),
                }
                for k, p in enumerate(self.henry_units())
            ],
            "treasures": [
                {"pos": format_pos(pos), "token": tokens[t].id, "condition": tokens[t].describe()}
                for pos, t in self.treasures
            ],
            "pile_size": len(self.pile),
            "removed": [tokens[t].id for t in self.taken],
            "removed_unseen": len(self.unseen_removed),
            "henry_turns": self.henry_turns,
            "last_building": format_pos(self.last_building()),
            "last_henry_turn": self.last_henry_turn(),
        }
        return doc

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Also resample the treasure pile and the tokens removed unseen at setup."""
        s = super().determinize(seat, rng)
        unseen = [*s.pile, *s.unseen_removed]
        rng.shuffle(unseen)
        n = len(s.pile)
        s.pile = tuple(unseen[:n])
        s.unseen_removed = tuple(unseen[n:])
        return s

    def to_json(self) -> JSON:
        doc = super().to_json()
        tokens = self.tset.tokens
        doc["solo"].update(
            {
                "pile": [tokens[t].id for t in self.pile],
                "unseen_removed": [tokens[t].id for t in self.unseen_removed],
                "henry_off_board": self.henry_off,
                "events": self.events(),
            }
        )
        return doc

    def _init_extra_from_json(self, doc: JSON) -> None:
        """Read the ``solo`` section of a state document (called by ``position.state_from_doc``)."""
        self.tset = self.game.treasure_set
        solo = doc.get("solo")
        if not isinstance(solo, dict):
            raise PositionError("field 'solo' is missing: a solo state needs it")
        by_id = {t.id: t.index for t in self.tset.tokens}

        def token(value: Any, field: str) -> int:
            if value not in by_id:
                raise PositionError(f"field {field!r}: {value!r} is not a treasure token")
            return by_id[value]

        def lst(name: str) -> list[Any]:
            value = solo.get(name)
            if not isinstance(value, list):
                raise PositionError(f"field 'solo.{name}' must be a list")
            return value

        self.pile = tuple(token(t, f"solo.pile[{i}]") for i, t in enumerate(lst("pile")))
        self.unseen_removed = tuple(
            token(t, f"solo.unseen_removed[{i}]") for i, t in enumerate(lst("unseen_removed"))
        )
        self.taken = tuple(token(t, f"solo.removed[{i}]") for i, t in enumerate(lst("removed")))
        treasures = []
        for i, t in enumerate(lst("treasures")):
            if not isinstance(t, dict):
                raise PositionError(f"field 'solo.treasures[{i}]': expected an object")
            pos = parse_pos_field(t.get("pos"), f"solo.treasures[{i}].pos")
            if pos not in self.board:
                raise PositionError(f"field 'solo.treasures[{i}].pos': no tile at {format_pos(pos)}")
            treasures.append((pos, token(t.get("token"), f"solo.treasures[{i}].token")))
        self.treasures = tuple(treasures)
        off = solo.get("henry_off_board")
        if not isinstance(off, int) or isinstance(off, bool) or not 0 <= off <= ALL_OFF:
            raise PositionError(f"field 'solo.henry_off_board': a bitmask 0..{ALL_OFF} is required")
        self.henry_off = off
        turns = solo.get("henry_turns")
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
            raise PositionError("field 'solo.henry_turns': a non-negative integer is required")
        self.henry_turns = turns
        events = []
        for i, e in enumerate(lst("events")):
            if not isinstance(e, dict):
                raise PositionError(f"field 'solo.events[{i}]': expected an object")
            events.append(tuple(e.items()))
        self.log = tuple(events)
        seen = [*self.pile, *self.unseen_removed, *self.taken, *(t for _, t in self.treasures)]
        if sorted(seen) != list(range(len(self.tset.tokens))):
            raise PositionError(
                "field 'solo': every treasure token must be exactly once in pile, unseen_removed, "
                "removed or treasures"
            )


__all__ = ["HENRY_BASE", "SoloState"]
