"""The Carcassonne board for the browser table (docs/table.md): :func:`render_board`.

The board alone (no seats, drawn tile, bag or legend: those are the panels,
:mod:`.table_panels`), in world units: the tile at ``x,y`` has its top left corner at
``(72 x, -72 y)`` whatever the board's extent, so a position keeps its place from one ply to the
next. The root carries ``data-cell="72"`` and ``data-focus`` (the centre of the last tile laid,
else of the board).

* every tile and follower carries ``data-pos``; the last tile laid carries ``data-last``, and so
  does its follower when the last decision deployed one;
* each feature the last decision (a follower or a pass: the step that scores) completed and
  scored is a ``<g class="scored" data-points="N" data-seat="red">`` of invisible squares over its
  tiles, one per seat that scored it;
* where the drawn tile fits, a dashed square (``data-select="x,y"``, "Lay the tile at x,y")
  opens the layer ``x,y``: one ``[data-choice]`` per rotation that fits there, the tile at full
  size on that square with its ``data-action`` and words, turned with "Turn left" and "Turn right".

In the follower step nothing on the board is clickable: the tile just laid is outlined and its
follower spots are on the stage (:mod:`.stage`); the pass is the table's default button.

>>> import regalia
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> root = ET.fromstring(render_board(state))
>>> root.get("data-cell"), root.get("data-focus"), root.get("viewBox")
('72', '36 72', '-108 -36 288 216')
>>> [(e.get("data-select"), e.get("data-label")) for e in root.iter() if e.get("data-select")][0]
('-1,0', 'Lay the tile at -1,0')
>>> layer = next(e for e in root.iter() if e.get("data-layer") == "-1,0")
>>> [(c.get("data-action"), c.get("data-label")) for c in layer]  # doctest: +NORMALIZE_WHITESPACE
[('place V -1,0 180', 'Lay V at -1,0 turned 180°, its printed top pointing south'),
 ('place V -1,0 270', 'Lay V at -1,0 turned 270°, its printed top pointing west')]
"""

from __future__ import annotations

from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import PLACE, Action
from regalia.games.carcassonne.base import PH_PLACE
from regalia.games.carcassonne.render.board import fit_positions, last_placed, standing
from regalia.games.carcassonne.render.describe import events_of_ply
from regalia.games.carcassonne.render.geometry import tile_shape
from regalia.games.carcassonne.render.style import follower_word, rotation_label, seat_name
from regalia.games.carcassonne.render.svg import BOARD_BG, HIGHLIGHT, meeple, tile_art
from regalia.games.carcassonne.render.words import last_decision, last_follower, rotation_words
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, FIELD
from regalia.render.svg import FONT, Frame, board_ground, clickable_seat, el, fmt, offer, title, to_act, txt

#: The size of a tile in world units (CSS pixels at zoom 1).
CELL = 72
#: The margin around the board (the column and row numbers).
MARGIN = 36

STYLE = (
    "<style>.clickable{cursor:pointer}.fit.clickable:hover rect{fill:#ffe066}"
    ".scored rect{pointer-events:none}</style>"
)


#: A follower's height on the board: its letter (42% of it) reads at 12 px at zoom 1.
FOLLOWER_HEIGHT = 0.42 * CELL


def board_frame(state: CarcassonneState) -> Frame:
    """The frame of the tiles and the squares where the drawn tile fits, in world units."""
    points = [*state.board, *fit_positions(state)] or [(0, 0)]
    x0 = min(p[0] for p in points)
    y1 = max(p[1] for p in points)
    return Frame(points, x0 * CELL, -y1 * CELL, CELL)


def _tile(state: CarcassonneState, frame: Frame, pos: Pos, last: bool) -> str:
    turned = state.turned(pos)
    x, y = frame.corner(pos)
    tile = state.cat.types[turned.type]
    tip = f"{format_pos(pos)}: tile {tile.id} turned {turned.rotation}°"
    parts = [title(tip), tile_art(turned, x, y, CELL)]
    if pos == state.placed:  # the tile just laid, waiting for its follower
        rect = {"x": x + 2, "y": y + 2, "width": CELL - 4, "height": CELL - 4}
        parts.append(el("rect", {**rect, "fill": "none", "stroke": HIGHLIGHT, "stroke-width": 4}))
    attrs = {
        "class": "tile",
        "data-pos": format_pos(pos),
        "data-tile": tile.id,
        "data-rotation": turned.rotation,
        "data-last": "" if last else None,
    }
    return el("g", attrs, *parts)


def _followers(state: CarcassonneState, frame: Frame) -> list[str]:
    out = []
    final = state.terminal
    last = last_follower(state)
    for pos, (seat, segment) in sorted(standing(state).items()):
        turned = state.turned(pos)
        seg = turned.segments[segment]
        x, y = frame.corner(pos)
        ax, ay = tile_shape(turned).anchors[segment]
        where = seg.kind if seg.kind in ABBEYS else f"{seg.kind} {seg.name}"
        attrs = {
            "class": "follower final" if final else "follower",
            "data-seat": seat_name(state, seat),
            "data-pos": format_pos(pos),
            "data-feature": seg.kind,
            "data-name": seg.name,
            "data-last": "" if pos == last else None,
        }
        tip = f"{seat_name(state, seat)}'s {follower_word(seg.kind)} at {format_pos(pos)} ({where})"
        body = meeple(seat, x + ax * CELL, y + ay * CELL, FOLLOWER_HEIGHT, lying=seg.kind == FIELD)
        out.append(el("g", attrs, title(tip + (", at the final scoring" if final else "")), body))
    return out


def scored_parts(state: CarcassonneState, frame: Frame) -> list[str]:
    """The features the last decision completed and scored: one ``.scored`` group per seat that
    scored each, invisible squares over its tiles (the final scoring is not shown)."""
    found = last_decision(state)
    if found is None:
        return []
    out = []
    for event in events_of_ply(state, found[0]):
        if len(event) < 5 or event[1] != "score":
            continue
        _, _, kind, points, tiles = event[:5]
        squares = []
        for pos in tiles:
            x, y = frame.corner(pos)
            squares.append(el("rect", {"x": x, "y": y, "width": CELL, "height": CELL, "fill": "none"}))
        for seat, value in enumerate(points):
            if value:
                name = seat_name(state, seat)
                tip = title(f"{name} scores {value} for the {kind}")
                attrs = {"class": "scored", "data-points": value, "data-seat": name, "data-feature": kind}
                out.append(el("g", attrs, tip, *squares))
    return out


def _fits(state: CarcassonneState, frame: Frame, clickable: bool) -> tuple[list[str], list[str]]:
    """The squares where the drawn tile fits and, when ``clickable``, the layer of each."""
    squares: list[str] = []
    layers: list[str] = []
    if state.phase != PH_PLACE or state.drawn < 0:
        return squares, layers
    tile = state.cat.types[state.drawn]
    for pos, rotations in sorted(fit_positions(state).items()):
        key = format_pos(pos)
        x, y = frame.corner(pos)
        label = f"Lay the tile at {key}"
        box = {"x": x + 1, "y": y + 1, "width": CELL - 2, "height": CELL - 2, "rx": 6}
        dashed = {"fill": "#fff9db", "stroke": "#e0b000", "stroke-width": 2, "stroke-dasharray": "6 4"}
        turns = " ".join(str(r) for r in rotations)
        attrs: dict[str, object] = {"class": "fit", "data-pos": key, "data-rotations": turns}
        tip = f"{key}: the drawn tile {tile.id} fits here ({len(rotations)} of its rotations)"
        if clickable:
            attrs = {**offer(attrs, select=key), "data-label": label}
        rect = el("rect", {"x": x, "y": y, "width": CELL, "height": CELL, "fill": "#ffffff", "opacity": 0})
        squares.append(el("g", attrs, title(tip), rect, el("rect", {**box, **dashed})))
        if not clickable:
            continue
        choices = []
        for r in rotations:
            action = Action(PLACE, tile.index, pos, r)
            words = f"Lay {tile.id} at {key} {rotation_words(r)}"
            choice: dict[str, object] = {"class": "choice", "data-choice": str(r), "data-rotation": r}
            mark = rotation_label(r)
            arrow = txt(x + CELL / 2, y + CELL - 4, mark, 12, anchor="middle", font_weight="bold")
            art = el("g", {"opacity": 0.85}, tile_art(state.cat.turned(tile.index, r), x, y, CELL))
            choice["data-label"] = words
            choices.append(el("g", offer(choice, state.notation(action)), title(words), art, arrow))
        layer_attrs = {
            "class": "layer",
            "data-layer": key,
            "display": "none",
            "data-prev-label": "Turn left",
            "data-next-label": "Turn right",
        }
        layers.append(el("g", layer_attrs, *choices))
    return squares, layers


def _focus(state: CarcassonneState, frame: Frame) -> str:
    pos = state.placed if state.placed is not None else last_placed(state)
    if pos is not None and pos in state.board:
        fx, fy = frame.centre(pos)
    else:
        fx, fy = frame.left + frame.width / 2, frame.top + frame.height / 2
    return f"{fmt(float(fx))} {fmt(float(fy))}"


def render_board(state: CarcassonneState, viewer: int | None = None, clickable: bool = True) -> str:
    """The board alone as an SVG document in world units (see the module docstring); the squares
    where the drawn tile fits are clickable only for the seat to act (``viewer`` that seat or
    ``None``) and ``clickable`` true."""
    seat = clickable_seat(state, viewer) if clickable else None
    offered = seat is not None and state.phase == PH_PLACE
    frame = board_frame(state)
    last = last_placed(state)
    body = board_ground(frame, BOARD_BG)
    body.extend(_tile(state, frame, pos, pos == last) for pos in sorted(state.board))
    body.extend(_followers(state, frame))
    body.extend(scored_parts(state, frame))
    squares, layers = _fits(state, frame, offered)
    body.extend(squares)
    body.extend(layers)
    left, top = frame.left - MARGIN, frame.top - MARGIN
    width, height = frame.width + 2 * MARGIN, frame.height + 2 * MARGIN
    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": width,
        "height": height,
        "viewBox": f"{fmt(left)} {fmt(top)} {fmt(width)} {fmt(height)}",
        "font-family": FONT,
        "data-game": "carcassonne",
        "data-ply": state.ply,
        "data-to-act": to_act(state, lambda s: seat_name(state, s)),
        "data-viewer": "spectator" if viewer is None else seat_name(state, viewer),
        "data-clickable": "true" if layers else "false",
        "data-cell": CELL,
        "data-focus": _focus(state, frame),
    }
    ground = el("rect", {"x": left, "y": top, "width": width, "height": height, "fill": "#fffdf7"})
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + el("svg", root, STYLE, ground, *body) + "\n"


__all__ = ["CELL", "board_frame", "render_board", "scored_parts"]
