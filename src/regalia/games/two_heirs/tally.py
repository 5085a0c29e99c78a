"""Scores kept up to date as the board grows: the engine's incremental scoring.

:func:`regalia.games.two_heirs.scoring.score_board` scores a board from scratch, with every line
explained; it is what the score calculator and the final score sheet show. During play the engine
needs only the totals, after every action of every search, so it keeps a :class:`Tally`: each
building's base points and the road networks (union-find over road sections), brought up to date
by :func:`place` when a tile is laid, recomputing only the buildings that the new tile can change
(the building itself; inns and lookouts on its row or column; marketplaces, bandit strongholds and
workshops next to it; guardhouses on its diagonals when it is a lookout; formation and counting
buildings when its colour, owner or kind is one they count; pilgrimage sites when the roads
change). A tile flipped face down (a destroyed building, a used camp) is rare; the tally is then
rebuilt. Units only decide which buildings are doubled, so :func:`totals` applies them to the
bases at the end. Tests check the tally against :func:`score_board` on random games.

>>> from regalia.games.two_heirs.tiles import default_catalogue
>>> tiles = default_catalogue().tiles
>>> by_id = default_catalogue().by_id
>>> cells = {(0, 0): by_id["D8"].index * 4}                 # the starting landscape
>>> tally = full_tally(cells, tiles)
>>> cells[(1, 0)] = by_id["W4"].index * 4 + 1               # white's marketplace
>>> tally = place(tally, cells, tiles, (1, 0))
>>> tally.bases, totals(tally, cells, tiles, [[(1, 0)], []])
({(1, 0): 2}, [4, 0])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from regalia.core.grid import OPPOSITE, Pos, step
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.scoring import building_base
from regalia.games.two_heirs.tiles import Tile

Section = tuple[Pos, int]

_FORMATION = {"mill": 2, "stonemason": 1, "stable": 0}
_OWN_COLOUR = {"bakery": 2, "smithy": 1, "gamekeepers-lodge": 0}
_WORKSHOPS = frozenset({"basket-makers-workshop", "potters-workshop", "coopers-workshop"})
_SIDE = frozenset({"marketplace", "bandit-stronghold"})
_INERT = frozenset({"camp", "cathedral", "farm", "sawmill", "quarry", "siege-tower", "guild-house"})


class Roads(NamedTuple):
    """The road networks of a board: the network of each road section and each network's sections.

    A section is ``(position, index)``; a pilgrimage site's roads are one section per side, since
    it ends every road leading to it ("Wandering: Pilgrimage site").
    """

    network_of: dict[Section, int]
    members: dict[int, tuple[Section, ...]]
    next_id: int = 0


EMPTY_ROADS = Roads({}, {}, 0)


class Tally(NamedTuple):
    """Base points of every face-up building, the road networks and the road points per seat."""

    bases: dict[Pos, int]
    roads: Roads
    road_points: tuple[int, int]
    score_roads: bool = True


def sections(pos: Pos, code: int, tiles: Sequence[Tile]) -> list[frozenset[str]]:
    """The road sections of a cell, in the board's frame (none when face down)."""
    owner = owner_of(code)
    if owner < 0:
        return []
    tile = tiles[tile_of(code)]
    if not tile.roads:
        return []
    raw: Iterable[frozenset[str]] = tile.roads
    if tile.building == "pilgrimage-site":
        raw = [frozenset({d}) for sec in tile.roads for d in sec]
    return [frozenset(to_global(d, owner) for d in sec) for sec in raw]


def add_roads(roads: Roads, cells: Mapping[Pos, int], tiles: Sequence[Tile], pos: Pos) -> Roads:
    """``roads`` with the sections of the tile at ``pos`` added, joined to the networks of the
    sections already present that share an edge with them."""
    secs = sections(pos, cells[pos], tiles)
    if not secs:
        return roads
    network_of = dict(roads.network_of)
    members = dict(roads.members)
    next_id = roads.next_id
    for i, sides in enumerate(secs):
        joined: set[int] = set()
        for d in sides:
            q = step(pos, d)
            code = cells.get(q)
            if code is None:
                continue
            for j, other in enumerate(sections(q, code, tiles)):
                if OPPOSITE[d] in other:
                    net = network_of.get((q, j))
                    if net is not None:
                        joined.add(net)
        new: list[Section] = [(pos, i)]
        for net in joined:
            new.extend(members.pop(net))
        for sec in new:
            network_of[sec] = next_id
        members[next_id] = tuple(new)
        next_id += 1
    return Roads(network_of, members, next_id)


def build_roads(cells: Mapping[Pos, int], tiles: Sequence[Tile]) -> Roads:
    """The road networks of a whole board."""
    roads = EMPTY_ROADS
    for pos in cells:
        roads = add_roads(roads, cells, tiles, pos)
    return roads


def road_points(roads: Roads, cells: Mapping[Pos, int]) -> tuple[int, int]:
    """Points per seat for roads ("Roads"): a road over 2 or more tiles gives its majority the
    difference of the two seats' buildings on it (ruling R-road-majority)."""
    points = [0, 0]
    for secs in roads.members.values():
        positions = {pos for pos, _ in secs}
        if len(positions) < 2:
            continue
        counts = [0, 0]
        for pos in positions:
            counts[owner_of(cells[pos])] += 1
        if counts[0] != counts[1]:
            winner = 0 if counts[0] > counts[1] else 1
            points[winner] += abs(counts[0] - counts[1])
    return (points[0], points[1])


def longest_at(roads: Roads, pos: Pos) -> int:
    """Tiles of the longest road reaching the tile at ``pos``, itself included (at least 1)."""
    best = 1
    for (q, _), net in roads.network_of.items():
        if q == pos:
            best = max(best, len({p for p, _ in roads.members[net]}))
    return best


def _base(pos: Pos, cells: Mapping[Pos, int], tiles: Sequence[Tile], roads: Roads) -> int:
    if tiles[tile_of(cells[pos])].building == "pilgrimage-site":
        return longest_at(roads, pos)
    return building_base(pos, cells, tiles)[0]


def full_tally(cells: Mapping[Pos, int], tiles: Sequence[Tile], score_roads: bool = True) -> Tally:
    """The tally of a whole board, from scratch."""
    roads = build_roads(cells, tiles)
    bases = {pos: _base(pos, cells, tiles, roads) for pos, code in cells.items() if owner_of(code) >= 0}
    points = road_points(roads, cells) if score_roads else (0, 0)
    return Tally(bases, roads, points, score_roads)


def _affected(q_code: int, q: Pos, p: Pos, tile: Tile, owner: int, tiles: Sequence[Tile]) -> bool:
    """Whether the building ``q_code`` at ``q`` may score differently once ``tile`` (of ``owner``,
    -1 face down) lies at ``p``."""
    qt = tiles[tile_of(q_code)]
    kind = qt.building
    if kind in _INERT:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    if kind == "inn":
        return (dx == 0 or dy == 0) and abs(dx) + abs(dy) <= 3
    if kind in _SIDE:
        return abs(dx) + abs(dy) == 1
    if kind == "lookout":
        return (dx == 0 or dy == 0) and tile.colour == qt.colour
    if kind in _FORMATION:
        return tile.colour == _FORMATION[kind]
    q_owner = owner_of(q_code)
    mine = owner == q_owner
    if kind in _OWN_COLOUR:
        return mine and tile.colour == _OWN_COLOUR[kind]
    if kind == "trading-post":
        return mine and tile.building in qt.depicts
    if kind == "fortress":
        return mine and tile.building in ("siege-tower", "fortress")
    if kind == "guardhouse":
        return owner >= 0 and tile.building == "lookout" and dx != 0 and abs(dx) == abs(dy)
    if kind in _WORKSHOPS:
        near = max(abs(dx), abs(dy)) == 1
        return near or (mine and tile.building == "guild-house" and kind in tile.depicts)
    return kind == "pilgrimage-site"  # only through the roads, handled by the caller


def place(tally: Tally, cells: Mapping[Pos, int], tiles: Sequence[Tile], pos: Pos) -> Tally:
    """``tally`` brought up to date for the tile that now lies at ``pos`` (``cells`` includes it).

    Several tiles laid since the tally was made can be added one after the other, in any order:
    every base is recomputed on the final ``cells``.
    """
    code = cells[pos]
    tile = tiles[tile_of(code)]
    owner = owner_of(code)
    roads = tally.roads
    changed = bool(sections(pos, code, tiles))
    if changed:
        roads = add_roads(roads, cells, tiles, pos)
    bases = dict(tally.bases)
    for q in tally.bases:
        q_code = cells[q]
        if (changed and tiles[tile_of(q_code)].building == "pilgrimage-site") or _affected(
            q_code, q, pos, tile, owner, tiles
        ):
            bases[q] = _base(q, cells, tiles, roads)
    if owner >= 0:
        bases[pos] = _base(pos, cells, tiles, roads)
    points = road_points(roads, cells) if changed and tally.score_roads else tally.road_points
    return Tally(bases, roads, points, tally.score_roads)


def totals(
    tally: Tally,
    cells: Mapping[Pos, int],
    tiles: Sequence[Tile],
    unit_positions: Sequence[Iterable[Pos]],
    automaton: int | None = None,
) -> list[int]:
    """Points per seat: each building's base, doubled by an own unit on it (the automaton's three
    best doubled instead, "Solo scoring"), plus the roads. The same totals as
    :func:`~regalia.games.two_heirs.scoring.score_board`."""
    out = [0, 0]
    occupied = [set(u) for u in unit_positions]
    henry: list[int] = []
    for pos, base in tally.bases.items():
        owner = owner_of(cells[pos])
        if owner == automaton:
            henry.append(base)
            out[owner] += base
        elif pos in occupied[owner]:
            out[owner] += 2 * base
        else:
            out[owner] += base
    if automaton is not None and henry:
        henry.sort(reverse=True)
        out[automaton] += sum(henry[:3])
    out[0] += tally.road_points[0]
    out[1] += tally.road_points[1]
    return out


__all__ = ["EMPTY_ROADS", "Roads", "Tally", "add_roads", "build_roads", "full_tally", "place", "totals"]
