"""Carcassonne tiles as data: the tile types, their features, and every rotation ready for the engine.

A tile type (:class:`TileType`) is read from ``data/tiles.json`` (or a user's file): its four edges
(``C`` city, ``R`` road, ``F`` field, in the order N E S W), its cities (the sides each one reaches,
and its pennant), its roads (the sides each road section reaches; a section of one side ends on the
tile, at a junction, a cloister, a shrine or a city), its fields (the half-edges each field reaches,
named by the corner they lean to: ``Nw Ne En Es Se Sw Ws Wn``, and the cities of the tile it
touches), and whether it holds a cloister or a shrine. Every entry is validated on load; errors name
the tile and the field.

For the engine, :class:`Turned` is a tile type turned by 0, 90, 180 or 270 degrees clockwise, with
its features as :class:`Segment` values in the board's frame: which sides or halves each reaches.
Rotations that give the same tile (a straight road turned by 180) are listed once
(:attr:`TileType.rotations`).

>>> cat = default_catalogue()
>>> sum(t.count for t in cat.types if t.set == "base"), cat.by_id["D"].start
(72, 1)
>>> d = cat.by_id["D"]
>>> [(s.kind, s.name) for s in cat.turned(d.index, 0).segments]
[('city', 'N'), ('road', 'E'), ('field', 'En'), ('field', 'Es')]
>>> cat.turned(d.index, 90).edges, [s.name for s in cat.turned(d.index, 90).segments]
('RCRF', ['E', 'N', 'Nw', 'Ne'])
>>> cat.by_id["U"].rotations, cat.by_id["C"].rotations
((0, 90), (0,))
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Final

from regalia.core.data import DataFiles, frozen_reduce
from regalia.core.errors import DataError
from regalia.core.fields import check_entry_fields, data_document, entry_object, nonempty_list
from regalia.core.fields import entry_error as _fail

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
#: The half-edges, clockwise from the north edge's west half; side ``s`` has halves 2s and 2s+1.
HALVES: tuple[str, ...] = ("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn")
EDGE_KINDS: Final = "CRF"
#: Every pattern of the edges a free position's neighbours show it, N E S W (``.``: no
#: neighbour; ``Base.need``'s values), numbered by this order: the same numbers in every process,
#: as a state may be searched in another. Tables of the fits are indexed by them.
PATTERNS: tuple[str, ...] = tuple("".join(p) for p in itertools.product("." + EDGE_KINDS, repeat=4))
PATTERN_IDS: dict[str, int] = {pattern: i for i, pattern in enumerate(PATTERNS)}
SETS: tuple[str, ...] = ("base", "shrines5", "shrines6")
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)

CITY: Final = "city"
ROAD: Final = "road"
FIELD: Final = "field"
CLOISTER: Final = "cloister"
SHRINE: Final = "shrine"
KINDS: tuple[str, ...] = (CITY, ROAD, FIELD, CLOISTER, SHRINE)
#: Buildings in the middle of a tile (scored by the 3x3 block around them).
ABBEYS: Final = frozenset({CLOISTER, SHRINE})


def opposite_half(h: int) -> int:
    """The half-edge of the neighbouring tile that touches half ``h`` (``Nw`` touches the ``Sw`` of
    the tile above it).

    >>> HALVES[opposite_half(HALVES.index("Nw"))], HALVES[opposite_half(HALVES.index("En"))]
    ('Sw', 'Wn')
    """
    side, j = divmod(h, 2)
    return 2 * ((side + 2) % 4) + (1 - j)


#: The two halves of each side, each with the half of the neighbour beyond that touches it:
#: ``(h, opposite_half(h))`` for ``h`` in ``2 * side``, ``2 * side + 1``.
SIDE_HALVES: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((h, opposite_half(h)) for h in (2 * side, 2 * side + 1)) for side in range(4)
)


@dataclasses.dataclass(frozen=True, slots=True)
class City:
    sides: tuple[int, ...]
    pennant: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class Field:
    halves: tuple[int, ...]
    cities: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class TileType:
    """One tile type of the catalogue, as printed (unrotated)."""

    index: int
    id: str
    set: str
    count: int
    start: int
    edges: str
    cities: tuple[City, ...]
    roads: tuple[tuple[int, ...], ...]
    fields: tuple[Field, ...]
    cloister: bool = False
    shrine: bool = False
    rotations: tuple[int, ...] = ROTATIONS

    @property
    def pennants(self) -> int:
        return sum(c.pennant for c in self.cities)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"id": self.id, "set": self.set, "count": self.count, "edges": self.edges}
        if self.start:
            doc["start"] = self.start
        if self.cities:
            doc["cities"] = [
                {"sides": [SIDES[s] for s in c.sides], **({"pennant": True} if c.pennant else {})}
                for c in self.cities
            ]
        if self.roads:
            doc["roads"] = [[SIDES[s] for s in r] for r in self.roads]
        if self.fields:
            doc["fields"] = [
                {"halves": [HALVES[h] for h in f.halves], **({"cities": list(f.cities)} if f.cities else {})}
                for f in self.fields
            ]
        if self.cloister:
            doc["cloister"] = True
        if self.shrine:
            doc["shrine"] = True
        return doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class Segment:
    """One feature of a turned tile: its kind, the sides (cities, roads) or halves (fields) it reaches
    in the board's frame, its pennant, and for a field the segments of the cities it touches.

    ``name`` is how the notation names it: its first side (or half) in clockwise order from north;
    a cloister or a shrine is named by its kind."""

    kind: str
    sides: tuple[int, ...]
    pennant: bool
    cities: tuple[int, ...]
    name: str

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class Turned:
    """A tile type turned ``rotation`` degrees clockwise, its features in the board's frame.

    ``edges``: the kind of each side N E S W; ``side_segment[s]``: the city or road segment on side
    ``s`` (-1 for a field side); ``half_segment[h]``: the field segment of half ``h`` (-1 on a city
    side); ``abbey``: the index of the cloister or shrine segment (-1 when none).
    """

    type: int
    rotation: int
    edges: str
    segments: tuple[Segment, ...]
    side_segment: tuple[int, ...]
    half_segment: tuple[int, ...]
    abbey: int
    marks: tuple[int, ...]

    def segment_named(self, kind: str, name: str) -> int:
        """The index of the segment ``kind`` named ``name`` (-1 if none)."""
        for i, s in enumerate(self.segments):
            if s.kind == kind and s.name == name:
                return i
        return -1

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


def _turn(tile: TileType, rotation: int) -> Turned:
    r = rotation // 90
    segments: list[Segment] = []
    city_index: dict[int, int] = {}
    for k, c in enumerate(tile.cities):
        sides = tuple(sorted((s + r) % 4 for s in c.sides))
        city_index[k] = len(segments)
        segments.append(Segment(CITY, sides, c.pennant, (), SIDES[sides[0]]))
    for road in tile.roads:
        sides = tuple(sorted((s + r) % 4 for s in road))
        segments.append(Segment(ROAD, sides, False, (), SIDES[sides[0]]))
    for f in tile.fields:
        halves = tuple(sorted((h + 2 * r) % 8 for h in f.halves))
        cities = tuple(city_index[c] for c in f.cities)
        segments.append(Segment(FIELD, halves, False, cities, HALVES[halves[0]]))
    abbey = -1
    if tile.cloister or tile.shrine:
        abbey = len(segments)
        kind = CLOISTER if tile.cloister else SHRINE
        segments.append(Segment(kind, (), False, (), kind))
    order = {CITY: 0, ROAD: 1, FIELD: 2, CLOISTER: 3, SHRINE: 3}
    # list segments in the order of the notation: cities, roads, fields by their first side
    ranked = sorted(range(len(segments)), key=lambda i: (order[segments[i].kind], segments[i].sides))
    remap = {old: new for new, old in enumerate(ranked)}
    ordered = [segments[i] for i in ranked]
    ordered = [dataclasses.replace(s, cities=tuple(sorted(remap[c] for c in s.cities))) for s in ordered]
    side_segment = [-1] * 4
    half_segment = [-1] * 8
    for i, s in enumerate(ordered):
        if s.kind in (CITY, ROAD):
            for side in s.sides:
                side_segment[side] = i
        elif s.kind == FIELD:
            for h in s.sides:
                half_segment[h] = i
    edges = "".join(tile.edges[(k - r) % 4] for k in range(4))
    return Turned(
        tile.index,
        rotation,
        edges,
        tuple(ordered),
        tuple(side_segment),
        tuple(half_segment),
        -1 if abbey < 0 else remap[abbey],
        tuple(pattern_mark((k + 2) % 4, edges[k]) for k in range(4)),
    )


def pattern_mark(side: int, edge: str) -> int:
    """What an ``edge`` shown on ``side`` adds to the number of a pattern that had no neighbour
    there (a pattern's number counts its sides N E S W as base-4 digits, ``.`` 0 and
    :data:`EDGE_KINDS` 1 to 3: the order of :data:`PATTERNS`).

    >>> PATTERNS[pattern_mark(0, "C") + pattern_mark(3, "F")]
    'C..F'
    """
    return (1 + EDGE_KINDS.index(edge)) << (2 * (3 - side))


def _signature(t: Turned) -> tuple[Any, ...]:
    return (t.edges, tuple((s.kind, s.sides, s.pennant, s.cities) for s in t.segments))


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """The validated tile types of a catalogue file and every distinct rotation of each."""

    types: tuple[TileType, ...]
    source: str = "<default>"
    #: The tile types by id.
    by_id: dict[str, TileType] = dataclasses.field(init=False, repr=False, compare=False)
    #: Every tile type turned every way, by (type, rotation).
    _turned: dict[tuple[int, int], Turned] = dataclasses.field(init=False, repr=False, compare=False)
    #: The same, by a board's code of a tile: ``type * 4 + rotation // 90``.
    by_code: tuple[Turned, ...] = dataclasses.field(init=False, repr=False, compare=False)
    #: Memo of :meth:`Rules.fits`, per tile type: a list indexed by the number of the pattern of
    #: neighbours' edges (:data:`PATTERN_IDS`), the mask of the rotations that fit (bit
    #: ``rotation // 90``), -1 when not worked out yet. Kept on the catalogue, so two catalogues
    #: never share it.
    fit_masks: tuple[list[int], ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # made here, not as cached properties: a compiled class (mypyc) caches none
        object.__setattr__(self, "by_id", {t.id: t for t in self.types})
        turned = {(t.index, r): _turn(t, r) for t in self.types for r in ROTATIONS}
        object.__setattr__(self, "_turned", turned)
        by_code = tuple(turned[i, r] for i in range(len(self.types)) for r in ROTATIONS)
        object.__setattr__(self, "by_code", by_code)
        object.__setattr__(self, "fit_masks", tuple([-1] * len(PATTERNS) for _ in self.types))

    def turned(self, tile: int, rotation: int) -> Turned:
        """Tile type ``tile`` turned ``rotation`` degrees clockwise."""
        return self._turned[(tile, rotation)]

    def canonical(self, tile: int, rotation: int) -> int:
        """The first rotation of ``tile`` that gives the same tile as ``rotation``."""
        sig = _signature(self.turned(tile, rotation))
        for r in self.types[tile].rotations:
            if _signature(self.turned(tile, r)) == sig:
                return r
        raise AssertionError("a rotation matches none of the tile's rotations")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # not frozen_reduce: __init__ turns every tile every way, which cost a pickled state's copy
        # (a worker's, the conformance kit's) more than the rest of the state
        return (_unpickled_catalogue, (self.types, self.source))


#: The catalogues unpickled in this process, by their tile types and source: a catalogue is made
#: once however many states holding it are unpickled (and they share its memo of fits).
_UNPICKLED: dict[tuple[tuple[TileType, ...], str], Catalogue] = {}


def _unpickled_catalogue(types: tuple[TileType, ...], source: str) -> Catalogue:
    """The catalogue of ``types`` (from ``source``), made on its first unpickling in this process.

    >>> cat = default_catalogue()
    >>> import pickle
    >>> again = pickle.loads(pickle.dumps(cat))
    >>> again is pickle.loads(pickle.dumps(cat)), again == cat
    (True, True)
    """
    key = (types, source)
    cat = _UNPICKLED.get(key)
    if cat is None:
        cat = _UNPICKLED[key] = Catalogue(types, source)
    return cat


def _side_list(raw: Any, where: str, field: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or not raw or not all(s in SIDES for s in raw):
        raise _fail(where, field, f"a list of sides ({', '.join(SIDES)}) is required, got {raw!r}")
    if len(set(raw)) != len(raw):
        raise _fail(where, field, f"a side is listed twice in {raw!r}")
    return tuple(SIDES.index(s) for s in raw)


def parse_tile(entry: Any, index: int, where: str = "tile") -> TileType:
    """Validate one catalogue entry and build its :class:`TileType` (errors name the tile and field)."""
    entry = entry_object(entry, where, "a tile")
    tid = entry.get("id")
    if not isinstance(tid, str) or not tid or not tid.isalnum():
        raise _fail(where, "id", "a non-empty name of letters and digits is required")
    where = f"tile {tid}"
    known = {
        "id",
        "set",
        "count",
        "start",
        "edges",
        "cities",
        "roads",
        "fields",
        "cloister",
        "shrine",
        "note",
    }
    check_entry_fields(entry, known, where)
    for name in ("cities", "roads", "fields"):
        if not isinstance(entry.get(name, []), list):
            raise _fail(where, name, f"expected a list, got {entry[name]!r}")
    set_name = entry.get("set")
    if set_name not in SETS:
        raise _fail(where, "set", f"{set_name!r} is not one of {', '.join(SETS)}")
    count = entry.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise _fail(where, "count", f"a positive integer is required, got {count!r}")
    start = entry.get("start", 0)
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= count:
        raise _fail(where, "start", f"0 to count ({count}) tiles can be start tiles, got {start!r}")
    edges = entry.get("edges")
    if not isinstance(edges, str) or len(edges) != 4 or any(e not in EDGE_KINDS for e in edges):
        raise _fail(where, "edges", f"4 letters of C (city), R (road), F (field) for N E S W, got {edges!r}")
    cities = []
    for k, c in enumerate(entry.get("cities", [])):
        if not isinstance(c, Mapping) or set(c) - {"sides", "pennant"}:
            raise _fail(where, f"cities[{k}]", 'an object like {"sides": ["N"], "pennant": true} is required')
        pennant = c.get("pennant", False)
        if not isinstance(pennant, bool):
            raise _fail(where, f"cities[{k}].pennant", "true or false")
        cities.append(City(_side_list(c.get("sides"), where, f"cities[{k}].sides"), pennant))
    roads = tuple(_side_list(r, where, f"roads[{k}]") for k, r in enumerate(entry.get("roads", [])))
    fields = []
    for k, f in enumerate(entry.get("fields", [])):
        if not isinstance(f, Mapping) or set(f) - {"halves", "cities"}:
            raise _fail(where, f"fields[{k}]", 'an object like {"halves": ["Nw", "Ne"], "cities": [0]}')
        halves = f.get("halves")
        if not isinstance(halves, list) or not halves or not all(h in HALVES for h in halves):
            raise _fail(where, f"fields[{k}].halves", f"a list of halves ({', '.join(HALVES)})")
        touched = f.get("cities", [])
        if not isinstance(touched, list) or not all(
            isinstance(c, int) and 0 <= c < len(cities) for c in touched
        ):
            raise _fail(
                where, f"fields[{k}].cities", f"indices of this tile's cities (0 to {len(cities) - 1})"
            )
        fields.append(Field(tuple(HALVES.index(h) for h in halves), tuple(touched)))
    cloister = entry.get("cloister", False)
    shrine = entry.get("shrine", False)
    if not isinstance(cloister, bool) or not isinstance(shrine, bool) or (cloister and shrine):
        raise _fail(where, "cloister", "cloister and shrine are true or false, and not both")
    _check_layout(where, edges, cities, roads, fields)
    tile = TileType(
        index, tid, set_name, count, start, edges, tuple(cities), roads, tuple(fields), cloister, shrine
    )
    seen: dict[tuple[Any, ...], int] = {}
    distinct = []
    for r in ROTATIONS:
        sig = _signature(_turn(tile, r))
        if sig not in seen:
            seen[sig] = r
            distinct.append(r)
    return dataclasses.replace(tile, rotations=tuple(distinct))


def _check_layout(
    where: str, edges: str, cities: Sequence[City], roads: Sequence[tuple[int, ...]], fields: Sequence[Field]
) -> None:
    """Every city side is on exactly one city, every road side on one road, every half of a field or
    road side on exactly one field; nothing else."""
    for kind, letter, groups in (("cities", "C", [c.sides for c in cities]), ("roads", "R", list(roads))):
        used = [s for g in groups for s in g]
        want = [s for s in range(4) if edges[s] == letter]
        if sorted(used) != want:
            names = [SIDES[s] for s in want]
            raise _fail(
                where, kind, f"the {letter} sides {names} must each be on exactly one of the tile's {kind}"
            )
    halves = sorted(h for f in fields for h in f.halves)
    want_halves = [h for h in range(8) if edges[h // 2] != "C"]
    if halves != want_halves:
        names = [HALVES[h] for h in want_halves]
        raise _fail(
            where,
            "fields",
            f"the halves of its field and road sides {names} must each be on exactly one field",
        )


def parse_catalogue(doc: Any, source: str = "<document>") -> Catalogue:
    """Validate a catalogue document (``carcassonne-tiles``, version 1; documented in
    docs/carcassonne.md, "Your own catalogue")."""
    doc = data_document(doc, source, "a tile catalogue", "carcassonne-tiles")
    raw = nonempty_list(doc, "tiles", source)
    types: list[TileType] = []
    for i, entry in enumerate(raw):
        tile = parse_tile(entry, i, where=f"{source}: tiles[{i}]")
        if any(t.id == tile.id for t in types):
            raise DataError(f"{source}: tile {tile.id}: field 'id': duplicate id")
        if tile.shrine and tile.set == "base":
            raise DataError(
                f"{source}: tile {tile.id}: field 'set': a shrine belongs to Heretics and Shrines (set "
                "shrines5 or shrines6), whose placement restriction and challenges come with the option"
            )
        types.append(tile)
    starts = sum(t.start for t in types)
    if starts != 1:
        raise DataError(f"{source}: exactly one tile must be the start tile (field 'start'), got {starts}")
    start = next(t for t in types if t.start)
    if start.set != "base":
        raise DataError(
            f"{source}: tile {start.id}: field 'start': the start tile is laid in every game, so its set "
            f"must be 'base', not {start.set!r}"
        )
    return Catalogue(tuple(types), source)


#: The catalogue shipped with regalia (the base game and Heretics and Shrines) and users' files.
CATALOGUES = DataFiles(parse_catalogue, "regalia.games.carcassonne", "data/tiles.json", "tile catalogue")
#: Load and validate a user's catalogue file.
load_catalogue = CATALOGUES.load
#: The catalogue shipped with regalia, parsed once.
default_catalogue = CATALOGUES.default
#: The default catalogue (``None``) or a user's file, parsed once per path.
catalogue_for = CATALOGUES.get


__all__ = [
    "ABBEYS",
    "CATALOGUES",
    "CITY",
    "CLOISTER",
    "FIELD",
    "HALVES",
    "KINDS",
    "ROAD",
    "ROTATIONS",
    "SHRINE",
    "SIDES",
    "SIDE_HALVES",
    "Catalogue",
    "Segment",
    "TileType",
    "Turned",
    "catalogue_for",
    "default_catalogue",
    "load_catalogue",
    "opposite_half",
    "parse_catalogue",
    "parse_tile",
]
