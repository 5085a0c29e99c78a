"""Actions of Intrigue in the Royal Court and their notation.

Every step of a turn is one :class:`Action`; so is chance's choice of the first player. Tiles in a
zone are named by archetype (each player has one tile of each), squares as ``x,y``.

======================  ================================================================
``first red``           chance: red plays first (Gameplay: "flip a coin")
``play Assassin 1,1``   step 1: play your Assassin from your zone onto 1,1
``remove 2,1``          Assassin: remove the opponent's tile at 2,1 from the game
``return 2,1``          Thief/Healer: return the tile at 2,1 to its owner's zone
``swap 2,1``            Spy: the Spy and the opponent's tile at 2,1 swap squares
``flip Spy``            Bishop: flip the opponent's Spy in their zone (``flip 2,1``: in play)
``consort 0,0 0,1``     Wizard: move the king or queen at 0,0 to 0,1
``force Spy``           Diplomat: the opponent must play their Spy next turn
``place Spy 2,2``       Captain: play your Spy onto 2,2 too (its ability does not activate)
``move 2,1 3,2``        step 3 (and the Joker's extra move): move your tile from 2,1 to 3,2
``pass``                decline the Joker's extra move (ruling RC-joker-optional)
======================  ================================================================

>>> from regalia.games.royal_court.archetypes import default_archetypes
>>> names = default_archetypes()
>>> a = parse_action("play assassin 1,-1", names)
>>> a
Action(kind='play', arg=0, src=None, dst=(1, -1))
>>> action_text(a, names), action_text(parse_action("flip SPY", names), names)
('play Assassin 1,-1', 'flip Spy')
>>> parse_action("move 1,1", names)
Traceback (most recent call last):
...
regalia.core.errors.NotationError: cannot read 'move 1,1': expected 'move X,Y X,Y'
"""

from __future__ import annotations

from typing import Final, NamedTuple

from regalia.core.errors import NotationError
from regalia.core.grid import Pos, format_pos, parse_int, parse_pos
from regalia.core.notation import read_pos, split_action
from regalia.games.royal_court.archetypes import Archetypes

FIRST: Final = "first"
PLAY: Final = "play"
REMOVE: Final = "remove"
RETURN: Final = "return"
SWAP: Final = "swap"
FLIP: Final = "flip"
CONSORT: Final = "consort"
FORCE: Final = "force"
PLACE: Final = "place"
MOVE: Final = "move"
PASS: Final = "pass"

#: The names of the seats, in seat order.
SEAT_NAMES: tuple[str, ...] = ("red", "blue")

#: kind -> its arguments in order: ``seat``, ``tile`` (an archetype, kept in ``arg``), ``src``,
#: ``dst``, or ``where`` (a square ``dst`` or an archetype ``arg``: flip in play or in a zone).
SIGNATURES: dict[str, tuple[str, ...]] = {
    FIRST: ("seat",),
    PLAY: ("tile", "dst"),
    REMOVE: ("dst",),
    RETURN: ("dst",),
    SWAP: ("dst",),
    FLIP: ("where",),
    CONSORT: ("src", "dst"),
    FORCE: ("tile",),
    PLACE: ("tile", "dst"),
    MOVE: ("src", "dst"),
    PASS: (),
}
_USAGE = {"seat": "SEAT", "tile": "ARCHETYPE", "src": "X,Y", "dst": "X,Y", "where": "X,Y|ARCHETYPE"}


class Action(NamedTuple):
    """One step of a turn or chance's outcome: a kind, an archetype index or seat (``arg``, -1
    when unused) and the squares it uses."""

    kind: str
    arg: int = -1
    src: Pos | None = None
    dst: Pos | None = None


_new = tuple.__new__


def make(kind: str, arg: int = -1, src: Pos | None = None, dst: Pos | None = None) -> Action:
    """Fast constructor for the hot path."""
    return _new(Action, (kind, arg, src, dst))


PASS_ACTION: Final = Action(PASS)


def action_text(action: Action, names: Archetypes) -> str:
    """The notation of ``action``."""
    kind, arg, src, dst = action
    parts = [kind]
    for name in SIGNATURES[kind]:
        if name == "seat":
            parts.append(SEAT_NAMES[arg])
        elif name == "tile":
            parts.append(names.archetypes[arg].name)
        elif name == "src":
            assert src is not None
            parts.append(format_pos(src))
        elif name == "dst":
            assert dst is not None
            parts.append(format_pos(dst))
        else:
            parts.append(format_pos(dst) if dst is not None else names.archetypes[arg].name)
    return " ".join(parts)


def _tile(word: str, text: str, names: Archetypes) -> int:
    found = names.by_name.get(word.lower())
    if found is None:
        valid = ", ".join(a.name for a in names.archetypes)
        raise NotationError(f"cannot read {text!r}: no archetype {word!r}; valid: {valid}")
    return found.number


def parse_action(text: str, names: Archetypes) -> Action:
    """Read an action written in notation; raises :class:`NotationError` naming what is wrong."""
    kind, words = split_action(text, SIGNATURES, _USAGE, "'play Assassin 1,1', 'move 1,1 2,1', 'pass'")
    arg, src, dst = -1, None, None
    for name, word in words:
        if name == "seat":
            if word.lower() not in SEAT_NAMES:
                raise NotationError(f"cannot read {text!r}: {word!r} is not a seat ({', '.join(SEAT_NAMES)})")
            arg = SEAT_NAMES.index(word.lower())
        elif name == "tile":
            arg = _tile(word, text, names)
        elif name == "src":
            src = read_pos(word, text, "square")
        elif name == "dst" or "," in word:
            dst = read_pos(word, text, "square")
        else:
            arg = _tile(word, text, names)
    return Action(kind, arg, src, dst)


def parse_shorthand(text: str, names: Archetypes, kind: str, squares: list[Pos]) -> Action | None:
    """A tile to play written short, as the terminal menu offers it when ``kind`` (``play`` or
    ``place``) is the step: the archetype by name or abbreviation, then a square as ``x,y`` or as
    its number in ``squares`` (counted from 1, as the menu and the board number them), with or
    without the verb. ``None`` when ``text`` does not start with a tile (the full notation applies);
    a tile with a square that does not exist raises :class:`NotationError`.

    >>> from regalia.games.royal_court.archetypes import default_archetypes
    >>> names, squares = default_archetypes(), [(0, 1), (1, 1)]
    >>> parse_shorthand("Sp 2", names, PLAY, squares)
    Action(kind='play', arg=2, src=None, dst=(1, 1))
    >>> parse_shorthand("place jo -1,0", names, PLACE, squares)
    Action(kind='place', arg=1, src=None, dst=(-1, 0))
    >>> parse_shorthand("Sp 3", names, PLAY, squares)
    Traceback (most recent call last):
    ...
    regalia.core.errors.NotationError: cannot read 'Sp 3': no square 3; the squares are numbered 1 to 2
    """
    words = text.lower().split()
    if len(words) == 3 and words[0] in (PLAY, PLACE):
        verb, words = words[0], words[1:]
    else:
        verb = kind
    if len(words) != 2:
        return None
    word, where = words
    found = names.by_name.get(word)
    if found is None:
        found = next((a for a in names.archetypes if a.abbr.lower() == word), None)
    if found is None:
        return None
    if where.isascii() and where.isdigit():
        n = parse_int(where) if len(where) <= 9 else 0  # ASCII digits only: "²".isdigit() too
        if not 1 <= n <= len(squares):
            raise NotationError(
                f"cannot read {text!r}: no square {where}; the squares are numbered 1 to {len(squares)}"
            )
        return Action(verb, found.number, None, squares[n - 1])
    try:
        return Action(verb, found.number, None, parse_pos(where))
    except ValueError:
        raise NotationError(f"cannot read {text!r}: {where!r} is neither a square x,y nor a number") from None
