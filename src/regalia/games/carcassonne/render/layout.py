"""The whole Carcassonne position for a terminal, fitted to its size: :func:`render_terminal`.

The view is the status line, the board (:mod:`.board`) and the panels (:mod:`.panels`: the seats,
the drawn tile in its rotations, the bag by tile letter, the legend). It leaves room below it for
what the play command prints after it: the plies of the turn (:data:`TURN_ROOM` lines with the
prompt) and the move menu, whose length it computes (:func:`~.menu.menu_lines`).

Layouts, from the richest (:data:`LAYOUTS`): the panels beside the board (with the legend, without
it, with the bag's count only, with the drawn tile on one line), then below the board (the same
steps, down to the tile's rotations in the status line and no bag). Each is tried with the largest
window of the board that leaves room for the rest; the first that shows the whole board, or at
least :data:`ENOUGH_ROWS` rows and :data:`ENOUGH_COLS` columns of it, is taken; failing that, the
one that shows the most places where the drawn tile fits, then the most of the board. A note under
a cut board says what is cut; the play command's ``board`` (``height=None``) shows every row.
``width=None`` and ``height=None``: everything, stacked.

>>> import regalia
>>> from rich.console import Console
>>> state = regalia.load_game("carcassonne", players=3, shrines="5").new_state(seed=4)
>>> _ = state.advance()
>>> console = Console(width=100, height=30, no_color=True, record=True)
>>> console.print(render_terminal(state, 0, width=100, height=30))  # doctest: +ELLIPSIS
ply 1 · red (you) to lay tile ...
>>> lines = console.export_text().splitlines()
>>> len(lines) <= 30 - TURN_ROOM, max(len(line) for line in lines) <= 100
(True, True)
"""

from __future__ import annotations

import dataclasses

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.games.carcassonne.render.board import (
    Window,
    board_width,
    choose_window,
    describe_window,
    extent,
    fit_positions,
    focus_positions,
    render_board,
)
from regalia.games.carcassonne.render.cells import CELL_H, CELL_W
from regalia.games.carcassonne.render.menu import menu_lines
from regalia.games.carcassonne.render.panels import (
    PANEL_W,
    bag_line,
    legend,
    players_block,
    players_line,
    status_line,
    tile_block,
    tile_line,
)
from regalia.games.carcassonne.render.result import render_result
from regalia.games.carcassonne.state import CarcassonneState
from regalia.render.text import measure

#: Lines the play command prints below the view besides the menu: the plies of the turn (in short,
#: a seat's plies on a line, when the terminal is small) and the prompt.
TURN_ROOM = 3
#: The fewest lines the view takes, however small the terminal.
MIN_LINES = 8
GAP = 2


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where the panels go (``side`` or ``below``) and how much of them is shown: the drawn tile as
    ``pictures`` of its rotations, one ``line``, or in the ``status`` line; the bag ``full`` (counts
    by letter), ``short`` (its count) or ``none``; the legend."""

    panels: str
    tile: str = "pictures"
    bag: str = "full"
    legend: bool = True


LAYOUTS: tuple[Layout, ...] = (
    Layout("side"),
    Layout("side", legend=False),
    Layout("side", bag="short", legend=False),
    Layout("side", tile="line", bag="short", legend=False),
    Layout("below"),
    Layout("below", legend=False),
    Layout("below", bag="short", legend=False),
    Layout("below", tile="status", bag="none", legend=False),
)
#: The smallest window a layout must show to be taken before a plainer one that shows more.
ENOUGH_ROWS = 3
ENOUGH_COLS = 6
#: The plainest layout, for a tiny terminal.
PLAIN = LAYOUTS[-1]


def view_budget(state: CarcassonneState, width: int, height: int | None) -> int | None:
    """Lines the view may use: the terminal's less the menu and :data:`TURN_ROOM` (``None``: no
    limit)."""
    if height is None:
        return None
    return max(MIN_LINES, height - TURN_ROOM - menu_lines(state, width))


def _panels(state: CarcassonneState, viewer: int | None, layout: Layout, width: int | None) -> list[Text]:
    side = layout.panels == "side"
    wrap = PANEL_W if side else width
    parts: list[Text] = [players_block(state, viewer) if side else players_line(state, viewer)]
    tile = (
        tile_block(state)
        if layout.tile == "pictures"
        else tile_line(state)
        if layout.tile == "line"
        else None
    )
    if tile is not None:
        parts.append(tile)
    if layout.bag != "none":
        parts.append(bag_line(state, wrap, short=layout.bag == "short"))
    if layout.legend:
        parts.append(legend(state, wrap))
    return parts


def _status(state: CarcassonneState, viewer: int | None, layout: Layout) -> Text:
    status = status_line(state, viewer)
    if layout.tile == "status":
        tile = tile_line(state)
        if tile is not None:
            status.append(" · ")
            status.append_text(tile)
    return status


def compose(
    state: CarcassonneState,
    viewer: int | None,
    layout: Layout,
    window: Window,
    width: int | None = None,
) -> RenderableType:
    """The view in one layout, the board cut to ``window``."""
    board = render_board(state, window)
    note = describe_window(window, state)
    panels = _panels(state, viewer, layout, width)
    parts: list[RenderableType] = [_status(state, viewer, layout)]
    if layout.panels == "side":
        grid = Table.grid(padding=(0, GAP))
        grid.add_column(width=board_width(window.cols), no_wrap=True)
        grid.add_column(width=PANEL_W, no_wrap=False)
        grid.add_row(board, Group(*panels))
        parts.append(grid)
        if note:
            parts.append(Text(note, style="dim italic"))
    else:
        parts.append(board)
        if note:
            parts.append(Text(note, style="dim italic"))
        parts.extend(panels)
    return Group(*parts)


def _fixed_lines(state: CarcassonneState, viewer: int | None, layout: Layout, width: int) -> int:
    """Lines of the view besides the board's rows: the status, the x labels, the note, and the
    panels when they are below the board."""
    lines = 2 + measure(_status(state, viewer, layout), width)[0]
    if layout.panels == "below":
        lines += sum(measure(p, width)[0] for p in _panels(state, viewer, layout, width))
    return lines


Merit = tuple[int, int, int]


def _candidate(
    state: CarcassonneState, viewer: int | None, layout: Layout, width: int, budget: int | None
) -> tuple[Window, RenderableType] | None:
    """The view in ``layout`` with the largest window that fits (``None``: it does not fit)."""
    full = extent(state, fit_positions(state))
    all_cols = full[1] - full[0] + 1
    all_rows = full[3] - full[2] + 1
    room = width - (PANEL_W + GAP if layout.panels == "side" else 0)
    if room - board_width(0) < CELL_W * min(all_cols, 2):
        return None  # too narrow for a useful board
    cols = min(all_cols, (room - board_width(0)) // CELL_W)
    if budget is None:
        rows = all_rows
    else:
        rows = min(all_rows, (budget - _fixed_lines(state, viewer, layout, width)) // CELL_H)
        if rows < 1:
            return None
    focus = focus_positions(state)
    while True:
        window = choose_window(full, cols, rows, focus)
        view = compose(state, viewer, layout, window, width)
        lines, natural = measure(view, width)
        if (budget is None or lines <= budget) and natural <= width:
            return window, view
        if rows <= 1:
            return None
        rows -= 1


def _merit(state: CarcassonneState, window: Window) -> Merit:
    """Whole board first, then the places where the tile fits that are in view, then the area."""
    shown = sum(1 for p in fit_positions(state) if window.holds(p))
    return int(not window.cut), shown, window.cols * window.rows


def _enough(window: Window) -> bool:
    fx0, fx1, fy0, fy1 = window.full
    return window.rows >= min(ENOUGH_ROWS, fy1 - fy0 + 1) and window.cols >= min(ENOUGH_COLS, fx1 - fx0 + 1)


def render_terminal(
    state: CarcassonneState, viewer: int | None = None, width: int | None = None, height: int | None = None
) -> RenderableType:
    """The whole position for ``viewer`` (a seat, or ``None`` for a spectator), fitted to a
    terminal of ``width`` x ``height`` (see the module docstring); after the game, the final
    scoring follows (it may scroll)."""
    view = _fitted(state, viewer, width, height)
    if state.is_terminal():
        return Group(view, render_result(state))
    return view


def _fitted(
    state: CarcassonneState, viewer: int | None, width: int | None, height: int | None
) -> RenderableType:
    full = extent(state, fit_positions(state))
    if width is None and height is None:
        return compose(state, viewer, Layout("below"), Window(*full, full=full), None)
    cols = max(20, width or 100)
    budget = view_budget(state, cols, height)
    best: tuple[Merit, RenderableType] | None = None
    for layout in LAYOUTS:
        found = _candidate(state, viewer, layout, cols, budget)
        if found is None:
            continue
        window, view = found
        if not window.cut or _enough(window):  # the richest layout that shows enough
            return view
        merit = _merit(state, window)
        if best is None or merit > best[0]:
            best = (merit, view)
    if best is not None:
        return best[1]
    # a tiny terminal: one row of the board around the action, the status and the seats on a line
    window = choose_window(full, max(1, (cols - board_width(0)) // CELL_W), 1, focus_positions(state))
    return Group(_status(state, viewer, PLAIN), render_board(state, window), players_line(state, viewer))


__all__ = [
    "GAP",
    "LAYOUTS",
    "MIN_LINES",
    "TURN_ROOM",
    "Layout",
    "compose",
    "measure",
    "render_terminal",
    "view_budget",
]
