"""The Two Heirs as a standalone SVG document: browser client, reports and PNG export.

:func:`render_svg` draws the whole position: the board (tile colours, owners and orientation,
building names, roads, units with elite and moved marks, solo treasures, the playable positions of
the seat to move), the royal reserve circle with the shield and each seat's reach, the supply, the
hands, the scores, whose turn it is, and the solo extras. No scripts and no external resources.

Clickable parts (only when ``viewer`` is the seat to act, or ``None``; never at a chance node, for
an automaton seat or after the game) follow one scheme, which the browser client relies on
(docs/rendering.md):

* an element with ``data-action="TEXT"`` stands for the legal action written ``TEXT`` in notation:
  reserve tiles (``take W3``), the ``end`` and ``spare`` buttons, besieged buildings
  (``destroy 1,0``), hand tiles at the hand limit (``discard W3``), camps (``camp D7``);
* an element with ``data-select="KEY"`` opens the selection layer ``<g data-layer="KEY">`` (hidden
  with ``display="none"``; show one at a time). Keys: ``build W3`` and ``terrain W3`` (a hand tile
  and its buttons), ``unit X,Y`` (a unit of the seat to act), ``call`` (its units in the royal
  reserve). A layer holds the highlighted choices, each with ``data-action``: ``build W3 1,2``,
  ``terrain W3 1,2``, ``step X,Y A,B``, ``withdraw X,Y`` (on the reserve's centre), ``call A,B``.

Every legal action of the seat to act is exactly one ``data-action`` value in the document.

>>> import regalia, random
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> root = ET.fromstring(render_svg(state))
>>> sorted({e.get("data-action") for e in root.iter() if e.get("data-action")})
['take T2', 'take T5', 'take W7']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.render.board import playable_positions, units_by_pos
from regalia.games.two_heirs.render.players import status_line
from regalia.games.two_heirs.render.reserve import crown, reach_label, reach_sets
from regalia.games.two_heirs.render.scoresheet import verdict
from regalia.games.two_heirs.render.solo import henry_score_text, henry_turn_lines
from regalia.games.two_heirs.render.style import (
    COLOUR_LETTERS,
    affordable,
    is_henry,
    plural,
    seat_label,
    short_name,
)
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import START, TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile
from regalia.render.svg import (
    FONT,
    INK,
    Frame,
    board_ground,
    button,
    button_width,
    clickable_seat,
    document,
    el,
    layer,
    offer,
    text_lines,
    title,
    to_act,
    txt,
    write_png,
)
from regalia.render.svg import fmt as _fmt

CELL = 76
MARGIN = 24
TOP = 64
SLOT = 56
RADIUS = 118
HAND_TILE = 64
#: The right column (reserve, hands, buttons, texts).
RIGHT_W = 460
LINE = 17

FILL = ("#8cc97c", "#b8b8b8", "#ebd25e")
FILL_DOWN = ("#4f8a44", "#6f6f6f", "#a8913a")
ROAD = "#6b4423"
SEAT_FILL = ("#ffffff", "#1f4fbf")
SEAT_INK = ("#1b1b1b", "#ffffff")
SEAT_STROKE = ("#1b1b1b", "#0b2a6b")
ELITE = "#e0b000"
HIGHLIGHT = "#ffd43b"
TREASURE = "#f0c419"

# -- what can be clicked ----------------------------------------------------------------------------


class Choices:
    """The legal actions of the seat to act, sorted by the part of the picture they belong to."""

    def __init__(self, state: TwoHeirsState, legal: Sequence[Action]) -> None:
        self.text: dict[Action, str] = {a: state.notation(a) for a in legal}
        self.take: dict[int, Action] = {}
        self.place: dict[tuple[str, int], list[Action]] = {}
        self.steps: dict[Pos, list[Action]] = {}
        self.withdraw: dict[Pos, Action] = {}
        self.call: list[Action] = []
        self.camp: dict[int, Action] = {}
        self.destroy: dict[Pos, Action] = {}
        self.discard: dict[int, Action] = {}
        self.buttons: list[Action] = []
        for a in legal:
            k = a.kind
            if k == act.TAKE:
                self.take[a.tile] = a
            elif k in (act.BUILD, act.TERRAIN):
                self.place.setdefault((k, a.tile), []).append(a)
            elif k == act.STEP and a.src is not None:
                self.steps.setdefault(a.src, []).append(a)
            elif k == act.WITHDRAW and a.src is not None:
                self.withdraw[a.src] = a
            elif k == act.CALL:
                self.call.append(a)
            elif k == act.CAMP:
                self.camp[a.tile] = a
            elif k == act.DESTROY and a.dst is not None:
                self.destroy[a.dst] = a
            elif k == act.DISCARD:
                self.discard[a.tile] = a
            else:
                self.buttons.append(a)

    def unit_key(self, pos: Pos) -> str | None:
        """The selection key of the unit at ``pos``, if it may step or withdraw."""
        return f"unit {format_pos(pos)}" if pos in self.steps or pos in self.withdraw else None


# -- geometry -----------------------------------------------------------------------------------------


_SIDE_VEC = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}


# -- the board --------------------------------------------------------------------------------------


def _roads(tile: Tile, owner: int, cx: float, cy: float) -> str:
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


def _tile_cell(
    state: TwoHeirsState, frame: Frame, pos: Pos, code: int, treasure: str | None, choices: Choices | None
) -> str:
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
        parts.append(_roads(tile, owner, cx, cy))
    # the tile's words, turned towards the owner (blue's buildings read upside down)
    words = [
        txt(x + 11, y + 23, tile.id, 12, font_weight="bold"),
        txt(x + CELL - 12, y + 23, COLOUR_LETTERS[tile.colour], 12, anchor="end", font_weight="bold"),
        txt(
            cx,
            cy + 5,
            short_name(tile.building) if face_up else ("start" if pos == START else "terrain"),
            11,
            anchor="middle",
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
    }
    if choices is not None:
        action = choices.destroy.get(pos)
        if action is None and face_up and tile.index in choices.camp:
            action = choices.camp[tile.index]
        if action is not None:
            attrs = offer(attrs, choices.text[action])
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


SEAT_NAME = ("white", "blue")


def _unit(seat: int, elite: bool, moved: bool, cx: float, cy: float, r: float = 11) -> str:
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


def _units(state: TwoHeirsState, frame: Frame, choices: Choices | None) -> str:
    out = []
    for pos, units in sorted(units_by_pos(state).items()):
        cx, cy = frame.centre(pos)
        n = len(units)
        for k, (seat, elite, moved) in enumerate(sorted(units)):
            ux = cx + (k - (n - 1) / 2) * 26
            uy = cy + 20
            kind = "elite" if elite else "regular"
            attrs: dict[str, object] = {
                "class": "unit",
                "data-seat": SEAT_NAME[seat],
                "data-pos": format_pos(pos),
                "data-elite": str(elite).lower(),
                "data-moved": str(moved).lower(),
            }
            if choices is not None and seat == state.player and not moved:
                key = choices.unit_key(pos)
                if key is not None:
                    attrs = offer(attrs, select=key)
            tip = f"{SEAT_NAME[seat]}'s {kind} unit at {format_pos(pos)}" + (
                " (moved this turn)" if moved else ""
            )
            out.append(el("g", attrs, title(tip), _unit(seat, elite, moved, ux, uy)))
    return "".join(out)


def _board(state: TwoHeirsState, frame: Frame, choices: Choices | None) -> str:
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
        parts.append(_tile_cell(state, frame, pos, code, treasures.get(pos), choices))
    parts.append(_units(state, frame, choices))
    return el("g", {"class": "board"}, *parts)


# -- the royal reserve ----------------------------------------------------------------------------------


def _slot_centre(cx: float, cy: float, pos: int, size: int) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * pos / size
    return cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)


def _reserve(state: TwoHeirsState, cx: float, cy: float, choices: Choices | None) -> str:
    parts = [
        el(
            "circle",
            {"cx": cx, "cy": cy, "r": RADIUS, "fill": "none", "stroke": "#c8bfa8", "stroke-width": 2},
        ),
        txt(
            cx,
            cy - RADIUS - 44,
            "Royal reserve (clockwise from the shield)",
            13,
            anchor="middle",
            font_weight="bold",
        ),
    ]
    size = len(state.reserve)
    reach = reach_sets(state)
    c = crown(state)
    for pos in range(size):
        sx, sy = _slot_centre(cx, cy, pos, size)
        x, y = sx - SLOT / 2, sy - SLOT / 2
        t = state.reserve[pos]
        if pos == state.shield:
            west, east, north = _fmt(sx - 20), _fmt(sx + 20), _fmt(sy - 22)
            shield = (
                f"M{west},{north} L{east},{north} L{east},{_fmt(sy)} "
                f"Q{east},{_fmt(sy + 18)} {_fmt(sx)},{_fmt(sy + 26)} "
                f"Q{west},{_fmt(sy + 18)} {west},{_fmt(sy)} Z"
            )
            parts.append(
                el(
                    "g",
                    {"class": "shield", "data-reserve-pos": pos, "data-crown": SEAT_NAME[c]},
                    title(f"the royal shield, showing {SEAT_NAME[c]}'s crown: {SEAT_NAME[c]} takes next"),
                    el("path", {"d": shield, "fill": SEAT_FILL[c], "stroke": ELITE, "stroke-width": 3}),
                    txt(sx, sy + 4, "crown", 9, anchor="middle", fill=SEAT_INK[c], font_weight="bold"),
                )
            )
            continue
        if t < 0:
            parts.append(
                el(
                    "rect",
                    {
                        "x": x,
                        "y": y,
                        "width": SLOT,
                        "height": SLOT,
                        "rx": 4,
                        "fill": "none",
                        "stroke": "#aaaaaa",
                        "stroke-dasharray": "4 3",
                        "data-reserve-pos": pos,
                    },
                )
            )
            continue
        tile = state.tiles[t]
        k = (pos - state.shield) % size
        attrs: dict[str, object] = {
            "class": "reserve-tile",
            "data-reserve-pos": pos,
            "data-tile": tile.id,
            "data-colour": COLOURS[tile.colour],
        }
        if choices is not None and t in choices.take:
            attrs = offer(attrs, choices.text[choices.take[t]])
        body = [
            title(
                f"{tile.id} {tile.building}, {COLOURS[tile.colour]} ({RESOURCES[tile.colour]}), "
                f"{k} clockwise from the shield; costs {tile.cost_text()}"
            ),
            el(
                "rect",
                {
                    "x": x,
                    "y": y,
                    "width": SLOT,
                    "height": SLOT,
                    "rx": 4,
                    "fill": FILL[tile.colour],
                    "stroke": HIGHLIGHT if "data-action" in attrs else "#333333",
                    "stroke-width": 3 if "data-action" in attrs else 1,
                },
            ),
            txt(x + 5, y + 14, tile.id, 11, font_weight="bold"),
            txt(x + SLOT - 5, y + 14, COLOUR_LETTERS[tile.colour], 11, anchor="end", font_weight="bold"),
            txt(sx, sy + 4, short_name(tile.building), 9, anchor="middle"),
            txt(sx, y + SLOT - 6, _cost(tile), 9, anchor="middle"),
        ]
        # each seat's reach: a pip outside the circle
        for seat in (0, 1):
            if pos in reach[seat]:
                angle = -math.pi / 2 + 2 * math.pi * pos / size
                d = RADIUS + SLOT / 2 + 12 + 14 * seat
                body.append(
                    el(
                        "circle",
                        {
                            "class": "reach",
                            "data-seat": SEAT_NAME[seat],
                            "cx": cx + d * math.cos(angle),
                            "cy": cy + d * math.sin(angle),
                            "r": 6,
                            "fill": SEAT_FILL[seat],
                            "stroke": SEAT_STROKE[seat],
                        },
                    )
                )
        parts.append(el("g", attrs, *body))
    # regular units waiting in the royal reserve
    waiting = [(seat, k) for seat in (0, 1) for k in range(state.units_in_reserve(seat))]
    for n, (seat, _) in enumerate(waiting):
        ux = cx + (n - (len(waiting) - 1) / 2) * 26
        attrs = {"class": "unit in-reserve", "data-seat": SEAT_NAME[seat]}
        if choices is not None and seat == state.player and choices.call:
            attrs = offer(attrs, select="call")
        parts.append(
            el(
                "g",
                attrs,
                title(f"{SEAT_NAME[seat]}'s unit in the royal reserve"),
                _unit(seat, False, False, ux, cy),
            )
        )
    labels = [f"reach: white {reach_label(state, 0)}, blue {reach_label(state, 1)}"]
    parts.append(txt(cx, cy + RADIUS + 52, labels[0], 11, anchor="middle"))
    # the supply
    top = state.top if state.supply else -1
    sx, sy = cx + RADIUS + 10, cy + RADIUS + 4
    parts.append(
        el(
            "g",
            {
                "class": "supply",
                "data-count": len(state.supply),
                "data-top": COLOURS[top] if top >= 0 else "unknown",
            },
            title(
                f"the supply: {len(state.supply)} tiles face down"
                + (f", the top one {COLOURS[top]}" if top >= 0 else "")
            ),
            el(
                "rect",
                {
                    "x": sx,
                    "y": sy - 30,
                    "width": 34,
                    "height": 34,
                    "rx": 3,
                    "fill": FILL_DOWN[top] if top >= 0 else "#dddddd",
                    "stroke": "#333333",
                },
            ),
            txt(
                sx + 17,
                sy - 8,
                str(len(state.supply)),
                12,
                anchor="middle",
                font_weight="bold",
                fill="#ffffff" if top >= 0 else INK,
            ),
            txt(sx + 17, sy + 16, "supply", 9, anchor="middle"),
        )
    )
    return el("g", {"class": "reserve"}, *parts)


def _cost(tile: Tile) -> str:
    parts = [f"{n}{COLOUR_LETTERS[r]}" for r, n in enumerate(tile.cost) if n]
    return " ".join(parts) if parts else "free"


# -- hands, buttons, texts ----------------------------------------------------------------------------


def _hand(
    state: TwoHeirsState, seat: int, left: float, top: float, choices: Choices | None, viewer: int | None
) -> tuple[str, float]:
    parts = []
    scores = state.scores()
    name = seat_label(state, seat) + (
        " (you)" if seat == viewer and "(" not in seat_label(state, seat) else ""
    )
    head = f"{name}: {plural(scores[seat], 'point')}"
    if seat == state.current_player:
        head += "  ◀ to move"
    if is_henry(state, seat):
        sub = "reach: all; builds for free (solo rules)"
    else:
        res = state.resources(seat)
        have = " ".join(f"{n}{COLOUR_LETTERS[r]}" for r, n in enumerate(res))
        sub = f"reach {reach_label(state, seat)} · has {have}"
        if seat == state.player and state.discounts:
            sub += f" +{state.discounts} discount"
    parts.append(
        el(
            "rect",
            {
                "x": left,
                "y": top,
                "width": 14,
                "height": 14,
                "fill": SEAT_FILL[seat],
                "stroke": SEAT_STROKE[seat],
            },
        )
    )
    parts.append(txt(left + 20, top + 12, head, 12, font_weight="bold"))
    parts.append(txt(left + 20, top + 28, sub, 11))
    y = top + 38
    hand = state.hands[seat]
    if not hand:
        parts.append(
            txt(left, y + 14, "hand: empty" if not is_henry(state, seat) else "", 11, fill="#777777")
        )
        return el("g", {"class": "hand", "data-seat": SEAT_NAME[seat]}, *parts), y + 24
    res = state.resources(seat)
    for k, t in enumerate(hand):
        tile = state.tiles[t]
        x = left + k * (HAND_TILE + 12)
        attrs: dict[str, object] = {
            "class": "hand-tile",
            "data-tile": tile.id,
            "data-colour": COLOURS[tile.colour],
        }
        build = choices.place.get((act.BUILD, t)) if choices is not None else None
        terrain = choices.place.get((act.TERRAIN, t)) if choices is not None else None
        if choices is not None and seat == state.player:
            if t in choices.discard:
                attrs = offer(attrs, choices.text[choices.discard[t]])
            elif build:
                attrs = offer(attrs, select=f"build {tile.id}")
            elif terrain:
                attrs = offer(attrs, select=f"terrain {tile.id}")
        ok = seat == state.current_player and affordable(state, seat, t, res)
        body = [
            title(
                f"{tile.id} {tile.building}, {COLOURS[tile.colour]}; costs {tile.cost_text()}"
                + ("; affordable now" if ok else "")
            ),
            el(
                "rect",
                {
                    "x": x,
                    "y": y,
                    "width": HAND_TILE,
                    "height": HAND_TILE,
                    "rx": 4,
                    "fill": FILL[tile.colour],
                    "stroke": "#333333",
                },
            ),
            txt(x + 5, y + 14, tile.id, 11, font_weight="bold"),
            txt(x + HAND_TILE - 5, y + 14, COLOUR_LETTERS[tile.colour], 11, anchor="end", font_weight="bold"),
            txt(x + HAND_TILE / 2, y + 36, short_name(tile.building), 10, anchor="middle"),
            txt(x + HAND_TILE / 2, y + HAND_TILE - 7, _cost(tile), 10, anchor="middle"),
        ]
        if ok:
            body.append(
                txt(x + HAND_TILE - 5, y + 30, "✓", 12, anchor="end", fill="#2b8a3e", font_weight="bold")
            )
        parts.append(el("g", attrs, *body))
        by = y + HAND_TILE + 4
        for n, (kind, label) in enumerate(((act.BUILD, "build"), (act.TERRAIN, "face down"))):
            if choices is None or seat != state.player or not choices.place.get((kind, t)):
                continue
            bx = x + n * (HAND_TILE / 2)
            parts.append(
                button(
                    bx,
                    by,
                    "build" if kind == act.BUILD else "down",
                    select=f"{kind} {tile.id}",
                    fill="#e7f5ff",
                    stroke="#1c7ed6",
                    width=HAND_TILE / 2 - 2,
                    height=16,
                    rx=3,
                    size=9,
                    baseline=12,
                    bold=False,
                    tip=f"{label}: {tile.id}",
                )
            )
    return el("g", {"class": "hand", "data-seat": SEAT_NAME[seat]}, *parts), y + HAND_TILE + 26


def _lines(x: float, y: float, lines: Sequence[str], width: int = 66, size: int = 11) -> tuple[str, float]:
    """``lines`` wrapped to ``width`` characters, a wrapped line's rest indented two more."""
    out, y = text_lines(x, y, lines, width, size, step=LINE, hang=2)
    return "".join(out), y


# -- selection layers -----------------------------------------------------------------------------------


def _target(frame: Frame, pos: Pos, action: str) -> str:
    x, y = frame.corner(pos)
    attrs = {
        "class": "target",
        "x": x + 3,
        "y": y + 3,
        "width": CELL - 6,
        "height": CELL - 6,
        "rx": 6,
        "fill": HIGHLIGHT,
        "fill-opacity": 0.55,
        "stroke": "#e67700",
        "stroke-width": 3,
    }
    return el("rect", offer(attrs, action), title(action))


def _layers(state: TwoHeirsState, frame: Frame, choices: Choices, reserve_centre: tuple[float, float]) -> str:
    layers = []
    for (kind, t), actions in choices.place.items():
        key = f"{kind} {state.tiles[t].id}"
        targets = [_target(frame, a.dst, choices.text[a]) for a in actions if a.dst is not None]
        layers.append(layer(key, *targets))
    for src in sorted(set(choices.steps) | set(choices.withdraw)):
        key = f"unit {format_pos(src)}"
        targets = [
            _target(frame, a.dst, choices.text[a]) for a in choices.steps.get(src, []) if a.dst is not None
        ]
        if src in choices.withdraw:
            cx, cy = reserve_centre
            action = choices.text[choices.withdraw[src]]
            targets.append(
                el(
                    "circle",
                    offer(
                        {
                            "class": "target",
                            "cx": cx,
                            "cy": cy,
                            "r": 34,
                            "fill": HIGHLIGHT,
                            "fill-opacity": 0.55,
                            "stroke": "#e67700",
                            "stroke-width": 3,
                        },
                        action,
                    ),
                    title(action + " (into the royal reserve)"),
                )
            )
        layers.append(layer(key, *targets))
    if choices.call:
        targets = [_target(frame, a.dst, choices.text[a]) for a in choices.call if a.dst is not None]
        layers.append(layer("call", *targets))
    return el("g", {"class": "layers"}, *layers)


# -- the document ---------------------------------------------------------------------------------------


DEFS = (
    "<defs>"
    '<pattern id="down" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="8" height="8" fill="none"/><line x1="0" y1="0" x2="0" y2="8" stroke="#000000" '
    'stroke-opacity="0.25" stroke-width="3"/></pattern>'
    "</defs>"
)
STYLE = (
    "<style>.clickable,[data-action],[data-select]{cursor:pointer}.target:hover{fill-opacity:0.85}</style>"
)
LEGEND = (
    "Tiles: green = wood (w), grey = stone (s), yellow = grain (g); hatched = face down. A building faces "
    "its owner: white's band at the bottom, blue's at the top (blue's words upside down). Units: E elite "
    "(gold ring), a red cross = moved this turn. Dashed squares: where the seat to move may play. "
    "Gold diamond: Henry's treasure."
)


def render_svg(state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> str:
    """The whole position as a standalone SVG document (see the module docstring for the clickable
    parts: ``viewer`` is the seat looking, ``None`` a spectator who may act for the seat to move). With
    ``clickable`` false nothing is clickable (a viewer who may not act, a replay)."""
    seat = clickable_seat(state, viewer) if clickable else None
    choices = Choices(state, state.legal_actions()) if seat is not None else None
    playable = playable_positions(state)
    points = [*state.board, *playable]
    frame = Frame(points, MARGIN + 28, TOP + 22, CELL)
    right = frame.left + frame.width + 48
    body: list[str] = []
    status = status_line(state, viewer, compact=True).plain
    body.append(
        txt(
            MARGIN,
            26,
            f"The Two Heirs{' (solo)' if isinstance(state, SoloState) else ''}",
            18,
            font_weight="bold",
        )
    )
    body.append(txt(MARGIN, 48, status, 13))
    if state.board:
        body.append(_board(state, frame, choices))
    else:
        body.append(txt(frame.left, frame.top + 30, "The play area is empty: chance sets up the game.", 13))
    rcx, rcy = right + RADIUS + 56, TOP + RADIUS + 70
    body.append(_reserve(state, rcx, rcy, choices))
    y: float = rcy + RADIUS + 80
    for s in (0, 1):
        part, y = _hand(state, s, right, y, choices, viewer)
        body.append(part)
    if choices is not None:
        x = right
        for a in choices.buttons:
            text = choices.text[a]
            label = {"end": "end turn", "spare": "spare (destroy nothing)"}.get(a.kind, text)
            body.append(button(x, y, label, text, width=button_width(label, pad=10)))
            x += 20 + 8 * len(label)
        if choices.buttons:
            y += 40
    texts: list[str] = []
    if isinstance(state, SoloState):
        texts.append(henry_score_text(state).plain)
        tokens = state.tset.tokens
        for pos, t in state.treasures:
            texts.append(f"  treasure {tokens[t].id} at {format_pos(pos)}: {tokens[t].describe()}")
        texts.append(f"  {state.pile_left} treasure tokens face down in the pile")
        texts.extend(line.plain for line in henry_turn_lines(state))
    if state.is_terminal():
        texts.append(verdict(state).plain)
    part, y = _lines(right, y + 6, texts, width=int(RIGHT_W / 6.8))
    body.append(part)
    if choices is not None:
        body.append(_layers(state, frame, choices, (rcx, rcy)))
    bottom = max(y, frame.top + frame.height + 20)
    width = right + RIGHT_W
    legend, bottom = _lines(MARGIN, bottom + 10, [LEGEND], width=int((width - MARGIN) / 6.2), size=10)
    body.append(legend)
    height = bottom + 10
    attrs = {
        "font-family": FONT,
        "data-game": "two-heirs",
        "data-ply": state.ply,
        "data-to-act": to_act(state, SEAT_NAME.__getitem__),
        "data-viewer": "spectator"
        if viewer is None
        else SEAT_NAME[viewer]
        if 0 <= viewer < 2
        else str(viewer),
        "data-clickable": "true" if choices is not None else "false",
    }
    return document(width, height, attrs, (DEFS, STYLE), body)


def render_png(state: TwoHeirsState, path: str | Path, viewer: int | None = None, scale: float = 1.0) -> Path:
    """Write the position as a PNG image (needs ``cairosvg``: ``pip install cairosvg``)."""
    return write_png(render_svg(state, viewer), path, scale)


__all__ = ["Choices", "clickable_seat", "el", "render_png", "render_svg"]
