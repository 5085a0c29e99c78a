"""Final scoring of The Two Heirs ("Scoring" and "Effects of the individual sets").

Scoring is a pure function of the board: :func:`score_board` returns a :class:`ScoreSheet` with
one line per building, the road table and the totals. Rulings applied here are in
docs/rulings.md (search for the building's name).

>>> from regalia.games.two_heirs.tiles import default_catalogue
>>> cat = default_catalogue()
>>> cells = {(0, 0): cat.by_id["D8"].index * 4, (0, 1): cat.by_id["T9"].index * 4 + 1}
>>> sheet = score_board(cells, cat.tiles, [[(0, 1)], []])
>>> [(b.building, b.base, b.points) for b in sheet.buildings], sheet.totals
([('cathedral', 5, 10)], (10, 0))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from regalia.core.data import frozen_reduce
from regalia.core.grid import DIRS, OPPOSITE, SIDES, Pos, neighbours4, step
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.tiles import PRODUCERS, WORKSHOP_COLOURS, Tile

_COLOUR_OF_COUNTER = {"mill": 2, "stonemason": 1, "stable": 0}
_OWN_ON_COLOUR = {"bakery": 2, "smithy": 1, "gamekeepers-lodge": 0}
_AXIS_DIRS = {"row": ("E", "W"), "column": ("N", "S")}


@dataclasses.dataclass(frozen=True, slots=True)
class BuildingScore:
    """The points of one building."""

    pos: Pos
    tile: str
    building: str
    owner: int
    base: int
    doubled: bool
    points: int
    detail: str

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class RoadScore:
    """One road (a connected chain of road sections) and who scores it."""

    tiles: tuple[Pos, ...]
    buildings: tuple[int, int]
    winner: int | None
    points: int

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every line of the final scoring."""

    buildings: tuple[BuildingScore, ...]
    roads: tuple[RoadScore, ...]
    extra: tuple[tuple[int, str, int], ...]
    totals: tuple[int, int]

    def building_points(self, seat: int) -> int:
        return sum(b.points for b in self.buildings if b.owner == seat)

    def road_points(self, seat: int) -> int:
        return sum(r.points for r in self.roads if r.winner == seat)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


# -- roads -------------------------------------------------------------------------------------

Section = tuple[Pos, int]


def road_sections(cells: Mapping[Pos, int], tiles: Sequence[Tile]) -> dict[Section, frozenset[str]]:
    """Every road section on a face-up tile, with its sides in the board's frame.

    Sections of a pilgrimage site are split per side: the site "is considered the end of each
    road leading to it" (Wandering, Pilgrimage site).
    """
    out: dict[Section, frozenset[str]] = {}
    for pos, code in cells.items():
        owner = owner_of(code)
        if owner < 0:
            continue
        tile = tiles[tile_of(code)]
        if not tile.roads:
            continue
        sections: Iterable[frozenset[str]] = tile.roads
        if tile.building == "pilgrimage-site":
            sections = [frozenset({d}) for sec in tile.roads for d in sec]
        for i, sec in enumerate(sections):
            out[(pos, i)] = frozenset(to_global(d, owner) for d in sec)
    return out


def road_networks(cells: Mapping[Pos, int], tiles: Sequence[Tile]) -> list[list[Section]]:
    """The roads of the board: groups of sections joined edge to edge (union-find).

    Two sections join when they touch the same edge from both sides; roads need not line up
    ("Action B.1"), so a road side facing a tile without a matching side simply ends there.
    Face-down tiles have no roads ("Free terrain is not considered part of roads").
    """
    sections = road_sections(cells, tiles)
    parent: dict[Section, Section] = {s: s for s in sections}

    def find(s: Section) -> Section:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    by_edge: dict[tuple[Pos, str], Section] = {}
    for sec, sides in sections.items():
        for d in sides:
            by_edge[(sec[0], d)] = sec
    for (pos, d), sec in by_edge.items():
        other = by_edge.get((step(pos, d), OPPOSITE[d]))
        if other is not None:
            a, b = find(sec), find(other)
            if a != b:
                parent[a] = b
    groups: dict[Section, list[Section]] = {}
    for sec in sections:
        groups.setdefault(find(sec), []).append(sec)
    return sorted(groups.values(), key=lambda g: sorted(g))


def score_roads(cells: Mapping[Pos, int], tiles: Sequence[Tile]) -> list[RoadScore]:
    """The road table ("Roads"): majority minus minority on roads joining at least 2 tiles."""
    out = []
    for group in road_networks(cells, tiles):
        positions = tuple(sorted({pos for pos, _ in group}))
        if len(positions) < 2:
            continue
        counts = [0, 0]
        for pos in positions:
            counts[owner_of(cells[pos])] += 1
        if counts[0] == counts[1]:
            winner, points = None, 0
        else:
            winner = 0 if counts[0] > counts[1] else 1
            points = abs(counts[0] - counts[1])
        out.append(RoadScore(positions, (counts[0], counts[1]), winner, points))
    return out


def pilgrimage_length(pos: Pos, cells: Mapping[Pos, int], tiles: Sequence[Tile]) -> int:
    """Tiles of the longest road connected to the pilgrimage site at ``pos``, itself included."""
    best = 1
    for group in road_networks(cells, tiles):
        if any(p == pos for p, _ in group):
            best = max(best, len({p for p, _ in group}))
    return best


# -- buildings ---------------------------------------------------------------------------------


def _formation(
    start: Pos,
    colour: int,
    exclude: Pos,
    cells: Mapping[Pos, int],
    tiles: Sequence[Tile],
    seen: set[Pos],
) -> None:
    stack = [start]
    while stack:
        p = stack.pop()
        if p in seen or p == exclude:
            continue
        code = cells.get(p)
        if code is None or tiles[tile_of(code)].colour != colour:
            continue
        seen.add(p)
        stack.extend(neighbours4(p))


def building_base(
    pos: Pos,
    cells: Mapping[Pos, int],
    tiles: Sequence[Tile],
    unused_camps: bool = True,
) -> tuple[int, str]:
    """The points of the building at ``pos`` before doubling, and a short explanation."""
    code = cells[pos]
    owner = owner_of(code)
    tile = tiles[tile_of(code)]
    kind = tile.building
    x, y = pos
    if kind == "inn":
        n = 0
        for d in _AXIS_DIRS[tile.axis or "row"]:
            n += sum(1 for k in (1, 2, 3) if step(pos, d, k) in cells)
        return 1 + n, f"1 + {n} tiles within 3 in its {tile.axis}"
    if kind == "marketplace":
        n = sum(1 for q in neighbours4(pos) if q in cells)
        return 1 + n, f"1 + {n} tiles touching by a side"
    if kind == "pilgrimage-site":
        n = pilgrimage_length(pos, cells, tiles)
        return n, f"longest road of {n} tiles"
    if kind == "bandit-stronghold":
        n = 0
        for q in neighbours4(pos):
            c = cells.get(q)
            if c is not None and owner_of(c) not in (-1, owner):
                n += 1
        return 2 + 2 * n, f"2 + 2 x {n} opponent's buildings touching by a side"
    if kind in _COLOUR_OF_COUNTER:
        colour = _COLOUR_OF_COUNTER[kind]
        seen: set[Pos] = set()
        for q in neighbours4(pos):
            _formation(q, colour, pos, cells, tiles, seen)
        return 1 + len(seen), f"1 + {len(seen)} tiles in touching formations"
    if kind in _OWN_ON_COLOUR:
        colour = _OWN_ON_COLOUR[kind]
        n = sum(
            1
            for q, c in cells.items()
            if q != pos and owner_of(c) == owner and tiles[tile_of(c)].colour == colour
        )
        return 1 + n, f"1 + {n} own buildings on that colour"
    if kind == "camp":
        return (2, "unused camp") if unused_camps else (0, "camp")
    if kind == "trading-post":
        n = sum(
            1 for c in cells.values() if owner_of(c) == owner and tiles[tile_of(c)].building in tile.depicts
        )
        return 3 * n, f"3 x {n} own {'/'.join(tile.depicts)}"
    if kind == "cathedral":
        return 5, "cathedral"
    if kind == "fortress":
        n = sum(
            1
            for c in cells.values()
            if owner_of(c) == owner and tiles[tile_of(c)].building in ("siege-tower", "fortress")
        )
        return n, f"{n} own siege towers and fortresses"
    if kind == "lookout":
        n = 0
        for q, c in cells.items():
            if q == pos or tiles[tile_of(c)].colour != tile.colour:
                continue
            if (tile.axis == "row" and q[1] == y) or (tile.axis == "column" and q[0] == x):
                n += 1
        return 1 + n, f"1 + {n} {tile.colour_name} tiles in its {tile.axis}"
    if kind == "guardhouse":
        n = 0
        for q, c in cells.items():
            dx, dy = q[0] - x, q[1] - y
            if dx and abs(dx) == abs(dy) and owner_of(c) >= 0 and tiles[tile_of(c)].building == "lookout":
                n += 1
        return 2 + 2 * n, f"2 + 2 x {n} lookouts on its diagonals"
    if kind in WORKSHOP_COLOURS:
        guild = any(
            owner_of(c) == owner
            and tiles[tile_of(c)].building == "guild-house"
            and kind in tiles[tile_of(c)].depicts
            for c in cells.values()
        )
        per = 4 if guild else 3
        met = 0
        for pair in tile.pairs:
            ok = True
            for colour, d in pair:
                q = step(pos, to_global(d, owner))
                c = cells.get(q)
                if c is None or tiles[tile_of(c)].colour != colour:
                    ok = False
                    break
            met += ok
        return per * met, f"{per} x {met} pairs" + (" (guild house)" if guild else "")
    # farm, sawmill, quarry, siege tower, guild house: no points of their own
    return 0, "no points"


def score_board(
    cells: Mapping[Pos, int],
    tiles: Sequence[Tile],
    unit_positions: Sequence[Iterable[Pos]],
    roads: bool = True,
    automaton: int | None = None,
) -> ScoreSheet:
    """Score a board: every building, doubling by own units, roads and totals.

    ``unit_positions[seat]`` are the board positions of that seat's units. For the solo
    automaton seat (``automaton``) units never double; its three best buildings are doubled
    instead ("Solo scoring").
    """
    occupied = [set(u) for u in unit_positions]
    lines: list[BuildingScore] = []
    for pos in sorted(cells):
        code = cells[pos]
        owner = owner_of(code)
        if owner < 0:
            continue
        base, detail = building_base(pos, cells, tiles)
        doubled = owner != automaton and pos in occupied[owner]
        lines.append(
            BuildingScore(
                pos,
                tiles[tile_of(code)].id,
                tiles[tile_of(code)].building,
                owner,
                base,
                doubled,
                base * (2 if doubled else 1),
                detail,
            )
        )
    if automaton is not None:
        mine = sorted((b for b in lines if b.owner == automaton), key=lambda b: (-b.base, b.pos))[:3]
        best = {b.pos for b in mine}
        lines = [
            dataclasses.replace(b, doubled=True, points=2 * b.base) if b.pos in best else b for b in lines
        ]
    road_lines = score_roads(cells, tiles) if roads else []
    totals = [0, 0]
    for b in lines:
        totals[b.owner] += b.points
    for r in road_lines:
        if r.winner is not None:
            totals[r.winner] += r.points
    return ScoreSheet(tuple(lines), tuple(road_lines), (), (totals[0], totals[1]))


def producers(cells: Mapping[Pos, int], tiles: Sequence[Tile], seat: int) -> list[int]:
    """Extra resources per colour from ``seat``'s farms, sawmills and quarries (Trade & Church)."""
    out = [0, 0, 0]
    for c in cells.values():
        if owner_of(c) == seat:
            kind = tiles[tile_of(c)].building
            if kind in PRODUCERS:
                out[PRODUCERS[kind]] += 1
    return out


__all__ = [
    "DIRS",
    "SIDES",
    "BuildingScore",
    "RoadScore",
    "ScoreSheet",
    "building_base",
    "pilgrimage_length",
    "producers",
    "road_networks",
    "score_board",
    "score_roads",
]
