"""Actions of The Two Heirs and their notation.

Every step of a turn is one :class:`Action`, and so is every outcome of chance; the notation is
used in records, logs, tests and the terminal. Tiles are named by catalogue id, board positions as
``x,y``.

A seat's actions:

======================  ============================================================
``take W3``             Action A: take tile W3 from the royal reserve into your hand
``build W3 1,-2``       Action B.1: construct W3 as a building at (1, -2)
``terrain W3 1,-2``     Action B.2: play W3 face down as free terrain at (1, -2)
``step 0,0 1,1``        Action C: move your unit from (0, 0) to (1, 1)
``call 1,1``            Action C: call a unit from the royal reserve to (1, 1)
``withdraw 1,1``        Action C: withdraw your unit at (1, 1) into the royal reserve
``camp D7``             Camp: flip your camp D7 and take another tile this turn
``destroy 1,0``         Siege tower: destroy the opponent's building at (1, 0)
``spare``               Siege tower: destroy nothing more
``end``                 end the turn
``discard W3``          Hand limit: return W3 to the box at the end of the turn
======================  ============================================================

Chance's outcomes ("Setup", "Action A", solo "Placing a treasure token"):

======================  ============================================================
``sets A,B,C``          setup with random sets: the three sets chosen
``first white``         setup: the royal shield shows white's crown (white starts)
``draw W3``             the supply's top tile is W3 (laid in the reserve or as the
                        starting landscape)
``top green``           the next tile of the supply shows a green back
``treasure H4``         solo: the treasure token flipped onto Henry's building is H4
======================  ============================================================

Henry's steps in the solo game are written like a seat's: ``take W3``, ``build W3 1,2``, ``discard W3``
(rule D) and ``end`` (no tile to take).

>>> from regalia.games.two_heirs.tiles import default_catalogue
>>> cat = default_catalogue()
>>> a = parse_action("build W3 1,-2", cat)
>>> a.kind, cat.tiles[a.tile].id, a.dst
('build', 'W3', (1, -2))
>>> action_text(a, cat)
'build W3 1,-2'
>>> action_text(parse_action("top grey", cat), cat)
'top grey'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final, NamedTuple

from regalia.core.errors import NotationError
from regalia.core.grid import Pos, format_pos, neighbours8
from regalia.core.notation import read_pos, split_action
from regalia.games.two_heirs.tiles import COLOURS, SETS, Catalogue

TAKE: Final = "take"
BUILD: Final = "build"
TERRAIN: Final = "terrain"
STEP: Final = "step"
CALL: Final = "call"
WITHDRAW: Final = "withdraw"
CAMP: Final = "camp"
DESTROY: Final = "destroy"
SPARE: Final = "spare"
END: Final = "end"
DISCARD: Final = "discard"
# chance
SETS_DRAWN: Final = "sets"
FIRST: Final = "first"
DRAW: Final = "draw"
TOP: Final = "top"
TREASURE: Final = "treasure"

#: The names of the seats (colours), in seat order.
SEAT_COLOURS: tuple[str, ...] = ("white", "blue")
#: Every choice of three sets, in the order of :data:`SETS` (the outcomes of ``sets``).
SET_CHOICES: tuple[tuple[str, ...], ...] = tuple(itertools.combinations(SETS, 3))

#: kind -> the arguments its notation takes, in order. ``tile`` is a tile of the catalogue;
#: ``colour``, ``seat``, ``sets`` and ``token`` are small integers kept in the action's ``tile``
#: field (a colour, a seat, an index into :data:`SET_CHOICES`, a treasure token).
SIGNATURES: dict[str, tuple[str, ...]] = {
    TAKE: ("tile",),
    BUILD: ("tile", "dst"),
    TERRAIN: ("tile", "dst"),
    STEP: ("src", "dst"),
    CALL: ("dst",),
    WITHDRAW: ("src",),
    CAMP: ("tile",),
    DESTROY: ("dst",),
    SPARE: (),
    END: (),
    DISCARD: ("tile",),
    SETS_DRAWN: ("sets",),
    FIRST: ("seat",),
    DRAW: ("tile",),
    TOP: ("colour",),
    TREASURE: ("token",),
}
#: The kinds chance acts with.
CHANCE_KINDS: frozenset[str] = frozenset({SETS_DRAWN, FIRST, DRAW, TOP, TREASURE})

_USAGE = {"tile": "TILE", "src": "X,Y", "dst": "X,Y", "colour": "COLOUR", "seat": "SEAT"}
_USAGE.update({"sets": "SET,SET,SET", "token": "TOKEN"})


class Action(NamedTuple):
    """One step of a turn or one outcome of chance: a kind, and the tile (or small integer
    argument) and positions it uses (-1 / ``None`` when unused)."""

    kind: str
    tile: int = -1
    src: Pos | None = None
    dst: Pos | None = None


_new = tuple.__new__


def make(kind: str, tile: int = -1, src: Pos | None = None, dst: Pos | None = None) -> Action:
    """Fast constructor used on the hot path."""
    return _new(Action, (kind, tile, src, dst))


END_ACTION: Final = Action(END)
SPARE_ACTION: Final = Action(SPARE)

# The actions the move generator lists are made once and kept (the same values, shared): a legal
# action list is mostly ``build``/``terrain`` of each tile in hand at each free position and the
# units' steps, and making each anew allocated two tuples per action per position generated
# (docs/performance.md). Each kind has its own memo, keyed by the tile or the position alone (a
# key of a kind and a position would be a tuple made and hashed at every lookup). The placed
# actions are bounded by ``MEMO_LIMIT``; the others by the tiles and squares a game reaches.
_BUILDS: Final[dict[int, dict[Pos, Action]]] = {}
_TERRAINS: Final[dict[int, dict[Pos, Action]]] = {}
#: The positions kept a kind and tile (the memo starts again past it).
MEMO_LIMIT: Final = 4096
_STEPS: Final[dict[Pos, tuple[tuple[Pos, Action], ...]]] = {}
_TAKES: Final[dict[int, Action]] = {}
_CAMPS: Final[dict[int, Action]] = {}
_DISCARDS: Final[dict[int, Action]] = {}
_DRAWS: Final[dict[int, Action]] = {}
_TOPS: Final[tuple[Action, ...]] = tuple(_new(Action, (TOP, c, None, None)) for c in range(len(COLOURS)))
_CALLS: Final[dict[Pos, Action]] = {}
_WITHDRAWALS: Final[dict[Pos, Action]] = {}
_DESTRUCTIONS: Final[dict[Pos, Action]] = {}


def placed(kind: str, tile: int, places: list[Pos]) -> list[Action]:
    """``make(kind, tile, None, q)`` for each ``q`` of ``places``, in order (memoised)."""
    out: list[Action] = []
    add_placed(out, kind, tile, places)
    return out


def _placed_memo(kind: str, tile: int) -> dict[Pos, Action]:
    memos = _BUILDS if kind == BUILD else _TERRAINS
    memo = memos.get(tile)
    if memo is None:
        memo = memos[tile] = {}
    return memo


def placed_at(kind: str, tile: int, q: Pos) -> Action:
    """The action that lays ``tile`` on ``q`` (``kind``: ``build`` or ``terrain``), as
    :func:`add_placed` makes it."""
    memo = _placed_memo(kind, tile)
    a = memo.get(q)
    if a is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        a = memo[q] = _new(Action, (kind, tile, None, q))
    return a


def add_placed(out: list[Action], kind: str, tile: int, places: list[Pos]) -> None:
    """Append :func:`placed`'s actions to ``out`` (the move generator's path: no list between);
    ``kind`` is ``build`` or ``terrain``."""
    memo = _placed_memo(kind, tile)
    for q in places:
        a = memo.get(q)
        if a is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()  # a bound on the memory a long run's boards may take
            a = memo[q] = _new(Action, (kind, tile, None, q))
        out.append(a)


def steps_from(src: Pos) -> tuple[tuple[Pos, Action], ...]:
    """``(q, step src q)`` for the eight neighbours ``q`` of ``src``, clockwise from north (memoised)."""
    steps = _STEPS.get(src)
    if steps is None:
        steps = _STEPS[src] = tuple((q, _new(Action, (STEP, -1, src, q))) for q in neighbours8(src))
    return steps


def _memoised(memo: dict[int, Action], kind: str, tile: int) -> Action:
    a = memo.get(tile)
    if a is None:
        a = memo[tile] = _new(Action, (kind, tile, None, None))
    return a


def take(tile: int) -> Action:
    """``take tile`` (memoised, as the functions below)."""
    return _TAKES.get(tile) or _memoised(_TAKES, TAKE, tile)


def camp(tile: int) -> Action:
    """``camp tile``."""
    return _CAMPS.get(tile) or _memoised(_CAMPS, CAMP, tile)


def discard(tile: int) -> Action:
    """``discard tile``."""
    return _DISCARDS.get(tile) or _memoised(_DISCARDS, DISCARD, tile)


def draw(tile: int) -> Action:
    """``draw tile`` (chance's)."""
    return _DRAWS.get(tile) or _memoised(_DRAWS, DRAW, tile)


def top(colour: int) -> Action:
    """``top colour`` (chance's)."""
    return _TOPS[colour]


def call(dst: Pos) -> Action:
    """``call dst``."""
    a = _CALLS.get(dst)
    if a is None:
        a = _CALLS[dst] = _new(Action, (CALL, -1, None, dst))
    return a


def withdraw(src: Pos) -> Action:
    """``withdraw src``."""
    a = _WITHDRAWALS.get(src)
    if a is None:
        a = _WITHDRAWALS[src] = _new(Action, (WITHDRAW, -1, src, None))
    return a


def destroy(dst: Pos) -> Action:
    """``destroy dst``."""
    a = _DESTRUCTIONS.get(dst)
    if a is None:
        a = _DESTRUCTIONS[dst] = _new(Action, (DESTROY, -1, None, dst))
    return a


def action_text(action: Action, catalogue: Catalogue, tokens: Sequence[str] = ()) -> str:
    """The notation of ``action`` (``tokens``: the ids of the treasure tokens, for ``treasure``)."""
    kind, tile, src, dst = action
    parts = [kind]
    for arg in SIGNATURES[kind]:
        if arg == "tile":
            parts.append(catalogue.tiles[tile].id)
        elif arg == "src":
            assert src is not None
            parts.append(format_pos(src))
        elif arg == "dst":
            assert dst is not None
            parts.append(format_pos(dst))
        elif arg == "colour":
            parts.append(COLOURS[tile])
        elif arg == "seat":
            parts.append(SEAT_COLOURS[tile])
        elif arg == "sets":
            parts.append(",".join(SET_CHOICES[tile]))
        else:
            parts.append(tokens[tile] if 0 <= tile < len(tokens) else f"#{tile}")
    return " ".join(parts)


def _arg(arg: str, word: str, text: str, catalogue: Catalogue, tokens: Sequence[str]) -> int:
    """The integer a notation word stands for (a tile index, a colour, a seat...)."""
    if arg == "tile":
        found = catalogue.by_id.get(word) or catalogue.by_id.get(word.upper())
        if found is None:
            raise NotationError(f"cannot read {text!r}: no tile {word!r} in the catalogue")
        return found.index
    low = word.lower()
    if arg == "colour":
        if low not in COLOURS:
            raise NotationError(f"cannot read {text!r}: {word!r} is not a colour ({', '.join(COLOURS)})")
        return COLOURS.index(low)
    if arg == "seat":
        if low not in SEAT_COLOURS:
            raise NotationError(f"cannot read {text!r}: {word!r} is not a seat ({', '.join(SEAT_COLOURS)})")
        return SEAT_COLOURS.index(low)
    if arg == "sets":
        chosen = tuple(sorted({s.strip() for s in low.split(",") if s.strip()}, key=_set_order))
        if chosen not in SET_CHOICES:
            raise NotationError(f"cannot read {text!r}: expected three different sets of {', '.join(SETS)}")
        return SET_CHOICES.index(chosen)
    upper = {t.upper(): i for i, t in enumerate(tokens)}
    if word.upper() not in upper:
        raise NotationError(f"cannot read {text!r}: no treasure token {word!r}")
    return upper[word.upper()]


def _set_order(name: str) -> int:
    return SETS.index(name) if name in SETS else len(SETS)


def parse_action(text: str, catalogue: Catalogue, tokens: Sequence[str] = ()) -> Action:
    """Read an action written in notation; raises :class:`NotationError` naming what is wrong."""
    kind, words = split_action(text, SIGNATURES, _USAGE, "'take W3', 'build W3 1,-2', 'end'")
    tile, src, dst = -1, None, None
    for arg, word in words:
        if arg == "src":
            src = read_pos(word, text)
        elif arg == "dst":
            dst = read_pos(word, text)
        else:
            tile = _arg(arg, word, text, catalogue, tokens)
    return Action(kind, tile, src, dst)
