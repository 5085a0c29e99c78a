"""The Two Heirs rules engine: :class:`TwoHeirsState`.

Section names in error messages and docstrings are those of rules/the-two-heirs.md. The state is
compact (ints, tuples, small dicts) and :meth:`TwoHeirsState.clone` copies only the mutable parts.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> state.apply_text("end")
Traceback (most recent call last):
...
regalia.core.errors.IllegalAction: you must first take a tile from the royal reserve [Action A]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, Self

from regalia.core.errors import IllegalAction, PositionError
from regalia.core.game import JSON, State
from regalia.core.grid import Pos, format_pos, neighbours4, neighbours8
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action, make
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.scoring import ScoreSheet, score_board
from regalia.games.two_heirs.tiles import COLOURS, PRODUCERS, SETS, Tile

SEAT_NAMES = ("white", "blue")
RESERVE_SIZE = 7
HAND_LIMIT = 3
UNITS_PER_SEAT = 3  # unit index seat*3 + k; k == 0 is the elite unit
START: Pos = (0, 0)
#: The other reserve positions clockwise from each shield position.
_CLOCKWISE_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple((s + k) % RESERVE_SIZE for k in range(1, RESERVE_SIZE)) for s in range(RESERVE_SIZE)
)


class TwoHeirsState(State[Action]):
    """A position of The Two Heirs with its history."""

    __slots__ = (
        "_legal",
        "_score_cache",
        "board",
        "box",
        "discarding",
        "discounts",
        "final",
        "finals_left",
        "first",
        "game",
        "hands",
        "hist",
        "last_built",
        "moved",
        "pending",
        "player",
        "prod",
        "reserve",
        "seed",
        "sets",
        "shield",
        "shield_mine",
        "supply",
        "terminal",
        "tiles",
        "took",
        "trigger",
        "unit_at",
        "units",
    )

    game: Any
    tiles: tuple[Tile, ...]
    seed: int
    sets: tuple[str, ...]
    first: int
    player: int
    shield: int
    reserve: list[int]
    board: dict[Pos, int]
    units: list[Pos | None]
    unit_at: dict[Pos, int]
    supply: list[int]
    hands: list[list[int]]
    box: list[int]
    took: bool
    shield_mine: bool
    moved: int
    discounts: int
    pending: tuple[Pos, ...]
    discarding: bool
    final: bool
    trigger: bool
    finals_left: int
    terminal: bool
    last_built: list[Pos | None]
    prod: list[list[int]]
    hist: Any
    _legal: tuple[Action, ...] | None
    _score_cache: ScoreSheet | None

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: Any, seed: int) -> TwoHeirsState:
        """Setup: choose the sets, shuffle the supply, flip the shield, lay the reserve and start."""
        rng = random.Random(seed)
        options = game.options
        sets = tuple(rng.sample(SETS, 3)) if options.sets == ("random",) else tuple(options.sets)
        cat = game.catalogue
        pile = [t.index for t in cat.tiles if t.set in sets]
        if len(pile) < 8:
            raise PositionError(f"the chosen sets hold {len(pile)} tiles in this catalogue; 8 are needed")
        rng.shuffle(pile)
        s = cls.__new__(cls)
        s.game = game
        s.tiles = cat.tiles
        s.seed = seed
        s.sets = sets
        s.first = rng.randrange(2)  # the royal shield flipped like a coin
        s.player = s.first
        s.shield = 0
        s.reserve = [-1] * RESERVE_SIZE
        for pos in range(1, RESERVE_SIZE):  # to the right of the shield, clockwise
            s.reserve[pos] = pile.pop()
        start_tile = pile.pop()
        s.board = {START: start_tile * 4}  # face down
        s.units = [START, None, None, START, None, None]
        s.unit_at = {}  # the two elites share the start tile; see _unit_on
        s.supply = pile
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
        s.hist = None
        s._legal = None
        s._score_cache = None
        s._reindex_units()
        return s

    def _reindex_units(self) -> None:
        self.unit_at = {}
        for i, p in enumerate(self.units):
            if p is not None and p not in self.unit_at:
                self.unit_at[p] = i

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s.game = self.game
        s.tiles = self.tiles
        s.seed = self.seed
        s.sets = self.sets
        s.first = self.first
        s.player = self.player
        s.shield = self.shield
        s.reserve = self.reserve[:]
        s.board = self.board.copy()
        s.units = self.units[:]
        s.unit_at = self.unit_at.copy()
        s.supply = self.supply[:]
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
        s.hist = self.hist
        s._legal = self._legal
        s._score_cache = self._score_cache
        return s

    # ------------------------------------------------------------------ basic queries
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        return -1 if self.terminal else self.player

    def is_terminal(self) -> bool:
        return self.terminal

    def seat_names(self) -> list[str]:
        return list(SEAT_NAMES)

    @property
    def history(self) -> Sequence[Action]:
        out: list[Action] = []
        node = self.hist
        while node is not None:
            node, a = node
            out.append(a)
        out.reverse()
        return out

    def history_texts(self) -> list[str]:
        return [self.action_text(a) for a in self.history]

    def tile(self, index: int) -> Tile:
        return self.tiles[index]

    def units_in_reserve(self, seat: int) -> int:
        units = self.units
        base = seat * UNITS_PER_SEAT
        return (units[base + 1] is None) + (units[base + 2] is None)

    def unit_positions(self, seat: int) -> list[Pos]:
        base = seat * UNITS_PER_SEAT
        return [p for p in self.units[base : base + UNITS_PER_SEAT] if p is not None]

    def reach(self, seat: int) -> int:
        """Royal protocol: 1 plus the seat's units in the royal reserve."""
        return 1 + self.units_in_reserve(seat)

    def reach_positions(self, seat: int) -> list[int]:
        """Reserve positions within ``seat``'s reach, clockwise from the shield.

        Empty positions are skipped ("Final turn and end of the game"; ruling R-final-no-tile).
        """
        r = 1 + self.units_in_reserve(seat)
        out = []
        reserve = self.reserve
        shield = self.shield
        for pos in _CLOCKWISE_FROM[shield]:
            if reserve[pos] >= 0:
                out.append(pos)
                r -= 1
                if not r:
                    break
        return out

    def resources(self, seat: int) -> list[int]:
        """Resources available to ``seat`` now, per colour (wood, stone, grain) ("Resources")."""
        res = self.prod[seat][:]
        tiles = self.tiles
        reserve = self.reserve
        for pos in self.reach_positions(seat):
            res[tiles[reserve[pos]].colour] += 1
        board = self.board
        base = seat * UNITS_PER_SEAT
        for p in self.units[base : base + UNITS_PER_SEAT]:
            if p is not None:
                res[tiles[board[p] >> 2].colour] += 1
        return res

    def placements(self, seat: int) -> list[Pos]:
        """Free positions touching, by side or corner, a tile occupied by ``seat``'s unit (B.1, B.2)."""
        board = self.board
        base = seat * UNITS_PER_SEAT
        out: list[Pos] = []
        seen: set[Pos] = set()
        for p in self.units[base : base + UNITS_PER_SEAT]:
            if p is None:
                continue
            for q in neighbours8(p):
                if q not in board and q not in seen:
                    seen.add(q)
                    out.append(q)
        return out

    def _deficit(self, tile: int, res: list[int]) -> int:
        cost = self.tiles[tile].cost
        d = 0
        for r in range(3):
            if cost[r] > res[r]:
                d += cost[r] - res[r]
        return d

    def _occupied(self, pos: Pos) -> bool:
        return pos in self.unit_at

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> tuple[Action, ...]:
        if self.terminal:
            return ()
        p = self.player
        if self.pending:
            return (*(make(act.DESTROY, -1, None, q) for q in self.pending), act.SPARE_ACTION)
        hand = self.hands[p]
        if self.discarding:
            return tuple(make(act.DISCARD, t) for t in sorted(set(hand)))
        new = tuple.__new__
        A = Action
        out: list[Action] = []
        reserve = self.reserve
        if self.shield_mine:
            out += [new(A, (act.TAKE, reserve[pos], None, None)) for pos in self.reach_positions(p)]
        board = self.board
        if hand:
            places = self.placements(p)
            if places:
                res = self.resources(p)
                discounts = self.discounts
                for t in sorted(set(hand)):
                    if self._deficit(t, res) <= discounts:
                        out += [new(A, (act.BUILD, t, None, q)) for q in places]
                    out += [new(A, (act.TERRAIN, t, None, q)) for q in places]
        # Action C
        base = p * UNITS_PER_SEAT
        units = self.units
        moved = self.moved
        unit_at = self.unit_at
        callable_ = False
        for k in range(UNITS_PER_SEAT):
            i = base + k
            if moved >> i & 1:
                continue
            u = units[i]
            if u is None:
                callable_ = True
                continue
            out += [new(A, (act.STEP, -1, u, q)) for q in neighbours8(u) if q in board and q not in unit_at]
            if k:
                out.append(new(A, (act.WITHDRAW, -1, u, None)))
        if callable_:
            targets: set[Pos] = set()
            for u in units[base : base + UNITS_PER_SEAT]:
                if u is not None:
                    targets.update(q for q in neighbours8(u) if q in board and q not in unit_at)
            out += [new(A, (act.CALL, -1, None, q)) for q in sorted(targets)]
        if self.took and not self.shield_mine:
            tiles = self.tiles
            for c in board.values():
                if (c & 3) == p + 1 and tiles[c >> 2].building == "camp":
                    out.append(make(act.CAMP, c >> 2))
        if self.took or not self._any_reachable():
            out.append(act.END_ACTION)
        return tuple(out)

    def _any_reachable(self) -> bool:
        return any(t >= 0 for t in self.reserve)

    # ------------------------------------------------------------------ checking
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule when ``action`` is illegal."""
        if not isinstance(action, Action) or action.kind not in act.SIGNATURES:
            raise IllegalAction(f"{action!r} is not a Two Heirs action", "Course of the game")
        if self.terminal:
            raise IllegalAction("the game is over", "Final turn and end of the game")
        legal = self._legal
        if legal is not None and type(action) is Action and action in legal:
            return
        kind = action.kind
        p = self.player
        if self.pending and kind not in (act.DESTROY, act.SPARE):
            raise IllegalAction(
                "decide first whether to destroy the buildings your siege towers besiege "
                "('destroy X,Y' or 'spare')",
                "Warfare: Siege tower",
            )
        if self.discarding and kind != act.DISCARD:
            raise IllegalAction(
                f"your turn has ended with {len(self.hands[p])} tiles in hand: discard down to 3",
                "Hand limit",
            )
        getattr(self, "_check_" + kind)(action, p)

    def _tile_arg(self, action: Action) -> Tile:
        if not 0 <= action.tile < len(self.tiles):
            raise IllegalAction(f"no tile with index {action.tile}", "Components")
        return self.tiles[action.tile]

    def _check_take(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if not self.shield_mine:
            raise IllegalAction("you have already taken a tile this turn", "Action A")
        if a.tile not in self.reserve:
            raise IllegalAction(f"{tile.id} is not in the royal reserve", "Action A")
        reach = self.reach_positions(p)
        if self.reserve.index(a.tile) not in reach:
            raise IllegalAction(
                f"{tile.id} is beyond your reach of {self.reach(p)} tiles clockwise from the shield",
                "Royal protocol",
            )

    def _check_place(self, a: Action, p: int, rule: str) -> Tile:
        tile = self._tile_arg(a)
        if a.tile not in self.hands[p]:
            raise IllegalAction(f"{tile.id} is not in your hand", rule)
        if a.dst is None:
            raise IllegalAction("a position is needed", rule)
        if a.dst in self.board:
            raise IllegalAction(f"position {format_pos(a.dst)} is not free", rule)
        if a.dst not in self.placements(p):
            raise IllegalAction(
                f"position {format_pos(a.dst)} does not touch, by side or corner, "
                "a tile occupied by your unit",
                rule,
            )
        return tile

    def _check_build(self, a: Action, p: int) -> None:
        tile = self._check_place(a, p, "Action B.1")
        res = self.resources(p)
        deficit = self._deficit(a.tile, res)
        if deficit > self.discounts:
            have = ", ".join(f"{n} {r}" for n, r in zip(res, ("wood", "stone", "grain"), strict=True))
            extra = f" and {self.discounts} free-terrain discount(s)" if self.discounts else ""
            raise IllegalAction(
                f"{tile.id} ({tile.building}) costs {tile.cost_text()} but you have {have}{extra}",
                "Resources",
            )

    def _check_terrain(self, a: Action, p: int) -> None:
        self._check_place(a, p, "Action B.2")

    def _own_unit(self, pos: Pos | None, p: int, rule: str) -> int:
        if pos is None:
            raise IllegalAction("a position is needed", rule)
        base = p * UNITS_PER_SEAT
        for k in range(UNITS_PER_SEAT):
            if self.units[base + k] == pos:
                i = base + k
                if self.moved >> i & 1:
                    # another unmoved unit of yours there? (only the shared start tile)
                    continue
                return i
        if any(self.units[base + k] == pos for k in range(UNITS_PER_SEAT)):
            raise IllegalAction(f"your unit at {format_pos(pos)} has already moved this turn", rule)
        raise IllegalAction(f"you have no unit at {format_pos(pos)}", rule)

    def _check_step(self, a: Action, p: int) -> None:
        self._own_unit(a.src, p, "Action C")
        assert a.src is not None
        if a.dst is None or a.dst not in self.board:
            raise IllegalAction("a unit can only move onto a tile of the play area", "Action C")
        if a.dst not in set(neighbours8(a.src)):
            raise IllegalAction(
                f"{format_pos(a.dst)} does not touch {format_pos(a.src)} by side or corner",
                "Action C",
            )
        if a.dst in self.unit_at:
            raise IllegalAction(f"{format_pos(a.dst)} is already occupied by a unit", "Action C")

    def _check_call(self, a: Action, p: int) -> None:
        base = p * UNITS_PER_SEAT
        if not any(
            self.units[base + k] is None and not self.moved >> (base + k) & 1
            for k in range(1, UNITS_PER_SEAT)
        ):
            raise IllegalAction("you have no unmoved unit in the royal reserve to call", "Action C")
        q = a.dst
        if q is None or q not in self.board:
            raise IllegalAction("a unit can only be called onto a tile of the play area", "Action C")
        if q in self.unit_at:
            raise IllegalAction(f"{format_pos(q)} is already occupied by a unit", "Action C")
        own = set(self.unit_positions(p))
        if not any(n in own for n in neighbours8(q)):
            raise IllegalAction(
                f"{format_pos(q)} does not touch, by side or corner, a tile occupied by your unit",
                "Action C",
            )

    def _check_withdraw(self, a: Action, p: int) -> None:
        i = self._own_unit(a.src, p, "Action C")
        if i % UNITS_PER_SEAT == 0:
            raise IllegalAction("your elite unit may not leave the play area", "Action C")

    def _check_camp(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if tile.building != "camp":
            raise IllegalAction(f"{tile.id} is not a camp", "Dominion: Camp")
        if not any(c == a.tile * 4 + p + 1 for c in self.board.values()):
            raise IllegalAction(f"{tile.id} is not one of your unused camps on the board", "Dominion: Camp")
        if self.shield_mine or not self.took:
            raise IllegalAction(
                "a camp can be used only after you have taken a tile this turn", "Dominion: Camp"
            )

    def _check_destroy(self, a: Action, p: int) -> None:
        if a.dst not in self.pending:
            where = format_pos(a.dst) if a.dst else "?"
            raise IllegalAction(
                f"no opponent's building at {where} is touched by the sides of two of your siege towers "
                "placed just now",
                "Warfare: Siege tower",
            )

    def _check_spare(self, a: Action, p: int) -> None:
        if not self.pending:
            raise IllegalAction("there is nothing to spare", "Warfare: Siege tower")

    def _check_end(self, a: Action, p: int) -> None:
        if not self.took and self._any_reachable():
            raise IllegalAction("you must first take a tile from the royal reserve", "Action A")

    def _check_discard(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if not self.discarding:
            raise IllegalAction(
                "tiles are discarded only at the end of your turn, above 3 in hand", "Hand limit"
            )
        if a.tile not in self.hands[p]:
            raise IllegalAction(f"{tile.id} is not in your hand", "Hand limit")

    # ------------------------------------------------------------------ applying
    def _apply(self, action: Action) -> None:
        p = self.player
        kind = action.kind
        self._legal = None
        self._score_cache = None
        self.hist = (self.hist, action)
        if kind == act.TAKE:
            self._take(action.tile)
        elif kind == act.BUILD:
            self._build(action.tile, action.dst, p)  # type: ignore[arg-type]
        elif kind == act.TERRAIN:
            self.hands[p].remove(action.tile)
            self.board[action.dst] = action.tile * 4  # type: ignore[index]
            self.discounts += 1
        elif kind == act.STEP:
            i = self._unit_index(action.src, p)  # type: ignore[arg-type]
            self._move_unit(i, action.dst)
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
        elif kind == act.CAMP:
            pos = next(q for q, c in self.board.items() if c == action.tile * 4 + p + 1)
            self.board[pos] = action.tile * 4
            self.shield_mine = True
        elif kind == act.DESTROY:
            self._flip_down(action.dst)  # type: ignore[arg-type]
            self.pending = tuple(q for q in self.pending if q != action.dst)
        elif kind == act.SPARE:
            self.pending = ()
        elif kind == act.END:
            if len(self.hands[p]) > HAND_LIMIT:
                self.discarding = True
            else:
                self._end_turn()
        elif kind == act.DISCARD:
            self.hands[p].remove(action.tile)
            self.box.append(action.tile)
            if len(self.hands[p]) <= HAND_LIMIT:
                self.discarding = False
                self._end_turn()

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
            # the start tile may still hold the other elite
            for j, q in enumerate(self.units):
                if j != i and q == src:
                    self.unit_at[src] = j
                    break
        self.units[i] = dst
        if dst is not None:
            self.unit_at[dst] = i
        self.moved |= 1 << i

    def _take(self, tile: int) -> None:
        pos = self.reserve.index(tile)
        self.reserve[pos] = -1
        old = self.shield
        self.shield = pos
        self.hands[self.player].append(tile)
        self.took = True
        self.shield_mine = False
        if not self.final and self.supply:
            self.reserve[old] = self.supply.pop()
            if not self.supply:
                self.trigger = True

    def _build(self, tile: int, pos: Pos, p: int) -> None:
        deficit = self._deficit(tile, self.resources(p))
        self.discounts -= deficit
        self.hands[p].remove(tile)
        self.board[pos] = tile * 4 + p + 1
        self.last_built[p] = pos
        t = self.tiles[tile]
        if t.building in PRODUCERS:
            self.prod[p][PRODUCERS[t.building]] += 1
        if t.building == "siege-tower":
            self.pending = self._besieged(pos, p)

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
        self.board[pos] = tile_of(code) * 4

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
        return list(self.score_sheet().totals)

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0, 0.0]
        a, b = self.scores()
        if a == b:
            a, b = self.units_in_reserve(0), self.units_in_reserve(1)
        if a == b:
            return [0.0, 0.0]
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    # ------------------------------------------------------------------ notation
    def action_text(self, action: Action) -> str:
        return act.action_text(action, self.game.catalogue)

    def parse_action(self, text: str) -> Action:
        return act.parse_action(text, self.game.catalogue)

    # ------------------------------------------------------------------ views
    def observation(self, seat: int | None = None) -> JSON:
        """Everything is open but the order of the supply (only its size and top colour show)."""
        doc = self._public()
        doc["seat"] = seat
        if self.supply:
            doc["supply_top_colour"] = COLOURS[self.tiles[self.supply[-1]].colour]
        doc["legal"] = (
            [self.action_text(a) for a in self.legal_actions()]
            if seat is None or seat == self.current_player
            else []
        )
        return doc

    def _public(self) -> JSON:
        tid = self.tiles
        return {
            "game": self.game.id,
            "seed_hidden": True,
            "sets": list(self.sets),
            "first": self.first,
            "current_player": self.current_player,
            "board": [
                {
                    "pos": format_pos(pos),
                    "tile": tid[tile_of(c)].id,
                    "owner": owner_of(c) if owner_of(c) >= 0 else None,
                }
                for pos, c in sorted(self.board.items())
            ],
            "units": [
                {
                    "seat": i // UNITS_PER_SEAT,
                    "elite": i % UNITS_PER_SEAT == 0,
                    "pos": None if u is None else format_pos(u),
                    "moved": bool(self.moved >> i & 1),
                }
                for i, u in enumerate(self.units)
            ],
            "reserve": [None if t < 0 else tid[t].id for t in self.reserve],
            "shield": self.shield,
            "shield_mine": self.shield_mine,
            "took": self.took,
            "supply_size": len(self.supply),
            "hands": [[tid[t].id for t in h] for h in self.hands],
            "box": [tid[t].id for t in self.box],
            "discounts": self.discounts,
            "pending_destroy": [format_pos(q) for q in self.pending],
            "discarding": self.discarding,
            "final": self.final,
            "finals_left": self.finals_left,
            "trigger": self.trigger,
            "terminal": self.terminal,
            "last_built": [None if q is None else format_pos(q) for q in self.last_built],
            "scores": self.scores(),
        }

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Resample the hidden order of the supply, keeping the visible colour of its top tile."""
        s = self.clone()
        if len(s.supply) > 1:
            top_colour = self.tiles[s.supply[-1]].colour
            rng.shuffle(s.supply)
            for i in range(len(s.supply) - 1, -1, -1):
                if self.tiles[s.supply[i]].colour == top_colour:
                    s.supply[i], s.supply[-1] = s.supply[-1], s.supply[i]
                    break
        s._legal = self._legal
        return s

    def to_json(self) -> JSON:
        doc = self._public()
        doc.update(
            {
                "format": "two-heirs-state",
                "version": 1,
                "options": self.game.options.to_json(),
                "seed": self.seed,
                "player": self.player,
                "supply": [self.tiles[t].id for t in self.supply],
                "history": self.history_texts(),
            }
        )
        del doc["seed_hidden"]
        return doc

    @classmethod
    def from_json(cls, game: Any, doc: JSON) -> TwoHeirsState:
        """Read a state written by :meth:`to_json`, naming the first bad field."""
        from regalia.games.two_heirs.position import state_from_doc

        return state_from_doc(cls, game, doc)

    # ------------------------------------------------------------------ helpers for tools
    def iter_buildings(self, seat: int) -> Iterator[tuple[Pos, Tile]]:
        for pos, c in self.board.items():
            if owner_of(c) == seat:
                yield pos, self.tiles[tile_of(c)]
