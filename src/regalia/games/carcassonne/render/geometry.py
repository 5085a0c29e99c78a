"""The shapes of a Carcassonne tile in a unit square (x east, y south, as SVG draws it), for the SVG.

Cities are polygons (their curved walls flattened), drawn in one of five forms turned to the sides
they reach: a cap on one side, a corner on two adjacent sides, a band across two opposite sides,
three sides, the whole tile. Roads run from the middle of their sides to the centre (curving
between adjacent sides). Each feature gets an *anchor*, the point where its follower stands, found
by sampling the square: the point of the feature farthest from every other feature and from the
tile's border (a road's anchor is on the road, near its first side; a cloister's or shrine's at the
centre); a city's pennant takes another deep point of it.

>>> from regalia.games.carcassonne.tiles import default_catalogue
>>> cat = default_catalogue()
>>> shape = tile_shape(cat.turned(cat.by_id["D"].index, 0))
>>> [kind for kind, _ in shape.cities], [len(points) for points in shape.roads]
(['city'], [1])
>>> x, y = shape.anchors[0]          # the knight stands in the city, near the north edge
>>> 0.3 < x < 0.7 and y < 0.25
True
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from functools import cache

from regalia.games.carcassonne.tiles import ABBEYS, CITY, FIELD, ROAD, Turned

Point = tuple[float, float]

CENTRE: Point = (0.5, 0.5)
#: The middle of each side N E S W.
MIDDLES: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
#: A point of each half-edge Nw Ne En Es Se Sw Ws Wn, just inside the tile.
HALF_POINTS: tuple[Point, ...] = (
    (0.25, 0.06),
    (0.75, 0.06),
    (0.94, 0.25),
    (0.94, 0.75),
    (0.75, 0.94),
    (0.25, 0.94),
    (0.06, 0.75),
    (0.06, 0.25),
)
#: Half the width of a road, and the radius of a cloister or a shrine, in tile units.
ROAD_HALF = 0.05
ABBEY_R = 0.2
_GRID = 20


def quad(p0: Point, control: Point, p1: Point, steps: int = 10) -> list[Point]:
    """A quadratic curve flattened to ``steps`` segments (its first point left out)."""
    out = []
    for k in range(1, steps + 1):
        t = k / steps
        a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t * t
        out.append((a * p0[0] + b * control[0] + c * p1[0], a * p0[1] + b * control[1] + c * p1[1]))
    return out


def turn(p: Point, quarters: int) -> Point:
    """``p`` turned clockwise about the centre by ``quarters`` quarter turns."""
    x, y = p
    for _ in range(quarters % 4):
        x, y = 1 - y, x
    return (x, y)


# canonical city forms: a cap on N, a corner on N and E, a band N to S, all sides but S, everything
_CAP = [(0.0, 0.0), (1.0, 0.0), *quad((1.0, 0.0), (0.5, 0.62), (0.0, 0.0))]
_CORNER = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), *quad((1.0, 1.0), (0.62, 0.38), (0.0, 0.0))]
_BAND = [
    (0.0, 0.0),
    (1.0, 0.0),
    *quad((1.0, 0.0), (0.68, 0.5), (1.0, 1.0)),
    (0.0, 1.0),
    *quad((0.0, 1.0), (0.32, 0.5), (0.0, 0.0)),
]
_THREE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), *quad((1.0, 1.0), (0.5, 0.42), (0.0, 1.0))]
_FULL = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def city_polygon(sides: Sequence[int]) -> list[Point]:
    """The outline of a city reaching ``sides`` (0..3 for N E S W)."""
    s = sorted(set(sides))
    if len(s) == 1:
        return [turn(p, s[0]) for p in _CAP]
    if len(s) == 2:
        a, b = s
        if b - a == 2:
            return [turn(p, a) for p in _BAND]
        first = a if (a + 1) % 4 == b else b  # the side clockwise before the other
        return [turn(p, first) for p in _CORNER]
    if len(s) == 3:
        missing = next(k for k in range(4) if k not in s)
        return [turn(p, missing - 2) for p in _THREE]
    return list(_FULL)


def road_points(sides: Sequence[int]) -> list[list[Point]]:
    """The centre lines of a road reaching ``sides``: one line per side ending at the centre, or one
    line through the centre between two sides (a curve between adjacent sides)."""
    s = sorted(set(sides))
    if len(s) == 2:
        a, b = s
        if b - a == 2:
            return [[MIDDLES[a], MIDDLES[b]]]
        return [[MIDDLES[a], *quad(MIDDLES[a], CENTRE, MIDDLES[b])]]
    return [[MIDDLES[k], CENTRE] for k in s]


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Ray casting: is ``point`` inside ``polygon``?"""
    x, y = point
    result = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def line_distance(p: Point, line: Sequence[Point]) -> float:
    """Distance from ``p`` to a polyline."""
    return min(_segment_distance(p, line[i], line[i + 1]) for i in range(len(line) - 1))


@dataclasses.dataclass(frozen=True)
class TileShape:
    """What to draw for a turned tile: the cities (segment kind, polygon) in segment order among
    the cities, the road lines (one list of polylines per road segment, in segment order among the
    roads), each segment's anchor, the pennants' points, and whether roads meet at a junction."""

    cities: tuple[tuple[str, tuple[Point, ...]], ...]
    roads: tuple[tuple[tuple[Point, ...], ...], ...]
    anchors: tuple[Point, ...]
    pennants: tuple[Point, ...]
    junction: bool


@cache
def tile_shape(turned: Turned) -> TileShape:
    """The shapes and anchors of ``turned`` (memoised per tile and rotation)."""
    segments = turned.segments
    polygons = {i: city_polygon(seg.sides) for i, seg in enumerate(segments) if seg.kind == CITY}
    lines = {i: road_points(seg.sides) for i, seg in enumerate(segments) if seg.kind == ROAD}
    field_halves = [h for h in range(8) if turned.half_segment[h] >= 0]
    # which segment each sample point belongs to
    owner: dict[Point, int] = {}
    step = 1.0 / _GRID
    samples = [((i + 0.5) * step, (j + 0.5) * step) for j in range(_GRID) for i in range(_GRID)]
    for p in samples:
        found = -1
        if turned.abbey >= 0 and math.dist(p, CENTRE) < ABBEY_R:
            found = turned.abbey
        if found < 0:
            found = next((i for i, poly in polygons.items() if inside(p, poly)), -1)
        if found < 0:
            found = next(
                (
                    i
                    for i, ls in lines.items()
                    if min(line_distance(p, line) for line in ls) < ROAD_HALF + 0.02
                ),
                -1,
            )
        if found < 0 and field_halves:
            best = min(field_halves, key=lambda h: (math.dist(p, HALF_POINTS[h]), h))
            found = turned.half_segment[best]
        owner[p] = found

    # the samples next to a sample of another segment: distances to other segments are taken to them
    edge: list[tuple[Point, int]] = []
    for j in range(_GRID):
        for i in range(_GRID):
            p = samples[j * _GRID + i]
            near = [
                samples[b * _GRID + a]
                for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1))
                if 0 <= a < _GRID and 0 <= b < _GRID
            ]
            if any(owner[q] != owner[p] for q in near):
                edge.append((p, owner[p]))

    def clearance(p: Point, segment: int) -> float:
        border = min(p[0], p[1], 1 - p[0], 1 - p[1])
        other = min((math.dist(p, q) for q, o in edge if o != segment), default=1.0)
        return min(border * 1.6, other)

    anchors: list[Point] = []
    pennants: list[Point] = []
    for i, seg in enumerate(segments):
        mine = [p for p in samples if owner[p] == i]
        if seg.kind in ABBEYS:
            anchor = (0.5, 0.68)
        elif seg.kind == ROAD:
            target = _along(lines[i][0], 0.22)
            anchor = min(mine, key=lambda p: (math.dist(p, target), p)) if mine else target
        elif mine:
            natural = HALF_POINTS[seg.sides[0]] if seg.kind == FIELD else MIDDLES[seg.sides[0]]
            anchor = max(mine, key=lambda p: (round(clearance(p, i), 3), -math.dist(p, natural), p))
        else:
            anchor = CENTRE
        anchors.append(anchor)
        if seg.kind == CITY and seg.pennant:
            away = [p for p in mine if math.dist(p, anchor) > 0.18]
            pennants.append(
                max(away, key=lambda p: (round(min(clearance(p, i), 0.12), 3), -math.dist(p, anchor), p))
                if away
                else (anchor[0] + 0.15, anchor[1])
            )
    road_count = len(lines)
    single = all(len(segments[i].sides) == 1 for i in lines)
    junction = road_count >= 2 and single and turned.abbey < 0
    return TileShape(
        tuple((segments[i].kind, tuple(poly)) for i, poly in polygons.items()),
        tuple(tuple(tuple(line) for line in ls) for ls in lines.values()),
        tuple(anchors),
        tuple(pennants),
        junction,
    )


def _along(line: Sequence[Point], distance: float) -> Point:
    """The point ``distance`` along a polyline from its start."""
    left = distance
    for a, b in itertools.pairwise(line):
        length = math.dist(a, b)
        if length >= left:
            t = left / length if length else 0.0
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        left -= length
    return line[-1]


__all__ = [
    "ABBEY_R",
    "CENTRE",
    "HALF_POINTS",
    "MIDDLES",
    "ROAD_HALF",
    "Point",
    "TileShape",
    "city_polygon",
    "inside",
    "line_distance",
    "quad",
    "road_points",
    "tile_shape",
    "turn",
]
