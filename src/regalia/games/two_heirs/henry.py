"""Henry, the automaton of The Two Heirs solo game ("Solo rules").

Everything here is a pure function of a position given as plain values (board cells, tiles, the
royal reserve, ...), so the engine (:mod:`regalia.games.two_heirs.solo`) and the companion for
the printed game (:mod:`regalia.games.two_heirs.companion`) share one implementation of Henry.

Henry's turn ("Solo course of the game"):

1. take a tile: unlimited reach; the first tile clockwise from the shield of the colour of the
   supply's top tile (rule a), else the first tile clockwise (rule b);
2. place it (facing away from the player) next to the player's last building, scanning the eight
   positions clockwise from the top edge (C1 = directly above, C2 = above right, ..., C8 = above
   left, in the player's frame): A. connect to a road of that building, else B. block one of its
   roads, else C. the first free position, else D. the tile leaves the game;
3. a treasure token from the pile goes onto the new building;
4. the unit whose cross has the new building's colour moves onto it.

Rulings: docs/rulings.md, section "Solo rules (Henry)".

>>> ts = default_treasures()
>>> len(ts.tokens), [COLOURS[c] for c in ts.crosses]
(10, ['green', 'grey', 'yellow'])
>>> ts.token("H7").describe()
'positional: any tiles on its N (above) and E (right) neighbours'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from regalia.core.data import DataFiles, frozen_reduce
from regalia.core.errors import DataError
from regalia.core.fields import check_entry_fields, data_document, entry_object
from regalia.core.fields import entry_error as _fail
from regalia.core.grid import CLOCKWISE8, OPPOSITE, Pos, step
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.tiles import COLOURS, Tile

#: Henry's seat; the player is seat 0 and always starts ("Solo course of the game").
HENRY: Final = 1
PLAYER: Final = 0
#: The colour written "brown" on a token: a tile of any colour.
ANY: Final = -1
CONDITIONS: tuple[str, ...] = ("vertical", "horizontal", "positional")
#: Treasure tokens removed unseen at setup, per level ("Solo setup").
REMOVED_AT_LEVEL: dict[int, int] = {1: 4, 2: 2, 3: 0}
#: Points Henry gets per treasure left on the board or in the pile ("Solo scoring").
TREASURE_POINTS: Final = 5
#: Names of Henry's units in the data file: index 0 is the elite unit.
UNIT_NAMES: tuple[str, ...] = ("elite", "regular-1", "regular-2")
TOKENS_IN_GAME: Final = 10

_WORDS = {
    "N": "directly above",
    "NE": "above and to the right",
    "E": "to the right",
    "SE": "below and to the right",
    "S": "directly below",
    "SW": "below and to the left",
    "W": "to the left",
    "NW": "above and to the left",
}
_SHORT = {
    "N": "above",
    "NE": "above right",
    "E": "right",
    "SE": "below right",
    "S": "below",
    "SW": "below left",
    "W": "left",
    "NW": "above left",
}


# -- treasure data ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TreasureToken:
    """One treasure token: its condition, in the player's frame.

    ``colour`` is a tile colour index or :data:`ANY` (brown); ``positions`` (positional tokens
    only) are the two directions, from the treasure's tile, that must hold tiles.
    """

    index: int
    id: str
    condition: str
    colour: int
    positions: tuple[str, ...] = ()

    @property
    def colour_name(self) -> str:
        return "brown" if self.colour == ANY else COLOURS[self.colour]

    def describe(self) -> str:
        what = "any tiles" if self.colour == ANY else f"{self.colour_name} tiles"
        if self.condition == "positional":
            a, b = self.positions
            return f"positional: {what} on its {a} ({_SHORT[a]}) and {b} ({_SHORT[b]}) neighbours"
        where = "column" if self.condition == "vertical" else "row"
        return f"{self.condition}: 2 {what} elsewhere in its {where}"

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "condition": self.condition, "colour": self.colour_name}
        if self.positions:
            doc["positions"] = list(self.positions)
        return doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True)
class TreasureSet:
    """The treasure tokens and the cross colours of Henry's units (elite, regular, regular)."""

    tokens: tuple[TreasureToken, ...]
    crosses: tuple[int, int, int]
    source: str = "<default>"
    reconstructed: bool = True

    def token(self, token_id: str) -> TreasureToken:
        for t in self.tokens:
            if t.id == token_id:
                return t
        raise DataError(f"no treasure token {token_id!r} in {self.source}")

    def unit_for(self, colour: int) -> int:
        """Which of Henry's units (0 = elite) has a cross of ``colour`` ("Moving Henry's unit")."""
        return self.crosses.index(colour)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


def parse_token(entry: Any, index: int, where: str) -> TreasureToken:
    """Validate one token entry; errors name the token and the field."""
    entry = entry_object(entry, where, "a token")
    tid = entry.get("id")
    if not isinstance(tid, str) or not tid:
        raise _fail(where, "id", "a non-empty string is required")
    where = f"{where} (token {tid})"
    known = {"id", "condition", "colour", "positions"}
    check_entry_fields(entry, known, where)
    condition = entry.get("condition")
    if condition not in CONDITIONS:
        raise _fail(where, "condition", f"{condition!r} is not one of {', '.join(CONDITIONS)}")
    colour_name = entry.get("colour")
    if colour_name != "brown" and colour_name not in COLOURS:
        raise _fail(where, "colour", f"{colour_name!r} is not one of {', '.join((*COLOURS, 'brown'))}")
    colour = ANY if colour_name == "brown" else COLOURS.index(colour_name)
    raw = entry.get("positions")
    positions: tuple[str, ...] = ()
    if condition == "positional":
        if not isinstance(raw, list) or len(raw) != 2:
            raise _fail(where, "positions", 'a positional token needs 2 directions, e.g. ["N", "E"]')
        for d in raw:
            if d not in CLOCKWISE8:
                raise _fail(where, "positions", f"{d!r} is not a direction ({', '.join(CLOCKWISE8)})")
        if raw[0] == raw[1]:
            raise _fail(where, "positions", "the two positions must differ")
        positions = (raw[0], raw[1])
    elif raw is not None:
        raise _fail(where, "positions", f"only positional tokens have positions, not a {condition} one")
    return TreasureToken(index, tid, condition, colour, positions)


def parse_treasures(doc: Any, source: str = "<document>") -> TreasureSet:
    """Validate a treasure document (see docs/formats.md, "Solo treasure tokens")."""
    doc = data_document(doc, source, "a treasure file", "two-heirs-treasures")
    raw = doc.get("tokens")
    if not isinstance(raw, list) or len(raw) != TOKENS_IN_GAME:
        got = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise DataError(f"{source}: field 'tokens' must list the {TOKENS_IN_GAME} treasure tokens, got {got}")
    tokens: list[TreasureToken] = []
    for i, entry in enumerate(raw):
        token = parse_token(entry, i, f"{source}: tokens[{i}]")
        if any(t.id == token.id for t in tokens):
            raise DataError(f"{source}: token {token.id}: field 'id': duplicate id")
        tokens.append(token)
    units = doc.get("henry_units")
    if not isinstance(units, Mapping) or sorted(units) != sorted(UNIT_NAMES):
        raise DataError(
            f"{source}: field 'henry_units' must map {', '.join(UNIT_NAMES)} to the colour of their cross"
        )
    crosses = []
    for name in UNIT_NAMES:
        c = units[name]
        if c not in COLOURS:
            raise DataError(f"{source}: field 'henry_units.{name}': {c!r} is not one of {', '.join(COLOURS)}")
        crosses.append(COLOURS.index(c))
    if sorted(crosses) != [0, 1, 2]:
        raise DataError(
            f"{source}: field 'henry_units': each colour ({', '.join(COLOURS)}) must be on exactly one "
            "unit's cross, so that every building has a unit to move onto it"
        )
    return TreasureSet(
        tuple(tokens),
        (crosses[0], crosses[1], crosses[2]),
        source=source,
        reconstructed=bool(doc.get("reconstructed", False)),
    )


#: The reconstructed treasure tokens shipped with regalia and users' treasure files.
TREASURES = DataFiles(parse_treasures, "regalia.games.two_heirs", "data/treasures.json", "treasure file")
#: Load and validate a user's treasure file.
load_treasures = TREASURES.load
#: The treasure tokens shipped with regalia, parsed once.
default_treasures = TREASURES.default
#: The default treasure set (``None``) or a user's file, parsed once per path.
treasures_for = TREASURES.get


# -- treasure conditions ----------------------------------------------------------------------


def condition_met(token: TreasureToken, pos: Pos, board: Mapping[Pos, int], tiles: Sequence[Tile]) -> bool:
    """Whether ``token`` lying on the tile at ``pos`` has its condition met ("Treasures ...").

    Every tile counts, face up or face down, whoever owns it; the treasure's own tile does not.
    Positional directions are in the player's frame (the token is turned towards the player).
    """
    return condition_progress(token, pos, board, tiles) == 1.0


def condition_progress(
    token: TreasureToken, pos: Pos, board: Mapping[Pos, int], tiles: Sequence[Tile]
) -> float:
    """How much of ``token``'s condition the board meets, from 0 to 1 (1: :func:`condition_met`):
    the share of the two tiles it asks for that are there. A positional token one of whose marked
    positions holds a tile of another colour can never be met (tiles never leave the board): 0.

    A guess for search (:meth:`regalia.games.two_heirs.solo.SoloState.evaluate_treasures`), not a
    rule.

    >>> from regalia.games.two_heirs.tiles import default_catalogue
    >>> tiles = default_catalogue().tiles
    >>> condition_progress(default_treasures().token("H7"), (0, 0), {(0, 0): 0, (0, 1): 0}, tiles)
    0.5
    """
    colour = token.colour
    if token.condition == "positional":
        found = 0
        for d in token.positions:
            code = board.get(step(pos, d))
            if code is None:
                continue
            if colour != ANY and tiles[code >> 2].colour != colour:
                return 0.0
            found += 1
        return found / len(token.positions)
    axis = 0 if token.condition == "vertical" else 1
    line = pos[axis]
    n = 0
    for q, code in board.items():
        if q[axis] == line and q != pos and (colour == ANY or tiles[code >> 2].colour == colour):
            n += 1
            if n == 2:
                break
    return n / 2


def treasure_hope(
    tokens: Sequence[TreasureToken], pos: Pos, board: Mapping[Pos, int], tiles: Sequence[Tile], hope: float
) -> float:
    """The mean over ``tokens`` (those that may be drawn) of what a treasure put on a tile at
    ``pos`` is expected to give back of its points: 1 for a condition the board meets already
    (the token leaves at once), ``hope * progress`` for one begun (:func:`condition_progress`).
    A guess for search, not a rule.

    >>> from regalia.games.two_heirs.tiles import default_catalogue
    >>> tiles, ts = default_catalogue().tiles, default_treasures()
    >>> treasure_hope([ts.token("H7")], (0, 0), {(0, 1): 0, (1, 0): 0}, tiles, 0.5)
    1.0
    >>> treasure_hope([ts.token("H7")], (0, 0), {(0, 1): 0}, tiles, 0.5)
    0.25
    """
    if not tokens:
        return 0.0
    total = 0.0
    for token in tokens:
        progress = condition_progress(token, pos, board, tiles)
        total += 1.0 if progress == 1.0 else hope * progress
    return total / len(tokens)


def treasures_met(
    treasures: Sequence[tuple[Pos, int]],
    board: Mapping[Pos, int],
    tiles: Sequence[Tile],
    tset: TreasureSet,
    placed: Pos | None = None,
) -> tuple[tuple[Pos, int], ...]:
    """The treasures (position, token index) on the board whose condition is met.

    With ``placed`` (the tile just placed), only the treasures that tile can affect are checked:
    the one lying on it, and those in its column, row or on a marked neighbouring position. This
    is exact when no other treasure was met before (conditions never become false: tiles never
    leave the board and keep their colour).
    """
    tokens = tset.tokens
    out = []
    for t in treasures:
        pos, index = t
        token = tokens[index]
        if placed is not None and pos != placed:
            if token.condition == "vertical":
                if pos[0] != placed[0]:
                    continue
            elif token.condition == "horizontal":
                if pos[1] != placed[1]:
                    continue
            elif all(step(pos, d) != placed for d in token.positions):
                continue
        if condition_met(token, pos, board, tiles):
            out.append(t)
    return tuple(out)


# -- taking a tile ----------------------------------------------------------------------------


class Take(NamedTuple):
    """Henry's tile: its reserve position, the rule that chose it ("a" or "b"), its rank clockwise."""

    tile: int
    reserve_pos: int
    rule: str
    rank: int


def clockwise_from_shield(reserve: Sequence[int], shield: int) -> list[int]:
    """Reserve positions holding a tile, clockwise from the shield (empty positions skipped)."""
    size = len(reserve)
    out = []
    for k in range(1, size):
        pos = (shield + k) % size
        if reserve[pos] >= 0:
            out.append(pos)
    return out


def choose_tile(
    reserve: Sequence[int], shield: int, tiles: Sequence[Tile], top_colour: int | None
) -> Take | None:
    """ "1. Taking a building tile": rule a (supply's top colour), else rule b; ``None``: no tile."""
    order = clockwise_from_shield(reserve, shield)
    if not order:
        return None
    if top_colour is not None:
        for rank, pos in enumerate(order, start=1):
            if tiles[reserve[pos]].colour == top_colour:
                return Take(reserve[pos], pos, "a", rank)
    return Take(reserve[order[0]], order[0], "b", 1)


# -- placing it -------------------------------------------------------------------------------


class Placement(NamedTuple):
    """Where Henry's tile goes: ``pos`` (``None`` for rule D), the rule, and the scan slot.

    ``slot`` is 1..8 (C1 = directly above the player's last building, clockwise in the player's
    frame), ``direction`` the compass direction from that building; both 0 / "" for rule D.
    """

    pos: Pos | None
    rule: str
    slot: int
    direction: str


def road_sides(code: int, tiles: Sequence[Tile]) -> frozenset[str]:
    """Board-frame sides where the road of the tile ``code`` reaches its edge (none if face down)."""
    owner = owner_of(code)
    if owner < 0:
        return frozenset()
    return frozenset(to_global(d, owner) for sec in tiles[tile_of(code)].roads for d in sec)


def choose_placement(board: Mapping[Pos, int], tiles: Sequence[Tile], tile: int, last: Pos) -> Placement:
    """ "2. Placing the selected building tile" next to ``last`` (the player's last building).

    A: a free side position where the last building's road reaches the edge and Henry's tile,
    turned to face away from the player, has a road on the facing side; B: a free side position
    where the last building's road reaches the edge (Henry's tile ends that road there); C: the
    first free position of the eight; D: none is free. Each rule scans clockwise from C1.
    """
    code = board.get(last)
    exits = road_sides(code, tiles) if code is not None else frozenset()
    free = [(i, d, step(last, d)) for i, d in enumerate(CLOCKWISE8, start=1) if step(last, d) not in board]
    if exits:
        henry_sides = road_sides(tile * 4 + HENRY + 1, tiles)
        ends = [(i, d, q) for i, d, q in free if d in exits]
        for i, d, q in ends:
            if OPPOSITE[d] in henry_sides:
                return Placement(q, "A", i, d)
        if ends:
            i, d, q = ends[0]
            return Placement(q, "B", i, d)
    if free:
        i, d, q = free[0]
        return Placement(q, "C", i, d)
    return Placement(None, "D", 0, "")


# -- the whole turn ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class HenryTurn:
    """Every decision of one Henry turn, computed from the position before it.

    ``token`` is the treasure token that goes on the new building (-1: none, or unknown when only
    the pile size is known), ``placed_token`` whether one is placed at all; ``unit`` is the unit
    (0 = elite) that moves from ``unit_from`` (``None``: from the edge of the play area);
    ``removed`` lists the treasures (position, token) whose condition holds once the tile and
    token lie on the board, the new token included when its condition already holds.
    """

    take: Take | None
    last: Pos
    placement: Placement | None
    placed_token: bool
    token: int
    unit: int
    unit_from: Pos | None
    removed: tuple[tuple[Pos, int], ...]

    @property
    def pos(self) -> Pos | None:
        return None if self.placement is None else self.placement.pos

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


def plan_turn(
    *,
    board: Mapping[Pos, int],
    tiles: Sequence[Tile],
    reserve: Sequence[int],
    shield: int,
    top_colour: int | None,
    last: Pos,
    treasures: Sequence[tuple[Pos, int]],
    pile_size: int,
    next_token: int,
    tset: TreasureSet,
    unit_positions: Sequence[Pos | None],
    with_removals: bool = True,
) -> HenryTurn:
    """Henry's whole turn from a position (pure: nothing given is changed).

    ``unit_positions`` are Henry's three units (elite first), ``None`` while off the board;
    ``next_token`` is the top token of the pile (-1 when unknown). ``with_removals=False`` skips
    the treasure checks (``removed`` stays empty): the engine checks them after the placement.
    """
    take = choose_tile(reserve, shield, tiles, top_colour)
    if take is None:
        return HenryTurn(None, last, None, False, -1, -1, None, ())
    placement = choose_placement(board, tiles, take.tile, last)
    if placement.pos is None:
        return HenryTurn(take, last, placement, False, -1, -1, None, ())
    placed = pile_size > 0
    removed: tuple[tuple[Pos, int], ...] = ()
    if with_removals:
        after = dict(board)
        after[placement.pos] = take.tile * 4 + HENRY + 1
        on_board = list(treasures)
        if placed and next_token >= 0:
            on_board.append((placement.pos, next_token))
        removed = treasures_met(on_board, after, tiles, tset)
    unit = tset.unit_for(tiles[take.tile].colour)
    return HenryTurn(
        take, last, placement, placed, next_token if placed else -1, unit, unit_positions[unit], removed
    )


def direction_words(direction: str) -> str:
    """How a position next to a tile reads in the player's frame ("above and to the right")."""
    return _WORDS[direction]


__all__ = [
    "ANY",
    "HENRY",
    "PLAYER",
    "REMOVED_AT_LEVEL",
    "TREASURE_POINTS",
    "HenryTurn",
    "Placement",
    "Take",
    "TreasureSet",
    "TreasureToken",
    "choose_placement",
    "choose_tile",
    "clockwise_from_shield",
    "condition_met",
    "condition_progress",
    "default_treasures",
    "direction_words",
    "load_treasures",
    "parse_treasures",
    "plan_turn",
    "road_sides",
    "treasure_hope",
    "treasures_for",
    "treasures_met",
]
