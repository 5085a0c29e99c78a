"""Intrigue in the Royal Court as a standalone SVG document: browser client, reports, PNG export.

:func:`render_svg` draws the board (a grid around the pieces, north up, numbered like the
notation), the king and the queen (gold, crowned, ringed in the colour of the seat whose consort
each is), every tile in its owner's colour with its archetype's abbreviation, name and influence
and its side (active: solid colour with a banner; inactive: pale with the token), both activation
zones, the removed tiles, each consort's current score, whose turn and which step it is, the
legend and, once the game is over, the result and each consort's scoring. No scripts and no
external resources. The board's parts and the selection layers are :mod:`.board`'s, shared with
the browser table's board (:mod:`.table`); the pieces' pictures are :mod:`.art`'s.

Clickable parts (only when ``viewer`` is the seat to act or ``None``; never at a chance node or
after the game) stand for the legal actions: every legal action is exactly one element whose
``data-action`` is its notation. Direct parts: the targets of an ability (a tile in play, a tile in
the opponent's zone for ``flip Spy`` or ``force Spy``) and the ``pass`` button. A tile of the zone
(step 1 or the Captain's ``place``), a tile that may move (step 3) and a king or queen the Wizard
may move carry ``data-select`` instead, naming a hidden layer (``data-layer``) that holds the
squares, each with its complete ``data-action`` (``play Spy 1,1``, ``move 2,1 3,2``,
``consort 0,0 0,1``); a layer whose choice is the only one is shown from the start.

>>> import regalia
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> for text in ("first red", "play Spy 1,1", "move 1,1 1,0"):
...     _ = state.apply_text(text)
>>> root = ET.fromstring(render_svg(state))
>>> sorted(e.get("data-select") for e in root.iter() if e.get("data-select"))[:3]
['play Assassin', 'play Bishop', 'play Captain']
>>> sum(1 for e in root.iter() if e.get("data-action")) == len(state.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from regalia.core.game import TERMINAL
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.render.art import (
    CHOICE,
    CHOICE_FILL,
    SEAT_FILL,
    SEAT_INK,
    royal_art,
    tile_art,
    tile_title,
)
from regalia.games.royal_court.render.board import Choices, board_frame, board_parts, layer_parts, ring
from regalia.games.royal_court.render.terminal import result_line, score_line, status_line
from regalia.games.royal_court.state import PHASES, RoyalCourtState
from regalia.render.svg import (
    FONT,
    button,
    clickable_seat,
    document,
    el,
    offer,
    text_lines,
    title,
    to_act,
    txt,
    write_png,
)

MARGIN = 24
TOP = 96
PANEL_W = 380
SMALL = 48
GAP = 6

LEGEND = (
    "Tiles: abbreviation, name and influence (top right) in the owner's colour. Active side: solid "
    "colour with a banner. Inactive side: pale with the token (worth 1 when it scores beside its own "
    "consort); abilities never target it. The king (K) and the queen (Q) are gold and crowned when "
    "active, pale when inactive; the ring and the label say whose consort each is. Dotted squares: the "
    "four sides of each consort, where the score is counted."
)
CLICK_LEGEND = (
    " Click a tile of your zone, a tile to move or a royal to move to see its squares; targets and "
    "'pass' are clicked directly."
)


def _viewer_name(seat: int, viewer: int | None) -> str:
    return SEAT_NAMES[seat] + (" (you)" if seat == viewer else "")


def _seat_panel(
    state: RoyalCourtState, seat: int, x: float, y: float, viewer: int | None, choices: Choices | None
) -> tuple[list[str], float]:
    game = state.game
    mover = state.current_player == seat
    score = state.consort_score(seat)
    head = f"{_viewer_name(seat, viewer)} · surrounds the {game.consorts[seat]} · score {score}"
    parts = [
        el(
            "rect",
            {
                "class": "to-act" if mover else None,
                "x": x - 8,
                "y": y - 18,
                "width": PANEL_W if mover else PANEL_W / 3,
                "height": 8,
                "fill": SEAT_FILL[seat],
                "rx": 3,
            },
        ),
        txt(x, y + 4, head, 14, font_weight="bold", fill=SEAT_INK[seat]),
    ]
    y += 14
    parts.append(txt(x, y + 10, "activation zone:", 11, fill="#444444"))
    y += 16
    tiles = state.zone_tiles(seat)
    if not tiles:
        parts.append(txt(x, y + 14, "empty", 11, fill="#777777"))
        y += 24
    opp_targets = choices is not None and seat != state.current_player
    own_select = choices is not None and seat == state.current_player
    for i, k in enumerate(tiles):
        piece = game.piece(seat, k)
        tx = x + (i % 6) * (SMALL + GAP)
        ty = y + (i // 6) * (SMALL + GAP)
        side = "active" if state.is_active(piece) else "inactive"
        attrs: dict[str, object] = {
            "class": "zone-tile",
            "data-seat": SEAT_NAMES[seat],
            "data-archetype": game.archetypes.archetypes[k].name,
            "data-side": side,
        }
        tip = tile_title(state, piece, "in the zone")
        extra: list[str] = []
        if opp_targets and choices is not None and k in choices.on_zone:
            action = choices.text[choices.on_zone[k]]
            attrs = offer(attrs, action, cls="target")
            tip += f" · click: {action}"
            extra.append(ring(tx, ty, SMALL))
        elif own_select and choices is not None and k in choices.select_zone:
            key = choices.select_zone[k]
            attrs = offer(attrs, select=key, cls="selectable")
            tip += f" · click to choose where: {key} …"
            extra.append(ring(tx, ty, SMALL))
        parts.append(el("g", attrs, title(tip), *tile_art(state, piece, tx, ty, SMALL), *extra))
    if tiles:
        y += ((len(tiles) + 5) // 6) * (SMALL + GAP)
    removed = [k for k in range(game.count) if state.removed >> game.piece(seat, k) & 1]
    if removed:
        parts.append(txt(x, y + 10, "removed from the game:", 11, fill="#444444"))
        y += 16
        for i, k in enumerate(removed):
            piece = game.piece(seat, k)
            tx = x + i * (40 + 4)
            cross = el(
                "path",
                {
                    "d": f"M{tx + 3} {y + 3} L{tx + 37} {y + 37} M{tx + 37} {y + 3} L{tx + 3} {y + 37}",
                    "stroke": "#333333",
                    "stroke-width": 1.5,
                    "opacity": 0.6,
                },
            )
            parts.append(
                el(
                    "g",
                    {
                        "class": "removed-tile",
                        "data-seat": SEAT_NAMES[seat],
                        "data-archetype": game.archetypes.archetypes[k].name,
                    },
                    title(tile_title(state, piece, "removed from the game")),
                    *tile_art(state, piece, tx, y, 40),
                    cross,
                )
            )
        y += 46
    notes = []
    if state.forced[seat] >= 0:
        notes.append(f"must play the {game.archetypes.archetypes[state.forced[seat]].name} next (forced)")
    if state.blocked >> seat & 1:
        notes.append("next ability blocked")
    for note in notes:
        parts.append(txt(x, y + 12, note, 11, font_style="italic", fill=SEAT_INK[seat]))
        y += 16
    return [el("g", {"class": "seat", "data-seat": SEAT_NAMES[seat], "data-score": score}, *parts)], y + 22


def _status(state: RoyalCourtState, viewer: int | None) -> str:
    """``turn 3 · red (you) to move a tile one square (step 3)``, or the result."""
    return status_line(state, viewer).plain


def _wrap(text: str, x: float, y: float, width: float, size: int, fill: str) -> tuple[list[str], float]:
    """``text`` wrapped to ``width`` units (about ``0.58 * size`` a character, 20 at least)."""
    return text_lines(x, y, text, max(20, int(width / (size * 0.58))), size, fill=fill)


def render_svg(state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> str:
    """The whole position as a standalone SVG document (see the module docstring; ``viewer`` is the seat
    looking, ``None`` a spectator who may act for the seat to move). With ``clickable`` false nothing is
    clickable (a viewer who may not act, a replay)."""
    seat = clickable_seat(state, viewer) if clickable else None
    legal: Sequence[Action] = state.legal_actions() if seat is not None else ()
    choices = Choices(state, legal) if legal else None
    frame = board_frame(state, MARGIN + 30, TOP)
    right = frame.left + frame.width + 40
    body: list[str] = [
        txt(MARGIN, 32, "Intrigue in the Royal Court", 20, font_weight="bold"),
        el("g", {"class": "status"}, txt(MARGIN, 58, _status(state, viewer), 13)),
    ]
    body.extend(board_parts(state, frame, choices))
    y: float = TOP
    for s in (0, 1):
        part, y = _seat_panel(state, s, right, y, viewer, choices)
        body.extend(part)
    if choices is not None:
        for action in choices.buttons:
            text = choices.text[action]
            label = "pass (decline the extra move)" if action.kind == act.PASS else text
            body.append(button(right, y, label, text, fill=CHOICE_FILL, stroke=CHOICE))
            y += 36
    if state.current_player == TERMINAL:
        lines = [
            el("g", {"class": "result"}, txt(right, y + 4, result_line(state).plain, 13, font_weight="bold"))
        ]
        y += 22
        for s in (0, 1):
            lines.append(txt(right, y, score_line(state, s), 12, fill=SEAT_INK[s]))
            y += 18
        body.append(el("g", {"class": "scoring"}, *lines))
    bottom = max(y, frame.top + frame.height) + 20
    width = max(right + PANEL_W, 760)
    # the legend: each archetype in a word, then how to read the picture
    items = [f"{a.abbr} {a.name} {a.influence} {a.word}" for a in state.game.archetypes.archetypes]
    part, bottom = _wrap(" · ".join(items), MARGIN, bottom, width - 2 * MARGIN, 11, fill="#333333")
    body.append(el("g", {"class": "legend"}, *part))
    part, bottom = _wrap(
        LEGEND + (CLICK_LEGEND if choices else ""), MARGIN, bottom + 2, width - 2 * MARGIN, 10, fill="#555555"
    )
    body.append(el("g", {"class": "legend"}, *part))
    if choices is not None:
        body.extend(layer_parts(frame, choices))
    attrs = {
        "font-family": FONT,
        "data-game": "royal-court",
        "data-ply": state.ply,
        "data-turn": state.turn + 1,
        "data-step": _step(state),
        "data-to-act": to_act(state, lambda s: SEAT_NAMES[s]),
        "data-viewer": "spectator" if viewer is None else SEAT_NAMES[viewer],
        "data-clickable": "true" if choices else "false",
    }
    style = "<style>.clickable{cursor:pointer}.choice.clickable:hover{opacity:0.7}</style>"
    return document(width, bottom + 8, attrs, (style,), body)


def _step(state: RoyalCourtState) -> str:
    """``first``, ``play``, ``target``, ``place``, ``move`` or ``over``."""
    return PHASES[state.phase]


def render_png(
    state: RoyalCourtState, path: str | Path, viewer: int | None = None, scale: float = 1.0
) -> Path:
    """Write the position as a PNG image (needs ``cairosvg``)."""
    return write_png(render_svg(state, viewer), path, scale)


def offered(svg: str) -> Iterable[str]:
    """The ``data-action`` values of a document, in document order (for clients and tests)."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    return [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]


__all__ = ["offered", "render_png", "render_svg", "royal_art", "tile_art"]
