"""The data of a Carcassonne position and its features, kept incrementally.

Every feature of every laid tile (a city, road or field segment, a cloister or a shrine) is a node
of a union-find: when a tile is laid, each of its segments joins the segment of the neighbouring tile
across the shared edge (cities and roads by side, fields by half-edge). The root of each feature
holds its record (:data:`Feature`): kind, the tiles it covers, how many of its edges are still open
(a city or road is complete when none is), pennants, the tiles whose follower stands on it, and for
a field the city segments it touches. Nothing is recomputed from scratch: laying a tile costs a few
unions.

Fields of :class:`Base`:

``board``, ``nodes``
    position -> ``type * 4 + rotation // 90``; position -> the first node of the tile's segments
    (segment ``i`` of the tile is node ``nodes[pos] + i``).
``parent``, ``fdata``
    the union-find, and the feature record of each root (``None`` elsewhere).
``cells``
    the board and the free positions by square id (:func:`.core.grid.square_id`, a list read
    without hashing a position): a tile's square holds ``TILE`` plus its ``board`` code; a free
    position (next to a tile by a side) the number of its pattern, the edges its neighbours show
    it N E S W (:data:`.tiles.PATTERNS`), from which the legal placements are read; any other
    square 0. Kept up to date as tiles are laid; it reaches every square next to a tile.
``need_sorted``, ``need_keys``
    the free positions in order (the order placements are listed in), each with its pattern's
    number and its placements' slots (:data:`SLOTS`); their keys (:func:`order_key`),
    in the same order. Kept up to date as tiles are laid. (:attr:`Base.need` gives the free
    positions and their patterns as a dict.)
``abbeys``, ``meeples``
    cloister and shrine positions -> their kind; the tiles holding a follower -> (seat, segment).
``followers``, ``points``
    followers left and points scored so far, per seat.
``bag``, ``bag_left``, ``drawn``
    tiles left in the bag per type (everyone can count them), their total, the tile just drawn.
``player``, ``phase``, ``placed``, ``terminal``
    whose turn, what is to happen (draw, place, follower), the tile laid this turn, the end.
``at_end``
    the followers that stood on the board when the final scoring began (it sends them all home).
``log``
    what scoring and discards happened, ply by ply (for views and descriptions).

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state()
>>> state.feature((0, 0), 0)            # the start tile's city: one tile, one open edge
Feature(kind='city', tiles=frozenset({(0, 0)}), open=1, pennants=0, meeples=(), cities=())
>>> for text in ("draw E", "place E 0,1 180", "follower city S"):
...     _ = state.apply_text(text)
>>> state.points, state.followers       # the city closed: 2 tiles, 4 points; the knight is home
([4, 0], [7, 7])
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final

from regalia.core.game import CHANCE, TERMINAL, CachedState
from regalia.core.grid import Pos, SquareTable, neighbours8, square_id
from regalia.games.carcassonne.actions import Action
from regalia.games.carcassonne.tiles import Catalogue, Turned

if TYPE_CHECKING:
    from regalia.games.carcassonne.game import Carcassonne  # noqa: F401 (named in Base's base class, a string)

#: Followers per player ("Preparation": 8 per colour, one on the scoring track).
FOLLOWERS: Final = 7

PH_DRAW: Final = 1
PH_PLACE: Final = 2
PH_FOLLOWER: Final = 3


@dataclasses.dataclass(init=False, slots=True)
class Feature:
    """The record of a feature, kept at its root in the union-find.

    Never changed in place: a change replaces the record (clones share the records, as they share
    the list's other values). A class rather than a named tuple: the compiled build makes one
    without a generic call and keeps its counts unboxed (a record is made for every segment laid
    and every join).
    """

    #: city, road, field, cloister or shrine
    kind: str
    #: the tiles it covers
    tiles: frozenset[Pos]
    #: edges of a city or road not yet matched by a neighbour (complete at 0)
    open: int
    #: pennants of a city
    pennants: int
    #: the tiles whose follower stands on it (one entry per follower)
    meeples: tuple[Pos, ...]
    #: for a field: the city nodes it touches (their roots are the cities)
    cities: tuple[int, ...]

    # Written out: the ``__init__`` that ``dataclass`` generates runs interpreted in the compiled
    # build (about 10 times as slow as this one compiled, measured with mypyc).
    def __init__(
        self,
        kind: str,
        tiles: frozenset[Pos],
        open: int,
        pennants: int,
        meeples: tuple[Pos, ...],
        cities: tuple[int, ...],
    ) -> None:
        self.kind = kind
        self.tiles = tiles
        self.open = open
        self.pennants = pennants
        self.meeples = meeples
        self.cities = cities

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Feature, (self.kind, self.tiles, self.open, self.pennants, self.meeples, self.cities))


#: Unit vectors of the sides N E S W (y grows to the north).
SIDE_VECTORS: Final[tuple[Pos, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: The eight neighbours of a position.
AROUND: Final[tuple[Pos, ...]] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

#: One scoring or discard event: (ply, what, detail); see :meth:`Base.events`.
Event = tuple[Any, ...]

#: Positions ordered by :func:`order_key`, ``x * ORDER_SPAN + y``, are in the order of their
#: tuples while ``abs(y) < ORDER_SPAN // 2`` (a board of fewer tiles than that): the free positions
#: are kept sorted by these ints, which compare faster than tuples.
ORDER_SPAN: Final = 1 << 20


def order_key(pos: Pos) -> int:
    """The int that sorts ``pos`` as its tuple sorts among the positions of a board.

    >>> sorted([(0, 1), (-1, 5), (0, -2)], key=order_key)
    [(-1, 5), (0, -2), (0, 1)]
    """
    return pos[0] * ORDER_SPAN + pos[1]


#: A placement: a free position and a rotation.
Placement = tuple[Pos, int]
#: A square of :attr:`Base.cells` at or above this holds a tile (``TILE + code``); below it, a
#: free position's pattern number (:data:`.tiles.PATTERNS` has 256) or 0.
TILE: Final = 256
#: By square id: its placements by the mask of the rotations that fit (bit ``r // 90``; ``None``:
#: not made yet), made once (a placement list is made at every draw, mostly of the same
#: positions and rotations).
SLOTS: Final[list[list[tuple[Placement, ...] | None]]] = []


#: By square id: its :func:`order_key`, and the set of that square alone (the tiles of each
#: feature of a tile laid there).
ORDER_KEYS: Final[list[int]] = []
ALONE: Final[list[frozenset[Pos]]] = []


def _add_rows(i: int, q: Pos, around: tuple[int, ...]) -> None:
    SLOTS.append([None] * 16)
    ORDER_KEYS.append(order_key(q))
    ALONE.append(frozenset((q,)))


#: The tables by square id that :attr:`Base.cells` is read with (:class:`.core.grid.SquareTable`).
SQUARES: Final = SquareTable(_add_rows)


def tiles_around(cells: list[int], i: int) -> int:
    """How many of the eight squares around the tile of square id ``i`` hold a tile (``cells``:
    :attr:`Base.cells`, covered by the tables)."""
    n = 0
    for j in SQUARES.around[i]:
        if cells[j] >= TILE:
            n += 1
    return n


class Base(CachedState[Action, "Carcassonne"]):
    """The fields of a Carcassonne position (see the module docstring) and the feature union-find."""

    __slots__ = (
        "_places",
        "abbeys",
        "at_end",
        "bag",
        "bag_left",
        "board",
        "cat",
        "cells",
        "drawn",
        "fdata",
        "followers",
        "log",
        "meeples",
        "need_keys",
        "need_sorted",
        "nodes",
        "parent",
        "phase",
        "placed",
        "player",
        "points",
        "terminal",
    )

    cat: Catalogue
    board: dict[Pos, int]
    nodes: dict[Pos, int]
    parent: list[int]
    fdata: list[Feature | None]
    cells: list[int]
    need_sorted: list[tuple[Pos, int, list[tuple[Placement, ...] | None]]]
    need_keys: list[int]
    abbeys: dict[Pos, str]
    meeples: dict[Pos, tuple[int, int]]
    at_end: dict[Pos, tuple[int, int]]
    followers: list[int]
    points: list[int]
    bag: list[int]
    bag_left: int
    drawn: int
    player: int
    phase: int
    placed: Pos | None
    terminal: bool
    log: tuple[Event, ...]
    _places: tuple[tuple[Pos, int], ...] | None

    # ------------------------------------------------------------------ who acts
    @property
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return CHANCE if self.phase == PH_DRAW else self.player

    def is_terminal(self) -> bool:
        return self.terminal

    # ------------------------------------------------------------------ tiles and features
    def turned(self, pos: Pos) -> Turned:
        """The tile at ``pos`` as it lies (type and rotation)."""
        return self.cat.by_code[self.board[pos]]

    def find(self, node: int) -> int:
        """The root of ``node``'s feature (path halving)."""
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def feature(self, pos: Pos, segment: int) -> Feature:
        """The record of the feature that segment ``segment`` of the tile at ``pos`` belongs to."""
        record = self.fdata[self.find(self.nodes[pos] + segment)]
        assert record is not None
        return record

    def feature_root(self, pos: Pos, segment: int) -> int:
        return self.find(self.nodes[pos] + segment)

    @property
    def need(self) -> dict[Pos, int]:
        """Every free position next to a tile -> the number of its pattern (:attr:`cells`), in
        order."""
        return {q: pattern for q, pattern, _ in self.need_sorted}

    def abbey_neighbours(self, pos: Pos) -> int:
        """How many of the eight positions around ``pos`` hold a tile."""
        cells = SQUARES.covering(self.cells)
        i = square_id(pos)
        if i < len(cells) and cells[i] >= TILE:  # (its neighbours are in the list)
            return tiles_around(cells, i)
        board = self.board
        return sum(1 for q in neighbours8(pos) if q in board)

    def events(self) -> list[Event]:
        """Scoring and discards so far: ``(ply, "score", kind, points per seat, tiles)``,
        ``(ply, "challenge", kind, seats sent home, tiles)``, ``(ply, "discard", tile type)``."""
        return list(self.log)
