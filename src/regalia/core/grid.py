"""Square-grid geometry shared by every game.

Positions are ``(x, y)`` tuples; ``y`` grows to the north (up, from seat 0's side of the table).

>>> sorted(neighbours8((0, 0)))[:3]
[(-1, -1), (-1, 0), (-1, 1)]
>>> step((0, 0), "NE")
(1, 1)
>>> rotate_dir("N", 2)
'S'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from math import isqrt
from typing import Final

from regalia.core.errors import PositionError

#: A square ``(x, y)``. Typed as a tuple of any length, not ``tuple[int, int]``: the compiled build
#: (mypyc) keeps a fixed-length tuple unboxed, as a C struct, and so built a new tuple object each
#: time a position went into a dict, a set or an action (every membership test of the rules' hot
#: loops); a ``tuple[int, ...]`` stays the very tuple object, as in the pure build.
Pos = tuple[int, ...]

#: Unit vectors of the eight compass directions.
DIRS: dict[str, Pos] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
#: The eight directions clockwise from north.
CLOCKWISE8: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: The four side directions clockwise from north.
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
OPPOSITE: dict[str, str] = {d: CLOCKWISE8[(i + 4) % 8] for i, d in enumerate(CLOCKWISE8)}

_SIDE_VECS: tuple[Pos, ...] = tuple(DIRS[d] for d in SIDES)
_ALL_VECS: tuple[Pos, ...] = tuple(DIRS[d] for d in CLOCKWISE8)


#: The one tuple of each square met so far (:func:`square`).
_SQUARES: Final[dict[Pos, Pos]] = {}


def square(pos: Pos) -> Pos:
    """The canonical tuple of ``pos``: equal positions give the very same object.

    The engines key dicts and sets by squares in their hottest loops. A look-up that meets the
    same object needs no comparison of tuples (CPython compares keys by identity first), so the
    squares the engines make (:func:`neighbours8`, :func:`neighbours4`, their own tables) go
    through here; :func:`step` and :func:`parse_pos` give the canonical tuple of a square met
    before, without adding the others (a client's positions do not grow the table). Equality is
    unchanged: any tuple with the same coordinates is the same square.

    >>> square((2, -1)) is square((2, -1 + 0))
    True
    """
    found = _SQUARES.get(pos)
    if found is None:
        found = _SQUARES[pos] = pos
    return found


def square_id(pos: Pos) -> int:
    """A number for the square ``pos``, for engines that keep a list indexed by square rather
    than a dict keyed by it (an index reads without hashing a tuple, and ``(x, -1)`` and
    ``(x, -2)`` hash alike). Each coordinate is folded onto 0, 1, 2... (0 → 0, -1 → 1, 1 → 2,
    -2 → 3...) and the two are paired (Szudzik's pairing): the ids are the same in every process,
    and the squares near the start have small ones (those up to 7 away are under 256).

    >>> [square_id(q) for q in [(0, 0), (0, -1), (-1, 0), (-1, -1), (7, -8)]]
    [0, 1, 2, 3, 239]
    >>> all(square_of(square_id((x, y))) == (x, y) for x in range(-9, 9) for y in range(-9, 9))
    True
    """
    x = pos[0]
    y = pos[1]
    a = x + x if x >= 0 else -x - x - 1
    b = y + y if y >= 0 else -y - y - 1
    return a * a + a + b if a >= b else b * b + a


def square_of(i: int) -> Pos:
    """The square of id ``i`` (the inverse of :func:`square_id`; canonical, :func:`square`)."""
    s = isqrt(i)
    r = i - s * s
    a, b = (r, s) if r < s else (s, r - s)
    return square((a // 2 if a % 2 == 0 else -(a + 1) // 2, b // 2 if b % 2 == 0 else -(b + 1) // 2))


#: How far from the start square (0,0) a board's squares may lie, in each coordinate: the engines
#: keep lists by square id (:class:`SquareTable`), whose length grows with the square of the
#: farthest square's distance, so a position from outside further than this is refused
#: (:func:`within_reach`, :func:`regalia.core.fields.parse_pos_field`). A game's whole bag laid
#: in one line from the start stays well within it.
REACH: Final = 128


def within_reach(pos: Pos) -> bool:
    """Whether ``pos`` lies within :data:`REACH` of the start square in both coordinates.

    >>> within_reach((128, -128)), within_reach((129, 0))
    (True, False)
    """
    return -REACH <= pos[0] <= REACH and -REACH <= pos[1] <= REACH


#: The ids of the squares within reach are those under this (:func:`square_id` pairs each
#: coordinate folded onto 0, 1, 2..., at most ``2 * REACH`` within reach).
_REACH_IDS: Final = (2 * REACH + 1) ** 2


class SquareTable:
    """Tables by square id (:func:`square_id`), grown together as play reaches further squares.

    An engine that keeps a list by square id (a count, a cell) reads a square's neighbours and its
    own rows (its actions, say) by id too. This table keeps, for every id it covers, the square
    (:attr:`squares`), its eight neighbours' ids clockwise from north (:attr:`around`) and one more
    than the largest of them (:attr:`span`: how far a list by id must reach around the square);
    ``add(i, square, around)``, given by the game, appends the game's own rows for the id ``i``.
    A game makes one table and reads its lists directly (they are only ever appended to).

    The lists by id a state keeps grow with play (:meth:`reaching`); a state unpickled in
    another process (the root-parallel helpers, the lab's workers) may reach further than any
    that process has played, so the state's readers go through :meth:`covering` first.

    >>> rows = []
    >>> table = SquareTable(lambda i, q, around: rows.append(q))
    >>> i = square_id((1, 0))
    >>> cells = table.reaching([], i)
    >>> [table.squares[j] for j in table.around[i]][:3], rows[i]
    ([(1, 1), (2, 1), (2, 0)], (1, 0))
    >>> len(cells) == table.span[i] == max(table.around[i]) + 1 <= len(table.squares)
    True
    """

    __slots__ = ("_add", "around", "span", "squares")

    def __init__(self, add: Callable[[int, Pos, tuple[int, ...]], None] | None = None) -> None:
        self.squares: list[Pos] = []
        self.around: list[tuple[int, ...]] = []
        self.span: list[int] = []
        self._add = add

    def cover(self, n: int) -> None:
        """Grow the tables to cover the ids under ``n`` (each square's rows made once)."""
        add = self._add
        for i in range(len(self.squares), n):
            q = square_of(i)
            around = tuple([square_id(nb) for nb in neighbours8(q)])
            self.squares.append(q)
            self.around.append(around)
            self.span.append(max(around) + 1)
            if add is not None:
                add(i, q, around)

    def covering(self, cells: list[int]) -> list[int]:
        """``cells``, a list by id, with the tables grown to cover its ids."""
        if len(cells) > len(self.squares):
            self.cover(len(cells))
        return cells

    def reaching(self, cells: list[int], i: int) -> list[int]:
        """``cells``, a list by id, grown with zeros to reach every square around the square of
        id ``i``, and the tables grown to cover it (as :meth:`covering`). A square further than
        :data:`REACH` is refused (:class:`~regalia.core.errors.PositionError`), before anything
        changes."""
        if i >= _REACH_IDS:
            q = square_of(i)
            raise PositionError(
                f"{format_pos(q)} lies further than {REACH} squares from 0,0: the engines keep boards "
                f"within {-REACH} to {REACH} in each coordinate"
            )
        span = self.span
        if i >= len(span):
            self.cover(i + 1)
        reach = span[i]
        if reach > len(cells):
            cells.extend([0] * (reach - len(cells)))
        if len(cells) > len(span):
            self.cover(len(cells))
        return cells


def _known(pos: Pos) -> Pos:
    """:func:`square`'s tuple of ``pos`` if the engines have met the square, else ``pos`` itself:
    what arrives from outside (a position typed or sent) does not grow the table."""
    return _SQUARES.get(pos, pos)


def step(pos: Pos, direction: str, distance: int = 1) -> Pos:
    """The position ``distance`` steps from ``pos`` towards ``direction``."""
    dx, dy = DIRS[direction]
    return _known((pos[0] + dx * distance, pos[1] + dy * distance))


def neighbours4(pos: Pos) -> tuple[Pos, ...]:
    """The four positions that share a side with ``pos`` (N, E, S, W); memoised, as
    :func:`neighbours8`."""
    found = _NB4.get(pos)
    if found is None:
        x, y = pos
        found = _NB4[pos] = tuple([square((x + dx, y + dy)) for dx, dy in _SIDE_VECS])
    return found


def neighbours8(pos: Pos) -> tuple[Pos, ...]:
    """The eight positions that share a side or a corner with ``pos``, clockwise from north.

    Memoised (and the squares canonical, :func:`square`): the engines call this in their hottest
    loops.
    """
    found = _NB8.get(pos)
    if found is None:
        x, y = pos
        found = _NB8[pos] = tuple([square((x + dx, y + dy)) for dx, dy in _ALL_VECS])
    return found


_NB4: Final[dict[Pos, tuple[Pos, ...]]] = {}
_NB8: Final[dict[Pos, tuple[Pos, ...]]] = {}


def rotate_dir(direction: str, quarter_turns: int) -> str:
    """``direction`` turned clockwise by ``quarter_turns`` quarter turns (negative: anticlockwise)."""
    return CLOCKWISE8[(CLOCKWISE8.index(direction) + 2 * quarter_turns) % 8]


def format_pos(pos: Pos) -> str:
    """``(1, -2)`` → ``"1,-2"`` (the notation used by every game)."""
    return f"{pos[0]},{pos[1]}"


#: An integer as the notation writes it: an optional sign and at most nine ASCII digits (``int``
#: alone would also read ``"١"``, ``"１"``, ``" 1"`` and ``"1_0"``).
_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")


def parse_int(text: str) -> int:
    """``"-2"`` → ``-2``: ASCII digits only (no superscripts, other scripts' or fullwidth digits);
    raises ``ValueError`` on anything else.

    >>> parse_int("-12"), parse_int("+3")
    (-12, 3)
    >>> parse_int("\u00b2")
    Traceback (most recent call last):
    ...
    ValueError: not an integer: '²' (expected ASCII digits)
    """
    if _INTEGER.fullmatch(text) is None:
        raise ValueError(f"not an integer: {text!r} (expected ASCII digits)")
    return int(text)


def parse_pos(text: str) -> Pos:
    """``"1,-2"`` → ``(1, -2)``; raises ``ValueError`` on anything else (ASCII digits only)."""
    parts = text.strip().strip("()").split(",")
    if len(parts) != 2:
        raise ValueError(f"not a position: {text!r} (expected x,y)")
    return _known((parse_int(parts[0].strip()), parse_int(parts[1].strip())))
