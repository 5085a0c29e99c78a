"""The solo game's extras for a terminal: Henry's score explained, the treasures and their
conditions, Henry's last turn one step per line ("Solo rules").

Henry starts with points: every treasure token left on his buildings or in the pile is worth 5 to
him at the end ("Solo scoring"), so the treasure part of his score is always shown on its own.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs", solo=True, level=3).new_state(seed=4)
>>> _ = state.advance(random.Random(4))
>>> print(henry_score_text(state).plain)  # doctest: +NORMALIZE_WHITESPACE
henry: 50 points = 0 for buildings + 0 for roads + 50 for 10 treasures x 5
(0 on his buildings, 10 in the pile)
"""

from __future__ import annotations

from rich.text import Text

from regalia.core.grid import format_pos
from regalia.games.two_heirs.henry import HENRY, TREASURE_POINTS, TreasureToken
from regalia.games.two_heirs.render.style import SEAT_STYLES, TREASURE_MARK, TREASURE_STYLE, pack, plural
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.tiles import COLOURS


def henry_score_parts(state: SoloState) -> tuple[int, int, int, int, int]:
    """Henry's points for buildings, for roads, for treasures; treasures on the board, in the pile."""
    sheet = state.score_sheet()
    treasure_points = sum(points for who, _, points in sheet.extra if who == HENRY)
    return (
        sheet.building_points(HENRY),
        sheet.road_points(HENRY),
        treasure_points,
        len(state.treasures),
        state.pile_left,
    )


def henry_score_text(state: SoloState, short: bool = False, name: bool = True) -> Text:
    """``henry: 50 points = 0 for buildings + 0 for roads + 50 for 10 treasures x 5 (...)``."""
    buildings, roads, treasure, on_board, pile = henry_score_parts(state)
    total = state.scores()[HENRY]
    n = on_board + pile
    text = Text(f"{state.seat_names()[HENRY]}: " if name else "", style=SEAT_STYLES[HENRY])
    text.append(f"{plural(total, 'point')}", style="bold")
    if short:
        text.append(f" = {buildings} buildings + {roads} roads + {treasure} for {plural(n, 'treasure')}")
        return text
    text.append(f" = {buildings} for buildings + {roads} for roads + {treasure} for ")
    text.append(f"{plural(n, 'treasure')} x {TREASURE_POINTS}", style=TREASURE_STYLE)
    text.append(f" ({on_board} on his buildings, {pile} in the pile)")
    return text


def condition_short(token: TreasureToken) -> str:
    """A treasure's condition in a few words: ``2 grey in column``, ``tiles N+E``."""
    what = "any" if token.colour < 0 else COLOURS[token.colour]
    if token.condition == "positional":
        return "tiles " + "+".join(token.positions)
    where = "column" if token.condition == "vertical" else "row"
    return f"2 {what} in {where}"


def treasure_lines(state: SoloState, compact: bool = False, width: int | None = None) -> list[Text]:
    """The treasures on Henry's buildings with their conditions (compact: one paragraph, broken
    between treasures to fit ``width``)."""
    tokens = state.tset.tokens
    head = Text(f"{TREASURE_MARK} Treasures", style="bold")
    head.append(f" ({TREASURE_POINTS} points each to Henry at the end; meet its condition to remove it)")
    if compact:
        line = Text(f"{TREASURE_MARK} treasures", style="bold")
        line.append(f" ({TREASURE_POINTS} pts each to Henry; pile {state.pile_left}")
        if state.taken:
            line.append(f", {len(state.taken)} removed")
        line.append(")" + (":" if state.treasures else ": none on the board"))
        parts = [line]
        for k, (pos, t) in enumerate(state.treasures):
            item = Text(f"{tokens[t].id} {format_pos(pos)}", style=TREASURE_STYLE)
            item.append(f" {condition_short(tokens[t])}", style="")
            if k == 0 and width is not None and len(line) + 1 + len(item) <= width:
                line.append(" ")
                line.append_text(item)
            else:
                parts.append(item)
        return [pack(parts, width, sep=" · ")]
    lines = [head]
    for pos, t in state.treasures:
        line = Text("  ")
        line.append(f"{TREASURE_MARK}{tokens[t].id}", style=TREASURE_STYLE)
        line.append(f" at {format_pos(pos)}: {tokens[t].describe()}")
        lines.append(line)
    if not state.treasures:
        lines.append(Text("  none on Henry's buildings yet", style="dim"))
    rest = Text(f"  {plural(state.pile_left, 'token')} face down in the pile", style="dim")
    if state.taken:
        rest.append(f"; removed: {', '.join(tokens[t].id for t in state.taken)}")
    lines.append(rest)
    return lines


def henry_turn_lines(state: SoloState) -> list[Text]:
    """Henry's most recent turn, one numbered line per step (empty before his first turn)."""
    events = state.last_henry_turn()
    if not events:
        return []
    out = [Text("Henry's last turn:", style="bold")]
    for k, event in enumerate(events, start=1):
        out.append(Text(f"  {k}. {state.event_text(event)}"))
    return out


__all__ = ["condition_short", "henry_score_parts", "henry_score_text", "henry_turn_lines", "treasure_lines"]
