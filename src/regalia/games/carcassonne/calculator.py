"""The Carcassonne score calculator: read a position document and give its final scoring.

The position format (``carcassonne-position``, version 1) is documented in docs/formats.md and has a
JSON Schema in ``data/position.schema.json`` beside this module (:func:`schema`). A position is what
lies on the table: the tiles (catalogue id or inline, position, rotation), the followers standing
(tile, seat, feature as in the notation) and the points on the scoring track. The calculator lays
the tiles through the engine's feature union-find (:func:`state_of_position`) and scores the end of
the game with the engine's own final scoring (``end_value``, ``majority``, ``_finish``): open roads
1 per tile, open cities 1 per tile and pennant, cloisters and shrines 1 per tile of their 3x3
block, fields 3 per completed city they touch. Errors name the field (``board[3].rotation: ...``).

>>> doc = {
...     "format": "carcassonne-position", "version": 1,
...     "board": [
...         {"pos": "0,0", "tile": "D", "rotation": 0},
...         {"pos": "0,1", "tile": "E", "rotation": 180},
...         {"pos": "1,0", "tile": "U", "rotation": 0},
...     ],
...     "followers": [
...         {"pos": "0,1", "seat": "red", "feature": "field", "name": "Nw"},
...         {"pos": "1,0", "seat": "blue", "feature": "road", "name": "E"},
...     ],
...     "points": [4, 0],
... }
>>> result = score_position(parse_position(doc))
>>> [(f.kind, len(f.tiles), f.points) for f in result.features], result.totals
([('road', 2, 2), ('field', 1, 3)], (7, 2))
>>> doc["board"][1]["rotation"] = 0
>>> parse_position(doc)
Traceback (most recent call last):
...
regalia.core.errors.PositionError: board[1].rotation: E turned 0 at 0,1 shows a field on its S side, \
but board[0] (D turned 0 at 0,0) shows a city on its N side: ...; rotations of E that fit: 180
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from regalia.core.data import read_json_file, read_package_json
from regalia.core.errors import DataError, OptionError, PositionError
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
from regalia.core.grid import Pos, format_pos
from regalia.core.plugin import calculator_options
from regalia.games.carcassonne.base import AROUND, FOLLOWERS, PH_FOLLOWER, SIDE_VECTORS, Feature
from regalia.games.carcassonne.game import SEAT_COLOURS, SHRINE_SETS, Carcassonne, CarcassonneOptions
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import (
    ABBEYS,
    CITY,
    CLOISTER,
    FIELD,
    HALVES,
    KINDS,
    ROAD,
    ROTATIONS,
    SHRINE,
    SIDES,
    Catalogue,
    TileType,
    Turned,
    catalogue_for,
    parse_tile,
)

FORMAT = "carcassonne-position"
VERSION = 1
SCORE_FORMAT = "carcassonne-score"

#: The columns of points per kind of feature, in the order of the score sheet.
POINT_KINDS: tuple[str, ...] = ("roads", "cities", "cloisters", "shrines", "fields")
_PLURAL = {ROAD: "roads", CITY: "cities", CLOISTER: "cloisters", SHRINE: "shrines", FIELD: "fields"}
_EDGE_WORDS = {"C": "a city", "R": "a road", "F": "a field"}

_TOP_FIELDS = {"format", "version", "options", "board", "followers", "points", "note", "$schema"}
_OPTION_FIELDS = ("players", "farmers", "small_city", "shrines", "challenge_house_rule")
_CELL_FIELDS = {"pos", "tile", "rotation", "note"}
_FOLLOWER_FIELDS = {"pos", "seat", "feature", "name", "note"}
_INLINE_FIELDS = {"id", "edges", "cities", "roads", "fields", "cloister", "shrine", "note"}


@dataclasses.dataclass(frozen=True)
class Position:
    """A validated position: the options, the catalogue (inline tiles appended), the board as
    ``(pos, tile type index, rotation)`` in the document's order, the followers as ``(pos, seat,
    segment index of the tile as it lies)``, and the points scored so far per seat."""

    options: CarcassonneOptions
    catalogue: Catalogue
    board: tuple[tuple[Pos, int, int], ...]
    followers: tuple[tuple[Pos, int, int], ...]
    points: tuple[int, ...]

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_COLOURS[: self.options.players]


@dataclasses.dataclass(frozen=True)
class FeatureScore:
    """One feature holding followers at the end: its kind, tiles, pennants (cities), followers per
    seat, the seats of the majority (``scorers``), what each of them scores (``points``), for a
    field the completed cities it touches (their tiles), and how the points were counted."""

    kind: str
    tiles: tuple[Pos, ...]
    pennants: int
    followers: tuple[int, ...]
    scorers: tuple[int, ...]
    points: int
    cities: tuple[tuple[Pos, ...], ...]
    detail: str


@dataclasses.dataclass(frozen=True)
class PositionScore:
    """The final scoring of a :class:`Position`: each feature, the points before and after."""

    position: Position
    features: tuple[FeatureScore, ...]
    so_far: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def seats(self) -> tuple[str, ...]:
        return self.position.seats

    def by_kind(self, seat: int) -> dict[str, int]:
        """The points ``seat`` scores at the end, per kind of feature (``roads``, ``cities``...)."""
        out = dict.fromkeys(POINT_KINDS, 0)
        for f in self.features:
            if seat in f.scorers:
                out[_PLURAL[f.kind]] += f.points
        return out

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the most points (several share the victory on a tie)."""
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    def to_json(self) -> JSON:
        """The scoring as a ``carcassonne-score`` document (what ``regalia score --json`` prints)."""
        seats = self.seats
        return {
            "format": SCORE_FORMAT,
            "version": 1,
            "seats": list(seats),
            "features": [
                {
                    "kind": f.kind,
                    "tiles": [format_pos(p) for p in f.tiles],
                    "pennants": f.pennants,
                    "followers": dict(zip(seats, f.followers, strict=True)),
                    "scorers": [seats[s] for s in f.scorers],
                    "points": f.points,
                    **({"cities": [[format_pos(p) for p in c] for c in f.cities]} if f.kind == FIELD else {}),
                    "detail": f.detail,
                }
                for f in self.features
            ],
            "players": [
                {"seat": name, "so_far": self.so_far[s], **self.by_kind(s), "total": self.totals[s]}
                for s, name in enumerate(seats)
            ],
            "winners": [seats[s] for s in self.winners],
        }


# -- parsing ---------------------------------------------------------------------------------------


def _options(raw: Any, tiles: str | None) -> CarcassonneOptions:
    if not isinstance(raw, Mapping):
        raise field_error("options", "expected an object")
    for name in sorted(raw):
        if name == "tiles":
            raise field_error(
                "options.tiles",
                "give your tile catalogue to the calculator: regalia score FILE -o tiles=FILE",
            )
        if name not in _OPTION_FIELDS:
            raise field_error(f"options.{name}", f"unknown option; valid: {', '.join(_OPTION_FIELDS)}")
    values: dict[str, Any] = {}
    if "players" in raw:
        players = raw["players"]
        if not is_int(players) or not 2 <= players <= 5:
            raise field_error("options.players", f"expected a number of players 2 to 5, got {players!r}")
        values["players"] = players
    for name in ("farmers", "challenge_house_rule"):
        if name in raw:
            if not isinstance(raw[name], bool):
                raise field_error(f"options.{name}", f"expected true or false, got {raw[name]!r}")
            values[name] = raw[name]
    if "small_city" in raw:
        small = raw["small_city"]
        if not is_int(small) or small not in (2, 4):
            raise field_error("options.small_city", f"expected 4 or 2, got {small!r}")
        values["small_city"] = small
    if "shrines" in raw:
        shrines = raw["shrines"]
        if is_int(shrines):
            shrines = str(shrines)
        if not isinstance(shrines, str) or shrines not in SHRINE_SETS:
            raise field_error("options.shrines", f"expected 'off', 5 or 6, got {raw['shrines']!r}")
        values["shrines"] = shrines
    if tiles is not None:
        values["tiles"] = tiles
    try:
        return CarcassonneOptions.from_mapping(values)
    except OptionError as exc:
        raise field_error("options", str(exc)) from None


def _inline_tile(raw: Mapping[str, Any], index: int, field: str, default_id: str) -> TileType:
    check_fields(raw, _INLINE_FIELDS, field)
    entry = {k: v for k, v in raw.items() if k != "id"}
    entry.update(id="inline", set="base", count=1)
    try:
        tile = parse_tile(entry, index, where=field)
    except DataError as exc:
        raise nested_error(exc, field) from None
    tile_id = raw.get("id", default_id)
    if not isinstance(tile_id, str) or not tile_id.strip():
        raise field_error(f"{field}.id", "a non-empty string is required")
    return dataclasses.replace(tile, id=tile_id)


def _seat(value: Any, players: int, field: str) -> int:
    names = SEAT_COLOURS[:players]
    if isinstance(value, str) and value.lower() in names:
        return names.index(value.lower())
    if is_int(value) and 0 <= value < players:
        return int(value)
    raise field_error(
        field,
        f"{value!r} is not a seat; with {players} players: {', '.join(names)} (or 0 to {players - 1})",
    )


def _points(raw: Any, players: int) -> tuple[int, ...]:
    names = SEAT_COLOURS[:players]
    if isinstance(raw, Mapping):
        out = [0] * players
        for key, value in raw.items():
            seat = _seat(
                int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else key,
                players,
                f"points.{key}",
            )
            if not is_int(value) or value < 0:
                raise field_error(f"points.{key}", f"expected a number of points >= 0, got {value!r}")
            out[seat] = value
        return tuple(out)
    if not isinstance(raw, list):
        raise field_error("points", f"expected a list of {players} numbers ({', '.join(names)}) or an object")
    if len(raw) != players:
        hint = "; set options.players for another number of players" if 2 <= len(raw) <= 5 else ""
        raise field_error(
            "points", f"expected {players} numbers, one per seat ({', '.join(names)}), got {len(raw)}{hint}"
        )
    for i, value in enumerate(raw):
        if not is_int(value) or value < 0:
            raise field_error(f"points[{i}]", f"expected a number of points >= 0, got {value!r}")
    return tuple(raw)


#: JCloisterZone's names of the tiles (``basic.xml``, ``cult.xml``; /work/shared/research/
#: carcassonne.md), each the catalogue id it is: a position may name a tile either way.
JCZ_NAMES: dict[str, str] = {
    **{
        f"BA/{jcz}": letter
        for letter, jcz in zip(
            "ABCDEFGHIJKLMNOPQRSTUVWX",
            (
                "LR",
                "L",
                "Cccc+",
                "RCr",
                "C",
                "CFc+",
                "CFc.1",
                "CFC.2",
                "CC.2",
                "CRr",
                "RrC",
                "CRRR",
                "Cc+",
                "Cc.1",
                "CcRr+",
                "CcRr",
                "Ccc+",
                "Ccc",
                "CccR+",
                "CccR",
                "RFr",
                "Rr",
                "RRR",
                "RRRR",
            ),
            strict=True,
        )
    },
    "CU/S": "SH",
    "CU/SC": "SHC",
    "CU/SR": "SHR",
    "CU/SCFR": "SHCR",
    "CU/SRFR": "SHRR",
    "CU/SRCR": "SHCRR",
}


def tile_of_name(cat: Catalogue, name: str) -> TileType | None:
    """The tile type a position names: its catalogue id in any case (``d`` is ``D``, as the
    terminal takes it), or JCloisterZone's name of it (:data:`JCZ_NAMES`, ``BA/RCr``, ``CU/S``;
    ``.`` for ``/`` too), when the catalogue has that id.

    >>> cat = catalogue_for(None)
    >>> [tile_of_name(cat, n).id for n in ("D", "d", "shc", "BA/RCr", "CU/S", "CU.SRCR")]
    ['D', 'D', 'SHC', 'D', 'SH', 'SHCRR']
    >>> tile_of_name(cat, "Z") is None
    True
    """
    found = cat.by_id.get(name)
    if found is not None:
        return found
    text = name.strip()
    alias = JCZ_NAMES.get(text) or JCZ_NAMES.get(text.replace(".", "/", 1))
    if alias is not None and alias in cat.by_id:
        return cat.by_id[alias]
    folded = [t for tid, t in cat.by_id.items() if tid.lower() == text.lower()]
    return folded[0] if len(folded) == 1 else None


def _described(cat: Catalogue, tile: int, rotation: int, pos: Pos) -> str:
    return f"{cat.types[tile].id} turned {rotation} at {format_pos(pos)}"


def _feature_list(turned: Turned) -> str:
    names = []
    for seg in turned.segments:
        if seg.kind in ABBEYS:
            names.append(seg.kind)
            continue
        labels = HALVES if seg.kind == FIELD else SIDES
        reach = [labels[s] for s in seg.sides]
        names.append(f"{seg.kind} {seg.name}" + (f" ({'/'.join(reach)})" if len(reach) > 1 else ""))
    return ", ".join(names)


def _segment(turned: Turned, kind: str, name: Any, field: str, where: str) -> int:
    """The segment a follower names: its kind and, for a city, road or field, one of the sides or
    halves it reaches (the notation's name is the first of them)."""
    if kind in ABBEYS:
        if turned.abbey < 0 or turned.segments[turned.abbey].kind != kind:
            raise field_error(
                f"{field}.feature", f"{where} has no {kind}; its features: {_feature_list(turned)}"
            )
        if name is not None and (not isinstance(name, str) or name.lower() != kind):
            raise field_error(f"{field}.name", f"a {kind} is named {kind!r} (or give no name), not {name!r}")
        return turned.abbey
    labels = HALVES if kind == FIELD else SIDES
    if name is None:
        raise field_error(
            f"{field}.name", f"missing: the {kind}'s side as in the notation ({', '.join(labels)})"
        )
    if not isinstance(name, str) or name.lower() not in [n.lower() for n in labels]:
        raise field_error(f"{field}.name", f"a {kind} is named by one of {', '.join(labels)}, not {name!r}")
    side = [n.lower() for n in labels].index(name.lower())
    for i, seg in enumerate(turned.segments):
        if seg.kind == kind and side in seg.sides:
            return i
    raise field_error(
        f"{field}.name", f"{where} has no {kind} at {labels[side]}; its features: {_feature_list(turned)}"
    )


def parse_position(doc: Any, tiles: str | None = None) -> Position:
    """Validate a ``carcassonne-position`` document; errors name the field (``board[3].rotation``).

    ``tiles``: the path of the tile catalogue the ids refer to (default: the shipped one); the
    document's inline tiles are added to it.
    """
    doc = position_document(doc, FORMAT, VERSION, _TOP_FIELDS)
    options = _options(doc.get("options", {}), tiles)
    cat = catalogue_for(options.tiles)
    sets = SHRINE_SETS[options.shrines]
    players = options.players

    # -- the tiles
    board = doc.get("board")
    if not isinstance(board, list) or not board:
        raise field_error("board", "expected a non-empty list of tiles")
    types: list[TileType] = list(cat.types)
    inline_ids: dict[str, int] = {}
    cells: list[tuple[Pos, int, int]] = []
    where_pos: dict[Pos, int] = {}
    used: dict[int, int] = {}
    for i, cell in enumerate(board):
        field = f"board[{i}]"
        cell = field_object(
            cell, field, _CELL_FIELDS, ("pos", "tile"), "an object with pos, tile and rotation"
        )
        pos = distinct_pos(cell["pos"], f"{field}.pos", where_pos, i)
        raw = cell["tile"]
        if isinstance(raw, str):
            found = tile_of_name(cat, raw)
            if found is None:
                raise field_error(
                    f"{field}.tile",
                    f"{raw!r} is not a tile of catalogue {cat.source} (tiles: {', '.join(cat.by_id)}; "
                    "in any case, or by JCloisterZone's names such as BA/RCr or CU/S)",
                )
            raw = found.id
            if found.set not in sets:
                raise field_error(
                    f"{field}.tile",
                    f"{raw} is a tile of set {found.set}, which is not in play (options.shrines is "
                    f"{options.shrines!r}; sets in play: {', '.join(sets)})",
                )
            used[found.index] = used.get(found.index, 0) + 1
            if used[found.index] > found.count:
                raise field_error(
                    f"{field}.tile",
                    f"one {raw} too many: the catalogue has {found.count} {raw} tile"
                    f"{'' if found.count == 1 else 's'} (the start tile included); for another "
                    "tile of that layout write it inline (a tile object with its edges, docs/formats.md) "
                    "or give your own catalogue: regalia score FILE -o tiles=FILE",
                )
            index = found.index
        elif isinstance(raw, Mapping):
            index = len(types)
            tile = _inline_tile(raw, index, f"{field}.tile", f"@{format_pos(pos)}")
            if tile.id in cat.by_id or tile.id in inline_ids:
                other = "a tile of the catalogue" if tile.id in cat.by_id else f"board[{inline_ids[tile.id]}]"
                raise field_error(f"{field}.tile.id", f"{tile.id!r} is already the id of {other}")
            if tile.shrine and options.shrines == "off":
                raise field_error(
                    f"{field}.tile.shrine",
                    "a shrine needs Heretics and Shrines: set options.shrines to 5 or 6",
                )
            inline_ids[tile.id] = i
            types.append(tile)
        else:
            raise field_error(
                f"{field}.tile", f"expected a catalogue id like 'D' or a tile object, got {raw!r}"
            )
        rotation = cell.get("rotation", 0)
        if not is_int(rotation) or rotation not in ROTATIONS:
            raise field_error(
                f"{field}.rotation", f"expected 0, 90, 180 or 270 (clockwise), got {rotation!r}"
            )
        cells.append((pos, index, rotation))
    if inline_ids:
        digest = hashlib.sha1(
            json.dumps([t.to_json() for t in types[len(cat.types) :]], sort_keys=True).encode()
        ).hexdigest()[:12]
        cat = Catalogue(tuple(types), f"{cat.source}+inline:{digest}")
    cells = [(pos, tile, cat.canonical(tile, rotation)) for pos, tile, rotation in cells]
    _check_edges(cells, cat, where_pos)
    _check_connected(cells, where_pos)
    if options.shrines != "off":
        _check_abbeys(cells, cat)

    # -- the points and the followers
    points = _points(doc.get("points", [0] * players), players)
    raw_followers = doc.get("followers", [])
    if not isinstance(raw_followers, list):
        raise field_error("followers", "expected a list of followers")
    placed: dict[Pos, int] = {}
    per_seat = [0] * players
    followers: list[tuple[Pos, int, int]] = []
    for k, item in enumerate(raw_followers):
        field = f"followers[{k}]"
        item = field_object(
            item,
            field,
            _FOLLOWER_FIELDS,
            ("pos", "seat", "feature"),
            "an object with pos, seat, feature and name",
        )
        pos = pos_field(item["pos"], f"{field}.pos")
        if pos not in where_pos:
            raise field_error(f"{field}.pos", f"no tile at {format_pos(pos)}")
        if pos in placed:
            raise field_error(
                f"{field}.pos",
                f"{format_pos(pos)} already holds followers[{placed[pos]}]: one follower per tile",
            )
        placed[pos] = k
        seat = _seat(item["seat"], players, f"{field}.seat")
        per_seat[seat] += 1
        if per_seat[seat] > FOLLOWERS:
            raise field_error(
                f"{field}.seat", f"{SEAT_COLOURS[seat]} has more than {FOLLOWERS} followers on the board"
            )
        kind = item["feature"]
        if not isinstance(kind, str) or kind.lower() not in KINDS:
            raise field_error(f"{field}.feature", f"{kind!r} is not a feature; valid: {', '.join(KINDS)}")
        kind = kind.lower()
        if kind == FIELD and not options.farmers:
            raise field_error(f"{field}.feature", "farmers are not played (options.farmers is false)")
        _, type_index, rotation = cells[where_pos[pos]]
        turned = cat.turned(type_index, rotation)
        where = _described(cat, type_index, rotation, pos)
        segment = _segment(turned, kind, item.get("name"), field, where)
        followers.append((pos, seat, segment))
    position = Position(options, cat, tuple(cells), tuple(followers), points)
    _check_open(position)
    return position


def _check_edges(cells: Sequence[tuple[Pos, int, int]], cat: Catalogue, where: Mapping[Pos, int]) -> None:
    """Every side shared by two tiles shows the same kind of edge on both ("Placing a tile")."""
    for i, (pos, tile, rotation) in enumerate(cells):
        edges = cat.turned(tile, rotation).edges
        x, y = pos
        for side, (dx, dy) in enumerate(SIDE_VECTORS):
            j = where.get((x + dx, y + dy))
            if j is None or j > i:
                continue
            qpos, qtile, qrot = cells[j]
            back = (side + 2) % 4
            theirs = cat.turned(qtile, qrot).edges[back]
            if edges[side] == theirs:
                continue
            fit = [r for r in cat.types[tile].rotations if _fits(cat, tile, r, pos, cells, where)]
            hint = (
                f"rotations of {cat.types[tile].id} that fit: {', '.join(map(str, fit))}"
                if fit
                else f"no rotation of {cat.types[tile].id} fits there"
            )
            raise field_error(
                f"board[{i}].rotation",
                f"{_described(cat, tile, rotation, pos)} shows {_EDGE_WORDS[edges[side]]} on its "
                f"{SIDES[side]} side, but board[{j}] ({_described(cat, qtile, qrot, qpos)}) shows "
                f"{_EDGE_WORDS[theirs]} on its {SIDES[back]} side: the edges of neighbouring tiles must "
                f"match; {hint}",
            )


def _fits(
    cat: Catalogue,
    tile: int,
    rotation: int,
    pos: Pos,
    cells: Sequence[tuple[Pos, int, int]],
    where: Mapping[Pos, int],
) -> bool:
    """Tile ``tile`` turned ``rotation`` at ``pos`` matches the edges of all its neighbours."""
    edges = cat.turned(tile, rotation).edges
    x, y = pos
    for side, (dx, dy) in enumerate(SIDE_VECTORS):
        j = where.get((x + dx, y + dy))
        if j is None:
            continue
        _, qtile, qrot = cells[j]
        if cat.turned(qtile, qrot).edges[(side + 2) % 4] != edges[side]:
            return False
    return True


def _check_connected(cells: Sequence[tuple[Pos, int, int]], where: Mapping[Pos, int]) -> None:
    """The tiles form one area connected by sides (each tile was laid next to another)."""
    start = cells[0][0]
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in SIDE_VECTORS:
            q = (x + dx, y + dy)
            if q in where and q not in seen:
                seen.add(q)
                todo.append(q)
    for i, (pos, _, _) in enumerate(cells):
        if pos not in seen:
            raise field_error(
                f"board[{i}].pos",
                f"{format_pos(pos)} is not connected by sides to board[0] at {format_pos(start)}: every tile "
                "is laid next to another, so the board is one area",
            )


def _check_abbeys(cells: Sequence[tuple[Pos, int, int]], cat: Catalogue) -> None:
    """Heretics and Shrines: a shrine touches (by a side or a corner) at most one cloister, a
    cloister at most one shrine."""
    kinds: dict[Pos, str] = {}
    for pos, tile, _ in cells:
        t = cat.types[tile]
        if t.cloister or t.shrine:
            kinds[pos] = CLOISTER if t.cloister else SHRINE
    for i, (pos, _, _) in enumerate(cells):
        kind = kinds.get(pos)
        if kind is None:
            continue
        other = SHRINE if kind == CLOISTER else CLOISTER
        x, y = pos
        facing = [(x + dx, y + dy) for dx, dy in AROUND if kinds.get((x + dx, y + dy)) == other]
        if len(facing) > 1:
            raise field_error(
                f"board[{i}].pos",
                f"the {kind} at {format_pos(pos)} touches {len(facing)} {other}s "
                f"({', '.join(map(format_pos, facing))}); with Heretics and Shrines a {kind} touches at "
                f"most one {other}",
            )


def _feature_name(record: Feature) -> str:
    tiles = sorted(record.tiles)
    where = " ".join(format_pos(p) for p in tiles[:6]) + (" ..." if len(tiles) > 6 else "")
    return f"the {record.kind} of {len(tiles)} tile{'' if len(tiles) == 1 else 's'} ({where})"


#: What to do with the follower of a completed feature in a position file.
_POINTS_HINT = (
    "take the follower off and add what the feature scored to that seat's entry in 'points' "
    "(the points on the scoring track)"
)


def _check_open(position: Position) -> None:
    """No follower stands on a completed road, city, cloister or shrine: it would have been scored
    when the feature was completed, and its followers returned to their owners."""
    state = state_of_position(position)
    for k, (pos, _, segment) in enumerate(position.followers):
        record = state.feature(pos, segment)
        if record.kind in (CITY, ROAD) and record.open == 0:
            raise field_error(
                f"followers[{k}]",
                f"{_feature_name(record)} is complete: it was scored when its last tile was laid "
                f"and its followers went home; {_POINTS_HINT}",
            )
        if record.kind in ABBEYS and state.abbey_neighbours(pos) == 8:
            raise field_error(
                f"followers[{k}]",
                f"the {record.kind} at {format_pos(pos)} is complete (8 neighbours): it was scored when "
                f"its last neighbour was laid and its follower went home; {_POINTS_HINT}",
            )


def load_position(path: str | Path, tiles: str | None = None) -> Position:
    """Read and validate a position file (``tiles``: the path of a tile catalogue)."""
    return parse_position(read_json_file(path, "position", PositionError), tiles)


def schema() -> JSON:
    """The JSON Schema of ``carcassonne-position`` documents."""
    doc: JSON = read_package_json("regalia.games.carcassonne", "data/position.schema.json")
    return doc


# -- the engine ------------------------------------------------------------------------------------


def state_of_position(position: Position) -> CarcassonneState:
    """An engine state holding the position: the tiles laid through the engine's union-find
    (``lay_tile``), the followers standing on their features, the points so far; the bag holds the
    tiles of the sets in play that are not on the board, and chance is to draw (seat 0 to play
    next). The state has no history: records and replays of it would start from the start tile.

    >>> doc = {"format": FORMAT, "version": 1, "board": [{"pos": "0,0", "tile": "D"}],
    ...        "followers": [{"pos": "0,0", "seat": 1, "feature": "road", "name": "W"}]}
    >>> state = state_of_position(parse_position(doc))
    >>> state.feature((0, 0), 1)
    Feature(kind='road', tiles=frozenset({(0, 0)}), open=2, pennants=0, meeples=((0, 0),), cities=())
    >>> state.followers, state.meeples
    ([7, 6], {(0, 0): (1, 1)})
    """
    game = Carcassonne(position.options)
    state = CarcassonneState.empty(game, position.catalogue)
    state.points = list(position.points)
    sets = SHRINE_SETS[position.options.shrines]
    bag = [
        t.count if t.set in sets and i < len(game.catalogue.types) else 0
        for i, t in enumerate(state.cat.types)
    ]
    for pos, tile, rotation in position.board:
        if bag[tile]:
            bag[tile] -= 1
        state.lay_tile(pos, tile, rotation)
    state.bag = bag
    state.bag_left = sum(bag)
    for pos, seat, segment in position.followers:
        state.stand_follower(pos, seat, segment)
    return state


# -- scoring ---------------------------------------------------------------------------------------


def _detail(kind: str, record: Feature, value: int, cities: int) -> str:
    """How an unfinished feature's points are counted, in words."""
    tiles = f"{len(record.tiles)} tile{'' if len(record.tiles) == 1 else 's'}"
    if kind == ROAD:
        return f"{tiles} × 1"
    if kind == CITY:
        if not record.pennants:
            return f"{tiles} × 1"
        return f"({tiles} + {record.pennants} pennant{'' if record.pennants == 1 else 's'}) × 1"
    if kind in ABBEYS:
        return f"itself + {value - 1} neighbour{'' if value == 2 else 's'}"
    if not cities:
        return "no completed city"
    return f"{cities} completed cit{'y' if cities == 1 else 'ies'} × 3"


def score_position(position: Position) -> PositionScore:
    """The final scoring of a position ("Final scoring"), by the engine: each feature that holds
    followers scores :meth:`end_value` for each seat of its :meth:`majority`; ``_finish`` gives the
    totals."""
    state = state_of_position(position)
    features: list[FeatureScore] = []
    for _, record in state.open_features():
        value = state.end_value(record)
        scorers = tuple(state.majority(record))
        counts = [0] * position.players
        for t in record.meeples:
            counts[state.meeples[t][0]] += 1
        cities: tuple[tuple[Pos, ...], ...] = ()
        if record.kind == FIELD:
            found = []
            for root in state.completed_cities(record):
                city = state.fdata[root]
                assert city is not None
                found.append(tuple(sorted(city.tiles)))
            cities = tuple(sorted(found))
        features.append(
            FeatureScore(
                kind=record.kind,
                tiles=tuple(sorted(record.tiles)),
                pennants=record.pennants,
                followers=tuple(counts),
                scorers=scorers,
                points=value,
                cities=cities,
                detail=_detail(record.kind, record, value, len(cities)),
            )
        )
    state._finish()
    totals = tuple(state.scores())
    expected = list(position.points)
    for f in features:
        for seat in f.scorers:
            expected[seat] += f.points
    assert list(totals) == expected, "the engine's final scoring disagrees with its features"
    order = {CITY: 0, ROAD: 1, CLOISTER: 2, SHRINE: 3, FIELD: 4}
    features.sort(key=lambda f: (order[f.kind], f.tiles))
    return PositionScore(position, tuple(features), position.points, totals)


def score_document(doc: Any, options: Mapping[str, str] | None = None) -> PositionScore:
    """Parse and score a position document; ``options`` may name ``tiles``, a catalogue file to use
    instead of the default. This is the entry point of ``regalia score``."""
    tiles = calculator_options(options, ("tiles",)).get("tiles")
    return score_position(parse_position(doc, tiles))


def score_state(state: CarcassonneState) -> PositionScore:
    """The end-of-game scoring of a game state, as if the last tile had just been laid ("Final
    scoring"): every feature holding followers scores its final value, fields their farms. In the
    middle of a turn (the tile laid, its follower not yet chosen) the features the tile completed
    are scored first, as the turn would score them without a follower. The state is not changed;
    ``State.score_now()`` gives the totals (docs/contract.md).

    >>> import regalia
    >>> state = regalia.load_game("carcassonne").new_state()
    >>> for text in ("draw U", "place U 1,0 0", "follower road E", "draw B"):
    ...     _ = state.apply_text(text)
    >>> result = score_state(state)
    >>> [(f.kind, len(f.tiles), f.points) for f in result.features], result.totals
    ([('road', 2, 2)], (2, 0))
    >>> state.score_now(), state.scores(), state.is_terminal()
    ([2, 0], [0, 0], False)
    """
    if state.terminal:
        raise PositionError("the game is over: its scores() are the final scoring")
    now = state.clone()
    if now.phase == PH_FOLLOWER and now.placed is not None:
        now._score_completed(now.placed)
        now.placed = None
    doc = position_of_state(now)
    return score_position(parse_position(doc, state.game.options.tiles))


def position_of_state(state: CarcassonneState) -> JSON:
    """A ``carcassonne-position`` document of what lies on the table in a game state: the tiles,
    the followers standing, the points so far. In the middle of a turn a follower may still stand
    on a feature the tile just laid completed: the calculator refuses that position. A game played
    with its own catalogue (option ``tiles``) is scored with the same one:
    ``score_document(doc, {"tiles": path})``.

    >>> import regalia
    >>> state = regalia.load_game("carcassonne").new_state()
    >>> for text in ("draw U", "place U 1,0 0", "follower road E"):
    ...     _ = state.apply_text(text)
    >>> doc = position_of_state(state)
    >>> doc["board"][1]
    {'pos': '1,0', 'tile': 'U', 'rotation': 0}
    >>> doc["followers"]
    [{'pos': '1,0', 'seat': 'red', 'feature': 'road', 'name': 'E'}]
    >>> score_document(doc).totals     # the open road of two tiles
    (2, 0)
    """
    view = state.observation()
    options = {k: v for k, v in state.game.options.to_json().items() if k in _OPTION_FIELDS}
    return {
        "format": FORMAT,
        "version": VERSION,
        "options": options,
        "board": view["board"],
        "followers": [{**f, "seat": SEAT_COLOURS[f["seat"]]} for f in view["followers"]],
        "points": list(state.points),
    }


__all__: Sequence[str] = (
    "FORMAT",
    "POINT_KINDS",
    "SCORE_FORMAT",
    "FeatureScore",
    "Position",
    "PositionScore",
    "load_position",
    "parse_position",
    "position_of_state",
    "schema",
    "score_document",
    "score_position",
    "score_state",
    "state_of_position",
    "tile_of_name",
)
