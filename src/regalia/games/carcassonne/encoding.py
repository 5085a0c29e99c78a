"""Carcassonne as integers and tensors: :class:`CarcassonneEncoding` (docs/encodings.md, Carcassonne).

The board has no edge, so placements and board planes are seen through a square **window** of
``size`` x ``size`` cells (:data:`DEFAULT_SIZE` by default, chosen from the window study in
docs/encodings.md). North (``+y``) is the top row for every seat: nobody sits at a side of a
Carcassonne board. The window follows the board (frame ``"board"``): it is centred on the
bounding box of the tiles laid so far and, while a drawn tile waits to be placed, of the positions
where it may go; if that would push a tile of a board no wider than the window out of view, it is
moved just enough to keep the whole board in view. The frames ``"tiles"`` (the tiles' bounding box
alone) and ``"origin"`` (centred on the start tile at 0,0) are kept for comparison.

**Seat actions** (ids ``0 .. num_actions - 1``, ``C = size * size`` cells, cell ``row * size +
column``, row 0 at the top):

* ``place`` the drawn tile at a cell turned ``r``: ``id = (r // 90) * C + cell`` (a convolutional
  policy head can emit them as a ``(4, size, size)`` block). The tile is the drawn one (the
  observation says which). A rotation that gives the same tile as a smaller one has no action of
  its own (the notation writes the smaller): its id decodes to the smaller rotation and is never
  in the mask;
* then ``follower city N E S W`` (4), ``follower road N E S W`` (4), ``follower field Nw Ne En Es
  Se Sw Ws Wn`` (8), ``follower cloister``, ``follower shrine``, and ``pass``.

``num_actions = 4 * C + 19`` whatever the options. **Chance outcomes**: ``draw T`` has id ``T``'s
index in the tile catalogue (``num_chance_outcomes`` = the catalogue's tile types).

A placement outside the window has no id (:class:`EncodingError`); the legal mask leaves it out and
:meth:`~regalia.core.encoding.Encoding.fits` is False. Tiles outside the window are missing from
the board planes (:meth:`CarcassonneEncoding.clipped` counts them; so does the ``window`` block).

>>> import regalia
>>> game = regalia.load_game("carcassonne")
>>> enc = CarcassonneEncoding(game, size=9)
>>> enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
(343, 30, (6803,))
>>> state = game.new_state(seed=5)
>>> enc.chance_ids(state)[:2]
[(0, 0.028169014084507043), (1, 0.056338028169014086)]
>>> _ = state.apply_text("draw V")
>>> [(i, state.action_text(enc.action_from_id(state, i))) for i in enc.legal_ids(state)][:3]
[(41, 'place V 1,0 0'), (49, 'place V 0,-1 0'), (122, 'place V 1,0 90')]
>>> _ = state.apply_text("place V 1,0 0")
>>> [state.action_text(enc.action_from_id(state, i)) for i in enc.legal_ids(state)]
['follower road S', 'follower field Nw', 'follower field Sw', 'pass']
>>> obs = enc.observation_tensor(state, 0)
>>> enc.board_planes(obs)[enc.plane_index["placed"]].nonzero()
(array([4]), array([4]))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.encoding import EncodingError, Frame, WindowEncoding
from regalia.core.game import CHANCE, Game, State
from regalia.core.grid import Pos
from regalia.games.carcassonne.actions import DRAW, FOLLOWER, PASS, PASS_ACTION, PLACE, Action
from regalia.games.carcassonne.base import FOLLOWERS, PH_DRAW, PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.rules import Rules
from regalia.games.carcassonne.tiles import (
    CITY,
    CLOISTER,
    FIELD,
    HALVES,
    ROAD,
    ROTATIONS,
    SHRINE,
    SIDES,
    Catalogue,
)

#: The window's default side (cells); see docs/encodings.md for the measured fit of real games.
DEFAULT_SIZE = 23
#: Where the window is centred: on the board (tiles and where the drawn tile may go), on the tiles'
#: bounding box alone, or on the start tile.
FRAMES: tuple[str, ...] = ("board", "tiles", "origin")
#: The most seats of any option set (planes and blocks per seat have this many entries).
MAX_SEATS = 5

Tensor = npt.NDArray[np.float32]

#: The follower choices after the placement ids, in id order (feature, side or half).
FOLLOWER_CHOICES: tuple[tuple[str, str], ...] = (
    *((CITY, s) for s in SIDES),
    *((ROAD, s) for s in SIDES),
    *((FIELD, h) for h in HALVES),
    (CLOISTER, ""),
    (SHRINE, ""),
)
#: Where on a tile a feature lies: its sides (city, road), its halves (field), or the centre.
LOCATIONS: tuple[str, ...] = (*SIDES, *HALVES, "centre")
_PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(4) for b in range(a + 1, 4))
# Scales of the counts in the global features (a count divided by its scale; values may pass 1).
_SCORE_SCALE = 100.0

_STATIC_PLANES: tuple[tuple[str, str], ...] = (
    ("tile", "a tile lies here"),
    *((f"city_{s}", f"the tile's side {s} is a city edge") for s in SIDES),
    *((f"road_{s}", f"the tile's side {s} is a road edge") for s in SIDES),
    *(
        (f"city_{SIDES[a]}_{SIDES[b]}", f"one city of the tile reaches sides {SIDES[a]} and {SIDES[b]}")
        for a, b in _PAIRS
    ),
    *(
        (f"road_{SIDES[a]}_{SIDES[b]}", f"one road of the tile joins sides {SIDES[a]} and {SIDES[b]}")
        for a, b in _PAIRS
    ),
    *(
        (f"road_end_{s}", f"a road leaves the tile by side {s} and ends on it (junction, cloister, city)")
        for s in SIDES
    ),
    ("pennant", "the tile shows a pennant (a city's coat of arms)"),
    ("cloister", "the tile holds a cloister"),
    ("shrine", "the tile holds a shrine (Heretics and Shrines)"),
)
#: Planes drawn per tile from its features in the union-find (right after the static planes).
_FEATURE_PLANES: tuple[tuple[str, str], ...] = (
    *((f"complete_{s}", f"the city or road reaching side {s} of this tile is complete") for s in SIDES),
    *(
        (f"own_{w}", f"the feature at {w} of this tile holds a follower of the viewer")
        for w in LOCATIONS[:12]
    ),
    *(
        (f"opp_{w}", f"the feature at {w} of this tile holds a follower of another seat")
        for w in LOCATIONS[:12]
    ),
)
_DYNAMIC_PLANES: tuple[tuple[str, str], ...] = (
    *_FEATURE_PLANES,
    ("origin", "the start tile's position, 0,0"),
    *(
        (
            f"follower_{k}",
            "a follower of the viewer stands on this tile"
            if k == 0
            else f"a follower of the seat {k} after the viewer in turn order stands on this tile",
        )
        for k in range(MAX_SEATS)
    ),
    *((f"follower_at_{w}", f"the follower on this tile stands on its feature at {w}") for w in LOCATIONS),
    ("abbey_block", "a cloister or shrine: the tiles of its 3x3 block / 9 (9 / 9: complete)"),
    ("placed", "the tile just laid (its follower is to be decided)"),
    ("open", "a free position touching a tile by a side"),
    *((f"fits_{r}", f"the drawn tile may be laid here turned {r} degrees") for r in ROTATIONS),
)


class CarcassonneEncoding(WindowEncoding[Rules]):
    """Integer actions, legal masks and observation tensors of Carcassonne (module docstring).

    ``size`` is the window's side (an integer of at least 3), ``frame`` where it is centred
    (:data:`FRAMES`).
    """

    def __init__(self, game: Game[Any], size: object = DEFAULT_SIZE, frame: object = "board") -> None:
        # the settings are typed object: they come from users (JSON, the command line), and a
        # wrong type is an EncodingError, not the compiled build's TypeError
        super().__init__(game, size=size, frame=frame)
        if isinstance(size, bool) or not isinstance(size, int) or size < 3:
            raise EncodingError(f"window size must be an integer of at least 3, got {size!r}")
        if not isinstance(frame, str) or frame not in FRAMES:
            raise EncodingError(f"unknown window frame {frame!r}; valid: {', '.join(FRAMES)}")
        carcassonne: Any = game  # a Carcassonne game (the core types it as any game)
        options: Any = game.options
        cat: Catalogue = carcassonne.catalogue
        self.catalogue = cat
        self.side = size
        self._set_window(size, size)
        self.frame_kind = frame
        self.num_players: int = game.num_players
        self.types = len(cat.types)
        # -- seat actions
        c = self.cells
        self.id_follower = 4 * c
        self.follower_id: dict[tuple[str, str], int] = {
            fc: self.id_follower + i for i, fc in enumerate(FOLLOWER_CHOICES)
        }
        self._follower_actions: tuple[Action, ...] = tuple(
            Action(FOLLOWER, feature=f, side=s) for f, s in FOLLOWER_CHOICES
        )
        self.id_pass = self.id_follower + len(FOLLOWER_CHOICES)
        self.num_actions = self.id_pass + 1
        # -- chance outcomes: the catalogue's tile types
        self.num_chance_outcomes = self.types
        self._draws: tuple[Action, ...] = tuple(Action(DRAW, t) for t in range(self.types))
        # -- catalogue data, computed once: per code (type * 4 + rotation // 90) ...
        codes = 4 * self.types
        self._canonical = [[cat.canonical(t, r) for r in ROTATIONS] for t in range(self.types)]
        max_seg = max(len(cat.turned(t, r).segments) for t in range(self.types) for r in ROTATIONS)
        #: ... the values of the static planes
        self._static = np.zeros((codes, len(_STATIC_PLANES)), dtype=np.float32)
        #: ... per segment (padded to the most segments of a tile with zeros), as bit masks over the
        #: feature planes: its sides if it is a city or road (complete_*), its sides and halves
        #: (own_*; opp_* is the same shifted by 12)
        self._seg_sides = np.zeros((codes, max_seg), dtype=np.int64)
        self._seg_where = np.zeros((codes, max_seg), dtype=np.int64)
        #: ... per segment: the location planes of a follower standing on it (Python, for the loop)
        self._seg_locs: list[list[tuple[int, ...]]] = []
        static_index = {name: i for i, (name, _) in enumerate(_STATIC_PLANES)}
        for t in range(self.types):
            for k, r in enumerate(ROTATIONS):
                self._seg_locs.append(self._code_tables(cat, t, r, 4 * t + k, static_index))
        #: ... the same as Python values for :meth:`_board`: the flat offsets of the static planes
        #: that hold a 1 (every static value is 1 or 0), and each real segment's two masks
        assert set(np.unique(self._static).tolist()) <= {0.0, 1.0}
        self._static_ones: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(plane) * c for plane in np.flatnonzero(row)) for row in self._static
        )
        segments = [len(cat.turned(t, r).segments) for t in range(self.types) for r in ROTATIONS]
        self._code_segments: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
            tuple(
                self._segment_offsets(int(self._seg_sides[code, i]), int(self._seg_where[code, i]))
                for i in range(k)
            )
            for code, k in enumerate(segments)
        )
        # -- observation
        blocks = [(name, (width,), meaning) for name, width, meaning in self._global_blocks()]
        self._lay_out([*_STATIC_PLANES, *_DYNAMIC_PLANES], blocks)
        self.static_planes = len(_STATIC_PLANES)
        self.board_plane_count = len(self.planes)
        bag0: list[int] = carcassonne.bag_counts()
        #: each type's count at the start, inverted (as float32, as the tensor holds it)
        self._bag_scales: list[float] = [
            float(v) for v in np.array([1.0 / n if n else 0.0 for n in bag0], dtype=np.float32)
        ]
        self._bag_total = float(max(sum(bag0), 1))
        self._option_values: list[float] = [
            float(v)
            for v in (
                bool(options.farmers),
                options.small_city == 2,
                options.shrines == "off",
                options.shrines == "5",
                options.shrines == "6",
                bool(options.challenge_house_rule),
            )
        ]
        #: where the flat blocks begin (they run to the end of the tensor, in layout order)
        self._globals_at = self.offsets["to_act"]
        assert self.offsets["window"] + 3 == self.observation_shape[0]

    def _segment_offsets(self, sides: int, where: int) -> tuple[tuple[int, ...], ...]:
        """A segment's feature planes as flat offsets (the cell is added): those of its sides when
        its city or road is complete, those of its sides and halves when its feature holds a
        follower of the viewer, and of another seat."""
        c = self.cells
        at = len(_STATIC_PLANES)
        bits = range(len(_FEATURE_PLANES))
        return (
            tuple((at + b) * c for b in bits if sides >> b & 1),
            tuple((at + b) * c for b in bits if (where & _OWN_BITS) >> b & 1),
            tuple((at + b) * c for b in bits if (where & _OPP_BITS) >> b & 1),
        )

    def _code_tables(
        self, cat: Catalogue, tile: int, rotation: int, code: int, static_index: dict[str, int]
    ) -> list[tuple[int, ...]]:
        turned = cat.turned(tile, rotation)
        row = self._static[code]
        row[static_index["tile"]] = 1.0
        for s, e in enumerate(turned.edges):
            if e == "C":
                row[static_index[f"city_{SIDES[s]}"]] = 1.0
            elif e == "R":
                row[static_index[f"road_{SIDES[s]}"]] = 1.0
        locs: list[tuple[int, ...]] = []
        at = self.plane_index_of("follower_at_N")
        for i, seg in enumerate(turned.segments):
            if seg.kind in (CITY, ROAD):
                where = tuple(seg.sides)
                self._seg_sides[code, i] = sum(1 << s for s in seg.sides)
                for a, b in _PAIRS:
                    if a in seg.sides and b in seg.sides:
                        row[static_index[f"{seg.kind}_{SIDES[a]}_{SIDES[b]}"]] = 1.0
                if seg.kind == ROAD and len(seg.sides) == 1:
                    row[static_index[f"road_end_{SIDES[seg.sides[0]]}"]] = 1.0
                if seg.pennant:
                    row[static_index["pennant"]] = 1.0
            elif seg.kind == FIELD:
                where = tuple(4 + h for h in seg.sides)
            else:
                where = (len(LOCATIONS) - 1,)
                row[static_index[seg.kind]] = 1.0
            mask = sum(1 << (4 + w) for w in where if w < 12)
            self._seg_where[code, i] = mask | mask << 12
            locs.append(tuple(at + w for w in where))
        return locs

    @staticmethod
    def plane_index_of(name: str) -> int:
        """The index of board plane ``name`` (the same for every option set)."""
        return _PLANE_INDEX[name]

    # ------------------------------------------------------------------ the window
    def _state(self, state: State[Any]) -> Rules:
        return _base(state)

    def frame(self, state: State[Any], seat: int = 0) -> Frame:
        """The window of ``state`` (the same for every seat: north is up for all)."""
        s = _base(state)
        side = self.side
        if self.frame_kind == "origin":
            r = (side - 1) // 2
            return Frame(-r, r)
        # the tiles' bounding box
        x, y = next(iter(s.board))
        tx0, tx1, ty0, ty1 = _bounds(s.board, x, x, y, y)
        ex0, ex1, ey0, ey1 = tx0, tx1, ty0, ty1
        if self.frame_kind == "board" and s.phase == PH_PLACE and not s.terminal:
            # lean towards where the drawn tile may go (one cell beyond the tiles at most)
            places = [pos for pos, _ in s.placements(s.drawn)]
            ex0, ex1, ey0, ey1 = _bounds(places, tx0, tx1, ty0, ty1)
        return Frame(self._start(ex0, ex1, tx0, tx1), self._start(ey0, ey1, ty0, ty1) + side - 1)

    def extent(self, state: State[Any]) -> tuple[list[Pos], list[Pos]]:
        """The squares of the tiles laid, and those the drawn tile may be placed on (none outside
        the placing step): what ``regalia fit carcassonne --extents`` measures."""
        s = _base(state)
        targets = [p for p, _ in s.placements(s.drawn)] if s.phase == PH_PLACE and not s.terminal else []
        return list(s.board), targets

    def _start(self, lo: int, hi: int, tlo: int, thi: int) -> int:
        """The first column (or row from the south) of a window centred on ``lo .. hi``, moved if
        need be so that the tiles ``tlo .. thi`` stay inside it when they can."""
        side = self.side
        start = lo - (side - (hi - lo + 1)) // 2
        if thi - tlo < side:
            start = min(max(start, thi - side + 1), tlo)
        return start

    # ------------------------------------------------------------------ actions -> ids
    def action_id(self, state: State[Any], action: Any) -> int:
        """The id of ``action`` in ``state``: only a placement needs the window (the others have
        fixed ids, so no window is made for them)."""
        if isinstance(action, Action) and action.kind == PLACE:
            return super().action_id(state, action)
        return self._fixed_id(action)

    def _id(self, s: Rules, fr: Frame, action: Any) -> int:
        if not isinstance(action, Action) or action.kind != PLACE:
            return self._fixed_id(action)
        if s.terminal or s.phase != PH_PLACE or action.tile != s.drawn:
            raise EncodingError(
                f"{self._text(s, action)}: a placement has an id only while that tile waits to be laid"
            )
        if action.pos is None or action.rotation not in ROTATIONS:
            raise EncodingError(f"{action!r}: a placement needs a position and a rotation")
        cell = self._cell_of(s, fr, action.pos, action)
        rot = self._canonical[action.tile][action.rotation // 90]
        return rot // 90 * self.cells + cell

    def _fixed_id(self, action: Any) -> int:
        """The id of a draw, a follower or a pass (the same in every window)."""
        if not isinstance(action, Action):
            raise EncodingError(f"{action!r} is not a Carcassonne action")
        kind = action.kind
        if kind == DRAW:
            if not 0 <= action.tile < self.types:
                raise EncodingError(f"chance outcome {action!r} has no id: no such tile type")
            return action.tile
        if kind == PASS:
            return self.id_pass
        if kind == FOLLOWER:
            found = self.follower_id.get((action.feature, action.side))
            if found is None:
                raise EncodingError(f"{action!r} names no feature of a tile")
            return found
        raise EncodingError(f"unknown action kind {kind!r}")

    # ------------------------------------------------------------------ ids -> actions
    def action_from_id(self, state: State[Any], action_id: int) -> Action:
        """The action with this id (legal or not: legality is the state's business). A placement
        id names the drawn tile, so it decodes only while a tile waits to be laid."""
        s = _base(state)
        player = s.current_player
        if player == CHANCE:
            if not 0 <= action_id < self.num_chance_outcomes:
                raise EncodingError(
                    f"chance outcome id {action_id} is outside 0..{self.num_chance_outcomes - 1}"
                )
            return self._draws[action_id]
        if player < 0:
            raise EncodingError("the game is over: no action is to be taken")
        if not 0 <= action_id < self.num_actions:
            raise EncodingError(f"action id {action_id} is outside 0..{self.num_actions - 1}")
        if action_id >= self.id_follower:
            if action_id == self.id_pass:
                return PASS_ACTION
            return self._follower_actions[action_id - self.id_follower]
        if s.phase != PH_PLACE:
            raise EncodingError(f"action id {action_id} is a placement, but no tile waits to be laid")
        plane, cell = divmod(action_id, self.cells)
        tile = s.drawn
        pos = self.position(self.frame(s), cell)
        return Action(PLACE, tile, pos, self._canonical[tile][plane])

    # ------------------------------------------------------------------ the legal set (one frame per state)
    def legal_actions_by_id(self, state: State[Any]) -> dict[int, Action]:
        """The legal actions that have an id, by id (a placement's cell worked out inline: the
        legal placements are :meth:`Rules.placements`' in its order)."""
        s = _base(state)
        if s.terminal:
            return {}
        phase = s.phase
        legal = s.legal_actions()
        if phase == PH_DRAW:
            return {a.tile: a for a in legal}
        if phase == PH_FOLLOWER:
            fid = self.follower_id
            return {self.id_pass if a.kind == PASS else fid[(a.feature, a.side)]: a for a in legal}
        fr = self.frame(s)
        side = self.side
        cells = self.cells
        x0, top = fr.x0, fr.y1
        out = {}
        for ((x, y), r), a in zip(s.placements(s.drawn), legal, strict=True):
            col = x - x0
            row = top - y
            if 0 <= col < side and 0 <= row < side:
                out[r // 90 * cells + row * side + col] = a
        return out

    def fits(self, state: State[Any]) -> bool:
        s = _base(state)
        if s.terminal or s.phase != PH_PLACE:
            return True
        return self._fits(s, self.frame(s))

    def _fits(self, s: Rules, fr: Frame) -> bool:
        if s.terminal or s.phase != PH_PLACE:
            return True
        x0, top = fr.x0, fr.y1
        x1 = x0 + self.side - 1
        y0 = top - self.side + 1
        return all(x0 <= x <= x1 and y0 <= y <= top for (x, y), _ in s.placements(s.drawn))

    # ------------------------------------------------------------------ observation
    def _global_blocks(self) -> list[tuple[str, int, str]]:
        n = self.types
        m = MAX_SEATS
        return [
            (
                "to_act",
                m + 2,
                f"who acts now: the seat k after the viewer in turn order (k = 0 .. {m - 1}; 0: the "
                "viewer), chance, nobody (the game is over)",
            ),
            ("phase", 4, "what is to happen: a draw, a placement, a follower (or pass), nothing (over)"),
            ("players", m - 1, "the number of players (one-hot: 2, 3, 4, 5)"),
            ("seat", m, "the viewer's seat (one-hot; seat 0 plays first)"),
            (
                "scores",
                m,
                f"points scored so far / {_SCORE_SCALE:g}, per seat from the viewer on in turn order",
            ),
            ("lead", 1, f"the viewer's points minus the best other seat's / {_SCORE_SCALE:g}"),
            ("followers", m, f"followers left / {FOLLOWERS}, per seat from the viewer on in turn order"),
            ("bag", n, "tiles of each type left in the bag / that type's tiles in the bag at the start"),
            ("bag_share", n, "each type's share of the tiles left in the bag (the next draw's odds)"),
            ("bag_left", 1, "tiles left in the bag / tiles in the bag at the start"),
            ("drawn", n, "the tile drawn that waits to be laid (one-hot over the catalogue's types)"),
            ("placed_tile", n, "the tile just laid whose follower is to be decided (one-hot)"),
            (
                "options",
                6,
                "farmers, small cities score 2, shrines off, shrines 5, shrines 6, challenge house rule",
            ),
            (
                "window",
                3,
                "tiles outside the window / 10, the whole board is inside it, every legal action of the "
                "seat to act has an id",
            ),
        ]

    def _observe(self, s: Rules, seat: int, fr: Frame, out: Tensor) -> None:
        clipped = self._board(s, seat, fr, out)
        self._globals(s, seat, clipped, self._fits(s, fr), out)

    def _board(self, s: Rules, seat: int, fr: Frame, out: Tensor) -> int:
        """Draw the board planes; returns how many tiles lie outside the window.

        One pass over the tiles in plain Python gathers the flat index of every 1 (a few hundred
        at most), which one ``put`` writes: on boards of a few dozen tiles that is several times
        faster than the same planes built with numpy by arrays (some fifty calls of a few
        microseconds each; docs/performance.md, "The Carcassonne observation, and the Royal
        Court's")."""
        side = self.side
        c = self.cells
        x0, top = fr.x0, fr.y1
        board = s.board
        nodes = s.nodes
        parent = s.parent
        fdata = s.fdata
        static_ones = self._static_ones
        segments = self._code_segments
        # the feature planes: complete, claimed by the viewer or by another seat (at their roots)
        claim: dict[int, int] = {}  # root -> 1: the viewer's, 2: another seat's, 3: both
        for pos, (who, segment) in s.meeples.items():
            root = _root(parent, nodes[pos] + segment)
            claim[root] = claim.get(root, 0) | (1 if who == seat else 2)
        ones: list[int] = []
        add = ones.append
        clipped = 0
        for pos, code in board.items():
            col = pos[0] - x0
            row = top - pos[1]
            if not (0 <= col < side and 0 <= row < side):
                clipped += 1
                continue
            cell = row * side + col
            # the tile as printed
            for at in static_ones[code]:
                add(at + cell)
            # its features
            node = nodes[pos]
            for complete, own, other in segments[code]:
                root = parent[node]
                if root != node:
                    root = _root(parent, root)
                if complete:
                    record = fdata[root]
                    if record is not None and record.open == 0:
                        for at in complete:
                            add(at + cell)
                if claim:
                    held = claim.get(root, 0)
                    if held & 1:
                        for at in own:
                            add(at + cell)
                    if held & 2:
                        for at in other:
                            add(at + cell)
                node += 1
        # the followers
        idx = _PLANE_INDEX
        seg_locs = self._seg_locs
        follower0 = idx["follower_0"]
        n = s.num_players
        for pos, (who, segment) in s.meeples.items():
            col = pos[0] - x0
            row = top - pos[1]
            if not (0 <= col < side and 0 <= row < side):
                continue
            cell = row * side + col
            add((follower0 + (who - seat) % n) * c + cell)
            for plane in seg_locs[board[pos]][segment]:
                add(plane * c + cell)
        # positions of note
        origin = self.cell(fr, (0, 0))
        if origin >= 0:
            add(idx["origin"] * c + origin)
        if s.placed is not None:
            cell = self.cell(fr, s.placed)
            if cell >= 0:
                add(idx["placed"] * c + cell)
        x1 = x0 + side
        y0 = top - side
        at = idx["open"] * c
        for (x, y), _, _ in s.need_sorted:
            if x0 <= x < x1 and y0 < y <= top:
                add(at + (top - y) * side + x - x0)
        if s.phase == PH_PLACE and not s.terminal:
            at = idx["fits_0"] * c
            for (x, y), r in s.placements(s.drawn):
                if x0 <= x < x1 and y0 < y <= top:
                    add(at + r // 90 * c + (top - y) * side + x - x0)
        out.put(ones, 1.0)
        block = idx["abbey_block"] * c
        for pos in s.abbeys:
            cell = self.cell(fr, pos)
            if cell >= 0:
                out[block + cell] = (1 + s.abbey_neighbours(pos)) / 9
        return clipped

    def _globals(self, s: Rules, seat: int, clipped: int, fits: bool, out: Tensor) -> None:
        """The flat blocks, which lie together at the end of the tensor: made as one list of
        Python floats, written by one slice."""
        at0 = self._globals_at
        off = self.offsets
        values = [0.0] * (len(out) - at0)
        n = s.num_players
        player = s.current_player
        if s.terminal:
            values[off["to_act"] - at0 + MAX_SEATS + 1] = 1.0
        elif player == CHANCE:
            values[off["to_act"] - at0 + MAX_SEATS] = 1.0
        else:
            values[off["to_act"] - at0 + (player - seat) % n] = 1.0
        phase = 3 if s.terminal else (0 if s.phase == PH_DRAW else 1 if s.phase == PH_PLACE else 2)
        values[off["phase"] - at0 + phase] = 1.0
        values[off["players"] - at0 + n - 2] = 1.0
        values[off["seat"] - at0 + seat] = 1.0
        points = s.points
        followers = s.followers
        scores = off["scores"] - at0
        left = off["followers"] - at0
        for k in range(n):
            p = (seat + k) % n
            values[scores + k] = points[p] / _SCORE_SCALE
            values[left + k] = followers[p] / FOLLOWERS
        best = max([points[(seat + k) % n] for k in range(1, n)])
        values[off["lead"] - at0] = (points[seat] - best) / _SCORE_SCALE
        bag = s.bag
        scale = self._bag_scales
        at = off["bag"] - at0
        for t, share in enumerate(scale):
            values[at + t] = bag[t] * share
        if s.bag_left:
            at = off["bag_share"] - at0
            for t, count in enumerate(bag):
                values[at + t] = count / s.bag_left
        values[off["bag_left"] - at0] = s.bag_left / self._bag_total
        if s.drawn >= 0 and s.phase == PH_PLACE and not s.terminal:
            values[off["drawn"] - at0 + s.drawn] = 1.0
        if s.placed is not None:
            values[off["placed_tile"] - at0 + (s.board[s.placed] >> 2)] = 1.0
        at = off["options"] - at0
        values[at : at + 6] = self._option_values
        at = off["window"] - at0
        values[at : at + 3] = [clipped / 10, float(clipped == 0), float(fits)]
        out[at0:] = values


#: The own_* and the opp_* bits of a segment's mask (``_seg_where``).
_OWN_BITS = 0xFFF << 4
_OPP_BITS = 0xFFF << 16


def _bounds(squares: Iterable[Pos], x0: int, x1: int, y0: int, y1: int) -> tuple[int, int, int, int]:
    """The box ``x0 .. x1`` by ``y0 .. y1`` grown to hold ``squares``."""
    for x, y in squares:
        if x < x0:
            x0 = x
        elif x > x1:
            x1 = x
        if y < y0:
            y0 = y
        elif y > y1:
            y1 = y
    return x0, x1, y0, y1


def _root(parent: list[int], node: int) -> int:
    """The root of ``node`` in the union-find ``parent``, read without changing it (the state's own
    :meth:`~regalia.games.carcassonne.base.Base.find` halves paths as it goes)."""
    up = parent[node]
    while up != node:
        node = up
        up = parent[node]
    return node


_PLANE_INDEX: dict[str, int] = {name: i for i, (name, _) in enumerate((*_STATIC_PLANES, *_DYNAMIC_PLANES))}


def _base(state: State[Any]) -> Rules:
    if not isinstance(state, Rules):
        raise EncodingError(f"{state!r} is not a Carcassonne state")
    return state


__all__ = [
    "DEFAULT_SIZE",
    "FOLLOWER_CHOICES",
    "FRAMES",
    "LOCATIONS",
    "MAX_SEATS",
    "CarcassonneEncoding",
    "Frame",
    "Tensor",
]
