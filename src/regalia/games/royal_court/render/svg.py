"""Intrigue in the Royal Court as a standalone SVG document: browser client, reports, PNG export.

:func:`render_svg` draws the board (a grid around the pieces, north up, numbered like the
notation), the king and the queen (gold, crowned, ringed in the colour of the seat whose consort
each is), every tile in its owner's colour with its archetype's abbreviation, name and influence
and its side (active: solid colour with a banner; inactive: pale with the token), both activation
zones, the removed tiles, each consort's current score, whose turn and which step it is, the
legend and, once the game is over, the result and each consort's scoring. No scripts and no
external resources.

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
from regalia.core.grid import Pos, format_pos, neighbours4
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.render.terminal import result_line, score_line, status_line
from regalia.games.royal_court.state import KING, PHASES, RoyalCourtState
from regalia.render.svg import (
    FONT,
    Frame,
    board_ground,
    button,
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

CELL = 68
MARGIN = 24
TOP = 96
PANEL_W = 380
SMALL = 48
GAP = 6

#: Per seat: the solid fill of an active tile, the pale fill of an inactive one, the ink.
SEAT_FILL = ("#c92a2a", "#1c5fb8")
SEAT_PALE = ("#f8dede", "#dde8f7")
SEAT_INK = ("#8a1c1c", "#123f7a")
GOLD = "#f2c230"
GOLD_PALE = "#f3ead0"
BANNER = "#f2c230"
BOARD_BG = "#efe7d2"
CHOICE = "#2b8a3e"
CHOICE_FILL = "#d3f9d8"

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


def _seat(state: RoyalCourtState, piece: int) -> int:
    """The seat owning a tile, or the seat whose consort a king or queen is."""
    if piece < 2:
        return state.game.consort_piece.index(piece)
    return state.game.owner[piece]


def _viewer_name(seat: int, viewer: int | None) -> str:
    return SEAT_NAMES[seat] + (" (you)" if seat == viewer else "")


def tile_art(state: RoyalCourtState, piece: int, x: float, y: float, size: float) -> list[str]:
    """The picture of a tile in a ``size`` square at ``x, y``: active (solid, banner) or inactive
    (pale, token); the abbreviation, the name (when there is room) and the influence."""
    game = state.game
    seat = game.owner[piece]
    arch = game.archetypes.archetypes[game.arch[piece]]
    active = state.is_active(piece)
    pad = size * 0.06
    box = {"x": x + pad, "y": y + pad, "width": size - 2 * pad, "height": size - 2 * pad, "rx": size * 0.1}
    out: list[str] = []
    ink = "#ffffff" if active else SEAT_INK[seat]
    if active:
        out.append(el("rect", {**box, "fill": SEAT_FILL[seat], "stroke": SEAT_INK[seat], "stroke-width": 2}))
        # the banner: a swallow-tailed pennant hanging from the top left
        bx, by, bw, bh = x + size * 0.14, y + pad, size * 0.16, size * 0.3
        points = f"{bx:.1f},{by:.1f} {bx + bw:.1f},{by:.1f} {bx + bw:.1f},{by + bh:.1f} "
        points += f"{bx + bw / 2:.1f},{by + bh * 0.75:.1f} {bx:.1f},{by + bh:.1f}"
        out.append(el("polygon", {"class": "banner", "points": points, "fill": BANNER, "stroke": "#7a5c00"}))
    else:
        out.append(
            el(
                "rect",
                {
                    **box,
                    "fill": SEAT_PALE[seat],
                    "stroke": SEAT_FILL[seat],
                    "stroke-width": 2,
                    "stroke-dasharray": "4 3",
                },
            )
        )
        # the token: a round counter at the top left
        r = size * 0.11
        out.append(
            el(
                "circle",
                {
                    "class": "token",
                    "cx": x + size * 0.22,
                    "cy": y + size * 0.22,
                    "r": r,
                    "fill": "#b08d57",
                    "stroke": "#5c4320",
                },
            )
        )
    # the influence, top right
    out.append(
        txt(
            x + size - pad - size * 0.08,
            y + pad + size * 0.2,
            str(arch.influence),
            max(9, int(size * 0.2)),
            anchor="end",
            font_weight="bold",
            fill=ink,
        )
    )
    out.append(
        txt(
            x + size / 2,
            y + size * 0.62,
            arch.abbr,
            max(10, int(size * 0.3)),
            anchor="middle",
            font_weight="bold",
            fill=ink,
        )
    )
    if size >= 60:
        out.append(txt(x + size / 2, y + size * 0.84, arch.name, 10, anchor="middle", fill=ink))
    return out


def _tile_title(state: RoyalCourtState, piece: int, where: str) -> str:
    game = state.game
    arch = game.archetypes.archetypes[game.arch[piece]]
    side = "active" if state.is_active(piece) else "inactive"
    return f"{state.piece_name(piece)} ({arch.influence}, {arch.word}: {arch.ability}) · {side} · {where}"


def royal_art(state: RoyalCourtState, piece: int, x: float, y: float, size: float) -> list[str]:
    """The king or the queen: a gold disc (pale when inactive) with a crown, its letter, ringed in
    the colour of the seat whose consort it is, and that seat's name."""
    seat = _seat(state, piece)
    active = state.is_active(piece)
    cx, cy = x + size / 2, y + size * 0.44
    r = size * 0.34
    out = [
        el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r,
                "fill": GOLD if active else GOLD_PALE,
                "stroke": SEAT_FILL[seat],
                "stroke-width": 5,
                "stroke-dasharray": None if active else "5 3",
            },
        )
    ]
    # the crown: five points on a band
    w, h = size * 0.38, size * 0.18
    left, base = cx - w / 2, cy - size * 0.05
    pts = [
        (left, base),
        (left, base - h),
        (left + w * 0.25, base - h * 0.45),
        (cx, base - h * 1.15),
        (left + w * 0.75, base - h * 0.45),
        (left + w, base - h),
        (left + w, base),
    ]
    crown_fill = "#ffffff" if active else "#d9cfae"
    out.append(
        el(
            "polygon",
            {
                "class": "crown",
                "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in pts),
                "fill": crown_fill,
                "stroke": "#7a5c00",
            },
        )
    )
    letter = "K" if piece == KING else "Q"
    out.append(txt(cx, cy + size * 0.19, letter, int(size * 0.22), anchor="middle", font_weight="bold"))
    out.append(
        txt(
            cx,
            y + size - 1,
            f"{SEAT_NAMES[seat]}'s",
            10,
            anchor="middle",
            fill=SEAT_INK[seat],
            font_weight="bold",
        )
    )
    return out


def _square(x: float, y: float, size: float, label: str, action: str, cls: str) -> str:
    """A clickable square of a layer: a green square with a short label."""
    return el(
        "g",
        offer({"class": cls}, action),
        title(action),
        el(
            "rect",
            {
                "x": x + 4,
                "y": y + 4,
                "width": size - 8,
                "height": size - 8,
                "rx": 8,
                "fill": CHOICE_FILL,
                "stroke": CHOICE,
                "stroke-width": 2,
                "opacity": 0.92,
            },
        ),
        txt(x + size / 2, y + size / 2 + 5, label, 14, anchor="middle", font_weight="bold", fill=CHOICE),
    )


def _ring(x: float, y: float, size: float) -> str:
    return el(
        "rect",
        {
            "class": "target-ring",
            "x": x + 1,
            "y": y + 1,
            "width": size - 2,
            "height": size - 2,
            "rx": 10,
            "fill": "none",
            "stroke": CHOICE,
            "stroke-width": 4,
        },
    )


class _Choices:
    """The legal actions of the seat to act, sorted into what the picture offers them with."""

    def __init__(self, state: RoyalCourtState, legal: Sequence[Action]) -> None:
        self.text = {a: state.notation(a) for a in legal}
        #: data-action on a tile in play (by square) or in a zone (by archetype index)
        self.on_square: dict[Pos, Action] = {}
        self.on_zone: dict[int, Action] = {}
        #: layers: key -> [(square, label, action)]
        self.layers: dict[str, list[tuple[Pos, str, Action]]] = {}
        #: what selects each layer: a zone tile (archetype index) or a piece's square
        self.select_zone: dict[int, str] = {}
        self.select_square: dict[Pos, str] = {}
        self.buttons: list[Action] = []
        names = state.game.archetypes.archetypes
        for a in legal:
            kind = a.kind
            if kind in (act.PLAY, act.PLACE):
                assert a.dst is not None
                key = f"{kind} {names[a.arg].name}"
                self.select_zone[a.arg] = key
                self.layers.setdefault(key, []).append((a.dst, names[a.arg].abbr, a))
            elif kind in (act.MOVE, act.CONSORT):
                assert a.src is not None and a.dst is not None
                key = f"{kind} {format_pos(a.src)}"
                self.select_square[a.src] = key
                self.layers.setdefault(key, []).append((a.dst, _arrow(a.src, a.dst), a))
            elif a.dst is not None and a.src is None and kind != act.PASS:
                self.on_square[a.dst] = a
            elif kind in (act.FLIP, act.FORCE):
                self.on_zone[a.arg] = a
            else:
                self.buttons.append(a)


_ARROWS = {
    (0, 1): "↑",
    (0, -1): "↓",
    (1, 0): "→",
    (-1, 0): "←",
    (1, 1): "↗",
    (-1, 1): "↖",
    (1, -1): "↘",
    (-1, -1): "↙",
}


def _arrow(src: Pos, dst: Pos) -> str:
    return _ARROWS.get((dst[0] - src[0], dst[1] - src[1]), "•")


def _frame(state: RoyalCourtState) -> Frame:
    xs = [p[0] for p in state.board]
    ys = [p[1] for p in state.board]
    corners = [(min(xs) - 1, min(ys) - 1), (max(xs) + 1, max(ys) + 1)]
    return Frame(corners, MARGIN + 30, TOP, CELL)


def _board(state: RoyalCourtState, frame: Frame, choices: _Choices | None) -> list[str]:
    parts = board_ground(frame, BOARD_BG)
    for col in range(frame.x0, frame.x1 + 1):  # the grid
        x, _ = frame.corner((col, frame.y1))
        parts.append(
            el(
                "line",
                {"x1": x, "y1": frame.top, "x2": x, "y2": frame.top + frame.height, "stroke": "#d6ccb3"},
            )
        )
    for row in range(frame.y0, frame.y1 + 1):
        _, y = frame.corner((frame.x0, row))
        parts.append(
            el(
                "line",
                {"x1": frame.left, "y1": y, "x2": frame.left + frame.width, "y2": y, "stroke": "#d6ccb3"},
            )
        )
    for seat in (0, 1):  # the four sides of each consort
        for q in neighbours4(state.consort_at(seat)):
            x, y = frame.corner(q)
            parts.append(
                el(
                    "rect",
                    {
                        "class": "consort-side",
                        "data-seat": SEAT_NAMES[seat],
                        "x": x + 3,
                        "y": y + 3,
                        "width": CELL - 6,
                        "height": CELL - 6,
                        "fill": "none",
                        "stroke": SEAT_FILL[seat],
                        "stroke-width": 1.5,
                        "stroke-dasharray": "2 4",
                    },
                )
            )
    if choices is not None:  # where a tile may be played (clicked in the tile's layer)
        squares = {
            pos
            for key, items in choices.layers.items()
            if key.split()[0] in (act.PLAY, act.PLACE)
            for pos, _, _ in items
        }
        for pos in sorted(squares):
            x, y = frame.corner(pos)
            parts.append(
                el(
                    "rect",
                    {
                        "class": "playable",
                        "data-pos": format_pos(pos),
                        "x": x + 8,
                        "y": y + 8,
                        "width": CELL - 16,
                        "height": CELL - 16,
                        "rx": 6,
                        "fill": "none",
                        "stroke": CHOICE,
                        "stroke-dasharray": "6 4",
                    },
                )
            )
    for pos, piece in sorted(state.board.items()):
        x, y = frame.corner(pos)
        where = format_pos(pos)
        side = "active" if state.is_active(piece) else "inactive"
        attrs: dict[str, object] = {"data-pos": where, "data-side": side}
        extra: list[str] = []
        cls = "tile"
        if piece < 2:
            cls = "royal"
            attrs["data-piece"] = "king" if piece == KING else "queen"
            attrs["data-consort-of"] = SEAT_NAMES[_seat(state, piece)]
            art = royal_art(state, piece, x, y, CELL)
            tip = f"the {attrs['data-piece']}, {SEAT_NAMES[_seat(state, piece)]}'s consort · {side} · {where}"
        else:
            game = state.game
            attrs["data-owner"] = SEAT_NAMES[game.owner[piece]]
            attrs["data-archetype"] = game.archetypes.archetypes[game.arch[piece]].name
            art = tile_art(state, piece, x, y, CELL)
            tip = _tile_title(state, piece, where)
        head: dict[str, object] = {"class": cls, **attrs}
        if choices is not None and pos in choices.on_square:
            action = choices.text[choices.on_square[pos]]
            head = offer(head, action, cls="target")
            tip += f" · click: {action}"
            extra.append(_ring(x, y, CELL))
        elif choices is not None and pos in choices.select_square:
            key = choices.select_square[pos]
            head = offer(head, select=key, cls="selectable")
            tip += f" · click to choose where: {key} …"
            extra.append(_ring(x, y, CELL))
        parts.append(el("g", head, title(tip), *art, *extra))
    return parts


def _seat_panel(
    state: RoyalCourtState, seat: int, x: float, y: float, viewer: int | None, choices: _Choices | None
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
        tip = _tile_title(state, piece, "in the zone")
        extra: list[str] = []
        if opp_targets and choices is not None and k in choices.on_zone:
            action = choices.text[choices.on_zone[k]]
            attrs = offer(attrs, action, cls="target")
            tip += f" · click: {action}"
            extra.append(_ring(tx, ty, SMALL))
        elif own_select and choices is not None and k in choices.select_zone:
            key = choices.select_zone[k]
            attrs = offer(attrs, select=key, cls="selectable")
            tip += f" · click to choose where: {key} …"
            extra.append(_ring(tx, ty, SMALL))
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
                    title(_tile_title(state, piece, "removed from the game")),
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


def _layers(state: RoyalCourtState, frame: Frame, choices: _Choices) -> list[str]:
    out = []
    only = len(choices.layers) == 1 and not choices.on_square and not choices.on_zone
    for key, items in choices.layers.items():
        squares = []
        for pos, label, action in items:
            x, y = frame.corner(pos)
            squares.append(_square(x, y, CELL, label, choices.text[action], "choice"))
        out.append(layer(key, *squares, shown=only))
    return out


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
    choices = _Choices(state, legal) if legal else None
    frame = _frame(state)
    right = frame.left + frame.width + 40
    body: list[str] = [
        txt(MARGIN, 32, "Intrigue in the Royal Court", 20, font_weight="bold"),
        el("g", {"class": "status"}, txt(MARGIN, 58, _status(state, viewer), 13)),
    ]
    body.extend(_board(state, frame, choices))
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
        body.extend(_layers(state, frame, choices))
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
