"""The Two Heirs' board as SVG parts: tiles (colour, owner and orientation, building names,
roads), units (elite and moved marks), treasures and the playable positions, shared by the whole
picture (:func:`~.svg.render_svg`) and the browser table's board (:func:`~.table.render_board`).

Every tile and unit carries ``data-pos``; the parts the last ply laid or moved carry ``data-last``
(:func:`~.labels.last_marks`); a clickable unit has a transparent target of 44 units below its
cell's centre and ``CENTRE_CLEAR`` units clear of it (so the centre of a camp under it stays the
camp's).

>>> unit(0, False, False, 10, 10).count("<circle"), ">W</text>" in unit(0, False, False, 10, 10)
(1, True)
"""

from __future__ import annotations

import textwrap

from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.render.board import playable_positions, units_by_pos
from regalia.games.two_heirs.render.labels import NOTHING, Last
from regalia.games.two_heirs.render.parts import (
    CELL,
    CLEAR,
    ELITE,
    FILL,
    FILL_DOWN,
    ROAD,
    SEAT_FILL,
    SEAT_INK,
    SEAT_NAME,
    SEAT_STROKE,
    TARGET,
    TREASURE,
    Choices,
)
from regalia.games.two_heirs.render.style import COLOUR_LETTERS, building_words, seat_label
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import START, TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile
from regalia.render.svg import INK, Frame, board_ground, el, title, txt
from regalia.render.svg import fmt as _fmt

# How far below a cell's centre a clickable unit's target starts (units): the click on a camp or a
# siege under the unit lands on the tile, whatever the zoom's rounding.
CENTRE_CLEAR = 8

_SIDE_VEC = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}


def roads(tile: Tile, owner: int, cx: float, cy: float) -> str:
    out = []
    half = CELL / 2
    for section in tile.roads:
        sides = [to_global(d, owner) for d in sorted(section)]
        if len(sides) == 1:
            dx, dy = _SIDE_VEC[sides[0]]
            out.append(
                el(
                    "line",
                    {
                        "x1": cx + dx * half,
                        "y1": cy + dy * half,
                        "x2": cx + dx * half * 0.35,
                        "y2": cy + dy * half * 0.35,
                        "stroke": ROAD,
                        "stroke-width": 6,
                    },
                )
            )
            out.append(
                el("circle", {"cx": cx + dx * half * 0.35, "cy": cy + dy * half * 0.35, "r": 4, "fill": ROAD})
            )
            continue
        points = []
        for k, side in enumerate(sides):
            dx, dy = _SIDE_VEC[side]
            if k:
                points.append(f"{_fmt(cx)},{_fmt(cy)}")
            points.append(f"{_fmt(cx + dx * half)},{_fmt(cy + dy * half)}")
        out.append(
            el(
                "polyline",
                {
                    "points": " ".join(points),
                    "fill": "none",
                    "stroke": ROAD,
                    "stroke-width": 6,
                    "stroke-linejoin": "round",
                },
            )
        )
    return "".join(out)


def tile_cell(
    state: TwoHeirsState,
    frame: Frame,
    pos: Pos,
    code: int,
    treasure: str | None,
    choices: Choices | None,
    last: Last = NOTHING,
) -> str:
    """The tile at ``pos`` (``code``: its packed cell), clickable for a camp or a siege."""
    tile = state.tiles[tile_of(code)]
    owner = owner_of(code)
    x, y = frame.corner(pos)
    cx, cy = frame.centre(pos)
    face_up = owner >= 0
    who = (
        f"{seat_label(state, owner)}'s building"
        if face_up
        else ("the starting landscape (face down)" if pos == START else "free terrain (face down)")
    )
    colour = f"{COLOURS[tile.colour]} ({RESOURCES[tile.colour]})"
    tip = f"{format_pos(pos)}: {tile.id} {tile.building}, {colour}, {who}"
    parts = [title(tip)]
    parts.append(
        el(
            "rect",
            {
                "x": x + 1,
                "y": y + 1,
                "width": CELL - 2,
                "height": CELL - 2,
                "rx": 4,
                "fill": FILL[tile.colour] if face_up else FILL_DOWN[tile.colour],
                "stroke": "#333333",
                "stroke-width": 1,
            },
        )
    )
    if not face_up:
        parts.append(
            el(
                "rect",
                {
                    "x": x + 1,
                    "y": y + 1,
                    "width": CELL - 2,
                    "height": CELL - 2,
                    "rx": 4,
                    "fill": "url(#down)",
                },
            )
        )
    else:
        # the owner's edge: a building faces its owner (white sits south, blue north)
        band_y = y + CELL - 9 if owner == 0 else y + 1
        parts.append(
            el(
                "rect",
                {
                    "x": x + 1,
                    "y": band_y,
                    "width": CELL - 2,
                    "height": 8,
                    "fill": SEAT_FILL[owner],
                    "stroke": SEAT_STROKE[owner],
                    "stroke-width": 1,
                },
            )
        )
        parts.append(roads(tile, owner, cx, cy))
    # the tile's words, turned towards the owner (blue's buildings read upside down)
    words = [
        txt(x + 11, y + 23, tile.id, 12, font_weight="bold"),
        txt(x + CELL - 12, y + 23, COLOUR_LETTERS[tile.colour], 12, anchor="end", font_weight="bold"),
        *(
            name_lines(cx, cy - 1, building_words(tile), CELL - 8)
            if face_up
            else [txt(cx, cy + 5, "start" if pos == START else "terrain", 11, anchor="middle")]
        ),
    ]
    rotate = f"rotate(180 {_fmt(cx)} {_fmt(cy)})" if owner == 1 else None
    parts.append(el("g", {"transform": rotate, "fill": INK if face_up else "#ffffff"}, *words))
    if treasure is not None:
        tx, ty = cx, y + 23
        parts.append(
            el(
                "g",
                {"class": "treasure", "data-treasure": treasure},
                el(
                    "polygon",
                    {
                        "points": f"{_fmt(tx)},{_fmt(ty - 10)} {_fmt(tx + 10)},{_fmt(ty)} "
                        f"{_fmt(tx)},{_fmt(ty + 10)} {_fmt(tx - 10)},{_fmt(ty)}",
                        "fill": TREASURE,
                        "stroke": "#7a5a00",
                    },
                ),
                txt(tx, ty + 3.5, treasure, 8, anchor="middle", font_weight="bold"),
            )
        )
    attrs: dict[str, object] = {
        "class": "tile",
        "data-pos": format_pos(pos),
        "data-tile": tile.id,
        "data-colour": COLOURS[tile.colour],
        "data-owner": SEAT_NAME[owner] if face_up else "none",
        "data-last": "true" if pos in last.tiles else None,
    }
    if choices is not None:
        action = choices.destroy.get(pos)
        if action is None and face_up and tile.index in choices.camp:
            action = choices.camp[tile.index]
        if action is not None:
            attrs = choices.act(attrs, action)
            parts.append(
                el(
                    "rect",
                    {
                        "x": x + 3,
                        "y": y + 3,
                        "width": CELL - 6,
                        "height": CELL - 6,
                        "fill": "none",
                        "stroke": "#d6336c",
                        "stroke-width": 4,
                        "stroke-dasharray": "8 4",
                    },
                )
            )
    return el("g", attrs, *parts)


def unit(seat: int, elite: bool, moved: bool, cx: float, cy: float, r: float = 11) -> str:
    """A unit token: the seat's colour, ``E`` and a gold ring for the elite, a cross once moved."""
    parts = [
        el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r,
                "fill": SEAT_FILL[seat],
                "stroke": ELITE if elite else SEAT_STROKE[seat],
                "stroke-width": 3.5 if elite else 1.5,
            },
        ),
        txt(
            cx,
            cy + 4,
            ("E" if elite else "") or SEAT_NAME[seat][0].upper(),
            10,
            anchor="middle",
            font_weight="bold",
            fill=SEAT_INK[seat],
        ),
    ]
    if moved:  # the token is flipped: its cross shows
        d = r * 0.75
        for x1, y1, x2, y2 in ((cx - d, cy - d, cx + d, cy + d), (cx - d, cy + d, cx + d, cy - d)):
            parts.append(
                el("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": "#c92a2a", "stroke-width": 2.5})
            )
    return "".join(parts)


def units(state: TwoHeirsState, frame: Frame, choices: Choices | None, last: Last = NOTHING) -> str:
    """Every unit on the board; the seat to act's units that may move open their layer."""
    out = []
    for pos, here in sorted(units_by_pos(state).items()):
        cx, cy = frame.centre(pos)
        n = len(here)
        for k, (seat, elite, moved) in enumerate(sorted(here)):
            ux = cx + (k - (n - 1) / 2) * 26
            uy = cy + 20
            kind = "elite" if elite else "regular"
            attrs: dict[str, object] = {
                "class": "unit",
                "data-seat": SEAT_NAME[seat],
                "data-pos": format_pos(pos),
                "data-elite": str(elite).lower(),
                "data-moved": str(moved).lower(),
                "data-last": "true" if (seat, pos) in last.units else None,
            }
            hit = ""
            if choices is not None and seat == state.player and not moved:
                key = choices.unit_key(pos)
                if key is not None:
                    attrs = choices.select(attrs, key)
                    # below the cell's centre, clear of it (the camp or siege target of the
                    # tile under the unit is clicked there), 44 across
                    box = {"x": ux - TARGET / 2, "y": cy + CENTRE_CLEAR, "width": TARGET, "height": TARGET}
                    hit = el("rect", {**box, **CLEAR})
            tip = f"{SEAT_NAME[seat]}'s {kind} unit at {format_pos(pos)}" + (
                " (moved this turn)" if moved else ""
            )
            out.append(el("g", attrs, title(tip), hit, unit(seat, elite, moved, ux, uy)))
    return "".join(out)


def board(state: TwoHeirsState, frame: Frame, choices: Choices | None, last: Last = NOTHING) -> str:
    """The board: its numbered ground, the playable positions, the tiles and the units."""
    parts = board_ground(frame, "#f4efe3")
    treasures: dict[Pos, str] = {}
    if isinstance(state, SoloState):
        treasures = {pos: state.tset.tokens[t].id for pos, t in state.treasures}
    for pos in playable_positions(state):
        x, y = frame.corner(pos)
        parts.append(
            el(
                "g",
                {"class": "playable", "data-pos": format_pos(pos)},
                title(f"{format_pos(pos)}: the seat to move may play a tile here"),
                el(
                    "rect",
                    {
                        "x": x + 4,
                        "y": y + 4,
                        "width": CELL - 8,
                        "height": CELL - 8,
                        "rx": 6,
                        "fill": "#fff9db",
                        "stroke": "#e0b000",
                        "stroke-dasharray": "6 4",
                    },
                ),
                txt(
                    x + CELL / 2, y + CELL / 2 + 4, "+" + format_pos(pos), 11, anchor="middle", fill="#8a6d00"
                ),
            )
        )
    for pos, code in sorted(state.board.items()):
        parts.append(tile_cell(state, frame, pos, code, treasures.get(pos), choices, last))
    parts.append(units(state, frame, choices, last))
    return el("g", {"class": "board"}, *parts)


def name_lines(
    cx: float,
    cy: float,
    words: str,
    width: float,
    lines: int = 2,
    sizes: tuple[int, ...] = (11, 10, 9, 8, 7),
    height: float = 24,
) -> list[str]:
    """A building's name in words, whole (never cut), in at most ``lines`` lines centred on
    ``(cx, cy)``, in the largest of ``sizes`` that fits ``width`` units (a character 0.6 of the
    size) and ``height`` (a line its size)."""
    rows: list[str] = []
    for size in sizes:
        columns = int(width / (0.6 * size))
        rows = textwrap.wrap(words, columns, break_long_words=False) or [""]
        if len(rows) <= lines and max(len(r) for r in rows) <= columns and len(rows) * size <= height:
            break
    step = size
    top = cy - (len(rows) - 1) * step / 2 + size * 0.35
    return [txt(cx, top + k * step, row, size, anchor="middle") for k, row in enumerate(rows)]


def cost_text(tile: Tile) -> str:
    """A tile's cost in resource letters (``2s 1g``; ``free``)."""
    parts = [f"{n}{COLOUR_LETTERS[r]}" for r, n in enumerate(tile.cost) if n]
    return " ".join(parts) if parts else "free"


__all__ = ["board", "cost_text", "name_lines", "roads", "tile_cell", "unit", "units"]
