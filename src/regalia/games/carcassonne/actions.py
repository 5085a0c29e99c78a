"""Actions of Carcassonne and their notation.

A turn is two decisions of the seat to move, after chance has drawn its tile: where the tile goes,
then a follower on one of its features or none.

=========================  ==========================================================
``draw D``                 chance: the tile drawn from the bag is a D
``place D 1,2 90``         lay the drawn D at 1,2, turned 90 degrees clockwise
``follower city N``        a follower on the city of the tile just laid that reaches
                           its north side (a knight)
``follower road E``        ... on its road reaching the east side (a thief)
``follower field Nw``      ... on its field reaching the west half of the north side (a
                           farmer; sides' halves: Nw Ne En Es Se Sw Ws Wn)
``follower cloister``      ... on its cloister (a monk); ``follower shrine``: on its
                           shrine (a heretic, with Heretics and Shrines)
``pass``                   no follower this turn
=========================  ==========================================================

A feature is named by its first side (or half) clockwise from north, as the tile lies on the board;
rotations that give the same tile are written as the first of them (a straight road turned by 180
degrees is the road turned by 0), so every action has one notation.

>>> from regalia.games.carcassonne.tiles import default_catalogue
>>> cat = default_catalogue()
>>> a = parse_action("place U 3,-1 180", cat)
>>> a, action_text(a, cat)
(Action(kind='place', tile=20, pos=(3, -1), rotation=0, feature='', side=''), 'place U 3,-1 0')
>>> action_text(parse_action("follower city N", cat), cat)
'follower city N'
"""

from __future__ import annotations

from typing import Final, NamedTuple

from regalia.core.errors import NotationError
from regalia.core.grid import Pos, format_pos, parse_int
from regalia.core.notation import read_pos
from regalia.games.carcassonne.tiles import ABBEYS, CITY, FIELD, HALVES, ROAD, ROTATIONS, SIDES, Catalogue

DRAW: Final = "draw"
PLACE: Final = "place"
FOLLOWER: Final = "follower"
PASS: Final = "pass"
KINDS: tuple[str, ...] = (DRAW, PLACE, FOLLOWER, PASS)


class Action(NamedTuple):
    """A draw, a placement (tile type, position, rotation), a follower (feature kind, side) or a pass."""

    kind: str
    tile: int = -1
    pos: Pos | None = None
    rotation: int = 0
    feature: str = ""
    side: str = ""


PASS_ACTION: Final = Action(PASS)
_new = tuple.__new__


def make_place(tile: int, pos: Pos, rotation: int) -> Action:
    """Fast constructor used on the hot path."""
    return _new(Action, (PLACE, tile, pos, rotation, "", ""))


#: The placements made so far, by tile type, then position: the four rotations' actions, each
#: made when first needed (``None`` before), in a tuple (a tuple of actions holds no container the
#: garbage collector would keep tracking). A placement step lists each (position, rotation) the
#: drawn tile fits, and making each action anew allocated two tuples per placement at every draw
#: (docs/performance.md); a random game's step makes one placement alone.
_PLACED: Final[list[dict[Pos, tuple[Action | None, ...]]]] = []
_UNMADE: Final[tuple[Action | None, ...]] = (None, None, None, None)
#: The positions kept a tile type (the memo starts again past it).
MEMO_LIMIT: Final = 4096


def placed(tile: int, places: tuple[tuple[Pos, int], ...]) -> tuple[Action, ...]:
    """``make_place(tile, pos, rotation)`` for each ``(pos, rotation)`` of ``places``, in order
    (each made once, when first needed, and kept)."""
    while len(_PLACED) <= tile:
        _PLACED.append({})
    memo = _PLACED[tile]
    out: list[Action] = []
    for pos, rotation in places:
        turns = memo.get(pos)
        if turns is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()  # a bound on the memory a long run's boards may take
            turns = _UNMADE
        r = rotation // 90
        found = turns[r]
        if found is None:
            found = _new(Action, (PLACE, tile, pos, rotation, "", ""))
            memo[pos] = (*turns[:r], found, *turns[r + 1 :])
        out.append(found)
    return tuple(out)


#: kind -> side -> the follower deployed there (made once: a turn lists its tile's).
_FOLLOWERS: Final[dict[str, dict[str, Action]]] = {}


def follower(kind: str, side: str) -> Action:
    """``follower KIND SIDE`` (``side`` empty for a cloister or shrine), made once and kept."""
    by_side = _FOLLOWERS.get(kind)
    if by_side is None:
        by_side = _FOLLOWERS[kind] = {}
    found = by_side.get(side)
    if found is None:
        found = by_side[side] = _new(Action, (FOLLOWER, -1, None, 0, kind, side))
    return found


def action_text(action: Action, catalogue: Catalogue) -> str:
    """The notation of ``action``."""
    kind = action.kind
    if kind == DRAW:
        return f"draw {catalogue.types[action.tile].id}"
    if kind == PLACE:
        assert action.pos is not None
        return f"place {catalogue.types[action.tile].id} {format_pos(action.pos)} {action.rotation}"
    if kind == FOLLOWER:
        if action.feature in ABBEYS:
            return f"follower {action.feature}"
        return f"follower {action.feature} {action.side}"
    return PASS


def _tile(word: str, text: str, catalogue: Catalogue) -> int:
    found = catalogue.by_id.get(word) or catalogue.by_id.get(word.upper())
    if found is None:
        raise NotationError(f"cannot read {text!r}: no tile {word!r} (tiles: {', '.join(catalogue.by_id)})")
    return found.index


def parse_action(text: str, catalogue: Catalogue) -> Action:
    """Read an action written in notation; raises :class:`NotationError` naming what is wrong."""
    words = text.split()
    if not words:
        raise NotationError("empty action; expected e.g. 'place D 1,0 90', 'follower road E', 'pass'")
    kind = words[0].lower()
    if kind == DRAW:
        if len(words) != 2:
            raise NotationError(f"cannot read {text!r}: expected 'draw TILE'")
        return Action(DRAW, _tile(words[1], text, catalogue))
    if kind == PLACE:
        if len(words) != 4:
            raise NotationError(
                f"cannot read {text!r}: expected 'place TILE X,Y ROTATION' (0, 90, 180 or 270)"
            )
        tile = _tile(words[1], text, catalogue)
        pos = read_pos(words[2], text)
        try:
            rotation = parse_int(words[3])
        except ValueError:
            rotation = -1
        if rotation not in ROTATIONS or not words[3].isdigit():
            raise NotationError(f"cannot read {text!r}: the rotation is 0, 90, 180 or 270, not {words[3]!r}")
        return Action(PLACE, tile, pos, catalogue.canonical(tile, rotation))
    if kind == FOLLOWER:
        if len(words) == 2 and words[1].lower() in ABBEYS:
            return Action(FOLLOWER, feature=words[1].lower())
        if len(words) != 3 or words[1].lower() not in (CITY, ROAD, FIELD):
            raise NotationError(
                f"cannot read {text!r}: expected 'follower city|road SIDE', 'follower field HALF', "
                "'follower cloister' or 'follower shrine'"
            )
        feature = words[1].lower()
        names = HALVES if feature == FIELD else SIDES
        side = next((n for n in names if n.lower() == words[2].lower()), None)
        if side is None:
            raise NotationError(f"cannot read {text!r}: a {feature} is named by one of {', '.join(names)}")
        return Action(FOLLOWER, feature=feature, side=side)
    if kind == PASS:
        if len(words) != 1:
            raise NotationError(f"cannot read {text!r}: 'pass' takes nothing")
        return PASS_ACTION
    raise NotationError(f"unknown action {words[0]!r}; valid: {', '.join(KINDS)}")


__all__ = [
    "DRAW",
    "FOLLOWER",
    "PASS",
    "PASS_ACTION",
    "PLACE",
    "Action",
    "action_text",
    "make_place",
    "parse_action",
    "placed",
]
