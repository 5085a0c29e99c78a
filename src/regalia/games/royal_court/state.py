"""The rules engine of Intrigue in the Royal Court: :class:`RoyalCourtState`.

Section names in error messages are those of the rules text (data/rules.md): "Setup", "Gameplay",
"Gameplay 1" (play a tile), "Gameplay 2" (activate its ability), "Gameplay 3" (move), "End game 1"
(outright victory), "End game 2" (scoring); rulings are named by their slug in docs/rulings.md.

The position is a few small fields: ``board`` (square -> piece), ``at`` (piece -> square or None),
bitmasks of inactive pieces, of tiles in the zones and of removed tiles. Pieces are small integers:
0 the king, 1 the queen, then red's tiles and blue's in archetype order. :meth:`clone` copies the
dict and the list, nothing else; the legal actions are generated once per position.

Each step of a turn is its own decision: ``play``, then the ability's targets one by one (its verb:
``remove``, ``swap``...), then ``move``. Steps with no choice are taken by the engine.

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> state.apply_text("first red")
Action(kind='first', arg=0, src=None, dst=None)
>>> state.current_player, len(state.legal_actions())  # red plays any of 10 tiles onto 16 squares
(0, 160)
>>> state.apply_text("move 0,0 0,1")
Traceback (most recent call last):
...
regalia.core.errors.IllegalAction: you must first play a tile from your activation zone [Gameplay 1]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Self

from regalia.core.errors import IllegalAction, NotationError, PositionError
from regalia.core.game import CHANCE, JSON, SPECTATOR, TERMINAL, CachedState, ranked_returns
from regalia.core.grid import Pos, SquareTable, format_pos, neighbours4, neighbours8, square, square_id
from regalia.games.royal_court import actions as act
from regalia.games.royal_court import archetypes as ar
from regalia.games.royal_court.actions import SEAT_NAMES, Action, make
from regalia.games.royal_court.archetypes import Effect

if TYPE_CHECKING:
    from regalia.games.royal_court.game import RoyalCourt

FORMAT: Final = "royal-court-state"
VERSION: Final = 1

KING: Final = 0
QUEEN: Final = 1
#: Where the king and the queen start: one row, two empty squares between them (Setup).
KING_AT: Final[Pos] = square((0, 0))
QUEEN_AT: Final[Pos] = square((3, 0))

# phases
P_FIRST: Final = 0
P_PLAY: Final = 1
P_TARGET: Final = 2
P_PLACE: Final = 3
P_MOVE: Final = 4
P_OVER: Final = 5
PHASES = ("first", "play", "target", "place", "move", "over")

#: effect -> the action kind that chooses its target.
VERB: Final = {
    ar.REMOVE: act.REMOVE,
    ar.RETURN: act.RETURN,
    ar.SWAP: act.SWAP,
    ar.FLIP: act.FLIP,
    ar.MOVE_CONSORT: act.CONSORT,
    ar.FORCE_NEXT: act.FORCE,
}

#: Why the last tile played did or did not activate (``last_play``).
ACTIVATED, NO_FIRST, NO_INACTIVE, NO_BLOCKED, NO_TARGET, NO_ABILITY = range(6)
LAST_PLAY = ("activated", "first tile", "entered inactive", "blocked", "no target", "no ability")

_FIRST_ACTIONS: Final[tuple[Action, ...]] = (make(act.FIRST, 0), make(act.FIRST, 1))
#: Square ids. The counts (:attr:`RoyalCourtState.near`) are a list indexed by an integer per
#: square: a square's count is read without hashing its tuple (which hashes both coordinates, and
#: ``(x, -1)`` collides with ``(x, -2)``) and without boxing its id. The id is worked out from the
#: coordinates (:func:`square_id`), the same in every process (states pickle with their counts),
#: and the ids of the squares near the start are small. The tables by id (:class:`SquareTable`:
#: the square, its eight neighbours' ids clockwise from north) hold the game's rows too: the
#: square's ``play`` and ``place`` actions (by archetype) and its ``move`` actions to each
#: neighbour (each with the neighbour's id).
_PLAY_ROWS: Final[list[tuple[Action, ...]]] = []
_PLACE_ROWS: Final[list[tuple[Action, ...]]] = []
_MOVES_FROM: Final[list[tuple[tuple[int, Action], ...]]] = []


def _add_rows(i: int, q: Pos, around: tuple[int, ...]) -> None:
    """The rows of the square ``q`` (of id ``i``): its actions."""
    _PLAY_ROWS.append(tuple([make(act.PLAY, k, None, q) for k in range(ar.MAX_ARCHETYPES)]))
    _PLACE_ROWS.append(tuple([make(act.PLACE, k, None, q) for k in range(ar.MAX_ARCHETYPES)]))
    _MOVES_FROM.append(
        tuple([(j, make(act.MOVE, -1, q, nb)) for j, nb in zip(around, neighbours8(q), strict=True)])
    )


_SQUARES: Final = SquareTable(_add_rows)
_POS: Final = _SQUARES.squares
_AROUND_IDS: Final = _SQUARES.around


#: Added to a square's count in ``near`` while a piece stands on it (more than the 8 around it).
OCCUPIED: Final = 16


#: The actions that aim an ability, by verb (made once, as :data:`_PLAY_ROWS`): at a square, at a tile
#: of a zone by its index, and a consort's steps from a square to each neighbour.
_AIMED_AT: Final[dict[str, dict[Pos, Action]]] = {verb: {} for verb in VERB.values()}
_AIMED_IN_ZONE: Final[dict[str, tuple[Action, ...]]] = {
    verb: tuple(make(verb, k) for k in range(ar.MAX_ARCHETYPES)) for verb in VERB.values()
}
_CONSORT_STEPS: Final[dict[str, dict[Pos, tuple[tuple[int, Action], ...]]]] = {
    verb: {} for verb in VERB.values()
}


def _aimed_at(verb: str, dst: Pos) -> Action:
    memo = _AIMED_AT[verb]
    a = memo.get(dst)
    if a is None:
        a = memo[dst] = make(verb, -1, None, dst)
    return a


def _consort_steps(verb: str, src: Pos) -> tuple[tuple[int, Action], ...]:
    memo = _CONSORT_STEPS[verb]
    steps = memo.get(src)
    if steps is None:
        steps = memo[src] = tuple((square_id(q), make(verb, -1, src, q)) for q in neighbours8(src))
    return steps


def _names(names: list[str]) -> str:
    """``Joker``, ``Joker or Jester``, ``Joker, Jester or Fool``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# The weights of :meth:`RoyalCourtState.evaluate`, in points of the final score.
#: Progress towards an outright surround, by the number of own tiles beside the own consort.
SURROUND: Final[tuple[float, ...]] = (0.0, 0.5, 1.5, 4.0, 12.0)
#: Each of those tiles that is inactive, hence out of the opponent's abilities' reach.
SAFE: Final = 0.5
#: Each active tile still in the zone.
ZONE: Final = 0.4
#: A pending Courtisan block or Diplomat choice against a player.
PENDING: Final = 0.5


class RoyalCourtState(CachedState[Action, "RoyalCourt"]):
    """A position of Intrigue in the Royal Court with its history."""

    __slots__ = (
        "at",
        "blocked",
        "board",
        "ending",
        "extra",
        "first",
        "forced",
        "front",
        "inactive",
        "last_play",
        "moves_done",
        "near",
        "phase",
        "player",
        "queue",
        "removed",
        "source",
        "started",
        "turn",
        "winner_seat",
        "zone",
    )

    board: dict[Pos, int]
    #: For each square by its id (:func:`square_id`), as far as the squares around the pieces
    #: that have stood on the board: how many pieces stand on the eight squares around it, plus
    #: :data:`OCCUPIED` if a piece stands on it (kept up to date as pieces come, go and move). A
    #: step may end on a square whose count is 2 to 8 (:meth:`steps_from`): one read. By square:
    #: :meth:`counts`.
    near: list[int]
    #: The ids of the frontier's squares (empty, with a piece around: a count in :attr:`near` of
    #: 1 to 8), in the order in which they joined it (kept up to date with the counts).
    front: list[int]
    at: list[Pos | None]
    inactive: int
    zone: int
    removed: int
    player: int
    first: int
    phase: int
    started: int
    source: int
    queue: tuple[Effect, ...]
    extra: int
    moves_done: int
    #: One per seat; not typed as a pair, which the compiled build would box anew at each index by seat.
    forced: tuple[int, ...]
    blocked: int
    turn: int
    winner_seat: int
    ending: str
    last_play: int

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: RoyalCourt, seed: int | None = None) -> Self:
        """Setup: every tile in its owner's zone, active side up; the king and the queen in one
        row with two empty squares between them; chance is to choose the first player."""
        s = cls(game, seed)
        pieces = 2 + 2 * game.count
        s.board = {}
        s.near = []
        s.front = []
        s._occupy(KING_AT, KING)
        s._occupy(QUEEN_AT, QUEEN)
        s.at = [KING_AT, QUEEN_AT, *([None] * (pieces - 2))]
        s.inactive = 0
        s.zone = ((1 << pieces) - 1) & ~3
        s.removed = 0
        s.player = 0
        s.first = -1
        s.phase = P_FIRST
        s.started = 0
        s.source = -1
        s.queue = ()
        s.extra = 0
        s.moves_done = 0
        s.forced = (-1, -1)
        s.blocked = 0
        s.turn = 0
        s.winner_seat = -1
        s.ending = ""
        s.last_play = -1
        s._legal = None
        return s

    def clone(self) -> Self:
        s = self.__class__(self.game, self.seed)  # (a compiled class's __new__ runs __init__)
        self._copy_base(s)
        s.board = self.board.copy()
        s.near = self.near[:]
        s.front = self.front[:]
        s.at = self.at[:]
        s.inactive = self.inactive
        s.zone = self.zone
        s.removed = self.removed
        s.player = self.player
        s.first = self.first
        s.phase = self.phase
        s.started = self.started
        s.source = self.source
        s.queue = self.queue
        s.extra = self.extra
        s.moves_done = self.moves_done
        s.forced = self.forced
        s.blocked = self.blocked
        s.turn = self.turn
        s.winner_seat = self.winner_seat
        s.ending = self.ending
        s.last_play = self.last_play
        s._legal = self._legal
        return s

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == P_OVER:
            return TERMINAL
        if phase == P_FIRST:
            return CHANCE
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def zone_tiles(self, seat: int) -> list[int]:
        """The archetype indices of the tiles in ``seat``'s activation zone, in order."""
        base = 2 + seat * self.game.count
        zone = self.zone
        return [k for k in range(self.game.count) if zone >> (base + k) & 1]

    def has_zone_tiles(self, seat: int) -> bool:
        """Whether ``seat``'s activation zone holds a tile (a test of the bitmask)."""
        count = self.game.count
        return bool(self.zone >> (2 + seat * count) & ((1 << count) - 1))

    def is_active(self, piece: int) -> bool:
        """Whether ``piece`` shows its active side (the king and queen too)."""
        return not self.inactive >> piece & 1

    def tiles_in_play(self, seat: int) -> list[int]:
        """The pieces of ``seat`` on the board."""
        base = 2 + seat * self.game.count
        at = self.at
        return [p for p in range(base, base + self.game.count) if at[p] is not None]

    def consort_at(self, seat: int) -> Pos:
        """The square of ``seat``'s consort."""
        pos = self.at[self.game.consort_piece[seat]]
        assert pos is not None
        return pos

    def surrounded(self, seat: int) -> bool:
        """Whether ``seat``'s consort has ``seat``'s tiles on all four sides (End game 1)."""
        owner = self.game.owner
        board = self.board
        for q in neighbours4(self.consort_at(seat)):
            piece = board.get(q)
            if piece is None or owner[piece] != seat:
                return False
        return True

    def consort_score(self, seat: int) -> int:
        """End game 2: the influence of ``seat``'s tiles on the four sides of its consort, plus 1
        for each of them that is inactive, minus the influence of the opponent's tiles there."""
        game = self.game
        owner, influence = game.owner, game.influence
        board = self.board
        inactive = self.inactive
        total = 0
        for q in neighbours4(self.consort_at(seat)):
            piece = board.get(q)
            if piece is None or piece < 2:
                continue
            if owner[piece] == seat:
                total += influence[piece] + (inactive >> piece & 1)
            else:
                total -= influence[piece]
        return total

    def scores(self) -> list[int]:
        return [self.consort_score(0), self.consort_score(1)]

    def returns(self) -> list[float]:
        """An outright victory wins whatever the scores (End game 1); otherwise the higher score
        wins, equal scores draw (End game 2)."""
        if self.phase != P_OVER:
            return [0.0, 0.0]
        if self.ending == "surround":
            return [1.0, -1.0] if self.winner_seat == 0 else [-1.0, 1.0]
        return ranked_returns(self.scores())

    def evaluate(self, seat: int) -> float:
        """A heuristic value of the position for ``seat`` (greedy play and cut-off rollouts).

        A finished game counts 100 times its result. Otherwise, from ``seat``'s side minus the
        same from the opponent's: the consort score as End game 2 would count it now; progress
        towards an outright surround (End game 1) while no opposing tile stands beside the
        consort, :data:`SURROUND` by the number of own tiles on its four sides, plus
        :data:`SAFE` for each of them that is inactive (no ability can touch it); :data:`ZONE`
        for each active tile still in the zone (an ability to come); and :data:`PENDING` against
        a player whose next tile a Courtisan blocks or whose next tile a Diplomat chose.
        """
        if self.phase == P_OVER:
            return 100.0 * self.returns()[seat]
        game = self.game
        owner, influence = game.owner, game.influence
        board, at, inactive = self.board, self.at, self.inactive
        consort_piece = game.consort_piece
        value = 0.0
        for side in range(2):
            pos = at[consort_piece[side]]
            assert pos is not None
            score = 0
            own = safe = 0
            blocked = False
            for q in neighbours4(pos):
                piece = board.get(q)
                if piece is None:
                    continue
                if piece < 2 or owner[piece] != side:
                    blocked = True
                    if piece >= 2:
                        score -= influence[piece]
                    continue
                own += 1
                off = inactive >> piece & 1
                safe += off
                score += influence[piece] + off
            v = float(score)
            if not blocked:
                v += SURROUND[own] + SAFE * safe
            base = 2 + side * game.count
            zone = (self.zone & ~inactive) >> base & ((1 << game.count) - 1)
            v += ZONE * zone.bit_count()
            if self.blocked >> side & 1:
                v -= PENDING
            if self.forced[side] >= 0:
                v -= PENDING
            value += v if side == seat else -v
        return value

    def determinize(self, seat: int, rng: Any) -> Self:
        """Nothing is hidden in this game but the first player before chance picks them, so a
        determinization is a copy (whose chance source no longer follows the real seed)."""
        state = self.clone()
        state.seed = rng.getrandbits(31)
        return state

    # ------------------------------------------------------------------ generating
    def frontier(self) -> list[Pos]:
        """The empty squares adjacent (sides or corners) to a tile in play, the king or the queen:
        where a tile may be played (Gameplay 1), in the order in which they joined the frontier
        (:attr:`front`)."""
        _SQUARES.covering(self.near)
        return [_POS[i] for i in self.front]

    def _frontier_rows(self, place: bool) -> list[tuple[Action, ...]]:
        """For each square of :meth:`frontier`, in its order, the row of actions that play a tile
        there (``place``: that place one), by archetype (:data:`_PLAY_ROWS`, :data:`_PLACE_ROWS`).

        The frontier is kept with the counts (:attr:`front`), in the order in which its squares
        joined it.
        """
        _SQUARES.covering(self.near)
        rows = _PLACE_ROWS if place else _PLAY_ROWS
        return [rows[i] for i in self.front]

    def counts(self) -> dict[Pos, int]:
        """:attr:`near` by square: for each square with a piece on it or beside it, the pieces
        around it, plus :data:`OCCUPIED` if a piece stands on it."""
        return {_POS[i]: n for i, n in enumerate(_SQUARES.covering(self.near)) if n}

    def steps_from(self, pos: Pos) -> list[Pos]:
        """The squares the piece at ``pos`` may move to: one square in any of 8 directions, onto an
        empty square, ending adjacent (sides or corners) to another piece (Gameplay 3): a square
        with two pieces around it, the one that moves and another."""
        near = self.near
        out: list[Pos] = []
        for q in neighbours8(pos):
            i = square_id(q)
            if i < len(near) and 1 < near[i] < OCCUPIED:
                out.append(q)
        return out

    def _steps(self, steps: tuple[tuple[int, Action], ...]) -> list[Action]:
        """The actions of ``steps`` (a square's neighbours, each with the action that moves there,
        clockwise from north) whose square :meth:`steps_from` allows, in its order."""
        near = self.near
        return [a for i, a in steps if 1 < near[i] < OCCUPIED]

    def _moves(self) -> list[Action]:
        """Step 3's moves: each tile in play, to each square :meth:`steps_from` gives."""
        out: list[Action] = []
        at = self.at
        _SQUARES.covering(self.near)
        for piece in self.tiles_in_play(self.player):
            src = at[piece]
            assert src is not None
            out += self._steps(_MOVES_FROM[square_id(src)])
        return out

    def candidates(self, effect: Effect) -> list[Action]:
        """The actions that choose a target for ``effect`` now (abilities never target an inactive
        tile, king or queen: Gameplay 2)."""
        game = self.game
        verb = VERB[effect.do]
        target = effect.target
        me = self.player
        inactive = self.inactive
        at = self.at
        out: list[Action] = []
        if target in ar.IN_PLAY_TARGETS:
            seat = me if target == ar.OWN_PLAY else 1 - me
            for piece in self.tiles_in_play(seat):
                if not inactive >> piece & 1 and piece != self.source:
                    pos = at[piece]
                    assert pos is not None
                    out.append(_aimed_at(verb, pos))
        elif target in ar.ZONE_TARGETS:
            opp = 1 - me
            aimed = _AIMED_IN_ZONE[verb]
            for k in self.zone_tiles(opp):
                if target == ar.OPP_ZONE or not inactive >> game.piece(opp, k) & 1:
                    out.append(aimed[k])
        elif target == ar.CONSORT:
            for piece in range(KING, QUEEN + 1):
                if inactive >> piece & 1:
                    continue
                src = at[piece]
                assert src is not None
                out += self._steps(_consort_steps(verb, src))
        return out

    def _placing(self) -> list[int]:
        """The archetypes of the tiles the player may play (or place) now: the zone's, or the one
        a Diplomat forces (ruling RC-diplomat-courtisan)."""
        tiles = self.zone_tiles(self.player)
        forced = self.forced[self.player]
        if self.phase == P_PLAY and forced >= 0 and forced in tiles:
            return [forced]
        return tiles

    def uniform_action(self, u: float) -> Action:
        """``legal_actions()[int(u * n)]``; at a placement step the action picked is found from
        the tiles and the frontier's rows, without listing the 100 or so (what random playouts
        and rollouts play)."""
        phase = self.phase
        if self._legal is None and phase in (P_PLAY, P_PLACE):
            tiles = self._placing()
            rows = self._frontier_rows(phase == P_PLACE)
            width = len(rows)
            if tiles and width:
                i = int(u * float(len(tiles) * width))
                return rows[i % width][tiles[i // width]]  # _generate's order: by tile, then square
        return super().uniform_action(u)

    def _generate(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase in (P_PLAY, P_PLACE):
            tiles = self._placing()
            rows = self._frontier_rows(phase == P_PLACE)
            return tuple([row[k] for k in tiles for row in rows])
        if phase == P_TARGET:
            return tuple(self.candidates(self.queue[0]))
        if phase == P_MOVE:
            moves = self._moves()
            if self.moves_done:
                moves.append(act.PASS_ACTION)
            return tuple(moves)
        if phase == P_FIRST:
            return _FIRST_ACTIONS
        return ()

    # ------------------------------------------------------------------ checking
    def check(self, action: object) -> None:
        # (anything may come: the compiled build would refuse a non-action at the call if typed Action)
        if self._legal is None:
            self._legal = self._generate()
        try:
            if action in self._legal:
                return
        except TypeError:
            pass
        message, rule = self._why_illegal(action)
        raise IllegalAction(message, rule)

    def _why_illegal(self, action: Any) -> tuple[str, str]:
        """Why ``action`` is not legal here, and the rule that says so."""
        if not isinstance(action, Action) or action.kind not in act.SIGNATURES:
            return f"{action!r} is not an action of Intrigue in the Royal Court", "Gameplay"
        phase = self.phase
        kind = action.kind
        game = self.game
        if phase == P_OVER:
            return "the game is over", "End game"
        if phase == P_FIRST:
            return "chance chooses the first player before anything else", "Gameplay"
        if kind == act.FIRST:
            return "the first player has already been chosen", "Gameplay"
        if kind == act.PASS:
            granting = game.archetypes.with_effect(ar.EXTRA_MOVE)
            source = (
                f" (the {_names(granting)}'s ability)"
                if granting
                else "; no archetype of this game grants one"
            )
            return f"only an extra move may be declined{source}", "ruling RC-joker-optional"
        expected = {
            P_PLAY: (act.PLAY, "you must first play a tile from your activation zone", "Gameplay 1"),
            P_PLACE: (act.PLACE, "the ability asks for a second tile: play it with 'place'", "Gameplay 2"),
            P_MOVE: (act.MOVE, "you must now move one of your tiles in play one space", "Gameplay 3"),
        }
        if phase == P_TARGET:
            effect = self.queue[0]
            verb = VERB[effect.do]
            name = game.archetypes.archetypes[game.arch[self.source]].name
            if kind != verb:
                return f"the {name}'s ability ({effect.do}) is chosen with '{verb}'", "Gameplay 2"
            return self._why_bad_target(action, effect, name)
        want, message, rule = expected[phase]
        if kind != want:
            return message, rule
        if kind in (act.PLAY, act.PLACE):
            assert action.dst is not None
            if action.arg not in self.zone_tiles(self.player):
                return "that tile is not in your activation zone", "Gameplay 1"
            forced = self.forced[self.player]
            if kind == act.PLAY and forced >= 0 and action.arg != forced:
                return (
                    f"an ability of your opponent's obliges you to play your "
                    f"{game.archetypes.archetypes[forced].name}",
                    "ruling RC-diplomat-courtisan",
                )
            if action.dst in self.board:
                return f"{format_pos(action.dst)} is not empty", "Gameplay 1"
            return (
                f"a tile played must always be adjacent to another tile (even diagonally); "
                f"{format_pos(action.dst)} is not",
                "Gameplay 1",
            )
        # move
        src, dst = action.src, action.dst
        assert src is not None and dst is not None
        piece = self.board.get(src)
        if piece is not None and piece < 2:
            movers = game.archetypes.with_effect(ar.MOVE_CONSORT)
            by = f" (the {_names(movers)}'s)" if movers else ""
            royal = "king" if piece == KING else "queen"
            return (
                f"the {royal} at {format_pos(src)} is not one of your tiles: the king and queen move "
                f"only by an ability{by}, never in step 3",
                "Gameplay 3",
            )
        if piece is not None and game.owner[piece] != self.player:
            return (
                f"the tile at {format_pos(src)} is {SEAT_NAMES[game.owner[piece]]}'s: "
                "you move one of your own tiles",
                "Gameplay 3",
            )
        if piece is None:
            return f"there is none of your tiles at {format_pos(src)}", "Gameplay 3"
        if max(abs(src[0] - dst[0]), abs(src[1] - dst[1])) != 1:
            return "a tile moves one space (diagonally or perpendicularly)", "Gameplay 3"
        if dst in self.board:
            return "under no circumstance a tile can end up or move over another tile", "Gameplay 3"
        return "when you move a tile it must always end adjacent to another tile", "Gameplay 3"

    def _why_bad_target(self, action: Action, effect: Effect, name: str) -> tuple[str, str]:
        game = self.game
        target = effect.target
        piece: int | None = None
        if action.dst is not None and action.src is None:
            piece = self.board.get(action.dst)
        elif action.src is not None:
            piece = self.board.get(action.src)
        elif action.arg >= 0 and target in ar.ZONE_TARGETS:
            piece = game.piece(1 - self.player, action.arg)
            if not self.zone >> piece & 1:
                return (
                    f"the opponent's {game.archetypes.archetypes[action.arg].name} is not in their zone",
                    name,
                )
        if piece is not None and self.inactive >> piece & 1:
            return "abilities cannot target INACTIVE tiles", "Gameplay 2"
        if piece is not None and piece == self.source:
            return f"the {name} cannot target itself", "ruling RC-own-target"
        return f"not a target of the {name}'s ability ({effect.do} {target})", name

    # ------------------------------------------------------------------ applying
    def _apply(self, action: Action) -> None:
        kind = action.kind
        self._legal = None
        if kind == act.MOVE:
            self._move(action.src, action.dst)  # type: ignore[arg-type]
            self.moves_done += 1
            if self.moves_done > self.extra:
                self._end_turn()
            else:
                self._enter_move()
        elif kind == act.PLAY:
            self._play(action.arg, action.dst)  # type: ignore[arg-type]
        elif kind == act.PASS:
            self._end_turn()
        elif kind == act.FIRST:
            self.first = self.player = action.arg
            self._start_turn()
        elif kind == act.PLACE:
            self._put(self.game.piece(self.player, action.arg), action.dst)  # type: ignore[arg-type]
            self.queue = self.queue[1:]
            self._resolve()
        else:
            self._effect(self.queue[0], action)
            self.queue = self.queue[1:]
            self._resolve()

    def _occupy(self, pos: Pos, piece: int) -> None:
        """``piece`` stands on ``pos`` (the board and the counts around it)."""
        self.board[pos] = piece
        i = square_id(pos)
        near = _SQUARES.reaching(self.near, i)
        front = self.front
        n = near[i]
        if n:  # (under OCCUPIED: no piece stands there)
            front.remove(i)
        near[i] = n + OCCUPIED
        for j in _AROUND_IDS[i]:
            n = near[j]
            if not n:
                front.append(j)
            near[j] = n + 1

    def _vacate(self, pos: Pos) -> int:
        """The piece on ``pos`` leaves it (the board and the counts around it); returns it."""
        piece = self.board.pop(pos)
        near = _SQUARES.covering(self.near)
        front = self.front
        i = square_id(pos)
        n = near[i] - OCCUPIED
        near[i] = n
        if n:
            front.append(i)
        for j in _AROUND_IDS[i]:
            n = near[j] - 1
            near[j] = n
            if not n:
                front.remove(j)
        return piece

    def _put(self, piece: int, dst: Pos) -> None:
        self.zone &= ~(1 << piece)
        self._occupy(dst, piece)
        self.at[piece] = dst

    def _lift(self, pos: Pos) -> int:
        piece = self._vacate(pos)
        self.at[piece] = None
        return piece

    def _move(self, src: Pos, dst: Pos) -> None:
        piece = self._vacate(src)
        self._occupy(dst, piece)
        self.at[piece] = dst

    def _play(self, arch: int, dst: Pos) -> None:
        """Gameplay 1 and the start of 2: the tile enters on the side it had in the zone; its
        ability activates unless it is the player's first tile, it entered inactive, or a
        Courtisan blocks it."""
        me = self.player
        piece = self.game.piece(me, arch)
        self._put(piece, dst)
        first_tile = not self.started >> me & 1
        self.started |= 1 << me
        blocked = self.blocked >> me & 1
        self.blocked &= ~(1 << me)
        if self.forced[me] >= 0:
            self.forced = (-1, self.forced[1]) if me == 0 else (self.forced[0], -1)
        if first_tile or blocked or self.inactive >> piece & 1:
            self.last_play = (
                NO_FIRST if first_tile else NO_INACTIVE if self.inactive >> piece & 1 else NO_BLOCKED
            )
            self._enter_move()
            return
        self.last_play = ACTIVATED
        archetype = self.game.archetypes.archetypes[arch]
        self.source = piece
        self.queue = archetype.effects
        if archetype.requires_all:
            for effect in archetype.effects:
                if effect.target and not self.candidates(effect):
                    self.queue = ()
                    self.last_play = NO_TARGET
                    break
        elif not archetype.effects:
            self.last_play = NO_ABILITY
        elif not any(self._can_act(e) for e in archetype.effects):
            self.last_play = NO_TARGET
        self._resolve()

    def _can_act(self, effect: Effect) -> bool:
        """Whether ``effect`` will do anything now: a target to choose, a tile to play for an extra
        play (ruling RC-captain), or an effect that needs neither."""
        if effect.target:
            return bool(self.candidates(effect))
        if effect.do == ar.EXTRA_PLAY:
            return self.has_zone_tiles(self.player)
        return True

    def _resolve(self) -> None:
        """Resolve the ability's effects in order: those without a target at once; a targeted one
        waits for its target (and is skipped when there is none); then step 3."""
        while self.queue:
            effect = self.queue[0]
            do = effect.do
            if effect.target:
                if self.candidates(effect):
                    self.phase = P_TARGET
                    return
            elif do == ar.EXTRA_MOVE:
                self.extra += 1
            elif do == ar.BLOCK_NEXT:
                self.blocked |= 1 << (1 - self.player)
            elif do == ar.EXTRA_PLAY and self.has_zone_tiles(self.player):
                self.phase = P_PLACE
                return
            self.queue = self.queue[1:]
        self.source = -1
        self._enter_move()

    def _effect(self, effect: Effect, action: Action) -> None:
        """Apply a targeted effect; the target turns inactive (Gameplay 2) except a tile returned
        active by a ``return`` with ``side: active`` (the Healer, ruling RC-healer)."""
        do = effect.do
        game = self.game
        if do == ar.REMOVE:
            piece = self._lift(action.dst)  # type: ignore[arg-type]
            self.removed |= 1 << piece
            self.inactive |= 1 << piece
        elif do == ar.RETURN:
            piece = self._lift(action.dst)  # type: ignore[arg-type]
            self.zone |= 1 << piece
            if effect.side == "active":
                self.inactive &= ~(1 << piece)
            else:
                self.inactive |= 1 << piece
        elif do == ar.SWAP:
            dst = action.dst
            assert dst is not None
            src = self.at[self.source]
            assert src is not None
            piece = self.board[dst]
            self.board[dst] = self.source
            self.board[src] = piece
            self.at[self.source] = dst
            self.at[piece] = src
            self.inactive |= 1 << piece
        elif do == ar.FLIP:
            if action.dst is not None:
                piece = self.board[action.dst]
            else:
                piece = game.piece(1 - self.player, action.arg)
            self.inactive |= 1 << piece
        elif do == ar.MOVE_CONSORT:
            src, dst = action.src, action.dst
            assert src is not None and dst is not None
            piece = self.board[src]
            self._move(src, dst)
            self.inactive |= 1 << piece
        elif do == ar.FORCE_NEXT:
            forced = list(self.forced)
            forced[1 - self.player] = action.arg
            self.forced = (forced[0], forced[1])

    def _enter_move(self) -> None:
        """Step 3: a move if one is possible; without any, the turn ends (ruling RC-no-move)."""
        self.phase = P_MOVE
        legal = self._generate()
        if not legal or (len(legal) == 1 and legal[0] == act.PASS_ACTION):
            self._end_turn()
            return
        self._legal = legal

    def _end_turn(self) -> None:
        """The end of a turn: scoring once every tile is played (or at the turn cap), otherwise
        the opponent's turn starts."""
        self.turn += 1
        self.extra = 0
        self.moves_done = 0
        self.source = -1
        self.queue = ()
        self._legal = None
        if not self.zone:
            self._finish("scored")
        elif self.turn >= self.game.options.turn_cap:
            self._finish("cap")
        else:
            self.player = 1 - self.player
            self._start_turn()

    def _finish(self, ending: str, winner: int = -1) -> None:
        self.phase = P_OVER
        self.ending = ending
        self._legal = ()
        if winner < 0 and ending != "surround":
            a, b = self.scores()
            winner = 0 if a > b else 1 if b > a else -1
        self.winner_seat = winner

    def _start_turn(self) -> None:
        """End game 1 is checked at the start of a turn only; a player with an empty zone only
        moves (ruling RC-empty-zone)."""
        me = self.player
        if self.surrounded(me):
            self._finish("surround", me)
        elif self.has_zone_tiles(me):
            self.phase = P_PLAY
        else:
            self._enter_move()

    # ------------------------------------------------------------------ notation
    def notation(self, action: Action) -> str:
        return act.action_text(action, self.game.archetypes)

    def parse_action(self, text: str) -> Action:
        """The notation; while a tile is to be played, also the terminal menu's short form
        (``Sp 3``: the Spy onto square 3 of :meth:`play_squares`, ``Sp 1,1``, ``play Sp 3``)."""
        try:
            return act.parse_action(text, self.game.archetypes)
        except NotationError:
            if self.phase in (P_PLAY, P_PLACE):
                kind = act.PLAY if self.phase == P_PLAY else act.PLACE
                short = act.parse_shorthand(text, self.game.archetypes, kind, self.play_squares())
                if short is not None:
                    return short
            raise

    def play_squares(self) -> list[Pos]:
        """The squares a tile may be played onto (Gameplay 1) read as text: north row first, west
        to east; the terminal numbers them in this order from 1."""
        return sorted(self.frontier(), key=lambda q: (-q[1], q[0]))

    # ------------------------------------------------------------------ views
    def piece_name(self, piece: int) -> str:
        """``king``, ``queen``, or ``red Assassin``."""
        if piece < 2:
            return "king" if piece == KING else "queen"
        game = self.game
        return f"{SEAT_NAMES[game.owner[piece]]} {game.archetypes.archetypes[game.arch[piece]].name}"

    def _public(self) -> JSON:
        game = self.game
        names = game.archetypes.archetypes
        inactive = self.inactive
        pending = None
        if self.phase == P_TARGET and self.queue:
            pending = {"source": format_pos(self.at[self.source]), "do": self.queue[0].do}  # type: ignore[arg-type]
        return {
            "game": game.id,
            "options": game.options.to_json(),
            "consorts": list(game.consorts),
            "first": None if self.first < 0 else SEAT_NAMES[self.first],
            "current_player": self.current_player,
            "phase": PHASES[self.phase],
            "turn": self.turn,
            "board": [
                {
                    "pos": format_pos(pos),
                    "piece": "king" if p == KING else "queen" if p == QUEEN else names[game.arch[p]].name,
                    "owner": None if p < 2 else SEAT_NAMES[game.owner[p]],
                    "active": not inactive >> p & 1,
                }
                for pos, p in sorted(self.board.items())
            ],
            "zones": [
                [
                    {"tile": names[k].name, "active": not inactive >> game.piece(s, k) & 1}
                    for k in self.zone_tiles(s)
                ]
                for s in (0, 1)
            ],
            "removed": [
                [
                    {"tile": names[k].name, "active": not inactive >> game.piece(s, k) & 1}
                    for k in range(game.count)
                    if self.removed >> game.piece(s, k) & 1
                ]
                for s in (0, 1)
            ],
            "pending": pending,
            "queue": [e.do for e in self.queue],
            "extra_moves": self.extra,
            "moves_done": self.moves_done,
            "forced": [None if k < 0 else names[k].name for k in self.forced],
            "blocked": [bool(self.blocked >> s & 1) for s in (0, 1)],
            "started": [bool(self.started >> s & 1) for s in (0, 1)],
            "scores": self.scores(),
            "last_play": LAST_PLAY[self.last_play] if self.last_play >= 0 else None,
            "ending": self.ending or None,
            "winner": None if self.winner_seat < 0 else SEAT_NAMES[self.winner_seat],
        }

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        """Everything is open (no hidden information)."""
        return {**self._public(), "viewer": viewer, "legal": self.legal_for(viewer)}

    def to_json(self) -> JSON:
        """The complete state: the position and the history it was reached by."""
        doc = self._public()
        doc.update({"format": FORMAT, "version": VERSION, "history": self.history_json()})
        return doc

    @classmethod
    def from_json(cls, game: RoyalCourt, doc: JSON) -> RoyalCourtState:
        """Read a state written by :meth:`to_json`: its history is replayed from the setup and the
        result must match the document's other fields (the first that differs is named;
        :meth:`~regalia.core.game.State.replay_document`)."""
        if not isinstance(doc, dict):
            raise PositionError("(document): a state must be a JSON object")
        if doc.get("format") != FORMAT:
            raise PositionError(f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
        if doc.get("version") != VERSION:
            raise PositionError(
                f"version: unsupported version {doc.get('version')!r}; this reader knows {VERSION}"
            )
        removed = doc.get("removed")
        if isinstance(removed, list) and any(
            isinstance(entry, str) for seat in removed if isinstance(seat, list) for entry in seat
        ):
            # a document written before removed tiles had their side: names only
            rest = {k: v for k, v in doc.items() if k != "removed"}
            state = cls.replay_document(cls.new(game), rest, complete=False)
            missing = sorted(set(state.to_json()) - set(doc))
            if missing:
                raise PositionError(f"field {missing[0]!r} is missing")
            names = [[entry["tile"] for entry in seat] for seat in state._public()["removed"]]
            if names != removed:
                raise PositionError("field 'removed' disagrees with the history")
            return state
        return cls.replay_document(cls.new(game), doc)
