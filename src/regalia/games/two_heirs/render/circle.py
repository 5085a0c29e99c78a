"""The royal reserve of The Two Heirs as SVG: the circle of seven positions clockwise from the
shield, each seat's reach, the regular units waiting in it, and the supply beside it.

Shared by the whole picture (:func:`~.svg.render_svg`, with the supply) and the browser table's
board (:func:`~.table.render_board`, without: the supply is a panel there). Reserve tiles within
the seat to act's reach stand for ``take``; the seat's waiting units open the ``call`` layer.

>>> x, y = slot_centre(0, 0, 0, 56)  # the shield's position is straight above the centre
>>> round(x, 6), y
(0.0, -118.0)
"""

from __future__ import annotations

import math

from regalia.games.two_heirs.render.cells import cost_text, name_lines, unit
from regalia.games.two_heirs.render.labels import NOTHING, Last
from regalia.games.two_heirs.render.parts import (
    CLEAR,
    ELITE,
    FILL,
    FILL_DOWN,
    HIGHLIGHT,
    RADIUS,
    SEAT_FILL,
    SEAT_INK,
    SEAT_NAME,
    SEAT_STROKE,
    SLOT,
    TARGET,
    Choices,
)
from regalia.games.two_heirs.render.reserve import crown, reach_label, reach_sets
from regalia.games.two_heirs.render.style import COLOUR_LETTERS, building_words
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES
from regalia.render.svg import INK, el, title, txt
from regalia.render.svg import fmt as _fmt


def slot_centre(cx: float, cy: float, pos: int, size: int) -> tuple[float, float]:
    """The centre of reserve position ``pos`` of ``size`` on the circle around ``(cx, cy)``."""
    angle = -math.pi / 2 + 2 * math.pi * pos / size
    return cx + RADIUS * math.cos(angle), cy + RADIUS * math.sin(angle)


def reserve(state: TwoHeirsState, cx: float, cy: float, choices: Choices | None, last: Last = NOTHING) -> str:
    """The royal reserve circle around ``(cx, cy)``: its tiles, the shield, the reach pips and the
    waiting units."""
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
        sx, sy = slot_centre(cx, cy, pos, size)
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
                    {
                        "class": "shield",
                        "data-reserve-pos": pos,
                        "data-crown": SEAT_NAME[c],
                        "data-last": "true" if last.shield else None,
                    },
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
            attrs = choices.act(attrs, choices.take[t])
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
            *name_lines(sx, sy + 1, building_words(tile), SLOT - 6, 3, (9, 8, 7)),
            txt(sx, y + SLOT - 6, cost_text(tile), 9, anchor="middle"),
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
    parts.extend(_waiting(state, cx, cy, choices, last))
    labels = [f"reach: white {reach_label(state, 0)}, blue {reach_label(state, 1)}"]
    parts.append(txt(cx, cy + RADIUS + 52, labels[0], 11, anchor="middle"))
    return el("g", {"class": "reserve"}, *parts)


def _waiting(state: TwoHeirsState, cx: float, cy: float, choices: Choices | None, last: Last) -> list[str]:
    """The regular units waiting in the royal reserve; the seat to act's open the ``call`` layer
    (one target around them, at least 44 units)."""
    waiting = [seat for seat in (0, 1) for _ in range(state.units_in_reserve(seat))]
    out = []
    n = len(waiting)
    calls: list[str] = []
    for k, seat in enumerate(waiting):
        ux = cx + (k - (n - 1) / 2) * 26
        marked = seat in last.reserve_units and (k == 0 or waiting[k - 1] != seat)
        attrs = {
            "class": "unit in-reserve",
            "data-seat": SEAT_NAME[seat],
            "data-last": "true" if marked else None,
        }
        part = el(
            "g",
            attrs,
            title(f"{SEAT_NAME[seat]}'s unit in the royal reserve"),
            unit(seat, False, False, ux, cy),
        )
        if choices is not None and seat == state.player and choices.call:
            calls.append(part)
        else:
            out.append(part)
    if calls:
        xs = [cx + (k - (n - 1) / 2) * 26 for k, seat in enumerate(waiting) if seat == state.player]
        w = max(TARGET, max(xs) - min(xs) + 26)
        mid = (max(xs) + min(xs)) / 2
        hit = el("rect", {"x": mid - w / 2, "y": cy - TARGET / 2, "width": w, "height": TARGET, **CLEAR})
        out.append(
            el("g", choices.select({"class": "in-reserve call"}, "call") if choices else {}, hit, *calls)
        )
    return out


def supply(state: TwoHeirsState, cx: float, cy: float) -> str:
    """The supply's face-down pile beside the reserve circle around ``(cx, cy)``."""
    top = state.top if state.supply else -1
    sx, sy = cx + RADIUS + 10, cy + RADIUS + 4
    return el(
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


__all__ = ["reserve", "slot_centre", "supply"]
