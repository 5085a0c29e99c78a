"""The whole Carcassonne position for a terminal, fitted to its size: :func:`render_terminal`.

The view is the status line, the board (:mod:`.board`) and the panels (:mod:`.panels`: the seats,
the drawn tile in its rotations, the bag by tile letter, the legend). It leaves room below it for
what the play command prints after it: the plies of the turn (:data:`TURN_ROOM` lines with the
prompt) and the move menu, whose length it computes (:func:`~.menu.menu_lines`).

Layouts, from the richest: the panels beside the board (with the legend, without it, with the
bag's count only), then the panels below the board (a narrow terminal). Each is tried with the
largest window of the board that leaves room for the rest; the layout that shows the whole board,
else the most positions where the drawn tile fits, then the most of the board, wins (the richest
on a tie). A note under a cut board says what is cut; the ``board`` command of the play command
(``height=None``) shows every row. ``width=None`` and ``height=None``: everything, stacked.

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
import io

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
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
)
from regalia.games.carcassonne.render.result import render_result
from regalia.games.carcassonne.state import CarcassonneState

#: Lines the play command prints below the view besides the menu: the plies of the turn (a place,
#: a follower, a draw, one of them wrapped) and the prompt.
TURN_ROOM = 5
#: The fewest lines the view takes, however small the terminal.
MIN_LINES = 8
GAP = 2


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where the panels go (``side`` or ``below``) and how much of them is shown."""

    panels: str
    legend: bool = True
    bag: bool = True


LAYOUTS: tuple[Layout, ...] = (
    Layout("side"),
    Layout("side", legend=False),
    Layout("side", legend=False, bag=False),
    Layout("below"),
    Layout("below", legend=False),
    Layout("below", legend=False, bag=False),
)


def _console(width: int) -> Console:
    return Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False, highlight=False)


def measure(renderable: RenderableType, width: int) -> tuple[int, int]:
    """Lines and natural width (columns) of ``renderable`` printed ``width`` columns wide."""
    console = _console(width)
    options = console.options.update(width=width)
    lines = console.render_lines(renderable, options, pad=False)
    natural = Measurement.get(console, options, renderable).maximum
    return len(lines), natural


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
    tile = tile_block(state)
    if tile is not None:
        parts.append(tile)
    parts.append(bag_line(state, wrap, short=not layout.bag))
    if layout.legend:
        parts.append(legend(state, wrap))
    return parts


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
    parts: list[RenderableType] = [status_line(state, viewer)]
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
    lines = 3
    if layout.panels == "below":
        lines += sum(measure(p, width)[0] for p in _panels(state, viewer, layout, width))
    return lines


def _candidate(
    state: CarcassonneState, viewer: int | None, layout: Layout, width: int, budget: int | None
) -> tuple[tuple[int, ...], RenderableType] | None:
    """The view in ``layout`` with the largest window that fits, and its merit."""
    fits = fit_positions(state)
    full = extent(state, fits)
    all_cols = full[1] - full[0] + 1
    all_rows = full[3] - full[2] + 1
    room = width - (PANEL_W + GAP if layout.panels == "side" else 0)
    cols = min(all_cols, max(1, (room - board_width(0)) // CELL_W))
    if layout.panels == "side" and room - board_width(0) < CELL_W * min(all_cols, 3):
        return None  # too narrow for the panel beside a useful board
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
            shown = sum(1 for p in fits if window.holds(p))
            merit = (int(not window.cut), shown, window.cols * window.rows)
            return merit, view
        if rows <= 1:
            return None
        rows -= 1


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
        window = Window(*full, full=full)
        return compose(state, viewer, Layout("below"), window, None)
    cols = max(20, width or 100)
    budget = view_budget(state, cols, height)
    best: tuple[tuple[int, ...], RenderableType] | None = None
    for layout in LAYOUTS:
        found = _candidate(state, viewer, layout, cols, budget)
        if found is None:
            continue
        if found[0][0]:  # the whole board: the richest layout that shows it
            return found[1]
        if best is None or found[0] > best[0]:
            best = found
    if best is not None:
        return best[1]
    # a tiny terminal: one row of the board around the action, the status and the seats on a line
    window = choose_window(full, max(1, (cols - board_width(0)) // CELL_W), 1, focus_positions(state))
    return Group(status_line(state, viewer), render_board(state, window), players_line(state, viewer))


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
