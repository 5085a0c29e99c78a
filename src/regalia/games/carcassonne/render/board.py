"""The Carcassonne board for a terminal: tiles as 5x3 cells (:mod:`.cells`), north up, x across the
top and y down the side, and a window around the action when the board is larger than the screen.

Free positions where the drawn tile fits show the play command's menu numbers, each with the arrow
of its rotation (``12→``: move 12 lays the tile turned 90°, its printed top pointing east). After a
tile is laid, the numbers of the follower options stand on its features (``pass`` is in the menu).

With colour, fields are green in a checkerboard of two shades (each tile stands apart), cities
brown, roads white, followers on their seat's colour; without colour every glyph and letter still
reads the same.

>>> import regalia
>>> from rich.console import Console
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> console = Console(width=60, no_color=True, color_system=None)
>>> with console.capture() as cap:
...     console.print(render_board(state))
>>> print("\\n".join(line.rstrip() for line in cap.get().splitlines()))
y\\x   -1   0    1
     1↓  ·███· 3↑
  0  2←  ━━━━━ 4→
         ·····
          5↑
 -1       6←
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.text import Text

from regalia.core.grid import Pos
from regalia.core.text import plural
from regalia.games.carcassonne.actions import FOLLOWER, PLACE, Action
from regalia.games.carcassonne.base import PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.render.cells import CELL_H, CELL_W, follower_mark, paint
from regalia.games.carcassonne.render.menu import menu_numbers
from regalia.games.carcassonne.render.style import (
    CITY_BG,
    CITY_FG,
    CITY_GLYPH,
    CLOISTER_FG,
    CLOISTER_GLYPH,
    FIELD_BG,
    FIELD_GLYPH,
    FIT_STYLE,
    OPTION_STYLE,
    PENNANT_FG,
    PENNANT_GLYPH,
    PLACED_BG,
    ROAD_FG,
    ROTATION_ARROWS,
    SHRINE_FG,
    SHRINE_GLYPH,
    seat_style,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import Turned
from regalia.render.window import Window as BoardWindow
from regalia.render.window import bounds

#: The y labels' column (``y\x`` and up to 3-character labels) and the space after it.
LABEL_W = 4
CORNER = "y\\x"
#: The last tile laid stands where the marked column (``▾2``) and row (``▸-1``) cross; with colour
#: it has the lighter field too.
LAST_COLUMN = "▾"
LAST_ROW = "▸"
FIT_BG = "on #fff3bf"


class Window(BoardWindow):
    """The part of the board shown: columns ``x0..x1``, rows ``y0..y1`` (inclusive) of the whole
    extent ``full`` (``x0, x1, y0, y1``)."""

    def note(self, hidden: int = 0) -> str:
        """What is cut, and where to see the rest."""
        fx0, fx1, fy0, fy1 = self.full
        parts = []
        if (self.y0, self.y1) != (fy0, fy1):
            parts.append(f"y {self.y1}..{self.y0} of {fy1}..{fy0}")
        if (self.x0, self.x1) != (fx0, fx1):
            parts.append(f"x {self.x0}..{self.x1} of {fx0}..{fx1}")
        text = f"board cut to fit: {', '.join(parts)} ('board' shows it all)"
        if hidden:
            text += f"; {plural(hidden, 'more place')} in the menu"
        return text


# -- what to show ---------------------------------------------------------------------------------------


def fit_positions(state: CarcassonneState) -> dict[Pos, list[int]]:
    """Free positions where the drawn tile fits -> its rotations there (place phase only)."""
    if state.terminal or state.phase != PH_PLACE:
        return {}
    out: dict[Pos, list[int]] = {}
    for pos, rotation in state.placements(state.drawn):
        out.setdefault(pos, []).append(rotation)
    return out


def extent(state: CarcassonneState, extra: Iterable[Pos] = ()) -> tuple[int, int, int, int]:
    """``x0, x1, y0, y1`` of the tiles and ``extra`` positions."""
    return bounds([*state.board, *extra]) or (0, 0, 0, 0)


def last_placed(state: CarcassonneState) -> Pos | None:
    """The position of the last tile laid (``None`` before the first)."""
    node = state._hist
    while node is not None:
        action = node[2]
        if isinstance(action, Action) and action.kind == PLACE:
            return action.pos
        node = node[0]
    return None


def focus_positions(state: CarcassonneState) -> list[Pos]:
    """Where the action is: where the drawn tile fits with the last tile laid, the tile just laid,
    or the last one laid."""
    fits = fit_positions(state)
    if fits:
        last = last_placed(state)
        return sorted(fits) + ([last] if last is not None else [])
    placed = state.placed
    if placed is not None:
        return [placed]
    last = last_placed(state)
    return [last] if last is not None else [(0, 0)]


def choose_window(full: tuple[int, int, int, int], cols: int, rows: int, focus: Sequence[Pos]) -> Window:
    """A window of at most ``cols`` x ``rows`` positions inside ``full`` holding as many ``focus``
    positions as possible, then centred on them."""
    fx0, fx1, fy0, fy1 = full
    cols = max(1, min(cols, fx1 - fx0 + 1))
    rows = max(1, min(rows, fy1 - fy0 + 1))
    pts = list(focus) or [((fx0 + fx1) // 2, (fy0 + fy1) // 2)]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    best: tuple[float, ...] | None = None
    chosen = (fx0, fy0)
    for x0 in range(fx0, fx1 - cols + 2):
        for y0 in range(fy0, fy1 - rows + 2):
            inside = sum(1 for p in pts if x0 <= p[0] < x0 + cols and y0 <= p[1] < y0 + rows)
            off = abs(x0 + (cols - 1) / 2 - cx) + abs(y0 + (rows - 1) / 2 - cy)
            key = (-inside, off, -y0, x0)
            if best is None or key < best:
                best = key
                chosen = (x0, y0)
    x0, y0 = chosen
    return Window(x0, x0 + cols - 1, y0, y0 + rows - 1, full)


def whole_window(state: CarcassonneState) -> Window:
    """The whole board with the positions where the drawn tile fits."""
    full = extent(state, fit_positions(state))
    return Window(*full, full=full)


# -- cells ------------------------------------------------------------------------------------------------


def _glyph_style(glyph: str, field_bg: str) -> str:
    if glyph == CITY_GLYPH:
        return f"{CITY_FG} on {CITY_BG}"
    if glyph == PENNANT_GLYPH:
        return f"bold {PENNANT_FG} on {CITY_BG}"
    if glyph == FIELD_GLYPH:
        return f"#3f6e22 on {field_bg}"
    if glyph == CLOISTER_GLYPH:
        return f"bold {CLOISTER_FG} on {field_bg}"
    if glyph == SHRINE_GLYPH:
        return f"bold {SHRINE_FG} on {field_bg}"
    return f"bold {ROAD_FG} on {field_bg}"


def tile_cell(
    turned: Turned,
    followers: Mapping[int, int] | None = None,
    options: Mapping[int, int] | None = None,
    shade: int = 0,
    placed: bool = False,
) -> list[Text]:
    """A tile as 3 styled lines of 5 characters: ``followers`` segment -> seat; ``options``
    segment -> the menu number of a follower option (written on the feature's anchor)."""
    painted = paint(turned)
    bg = (PLACED_BG if placed else FIELD_BG)[shade % 2]
    rows = [[(g, _glyph_style(g, bg)) for g in line] for line in painted.glyphs]
    for segment, seat in (followers or {}).items():
        col, line = painted.anchors[segment]
        rows[line][col] = (follower_mark(seat, turned.segments[segment].kind), seat_style(seat))
    for segment, number in (options or {}).items():
        col, line = painted.anchors[segment]
        label = str(number)
        if col + len(label) > CELL_W:
            col = CELL_W - len(label)
        for k, ch in enumerate(label):
            rows[line][col + k] = (ch, OPTION_STYLE)
    out = []
    for chars in rows:
        text = Text()
        for ch, style in chars:
            text.append(ch, style=style)
        out.append(text)
    return out


def fit_cell(options: Sequence[tuple[int, int | None]]) -> list[Text]:
    """A free position where the drawn tile fits: one ``number+arrow`` per rotation (``12→``), or
    ``+`` when there are no menu numbers; ``options``: (rotation, number)."""
    labels = [f"{'' if n is None else n}{ROTATION_ARROWS.get(r, '?')}" for r, n in options]
    if all(n is None for _, n in options):
        labels = ["+" + "".join(ROTATION_ARROWS.get(r, "?") for r, _ in options)]
    lines: list[str] = []
    for label in labels:
        if lines and len(lines) >= CELL_H and len(lines[-1]) + len(label) <= CELL_W:
            lines[-1] += label
        else:
            lines.append(label)
    lines = lines[:CELL_H]
    if len(lines) == 1:
        lines = ["", lines[0], ""]
    while len(lines) < CELL_H:
        lines.append("")
    out = []
    for line in lines:
        text = Text()
        pad = CELL_W - len(line)
        text.append(" " * (pad // 2), style=FIT_BG)
        text.append(line[:CELL_W], style=FIT_STYLE)
        text.append(" " * (CELL_W - len(line[:CELL_W]) - pad // 2), style=FIT_BG)
        out.append(text)
    return out


def _blank() -> list[Text]:
    return [Text(" " * CELL_W) for _ in range(CELL_H)]


# -- the board ----------------------------------------------------------------------------------------------


def board_width(cols: int) -> int:
    """Columns of a board window ``cols`` positions wide."""
    return LABEL_W + CELL_W * cols


def standing(state: CarcassonneState) -> dict[Pos, tuple[int, int]]:
    """The followers to draw: those on the board (pos -> (seat, segment)); once the game is over,
    those that stood on the board at the final scoring (which sends every follower home)."""
    return dict(state.at_end if state.terminal else state.meeples)


def followers_at(state: CarcassonneState) -> dict[Pos, dict[int, int]]:
    """pos -> {segment: seat} for every follower to draw (see :func:`standing`)."""
    out: dict[Pos, dict[int, int]] = {}
    for pos, (seat, segment) in standing(state).items():
        out.setdefault(pos, {})[segment] = seat
    return out


def follower_options(state: CarcassonneState, numbers: Mapping[Action, int]) -> dict[int, int]:
    """segment -> menu number of each follower option on the tile just laid."""
    placed = state.placed
    if placed is None or state.phase != PH_FOLLOWER or not numbers:
        return {}
    turned = state.turned(placed)
    out = {}
    for action, number in numbers.items():
        if action.kind == FOLLOWER:
            index = turned.segment_named(action.feature, action.side or action.feature)
            if index >= 0:
                out[index] = number
    return out


def render_board(state: CarcassonneState, window: Window | None = None, numbers: bool = True) -> Text:
    """The board (or ``window`` of it) as text, north up; ``numbers``: write the menu's numbers on
    the positions where the drawn tile fits and on the follower options (else ``+`` marks)."""
    if window is None:
        window = whole_window(state)
    menu = menu_numbers(state) if numbers else {}
    fits = fit_positions(state)
    by_place = {(a.pos, a.rotation): n for a, n in menu.items() if a.kind == PLACE}
    options = follower_options(state, menu)
    placed = state.placed
    last = placed if placed is not None else last_placed(state)
    followers = followers_at(state)
    board = state.board
    lines: list[Text] = []
    head = Text()
    head.append(CORNER.ljust(LABEL_W), style="dim")
    for x in range(window.x0, window.x1 + 1):
        if last is not None and x == last[0]:
            head.append(f"{LAST_COLUMN}{x}".center(CELL_W), style="bold yellow")
        else:
            head.append(str(x).center(CELL_W), style="dim")
    lines.append(head)
    for y in range(window.y1, window.y0 - 1, -1):
        row = [Text() for _ in range(CELL_H)]
        for k in range(CELL_H):
            row[k].append(str(y).rjust(LABEL_W - 1) + " " if k == 1 else " " * LABEL_W, style="dim")
        if last is not None and y == last[1]:
            row[1] = Text(f"{LAST_ROW}{y}".rjust(LABEL_W - 1)[:LABEL_W].ljust(LABEL_W), style="bold yellow")
        for x in range(window.x0, window.x1 + 1):
            pos = (x, y)
            if pos in board:
                cell = tile_cell(
                    state.turned(pos),
                    followers.get(pos),
                    options if pos == placed else None,
                    (x + y) % 2,
                    pos == last,
                )
            elif pos in fits:
                cell = fit_cell([(r, by_place.get((pos, r))) for r in fits[pos]])
            else:
                cell = _blank()
            for k in range(CELL_H):
                row[k].append_text(cell[k])
        lines.extend(row)
    out = Text("\n").join(line for line in lines)
    out.no_wrap = True
    out.overflow = "crop"
    return out


def hidden_fits(state: CarcassonneState, window: Window) -> int:
    """How many positions where the drawn tile fits lie outside ``window``."""
    return sum(1 for pos in fit_positions(state) if not window.holds(pos))


def describe_window(window: Window, state: CarcassonneState) -> str:
    """The note under a cut board (empty when nothing is cut)."""
    return window.note(hidden_fits(state, window)) if window.cut else ""


__all__ = [
    "CORNER",
    "LABEL_W",
    "Window",
    "board_width",
    "choose_window",
    "describe_window",
    "extent",
    "fit_cell",
    "fit_positions",
    "focus_positions",
    "follower_options",
    "followers_at",
    "hidden_fits",
    "last_placed",
    "render_board",
    "standing",
    "tile_cell",
    "whole_window",
]
