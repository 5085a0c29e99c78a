"""The Two Heirs tiles: the :class:`Tile` value and the catalogue loader.

The rulebook does not print what is on each tile, so the default catalogue
(``data/tiles.json``) is a reconstruction (docs/two-heirs.md); a user can load their own with
:func:`load_catalogue`. Every entry is validated and errors name the tile and the field.

>>> cat = default_catalogue()
>>> len(cat.tiles)
54
>>> inn = cat.by_id["W2"]
>>> inn.building, inn.colour_name, inn.cost_text()
('inn', 'grey', '2 stone + 1 grain')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import cache
from typing import Any

from regalia.core.data import DataFiles, frozen_reduce
from regalia.core.errors import DataError
from regalia.core.fields import check_entry_fields, data_document, entry_object, nonempty_list
from regalia.core.fields import entry_error as _fail
from regalia.core.grid import CLOCKWISE8, SIDES

#: Tile colours; a colour is also the resource the tile gives (index into cost tuples).
GREEN, GREY, YELLOW = 0, 1, 2
COLOURS: tuple[str, ...] = ("green", "grey", "yellow")
RESOURCES: tuple[str, ...] = ("wood", "stone", "grain")

#: The six sets and the letter that starts the ids of their tiles in the default catalogue.
SETS: tuple[str, ...] = ("wandering", "dominion", "trade-and-church", "warfare", "crafts", "guard")
#: The buildings of each set.
SET_BUILDINGS: dict[str, tuple[str, ...]] = {
    "wandering": ("inn", "marketplace", "pilgrimage-site", "bandit-stronghold"),
    "dominion": (
        "mill",
        "stonemason",
        "stable",
        "bakery",
        "camp",
        "smithy",
        "gamekeepers-lodge",
    ),
    "trade-and-church": ("farm", "sawmill", "quarry", "trading-post", "cathedral"),
    "warfare": ("siege-tower", "fortress"),
    "crafts": (
        "basket-makers-workshop",
        "potters-workshop",
        "coopers-workshop",
        "guild-house",
    ),
    "guard": ("lookout", "guardhouse"),
}
BUILDINGS: dict[str, str] = {b: s for s, bs in SET_BUILDINGS.items() for b in bs}
WORKSHOP_COLOURS: dict[str, tuple[int, int]] = {
    "basket-makers-workshop": (GREEN, YELLOW),
    "potters-workshop": (GREY, YELLOW),
    "coopers-workshop": (GREEN, GREY),
}
PRODUCERS: dict[str, int] = {"sawmill": GREEN, "quarry": GREY, "farm": YELLOW}
RECOMMENDED_SETS: tuple[str, ...] = ("wandering", "dominion", "trade-and-church")

Roads = tuple[frozenset[str], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Tile:
    """One printed tile. Directions (roads, workshop pairs) are in the owner's frame."""

    index: int
    id: str
    set: str
    colour: int
    building: str
    cost: tuple[int, int, int]
    roads: Roads = ()
    axis: str | None = None
    pairs: tuple[tuple[tuple[int, str], tuple[int, str]], ...] = ()
    depicts: tuple[str, ...] = ()

    @property
    def colour_name(self) -> str:
        return COLOURS[self.colour]

    def cost_text(self) -> str:
        parts = [f"{n} {RESOURCES[r]}" for r, n in enumerate(self.cost) if n]
        parts.sort(key=lambda p: -int(p.split()[0]))
        return " + ".join(parts) if parts else "free"

    def roads_text(self) -> list[str]:
        return ["-".join(d for d in SIDES if d in sec) for sec in self.roads]

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "id": self.id,
            "set": self.set,
            "colour": self.colour_name,
            "building": self.building,
            "cost": {RESOURCES[r]: n for r, n in enumerate(self.cost) if n},
        }
        if self.roads:
            doc["roads"] = self.roads_text()
        if self.axis:
            doc["axis"] = self.axis
        if self.pairs:
            doc["pairs"] = [{COLOURS[c]: d for c, d in pair} for pair in self.pairs]
        if self.depicts:
            doc["depicts"] = list(self.depicts)
        return doc

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """A validated list of tiles, indexed by position and by id."""

    tiles: tuple[Tile, ...]
    source: str = "<default>"
    reconstructed: bool = True

    @property
    def by_id(self) -> dict[str, Tile]:
        return _by_id(self)

    def tile(self, tile_id: str) -> Tile:
        try:
            return self.by_id[tile_id]
        except KeyError:
            raise DataError(f"no tile {tile_id!r} in catalogue {self.source}") from None

    def set_tiles(self, set_name: str) -> list[Tile]:
        return [t for t in self.tiles if t.set == set_name]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@cache
def _by_id_cached(tiles: tuple[Tile, ...]) -> dict[str, Tile]:
    return {t.id: t for t in tiles}


def _by_id(cat: Catalogue) -> dict[str, Tile]:
    return _by_id_cached(cat.tiles)


def parse_tile(entry: Any, index: int, where: str = "tile") -> Tile:
    """Validate one catalogue entry (a JSON object) and build its :class:`Tile`."""
    entry = entry_object(entry, where, "a tile")
    tid = entry.get("id")
    if not isinstance(tid, str) or not tid:
        raise _fail(where, "id", "a non-empty string is required")
    where = f"tile {tid}"
    known = {"id", "set", "colour", "building", "cost", "roads", "axis", "pairs", "depicts"}
    check_entry_fields(entry, known, where)
    set_name = entry.get("set")
    if set_name not in SETS:
        raise _fail(where, "set", f"{set_name!r} is not one of {', '.join(SETS)}")
    colour = entry.get("colour")
    if colour not in COLOURS:
        raise _fail(where, "colour", f"{colour!r} is not one of {', '.join(COLOURS)}")
    building = entry.get("building")
    if building not in SET_BUILDINGS[set_name]:
        raise _fail(
            where,
            "building",
            f"{building!r} is not a building of set {set_name} ({', '.join(SET_BUILDINGS[set_name])})",
        )
    raw_cost = entry.get("cost", {})
    if not isinstance(raw_cost, Mapping):
        raise _fail(where, "cost", 'an object like {"stone": 2, "grain": 1} is required')
    cost = [0, 0, 0]
    for res, n in raw_cost.items():
        if res not in RESOURCES:
            raise _fail(where, "cost", f"unknown resource {res!r}; valid: {', '.join(RESOURCES)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _fail(where, "cost", f"{res} must be a non-negative integer, got {n!r}")
        cost[RESOURCES.index(res)] = n
    roads = _parse_roads(entry.get("roads", []), where)
    axis = entry.get("axis")
    if building in ("inn", "lookout"):
        if axis not in ("row", "column"):
            raise _fail(where, "axis", f"a {building} needs 'row' or 'column', got {axis!r}")
    elif axis is not None:
        raise _fail(where, "axis", f"only inns and lookouts have an axis, not a {building}")
    pairs = _parse_pairs(entry.get("pairs"), building, where)
    depicts = entry.get("depicts")
    depicted: tuple[str, ...] = ()
    if building in ("trading-post", "guild-house"):
        allowed = tuple(PRODUCERS) if building == "trading-post" else tuple(WORKSHOP_COLOURS)
        if not isinstance(depicts, list) or not depicts:
            raise _fail(where, "depicts", f"a {building} must depict one or more of {', '.join(allowed)}")
        for d in depicts:
            if d not in allowed:
                raise _fail(where, "depicts", f"{d!r} is not one of {', '.join(allowed)}")
        depicted = tuple(depicts)
    elif depicts is not None:
        raise _fail(
            where,
            "depicts",
            f"only trading posts and guild houses depict buildings, not a {building}",
        )
    return Tile(
        index=index,
        id=tid,
        set=set_name,
        colour=COLOURS.index(colour),
        building=building,
        cost=(cost[0], cost[1], cost[2]),
        roads=roads,
        axis=axis,
        pairs=pairs,
        depicts=depicted,
    )


def _parse_roads(raw: Any, where: str) -> Roads:
    if not isinstance(raw, list):
        raise _fail(where, "roads", 'a list of sections like ["N-S"] is required')
    sections: list[frozenset[str]] = []
    used: set[str] = set()
    for sec in raw:
        if not isinstance(sec, str):
            raise _fail(where, "roads", f"a section must be a string like 'N-S', got {sec!r}")
        sides = sec.split("-")
        if not sides or any(s not in SIDES for s in sides) or len(set(sides)) != len(sides):
            raise _fail(where, "roads", f"bad section {sec!r}: use sides N, E, S, W joined by '-'")
        if len(sides) > 2:
            raise _fail(
                where,
                "roads",
                f"section {sec!r} joins {len(sides)} sides; a section joins at most 2 "
                '(write a junction as separate sections, e.g. ["N", "E", "S"])',
            )
        if used & set(sides):
            raise _fail(where, "roads", f"section {sec!r} reuses a side of another section")
        used |= set(sides)
        sections.append(frozenset(sides))
    return tuple(sections)


def _parse_pairs(raw: Any, building: str, where: str) -> tuple[tuple[tuple[int, str], tuple[int, str]], ...]:
    if building not in WORKSHOP_COLOURS:
        if raw is not None:
            raise _fail(where, "pairs", f"only craft workshops have position pairs, not a {building}")
        return ()
    want = WORKSHOP_COLOURS[building]
    names = f"{COLOURS[want[0]]} and {COLOURS[want[1]]}"
    if not isinstance(raw, list) or not raw:
        raise _fail(where, "pairs", f"a {building} needs a list of pairs like {{{names}: direction}}")
    pairs = []
    for pair in raw:
        if not isinstance(pair, Mapping) or sorted(pair) != sorted(COLOURS[c] for c in want):
            raise _fail(where, "pairs", f"each pair must name exactly {names}, got {pair!r}")
        cells = []
        for c in want:
            d = pair[COLOURS[c]]
            if d not in CLOCKWISE8:
                raise _fail(where, "pairs", f"{d!r} is not a direction ({', '.join(CLOCKWISE8)})")
            cells.append((c, d))
        if cells[0][1] == cells[1][1]:
            raise _fail(where, "pairs", "the two positions of a pair must differ")
        pairs.append((cells[0], cells[1]))
    return tuple(pairs)


def parse_catalogue(doc: Any, source: str = "<document>") -> Catalogue:
    """Validate a catalogue document (see docs/formats.md)."""
    doc = data_document(doc, source, "a tile catalogue", "two-heirs-tiles")
    raw = nonempty_list(doc, "tiles", source)
    tiles: list[Tile] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        tile = parse_tile(entry, i, where=f"{source}: tiles[{i}]")
        if tile.id in seen:
            raise DataError(f"{source}: tile {tile.id}: field 'id': duplicate id")
        seen.add(tile.id)
        tiles.append(tile)
    for s in SETS:
        members = [t for t in tiles if t.set == s]
        if not members:
            continue
        if len(members) != 9:
            count = f"{len(members)} tile{'' if len(members) == 1 else 's'}"
            raise DataError(f"{source}: set {s}: has {count}, a set has 9")
        for c in range(3):
            n = sum(1 for t in members if t.colour == c)
            if n != 3:
                raise DataError(f"{source}: set {s}: has {n} {COLOURS[c]} tiles, a set has 3 of each colour")
    return Catalogue(tuple(tiles), source=source, reconstructed=bool(doc.get("reconstructed", False)))


#: The reconstructed 54-tile catalogue shipped with regalia and users' tile catalogue files.
CATALOGUES = DataFiles(parse_catalogue, "regalia.games.two_heirs", "data/tiles.json", "tile catalogue")
#: Load and validate a user's tile catalogue file.
load_catalogue = CATALOGUES.load
#: The catalogue shipped with regalia, parsed once.
default_catalogue = CATALOGUES.default
#: The default catalogue (``None``) or a user's file, parsed once per path.
catalogue_for = CATALOGUES.get
