"""The royal reserve for a terminal: a table (full form), a paragraph (compact) or a column (side).

The reserve is a circle read clockwise from the royal shield ("Royal protocol"): the shield's
position, then positions ``1`` to ``6``. Each tile reads like a board cell, ``T4 w sawmill``
(id, colour letter, building), then its cost in the same letters (``1s1g``). The seats that reach
a tile are marked ``[W]`` / ``[B]`` / ``[WB]`` in the table and the column; in the paragraph
``|W`` / ``|B`` mark where each seat's reach ends. Henry's reach is unlimited (solo): not marked.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> print(reserve_line(state).plain)  # doctest: +NORMALIZE_WHITESPACE
Reserve ⟳ (|W |B: reach ends): 1:T5 s quarry 1w1g 2:T2 g farm 1w1s 3:W7 g pilgrims 1w1g |W |B
4:D4 g bakery 1w2g 5:D3 w stable 1w1s2g 6:D9 g camp 1w1s
"""

from __future__ import annotations

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from regalia.games.two_heirs.render.style import (
    COLOUR_LEGEND,
    SEAT_LETTERS,
    SEAT_STYLES,
    cost_short,
    is_henry,
    pack,
    seat_name,
    tile_short,
)
from regalia.games.two_heirs.state import TwoHeirsState


def crown(state: TwoHeirsState) -> int:
    """The seat whose crown the royal shield shows (the next to take a tile)."""
    return state.player if state.shield_mine else 1 - state.player


def reach_label(state: TwoHeirsState, seat: int) -> str:
    """A seat's reach for display: Henry's is unlimited ("Solo course of the game")."""
    return "∞" if is_henry(state, seat) else str(state.reach(seat))


def reach_sets(state: TwoHeirsState) -> list[set[int]]:
    """Per seat, the reserve positions within its reach (empty for Henry: he reaches all)."""
    return [set() if is_henry(state, s) else set(state.reach_positions(s)) for s in (0, 1)]


def clockwise(state: TwoHeirsState) -> list[int]:
    """The reserve positions clockwise from the shield, the shield's own first."""
    size = len(state.reserve)
    return [(state.shield + k) % size for k in range(size)]


def not_dealt(state: TwoHeirsState) -> bool:
    """True before setup has dealt the reserve."""
    return all(t < 0 for t in state.reserve) and not state.board


def _marks(state: TwoHeirsState, pos: int, reach: list[set[int]]) -> Text:
    marks = Text()
    for seat in (0, 1):
        if pos in reach[seat]:
            style = SEAT_STYLES[seat] + (" reverse" if seat == state.player else "")
            marks.append(SEAT_LETTERS[seat], style=style)
    if marks:
        marks = Text("[").append_text(marks).append("]")
    return marks


def render_reserve(state: TwoHeirsState) -> RenderableType:
    """The royal reserve's 7 positions clockwise from the shield, with each seat's reach marked."""
    if not_dealt(state):
        return Text("Royal reserve: not dealt yet.", style="bold")
    reach = reach_sets(state)
    c = crown(state)
    table = Table(
        box=box.ROUNDED,
        show_lines=False,
        padding=(0, 1),
        title=f"Royal reserve: a circle read clockwise ⟳ from the shield "
        f"(reach: white {reach_label(state, 0)}, blue {reach_label(state, 1)})",
        title_style="bold",
        caption=COLOUR_LEGEND + "; costs in the same letters",
        caption_style="dim",
    )
    table.add_column("", style="dim", no_wrap=True)
    for k in range(len(state.reserve)):
        table.add_column("shield" if k == 0 else f"+{k}", justify="center", min_width=11, no_wrap=True)
    tiles_row: list[RenderableType] = [Text("tile")]
    cost_row: list[RenderableType] = [Text("cost")]
    reach_row: list[RenderableType] = [Text("reach")]
    for k, pos in enumerate(clockwise(state)):
        t = state.reserve[pos]
        if k == 0:
            tiles_row.append(Text("♛ shield", style="bold"))
            cost_row.append(Text(f"crown {seat_name(c)}", style=SEAT_STYLES[c]))
        elif t < 0:
            tiles_row.append(Text("empty", style="dim"))
            cost_row.append(Text(""))
        else:
            tiles_row.append(tile_short(state.tiles[t]))
            cost_row.append(cost_short(state.tiles[t]))
        reach_row.append(_marks(state, pos, reach))
    for row in (tiles_row, cost_row, reach_row):
        table.add_row(*row)
    return table


def reserve_line(state: TwoHeirsState, width: int | None = None) -> Text:
    """The royal reserve as one paragraph (two lines at 80 columns, broken between tiles):
    ``1:T4 w sawmill 1s1g |W 2:...`` where ``|W`` ends white's reach. Building names are
    shortened when the full ones need more than two lines."""
    text = _reserve_line(state, width, 8)
    if width is not None and text.plain.count("\n") > 1:
        text = _reserve_line(state, width, 5)
    return text


def _reserve_line(state: TwoHeirsState, width: int | None, name_width: int) -> Text:
    if not_dealt(state):
        return Text("Royal reserve: not dealt yet.", style="bold")
    ends: dict[int, list[int]] = {}
    for seat in (0, 1):
        if not is_henry(state, seat):
            positions = state.reach_positions(seat)
            if positions:
                ends.setdefault(positions[-1], []).append(seat)
    head = Text("Reserve ⟳", style="bold")
    head.append(" (|W |B: reach ends):", style="dim")
    parts = [head]
    for k, pos in enumerate(clockwise(state)):
        if k == 0:
            continue
        t = state.reserve[pos]
        item = Text(f"{k}:", style="dim")
        if t < 0:
            item.append("empty", style="dim")
        else:
            tile = state.tiles[t]
            item.append_text(tile_short(tile, name_width))
            item.append(" ")
            item.append_text(cost_short(tile, sep=""))
        for seat in ends.get(pos, []):
            style = SEAT_STYLES[seat] + (" reverse" if seat == state.player else "")
            item.append(" ")
            item.append(f"|{SEAT_LETTERS[seat]}", style=style)
        parts.append(item)
    return pack(parts, width)


def reserve_column(state: TwoHeirsState) -> Text:
    """The royal reserve one position per line, for a side panel (about 40 columns)."""
    if not_dealt(state):
        return Text("Royal reserve: not dealt yet.", style="bold")
    reach = reach_sets(state)
    c = crown(state)
    text = Text("Royal reserve ⟳ clockwise", style="bold")
    text.append(f"\n  ♛ shield, crown {seat_name(c)}", style=SEAT_STYLES[c])
    for k, pos in enumerate(clockwise(state)):
        if k == 0:
            continue
        t = state.reserve[pos]
        text.append(f"\n  {k} ", style="dim")
        if t < 0:
            text.append("empty", style="dim")
            continue
        tile = state.tiles[t]
        label = tile_short(tile)
        label.pad_right(16 - len(label))
        text.append_text(label)
        cost = cost_short(tile)
        text.append_text(cost)
        text.append(" " * max(1, 9 - len(cost)))
        text.append_text(_marks(state, pos, reach))
    text.append(
        f"\n  in reach: [W] white {reach_label(state, 0)}, [B] blue {reach_label(state, 1)}", style="dim"
    )
    return text


__all__ = [
    "clockwise",
    "crown",
    "not_dealt",
    "reach_label",
    "reach_sets",
    "render_reserve",
    "reserve_column",
    "reserve_line",
]
