"""The numbered move menu of The Two Heirs: legal actions grouped by kind and tile.

Taking a tile moves the royal shield, and with it the tiles within reach, so a tile that looks
affordable before the take may not be after it. Each ``take`` option therefore says what the
seat's resources will be after the take and which tiles in hand (the taken one included) are then
affordable, computed exactly on a copy of the state (the refill of the reserve happens later, at
the shield's old place, beyond the seat's reach).

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> groups = legal_groups(state, state.legal_actions())
>>> label, items = groups[0]
>>> label.plain
'take a tile (A); resources now 1w 1s 2g'
>>> [short for _, short in items]  # doctest: +NORMALIZE_WHITESPACE
['take T5 s quarry → 1w 0s 3g; 1 tile affordable: T5',
 'take T2 g farm → 2w 0s 2g; no tile affordable',
 'take W7 g pilgrims → 2w 0s 2g; 1 tile affordable: W7']

Taking a tile moves the shield, so the tiles in reach, and the resources, change with the take.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.render.style import (
    affordable,
    colour_letter,
    plural,
    resources_short,
    tile_label,
    tile_short,
)
from regalia.games.two_heirs.state import TwoHeirsState

KIND_ORDER = (
    *("take", "build", "terrain", "step", "call", "withdraw"),
    *("camp", "destroy", "spare", "discard", "end"),
    *("sets", "first", "draw", "top", "treasure"),
)
TITLES = {
    "take": "take a tile (A)",
    "step": "move a unit (C)",
    "call": "call a unit from the reserve (C)",
    "withdraw": "withdraw a unit to the reserve (C)",
    "camp": "use a camp",
    "destroy": "siege: destroy",
    "spare": "siege",
    "discard": "discard (hand limit)",
    "end": "end the turn",
    "sets": "chance: the sets",
    "first": "chance: the royal shield",
    "draw": "chance: the supply's top tile",
    "top": "chance: the colour of the next tile",
    "treasure": "chance: the treasure token",
}

Menu = list[tuple[Text, list[tuple[Action, str]]]]


def take_preview(state: TwoHeirsState, action: Action) -> tuple[list[int], list[int]]:
    """The resources of the seat to move after ``action`` (a take) and the tiles of its hand then
    affordable (tile indices, in hand order), computed on a copy of the state."""
    seat = state.player
    after = state.clone()
    after.apply_unchecked(action)
    res = after.resources(seat)
    ok: list[int] = []
    for t in after.hands[seat]:
        if t not in ok and affordable(after, seat, t, res):
            ok.append(t)
    return res, ok


def take_text(state: TwoHeirsState, action: Action) -> str:
    """``take W2 inn s → 1w 1s 1g; 1 tile affordable: W2``."""
    tile = state.tiles[action.tile]
    res, ok = take_preview(state, action)
    head = f"take {tile_short(tile).plain}"
    after = resources_short(res).plain
    if not ok:
        return f"{head} → {after}; no tile affordable"
    ids = ", ".join(state.tiles[t].id for t in ok)
    return f"{head} → {after}; {plural(len(ok), 'tile')} affordable: {ids}"


def _where(state: TwoHeirsState, text: str, action: Action) -> str:
    """A move's text with the colour letter of the tile it reaches: ``step 0,0 1,1 (s)``."""
    code = state.board.get(action.dst) if action.dst is not None else None
    if code is None:
        return text
    return f"{text} ({colour_letter(state.tiles[code >> 2].colour)})"


def legal_groups(state: TwoHeirsState, actions: Sequence[Action]) -> Menu:
    """Legal actions grouped for a menu: ``[(group label, [(action, short text)])]``.

    Builds and free terrains are grouped per tile (the short text is the position), the other
    actions per kind; ``take`` options tell the resources and affordable tiles after the take.
    """
    groups: dict[tuple[str, int], tuple[Text, list[tuple[Action, str]]]] = {}
    seat_to_move = state.current_player >= 0 and state.current_player not in state.automaton_seats()
    for a in actions:
        text = state.action_text(a)
        kind, _, rest = text.partition(" ")
        if kind in ("build", "terrain"):
            where = rest.partition(" ")[2]
            key = (kind, a.tile)
            if key not in groups:
                tile = state.tiles[a.tile]
                label = Text(f"{kind} ", style="bold")
                label.append_text(tile_label(tile, cost=kind == "build"))
                if kind == "terrain":
                    label.append(" face down (free; 1 resource off a building this turn)", style="dim")
                groups[key] = (label, [])
            groups[key][1].append((a, where))
            continue
        key = (kind, -1)
        if key not in groups:
            label = Text(TITLES.get(kind, kind), style="bold")
            if kind == "take" and seat_to_move:
                label.append("; resources now ")
                label.append_text(resources_short(state.resources(state.player)))
            groups[key] = (label, [])
        if kind == "take" and seat_to_move:
            short = take_text(state, a)
        elif kind in ("step", "call"):
            short = _where(state, text, a)
        elif kind == "discard":
            short = f"{text} ({state.tiles[a.tile].building})"
        else:
            short = text
        groups[key][1].append((a, short))
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    first_seen = {k: i for i, k in enumerate(groups)}
    keys = sorted(groups, key=lambda k: (order.get(k[0], len(order)), first_seen[k]))
    return [groups[k] for k in keys]


__all__ = ["KIND_ORDER", "Menu", "legal_groups", "take_preview", "take_text"]
