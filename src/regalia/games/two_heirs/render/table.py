"""The Two Heirs on the browser table (docs/table.md): the board alone, in world units.

:func:`render_board` draws the play area at the fixed :data:`~.parts.CELL` (76 units, CSS pixels at
zoom 1), the royal reserve circle to its right (where the ``take`` choices are), and, at the
board's bottom edge, the hand of the seat to act with the turn's buttons (``end``, ``spare``), so
"take, then build" is chosen on the board through the selection layers of docs/rendering.md.
Scores, seats, the supply and the solo extras are HTML panels (:mod:`.panels`).

Every clickable target is at least 44 units across and carries ``data-label`` (the action in
words); every tile and unit carries ``data-pos``; the latest turn's parts carry ``data-last``; the
points a tile laid or a unit moved just changed are ``g.scored`` groups over its cell.

>>> import regalia, random
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> root = ET.fromstring(render_board(state))
>>> root.get("data-cell"), root.get("data-focus")
('76', '166 160')
>>> sorted(e.get("data-label") for e in root.iter() if e.get("data-action"))[0]
'Take T2, the yellow farm, from the royal reserve'
"""

from __future__ import annotations

from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.render.board import playable_positions
from regalia.games.two_heirs.render.cells import board, cost_text, name_lines
from regalia.games.two_heirs.render.circle import reserve
from regalia.games.two_heirs.render.labels import Last, last_marks, scored
from regalia.games.two_heirs.render.parts import (
    CELL,
    CLEAR,
    FILL,
    RADIUS,
    SEAT_NAME,
    TARGET,
    Choices,
    layers,
    root_attrs,
)
from regalia.games.two_heirs.render.style import COLOUR_LETTERS, building_words, seat_label
from regalia.games.two_heirs.render.svg import DEFS, STYLE
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS
from regalia.render.svg import (
    BUTTON_FILL,
    BUTTON_STROKE,
    Frame,
    clickable_seat,
    document,
    el,
    fmt,
    title,
    txt,
)

MARGIN = 24
#: The gap between the board and the reserve circle, and above the hand.
GAP = 56
BUTTON_W = 132


def _hand_tile(state: TwoHeirsState, t: int, x: float, y: float, choices: Choices, last: Last) -> list[str]:
    """A hand tile of the seat to act at ``(x, y)``, a cell across: it discards (at the hand limit)
    or opens its ``build`` layer (``terrain`` when it may only be played face down); a "face down"
    button under it when both are possible."""
    tile = state.tiles[t]
    attrs: dict[str, object] = {
        "class": "hand-tile",
        "data-tile": tile.id,
        "data-colour": COLOURS[tile.colour],
        "data-last": "true" if t in last.hand else None,
    }
    build = choices.place.get((act.BUILD, t))
    terrain = choices.place.get((act.TERRAIN, t))
    attrs = choices.hand_tile(attrs, t, tile.id)
    cx = x + CELL / 2
    out = [
        el(
            "g",
            attrs,
            title(f"{tile.id} {building_words(tile)}, {COLOURS[tile.colour]}; costs {tile.cost_text()}"),
            el(
                "rect",
                {
                    "x": x,
                    "y": y,
                    "width": CELL,
                    "height": CELL,
                    "rx": 4,
                    "fill": FILL[tile.colour],
                    "stroke": "#333333",
                },
            ),
            txt(x + 6, y + 15, tile.id, 12, font_weight="bold"),
            txt(x + CELL - 6, y + 15, COLOUR_LETTERS[tile.colour], 12, anchor="end", font_weight="bold"),
            *name_lines(cx, y + CELL / 2, building_words(tile), CELL - 8),
            txt(cx, y + CELL - 8, cost_text(tile), 10, anchor="middle"),
        )
    ]
    if build and terrain and t not in choices.discard:
        out.append(_button(choices, x, y + CELL + 6, CELL, "face down", select=f"terrain {tile.id}"))
    return out


def _button(
    choices: Choices,
    x: float,
    y: float,
    width: float,
    text: str,
    action: Action | None = None,
    select: str | None = None,
) -> str:
    """A button ``width`` x 44 at ``(x, y)`` standing for ``action`` or opening ``select``."""
    base = {"class": "button"}
    attrs = choices.act(base, action) if action is not None else choices.select(base, select or "")
    tip = choices.text[action] if action is not None else str(attrs["data-label"])
    return el(
        "g",
        attrs,
        title(tip),
        el(
            "rect",
            {
                "x": x,
                "y": y,
                "width": width,
                "height": TARGET,
                "rx": 6,
                "fill": BUTTON_FILL if action is not None else "#e7f5ff",
                "stroke": BUTTON_STROKE if action is not None else "#1c7ed6",
            },
        ),
        txt(x + width / 2, y + TARGET / 2 + 5, text, 13, anchor="middle", font_weight="bold"),
    )


BUTTON_TEXT = {act.END: "End turn", act.SPARE: "Spare"}


def _edge(
    state: TwoHeirsState, left: float, top: float, choices: Choices, last: Last
) -> tuple[list[str], float, float]:
    """The seat to act's hand and buttons from ``(left, top)``; returns the parts, their right end
    and their bottom."""
    seat = state.player
    out = [txt(left, top + 14, f"{seat_label(state, seat)}'s hand", 13, font_weight="bold")]
    y = top + 24
    x = left
    for t in state.hands[seat]:
        out.extend(_hand_tile(state, t, x, y, choices, last))
        x += CELL + 12
    if not state.hands[seat]:
        out.append(txt(left, y + 20, "empty", 12, fill="#777777"))
        x += CELL
    bottom = y + CELL + 6 + TARGET
    bx = x + 12
    for a in choices.buttons:
        out.append(
            _button(
                choices, bx, y + (CELL - TARGET) / 2, BUTTON_W, BUTTON_TEXT.get(a.kind, choices.text[a]), a
            )
        )
        bx += BUTTON_W + 12
    return out, bx, bottom


def _scored(state: TwoHeirsState, frame: Frame, last: Last) -> list[str]:
    out = []
    for seat, points, pos in scored(state, last):
        x, y = frame.corner(pos)
        out.append(
            el(
                "g",
                {"class": "scored", "data-points": points, "data-seat": SEAT_NAME[seat]},
                el(
                    "rect", {"x": x, "y": y, "width": CELL, "height": CELL, **CLEAR, "pointer-events": "none"}
                ),
            )
        )
    return out


def _focus(frame: Frame, last: Last) -> tuple[float, float]:
    """The centre of the latest turn's newest tile or unit, else the middle of the board."""
    if last.focus is not None:
        return frame.centre(last.focus)
    return frame.left + frame.width / 2, frame.top + frame.height / 2


def render_board(state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> str:
    """The board, the royal reserve and the seat to act's hand as an SVG in world units (see the
    module docstring); clickable as :func:`~.svg.render_svg` is (``viewer`` the seat to act, or
    ``None``), nothing with ``clickable`` false."""
    seat = clickable_seat(state, viewer) if clickable else None
    choices = Choices(state, state.legal_actions()) if seat is not None else None
    last = last_marks(state)
    frame = Frame([*state.board, *playable_positions(state)], MARGIN + 28, MARGIN + 22, CELL)
    rcx = frame.left + frame.width + GAP + RADIUS + 40
    rcy = MARGIN + RADIUS + 60
    body = [board(state, frame, choices, last), reserve(state, rcx, rcy, choices, last)]
    right = rcx + RADIUS + 60
    bottom = max(frame.top + frame.height, rcy + RADIUS + 60)
    if choices is not None:
        parts, end, bottom = _edge(state, frame.left, bottom + GAP / 2, choices, last)
        body.extend(parts)
        right = max(right, end)
    body.extend(_scored(state, frame, last))
    if choices is not None:
        body.append(layers(choices, frame, (rcx, rcy)))
    fx, fy = _focus(frame, last)
    attrs = {
        **root_attrs(state, viewer, choices is not None),
        "data-cell": CELL,
        "data-focus": f"{fmt(fx)} {fmt(fy)}",
    }
    return document(right + MARGIN, bottom + MARGIN, attrs, (DEFS, STYLE), body)


def render_stage(state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> str | None:
    """No close-up: every choice of a decision is a whole cell, a reserve slot or a 44-unit
    target of its own on the board, so none overlap (docs/table.md, "The stage")."""
    return None


__all__ = ["render_board", "render_stage"]
