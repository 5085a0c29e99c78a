"""The Two Heirs as integers and tensors: :class:`TwoHeirsEncoding` (docs/encodings.md).

The board is unbounded, so every spatial quantity is seen through a square **window** of
``size`` x ``size`` cells (11 by default). The window follows the board (frame ``"board"``): its
centre is the centre of the bounding box of the tiles laid so far and of the free cells touching a
unit (where tiles may be played next), moved if need be so that a board narrower than the window
stays whole. The frames ``"tiles"`` (the tiles' bounding box only) and ``"origin"`` (centred on
the starting tile) are kept for comparison. The window is drawn from the point of view of a seat:
seat 0 (white) sees north at the top; seat 1 (blue) sits opposite, so its window is turned by 180
degrees and its own buildings face it as seat 0's face seat 0. Action ids at a seat's decision
are in that seat's window, the same one its observation is drawn in. The game is the same under
that turn and an exchange of seats, so a learner sees each position the same way from either
seat.

**Seat actions** (ids ``0 .. num_actions - 1``), with ``T`` the tiles of the sets in play (all
the catalogue's tiles with ``sets=random``), ``C = size * size`` the cells of the window:

* spatial planes first, ``id = plane * C + cell`` (a convolutional policy head can emit them as
  ``(2T + 11, size, size)``): ``build`` tile t at the cell (planes ``0 .. T-1``), ``terrain`` tile
  t at the cell (``T .. 2T-1``), ``step`` from the cell in direction d (8 planes, N NE E SE S SW W
  NW as the acting seat sees them), ``call`` to the cell, ``withdraw`` from the cell, ``destroy``
  at the cell;
* then the flat ids: ``take`` tile t (T), ``discard`` tile t (T), ``camp`` (one per camp tile in
  play), ``end``, ``spare``.

**Chance outcomes** (ids ``0 .. num_chance_outcomes - 1``): ``draw`` tile t (T), ``top`` colour
(3), ``first`` seat (2; not in the solo game), ``sets`` (one per choice; ``sets=random`` only),
``treasure`` token (solo only).

An action that touches a cell outside the window has no id (:class:`EncodingError`); the legal
mask leaves it out and :meth:`~regalia.core.encoding.Encoding.fits` is False. Tiles outside the
window are missing from the observation's board planes (the ``window`` block counts them).

>>> import regalia
>>> game = regalia.load_game("two-heirs")
>>> enc = TwoHeirsEncoding(game)
>>> enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
(7924, 32, (9075,))
>>> state = game.new_state(seed=1)
>>> _ = state.advance()
>>> [(i, state.action_text(enc.action_from_id(state, i))) for i in enc.legal_ids(state)]
[(7871, 'take W7'), (7875, 'take D2'), (7877, 'take D4')]
>>> action = state.legal_actions()[0]
>>> enc.action_from_id(state, enc.action_id(state, action)) == action
True
>>> enc.observation_tensor(state, 0).shape, enc.fits(state)
((9075,), True)
>>> enc.board_planes(enc.observation_tensor(state, 0))[enc.plane_index["own_elite"]].nonzero()
(array([5]), array([5]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.encoding import EncodingError, Frame, WindowEncoding
from regalia.core.game import CHANCE, Game, State
from regalia.core.grid import CLOCKWISE8, DIRS, OPPOSITE, SIDES, Pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import SET_CHOICES, Action
from regalia.games.two_heirs.base import RESERVE_SIZE, START, UNITS_PER_SEAT, Base
from regalia.games.two_heirs.tiles import BUILDINGS, COLOURS, SETS, Tile

#: The window's default side (cells); see docs/encodings.md for the measured fit of real games.
DEFAULT_SIZE = 11
#: Where the window is centred: on the bounding box of the board, or on the starting tile.
FRAMES: tuple[str, ...] = ("board", "tiles", "origin")

Tensor = npt.NDArray[np.float32]

_VEC_DIR: dict[Pos, int] = {DIRS[d]: i for i, d in enumerate(CLOCKWISE8)}
_SIDE_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for i, a in enumerate(SIDES) for b in SIDES[i + 1 :]
)  # N-E, N-S, N-W, E-S, E-W, S-W
_BUILDING_NAMES: tuple[str, ...] = tuple(BUILDINGS)
# Scales of the counts in the global features (a count divided by its scale; values may pass 1).
_SCORE_SCALE = 50.0
_RESOURCE_SCALE = 6.0


_BOARD_PLANES: tuple[tuple[str, str], ...] = (
    ("tile", "a tile is here, face up or face down"),
    (
        "face_down",
        "a face-down tile: free terrain, the starting landscape, a destroyed building, a used camp",
    ),
    ("own_building", "a building of the viewer (facing the viewer)"),
    ("opp_building", "a building of the opponent"),
    ("green", "a green tile (wood)"),
    ("grey", "a grey tile (stone)"),
    ("yellow", "a yellow tile (grain)"),
    ("start", "the starting landscape (position 0,0)"),
    ("own_elite", "the viewer's elite unit"),
    ("own_regular", "a regular unit of the viewer"),
    ("opp_elite", "the opponent's elite unit"),
    ("opp_regular", "a regular unit of the opponent"),
    ("moved", "a unit here has moved this turn"),
    ("placeable", "a free position where the viewer may play a tile (touches a tile with the viewer's unit)"),
    ("besieged", "an opponent's building the seat to act may destroy now (siege towers, decision pending)"),
    ("own_last", "the viewer's last building"),
    ("opp_last", "the opponent's last building"),
    ("axis_row", "an inn or lookout that scores along its row"),
    ("axis_column", "an inn or lookout that scores along its column"),
    *(
        (f"road_{a}_{b}", f"a road section joining sides {a} and {b} (as the viewer sees them)")
        for a, b in _SIDE_PAIRS
    ),
    *((f"road_end_{a}", f"a road section that leaves by side {a} only (a dead end)") for a in SIDES),
)


class TwoHeirsEncoding(WindowEncoding[Base]):
    """Integer actions, legal masks and observation tensors of The Two Heirs (module docstring).

    ``size`` is the window's side (odd, at least 3), ``frame`` where it is centred (:data:`FRAMES`).
    """

    def __init__(self, game: Game[Any], size: object = DEFAULT_SIZE, frame: object = "board") -> None:
        # the settings are typed object: they come from users (JSON, the command line), and a
        # wrong type is an EncodingError, not the compiled build's TypeError
        super().__init__(game, size=size, frame=frame)
        if not isinstance(size, int) or size < 3 or size % 2 == 0:
            raise EncodingError(f"window size must be an odd integer of at least 3, got {size!r}")
        if not isinstance(frame, str) or frame not in FRAMES:
            raise EncodingError(f"unknown window frame {frame!r}; valid: {', '.join(FRAMES)}")
        two_heirs: Any = game  # a TwoHeirs game (the core types it as any game)
        options: Any = game.options
        catalogue: tuple[Tile, ...] = two_heirs.catalogue.tiles
        self.side = size
        self._set_window(size, size)
        self.frame_kind = frame
        self.radius = size // 2
        self.solo: bool = bool(options.solo)
        self.random_sets = tuple(options.sets) == ("random",)
        #: catalogue indices of the tiles that can be in play (ids index this list)
        self.tiles: tuple[int, ...] = tuple(
            t.index for t in catalogue if self.random_sets or t.set in options.sets
        )
        self.slot: dict[int, int] = {t: i for i, t in enumerate(self.tiles)}
        self.camps: tuple[int, ...] = tuple(t for t in self.tiles if catalogue[t].building == "camp")
        self.camp_slot: dict[int, int] = {t: i for i, t in enumerate(self.camps)}
        self.tokens: tuple[str, ...] = tuple(two_heirs.token_ids)
        self.set_choices: tuple[int, ...] = (
            tuple(SET_CHOICES.index(c) for c in two_heirs.set_choices) if self.random_sets else ()
        )
        self.set_slot: dict[int, int] = {c: i for i, c in enumerate(self.set_choices)}
        self._catalogue = catalogue
        n = len(self.tiles)
        # -- seat actions
        self.plane_build = 0
        self.plane_terrain = n
        self.plane_step = 2 * n
        self.plane_call = 2 * n + 8
        self.plane_withdraw = 2 * n + 9
        self.plane_destroy = 2 * n + 10
        self.action_planes = 2 * n + 11
        flat = self.action_planes * self.cells
        self.id_take = flat
        self.id_discard = flat + n
        self.id_camp = flat + 2 * n
        self.id_end = self.id_camp + len(self.camps)
        self.id_spare = self.id_end + 1
        self.num_actions = self.id_spare + 1
        # -- chance outcomes
        self.ch_draw = 0
        self.ch_top = n
        self.ch_first = n + 3
        self.ch_sets = self.ch_first + (0 if self.solo else 2)
        self.ch_treasure = self.ch_sets + len(self.set_choices)
        self.num_chance_outcomes = self.ch_treasure + (len(self.tokens) if self.solo else 0)
        # -- observation
        planes: list[tuple[str, str]] = list(_BOARD_PLANES)
        in_play = {catalogue[t].set for t in self.tiles}
        planes += [(f"building_{b}", f"a face-up {b}") for b in _BUILDING_NAMES if BUILDINGS[b] in in_play]
        planes += [(f"tile_{catalogue[t].id}", f"tile {catalogue[t].id}") for t in self.tiles]
        if self.solo:
            planes.append(
                ("henry_anchor", "solo: where Henry builds next to (the player's last building or the start)")
            )
            planes += [(f"treasure_{k}", f"solo: treasure token {k} lies here") for k in self.tokens]
        self._lay_out(planes, [(name, (width,), meaning) for name, width, meaning in self._global_blocks()])
        self._tile_plane0 = self.plane_index[f"tile_{catalogue[self.tiles[0]].id}"] if self.tiles else 0
        self._roads: dict[tuple[int, bool], tuple[int, ...]] = {}
        #: the first plane of the spatial action kinds (negative: drawn at the source)
        self._spatial: dict[str, int] = {
            act.BUILD: self.plane_build,
            act.TERRAIN: self.plane_terrain,
            act.STEP: -self.plane_step,
            act.CALL: self.plane_call,
            act.WITHDRAW: -self.plane_withdraw,
            act.DESTROY: self.plane_destroy,
        }
        #: a copy of the board last framed, with its tiles' bounding box (x0, x1, y0, y1)
        self._box: tuple[dict[Pos, int], int, int, int, int] | None = None
        #: per viewer: the frame and a copy of the board last drawn, with the tiles inside the window
        #: and the flat indices of their ones
        self._last_tiles: list[tuple[Frame, dict[Pos, int], int, npt.NDArray[np.intp]] | None] = [None, None]
        #: where the values that are not ones go, in the order _globals lists them
        o = self.offsets
        self._values = np.array(
            [
                *range(o["to_act"], o["scores"] + 3),
                *range(o["hand_sizes"], o["hand_sizes"] + 2),
                *range(o["supply_info"], o["supply_info"] + 4),
                *range(o["window"], o["window"] + 3),
            ],
            dtype=np.intp,
        )
        #: per multi-hot block of tiles: a tile's index in the tensor (never 0: after the board planes)
        self._hot: dict[str, dict[int, int]] = {
            name: {t: self.offsets[name] + k for t, k in self.slot.items()}
            for name in ("hand_own", "hand_opp", "box", "supply")
        }
        #: per multi-hot block of many tiles (box, supply): the tiles last seen and their indices
        self._kept_hot: dict[str, tuple[list[int], npt.NDArray[np.intp]]] = {}
        #: per board code and viewer (``code << 1 | seat``): the offsets of the planes it sets
        self._codes: dict[int, tuple[int, ...]] = {}
        #: per viewer, per unit: the offset of its plane (own or opponent's, elite or regular)
        c = self.cells
        self._unit_planes: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.plane_index[
                    ("own_" if i // UNITS_PER_SEAT == seat else "opp_")
                    + ("elite" if i % UNITS_PER_SEAT == 0 else "regular")
                ]
                * c
                for i in range(2 * UNITS_PER_SEAT)
            )
            for seat in (0, 1)
        )

    # ------------------------------------------------------------------ the window
    def frame(self, state: State[Any], seat: int) -> Frame:
        """The window of ``state`` as ``seat`` sees it (the same centre for both seats)."""
        turned = seat == 1
        s = _base(state)
        board = s.board
        if self.frame_kind == "origin" or not board:
            return self._centred(0, 0, turned)
        # the tiles' bounding box, kept with a copy of the board it was made of (compared by value)
        box = self._box
        if box is None or box[0] != board:
            xs, ys = zip(*board, strict=True)
            box = self._box = (dict(board), min(xs), max(xs), min(ys), max(ys))
        _, x0, x1, y0, y1 = box
        if self.frame_kind == "tiles":
            return self._centred((x0 + x1) // 2, (y0 + y1) // 2, turned)
        # "board": the tiles and the free cells touching a unit, where tiles may be played next
        # (only a unit on the edge of the tiles' box widens it: every cell beyond that edge is free) ...
        ex0, ex1, ey0, ey1 = x0, x1, y0, y1
        for u in s.units:
            if u is None:
                continue
            ux, uy = u
            if ux == x0:
                ex0 = x0 - 1
            if ux == x1:
                ex1 = x1 + 1
            if uy == y0:
                ey0 = y0 - 1
            if uy == y1:
                ey1 = y1 + 1
        # ... but never so far off that a board narrower than the window loses a tile
        return self._centred(
            self._clamp((ex0 + ex1) // 2, x0, x1), self._clamp((ey0 + ey1) // 2, y0, y1), turned
        )

    def _centred(self, cx: int, cy: int, turned: bool) -> Frame:
        """The window centred on ``cx, cy``, turned by 180 degrees for seat 1."""
        r = self.radius
        return Frame(-cx - r, r - cy, True) if turned else Frame(cx - r, cy + r, False)

    def _clamp(self, centre: int, lo: int, hi: int) -> int:
        """``centre`` moved, if need be, so that ``lo .. hi`` stays inside the window."""
        r = self.radius
        if hi - lo >= self.side:
            return centre
        return min(max(centre, hi - r), lo + r)

    # ------------------------------------------------------------------ actions -> ids
    def _state(self, state: State[Any]) -> Base:
        return _base(state)

    def _id(self, state: Base, fr: Frame, action: Any) -> int:
        if not isinstance(action, Action):
            raise EncodingError(f"{action!r} is not a Two Heirs action")
        kind, tile, src, dst = action
        if kind in act.CHANCE_KINDS:
            return self._chance_id(action)
        c = self.cells
        if kind == act.BUILD or kind == act.TERRAIN:
            plane = (self.plane_build if kind == act.BUILD else self.plane_terrain) + self._tile_slot(tile)
            return plane * c + self._cell_of(state, fr, dst, action)
        if kind == act.STEP:
            cell = self._cell_of(state, fr, src, action)
            if src is None or dst is None:
                raise EncodingError(f"{action!r}: a step needs two positions")
            d = _VEC_DIR.get((dst[0] - src[0], dst[1] - src[1]))
            if d is None:
                raise EncodingError(f"{self._text(state, action)}: not a step to a touching position")
            if fr.turned:
                d = (d + 4) % 8
            return (self.plane_step + d) * c + cell
        if kind == act.CALL:
            return self.plane_call * c + self._cell_of(state, fr, dst, action)
        if kind == act.WITHDRAW:
            return self.plane_withdraw * c + self._cell_of(state, fr, src, action)
        if kind == act.DESTROY:
            return self.plane_destroy * c + self._cell_of(state, fr, dst, action)
        if kind == act.TAKE:
            return self.id_take + self._tile_slot(tile)
        if kind == act.DISCARD:
            return self.id_discard + self._tile_slot(tile)
        if kind == act.CAMP:
            if tile not in self.camp_slot:
                raise EncodingError(f"tile #{tile} is not a camp of the sets in play")
            return self.id_camp + self.camp_slot[tile]
        if kind == act.END:
            return self.id_end
        if kind == act.SPARE:
            return self.id_spare
        raise EncodingError(f"unknown action kind {kind!r}")

    def _tile_slot(self, tile: int) -> int:
        slot = self.slot.get(tile)
        if slot is None:
            raise EncodingError(f"tile #{tile} is not a tile of the sets in play")
        return slot

    def _chance_id(self, action: Action) -> int:
        kind, value = action.kind, action.tile
        if kind == act.DRAW:
            return self.ch_draw + self._tile_slot(value)
        if kind == act.TOP and 0 <= value < 3:
            return self.ch_top + value
        if kind == act.FIRST and not self.solo and value in (0, 1):
            return self.ch_first + value
        if kind == act.SETS_DRAWN and value in self.set_slot:
            return self.ch_sets + self.set_slot[value]
        if kind == act.TREASURE and self.solo and 0 <= value < len(self.tokens):
            return self.ch_treasure + value
        raise EncodingError(f"chance outcome {action!r} has no id with these options")

    # ------------------------------------------------------------------ ids -> actions
    def action_from_id(self, state: State[Any], action_id: int) -> Action:
        """The action with this id (legal or not: legality is the state's business)."""
        player = state.current_player
        if player == CHANCE:
            return self._chance_action(action_id)
        if player < 0:
            raise EncodingError("the game is over: no action is to be taken")
        if not 0 <= action_id < self.num_actions:
            raise EncodingError(f"action id {action_id} is outside 0..{self.num_actions - 1}")
        n = len(self.tiles)
        if action_id >= self.id_take:
            if action_id < self.id_discard:
                return act.make(act.TAKE, self.tiles[action_id - self.id_take])
            if action_id < self.id_camp:
                return act.make(act.DISCARD, self.tiles[action_id - self.id_discard])
            if action_id < self.id_end:
                return act.make(act.CAMP, self.camps[action_id - self.id_camp])
            return act.END_ACTION if action_id == self.id_end else act.SPARE_ACTION
        plane, cell = divmod(action_id, self.cells)
        fr = self.frame(state, player)
        pos = self.position(fr, cell)
        if plane < self.plane_terrain:
            return act.make(act.BUILD, self.tiles[plane], None, pos)
        if plane < self.plane_step:
            return act.make(act.TERRAIN, self.tiles[plane - n], None, pos)
        if plane < self.plane_call:
            d = plane - self.plane_step
            if fr.turned:
                d = (d + 4) % 8
            dx, dy = DIRS[CLOCKWISE8[d]]
            return act.make(act.STEP, -1, pos, (pos[0] + dx, pos[1] + dy))
        if plane == self.plane_call:
            return act.make(act.CALL, -1, None, pos)
        if plane == self.plane_withdraw:
            return act.make(act.WITHDRAW, -1, pos, None)
        return act.make(act.DESTROY, -1, None, pos)

    def _chance_action(self, action_id: int) -> Action:
        if not 0 <= action_id < self.num_chance_outcomes:
            raise EncodingError(f"chance outcome id {action_id} is outside 0..{self.num_chance_outcomes - 1}")
        if action_id < self.ch_top:
            return act.make(act.DRAW, self.tiles[action_id])
        if action_id < self.ch_first:
            return act.make(act.TOP, action_id - self.ch_top)
        if action_id < self.ch_sets:
            return act.make(act.FIRST, action_id - self.ch_first)
        if action_id < self.ch_treasure:
            return act.make(act.SETS_DRAWN, self.set_choices[action_id - self.ch_sets])
        return act.make(act.TREASURE, action_id - self.ch_treasure)

    # ------------------------------------------------------------------ the legal set (one frame per state)
    def legal_actions_by_id(self, state: State[Any]) -> dict[int, Action]:
        """The legal actions that have an id, by id (the cells of the spatial kinds worked out
        inline; every other kind by :meth:`_id`)."""
        s = _base(state)
        fr = self.frame(s, self._seat(s))
        c, w, h = self.cells, self.width, self.height
        x0, y1 = fr.x0, fr.y1
        turned = fr.turned
        sign = -1 if turned else 1
        slot = self.slot
        spatial = self._spatial
        out: dict[int, Action] = {}
        for a in s.legal_actions():
            kind, tile, src, dst = a
            plane = spatial.get(kind)
            if plane is not None:
                pos = src if plane < 0 else dst  # a step or withdrawal is drawn at its source
                if pos is not None:
                    col = sign * pos[0] - x0
                    row = y1 - sign * pos[1]
                    if not (0 <= col < w and 0 <= row < h):
                        continue  # outside the window: no id
                    cell = row * w + col
                    if kind == act.STEP:
                        if dst is not None:
                            d = _VEC_DIR.get((dst[0] - pos[0], dst[1] - pos[1]))
                            if d is not None:
                                out[(self.plane_step + ((d + 4) % 8 if turned else d)) * c + cell] = a
                                continue
                    elif kind == act.BUILD or kind == act.TERRAIN:
                        k = slot.get(tile)
                        if k is not None:
                            out[(plane + k) * c + cell] = a
                            continue
                    else:
                        out[abs(plane) * c + cell] = a
                        continue
            try:
                out[self._id(s, fr, a)] = a
            except EncodingError:
                continue
        return out

    def fits(self, state: State[Any]) -> bool:
        s = _base(state)
        return self._fits_in(s, self.frame(s, self._seat(s)))

    # ------------------------------------------------------------------ observation
    def _global_blocks(self) -> list[tuple[str, int, str]]:
        n = len(self.tiles)
        blocks: list[tuple[str, int, str]] = [
            ("to_act", 4, "who acts now: the viewer, the opponent, chance, nobody (the game is over)"),
            (
                "turn_of",
                2,
                "whose turn is in progress (also while chance refills the reserve): viewer, opponent",
            ),
            (
                "seat",
                4,
                "the viewer started, the opponent started (0 before the coin flip), the viewer is an "
                "automaton (Henry), the opponent is an automaton",
            ),
            (
                "turn",
                8,
                "the turn in progress: a tile was taken, the shield shows the crown of the seat whose "
                "turn it is (a tile may be taken), hand-limit discarding, besieged buildings awaiting a "
                "decision / 2, free-terrain discounts / 3, final turns begun, the last supply tile taken "
                "(final turns come next), final turns left / 2",
            ),
            (
                "units",
                10,
                "units in the royal reserve / 2 (viewer, opponent), units on the board / 3 (viewer, "
                "opponent), moved this turn (viewer's elite, regular, regular; opponent's the same)",
            ),
            (
                "reach",
                2,
                "reserve tiles within reach / 6 (viewer, opponent; an automaton reaches every tile)",
            ),
            (
                "resources",
                6,
                f"resources available now / {_RESOURCE_SCALE:g}: viewer's wood, stone, grain; opponent's",
            ),
            (
                "producers",
                6,
                "farms, sawmills, quarries giving resources / 3: viewer's wood, stone, grain; opponent's",
            ),
            ("scores", 3, f"current standing / {_SCORE_SCALE:g}: viewer, opponent, viewer minus opponent"),
            (
                "reserve",
                (RESERVE_SIZE - 1) * (n + 5),
                "the 6 reserve positions clockwise from the royal shield, each: the tile there (one-hot "
                "over the tiles in play; all zero: empty), its colour (3), within the viewer's reach, "
                "within the opponent's reach",
            ),
            ("hand_own", n, "the tiles in the viewer's hand"),
            ("hand_opp", n, "the tiles in the opponent's hand"),
            ("hand_sizes", 2, "hand sizes / 3: viewer, opponent"),
            ("box", n, "the tiles returned to the box"),
            ("supply", n, "the tiles still in the supply (every tile is known; only their order is not)"),
            (
                "supply_info",
                7,
                "supply size / tiles in play, its green, grey, yellow tiles / 9, the colour shown by its "
                "top tile (one-hot; all zero: not shown or empty)",
            ),
            ("sets", len(SETS), "the sets in play (" + ", ".join(SETS) + ")"),
            (
                "window",
                3,
                "board tiles outside the viewer's window / 10, the whole board is inside it, every legal "
                "action of the seat to act has an id",
            ),
        ]
        if self.solo:
            k = len(self.tokens)
            blocks += [
                (
                    "henry_step",
                    3,
                    "solo: Henry's step to come: take a tile, place it, wait for a treasure token",
                ),
                ("henry_tile", n, "solo: the tile Henry is placing"),
                (
                    "treasure_info",
                    3,
                    "solo: treasure tokens in the pile / 10, on the board / 10, removed by their condition "
                    "/ 10",
                ),
                ("tokens_removed", k, "solo: the treasure tokens removed because their condition was met"),
                (
                    "tokens_unseen",
                    k,
                    "solo: the tokens nobody has seen (the pile and those removed at setup)",
                ),
                (
                    "henry_off",
                    UNITS_PER_SEAT,
                    "solo: Henry's units still off the board (elite, regular, regular)",
                ),
                ("level", 3, "solo: Henry's level (1, 2, 3)"),
            ]
        return blocks

    def _observe(self, s: Base, seat: int, fr: Frame, out: Tensor) -> None:
        # every 1.0 of the tensor is gathered as a flat index and written in one call (``ones``);
        # the other values go in by contiguous slices
        ones: list[int] = []
        inside = self._board(s, seat, fr, out, ones)
        self._globals(s, seat, fr, inside, out, ones)
        out.put(ones, 1.0)

    def _code_planes(self, code: int, seat: int) -> tuple[int, ...]:
        """The offsets (``plane * cells``) of the board planes a board entry ``code`` sets, as
        ``seat`` sees it (cached per code and seat: a code is a tile and its owner)."""
        key = code << 1 | seat
        found = self._codes.get(key)
        if found is not None:
            return found
        idx = self.plane_index
        tile = self._catalogue[code >> 2]
        owner = (code & 3) - 1
        planes = [idx["tile"], idx[COLOURS[tile.colour]]]
        slot = self.slot.get(tile.index)
        if slot is not None:
            planes.append(self._tile_plane0 + slot)
        if owner < 0:
            planes.append(idx["face_down"])
        else:
            planes.append(idx["own_building" if owner == seat else "opp_building"])
            building = idx.get("building_" + tile.building)
            if building is not None:
                planes.append(building)
            if tile.axis is not None:
                planes.append(idx["axis_" + tile.axis])
            planes += self._road_planes(tile, owner != seat)
        c = self.cells
        found = self._codes[key] = tuple(plane * c for plane in planes)
        return found

    def _board(self, s: Base, seat: int, fr: Frame, out: Tensor, ones: list[int]) -> int:
        """Gather the board planes' ones; returns how many of the board's tiles are in the window."""
        idx = self.plane_index
        c = self.cells
        w, h = self.width, self.height
        x0, y1 = fr.x0, fr.y1
        sign = -1 if fr.turned else 1
        codes = self._codes
        code_planes = self._code_planes
        add = ones.append
        cell = self.cell_in(fr)
        board = s.board
        # the tiles' planes: the last board drawn for this seat in this frame is kept (a copy of the
        # board, compared by value: never stale), with the flat indices it gave
        kept = self._last_tiles[seat]
        if kept is not None and kept[0] == fr and kept[1] == board:
            inside = kept[2]
            out[kept[3]] = 1.0
        else:
            inside = 0
            tiles: list[int] = []
            more = tiles.extend
            for (x, y), code in board.items():
                col = sign * x - x0
                row = y1 - sign * y
                if 0 <= col < w and 0 <= row < h:
                    at = row * w + col
                    planes = codes.get(code << 1 | seat) or code_planes(code, seat)
                    more([p + at for p in planes])
                    inside += 1
            found = np.array(tiles, dtype=np.intp)
            self._last_tiles[seat] = (fr, dict(board), inside, found)
            out[found] = 1.0
        if START in board:
            at = cell(START)
            if at >= 0:
                add(idx["start"] * c + at)
        moved = s.moved
        unit_planes = self._unit_planes[seat]
        moved_plane = idx["moved"] * c
        for i, upos in enumerate(s.units):
            if upos is None:
                continue
            at = cell(upos)
            if at < 0:
                continue
            add(unit_planes[i] + at)
            if moved >> i & 1:
                add(moved_plane + at)
        plane = idx["placeable"] * c
        for pos in s.placements(seat):
            at = cell(pos)
            if at >= 0:
                add(plane + at)
        plane = idx["besieged"] * c
        for pos in s.pending:
            at = cell(pos)
            if at >= 0:
                add(plane + at)
        for who, name in ((seat, "own_last"), (1 - seat, "opp_last")):
            last = s.last_built[who]
            if last is not None:
                at = cell(last)
                if at >= 0:
                    add(idx[name] * c + at)
        if self.solo:
            anchor: Pos = s.last_built[0] or START
            if anchor in board:
                at = cell(anchor)
                if at >= 0:
                    add(idx["henry_anchor"] * c + at)
            tokens = self.tokens
            for pos, token in getattr(s, "treasures", ()):
                at = cell(pos)
                if at >= 0:
                    add(idx[f"treasure_{tokens[token]}"] * c + at)
        return inside

    def _road_planes(self, tile: Tile, turned: bool) -> tuple[int, ...]:
        """The road planes of a face-up tile, turned by 180 degrees when its owner is not the viewer."""
        key = (tile.index, turned)
        found = self._roads.get(key)
        if found is None:
            planes = []
            for section in tile.roads:
                sides = sorted((OPPOSITE[d] if turned else d for d in section), key=SIDES.index)
                if len(sides) == 1:
                    planes.append(self.plane_index[f"road_end_{sides[0]}"])
                else:
                    planes.append(self.plane_index[f"road_{sides[0]}_{sides[1]}"])
            found = self._roads[key] = tuple(planes)
        return found

    def _fits_in(self, s: Base, fr: Frame) -> bool:
        """Whether every legal action's cell lies in ``fr`` (the seats' frames share their centre,
        so any seat's frame answers for the seat to act)."""
        w, h = self.width, self.height
        x0, y1 = fr.x0, fr.y1
        sign = -1 if fr.turned else 1
        for a in s.legal_actions():
            # the cell an id is made of: the source of a step or withdrawal, else the destination
            pos = a.src if a.src is not None else a.dst
            if pos is not None:
                col = sign * pos[0] - x0
                row = y1 - sign * pos[1]
                if not (0 <= col < w and 0 <= row < h):
                    return False
        return True

    def _globals(self, s: Base, seat: int, fr: Frame, inside: int, out: Tensor, ones: list[int]) -> None:
        """The flat blocks; ``inside``: the board's tiles inside the window."""
        opp = 1 - seat
        off = self.offsets
        n = len(self.tiles)
        slot = self.slot
        tiles = s.tiles
        player = s.current_player
        automata = s.automaton_seats()
        units = s.units
        moved_bits = s.moved
        u = UNITS_PER_SEAT
        reach_seat = s.reach_positions(seat)
        reach_opp = s.reach_positions(opp)
        filled = sum(1 for t in s.reserve if t >= 0)
        scores = s.scores()
        on_turn = not s.terminal and s.first >= 0
        final = s.final
        # the blocks to_act .. scores lie one after the other: one slice
        head = [
            # to_act
            player == seat,
            player == opp,
            player == CHANCE,
            s.terminal,
            # turn_of
            on_turn and s.player == seat,
            on_turn and s.player == opp,
            # seat
            s.first == seat,
            s.first == opp,
            seat in automata,
            opp in automata,
            # turn
            s.took,
            s.shield_mine,
            s.discarding,
            len(s.pending) / 2,
            s.discounts / 3,
            final,
            s.trigger,
            max(s.finals_left, 0) / 2 if final else 0.0,
            # units
            s.units_in_reserve(seat) / 2,
            s.units_in_reserve(opp) / 2,
            sum(1 for p in units[seat * u : seat * u + u] if p is not None) / 3,
            sum(1 for p in units[opp * u : opp * u + u] if p is not None) / 3,
            *[float(moved_bits >> (p * u + k) & 1) for p in (seat, opp) for k in range(u)],
            # reach
            (filled if seat in automata else len(reach_seat)) / 6,
            (filled if opp in automata else len(reach_opp)) / 6,
            # resources, producers
            *[r / _RESOURCE_SCALE for r in s.resources(seat, reach_seat)],
            *[r / _RESOURCE_SCALE for r in s.resources(opp, reach_opp)],
            *[r / 3 for r in s.prod[seat]],
            *[r / 3 for r in s.prod[opp]],
            # scores
            scores[seat] / _SCORE_SCALE,
            scores[opp] / _SCORE_SCALE,
            (scores[seat] - scores[opp]) / _SCORE_SCALE,
        ]
        # the reserve, clockwise from the shield
        reachable = (
            None if seat in automata else set(reach_seat),
            None if opp in automata else set(reach_opp),
        )
        at = off["reserve"]
        width = n + 5
        reserve = s.reserve
        for k in range(1, RESERVE_SIZE):
            pos = (s.shield + k) % RESERVE_SIZE
            t = reserve[pos]
            if t < 0:
                continue
            base = at + (k - 1) * width
            j = slot.get(t)
            if j is not None:
                ones.append(base + j)
            ones.append(base + n + tiles[t].colour)
            for m in (0, 1):
                r = reachable[m]
                if r is None or pos in r:
                    ones.append(base + n + 3 + m)
        hot = self._hot
        ones.extend(filter(None, map(hot["hand_own"].get, s.hands[seat])))
        ones.extend(filter(None, map(hot["hand_opp"].get, s.hands[opp])))
        # the box and the supply hold most of the tiles and change seldom: their indices are kept
        out[self._many_hot("box", s.box)] = 1.0
        out[self._many_hot("supply", s.supply)] = 1.0
        counts = s.supply_counts()
        if s.top >= 0 and s.supply:
            ones.append(off["supply_info"] + 4 + s.top)
        at = off["sets"]
        ones.extend([at + k for k, name in enumerate(SETS) if name in s.sets])
        clipped = len(s.board) - inside
        head += [
            # hand_sizes
            len(s.hands[seat]) / 3,
            len(s.hands[opp]) / 3,
            # supply_info (but the top tile's colour)
            len(s.supply) / max(n, 1),
            counts[0] / 9,
            counts[1] / 9,
            counts[2] / 9,
            # window
            clipped / 10,
            clipped == 0,
            self._fits_in(s, fr),
        ]
        out[self._values] = head
        if self.solo:
            self._solo_globals(s, out, ones)

    def _many_hot(self, name: str, tiles: list[int]) -> npt.NDArray[np.intp]:
        """The tensor indices of the multi-hot block ``name`` for ``tiles``: those of the tiles
        last seen there, kept with a copy of them (compared by value: never stale)."""
        kept = self._kept_hot.get(name)
        if kept is None or kept[0] != tiles:
            hot = self._hot[name]
            kept = self._kept_hot[name] = (
                list(tiles),
                np.array([hot[t] for t in tiles if t in hot], dtype=np.intp),
            )
        return kept[1]

    def _solo_globals(self, s: Any, out: Tensor, ones: list[int]) -> None:
        off = self.offsets
        step = s.henry_step
        if 1 <= step <= 3:
            ones.append(off["henry_step"] + step - 1)
        j = self.slot.get(s.henry_tile)
        if s.henry_tile >= 0 and j is not None:
            ones.append(off["henry_tile"] + j)
        at = off["treasure_info"]
        out[at : at + 3] = (s.pile_left / 10, len(s.treasures) / 10, len(s.taken) / 10)
        at = off["tokens_removed"]
        ones.extend([at + t for t in s.taken])
        at = off["tokens_unseen"]
        ones.extend([at + t for t in s.unseen_tokens()])
        at = off["henry_off"]
        ones.extend([at + k for k in range(UNITS_PER_SEAT) if s.henry_off >> k & 1])
        ones.append(off["level"] + s.game.options.henry_level - 1)


def _base(state: State[Any]) -> Base:
    if not isinstance(state, Base):
        raise EncodingError(f"{state!r} is not a Two Heirs state")
    return state


__all__ = ["DEFAULT_SIZE", "FRAMES", "Frame", "Tensor", "TwoHeirsEncoding"]
