"""The whole Two Heirs position for a terminal, laid out to fit the terminal's size.

:func:`render_terminal` tries layouts from the roomiest to the tightest and keeps the first that
fits ``width`` columns and ``height`` lines less :data:`MENU_ROOM` (the play command prints the
plies of the turn and the move menu below the view):

1. full board (4-line cells) with a side panel (the reserve one position per line, each seat in a
   few lines) when the terminal is wide;
2. full board with the reserve and seat tables below it, or with one line per seat;
3. compact board (2-line cells) with the side panel or with the one-line reserve and seats;
4. compact board cut to a window around the action, with a note naming what is cut (the play
   command's ``board`` draws the whole play area: ``height=None``).

Solo extras (Henry's score explained, the treasures and their conditions, Henry's last turn one
step per line) are shown in full when there is room, else as one line. ``height=None`` means no
limit; ``width=None`` with ``height=None`` is the full form stacked (reports, tests). Once the
game is over, the final scoring follows the fitted view (it may scroll).

>>> import regalia, random
>>> from rich.console import Console
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> console = Console(width=80, height=24, no_color=True, record=True)
>>> console.print(render_terminal(state, 0, width=80, height=24))  # doctest: +ELLIPSIS
y\\x...
>>> len(console.export_text().splitlines()) <= 24 - MENU_ROOM
True
"""

from __future__ import annotations

import dataclasses

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.games.two_heirs.render.board import (
    Window,
    board_columns,
    board_legend,
    board_lines,
    extent,
    fit_window,
    playable_positions,
    render_board,
)
from regalia.games.two_heirs.render.players import player_block, player_line, render_players, status_line
from regalia.games.two_heirs.render.reserve import render_reserve, reserve_column, reserve_line
from regalia.games.two_heirs.render.scoresheet import render_result
from regalia.games.two_heirs.render.solo import henry_score_text, henry_turn_lines, treasure_lines
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.render.text import measure

#: Lines left free below the view in a small terminal (the turn's plies and the move menu).
MENU_ROOM = 6
#: The side panel's width (the reserve one position per line, each seat in a few lines).
SIDE_W = 44
GAP = 2


def menu_room(height: int) -> int:
    """Lines kept free below the view: 6 in a small terminal, a quarter of a tall one."""
    return MENU_ROOM if height <= 30 else max(MENU_ROOM, height // 4)


@dataclasses.dataclass(frozen=True)
class Layout:
    """One way to lay the position out: the board's cells, the panels' form, the solo extras."""

    board: str  # "full" or "compact"
    panels: str  # "side", "tables" or "lines"
    extras: str  # "all", "some" or "min"
    window: bool = False  # cut the board to fit
    legend: bool = True


LAYOUTS: tuple[Layout, ...] = (
    Layout("full", "side", "all"),
    Layout("full", "tables", "all"),
    Layout("full", "side", "some"),
    Layout("full", "tables", "some"),
    Layout("full", "lines", "some"),
    Layout("full", "lines", "min"),
    Layout("compact", "side", "all"),
    Layout("compact", "side", "some"),
    Layout("compact", "tables", "some"),
    Layout("compact", "lines", "all"),
    Layout("compact", "lines", "some"),
    Layout("compact", "lines", "min"),
)
FALLBACKS = (
    Layout("compact", "lines", "min", window=True),
    Layout("compact", "lines", "min", window=True, legend=False),
)


def _extras(state: TwoHeirsState, layout: Layout, width: int | None) -> list[RenderableType]:
    if not isinstance(state, SoloState):
        return []
    out: list[RenderableType] = []
    if layout.extras == "min":
        out.extend(treasure_lines(state, compact=True, width=width))
        if layout.panels != "lines":
            out.append(henry_score_text(state, short=True))
        return out
    if layout.panels != "lines":  # one-line seats already explain Henry's score
        out.append(henry_score_text(state))
    out.extend(treasure_lines(state))
    if layout.extras == "all":
        out.extend(henry_turn_lines(state))
    return out


def _panels(state: TwoHeirsState, viewer: int | None, form: str, width: int | None) -> list[RenderableType]:
    if form == "side":
        return [
            reserve_column(state),
            Text(""),
            player_block(state, 0, viewer),
            player_block(state, 1, viewer),
        ]
    if form == "tables":
        return [render_reserve(state), render_players(state, viewer)]
    return [
        reserve_line(state, width),
        player_line(state, 0, viewer, width),
        player_line(state, 1, viewer, width),
    ]


def compose(
    state: TwoHeirsState,
    viewer: int | None,
    layout: Layout,
    window: Window | None = None,
    width: int | None = None,
) -> RenderableType:
    """The view in one layout (``window``: the part of the board to show; ``width``: the columns
    one-line seats may use)."""
    compact = layout.board == "compact"
    side = layout.panels == "side"
    board = render_board(state, compact=compact, window=window, legend=layout.legend and not side)
    panels = _panels(state, viewer, layout.panels, width)
    extras = _extras(state, layout, width)
    status = status_line(state, viewer, compact=layout.panels == "lines")
    parts: list[RenderableType] = []
    if layout.panels == "side":
        grid = Table.grid(padding=(0, GAP))
        grid.add_column(no_wrap=True)
        grid.add_column(width=SIDE_W)
        grid.add_row(board, Group(*panels))
        parts.append(grid)
        if layout.legend:
            parts.append(board_legend(compact, isinstance(state, SoloState)))
    else:
        parts.append(board)
        parts.extend(panels)
    parts.extend(extras)
    parts.append(status)
    return Group(*parts)


def _board_size(state: TwoHeirsState) -> tuple[int, int]:
    """Columns and rows of the whole board (with the playable positions)."""
    full = extent(state, playable_positions(state))
    if full is None:
        return 0, 0
    return full[1] - full[0] + 1, full[3] - full[2] + 1


def _may_fit(state: TwoHeirsState, layout: Layout, width: int, budget: int | None) -> bool:
    """A quick test before rendering: the board alone must fit the width and the lines."""
    cols, rows = _board_size(state)
    compact = layout.board == "compact"
    board_w = board_columns(cols, compact)
    if layout.panels == "side":
        board_w += GAP + SIDE_W
    if board_w > width:
        return False
    return budget is None or board_lines(rows, compact) + 1 <= budget


def render_terminal(
    state: TwoHeirsState, viewer: int | None = None, *, width: int | None = None, height: int | None = None
) -> RenderableType:
    """The whole position for ``viewer`` (a seat, or ``None`` for a spectator), fitted to a
    terminal of ``width`` x ``height`` (see the module docstring)."""
    view = _fitted(state, viewer, width, height)
    if state.is_terminal():  # the final scoring follows the position (it may scroll)
        return Group(view, render_result(state))
    return view


def view_lines(height: int | None) -> int | None:
    """The lines the view may use in a terminal ``height`` lines tall (``None``: no limit)."""
    return None if height is None else max(8, height - menu_room(height))


def _fitted(
    state: TwoHeirsState, viewer: int | None, width: int | None, height: int | None
) -> RenderableType:
    if width is None and height is None:
        return compose(state, viewer, Layout("full", "tables", "all"))
    cols = width or 80
    budget = view_lines(height)
    for layout in LAYOUTS:
        if not _may_fit(state, layout, cols, budget):
            continue
        view = compose(state, viewer, layout, width=cols)
        lines, natural = measure(view, cols)
        if natural > cols and layout.panels == "tables":
            continue
        if budget is None or lines <= budget:
            return view
    # the tightest: the compact board cut to a window around the action, as many rows as fit;
    # in a tiny terminal the legend goes too
    playable = playable_positions(state)
    for layout in FALLBACKS:
        rows = 99 if budget is None else max(1, (budget - 1) // 2)
        while True:
            window = fit_window(state, playable, True, cols, board_lines(rows, compact=True))
            view = compose(state, viewer, layout, window=window, width=cols)
            if budget is None or window is None or measure(view, cols)[0] <= budget:
                return view
            if rows <= 1:
                break
            rows = min(rows, window.rows) - 1
    return view


__all__ = [
    "FALLBACKS",
    "LAYOUTS",
    "MENU_ROOM",
    "Layout",
    "compose",
    "measure",
    "menu_room",
    "render_terminal",
    "view_lines",
]
