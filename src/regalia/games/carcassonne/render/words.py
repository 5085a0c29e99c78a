"""Carcassonne's actions in words for the browser table (docs/table.md): the buttons' names, the
default action, where a ply happened, and the last decision a seat took.

A placement reads ``Lay V at 3,-1 turned 90°``; a follower ``Knight on the city``, ``Thief on the
road W``, ``Farmer on the field Ws`` (the side or half is named when the tile has more than one
feature of that kind), ``Monk on the cloister``, ``Heretic on the shrine``; a pass ``No follower``.

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> action_label(state, state.parse_action("place V 1,0 90"))
'Lay V at 1,0 turned 90°'
>>> rotation_words(90)
'turned 90°, its printed top pointing east'
>>> _ = state.apply_text("place V 1,0 0")
>>> [action_label(state, a) for a in state.legal_actions()]
['Thief on the road', 'Farmer on the field Nw', 'Farmer on the field Sw', 'No follower']
>>> places(state, state.plies()[-1])
('1,0',)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regalia.core.game import Ply
from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import DRAW, FOLLOWER, PASS, PASS_ACTION, PLACE, Action
from regalia.games.carcassonne.base import PH_FOLLOWER
from regalia.games.carcassonne.render.board import last_placed
from regalia.games.carcassonne.render.style import follower_word
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, Turned

#: Where a tile's printed top points, by rotation.
HEADINGS: dict[int, str] = {0: "north", 90: "east", 180: "south", 270: "west"}


def rotation_words(rotation: int) -> str:
    """``turned 90°, its printed top pointing east``."""
    return f"turned {rotation}°, its printed top pointing {HEADINGS.get(rotation, '?')}"


def follower_words(turned: Turned | None, feature: str, side: str) -> str:
    """``Knight on the city``, ``Farmer on the field Ws``: the side or half is named when ``turned``
    (the tile the follower goes on) has more than one feature of that kind (or is unknown)."""
    word = follower_word(feature).capitalize()
    if feature in ABBEYS:
        return f"{word} on the {feature}"
    same = sum(1 for s in turned.segments if s.kind == feature) if turned is not None else 2
    return f"{word} on the {feature}" + (f" {side}" if same > 1 else "")


def action_label(state: CarcassonneState, action: Any) -> str:
    """The action in words (see the module docstring); anything else: its notation."""
    if not isinstance(action, Action):
        return str(state.action_text(action))
    if action.kind == DRAW:
        return f"Draw {state.cat.types[action.tile].id}"
    if action.kind == PLACE and action.pos is not None:
        tile = state.cat.types[action.tile].id
        return f"Lay {tile} at {format_pos(action.pos)} turned {action.rotation}°"
    if action.kind == FOLLOWER:
        placed = state.placed
        turned = state.turned(placed) if placed is not None and placed in state.board else None
        return follower_words(turned, action.feature, action.side)
    if action.kind == PASS:
        return "No follower"
    return state.notation(action)


def default_action(state: CarcassonneState, actions: Sequence[Any]) -> Any | None:
    """The pass in the follower step (``No follower``), else ``None``."""
    if state.phase == PH_FOLLOWER and not state.terminal and PASS_ACTION in actions:
        return PASS_ACTION
    return None


def places(state: CarcassonneState, ply: Ply) -> tuple[str, ...]:
    """The position of the tile a placement laid, or a follower step (a follower or a pass) was
    about (``state``: right after the ply); a draw happened nowhere on the board."""
    action = ply.action
    if not isinstance(action, Action):
        return ()
    if action.kind == PLACE and action.pos is not None:
        return (format_pos(action.pos),)
    if action.kind in (FOLLOWER, PASS):
        pos = last_placed(state)
        return (format_pos(pos),) if pos is not None else ()
    return ()


def last_decision(state: CarcassonneState) -> tuple[int, Action] | None:
    """The number and action of the last ply a seat chose (chance's draws skipped), ``None``
    before the first."""
    node = state._hist
    number = state.ply
    while node is not None:
        action = node[2]
        if isinstance(action, Action) and action.kind != DRAW:
            return number, action
        node = node[0]
        number -= 1
    return None


def last_follower(state: CarcassonneState) -> Pos | None:
    """The tile whose follower the last decision deployed, if it still stands there."""
    found = last_decision(state)
    if found is None or found[1].kind != FOLLOWER:
        return None
    pos = last_placed(state)
    standing = state.at_end if state.terminal else state.meeples
    return pos if pos is not None and pos in standing else None


__all__ = [
    "HEADINGS",
    "action_label",
    "default_action",
    "follower_words",
    "last_decision",
    "last_follower",
    "places",
    "rotation_words",
]
