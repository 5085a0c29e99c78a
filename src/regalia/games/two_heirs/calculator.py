"""The Two Heirs score calculator: read a position document and score it.

The position format (``two-heirs-position``, version 1) is documented in docs/formats.md and has a
JSON Schema in ``data/position.schema.json`` beside this module (:func:`schema`). Tiles are given by
catalogue id or inline, so the owner of a printed copy can enter any board. Errors name the field, e.g.
``board[3].tile.cost: ...``.

>>> doc = {
...     "format": "two-heirs-position", "version": 1,
...     "board": [
...         {"pos": "0,0", "owner": None, "tile": "D7"},
...         {"pos": "0,1", "owner": "white", "tile": {"colour": "grey", "building": "cathedral"}},
...         {"pos": "1,1", "owner": "blue", "tile": "W4"},
...     ],
...     "units": {"white": {"positions": ["0,1"], "reserve": 2}, "blue": {"positions": [], "reserve": 2}},
... }
>>> result = score_position(parse_position(doc))
>>> result.totals, result.winner_name
((10, 2), 'white')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from regalia.core.data import read_json_file, read_package_json
from regalia.core.errors import DataError, PositionError
from regalia.core.fields import (
    check_fields,
    distinct_pos,
    field_error,
    field_object,
    is_int,
    nested_error,
    position_document,
)
from regalia.core.fields import parse_pos_field as pos_field
from regalia.core.game import JSON
from regalia.core.grid import Pos, format_pos, neighbours8
from regalia.core.plugin import calculator_options
from regalia.games.two_heirs.board import tile_of
from regalia.games.two_heirs.scoring import ScoreSheet, score_board
from regalia.games.two_heirs.tiles import BUILDINGS, COLOURS, Catalogue, Tile, default_catalogue, parse_tile

FORMAT = "two-heirs-position"
VERSION = 1
SEATS = ("white", "blue")
UNITS_PER_SEAT = 3
RESERVE_MAX = 2  # the regular units; the elite never enters the royal reserve
TREASURE_POINTS = 5

_TOP_FIELDS = {"format", "version", "options", "board", "units", "note", "$schema"}
_CELL_FIELDS = {"pos", "owner", "tile", "note"}
_OPTION_FIELDS = {"roads", "henry", "treasures"}
_INLINE_FIELDS = {"id", "set", "colour", "building", "cost", "roads", "axis", "pairs", "depicts"}


@dataclasses.dataclass(frozen=True)
class Position:
    """A board to score: cells as ``tile_index * 4 + owner code``, the tiles they index, the units."""

    cells: dict[Pos, int]
    tiles: tuple[Tile, ...]
    units: tuple[tuple[Pos, ...], tuple[Pos, ...]]
    reserve: tuple[int, int]
    roads: bool = True
    henry: int | None = None
    treasures: int = 0


@dataclasses.dataclass(frozen=True)
class PositionScore:
    """The scoring of a :class:`Position`: the sheet, extra lines, totals and the winner."""

    position: Position
    sheet: ScoreSheet
    extra: tuple[tuple[int, str, int], ...]
    totals: tuple[int, int]
    winner: int | None
    decided_by: str

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else SEATS[self.winner]

    def to_json(self) -> JSON:
        """The score as a ``two-heirs-score`` document (what ``regalia score --json`` prints)."""
        return {
            "format": "two-heirs-score",
            "version": 1,
            "buildings": [
                {
                    "pos": format_pos(b.pos),
                    "tile": b.tile,
                    "building": b.building,
                    "owner": SEATS[b.owner],
                    "base": b.base,
                    "doubled": b.doubled,
                    "points": b.points,
                    "detail": b.detail,
                }
                for b in self.sheet.buildings
            ],
            "roads": [
                {
                    "tiles": [format_pos(p) for p in r.tiles],
                    "buildings": dict(zip(SEATS, r.buildings, strict=True)),
                    "winner": None if r.winner is None else SEATS[r.winner],
                    "points": r.points,
                }
                for r in self.sheet.roads
            ],
            "extra": [{"seat": SEATS[s], "label": label, "points": n} for s, label, n in self.extra],
            "totals": dict(zip(SEATS, self.totals, strict=True)),
            "units_in_reserve": dict(zip(SEATS, self.position.reserve, strict=True)),
            "winner": self.winner_name,
            "decided_by": self.decided_by,
        }


# -- parsing ---------------------------------------------------------------------------------------


def _owner(value: Any, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value.lower() in SEATS:
        return SEATS.index(value.lower())
    if is_int(value) and value in (0, 1):
        return value
    raise field_error(field, f"{value!r} is not an owner: use 'white', 'blue', 0, 1 or null (face down)")


def _inline_tile(raw: Mapping[str, Any], index: int, field: str, default_id: str, face_up: bool) -> Tile:
    check_fields(raw, _INLINE_FIELDS, field)
    colour = raw.get("colour")
    if colour not in COLOURS:
        raise field_error(f"{field}.colour", f"{colour!r} is not one of {', '.join(COLOURS)}")
    tile_id = raw.get("id", default_id)
    if not isinstance(tile_id, str) or not tile_id:
        raise field_error(f"{field}.id", "a non-empty string is required")
    building = raw.get("building")
    if building is None and not face_up and set(raw) <= {"id", "colour"}:
        # a face-down tile: only its colour matters
        return Tile(
            index=index, id=tile_id, set="", colour=COLOURS.index(colour), building="", cost=(0, 0, 0)
        )
    if building not in BUILDINGS:
        raise field_error(
            f"{field}.building", f"{building!r} is not a building; valid: {', '.join(BUILDINGS)}"
        )
    entry = dict(raw)
    entry["id"] = tile_id
    entry.setdefault("set", BUILDINGS[building])
    try:
        return parse_tile(entry, index, where=field)
    except DataError as exc:
        raise nested_error(exc, field) from None


def parse_position(doc: Any, catalogue: Catalogue | None = None) -> Position:
    """Validate a ``two-heirs-position`` document; errors name the field (``board[3].tile.cost``)."""
    cat = catalogue or default_catalogue()
    doc = position_document(doc, FORMAT, VERSION, _TOP_FIELDS)
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise field_error("options", "expected an object")
    extra = sorted(set(options) - _OPTION_FIELDS)
    if extra:
        raise field_error(
            f"options.{extra[0]}", f"unknown option; valid: {', '.join(sorted(_OPTION_FIELDS))}"
        )
    roads = options.get("roads", True)
    if not isinstance(roads, bool):
        raise field_error("options.roads", f"expected true or false, got {roads!r}")
    henry = _owner(options.get("henry"), "options.henry")
    treasures = options.get("treasures", 0)
    if not is_int(treasures) or not 0 <= treasures <= 10:
        raise field_error(
            "options.treasures", f"expected a number of treasure tokens 0..10, got {treasures!r}"
        )
    if treasures and henry is None:
        raise field_error("options.treasures", "treasures count only in the solo game: set options.henry too")

    board = doc.get("board")
    if not isinstance(board, list) or not board:
        raise field_error("board", "expected a non-empty list of cells")
    tiles: list[Tile] = list(cat.tiles)
    cells: dict[Pos, int] = {}
    where_pos: dict[Pos, int] = {}
    where_tile: dict[int, int] = {}
    for i, cell in enumerate(board):
        field = f"board[{i}]"
        cell = field_object(
            cell,
            field,
            _CELL_FIELDS,
            ("pos", "owner", "tile"),
            "an object with pos, owner and tile",
            {"owner": " (null for a face-down tile)"},
        )
        pos = distinct_pos(cell["pos"], f"{field}.pos", where_pos, i)
        owner = _owner(cell["owner"], f"{field}.owner")
        raw = cell["tile"]
        if isinstance(raw, str):
            found = cat.by_id.get(raw)
            if found is None:
                raise field_error(f"{field}.tile", f"{raw!r} is not a tile of catalogue {cat.source}")
            index = found.index
            if index in where_tile:
                raise field_error(
                    f"{field}.tile", f"{raw} is already on the board at board[{where_tile[index]}]"
                )
            where_tile[index] = i
        elif isinstance(raw, Mapping):
            index = len(tiles)
            tiles.append(_inline_tile(raw, index, f"{field}.tile", f"@{format_pos(pos)}", owner is not None))
        else:
            raise field_error(
                f"{field}.tile", f"expected a catalogue id like 'W3' or a tile object, got {raw!r}"
            )
        cells[pos] = index * 4 + (0 if owner is None else owner + 1)
    _check_touching(list(where_pos), where_pos)

    units_doc = doc.get("units", {})
    if not isinstance(units_doc, Mapping):
        raise field_error("units", "expected an object with 'white' and 'blue'")
    extra = sorted(set(units_doc) - set(SEATS))
    if extra:
        raise field_error(f"units.{extra[0]}", "unknown seat; valid: white, blue")
    units: list[tuple[Pos, ...]] = []
    reserve: list[int] = []
    for seat in SEATS:
        field = f"units.{seat}"
        entry = field_object(
            units_doc.get(seat, {}),
            field,
            ("positions", "reserve"),
            (),
            "an object with 'positions' and 'reserve'",
        )
        raw_positions = entry.get("positions", [])
        if not isinstance(raw_positions, list):
            raise field_error(f"{field}.positions", "expected a list of positions 'x,y'")
        positions: list[Pos] = []
        for k, value in enumerate(raw_positions):
            p = pos_field(value, f"{field}.positions[{k}]")
            if p not in cells:
                raise field_error(f"{field}.positions[{k}]", f"no tile at {format_pos(p)}")
            if p in positions:
                raise field_error(f"{field}.positions[{k}]", f"two {seat} units on {format_pos(p)}")
            positions.append(p)
        n_reserve = entry.get("reserve", 0)
        if not is_int(n_reserve) or not 0 <= n_reserve <= RESERVE_MAX:
            raise field_error(
                f"{field}.reserve", f"expected 0, 1 or 2 units in the royal reserve, got {n_reserve!r}"
            )
        if len(positions) + n_reserve > UNITS_PER_SEAT:
            raise field_error(
                field, f"{len(positions)} units on the board + {n_reserve} in reserve: a seat has 3"
            )
        units.append(tuple(positions))
        reserve.append(n_reserve)
    return Position(
        cells=cells,
        tiles=tuple(tiles),
        units=(units[0], units[1]),
        reserve=(reserve[0], reserve[1]),
        roads=roads,
        henry=henry,
        treasures=treasures,
    )


def _check_touching(order: list[Pos], where: Mapping[Pos, int]) -> None:
    """Every tile touches another by a side or a corner, and all of them form one area around the
    first: each tile was placed touching one already there ("Build a building", "Extend the
    landscape")."""
    if len(order) < 2:
        return
    for pos in order:
        if not any(q in where for q in neighbours8(pos)):
            raise field_error(
                f"board[{where[pos]}].pos",
                f"the tile at {format_pos(pos)} touches no other tile by a side or a corner: every "
                "tile is placed touching another",
            )
    start = order[0]
    seen = {start}
    todo = [start]
    while todo:
        for q in neighbours8(todo.pop()):
            if q in where and q not in seen:
                seen.add(q)
                todo.append(q)
    for pos in order:
        if pos not in seen:
            raise field_error(
                f"board[{where[pos]}].pos",
                f"the tile at {format_pos(pos)} is not connected (by sides or corners) to board[0] at "
                f"{format_pos(start)}: the tiles form one area",
            )


def load_position(path: str | Path, catalogue: Catalogue | None = None) -> Position:
    """Read and validate a position file."""
    return parse_position(read_json_file(path, "position", PositionError), catalogue)


def schema() -> JSON:
    """The JSON Schema of ``two-heirs-position`` documents."""
    doc: JSON = read_package_json("regalia.games.two_heirs", "data/position.schema.json")
    return doc


# -- scoring ---------------------------------------------------------------------------------------


def score_position(position: Position) -> PositionScore:
    """Score a position ("Scoring"); the winner has more points, then more units in the reserve.

    In the solo game (``henry`` set) Henry's three best buildings are doubled instead of units,
    each treasure token adds 5 points, and the human player wins only with more points.
    """
    sheet = score_board(
        position.cells, position.tiles, position.units, roads=position.roads, automaton=position.henry
    )
    extra: list[tuple[int, str, int]] = []
    if position.henry is not None and position.treasures:
        extra.append(
            (
                position.henry,
                f"{position.treasures} treasure token{'' if position.treasures == 1 else 's'}",
                TREASURE_POINTS * position.treasures,
            )
        )
    totals = list(sheet.totals)
    for seat, _, n in extra:
        totals[seat] += n
    winner: int | None
    if position.henry is not None:
        human = 1 - position.henry
        winner = human if totals[human] > totals[position.henry] else position.henry
        decided_by = "solo rules (Henry wins ties)"
    elif totals[0] != totals[1]:
        winner, decided_by = (0 if totals[0] > totals[1] else 1), "points"
    elif position.reserve[0] != position.reserve[1]:
        winner = 0 if position.reserve[0] > position.reserve[1] else 1
        decided_by = "units in the royal reserve"
    else:
        winner, decided_by = None, "draw"
    return PositionScore(position, sheet, tuple(extra), (totals[0], totals[1]), winner, decided_by)


def score_document(doc: Any, options: Mapping[str, str] | None = None) -> PositionScore:
    """Parse and score a position document; ``options`` may name ``tiles``, a catalogue file to use
    instead of the default. This is the entry point of ``regalia score``."""
    from regalia.games.two_heirs.tiles import catalogue_for

    tiles = calculator_options(options, ("tiles",)).get("tiles")
    return score_position(parse_position(doc, catalogue_for(tiles)))


def position_of_state(state: Any) -> JSON:
    """A ``two-heirs-position`` document of a game state's board (tiles by catalogue id)."""
    board = []
    for pos, code in sorted(state.board.items()):
        owner = (code & 3) - 1
        board.append(
            {
                "pos": format_pos(pos),
                "owner": None if owner < 0 else SEATS[owner],
                "tile": state.tiles[tile_of(code)].id,
            }
        )
    units: dict[str, JSON] = {}
    for seat in (0, 1):
        units[SEATS[seat]] = {
            "positions": [format_pos(p) for p in state.unit_positions(seat)],
            "reserve": state.units_in_reserve(seat),
        }
    return {
        "format": FORMAT,
        "version": VERSION,
        "options": {"roads": bool(state.game.options.roads)},
        "board": board,
        "units": units,
    }


__all__: Sequence[str] = (
    "FORMAT",
    "Position",
    "PositionScore",
    "load_position",
    "parse_position",
    "position_of_state",
    "schema",
    "score_document",
    "score_position",
)
