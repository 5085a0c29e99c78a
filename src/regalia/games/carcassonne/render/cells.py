"""A Carcassonne tile as a terminal cell of 5 columns and 3 lines.

Each of the 15 characters belongs to one feature of the tile as it lies (:class:`Turned`):

* a city paints the middle three characters of a north or south side and the whole column of an
  east or west side (corners included); a city reaching two or more sides also fills the inner
  characters beside the centre, and the centre when it crosses the tile or reaches three sides;
* a road paints ``┃`` on a north or south side, ``━━`` on an east or west side, and a glyph at the
  centre for the sides that meet there (``┏ ┳ ╋``...);
* a cloister (``⌂``) or a shrine (``☼``) takes the centre;
* every other character is a field (``·``), the field of the nearest half-edge.

Each feature has an *anchor*, the character where its follower stands (the seat's letter; a
farmer lies in the field, so its letter is lowercase) and where the number of a follower option is
written in the play command. A monk or a heretic stands beside its building (west of the centre,
else east) when a field is there, so the building's mark stays in view. A city's pennant (``◆``)
takes another of its characters.

>>> from regalia.games.carcassonne.tiles import default_catalogue
>>> cat = default_catalogue()
>>> print("\\n".join(cell_lines(cat.turned(cat.by_id["D"].index, 0))))
·███·
━━━━━
·····
>>> print("\\n".join(cell_lines(cat.turned(cat.by_id["A"].index, 0), {0: (1, ""), 2: (0, "")})))
·····
·R⌂··
··B··
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from functools import cache

from regalia.games.carcassonne.render.style import (
    CITY_GLYPH,
    CLOISTER_GLYPH,
    FIELD_GLYPH,
    PENNANT_GLYPH,
    ROAD_CENTRE,
    ROAD_H,
    ROAD_V,
    SHRINE_GLYPH,
    seat_letter,
)
from regalia.games.carcassonne.tiles import CITY, CLOISTER, FIELD, ROAD, Turned

CELL_W = 5
CELL_H = 3
CENTRE = (2, 1)

Char = tuple[int, int]  # (column, line) inside the cell

#: The characters of each side (N E S W) a city paints.
_CITY_SIDE: dict[int, tuple[Char, ...]] = {
    0: ((1, 0), (2, 0), (3, 0)),
    1: ((4, 0), (4, 1), (4, 2)),
    2: ((1, 2), (2, 2), (3, 2)),
    3: ((0, 0), (0, 1), (0, 2)),
}
#: For a north/south side: its end characters and the corner beside each (belonging to E or W).
_ENDS: dict[int, tuple[tuple[Char, Char, int], ...]] = {
    0: (((1, 0), (0, 0), 3), ((3, 0), (4, 0), 1)),
    2: (((1, 2), (0, 2), 3), ((3, 2), (4, 2), 1)),
}
#: The inner characters beside the centre, next to the west and east sides.
_INNER: dict[int, Char] = {3: (1, 1), 1: (3, 1)}
#: The characters of each side a road paints, and the road's anchor (where a thief stands).
_ROAD_SIDE: dict[int, tuple[Char, ...]] = {
    0: ((2, 0),),
    1: ((3, 1), (4, 1)),
    2: ((2, 2),),
    3: ((0, 1), (1, 1)),
}
_ROAD_ANCHOR: dict[int, Char] = {0: (2, 0), 1: (3, 1), 2: (2, 2), 3: (1, 1)}
#: A city's anchor on each side (a knight stands there when the city does not reach the centre).
_CITY_ANCHOR: dict[int, Char] = {0: (2, 0), 1: (4, 1), 2: (2, 2), 3: (0, 1)}

#: Where each half-edge lies, in a frame where a character is 1 wide and 2 tall (so distances look
#: right on a terminal): Nw Ne En Es Se Sw Ws Wn.
_HALF_POINTS: tuple[tuple[float, float], ...] = (
    (1.25, 0.0),
    (3.75, 0.0),
    (5.0, 1.5),
    (5.0, 4.5),
    (3.75, 6.0),
    (1.25, 6.0),
    (0.0, 4.5),
    (0.0, 1.5),
)


def _point(ch: Char) -> tuple[float, float]:
    return ch[0] + 0.5, (ch[1] + 0.5) * 2


def _distance(ch: Char, point: tuple[float, float]) -> float:
    return math.dist(_point(ch), point)


@dataclasses.dataclass(frozen=True)
class Painted:
    """The characters of a turned tile: ``glyphs[line][column]``, the segment each belongs to
    (``-1``: none, e.g. a junction), each segment's anchor and the pennant's character."""

    glyphs: tuple[tuple[str, ...], ...]
    owner: tuple[tuple[int, ...], ...]
    anchors: tuple[Char, ...]
    pennants: tuple[Char, ...]


@cache
def paint(turned: Turned) -> Painted:
    """The 5x3 picture of ``turned`` (see the module docstring); memoised per tile and rotation."""
    glyph: dict[Char, str] = {}
    owner: dict[Char, int] = {}
    segments = turned.segments
    city_of_side = {s: i for i, seg in enumerate(segments) if seg.kind == CITY for s in seg.sides}
    # cities
    for i, seg in enumerate(segments):
        if seg.kind != CITY:
            continue
        sides = set(seg.sides)
        chars: list[Char] = []
        for s in seg.sides:
            chars.extend(_CITY_SIDE[s])
        for s in (0, 2):
            if s not in sides:
                continue
            for end, _corner, vertical in _ENDS[s]:
                other = city_of_side.get(vertical)
                if other is not None and other != i:  # keep two cities apart
                    chars.remove(end)
        if len(sides) >= 2:
            chars.extend(_INNER[s] for s in (1, 3) if s in sides)
        if len(sides) >= 3 or {0, 2} <= sides or {1, 3} <= sides:
            chars.append(CENTRE)
        for ch in chars:
            glyph[ch] = CITY_GLYPH
            owner[ch] = i
    # roads
    roads = [(i, seg) for i, seg in enumerate(segments) if seg.kind == ROAD]
    for i, seg in roads:
        for s in seg.sides:
            for ch in _ROAD_SIDE[s]:
                glyph[ch] = ROAD_V if s in (0, 2) else ROAD_H
                owner[ch] = i
    if turned.abbey >= 0:
        kind = segments[turned.abbey].kind
        glyph[CENTRE] = CLOISTER_GLYPH if kind == CLOISTER else SHRINE_GLYPH
        owner[CENTRE] = turned.abbey
    elif roads and CENTRE not in owner:
        meeting = frozenset(s for _, seg in roads for s in seg.sides)
        if len(roads) == 1 and len(meeting) == 1:
            (side,) = meeting
            # a road that ends at a city across the tile runs on to it
            if turned.edges[(side + 2) % 4] == "C":
                meeting = frozenset((side, (side + 2) % 4))
            glyph[CENTRE] = ROAD_CENTRE[meeting]
            owner[CENTRE] = roads[0][0]
        elif len(roads) == 1:
            glyph[CENTRE] = ROAD_CENTRE.get(meeting, "╋")
            owner[CENTRE] = roads[0][0]
        else:  # a junction: the roads end there
            glyph[CENTRE] = ROAD_CENTRE.get(meeting, "╋") if len(meeting) >= 3 else "•"
            owner[CENTRE] = -1
    # fields: the field of the nearest half-edge
    halves = [h for h in range(8) if turned.half_segment[h] >= 0]
    for line in range(CELL_H):
        for col in range(CELL_W):
            ch = (col, line)
            if ch in owner:
                continue
            glyph[ch] = FIELD_GLYPH
            if halves:
                best = min(halves, key=lambda h: (_distance(ch, _HALF_POINTS[h]), h))
                owner[ch] = turned.half_segment[best]
            else:
                owner[ch] = -1
    anchors = []
    pennants = []
    for i, seg in enumerate(segments):
        mine = sorted((ch for ch in owner if owner[ch] == i), key=lambda c: (c[1], c[0]))
        if seg.kind == CITY:
            anchor = CENTRE if CENTRE in mine else _CITY_ANCHOR[seg.sides[0]]
        elif seg.kind == ROAD:
            anchor = _ROAD_ANCHOR[seg.sides[0]]
        elif seg.kind == FIELD:
            point = _HALF_POINTS[seg.sides[0]]
            anchor = min(mine, key=lambda c: (c == CENTRE, _distance(c, point), c)) if mine else CENTRE
        else:
            anchor = CENTRE
        if anchor not in mine:  # a feature with no character of its own takes the nearest
            target = _point(anchor)
            anchor = min(glyph, key=lambda c: (_distance(c, target), c))
            owner[anchor] = i
        anchors.append(anchor)
        if seg.kind == CITY and seg.pennant:  # beside the knight's place, to its right first
            target = _point(anchor)
            others = [c for c in mine if c != anchor]
            pennants.append(
                min(others, key=lambda c: (_distance(c, target), c[0] < anchor[0], c)) if others else anchor
            )
    if turned.abbey >= 0:  # the monk or heretic beside its building, so that the mark stays in view
        beside = (
            [ch for ch in ((1, 1), (3, 1)) if ch not in anchors and segments[owner[ch]].kind == FIELD]
            if all(owner[ch] >= 0 for ch in ((1, 1), (3, 1)))
            else []
        )
        if beside:
            anchors[turned.abbey] = beside[0]
            owner[beside[0]] = turned.abbey
    for ch in pennants:
        glyph[ch] = PENNANT_GLYPH
    return Painted(
        tuple(tuple(glyph[(c, r)] for c in range(CELL_W)) for r in range(CELL_H)),
        tuple(tuple(owner[(c, r)] for c in range(CELL_W)) for r in range(CELL_H)),
        tuple(anchors),
        tuple(pennants),
    )


#: A mark on a segment: a follower (seat, "") or an option's number (-1, "12").
Mark = tuple[int, str]


def cell_lines(turned: Turned, marks: Mapping[int, Mark] | None = None) -> list[str]:
    """The 3 lines of the cell as plain text; ``marks``: segment -> (seat, "") for a follower (its
    seat's letter, lowercase for a farmer) or (-1, text) for an option's number."""
    painted = paint(turned)
    rows = [list(r) for r in painted.glyphs]
    for segment, (seat, label) in (marks or {}).items():
        col, line = painted.anchors[segment]
        text = label or follower_mark(seat, turned.segments[segment].kind)
        for k, ch in enumerate(text[: CELL_W - col]):
            rows[line][col + k] = ch
    return ["".join(r) for r in rows]


def follower_mark(seat: int, kind: str) -> str:
    """The letter of a follower: its seat's, lowercase for a farmer (lying in the field)."""
    letter = seat_letter(seat)
    return letter.lower() if kind == FIELD else letter


__all__ = ["CELL_H", "CELL_W", "Mark", "Painted", "cell_lines", "follower_mark", "paint"]
