"""The numbered move menu: the legal actions grouped by step, short enough for 80x24.

In step 1 (and for the Captain's ``place``) every tile of the zone may go onto every legal square:
ten tiles and sixteen squares are 160 actions, too many to number. So the squares are numbered
once, in reading order (north row first, west to east; the board shows the same numbers in the
empty squares, ``[3]``), and the numbers play the first tile of the zone there; any tile is played by its
abbreviation and a square's number or ``x,y`` (``Sp 3``, ``Sp 1,1``) or in full notation
(``play Spy 1,1``). With a single tile (the Diplomat's force, the last tile) the numbers are
simply its placements. Lines are packed to :data:`LINE_W` columns, a square never split from its
number. Other steps list every action, numbered: targets, moves, ``pass``.

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first red")
>>> groups = legal_groups(state, state.legal_actions())
>>> [(label.plain, len(items)) for label, items in groups]  # doctest: +NORMALIZE_WHITESPACE
[('play As Assassin (2, kill) onto', 6), ('play As', 8), ('play As', 2),
 ('other tiles: type one with a square, e.g. Jo 3 or play Joker 1,1', 0)]
>>> groups[0][1][0][1], state.notation(state.parse_action("Sp 3"))
('-1,1', 'play Spy 1,1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from regalia.core.grid import format_pos
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import Action
from regalia.games.royal_court.state import RoyalCourtState

TITLES = {
    act.MOVE: "move a tile (step 3)",
    act.PASS: "decline the extra move",
    act.FIRST: "chance: the first player",
}

Menu = list[tuple[Any, list[tuple[Any, str]]]]


#: The widest menu line (the play command prints ``label: 1 text  2 text``), for 80 columns.
LINE_W = 78


def _pack(head: Text, more: str, items: list[tuple[Any, str]], first_number: int) -> Menu:
    """``items`` in lines of at most :data:`LINE_W` columns as the play command prints them, the
    first labelled ``head``, the others ``more``; an item is never split between lines."""
    groups: Menu = []
    line: list[tuple[Any, str]] = []
    label: Text = head
    width = len(head.plain) + 1
    number = first_number
    for item in items:
        need = (2 if line else 1) + len(str(number)) + 1 + len(item[1])
        if line and width + need > LINE_W:
            groups.append((label, line))
            label, line = Text(more, style="bold"), []
            width = len(more) + 1
            need -= 1
        line.append(item)
        width += need
        number += 1
    groups.append((label, line))
    return groups


def _plays(state: RoyalCourtState, plays: Sequence[Action]) -> Menu:
    """Step 1 or the Captain's ``place``: the squares numbered once (see the module docstring)."""
    names = state.game.archetypes.archetypes
    kind = plays[0].kind
    tiles = list(dict.fromkeys(a.arg for a in plays))
    first = names[tiles[0]]
    order = {q: i for i, q in enumerate(state.play_squares())}
    mine = [a for a in plays if a.arg == tiles[0]]
    mine.sort(key=lambda a: order.get(a.dst, len(order)))  # type: ignore[arg-type]
    items: list[tuple[Any, str]] = [(a, format_pos(a.dst)) for a in mine]  # type: ignore[arg-type]
    label = Text(f"{kind} {first.abbr} {first.name} ({first.influence}, {first.word})", style="bold")
    if len(tiles) == 1:
        return _pack(label, f"{kind} {first.abbr}", items, 1)
    label.append(" onto")
    groups = _pack(label, f"{kind} {first.abbr}", items, 1)
    other = names[tiles[1]]
    n = min(3, len(mine))
    square = mine[n - 1].dst
    assert square is not None
    example = f"{other.abbr} {n} or {kind} {other.name} {format_pos(square)}"
    how = f"other tiles: type one with a square, e.g. {example}"
    groups.append((Text(how), []))
    return groups


def _target_title(state: RoyalCourtState, kind: str) -> str:
    """A target's menu label in words: ``send back to its owner's zone an active tile of yours on
    the board (step 2)``."""
    from regalia.games.royal_court.render.terminal import effect_words

    effect = state.queue[0] if state.queue else None
    if effect is not None and effect.do == kind:
        return f"{effect_words(kind, effect.target)} (step 2)"
    return f"{effect_words(kind)} (step 2)"


def legal_groups(state: RoyalCourtState, actions: Sequence[Action]) -> Menu:
    """``[(label, [(action, short text), ...]), ...]``: in step 1 the first tile's squares and a
    line on typing the others; targets, moves and ``pass`` by verb."""
    plays = [a for a in actions if a.kind in (act.PLAY, act.PLACE)]
    groups: Menu = _plays(state, plays) if plays else []
    by_kind: dict[str, tuple[Text, list[tuple[Any, str]]]] = {}
    for a in actions:
        if a.kind in (act.PLAY, act.PLACE):
            continue
        text = state.notation(a)
        label = TITLES.get(a.kind) or _target_title(state, a.kind)
        short = text.split(" ", 1)[1] if " " in text else text
        by_kind.setdefault(a.kind, (Text(label, style="bold"), []))[1].append((a, short))
    return groups + list(by_kind.values())
