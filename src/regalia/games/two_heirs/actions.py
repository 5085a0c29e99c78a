"""Actions of The Two Heirs and their notation.

Every step of a turn is one :class:`Action`; the notation is used in records, logs, tests and the
terminal. Tiles are named by catalogue id, board positions as ``x,y``.

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

>>> from regalia.games.two_heirs.tiles import default_catalogue
>>> cat = default_catalogue()
>>> a = parse_action("build W3 1,-2", cat)
>>> a.kind, cat.tiles[a.tile].id, a.dst
('build', 'W3', (1, -2))
>>> action_text(a, cat)
'build W3 1,-2'
"""

from __future__ import annotations

from typing import NamedTuple

from regalia.core.errors import NotationError
from regalia.core.grid import Pos, format_pos, parse_pos
from regalia.games.two_heirs.tiles import Catalogue

TAKE = "take"
BUILD = "build"
TERRAIN = "terrain"
STEP = "step"
CALL = "call"
WITHDRAW = "withdraw"
CAMP = "camp"
DESTROY = "destroy"
SPARE = "spare"
END = "end"
DISCARD = "discard"

#: kind -> the arguments its notation takes, in order.
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
}


class Action(NamedTuple):
    """One step of a turn: a kind, and the tile and positions it uses (-1 / None when unused)."""

    kind: str
    tile: int = -1
    src: Pos | None = None
    dst: Pos | None = None


_new = tuple.__new__


def make(kind: str, tile: int = -1, src: Pos | None = None, dst: Pos | None = None) -> Action:
    """Fast constructor used on the hot path."""
    return _new(Action, (kind, tile, src, dst))


END_ACTION = Action(END)
SPARE_ACTION = Action(SPARE)


def action_text(action: Action, catalogue: Catalogue) -> str:
    """The notation of ``action``."""
    kind, tile, src, dst = action
    parts = [kind]
    for arg in SIGNATURES[kind]:
        if arg == "tile":
            parts.append(catalogue.tiles[tile].id)
        elif arg == "src":
            assert src is not None
            parts.append(format_pos(src))
        else:
            assert dst is not None
            parts.append(format_pos(dst))
    return " ".join(parts)


def parse_action(text: str, catalogue: Catalogue) -> Action:
    """Read an action written in notation; raises :class:`NotationError` naming what is wrong."""
    words = text.split()
    if not words:
        raise NotationError("empty action; expected e.g. 'take W3', 'build W3 1,-2', 'end'")
    kind = words[0].lower()
    if kind not in SIGNATURES:
        raise NotationError(f"unknown action {words[0]!r}; valid: {', '.join(SIGNATURES)}")
    sig = SIGNATURES[kind]
    if len(words) - 1 != len(sig):
        usage = " ".join([kind, *("TILE" if a == "tile" else "X,Y" for a in sig)])
        raise NotationError(f"cannot read {text!r}: expected '{usage}'")
    tile, src, dst = -1, None, None
    for arg, word in zip(sig, words[1:], strict=True):
        if arg == "tile":
            found = catalogue.by_id.get(word) or catalogue.by_id.get(word.upper())
            if found is None:
                raise NotationError(f"cannot read {text!r}: no tile {word!r} in the catalogue")
            tile = found.index
        else:
            try:
                pos = parse_pos(word)
            except ValueError:
                raise NotationError(f"cannot read {text!r}: {word!r} is not a position x,y") from None
            if arg == "src":
                src = pos
            else:
                dst = pos
    return Action(kind, tile, src, dst)
