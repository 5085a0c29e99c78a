"""The follower step's close-up for the browser table (docs/table.md, "The stage"):
:func:`render_stage`.

On a 72-unit tile a follower's spots are a few units apart (the fields Ws and Wn and the road W
of a road ending west nearly touch), so the step is drawn on its own: the tile just laid at
:data:`TILE` units, each follower option a ring :data:`TARGET` units across standing on its
feature's anchor, pushed apart (:func:`spread`) until no two rings are closer than :data:`GAP`;
a ring moved off its feature is tied to it by a thin line. Each ring carries the option's
``data-action`` and words in ``data-label`` ("Knight on the city", "Farmer on the field Ws").
The pass is not drawn: it is the table's default button ("No follower").

>>> import regalia
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> render_stage(state) is None                 # no follower step yet
True
>>> _ = state.apply_text("place V 1,0 0")
>>> root = ET.fromstring(render_stage(state))
>>> [(e.get("data-action"), e.get("data-label")) for e in root.iter() if e.get("data-action")]
[('follower road S', 'Thief on the road'), ('follower field Nw', 'Farmer on the field Nw'), \
('follower field Sw', 'Farmer on the field Sw')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from regalia.core.grid import format_pos
from regalia.games.carcassonne.actions import FOLLOWER
from regalia.games.carcassonne.base import PH_FOLLOWER
from regalia.games.carcassonne.render.geometry import Point, tile_shape
from regalia.games.carcassonne.render.style import follower_word, seat_name
from regalia.games.carcassonne.render.svg import HIGHLIGHT, meeple, tile_art
from regalia.games.carcassonne.render.words import follower_words
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import FIELD, Turned
from regalia.render.svg import FONT, clickable_seat, document, el, offer, title, to_act, txt

#: The size of the enlarged tile, in units.
TILE = 288
#: The width of a target (a ring), in units.
TARGET = 48
#: The least distance between two targets' edges.
GAP = 8
#: The margin around the tile (targets at its edge spill into it), and the heading's height.
PAD = 40
HEAD = 30

STYLE = "<style>.clickable{cursor:pointer}.target.clickable:hover circle.hit{fill-opacity:0.9}</style>"


def spread(points: list[Point], need: float, low: float, high: float, rounds: int = 400) -> list[Point]:
    """``points`` pushed apart, pair by pair, until no two are closer than ``need`` (each kept
    within ``low..high`` on both axes); deterministic. Should that fail (never seen: a tile has
    at most nine options), the points are laid on a grid instead."""
    pts = [[x, y] for x, y in points]
    n = len(pts)
    for _ in range(rounds):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                d = math.hypot(dx, dy)
                if d >= need:
                    continue
                moved = True
                if d < 1e-6:  # the same point: part them along a direction of their own
                    dx, dy, d = math.cos(j + 0.5 * i), math.sin(j + 0.5 * i), 1.0
                push = (need - d) / 2 + 0.5
                ux, uy = dx / d, dy / d
                pts[i][0] -= ux * push
                pts[i][1] -= uy * push
                pts[j][0] += ux * push
                pts[j][1] += uy * push
        for p in pts:
            p[0] = min(max(p[0], low), high)
            p[1] = min(max(p[1], low), high)
        if not moved:
            return [(p[0], p[1]) for p in pts]
    if all(math.dist(pts[i], pts[j]) >= need for i in range(n) for j in range(i + 1, n)):
        return [(p[0], p[1]) for p in pts]
    columns = max(1, int((high - low) // need) + 1)
    return [(low + (k % columns) * need, low + (k // columns) * need) for k in range(n)]


def target_spots(turned: Turned, segments: Sequence[int]) -> tuple[list[Point], list[Point]]:
    """The anchors of ``segments`` of ``turned`` on the enlarged tile (in units from its corner)
    and the centres of their targets, pushed apart (:func:`spread`)."""
    shape = tile_shape(turned)
    anchors = []
    for index in segments:
        ax, ay = shape.anchors[index] if index >= 0 else (0.5, 0.5)
        anchors.append((ax * TILE, ay * TILE))
    half = TARGET / 2
    return anchors, spread(anchors, TARGET + GAP, half - PAD + 4, TILE + PAD - half - 4)


def render_stage(state: CarcassonneState, viewer: int | None = None, clickable: bool = True) -> str | None:
    """The close-up of the follower step (see the module docstring), or ``None``: no follower step
    now, no follower option, or nobody here may act for the seat to move."""
    seat = clickable_seat(state, viewer) if clickable else None
    pos = state.placed
    if seat is None or pos is None or state.phase != PH_FOLLOWER or state.terminal:
        return None
    options = [a for a in state.legal_actions() if a.kind == FOLLOWER]
    if not options:
        return None
    turned = state.turned(pos)
    left, top = PAD, HEAD + PAD
    segments = [turned.segment_named(a.feature, a.side or a.feature) for a in options]
    anchors, spots = target_spots(turned, segments)
    half = TARGET / 2
    tile = state.cat.types[turned.type]
    key = format_pos(pos)
    who = seat_name(state, seat)
    body = [
        txt(left, 22, f"Tile {tile.id} at {key}: a follower for {who}?", 15, font_weight="bold"),
        el(
            "g",
            {"class": "tile", "data-pos": key, "data-tile": tile.id, "data-rotation": turned.rotation},
            title(f"{key}: tile {tile.id} turned {turned.rotation}°, just laid"),
            tile_art(turned, left, top, TILE),
        ),
    ]
    for action, (ax, ay), (sx, sy) in zip(options, anchors, spots, strict=True):
        label = follower_words(turned, action.feature, action.side)
        cx, cy = left + sx, top + sy
        parts = [title(f"{label} (a {follower_word(action.feature)})")]
        if math.hypot(sx - ax, sy - ay) > 4:
            tie = {"x1": left + ax, "y1": top + ay, "x2": cx, "y2": cy, "stroke": "#1b1b1b"}
            parts.append(el("line", {**tie, "stroke-width": 2}))
            parts.append(el("circle", {"cx": left + ax, "cy": top + ay, "r": 4, "fill": "#1b1b1b"}))
        ring = {
            "class": "hit",
            "cx": cx,
            "cy": cy,
            "r": half,
            "fill": HIGHLIGHT,
            "fill-opacity": 0.6,
            "stroke": "#e67700",
            "stroke-width": 3,
        }
        parts.append(el("circle", ring))
        parts.append(meeple(seat, cx, cy, 0.7 * TARGET, lying=action.feature == FIELD, ghost=True))
        attrs = {
            "class": "target",
            "data-feature": action.feature,
            "data-name": action.side or action.feature,
            "data-label": label,
        }
        body.append(el("g", offer(attrs, state.notation(action)), *parts))
    size = TILE + 2 * PAD
    root: dict[str, object] = {
        "font-family": FONT,
        "data-game": "carcassonne",
        "data-ply": state.ply,
        "data-to-act": to_act(state, lambda s: seat_name(state, s)),
        "data-viewer": "spectator" if viewer is None else seat_name(state, viewer),
        "data-clickable": "true",
        "data-pos": key,
    }
    return document(size, size + HEAD, root, (STYLE,), body)


__all__ = ["GAP", "TARGET", "TILE", "render_stage", "spread", "target_spots"]
