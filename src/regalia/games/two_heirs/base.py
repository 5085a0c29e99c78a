"""The data of a Two Heirs position and the questions the rules ask of it.

:class:`Base` holds every field of a position (compact: ints, lists and small dicts of ints) and
answers the rules' queries: reach ("Royal protocol"), resources ("Resources"), where a tile may be
played (B.1, B.2). The legal actions and checks are in :mod:`.rules`, the effects of actions in
:mod:`.effects`, the views in :mod:`.views`; :class:`~regalia.games.two_heirs.state.TwoHeirsState`
puts them together.

Fields:

``tiles``, ``sets``
    the catalogue's tiles; the three sets in play (empty until chance picks random sets).
``first``, ``player``
    the starting seat (-1 before the coin flip) and the seat whose turn it is.
``shield``, ``reserve``
    the royal shield's position and the 7 positions of the royal reserve (tile index, -1: empty).
``board``, ``units``, ``unit_at``, ``cells``
    board position -> packed cell (:mod:`.board`); the 6 units (seat * 3 + k, k == 0 the elite;
    ``None``: in the royal reserve); position -> unit index; and by square id
    (:func:`~regalia.core.grid.square_id`), as far as the squares around the tiles, :data:`TILE`
    where a tile lies plus :data:`UNIT` where a unit stands (what the legal moves ask of a square,
    read from a list rather than two dicts).
``supply``, ``top``
    the tiles still in the face-down supply (unordered: their order is chance's, decided when a
    tile is drawn) and the colour of its top tile's back (-1: unknown or empty).
``chance``, ``refill``
    what chance is to do (:data:`CH_SETS` ...; 0: nothing) and the reserve position a draw fills.
``hands``, ``box``
    each seat's hand; tiles returned to the box.
``took``, ``shield_mine``, ``moved``, ``discounts``, ``pending``, ``discarding``
    the turn in progress: a tile taken, the shield showing the mover's crown, units moved (bits),
    free-terrain discounts, buildings a siege may destroy, the hand-limit discard step.
``final``, ``trigger``, ``finals_left``, ``terminal``
    the end of the game ("Final turn and end of the game").
``last_built``, ``prod``, ``camps_up``
    each seat's last building; each seat's producers per resource; each seat's unused camps on
    the board (face up: the camp's action may flip them).
``_tally``, ``_dirty``
    the incremental scoring (:mod:`.tally`) and the tiles laid since it was last brought up to
    date; ``_score_cache`` the full score sheet of the board (for display), built on demand.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> _ = state.advance()
>>> state.reach(0), len(state.reach_positions(0)), sum(state.supply_counts())
(3, 3, 20)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from regalia.core.game import CHANCE, TERMINAL, CachedState
from regalia.core.grid import Pos, SquareTable, square, square_id
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.scoring import ScoreSheet, producers
from regalia.games.two_heirs.tally import Tally, full_tally, place
from regalia.games.two_heirs.tiles import Tile

if TYPE_CHECKING:
    from regalia.games.two_heirs.game import TwoHeirs  # noqa: F401 (named in Base's base class, a string)

RESERVE_SIZE: Final = 7
#: The most tiles laid since the tally was brought up to date that :meth:`Base.tally` adds one by
#: one (:func:`~regalia.games.two_heirs.tally.place`); past this many it scores the board from
#: scratch, which costs about as much as six places on a full board (docs/performance.md).
PLACES_BEFORE_REBUILD: Final = 6
HAND_LIMIT: Final = 3
UNITS_PER_SEAT: Final = 3  # unit index seat*3 + k; k == 0 is the elite unit
START: Final[Pos] = square((0, 0))
#: The other reserve positions clockwise from each shield position.
CLOCKWISE_FROM: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + k) % RESERVE_SIZE for k in range(1, RESERVE_SIZE)) for s in range(RESERVE_SIZE)
)

#: A square of :attr:`Base.cells`: a tile lies there; a unit stands there (on a tile).
TILE: Final = 1
UNIT: Final = 2
#: By square id (:class:`SquareTable`, grown as the tiles reach further squares): each square's
#: eight neighbours, clockwise from north, as ``(id, square, the step onto it from this square)``.
AROUND_BY_ID: Final[list[tuple[tuple[int, Pos, Action], ...]]] = []


def _add_rows(i: int, q: Pos, around: tuple[int, ...]) -> None:
    AROUND_BY_ID.append(tuple([(j, nb, a) for j, (nb, a) in zip(around, act.steps_from(q), strict=True)]))


#: The tables by square id that :attr:`Base.cells` is read with.
SQUARES: Final = SquareTable(_add_rows)


# What chance is to do (the ``chance`` field); 0: nothing.
CH_SETS: Final = 1  # random sets: choose three
CH_FIRST: Final = 2  # the royal shield flipped like a coin
CH_DEAL: Final = 3  # a tile for reserve position ``refill`` at setup
CH_START: Final = 4  # the starting landscape
CH_TOP: Final = 5  # the back of the supply's new top tile shows its colour
CH_DRAW: Final = 6  # a tile of the top colour refills reserve position ``refill``
CH_TREASURE: Final = 7  # solo: the treasure token flipped onto Henry's building


class Base(CachedState[Action, "TwoHeirs"]):
    """The fields of a Two Heirs position (see the module docstring) and the rules' queries."""

    __slots__ = (
        "_dirty",
        "_score_cache",
        "_tally",
        "board",
        "box",
        "camps_up",
        "cells",
        "chance",
        "discarding",
        "discounts",
        "final",
        "finals_left",
        "first",
        "hands",
        "last_built",
        "moved",
        "pending",
        "player",
        "prod",
        "refill",
        "reserve",
        "sets",
        "shield",
        "shield_mine",
        "supply",
        "terminal",
        "tiles",
        "took",
        "top",
        "trigger",
        "unit_at",
        "units",
    )

    tiles: tuple[Tile, ...]
    sets: tuple[str, ...]
    first: int
    player: int
    shield: int
    reserve: list[int]
    board: dict[Pos, int]
    units: list[Pos | None]
    unit_at: dict[Pos, int]
    cells: list[int]
    supply: list[int]
    top: int
    chance: int
    refill: int
    hands: list[list[int]]
    box: list[int]
    took: bool
    shield_mine: bool
    moved: int
    discounts: int
    pending: tuple[Pos, ...]
    discarding: bool
    final: bool
    trigger: bool
    finals_left: int
    terminal: bool
    last_built: list[Pos | None]
    prod: list[list[int]]
    camps_up: list[int]
    _score_cache: ScoreSheet | None
    _tally: Tally | None  # the scoring of the board as it was (None: to be built from scratch)
    _dirty: tuple[Pos, ...]  # positions laid since _tally was brought up to date

    # ------------------------------------------------------------------ the board changes
    def recount(self) -> None:
        """Work out from the board what the state keeps up to date as buildings come and go: each
        seat's producers per resource and unused camps. For a position set up field by field (a
        state document, a test's builder); play keeps them itself."""
        board = self.board
        self.prod = [producers(board, self.tiles, 0), producers(board, self.tiles, 1)]
        self.camps_up = [sum(1 for c in board.values() if c in camps) for camps in self.game.camp_codes]

    def _laid(self, pos: Pos) -> None:
        """A tile now lies at ``pos``: its cell says so, and the tally takes it into account when
        next asked."""
        i = square_id(pos)
        self._reaching(i)[i] |= TILE
        self._score_cache = None
        if self._tally is not None:
            if len(self._dirty) < PLACES_BEFORE_REBUILD:
                self._dirty = (*self._dirty, pos)
            else:  # scoring the board from scratch is now the cheaper
                self._tally = None
                self._dirty = ()

    def _reaching(self, i: int) -> list[int]:
        """:attr:`cells`, grown to reach the squares around the square of id ``i``."""
        return SQUARES.reaching(self.cells, i)

    def _flipped(self) -> None:
        """A tile was flipped face down: the tally is rebuilt when next asked (rare)."""
        self._score_cache = None
        self._tally = None
        self._dirty = ()

    def tally(self) -> Tally:
        """The incremental scoring of the board now (see :mod:`.tally`)."""
        t = self._tally
        if t is None:
            t = full_tally(self.board, self.tiles, self.game.options.roads)
        elif self._dirty:
            board = self.board
            tiles = self.tiles
            for pos in self._dirty:
                t = place(t, board, tiles, pos)
        else:
            return t
        self._tally = t
        self._dirty = ()
        return t

    # ------------------------------------------------------------------ who acts
    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return CHANCE if self.chance else self.player

    def is_terminal(self) -> bool:
        return self.terminal

    # ------------------------------------------------------------------ queries
    def tile(self, index: int) -> Tile:
        return self.tiles[index]

    def _reindex_units(self) -> None:
        """Work out :attr:`unit_at` and :attr:`cells` from the board and the units (at the start,
        and for a position set up field by field)."""
        self.unit_at = {}
        for i, p in enumerate(self.units):
            if p is not None and p not in self.unit_at:
                self.unit_at[p] = i
        self.cells = []
        for pos in self.board:
            self._laid(pos)
        for pos in self.unit_at:
            i = square_id(pos)
            self._reaching(i)[i] |= UNIT

    def _unit_moved(self, src: Pos | None, dst: Pos | None) -> None:
        """The cells after a unit moved from ``src`` to ``dst`` (:attr:`unit_at` already says so)."""
        if src is not None and src not in self.unit_at:
            self.cells[square_id(src)] &= ~UNIT
        if dst is not None:
            i = square_id(dst)
            self._reaching(i)[i] |= UNIT

    def units_in_reserve(self, seat: int) -> int:
        units = self.units
        base = seat * UNITS_PER_SEAT
        return (units[base + 1] is None) + (units[base + 2] is None)

    def unit_positions(self, seat: int) -> list[Pos]:
        base = seat * UNITS_PER_SEAT
        return [p for p in self.units[base : base + UNITS_PER_SEAT] if p is not None]

    def reach(self, seat: int) -> int:
        """Royal protocol: 1 plus the seat's units in the royal reserve."""
        return 1 + self.units_in_reserve(seat)

    def reach_positions(self, seat: int) -> list[int]:
        """Reserve positions within ``seat``'s reach, clockwise from the shield.

        Empty positions are skipped ("Final turn and end of the game"; ruling R-final-no-tile).
        """
        r = 1 + self.units_in_reserve(seat)
        out = []
        reserve = self.reserve
        for pos in CLOCKWISE_FROM[self.shield]:
            if reserve[pos] >= 0:
                out.append(pos)
                r -= 1
                if not r:
                    break
        return out

    def resources(self, seat: int, reach: list[int] | None = None) -> list[int]:
        """Resources available to ``seat`` now, per colour (wood, stone, grain) ("Resources");
        ``reach``: the seat's :meth:`reach_positions`, when the caller has them already."""
        res = self.prod[seat][:]
        tiles = self.tiles
        reserve = self.reserve
        for pos in self.reach_positions(seat) if reach is None else reach:
            res[tiles[reserve[pos]].colour] += 1
        board = self.board
        base = seat * UNITS_PER_SEAT
        for p in self.units[base : base + UNITS_PER_SEAT]:
            if p is not None:
                res[tiles[board[p] >> 2].colour] += 1
        return res

    def placements(self, seat: int) -> list[Pos]:
        """Free positions touching, by side or corner, a tile occupied by ``seat``'s unit (B.1, B.2)."""
        cells = SQUARES.covering(self.cells)
        base = seat * UNITS_PER_SEAT
        out: list[Pos] = []
        seen: list[int] = []
        for p in self.units[base : base + UNITS_PER_SEAT]:
            if p is None:
                continue
            for j, q, _ in AROUND_BY_ID[square_id(p)]:
                if not cells[j]:  # no tile there (nor a unit, which stands on one)
                    cells[j] = UNIT  # seen (a mark on an empty square, taken off below)
                    seen.append(j)
                    out.append(q)
        for j in seen:
            cells[j] = 0
        return out

    def _deficit(self, tile: int, res: list[int]) -> int:
        # the cost unpacked: the compiled build keeps a fixed-length tuple unboxed, and indexing
        # it by a variable would box it again
        c0, c1, c2 = self.tiles[tile].cost
        d = 0
        if c0 > res[0]:
            d += c0 - res[0]
        if c1 > res[1]:
            d += c1 - res[1]
        if c2 > res[2]:
            d += c2 - res[2]
        return d

    def supply_counts(self) -> list[int]:
        """How many tiles of each colour are left in the supply (public: every tile is known)."""
        counts = [0, 0, 0]
        tiles = self.tiles
        for t in self.supply:
            counts[tiles[t].colour] += 1
        return counts

    def iter_buildings(self, seat: int) -> list[tuple[Pos, Tile]]:
        """``seat``'s face-up buildings with their positions."""
        return [(pos, self.tiles[tile_of(c)]) for pos, c in self.board.items() if owner_of(c) == seat]
