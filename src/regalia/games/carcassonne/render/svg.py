"""Carcassonne as a standalone SVG document: browser client, reports and PNG export.

:func:`render_svg` draws the board (fields, cities with their pennants, roads, cloisters as red-roofed
houses, shrines as dark purple domes, followers as meeples in their seat's colour with the seat's
letter, farmers lying down), the seats (points, followers left), the drawn tile, the bag by tile
type and, once the game is over, the final scoring. No scripts and no external resources.

Clickable parts (only when ``viewer`` is the seat to act or ``None``; never at a chance node or
after the game) carry ``data-action`` with the notation of a legal action, each legal action
exactly once:

* where the drawn tile fits, one small picture of the tile per rotation that fits there
  (``place K 1,0 90``);
* on the tile just laid, a ring on each feature a follower may take (``follower city N``,
  ``follower field Nw``, ``follower cloister``...), and the ``pass`` button.

>>> import regalia
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw U")
>>> root = ET.fromstring(render_svg(state))
>>> sorted(e.get("data-action") for e in root.iter() if e.get("data-action"))
['place U -1,0 0', 'place U 0,-1 0', 'place U 1,0 0']
"""

from __future__ import annotations

from collections.abc import Iterable

from regalia.core.game import CHANCE
from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import FOLLOWER, PASS, PLACE, Action
from regalia.games.carcassonne.base import FOLLOWERS, PH_FOLLOWER
from regalia.games.carcassonne.render.board import fit_positions, last_placed, standing
from regalia.games.carcassonne.render.geometry import ABBEY_R, ROAD_HALF, Point, tile_shape
from regalia.games.carcassonne.render.result import breakdown, challenges_lost, split, verdict
from regalia.games.carcassonne.render.style import (
    KIND_ORDER,
    KIND_PLURALS,
    SEAT_FILL,
    SEAT_INK,
    follower_word,
    plural,
    rotation_label,
    seat_letter,
    seat_name,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import CLOISTER, FIELD, SHRINE, Turned
from regalia.render.svg import (
    FONT,
    Frame,
    board_ground,
    button,
    clickable_seat,
    document,
    el,
    fmt,
    offer,
    text_lines,
    title,
    to_act,
    txt,
)

CELL = 72
MARGIN = 24
TOP = 70
RIGHT_W = 420
LINE = 18

FIELD_FILL = "#8cbf5a"
FIELD_STROKE = "#5f8f37"
CITY_FILL = "#c98b4a"
CITY_STROKE = "#6f4218"
ROAD_FILL = "#f6efdc"
ROAD_EDGE = "#6b5a3a"
PENNANT_FILL = "#1f4fbf"
CLOISTER_WALL = "#f1e6c8"
CLOISTER_ROOF = "#c0392b"
SHRINE_WALL = "#3b1f5c"
SHRINE_DOME = "#7a4bb0"
HIGHLIGHT = "#ffd43b"
BOARD_BG = "#efe7d2"

#: A meeple in a 100x100 box (standing).
MEEPLE = (
    "M50 3 C63 3 68 15 63 26 L90 37 C99 41 97 52 88 52 L71 52 L85 92 C87 98 82 100 77 100 "
    "L60 100 L50 81 L40 100 L23 100 C18 100 13 98 15 92 L29 52 L12 52 C3 52 1 41 10 37 "
    "L37 26 C32 15 37 3 50 3 Z"
)


def _pt(x: float, y: float, size: float, p: Point) -> tuple[float, float]:
    return x + p[0] * size, y + p[1] * size


def _points(x: float, y: float, size: float, pts: Iterable[Point]) -> str:
    return " ".join(f"{fmt(px)},{fmt(py)}" for px, py in (_pt(x, y, size, p) for p in pts))


# -- tiles ------------------------------------------------------------------------------------------------


def _abbey(kind: str, cx: float, cy: float, size: float) -> str:
    r = ABBEY_R * size
    if kind == CLOISTER:  # a house with a red roof and a cross
        return "".join(
            [
                el(
                    "rect",
                    {
                        "x": cx - 0.62 * r,
                        "y": cy - 0.2 * r,
                        "width": 1.24 * r,
                        "height": 0.95 * r,
                        "fill": CLOISTER_WALL,
                        "stroke": "#5a4a2a",
                        "stroke-width": 1,
                    },
                ),
                el(
                    "polygon",
                    {
                        "points": f"{fmt(cx - 0.85 * r)},{fmt(cy - 0.15 * r)} {fmt(cx)},{fmt(cy - 0.95 * r)} "
                        f"{fmt(cx + 0.85 * r)},{fmt(cy - 0.15 * r)}",
                        "fill": CLOISTER_ROOF,
                        "stroke": "#5a1a12",
                        "stroke-width": 1,
                    },
                ),
                el(
                    "path",
                    {
                        "d": f"M{fmt(cx)},{fmt(cy + 0.05 * r)} v{fmt(0.5 * r)} "
                        f"M{fmt(cx - 0.17 * r)},{fmt(cy + 0.22 * r)} h{fmt(0.34 * r)}",
                        "stroke": "#5a1a12",
                        "stroke-width": 1.5,
                    },
                ),
            ]
        )
    # a shrine: a dark purple base under a dome, with a flame
    return "".join(
        [
            el(
                "path",
                {
                    "d": f"M{fmt(cx - 0.7 * r)},{fmt(cy + 0.75 * r)} L{fmt(cx - 0.7 * r)},{fmt(cy)} "
                    f"A{fmt(0.7 * r)},{fmt(0.75 * r)} 0 0 1 {fmt(cx + 0.7 * r)},{fmt(cy)} "
                    f"L{fmt(cx + 0.7 * r)},{fmt(cy + 0.75 * r)} Z",
                    "fill": SHRINE_DOME,
                    "stroke": SHRINE_WALL,
                    "stroke-width": 2,
                },
            ),
            el(
                "rect",
                {
                    "x": cx - 0.8 * r,
                    "y": cy + 0.45 * r,
                    "width": 1.6 * r,
                    "height": 0.35 * r,
                    "fill": SHRINE_WALL,
                },
            ),
            el(
                "path",
                {
                    "d": f"M{fmt(cx)},{fmt(cy - 1.05 * r)} Q{fmt(cx + 0.2 * r)},{fmt(cy - 0.85 * r)} "
                    f"{fmt(cx)},{fmt(cy - 0.72 * r)} Q{fmt(cx - 0.2 * r)},{fmt(cy - 0.85 * r)} "
                    f"{fmt(cx)},{fmt(cy - 1.05 * r)} Z",
                    "fill": "#f59f00",
                },
            ),
        ]
    )


def _pennant(px: float, py: float, size: float) -> str:
    w = 0.075 * size
    return el(
        "path",
        {
            "class": "pennant",
            "d": f"M{fmt(px - w)},{fmt(py - w)} h{fmt(2 * w)} v{fmt(w)} "
            f"Q{fmt(px + w)},{fmt(py + 1.2 * w)} {fmt(px)},{fmt(py + 1.5 * w)} "
            f"Q{fmt(px - w)},{fmt(py + 1.2 * w)} {fmt(px - w)},{fmt(py)} Z",
            "fill": PENNANT_FILL,
            "stroke": "#ffffff",
            "stroke-width": 1.2,
        },
    )


def tile_art(turned: Turned, x: float, y: float, size: float) -> str:
    """The drawing of a tile (no title or attributes): fields, roads, cities, junction, cloister or
    shrine, pennants."""
    shape = tile_shape(turned)
    parts = [
        el(
            "rect",
            {"x": x, "y": y, "width": size, "height": size, "fill": FIELD_FILL, "stroke": FIELD_STROKE},
        )
    ]
    width = 2 * ROAD_HALF * size
    for lines in shape.roads:
        for line in lines:
            pts = _points(x, y, size, line)
            parts.append(
                el(
                    "polyline",
                    {
                        "points": pts,
                        "fill": "none",
                        "stroke": ROAD_EDGE,
                        "stroke-width": width + 2,
                        "stroke-linejoin": "round",
                    },
                )
            )
            parts.append(
                el(
                    "polyline",
                    {
                        "points": pts,
                        "fill": "none",
                        "stroke": ROAD_FILL,
                        "stroke-width": width,
                        "stroke-linejoin": "round",
                    },
                )
            )
    for _, poly in shape.cities:
        parts.append(
            el(
                "polygon",
                {
                    "points": _points(x, y, size, poly),
                    "fill": CITY_FILL,
                    "stroke": CITY_STROKE,
                    "stroke-width": 1.5,
                },
            )
        )
    cx, cy = x + size / 2, y + size / 2
    if shape.junction:
        s = 0.12 * size
        parts.append(
            el(
                "rect",
                {
                    "x": cx - s / 2,
                    "y": cy - s / 2,
                    "width": s,
                    "height": s,
                    "fill": "#8a6d4a",
                    "stroke": ROAD_EDGE,
                },
            )
        )
    if turned.abbey >= 0:
        parts.append(_abbey(turned.segments[turned.abbey].kind, cx, cy, size))
    for p in shape.pennants:
        parts.append(_pennant(*_pt(x, y, size, p), size))
    return "".join(parts)


def meeple(seat: int, cx: float, cy: float, height: float, lying: bool = False, ghost: bool = False) -> str:
    """A follower: a meeple in the seat's colour with its letter (lying for a farmer; ``ghost``: the
    outline of a possible follower)."""
    scale = height / 100
    transform = f"translate({fmt(cx - height / 2)},{fmt(cy - height / 2)}) scale({fmt(scale)})"
    if lying:
        transform += " rotate(-90 50 50)"
    fill = SEAT_FILL[seat % len(SEAT_FILL)]
    body = el(
        "path",
        {
            "d": MEEPLE,
            "fill": fill,
            "fill-opacity": 0.45 if ghost else None,
            "stroke": "#ffffff" if seat == 4 else "#1b1b1b",
            "stroke-width": 5,
        },
    )
    letter = txt(
        50,
        76,
        seat_letter(seat),
        42,
        anchor="middle",
        font_weight="bold",
        fill=SEAT_INK[seat % len(SEAT_INK)],
        transform="rotate(90 50 62)" if lying else None,
    )
    return el("g", {"transform": transform}, body, letter)


# -- the board ---------------------------------------------------------------------------------------------


def _inset(x: float, y: float) -> dict[str, float]:
    """The cell whose top left corner is ``x, y``, 2 units in from its edges."""
    return {"x": x + 2, "y": y + 2, "width": CELL - 4, "height": CELL - 4}


def _tile(state: CarcassonneState, frame: Frame, pos: Pos, highlight: bool) -> str:
    turned = state.turned(pos)
    x, y = frame.corner(pos)
    tile = state.cat.types[turned.type]
    parts = [
        title(f"{format_pos(pos)}: tile {tile.id} turned {turned.rotation}°"),
        tile_art(turned, x, y, CELL),
    ]
    if highlight:
        parts.append(el("rect", {**_inset(x, y), "fill": "none", "stroke": HIGHLIGHT, "stroke-width": 4}))
    return el(
        "g",
        {
            "class": "tile",
            "data-pos": format_pos(pos),
            "data-tile": tile.id,
            "data-rotation": turned.rotation,
        },
        *parts,
    )


def _followers(state: CarcassonneState, frame: Frame) -> str:
    out = []
    final = state.terminal
    for pos, (seat, segment) in sorted(standing(state).items()):
        turned = state.turned(pos)
        seg = turned.segments[segment]
        x, y = frame.corner(pos)
        px, py = _pt(x, y, CELL, tile_shape(turned).anchors[segment])
        word = follower_word(seg.kind)
        where = seg.kind if seg.kind in (CLOISTER, SHRINE) else f"{seg.kind} {seg.name}"
        out.append(
            el(
                "g",
                {
                    "class": "follower final" if final else "follower",
                    "data-seat": seat_name(state, seat),
                    "data-pos": format_pos(pos),
                    "data-feature": seg.kind,
                    "data-name": seg.name,
                },
                title(
                    f"{seat_name(state, seat)}'s {word} at {format_pos(pos)} ({where})"
                    + (", at the final scoring" if final else "")
                ),
                meeple(seat, px, py, 0.36 * CELL, lying=seg.kind == FIELD),
            )
        )
    return "".join(out)


def _option_cells(count: int) -> list[tuple[float, float, float]]:
    """Where the pictures of ``count`` rotations go in a cell: (x, y, size) in cell units."""
    if count == 1:
        return [(0.12, 0.12, 0.76)]
    if count == 2:
        return [(0.03, 0.27, 0.46), (0.51, 0.27, 0.46)]
    return [(0.03, 0.03, 0.46), (0.51, 0.03, 0.46), (0.03, 0.51, 0.46), (0.51, 0.51, 0.46)][:count]


def _fits(state: CarcassonneState, frame: Frame, texts: dict[Action, str] | None) -> str:
    out = []
    tile = state.cat.types[state.drawn] if state.drawn >= 0 else None
    for pos, rotations in sorted(fit_positions(state).items()):
        x, y = frame.corner(pos)
        parts = [
            title(f"{format_pos(pos)}: the drawn tile fits here ({len(rotations)} rotations)"),
            el(
                "rect",
                {**_inset(x, y), "rx": 5, "fill": "#fff9db", "stroke": "#e0b000", "stroke-dasharray": "6 4"},
            ),
        ]
        for r, (ox, oy, size) in zip(rotations, _option_cells(len(rotations)), strict=False):
            if tile is None:
                continue
            action = Action(PLACE, tile.index, pos, r)
            text = texts.get(action) if texts is not None else None
            picture = [
                title(text or f"{tile.id} turned {r}°"),
                el(
                    "g",
                    {"opacity": 0.8},
                    tile_art(state.cat.turned(tile.index, r), x + ox * CELL, y + oy * CELL, size * CELL),
                ),
                txt(
                    x + (ox + size / 2) * CELL,
                    y + (oy + size) * CELL - 2,
                    rotation_label(r),
                    8 if size < 0.5 else 11,
                    anchor="middle",
                    font_weight="bold",
                    fill="#1b1b1b",
                    stroke="#ffffff",
                    stroke_width=0.6,
                ),
            ]
            parts.append(el("g", offer({"class": "option", "data-rotation": r}, text), *picture))
        out.append(el("g", {"class": "fit", "data-pos": format_pos(pos)}, *parts))
    return "".join(out)


def _follower_options(state: CarcassonneState, frame: Frame, texts: dict[Action, str]) -> str:
    pos = state.placed
    if pos is None or state.phase != PH_FOLLOWER:
        return ""
    turned = state.turned(pos)
    shape = tile_shape(turned)
    x, y = frame.corner(pos)
    out = []
    for action, text in texts.items():
        if action.kind != FOLLOWER:
            continue
        index = turned.segment_named(action.feature, action.side or action.feature)
        if index < 0:
            continue
        px, py = _pt(x, y, CELL, shape.anchors[index])
        out.append(
            el(
                "g",
                offer({"class": "option"}, text),
                title(text + f" (a {follower_word(action.feature)})"),
                el(
                    "circle",
                    {
                        "cx": px,
                        "cy": py,
                        "r": 0.13 * CELL,
                        "fill": HIGHLIGHT,
                        "fill-opacity": 0.55,
                        "stroke": "#e67700",
                        "stroke-width": 2,
                        "stroke-dasharray": "4 2",
                    },
                ),
                meeple(state.player, px, py, 0.22 * CELL, lying=action.feature == FIELD, ghost=True),
            )
        )
    return "".join(out)


def _board(state: CarcassonneState, frame: Frame, texts: dict[Action, str] | None) -> str:
    parts = board_ground(frame, BOARD_BG)
    mark = state.placed if state.placed is not None else last_placed(state)
    for pos in sorted(state.board):
        parts.append(_tile(state, frame, pos, pos == mark))
    parts.append(_followers(state, frame))
    parts.append(_fits(state, frame, texts))
    if texts is not None:
        parts.append(_follower_options(state, frame, texts))
    return el("g", {"class": "board"}, *parts)


# -- the right column ---------------------------------------------------------------------------------------


def _seats(state: CarcassonneState, left: float, top: float, viewer: int | None) -> tuple[str, float]:
    parts = []
    y = top
    scores = state.scores()
    for seat in range(state.num_players):
        name = seat_name(state, seat) + (" (you)" if seat == viewer else "")
        head = f"{name}: {plural(scores[seat], 'point')}"
        if seat == state.current_player:
            head += "  ◀ to play"
        left_now = state.followers[seat]
        body = [
            title(f"{name}: {plural(scores[seat], 'point')}, {plural(left_now, 'follower')} in the supply"),
            meeple(seat, left + 12, y + 12, 24),
            txt(left + 30, y + 12, head, 13, font_weight="bold"),
        ]
        for k in range(FOLLOWERS):
            if k < left_now:
                body.append(meeple(seat, left + 36 + 15 * k, y + 24, 13))
            else:
                body.append(el("circle", {"cx": left + 36 + 15 * k, "cy": y + 24, "r": 2, "fill": "#999999"}))
        parts.append(
            el(
                "g",
                {
                    "class": "seat",
                    "data-seat": seat_name(state, seat),
                    "data-points": scores[seat],
                    "data-followers": left_now,
                },
                *body,
            )
        )
        y += 40
    return "".join(parts), y


def _drawn(state: CarcassonneState, left: float, top: float) -> tuple[str, float]:
    if state.terminal:
        return "", top
    if state.phase == PH_FOLLOWER and state.placed is not None:
        text = f"tile laid at {format_pos(state.placed)}: deploy a follower on it (rings) or pass"
        return txt(left, top + 14, text, 12), top + 26
    if state.drawn < 0:
        return txt(
            left, top + 14, f"next: a tile is drawn ({plural(state.bag_left, 'tile')} in the bag)", 12
        ), top + 26
    tile = state.cat.types[state.drawn]
    size = 84
    fits = len(fit_positions(state))
    parts = [
        txt(
            left, top + 14, f"tile drawn: {tile.id} (fits in {plural(fits, 'place')})", 13, font_weight="bold"
        ),
        el(
            "g",
            {"class": "drawn", "data-tile": tile.id},
            title(f"the drawn tile {tile.id}, as printed (turned 0°)"),
            tile_art(state.cat.turned(tile.index, 0), left, top + 24, size),
        ),
    ]
    return "".join(parts), top + 24 + size + 12


def _bag(state: CarcassonneState, left: float, top: float) -> tuple[str, float]:
    start = state.game.bag_counts()
    types = [t for t in state.cat.types if start[t.index] or state.bag[t.index] or t.start]
    parts = [txt(left, top + 14, f"bag: {plural(state.bag_left, 'tile')} left", 13, font_weight="bold")]
    size = 30
    per_row = 8
    y = top + 22
    for k, tile in enumerate(types):
        col, row = k % per_row, k // per_row
        x = left + col * (size + 14)
        ty = y + row * (size + 16)
        n = state.bag[tile.index]
        parts.append(
            el(
                "g",
                {"class": "bag-tile", "data-tile": tile.id, "data-count": n, "opacity": None if n else 0.35},
                title(f"{tile.id}: {plural(n, 'tile')} left in the bag"),
                tile_art(state.cat.turned(tile.index, 0), x, ty, size),
                txt(x + size / 2, ty + size + 11, f"{tile.id} ×{n}", 9, anchor="middle"),
            )
        )
    rows = (len(types) + per_row - 1) // per_row
    return "".join(parts), y + rows * (size + 16) + 4


def _result(state: CarcassonneState, left: float, top: float) -> tuple[str, float]:
    if not state.terminal:
        return "", top
    parts = [txt(left, top + 14, "Final scoring", 14, font_weight="bold")]
    kinds = [k for k in KIND_ORDER if k != SHRINE or state.game.options.shrines != "off"]
    heads = ["", *(KIND_PLURALS[k] for k in kinds), "at end", "total"]
    xs = [left, *(left + 96 + 46 * k for k in range(len(kinds) + 2))]
    y = top + 34
    for x, head in zip(xs, heads, strict=True):
        parts.append(txt(x, y, head, 9, font_weight="bold", anchor="start" if not head else "end"))
    points = breakdown(state)
    _, final = split(state)
    lost = challenges_lost(state)
    scores = state.scores()
    for seat in range(state.num_players):
        y += LINE
        row = [
            seat_name(state, seat),
            *(str(points[seat][k]) for k in kinds),
            str(final[seat]),
            str(scores[seat]),
        ]
        for x, value in zip(xs, row, strict=True):
            parts.append(
                txt(
                    x,
                    y,
                    value,
                    11,
                    anchor="start" if x == left else "end",
                    font_weight="bold" if value == row[-1] or x == left else None,
                )
            )
        if lost[seat]:
            parts.append(txt(xs[-1] + 8, y, f"({plural(lost[seat], 'challenge')} lost)", 9))
    y += LINE + 6
    parts.append(txt(left, y, verdict(state).plain, 13, font_weight="bold"))
    return el("g", {"class": "result"}, *parts), y + 12


def _status(state: CarcassonneState, viewer: int | None) -> str:
    if state.terminal:
        return "the game is over"
    who = seat_name(state, state.player) + (" (you)" if state.player == viewer else "")
    if state.current_player == CHANCE:
        return f"{who}: a tile is drawn from the bag"
    if state.phase == PH_FOLLOWER:
        return f"{who} to deploy a follower or pass"
    tile = state.cat.types[state.drawn].id if state.drawn >= 0 else "?"
    return f"{who} to lay tile {tile}"


LEGEND = (
    "Brown: cities (blue shields: pennants); white lines: roads; green: fields; red roof: cloister; "
    "purple dome: shrine. Followers are meeples in their seat's colour with its letter "
    "(R red, B blue, G green, Y yellow, K black); farmers lie down. Dashed squares: where the drawn tile "
    "fits, one picture per rotation (the arrow shows where its printed top points)."
)
FINAL_LEGEND = " Once the game is over, the followers are drawn where they stood at the final scoring."


def render_svg(state: CarcassonneState, viewer: int | None = None, clickable: bool = True) -> str:
    """The whole position as a standalone SVG document (see the module docstring; ``viewer`` is the seat
    looking, ``None`` a spectator who may act for the seat to move). With ``clickable`` false nothing is
    clickable (a viewer who may not act, a replay)."""
    seat = clickable_seat(state, viewer) if clickable else None
    legal = state.legal_actions() if seat is not None else []
    texts = {a: state.notation(a) for a in legal} if seat is not None else None
    points = [*state.board, *fit_positions(state)]
    frame = Frame(points, MARGIN + 30, TOP + 24, CELL)
    right = frame.left + frame.width + 40
    body: list[str] = [
        txt(MARGIN, 30, "Carcassonne", 20, font_weight="bold"),
        txt(
            MARGIN,
            54,
            f"ply {state.ply} · {_status(state, viewer)} · {plural(state.bag_left, 'tile')} in the bag",
            13,
        ),
        _board(state, frame, texts),
    ]
    y: float = TOP
    part, y = _seats(state, right, y, viewer)
    body.append(part)
    part, y = _drawn(state, right, y + 6)
    body.append(part)
    if texts is not None:
        for action, text in texts.items():
            if action.kind == PASS:
                body.append(button(right, y, "pass (no follower)", text))
                y += 40
    part, y = _result(state, right, y + 4)
    body.append(part)
    part, y = _bag(state, right, y + 6)
    body.append(part)
    bottom = max(y, frame.top + frame.height) + 16
    width = right + RIGHT_W
    legend = LEGEND + (FINAL_LEGEND if state.terminal else "")
    lines, bottom = text_lines(MARGIN, bottom, legend, int((width - 2 * MARGIN) / 6.4), 10, fill="#444444")
    body.extend(lines)
    height = bottom + 8
    attrs = {
        "font-family": FONT,
        "data-game": "carcassonne",
        "data-ply": state.ply,
        "data-to-act": to_act(state, lambda seat: seat_name(state, seat)),
        "data-viewer": "spectator" if viewer is None else seat_name(state, viewer),
        "data-clickable": "true" if texts else "false",
    }
    style = "<style>.clickable{cursor:pointer}.option.clickable:hover{opacity:0.75}</style>"
    return document(width, height, attrs, (style,), body)


__all__ = ["clickable_seat", "meeple", "render_svg", "tile_art"]
