"""The Two Heirs as a standalone SVG document: browser client, reports and PNG export.

:func:`render_svg` draws the whole position: the board (tile colours, owners and orientation,
building names, roads, units with elite and moved marks, solo treasures, the playable positions of
the seat to move), the royal reserve circle with the shield and each seat's reach, the supply, the
hands, the scores, whose turn it is, and the solo extras. No scripts and no external resources.
The board's parts are drawn by :mod:`.cells`, the reserve circle by :mod:`.circle`, the layers by
:mod:`.parts`, shared with the browser table's board (:mod:`.table`); this module adds the title,
the hands, the buttons, the texts and the legend around them.

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

Every legal action of the seat to act is exactly one ``data-action`` value in the document; the
board's and the reserve's clickable parts also carry ``data-label``, the action in words.

>>> import regalia, random
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> root = ET.fromstring(render_svg(state))
>>> sorted({e.get("data-action") for e in root.iter() if e.get("data-action")})
['take T2', 'take T5', 'take W7']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from regalia.core.grid import format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.render.board import playable_positions
from regalia.games.two_heirs.render.cells import board, cost_text, name_lines
from regalia.games.two_heirs.render.circle import reserve, supply
from regalia.games.two_heirs.render.labels import last_marks
from regalia.games.two_heirs.render.parts import (
    CELL,
    FILL,
    RADIUS,
    SEAT_FILL,
    SEAT_NAME,
    SEAT_STROKE,
    Choices,
    layers,
    root_attrs,
)
from regalia.games.two_heirs.render.players import status_line
from regalia.games.two_heirs.render.reserve import reach_label
from regalia.games.two_heirs.render.scoresheet import verdict
from regalia.games.two_heirs.render.solo import henry_score_text, henry_turn_lines
from regalia.games.two_heirs.render.style import (
    COLOUR_LETTERS,
    affordable,
    building_words,
    is_henry,
    plural,
    seat_label,
)
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS
from regalia.render.svg import (
    Frame,
    button,
    button_width,
    clickable_seat,
    document,
    el,
    text_lines,
    title,
    txt,
    write_png,
)

MARGIN = 24
TOP = 64
HAND_TILE = 64
#: The right column (reserve, hands, buttons, texts).
RIGHT_W = 460
LINE = 17


# -- hands, buttons, texts ----------------------------------------------------------------------------


def _hand(
    state: TwoHeirsState,
    seat: int,
    left: float,
    top: float,
    choices: Choices | None,
    viewer: int | None,
    hand_last: frozenset[int] = frozenset(),
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
            "data-last": "true" if t in hand_last else None,
        }
        if choices is not None and seat == state.player:
            attrs = choices.hand_tile(attrs, t, tile.id)
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
            *name_lines(x + HAND_TILE / 2, y + 34, building_words(tile), HAND_TILE - 6, 2, (10, 9, 8, 7)),
            txt(x + HAND_TILE / 2, y + HAND_TILE - 7, cost_text(tile), 10, anchor="middle"),
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
    last = last_marks(state)
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
        body.append(board(state, frame, choices, last))
    else:
        body.append(txt(frame.left, frame.top + 30, "The play area is empty: chance sets up the game.", 13))
    rcx, rcy = right + RADIUS + 56, TOP + RADIUS + 70
    body.append(reserve(state, rcx, rcy, choices, last))
    body.append(supply(state, rcx, rcy))
    y: float = rcy + RADIUS + 80
    for s in (0, 1):
        part, y = _hand(state, s, right, y, choices, viewer, last.hand)
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
        body.append(layers(choices, frame, (rcx, rcy)))
    bottom = max(y, frame.top + frame.height + 20)
    width = right + RIGHT_W
    legend, bottom = _lines(MARGIN, bottom + 10, [LEGEND], width=int((width - MARGIN) / 6.2), size=10)
    body.append(legend)
    height = bottom + 10
    attrs = {
        **root_attrs(state, viewer, choices is not None),
    }
    return document(width, height, attrs, (DEFS, STYLE), body)


def render_png(state: TwoHeirsState, path: str | Path, viewer: int | None = None, scale: float = 1.0) -> Path:
    """Write the position as a PNG image (needs ``cairosvg``: ``pip install cairosvg``)."""
    return write_png(render_svg(state, viewer), path, scale)


__all__ = ["CELL", "Choices", "clickable_seat", "el", "render_png", "render_svg"]
