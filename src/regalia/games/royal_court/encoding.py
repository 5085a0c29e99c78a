"""Intrigue in the Royal Court as integers and tensors: :class:`RoyalCourtEncoding` (docs/encodings.md).

The table has no edge, so every square is seen through a **window** of ``size`` columns by
``height`` rows (default 16 x 16, chosen from the fit of simulated games: docs/encodings.md). The
window follows the court (frame ``"board"``): its centre is the centre of the bounding box of the
pieces in play, the king and queen among them, so the window is around the king and queen and
whatever the players have built or walked off beside them; a square where a tile may be played
lies at most one square beyond that box. The frame ``"royal"`` (centred on the king and queen
alone; only the Wizard moves them, one square each at most) and ``"origin"`` (the setup's centre)
are kept for comparison: tiles wander away from the royal row in real games, and a window fixed on
it needs to be much larger for the same fit. The window is drawn from the point of view of a seat:
red (seat 0) sits on the south side of the royal row and sees north at the top; blue sits
opposite, so its window is the same one turned by 180 degrees. The rules do not depend on where a
piece lies on the table, only on relative positions, so each seat sees its own side of the row
nearest to it and its own consort on the same side (left with the default consorts).

**Seat actions** (ids ``0 .. num_actions - 1``), with ``n`` the archetypes of the loaded file (10
shipped) and ``C = size * height`` the window's cells:

* spatial planes first, ``id = plane * C + cell``: put archetype ``t`` onto the cell (planes
  ``0 .. n-1``: ``play`` in step 1, ``place`` in the Captain's step), ``move`` from the cell in
  direction ``d`` (8 planes, N NE E SE S SW W NW as the acting seat sees them), and the target
  of the ability waiting for one on the cell (1 plane: ``remove``, ``return``, ``swap``, ``flip``;
  the pending effect names the verb);
* then the flat ids: the target of the pending effect in the opponent's zone, by archetype (``n``:
  ``flip TILE``, ``force TILE``), the Wizard's ``consort`` move of the acting seat's own consort,
  then of the opponent's, in 8 directions each (16), and ``pass``.

**Chance outcomes**: ``first red`` (0) and ``first blue`` (1).

An action that touches a square outside the window has no id (:class:`EncodingError`); the legal
mask leaves it out and :meth:`~regalia.core.encoding.Encoding.fits` is False. Pieces outside the
window are missing from the board planes (the ``window`` block counts them).

>>> import regalia
>>> game = regalia.load_game("royal-court")
>>> enc = RoyalCourtEncoding(game)
>>> enc.num_actions, enc.num_chance_outcomes, enc.observation_shape
(4891, 2, (5820,))
>>> state = game.new_state(seed=1)
>>> enc.chance_ids(state)
[(0, 0.5), (1, 0.5)]
>>> _ = state.apply_text("first red")
>>> ids = enc.legal_ids(state)
>>> len(ids), state.action_text(enc.action_from_id(state, ids[0]))
(160, 'play Assassin -1,1')
>>> action = state.parse_action("play Spy 1,-1")
>>> enc.action_from_id(state, enc.action_id(state, action)) == action
True
>>> enc.board_planes(enc.observation_tensor(state, 0))[enc.plane_index["own_consort"]].nonzero()
(array([7]), array([6]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from regalia.core.encoding import EncodingError, Frame, WindowEncoding
from regalia.core.game import CHANCE, Game, State
from regalia.core.grid import CLOCKWISE8, DIRS, Pos, neighbours4
from regalia.games.royal_court import actions as act
from regalia.games.royal_court import archetypes as ar
from regalia.games.royal_court.actions import Action, make
from regalia.games.royal_court.state import (
    KING,
    KING_AT,
    P_OVER,
    P_PLACE,
    P_PLAY,
    P_TARGET,
    PHASES,
    QUEEN,
    QUEEN_AT,
    VERB,
    RoyalCourtState,
)

#: The window's default side (squares); see docs/encodings.md for the measured fit of real games.
DEFAULT_SIZE = 16
#: Where the window is centred: on the pieces' bounding box, on the king and queen, on the setup.
FRAMES: tuple[str, ...] = ("board", "royal", "origin")

Tensor = npt.NDArray[np.float32]

_VEC_DIR: dict[Pos, int] = {DIRS[d]: i for i, d in enumerate(CLOCKWISE8)}
#: The effects in the order of the ``pending`` block, and the target selectors.
_EFFECTS: tuple[str, ...] = tuple(ar.EFFECT_TARGETS)
_TARGETS: tuple[str, ...] = (ar.OPP_PLAY, ar.OWN_PLAY, ar.OPP_ZONE_ACTIVE, ar.OPP_ZONE, ar.CONSORT)
#: The action kinds that name a target on the board by its square (the pending effect's verb).
_SQUARE_TARGETS = frozenset((act.REMOVE, act.RETURN, act.SWAP, act.FLIP))
# Scales of the counts in the global features (a count divided by its scale; values may pass 1).
_SCORE_SCALE = 20.0
_INFLUENCE_SCALE = 20.0


_BOARD_PLANES: tuple[tuple[str, str], ...] = (
    ("own_tile", "a tile of the viewer"),
    ("opp_tile", "a tile of the opponent"),
    ("inactive", "the piece shows its inactive side (abilities cannot target it; a tile scores a token)"),
    ("king", "the king"),
    ("queen", "the queen"),
    ("own_consort", "the consort the viewer surrounds"),
    ("opp_consort", "the consort the opponent surrounds"),
    ("own_ring", "a square on the four sides of the viewer's consort (where the viewer scores)"),
    ("opp_ring", "a square on the four sides of the opponent's consort"),
    ("frontier", "an empty square touching a piece (sides or corners): where a tile may be played"),
    ("source", "the tile whose ability is resolving"),
    ("targets", "a piece the pending ability may target now (exactly the mask's target squares)"),
)


class RoyalCourtEncoding(WindowEncoding[RoyalCourtState]):
    """Integer actions, legal masks and observation tensors of Intrigue in the Royal Court
    (module docstring).

    ``size`` is the window's width (at least 4), ``height`` its height (at least 3; default
    ``size``), ``frame`` where it is centred (:data:`FRAMES`). The sizes follow the loaded
    archetype file: ``n`` archetypes give ``n + 9`` action planes and ``n`` archetype planes.
    """

    cell_word = "square"

    def __init__(
        self,
        game: Game[Any],
        size: object = DEFAULT_SIZE,
        height: object = None,
        frame: object = "board",
    ) -> None:
        # the settings are typed object: they come from users (JSON, the command line), and a
        # wrong type is an EncodingError, not the compiled build's TypeError
        super().__init__(game, size=size, height=height, frame=frame)
        if not isinstance(size, int) or isinstance(size, bool) or size < 4:
            raise EncodingError(f"window size must be an integer of at least 4, got {size!r}")
        if height is None:
            height = size
        if not isinstance(height, int) or isinstance(height, bool) or height < 3:
            raise EncodingError(f"window height must be an integer of at least 3, got {height!r}")
        if not isinstance(frame, str) or frame not in FRAMES:
            raise EncodingError(f"unknown window frame {frame!r}; valid: {', '.join(FRAMES)}")
        court: Any = game  # a RoyalCourt game (the core types it as any game)
        if getattr(court, "id", None) != "royal-court":
            raise EncodingError(f"{game!r} is not Intrigue in the Royal Court")
        self._set_window(size, height)
        self.frame_kind = frame
        #: The loaded archetypes, in file order (ids index them).
        self.archetypes: tuple[ar.Archetype, ...] = court.archetypes.archetypes
        n = len(self.archetypes)
        self.count = n
        self._owner: tuple[int, ...] = court.owner
        self._arch: tuple[int, ...] = court.arch
        self._consort_piece: tuple[int, int] = court.consort_piece
        self._cap: int = court.options.turn_cap
        # -- seat actions
        self.plane_put = 0
        self.plane_move = n
        self.plane_target = n + 8
        self.action_planes = n + 9
        flat = self.action_planes * self.cells
        self.id_zone = flat
        self.id_consort = flat + n
        self.id_pass = self.id_consort + 16
        self.num_actions = self.id_pass + 1
        # -- chance outcomes
        self.num_chance_outcomes = 2
        # -- observation
        planes = [
            *_BOARD_PLANES,
            *((f"arch_{a.name}", f"a tile of archetype {a.name}") for a in self.archetypes),
        ]
        self._lay_out(planes, self._global_blocks())
        self._arch_plane0 = len(_BOARD_PLANES)
        #: the influence block (the same in every position)
        self._influence = np.array(
            [a.influence / _INFLUENCE_SCALE for a in self.archetypes], dtype=np.float32
        )
        #: where the values that are not ones go, in the order _globals lists them
        o = self.offsets
        self._values = np.array(
            [
                *range(o["to_act"], o["to_act"] + 4),
                *range(o["seat"], o["seat"] + 4),
                *range(o["turn_flags"], o["turn_flags"] + 6),
                *range(o["scores"], o["scores"] + 7),
                *range(o["turn"], o["turn"] + 3),
                *range(o["window"], o["window"] + 3),
            ],
            dtype=np.intp,
        )
        #: the legal actions whose ids were listed last (the state's cached tuple itself, held, so
        #: compared by identity: never stale), their frame, and whether each one's square lies in
        #: it (what :meth:`_fits_in` answers; an environment lists the ids, then observes)
        self._fitted: tuple[tuple[Action, ...], Frame, bool] | None = None

    # ------------------------------------------------------------------ the window
    def frame(self, state: State[Any], seat: int) -> Frame:
        """The window of ``state`` as ``seat`` sees it."""
        s = _court(state)
        turned = seat == 1
        sign = -1 if turned else 1
        if self.frame_kind == "board":
            xs = [p[0] * sign for p in s.board]
            ys = [p[1] * sign for p in s.board]
            cx2, cy2 = min(xs) + max(xs), min(ys) + max(ys)
        elif self.frame_kind == "origin":
            cx2, cy2 = sign * (KING_AT[0] + QUEEN_AT[0]), sign * (KING_AT[1] + QUEEN_AT[1])
        else:
            king, queen = s.at[KING], s.at[QUEEN]
            assert king is not None and queen is not None
            cx2, cy2 = sign * (king[0] + queen[0]), sign * (king[1] + queen[1])
        # doubled centres: an even side centres exactly on a half square, an odd side on a square;
        # otherwise the window has its extra column on the right and its extra row on the near side
        return Frame((cx2 - self.width + 1) // 2, (cy2 + self.height - 1) // 2, turned)

    # ------------------------------------------------------------------ actions -> ids
    def _state(self, state: State[Any]) -> RoyalCourtState:
        return _court(state)

    def _id(self, s: RoyalCourtState, fr: Frame, action: Any) -> int:
        if not isinstance(action, Action):
            raise EncodingError(f"{action!r} is not an action of Intrigue in the Royal Court")
        kind, arg, src, dst = action
        c = self.cells
        if kind == act.FIRST:
            if arg in (0, 1):
                return int(arg)
            raise EncodingError(f"{action!r}: no such seat")
        if kind == act.PLAY or kind == act.PLACE:
            return (self.plane_put + self._arch_slot(arg)) * c + self._cell_of(s, fr, dst, action)
        if kind == act.MOVE:
            cell = self._cell_of(s, fr, src, action)
            return (self.plane_move + self._direction(s, fr, src, dst, action)) * c + cell
        if kind == act.FLIP and dst is None:
            return self.id_zone + self._arch_slot(arg)
        if kind in _SQUARE_TARGETS:
            return self.plane_target * c + self._cell_of(s, fr, dst, action)
        if kind == act.FORCE:
            return self.id_zone + self._arch_slot(arg)
        if kind == act.CONSORT:
            piece = s.board.get(src) if src is not None else None
            if piece not in (KING, QUEEN):
                raise EncodingError(f"{self._text(s, action)}: no king or queen there")
            player = s.current_player
            own = player >= 0 and piece == self._consort_piece[player]
            return self.id_consort + (0 if own else 8) + self._direction(s, fr, src, dst, action)
        if kind == act.PASS:
            return self.id_pass
        raise EncodingError(f"unknown action kind {kind!r}")

    def _arch_slot(self, arg: int) -> int:
        if not isinstance(arg, int) or not 0 <= arg < self.count:
            raise EncodingError(f"archetype #{arg} is not in the loaded archetype file")
        return arg

    def _direction(
        self, s: RoyalCourtState, fr: Frame, src: Pos | None, dst: Pos | None, action: Action
    ) -> int:
        if src is None or dst is None:
            raise EncodingError(f"{action!r}: a move needs two squares")
        d = _VEC_DIR.get((dst[0] - src[0], dst[1] - src[1]))
        if d is None:
            raise EncodingError(f"{self._text(s, action)}: not a move to a touching square")
        return (d + 4) % 8 if fr.turned else d

    # ------------------------------------------------------------------ ids -> actions
    def action_from_id(self, state: State[Any], action_id: int) -> Action:
        """The action with this id (legal or not: legality is the state's business). An id names
        an action only in a step that takes its kind: a put id is ``play`` in step 1 and ``place``
        in the Captain's step; a target id takes its verb from the ability waiting for a target."""
        s = _court(state)
        player = s.current_player
        if player == CHANCE:
            if action_id not in (0, 1):
                raise EncodingError(f"chance outcome id {action_id} is outside 0..1")
            return make(act.FIRST, action_id)
        if player < 0:
            raise EncodingError("the game is over: no action is to be taken")
        if not isinstance(action_id, (int, np.integer)) or not 0 <= action_id < self.num_actions:
            raise EncodingError(f"action id {action_id} is outside 0..{self.num_actions - 1}")
        action_id = int(action_id)
        phase = s.phase
        if action_id == self.id_pass:
            return act.PASS_ACTION
        if action_id >= self.id_consort:
            if phase != P_TARGET or s.queue[0].do != ar.MOVE_CONSORT:
                raise EncodingError(f"action id {action_id} moves a consort: no Wizard's move is pending")
            k = action_id - self.id_consort
            piece = self._consort_piece[player] if k < 8 else self._consort_piece[1 - player]
            src = s.at[piece]
            assert src is not None
            d = k % 8
            if player == 1:
                d = (d + 4) % 8
            dx, dy = DIRS[CLOCKWISE8[d]]
            return make(act.CONSORT, -1, src, (src[0] + dx, src[1] + dy))
        if action_id >= self.id_zone:
            verb = self._pending_verb(s, action_id)
            if verb not in (act.FLIP, act.FORCE) or s.queue[0].target not in ar.ZONE_TARGETS:
                raise EncodingError(f"action id {action_id} names a tile in a zone: {verb} does not")
            return make(verb, action_id - self.id_zone)
        plane, cell = divmod(action_id, self.cells)
        pos = self.position(self.frame(s, player), cell)
        if plane < self.plane_move:
            if phase not in (P_PLAY, P_PLACE):
                raise EncodingError(f"action id {action_id} puts a tile: no tile is to be played now")
            return make(act.PLAY if phase == P_PLAY else act.PLACE, plane, None, pos)
        if plane < self.plane_target:
            d = plane - self.plane_move
            if player == 1:
                d = (d + 4) % 8
            dx, dy = DIRS[CLOCKWISE8[d]]
            return make(act.MOVE, -1, pos, (pos[0] + dx, pos[1] + dy))
        verb = self._pending_verb(s, action_id)
        if verb not in _SQUARE_TARGETS or s.queue[0].target not in ar.IN_PLAY_TARGETS:
            raise EncodingError(f"action id {action_id} names a square: the pending {verb} does not")
        return make(verb, -1, None, pos)

    def _pending_verb(self, s: RoyalCourtState, action_id: int) -> str:
        if s.phase != P_TARGET or not s.queue:
            raise EncodingError(f"action id {action_id} names a target: no ability waits for one")
        return VERB[s.queue[0].do]

    # ------------------------------------------------------------------ the legal set (one frame per state)
    def legal_actions_by_id(self, state: State[Any]) -> dict[int, Action]:
        """The legal actions that have an id, by id (the squares of puts, moves and targets
        worked out inline; every other kind by :meth:`_id`)."""
        s = _court(state)
        fr = self.frame(s, self._seat(s))
        c, w, h, count = self.cells, self.width, self.height, self.count
        x0, y1 = fr.x0, fr.y1
        sign = -1 if fr.turned else 1
        plane_put, plane_move, plane_target = self.plane_put, self.plane_move, self.plane_target
        out: dict[int, Action] = {}
        s.legal_actions()  # fills the state's cached tuple, read below without a copy
        legal = s._legal
        assert legal is not None
        consort = act.CONSORT
        fits = True  # what _fits_in says of these actions in this frame, found on the way
        for a in legal:
            kind, arg, src, dst = a
            if fits and kind != consort:
                square = src if src is not None else dst
                if square is not None:
                    col = sign * square[0] - x0
                    row = y1 - sign * square[1]
                    fits = 0 <= col < w and 0 <= row < h
            pos = src if kind == act.MOVE else dst
            if pos is not None and (
                kind == act.PLAY or kind == act.PLACE or kind == act.MOVE or kind in _SQUARE_TARGETS
            ):
                col = sign * pos[0] - x0
                row = y1 - sign * pos[1]
                if not (0 <= col < w and 0 <= row < h):
                    continue  # outside the window: no id
                cell = row * w + col
                if kind == act.MOVE:
                    if dst is not None:
                        d = _VEC_DIR.get((dst[0] - pos[0], dst[1] - pos[1]))
                        if d is not None:
                            out[(plane_move + ((d + 4) % 8 if fr.turned else d)) * c + cell] = a
                            continue
                elif kind in _SQUARE_TARGETS:
                    out[plane_target * c + cell] = a
                    continue
                elif type(arg) is int and 0 <= arg < count:
                    out[(plane_put + arg) * c + cell] = a
                    continue
            try:
                out[self._id(s, fr, a)] = a
            except EncodingError:
                continue
        self._fitted = (legal, fr, fits)
        return out

    def fits(self, state: State[Any]) -> bool:
        s = _court(state)
        return self._fits_in(s, self.frame(s, self._seat(s)))

    def _fits_in(self, s: RoyalCourtState, fr: Frame) -> bool:
        """Whether the square of every legal action but the consort's lies in ``fr``."""
        kept = self._fitted
        if kept is not None and kept[0] is s._legal and kept[1] == fr:
            return kept[2]  # found when the ids of these very actions were listed
        w, h = self.width, self.height
        x0, y1 = fr.x0, fr.y1
        sign = -1 if fr.turned else 1
        consort = act.CONSORT
        for a in s.legal_actions():
            if a.kind == consort:
                continue
            # the square an id is made of: the source of a move, else the destination or target
            pos = a.src if a.src is not None else a.dst
            if pos is not None:
                col = sign * pos[0] - x0
                row = y1 - sign * pos[1]
                if not (0 <= col < w and 0 <= row < h):
                    return False
        return True

    # ------------------------------------------------------------------ observation
    def _global_blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        n = self.count
        return [
            ("to_act", (4,), "who acts now: the viewer, the opponent, chance, nobody (the game is over)"),
            ("phase", (len(PHASES),), "the step to take: " + ", ".join(PHASES) + " (one-hot)"),
            (
                "seat",
                (4,),
                "the viewer is red (seat 0), the viewer played first, the opponent played first (both 0 "
                "before the coin flip), the viewer's consort is the king",
            ),
            (
                "tiles_own",
                (n, 5),
                "the viewer's tile of each archetype: in the zone active, in the zone inactive, in play "
                "active, in play inactive, removed from the game",
            ),
            ("tiles_opp", (n, 5), "the same for the opponent's tiles"),
            ("influence", (n,), f"each archetype's influence / {_INFLUENCE_SCALE:g} (archetype file)"),
            (
                "pending",
                (len(_EFFECTS) + len(_TARGETS) + 1,),
                "the effect waiting for a target (one-hot over "
                + ", ".join(_EFFECTS)
                + "), its target ("
                + ", ".join(_TARGETS)
                + "), effects queued after it / 4",
            ),
            ("source_arch", (n,), "the archetype whose ability is resolving (one-hot)"),
            ("forced", (2, n), "the tile the Diplomat obliges the viewer, then the opponent, to play next"),
            (
                "turn_flags",
                (6,),
                "the viewer's next tile is blocked (Courtisan), the opponent's is, the viewer has played a "
                "tile (its first tile does not activate otherwise), the opponent has, extra moves granted "
                "this turn / 2, moves made this turn / 2",
            ),
            (
                "scores",
                (7,),
                f"scores if the game were scored now / {_SCORE_SCALE:g}: viewer, opponent, viewer minus "
                "opponent; tiles beside the viewer's consort / 4: the viewer's, the opponent's; beside the "
                "opponent's consort / 4: the opponent's, the viewer's",
            ),
            (
                "turn",
                (3,),
                "turns played / turn cap, turns left / turn cap, turn cap / 100 (ruling RC-turn-cap)",
            ),
            (
                "window",
                (3,),
                "pieces outside the viewer's window / 4, every piece is inside it, every legal action of the "
                "seat to act has an id",
            ),
        ]

    def _observe(self, s: RoyalCourtState, seat: int, fr: Frame, out: Tensor) -> None:
        # every 1.0 of the tensor is gathered as a flat index and written in one call (``ones``)
        ones: list[int] = []
        inside = self._board(s, seat, fr, out, ones)
        self._globals(s, seat, fr, inside, out, ones)
        out.put(ones, 1.0)

    def _board(self, s: RoyalCourtState, seat: int, fr: Frame, out: Tensor, ones: list[int]) -> int:
        """Draw the board planes (their ones gathered in ``ones``); returns the pieces inside the window."""
        idx = self.plane_index
        c = self.cells
        cell = self.cell_in(fr)
        add = ones.append
        over = s.phase == P_OVER
        # the pieces and the frontier
        gathered, inside = self._pieces_ones(s, seat, fr, over)
        ones += gathered
        for who, name in ((seat, "own_ring"), (1 - seat, "opp_ring")):
            plane = idx[name] * c
            for q in neighbours4(s.consort_at(who)):
                at = cell(q)
                if at >= 0:
                    add(plane + at)
        if s.phase == P_TARGET and s.source >= 0:
            src = s.at[s.source]
            if src is not None:
                at = cell(src)
                if at >= 0:
                    add(idx["source"] * c + at)
            plane = idx["targets"] * c
            for a in s.legal_actions():
                if a.kind in _SQUARE_TARGETS and a.dst is not None:
                    at = cell(a.dst)
                    if at >= 0:
                        add(plane + at)
        return inside

    def _pieces_ones(self, s: RoyalCourtState, seat: int, fr: Frame, over: bool) -> tuple[list[int], int]:
        """The flat indices of the ones of the pieces' planes and of the frontier (not at the end),
        and how many pieces lie inside the window."""
        idx = self.plane_index
        c, w, h = self.cells, self.width, self.height
        x0, y1 = fr.x0, fr.y1
        sign = -1 if fr.turned else 1
        owner, arch = self._owner, self._arch
        inactive = s.inactive
        ones: list[int] = []
        add = ones.append
        p_inactive = idx["inactive"] * c
        own_consort = self._consort_piece[seat]
        p_king, p_queen = idx["king"] * c, idx["queen"] * c
        p_own_consort, p_opp_consort = idx["own_consort"] * c, idx["opp_consort"] * c
        p_own_tile, p_opp_tile = idx["own_tile"] * c, idx["opp_tile"] * c
        p_arch0 = self._arch_plane0 * c
        inside = 0
        for (x, y), piece in s.board.items():
            col = sign * x - x0
            row = y1 - sign * y
            if not (0 <= col < w and 0 <= row < h):
                continue
            at = row * w + col
            inside += 1
            if inactive >> piece & 1:
                add(p_inactive + at)
            if piece in (KING, QUEEN):
                add((p_king if piece == KING else p_queen) + at)
                add((p_own_consort if piece == own_consort else p_opp_consort) + at)
                continue
            add((p_own_tile if owner[piece] == seat else p_opp_tile) + at)
            add(p_arch0 + arch[piece] * c + at)
        if not over:
            # the frontier: the empty squares with a piece around them (read off the counts the
            # state keeps; the order does not matter here)
            plane = idx["frontier"] * c
            for q in s.frontier():
                col = sign * q[0] - x0
                row = y1 - sign * q[1]
                if 0 <= col < w and 0 <= row < h:
                    add(plane + row * w + col)
        return ones, inside

    def _globals(
        self, s: RoyalCourtState, seat: int, fr: Frame, inside: int, out: Tensor, ones: list[int]
    ) -> None:
        """The flat blocks; ``inside``: the pieces inside the window."""
        opp = 1 - seat
        off = self.offsets
        n = self.count
        player = s.current_player

        ones.append(off["phase"] + s.phase)
        inactive, zone, removed, at = s.inactive, s.zone, s.removed, s.at
        for who, name in ((seat, "tiles_own"), (opp, "tiles_opp")):
            base = off[name]
            for k in range(n):
                piece = 2 + who * n + k
                off_side = inactive >> piece & 1
                if removed >> piece & 1:
                    slot = 4
                elif zone >> piece & 1:
                    slot = off_side
                elif at[piece] is not None:
                    slot = 2 + off_side
                else:  # not reachable: a tile is in a zone, in play or removed
                    continue
                ones.append(base + 5 * k + slot)
        at_influence = off["influence"]
        out[at_influence : at_influence + n] = self._influence
        if s.phase in (P_TARGET, P_PLACE) and s.queue:
            effect = s.queue[0]  # a target to choose, or the Captain's second tile (extra-play)
            base = off["pending"]
            out[base + _EFFECTS.index(effect.do)] = 1.0
            if effect.target in _TARGETS:
                out[base + len(_EFFECTS) + _TARGETS.index(effect.target)] = 1.0
            out[base + len(_EFFECTS) + len(_TARGETS)] = (len(s.queue) - 1) / 4
        if s.source >= 0 and s.phase in (P_TARGET, P_PLACE):
            out[off["source_arch"] + self._arch[s.source]] = 1.0
        for row, who in enumerate((seat, opp)):
            k = s.forced[who]
            if k >= 0:
                out[off["forced"] + row * n + k] = 1.0
        mine, theirs = s.consort_score(seat), s.consort_score(opp)
        board, owner = s.board, self._owner

        def beside(consort: int, who: int) -> float:
            return (
                sum(
                    1
                    for q in neighbours4(s.consort_at(consort))
                    if (p := board.get(q)) is not None and p >= 2 and owner[p] == who
                )
                / 4
            )

        cap = self._cap
        clipped = len(board) - inside
        # the values that are not ones, in the order of self._values
        out[self._values] = [
            # to_act
            player == seat,
            player == opp,
            player == CHANCE,
            s.phase == P_OVER,
            # seat
            seat == 0,
            s.first == seat,
            s.first == opp,
            self._consort_piece[seat] == KING,
            # turn_flags
            s.blocked >> seat & 1,
            s.blocked >> opp & 1,
            s.started >> seat & 1,
            s.started >> opp & 1,
            s.extra / 2,
            s.moves_done / 2,
            # scores
            mine / _SCORE_SCALE,
            theirs / _SCORE_SCALE,
            (mine - theirs) / _SCORE_SCALE,
            beside(seat, seat),
            beside(seat, opp),
            beside(opp, opp),
            beside(opp, seat),
            # turn
            s.turn / cap,
            max(cap - s.turn, 0) / cap,
            cap / 100,
            # window
            clipped / 4,
            clipped == 0,
            # the seat to act's window (the viewer's, unless the viewer waits)
            self._fits_in(s, fr if seat == self._seat(s) else self.frame(s, self._seat(s))),
        ]


def _court(state: State[Any]) -> RoyalCourtState:
    if not isinstance(state, RoyalCourtState):
        raise EncodingError(f"{state!r} is not an Intrigue in the Royal Court state")
    return state


__all__ = ["DEFAULT_SIZE", "FRAMES", "Frame", "RoyalCourtEncoding", "Tensor"]
