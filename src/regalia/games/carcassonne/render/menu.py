"""The move menu of Carcassonne: :func:`legal_groups`.

Placements are grouped by position, in the order the board is read (north row first, west to
east), each position with its rotations (``0°``, ``90°``...). While there are few positions, each
has its own line (``1,0: 1 0°  2 90°``); when there are more (a tile fits in 30 places late in a
game), they are packed several to a line of at most :data:`LINE_W` columns, the position written
before its first rotation (``place K: 1 -1,2 90°  2 180°  3 4,2 0°``). The board marks each
position with the same numbers.

Followers are grouped by kind (``city (knight): N``, ``road (thief): E W``, ``field (farmer): Nw``,
``cloister (monk)``, ``shrine (heretic)``), then ``pass``; chance's draws, when a person enters
them, list the tiles left in the bag with their counts.

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> def menu(state):
...     groups = legal_groups(state, state.legal_actions())
...     return [(str(label), [short for _, short in items]) for label, items in groups]
>>> _ = state.apply_text("draw V")
>>> menu(state)
[('-1,0', ['180°', '270°']), ('1,0', ['0°', '90°']), ('0,-1', ['0°', '270°'])]
>>> _ = state.apply_text("place V 1,0 0")
>>> menu(state)
[('road (thief)', ['S']), ('field (farmer)', ['Nw', 'Sw']), ('pass', ['no follower'])]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import DRAW, FOLLOWER, PASS, PLACE, Action
from regalia.games.carcassonne.render.style import FOLLOWER_WORDS
from regalia.games.carcassonne.tiles import CITY, CLOISTER, FIELD, ROAD, SHRINE

#: Positions up to this many get a line each; more are packed several to a line.
ONE_LINE_EACH = 6
#: The widest packed line (the play command prints ``label: 1 text  2 text``), for 80 columns.
LINE_W = 78

Group = tuple[Any, list[tuple[Any, str]]]

_FOLLOWER_ORDER = (CITY, ROAD, FIELD, CLOISTER, SHRINE)


def reading_order(pos: Pos) -> tuple[int, int]:
    """The board read as text: north row first, west to east."""
    return (-pos[1], pos[0])


def _label(text: str) -> Text:
    return Text(text, style="bold")


def _placements(state: Any, actions: Sequence[Action]) -> list[Group]:
    by_pos: dict[Pos, list[Action]] = {}
    for a in actions:
        assert a.pos is not None
        by_pos.setdefault(a.pos, []).append(a)
    order = sorted(by_pos, key=reading_order)
    for pos in order:
        by_pos[pos].sort(key=lambda a: a.rotation)
    if len(order) <= ONE_LINE_EACH:
        return [(_label(format_pos(pos)), [(a, f"{a.rotation}°") for a in by_pos[pos]]) for pos in order]
    tile = state.cat.types[actions[0].tile].id
    head = f"place {tile}"
    groups: list[Group] = []
    items: list[tuple[Any, str]] = []
    width = len(head) + 1
    number = 0
    for pos in order:
        entry = []
        for k, a in enumerate(by_pos[pos]):
            entry.append((a, f"{format_pos(pos)} {a.rotation}°" if k == 0 else f"{a.rotation}°"))
        # each item prints as "  N text"; a position is never split between lines
        need = sum(2 + len(str(number + 1 + k)) + 1 + len(text) for k, (_, text) in enumerate(entry))
        if items and width + need > LINE_W:
            groups.append((_label(head), items))
            items = []
            width = len(head) + 1
        items.extend(entry)
        width += need
        number += len(entry)
    if items:
        groups.append((_label(head), items))
    return groups


def legal_groups(state: Any, actions: Sequence[Action]) -> list[Group]:
    """``actions`` grouped for a numbered menu: ``[(label, [(action, short text), ...]), ...]``
    (see the module docstring); every action appears exactly once."""
    place = [a for a in actions if isinstance(a, Action) and a.kind == PLACE and a.pos is not None]
    followers: dict[str, list[Action]] = {}
    draws: list[Action] = []
    passes: list[Action] = []
    other: list[Any] = []
    for a in actions:
        if not isinstance(a, Action):
            other.append(a)
        elif a.kind == PLACE and a.pos is not None:
            continue
        elif a.kind == FOLLOWER:
            followers.setdefault(a.feature, []).append(a)
        elif a.kind == DRAW:
            draws.append(a)
        elif a.kind == PASS:
            passes.append(a)
        else:
            other.append(a)
    groups: list[Group] = []
    if draws:
        bag = state.bag
        items = []
        for a in sorted(draws, key=lambda a: a.tile):
            tile = state.cat.types[a.tile].id
            left = bag[a.tile] if 0 <= a.tile < len(bag) else 0
            items.append((a, f"{tile} ×{left}"))
        groups.append((_label("draw (tiles left in the bag)"), items))
    if place:
        groups.extend(_placements(state, place))
    for kind in sorted(followers, key=lambda k: (_FOLLOWER_ORDER.index(k) if k in _FOLLOWER_ORDER else 9, k)):
        found = followers[kind]
        label = _label(f"{kind} ({FOLLOWER_WORDS.get(kind, 'follower')})")
        groups.append((label, [(a, a.side or kind) for a in found]))
    if passes:
        groups.append((_label("pass"), [(a, "no follower") for a in passes]))
    if other:
        groups.append((_label("other"), [(a, state.action_text(a)) for a in other]))
    return groups


def menu_numbers(state: Any) -> dict[Action, int]:
    """The number the play command gives each legal action (its menu counts from 1)."""
    if state.current_player < 0:
        return {}
    out: dict[Action, int] = {}
    for _, items in legal_groups(state, state.legal_actions()):
        for action, _ in items:
            out[action] = len(out) + 1
    return out


def menu_lines(state: Any, width: int) -> int:
    """How many lines the play command's menu takes in a terminal ``width`` columns wide."""
    if state.current_player < 0:
        return 0
    total = 0
    number = 0
    for label, items in legal_groups(state, state.legal_actions()):
        line = len(str(label)) + 1
        for k, (_, short) in enumerate(items):
            number += 1
            line += (2 if k else 1) + len(str(number)) + 1 + len(short)
        total += max(1, -(-line // max(1, width)))
    return total


__all__ = ["LINE_W", "ONE_LINE_EACH", "legal_groups", "menu_lines", "menu_numbers", "reading_order"]
