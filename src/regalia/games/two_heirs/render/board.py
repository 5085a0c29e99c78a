"""The play area of The Two Heirs for a terminal: full cells, compact cells and a viewport.

On the board, north (``+y``) is up: white sits at the bottom, blue at the top. Two cell forms:

* **full** (4 lines x 11 columns, a boxed grid): the owner's marker (``▲`` a building facing
  white, ``▼`` one facing blue, ``(id)`` and ``░`` shading face down) and the tile id, the colour
  letter in the top right corner (``w`` green wood, ``s`` grey stone, ``g`` yellow grain), the
  building's name, units, roads as marks on the edges they reach (``┃`` north and south, ``━``
  east and west), a treasure token (solo) on the last line;
* **compact** (2 lines x 9 columns): ``▲W2 s W★``: marker, id, colour letter and units; then the
  short name, a treasure token and one road glyph (``│ ─ └ ┼ ...``: the sides a road reaches).

Units are ``W`` / ``B`` tokens: the elite with a star (``W★``), a unit that moved this turn shows
its cross (``W†``). Free positions where the player to move may play a tile read ``+ x,y``.

A :class:`Window` shows part of a board that does not fit, centred on the action (the units of
the player to move, where they may play, the last buildings); its note tells what is cut.

>>> import regalia, random
>>> from rich.console import Console
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> console = Console(width=80, no_color=True)
>>> with console.capture() as cap:
...     console.print(render_board(state, compact=True))
>>> print(cap.get().splitlines()[3].rstrip())  # the starting tile holds both elites
  0 +-1,0     ░T4 w     +1,0
>>> print(cap.get().splitlines()[4].rstrip())
              W★B★
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.render.style import (
    COLOUR_LEGEND,
    ELITE_MARK,
    FACE_DOWN,
    FACE_DOWN_MARK,
    FACE_DOWN_TEXT,
    FACE_UP,
    MARKER_STYLES,
    MARKERS,
    MOVED_MARK,
    SEAT_LETTERS,
    TREASURE_MARK,
    TREASURE_STYLE,
    UNIT_STYLES,
    colour_letter,
    is_henry,
    short_name,
)
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import START, UNITS_PER_SEAT, TwoHeirsState
from regalia.games.two_heirs.tiles import Tile
from regalia.render.window import Window as BoardWindow
from regalia.render.window import bounds

CELL_W = 11
MID = CELL_W // 2
#: Compact cells: 9 columns and a space between them; 2 lines per row.
COMPACT_W = 9
#: The label column (y) of both forms: ``y\x`` and up to 3-character labels.
LABEL_W = 3
CORNER = "y\\x"

#: Full form: lines around the rows (title, borders, header, legend) and per row; columns.
FULL_FIXED_LINES = 6
FULL_ROW_LINES = 5
FULL_FIXED_COLS = LABEL_W + 2
FULL_COL_W = CELL_W + 1
#: Compact form: header line and per row; columns.
COMPACT_FIXED_LINES = 1
COMPACT_ROW_LINES = 2
COMPACT_FIXED_COLS = LABEL_W + 1
COMPACT_COL_W = COMPACT_W + 1

BOARD_TITLE = "Play area: north up (blue sits north, white south)"
BOARD_LEGEND = (
    f"▲ faces white  ▼ faces blue  ░ face down  ┃━ roads  + x,y playable  "
    f"W B units (★ elite, † moved)  ◂ last turn  ·  {COLOUR_LEGEND}"
)
COMPACT_LEGEND = "▲white ▼blue ░face down · w/s/g green/grey/yellow ★elite †moved ┼road ◂last"

#: One glyph for the sides a road reaches (board frame).
ROAD_GLYPHS: dict[frozenset[str], str] = {
    frozenset(k): v
    for k, v in {
        "N": "╵",
        "E": "╶",
        "S": "╷",
        "W": "╴",
        "NS": "│",
        "EW": "─",
        "NE": "└",
        "ES": "┌",
        "SW": "┐",
        "NW": "┘",
        "NES": "├",
        "ESW": "┬",
        "NSW": "┤",
        "NEW": "┴",
        "NESW": "┼",
    }.items()
}

Unit = tuple[int, bool, bool]  # seat, elite, moved


class Window(BoardWindow):
    """The part of the board shown: columns ``x0..x1`` and rows ``y0..y1`` (inclusive) of the
    whole extent ``full`` (``x0, x1, y0, y1``)."""

    def note(self) -> str:
        """What is cut, and where to see it all."""
        fx0, fx1, fy0, fy1 = self.full
        parts = []
        where = []
        if (self.y0, self.y1) != (fy0, fy1):
            parts.append(f"rows y {self.y1}..{self.y0} of {fy1}..{fy0}")
            where.append("the 'board' command shows every row")
        if (self.x0, self.x1) != (fx0, fx1):
            parts.append(f"columns x {self.x0}..{self.x1} of {fx0}..{fx1}")
            where.append("a wider terminal shows every column")
        return f"board cut to fit: {', '.join(parts)}; {' and '.join(where)}"


def playable_positions(state: TwoHeirsState) -> list[Pos]:
    """Free positions where the seat to move may play a tile (none for Henry or a finished game)."""
    if state.is_terminal() or is_henry(state, state.player) or not state.board:
        return []
    return state.placements(state.player)


def extent(state: TwoHeirsState, playable: Iterable[Pos] = ()) -> tuple[int, int, int, int] | None:
    """``x0, x1, y0, y1`` of the board and the playable positions (``None``: nothing to draw)."""
    return bounds([*state.board, *playable])


def focus_positions(state: TwoHeirsState, playable: Sequence[Pos]) -> list[Pos]:
    """Where the action is: the units of the seat to move, where it may play, the last buildings."""
    out = [p for p in state.unit_positions(state.player)]
    out += list(playable)
    out += [p for p in state.last_built if p is not None]
    return out or list(state.board) or [START]


def choose_window(full: tuple[int, int, int, int], cols: int, rows: int, focus: Sequence[Pos]) -> Window:
    """A window of at most ``cols`` x ``rows`` cells inside ``full``, centred on ``focus``."""
    fx0, fx1, fy0, fy1 = full
    cols = max(1, min(cols, fx1 - fx0 + 1))
    rows = max(1, min(rows, fy1 - fy0 + 1))
    pts = [p for p in focus if fx0 <= p[0] <= fx1 and fy0 <= p[1] <= fy1] or [(fx0, fy0)]
    # the focus of the seat to move comes first: its units (the first points)
    cx = (min(p[0] for p in pts) + max(p[0] for p in pts)) // 2
    cy = (min(p[1] for p in pts) + max(p[1] for p in pts) + 1) // 2
    x0 = min(max(fx0, cx - (cols - 1) // 2), fx1 - cols + 1)
    y0 = min(max(fy0, cy - rows // 2), fy1 - rows + 1)
    return Window(x0, x0 + cols - 1, y0, y0 + rows - 1, full)


def units_by_pos(state: TwoHeirsState) -> dict[Pos, list[Unit]]:
    """pos -> [(seat, elite, moved)] for every unit on the board."""
    out: dict[Pos, list[Unit]] = {}
    for i, pos in enumerate(state.units):
        if pos is None:
            continue
        out.setdefault(pos, []).append(
            (i // UNITS_PER_SEAT, i % UNITS_PER_SEAT == 0, bool(state.moved >> i & 1))
        )
    return out


def treasures_by_pos(state: TwoHeirsState) -> dict[Pos, str]:
    """pos -> treasure token id (solo)."""
    if not isinstance(state, SoloState):
        return {}
    return {pos: state.tset.tokens[t].id for pos, t in state.treasures}


def unit_token(seat: int, elite: bool, moved: bool) -> str:
    """``W★``, ``B†``: the seat's letter, the elite's star, the cross of a unit that moved."""
    return SEAT_LETTERS[seat] + (ELITE_MARK if elite else "") + (MOVED_MARK if moved else "")


def road_sides(tile: Tile, owner: int) -> frozenset[str]:
    """The board-frame sides a building's roads reach."""
    if owner < 0:
        return frozenset()
    return frozenset(to_global(d, owner) for sec in tile.roads for d in sec)


# -- full cells -----------------------------------------------------------------------------------


def _line(chars: list[tuple[str, str]]) -> Text:
    text = Text()
    for ch, style in chars:
        text.append(ch, style=style)
    return text


def fit_name(building: str, width: int) -> str:
    """A building's name in at most ``width`` columns, never cut mid-word: the whole name when it
    fits (``cathedral``), else its short name (``trading``), else that without its inner vowels
    (``trdng``).

    >>> fit_name("cathedral", 9), fit_name("trading-post", 9), fit_name("trading-post", 5)
    ('cathedral', 'trading', 'trdng')
    >>> fit_name("sawmill", 5), fit_name("marketplace", 5), fit_name("inn", 5)
    ('swmll', 'mrkt', 'inn')
    """
    whole = building.replace("-", " ")
    return whole if len(whole) <= width else short_name(building, width)


def full_cell(tile: Tile, owner: int, units: list[Unit], is_start: bool, treasure: str | None) -> Text:
    """A tile as 4 lines of 11 columns (see the module docstring)."""
    face_up = owner >= 0
    base = FACE_UP[tile.colour] if face_up else FACE_DOWN[tile.colour]
    fill = " " if face_up else FACE_DOWN_MARK
    text_style = FACE_UP[tile.colour] if face_up else FACE_DOWN_TEXT[tile.colour]
    rows = [[(fill, base) for _ in range(CELL_W)] for _ in range(4)]

    def put(row: int, col: int, s: str, style: str) -> None:
        for k, ch in enumerate(s):
            if 0 <= col + k < CELL_W:
                rows[row][col + k] = (ch, style)

    if face_up:
        put(0, 0, MARKERS[owner], MARKER_STYLES[owner])
        put(0, 1, tile.id[:4], "bold " + text_style)
    else:
        put(0, 0, f"({tile.id[:3]})", text_style)
    put(0, CELL_W - 1, colour_letter(tile.colour), "bold " + text_style)
    label = fit_name(tile.building, CELL_W - 2) if face_up else ("start" if is_start else "terrain")
    put(1, 1 + (CELL_W - 2 - len(label)) // 2, label, ("bold " if face_up else "") + text_style)
    sides = road_sides(tile, owner)
    if sides:
        road_style = "bold #5a3a1a on " + base.split(" on ")[1]
        if "N" in sides:
            put(0, MID, "┃", road_style)
        if "S" in sides:
            put(3, MID, "┃", road_style)
        if "W" in sides:
            put(1, 0, "━", road_style)
        if "E" in sides:
            put(1, CELL_W - 1, "━", road_style)
    if units:
        tokens = [(unit_token(*u), UNIT_STYLES[u[0]]) for u in sorted(units)]
        width = sum(len(t) for t, _ in tokens) + len(tokens) - 1
        col = (CELL_W - width) // 2
        for t, style in tokens:
            put(2, col, t, style)
            col += len(t) + 1
    if treasure:
        put(3, 0, f"{TREASURE_MARK}{treasure}", TREASURE_STYLE)
    return Text("\n").join(_line(r) for r in rows)


def _empty_full(pos: Pos, playable: bool) -> Text:
    if not playable:
        return Text("\n".join(" " * CELL_W for _ in range(4)))
    label = "+ " + format_pos(pos)
    lines = [" " * CELL_W, label.center(CELL_W), " " * CELL_W, " " * CELL_W]
    return Text("\n".join(lines), style="bold #c0c0ff")


# -- compact cells --------------------------------------------------------------------------------


def compact_cell(tile: Tile, owner: int, units: list[Unit], is_start: bool, treasure: str | None) -> Text:
    """A tile as 2 lines of 9 columns (see the module docstring)."""
    face_up = owner >= 0
    style = FACE_UP[tile.colour] if face_up else FACE_DOWN_TEXT[tile.colour]
    top = Text(style=style)
    if face_up:
        top.append(MARKERS[owner], style=MARKER_STYLES[owner])
    else:
        top.append(FACE_DOWN_MARK)
    head = f"{tile.id[:3]:<3}"
    top.append(head, style="bold")
    top.append(colour_letter(tile.colour), style="bold")
    tokens = [(unit_token(*u), UNIT_STYLES[u[0]]) for u in sorted(units)]
    room = COMPACT_W - len(top) - 1
    label = short_name(tile.building, COMPACT_W - 1) if face_up else ("start" if is_start else "terrain")
    units_line = Text()
    for t, s in tokens:
        units_line.append(t, style=s)
    if len(units_line) <= room:
        top.append(" ")
        top.append_text(units_line)
    else:  # both elites on the starting tile: the units take the second line
        label = units_line.plain
    top.append(" " * (COMPACT_W - len(top)))
    sides = road_sides(tile, owner)
    glyph = ROAD_GLYPHS.get(sides, "+") if sides else " "
    bottom = Text(style=style)
    if treasure:
        mark = f"{TREASURE_MARK}{treasure}"
        name = fit_name(tile.building, COMPACT_W - len(mark) - 2) if face_up else label
        name = name[: COMPACT_W - len(mark) - 2]
        bottom.append(f"{name:<{COMPACT_W - len(mark) - 1}}")
        bottom.append(mark, style=TREASURE_STYLE)
    elif len(units_line) > room:
        bottom.append_text(units_line)
        bottom.append(" " * (COMPACT_W - 1 - len(units_line)))
    else:
        bottom.append(f"{label[: COMPACT_W - 1]:<{COMPACT_W - 1}}")
    bottom.append(glyph, style="bold #5a3a1a" if sides else "")
    return Text("\n").join([top, bottom])


def _empty_compact(pos: Pos, playable: bool) -> Text:
    if not playable:
        return Text(" " * COMPACT_W + "\n" + " " * COMPACT_W)
    label = f"+{format_pos(pos)}"[:COMPACT_W]
    return Text(f"{label:<{COMPACT_W}}\n" + " " * COMPACT_W, style="bold #c0c0ff")


# -- the board --------------------------------------------------------------------------------------


def board_lines(rows: int, compact: bool) -> int:
    """Lines of a board of ``rows`` rows (title/header and legend included in the full form)."""
    if compact:
        return COMPACT_FIXED_LINES + COMPACT_ROW_LINES * rows
    return FULL_FIXED_LINES + FULL_ROW_LINES * rows - 1


def board_columns(cols: int, compact: bool) -> int:
    """Columns of a board of ``cols`` columns."""
    if compact:
        return COMPACT_FIXED_COLS + COMPACT_COL_W * cols
    return FULL_FIXED_COLS + FULL_COL_W * cols


def fit_window(
    state: TwoHeirsState, playable: Sequence[Pos], compact: bool, width: int | None, lines: int | None
) -> Window | None:
    """The largest window of the board that fits ``width`` columns and ``lines`` lines."""
    full = extent(state, playable)
    if full is None:
        return None
    cols = full[1] - full[0] + 1
    rows = full[3] - full[2] + 1
    if width is not None:
        fixed, per = (COMPACT_FIXED_COLS, COMPACT_COL_W) if compact else (FULL_FIXED_COLS, FULL_COL_W)
        cols = min(cols, max(1, (width - fixed) // per))
    if lines is not None:
        if compact:
            rows = min(rows, max(1, (lines - COMPACT_FIXED_LINES) // COMPACT_ROW_LINES))
        else:
            rows = min(rows, max(1, (lines - FULL_FIXED_LINES + 1) // FULL_ROW_LINES))
    return choose_window(full, cols, rows, focus_positions(state, playable))


def render_board(
    state: TwoHeirsState,
    playable: Sequence[Pos] | None = None,
    *,
    compact: bool = False,
    window: Window | None = None,
    legend: bool = True,
) -> RenderableType:
    """The play area as a grid of tiles, north up, with x across and y down the side.

    ``playable``: free positions to mark (default: :func:`playable_positions`); ``compact``: the
    2-line cells; ``window``: the part to show (default: all of it; a note tells what is cut);
    ``legend``: the full form's title and legend lines.
    """
    if playable is None:
        playable = playable_positions(state)
    if window is None:
        full = extent(state, playable)
        if full is None:
            return Text("The play area is empty: chance deals the royal reserve and the starting landscape.")
        window = Window(*full, full=full)
    marks = set(playable)
    units = units_by_pos(state)
    treasures = treasures_by_pos(state)
    board = state.board
    tiles = state.tiles
    cell = compact_cell if compact else full_cell
    empty = _empty_compact if compact else _empty_full

    touched = last_positions(state)

    def draw(pos: Pos) -> Text:
        code = board.get(pos)
        if code is None:
            return empty(pos, pos in marks)
        out = cell(tiles[tile_of(code)], owner_of(code), units.get(pos, []), pos == START, treasures.get(pos))
        if not compact and pos in touched:  # the mark in the free bottom-right corner
            lines = out.split("\n")
            corner = lines[-1]
            corner.right_crop(1)
            corner.append(LAST_MARK, style=LAST_STYLE)
            out = Text("\n").join(lines)
        return out

    parts: list[RenderableType] = []
    if compact:
        parts.append(_compact_grid(window, draw, touched))
        if legend:
            parts.append(board_legend(True, isinstance(state, SoloState)))
    else:
        table = Table(box=box.SQUARE, show_lines=True, padding=0)
        table.add_column("y\\x", justify="right", style="bold", vertical="middle", no_wrap=True)
        for x in range(window.x0, window.x1 + 1):
            table.add_column(str(x), width=CELL_W, justify="left", no_wrap=True, header_style="bold")
        for y in range(window.y1, window.y0 - 1, -1):
            table.add_row(Text(str(y)), *(draw((x, y)) for x in range(window.x0, window.x1 + 1)))
        if legend:
            parts.append(Text(BOARD_TITLE, style="bold"))
        parts.append(table)
        if legend:
            parts.append(board_legend(False, bool(treasures) or isinstance(state, SoloState)))
    if window.cut:
        parts.append(Text(window.note(), style="italic"))
    return Group(*parts)


def board_legend(compact: bool, solo: bool = False) -> Text:
    """The legend under the board (one line at 80 columns in the compact form)."""
    return Text((COMPACT_LEGEND if compact else BOARD_LEGEND) + (" ◆treasure" if solo else ""), style="dim")


#: After (compact) or in the corner of (full) a tile the last turn laid, moved onto or took from.
LAST_MARK = "◂"
LAST_STYLE = "bold yellow"


def last_positions(state: TwoHeirsState) -> set[Pos]:
    """The tiles the latest turn touched: laid, or a unit moved onto, called to or withdrawn from."""
    from regalia.games.two_heirs.render.labels import last_marks

    last = last_marks(state)
    return set(last.tiles) | {pos for _, pos in last.units}


def _compact_grid(window: Window, draw: Callable[[Pos], Text], touched: Collection[Pos] = ()) -> Text:
    """The compact grid: a header of x labels, then 2 lines per row (y label on the first); a tile
    the last turn touched is followed by :data:`LAST_MARK`."""
    lines: list[Text] = []
    head = Text(f"{CORNER:>{LABEL_W}} ", style="bold")
    for x in range(window.x0, window.x1 + 1):
        head.append(f"{x:^{COMPACT_W}} ", style="bold")
    lines.append(head)
    for y in range(window.y1, window.y0 - 1, -1):
        cells = [draw((x, y)) for x in range(window.x0, window.x1 + 1)]
        for k in range(COMPACT_ROW_LINES):
            line = Text(f"{y:>{LABEL_W}} " if k == 0 else " " * (LABEL_W + 1), style="bold")
            for x, c in zip(range(window.x0, window.x1 + 1), cells, strict=True):
                line.append_text(c.split("\n")[k])
                line.append(LAST_MARK if (x, y) in touched else " ", style=LAST_STYLE)
            line.rstrip()
            lines.append(line)
    return Text("\n").join(lines)


__all__ = [
    "BOARD_LEGEND",
    "BOARD_TITLE",
    "CELL_W",
    "COMPACT_LEGEND",
    "COMPACT_W",
    "ROAD_GLYPHS",
    "Window",
    "board_columns",
    "board_legend",
    "board_lines",
    "choose_window",
    "compact_cell",
    "extent",
    "fit_window",
    "focus_positions",
    "full_cell",
    "playable_positions",
    "render_board",
    "road_sides",
    "treasures_by_pos",
    "unit_token",
    "units_by_pos",
]
