"""Intrigue in the Royal Court's board for the browser table (docs/table.md): :func:`render_board`.

The board alone, in world units (one unit a CSS pixel at zoom 1): a square is :data:`CELL` units,
and the square ``x,y`` always has its top left corner at ``(CELL * x, -CELL * y)``, so the picture
does not shift as the court grows (the ``viewBox`` grows around it). The board's parts are those of
the whole picture (:mod:`.board`): the grid, the consorts' sides, the king, the queen and the tiles
with ``data-pos``, the targets of an ability and the selection layers, every clickable part with
its words in ``data-label`` (:mod:`.labels`).

Since the zones are panels of the table, the choices of a zone are drawn at the board's south
edge, in a strip of full-size tiles: the seat's own zone while it plays a tile (each tile opens the
layer of its squares: ``data-select="play Spy"``), the opponent's zone while a Bishop or a
Diplomat chooses a tile there (each target a ``data-action``), and the ``pass`` button of the
Joker's extra move.

The last ply's parts carry ``data-last`` (a square it emptied, a removed or returned tile, the
start of a move, is a ``g.vacated`` mark with its ``data-pos``), and a change of a consort's score
by the last ply is a ``g.scored`` group (``data-points``, ``data-seat``) over the consort and its
four sides. No stage: every choice is a whole square or tile, 68 units across, apart from the
others (:func:`render_stage` is ``None``).

>>> import regalia
>>> import xml.etree.ElementTree as ET
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> for text in ("first red", "play Spy 1,1", "move 1,1 1,0"):
...     _ = state.apply_text(text)
>>> root = ET.fromstring(render_board(state))
>>> root.get("data-cell"), root.get("data-focus"), root.get("viewBox")
('68', '102 34', '-106 -106 809 393')
>>> [e.get("data-pos") for e in root.iter() if e.get("data-last") is not None]
['1,0', '1,1']
>>> sum(1 for e in root.iter() if e.get("data-action")) == len(state.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Sequence

from regalia.core.errors import RegaliaError
from regalia.core.game import State
from regalia.core.grid import Pos, format_pos, neighbours4, parse_pos
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.render.art import CHOICE, CHOICE_FILL, SEAT_INK, tile_art, tile_title
from regalia.games.royal_court.render.board import CELL, Choices, board_frame, board_parts, layer_parts, ring
from regalia.games.royal_court.render.labels import action_label, places, play_label
from regalia.games.royal_court.state import P_PLAY, PHASES, RoyalCourtState
from regalia.render.svg import FONT, Frame, clickable_seat, el, fmt, offer, title, to_act, txt

#: The room around the board for the coordinates, in units.
PAD = 38
#: The space between the board and the zone strip, and between two tiles of the strip.
STRIP_GAP = 28
TILE_GAP = 8
#: The height of a button (a clickable target is 44 units at least).
BUTTON_H = 44


def _last(state: RoyalCourtState) -> tuple[str, ...]:
    """The ``data-pos`` values the last ply touched (none before the first)."""
    try:
        ply = state.last_ply()
    except RegaliaError:
        return ()
    return places(state, ply)


def _before(state: RoyalCourtState) -> RoyalCourtState | None:
    """The position before the last ply, replayed from the setup; ``None`` before the first ply,
    or when the history does not lead to ``state`` (a position built by hand, not by play)."""
    actors = state.actors()
    if not actors:
        return None
    try:
        previous: State[Action] = state.game.new_state(state.seed)
        for _player, action in actors[:-1]:
            previous.apply_unchecked(action)
        after = previous.clone()
        after.apply_unchecked(actors[-1][1])
    except (RegaliaError, AssertionError, KeyError, IndexError, TypeError):
        return None
    assert isinstance(previous, RoyalCourtState) and isinstance(after, RoyalCourtState)
    if after.board != state.board or after.inactive != state.inactive or after.zone != state.zone:
        return None
    return previous


def _scored(state: RoyalCourtState, frame: Frame) -> list[str]:
    """A ``g.scored`` group per consort whose score the last ply changed, over the consort and its
    four sides (an invisible rectangle)."""
    before = _before(state)
    if before is None:
        return []
    out = []
    for seat in (0, 1):
        delta = state.consort_score(seat) - before.consort_score(seat)
        if not delta:
            continue
        x, y = frame.corner(state.consort_at(seat))
        sides = ", ".join(format_pos(q) for q in neighbours4(state.consort_at(seat)))
        box = {"x": x - frame.cell, "y": y - frame.cell, "width": 3 * frame.cell, "height": 3 * frame.cell}
        head = {"class": "scored", "data-points": delta, "data-seat": SEAT_NAMES[seat]}
        words = f"{SEAT_NAMES[seat]}'s consort: {delta:+d} (the tiles on {sides})"
        rect = el("rect", {**box, "fill": "#ffffff", "fill-opacity": 0, "pointer-events": "none"})
        out.append(el("g", {**head, "pointer-events": "none"}, title(words), rect))
    return out


def _vacated(state: RoyalCourtState, frame: Frame, last: Sequence[str]) -> list[str]:
    """A dashed mark on each square the last ply emptied (a removed or returned tile, a move's
    start), with its ``data-pos`` and ``data-last``."""
    out = []
    for where in last:
        pos = parse_pos(where)
        if pos in state.board:
            continue
        x, y = frame.corner(pos)
        box = {"x": x + 6, "y": y + 6, "width": frame.cell - 12, "height": frame.cell - 12, "rx": 8}
        style = {"fill": "none", "stroke": "#7a6a4f", "stroke-width": 2, "stroke-dasharray": "3 5"}
        head = {"class": "vacated", "data-pos": where, "data-last": ""}
        out.append(el("g", head, title(f"{where}: emptied by the last ply"), el("rect", {**box, **style})))
    return out


def _zone_tile(state: RoyalCourtState, seat: int, k: int, x: float, y: float, choices: Choices) -> str:
    """A tile of ``seat``'s zone in the strip: a target (``data-action``), a tile to play (opens
    its layer), or neither."""
    game = state.game
    piece = game.piece(seat, k)
    attrs: dict[str, object] = {
        "class": "zone-tile",
        "data-seat": SEAT_NAMES[seat],
        "data-archetype": game.archetypes.archetypes[k].name,
        "data-side": "active" if state.is_active(piece) else "inactive",
    }
    tip = tile_title(state, piece, f"in {SEAT_NAMES[seat]}'s zone")
    extra: list[str] = []
    if seat != state.current_player and k in choices.on_zone:
        action = choices.on_zone[k]
        attrs = offer(attrs, choices.text[action], cls="target")
        attrs["data-label"] = action_label(state, action)
        extra.append(ring(x, y, CELL))
    elif seat == state.current_player and k in choices.select_zone:
        key = choices.select_zone[k]
        attrs = offer(attrs, select=key, cls="selectable")
        attrs["data-label"] = play_label(state, k, key.split()[0]) + " (choose its square)"
        extra.append(ring(x, y, CELL))
    else:
        attrs["opacity"] = 0.55
    return el("g", attrs, title(tip), *tile_art(state, piece, x, y, CELL), *extra)


def _button(x: float, y: float, text: str, action: Action, choices: Choices, state: RoyalCourtState) -> str:
    width = max(BUTTON_H, 24 + 8 * len(text))
    head = {**offer({"class": "button"}, choices.text[action]), "data-label": action_label(state, action)}
    box = {"x": x, "y": y, "width": width, "height": BUTTON_H, "rx": 8}
    return el(
        "g",
        head,
        title(action_label(state, action)),
        el("rect", {**box, "fill": CHOICE_FILL, "stroke": CHOICE, "stroke-width": 2}),
        txt(x + width / 2, y + BUTTON_H / 2 + 5, text, 14, anchor="middle", font_weight="bold"),
    )


def _strip(state: RoyalCourtState, frame: Frame, choices: Choices) -> tuple[list[str], float, float]:
    """The zone strip and the buttons at the south edge; returns the parts, its right and bottom."""
    me = state.current_player
    x0, y = frame.left, frame.top + frame.height + STRIP_GAP
    parts: list[str] = []
    right, bottom = x0, frame.top + frame.height
    rows: list[tuple[int, str]] = []
    if choices.select_zone:
        verb = "play" if state.phase == P_PLAY else "play as your second tile"
        rows.append((me, f"{SEAT_NAMES[me]}'s activation zone: choose a tile to {verb}"))
    if choices.on_zone:
        rows.append((1 - me, f"{SEAT_NAMES[1 - me]}'s activation zone: choose a tile"))
    for seat, heading in rows:
        parts.append(txt(x0, y + 12, heading, 13, font_weight="bold", fill=SEAT_INK[seat]))
        y += 22
        for i, k in enumerate(state.zone_tiles(seat)):
            x = x0 + i * (CELL + TILE_GAP)
            parts.append(_zone_tile(state, seat, k, x, y, choices))
            right = max(right, x + CELL)
        y += CELL + STRIP_GAP / 2
        bottom = y
    for action in choices.buttons:
        text = "Pass (no extra move)" if action.kind == act.PASS else choices.text[action]
        parts.append(_button(x0, y, text, action, choices, state))
        right = max(right, x0 + max(BUTTON_H, 24 + 8 * len(text)))
        y += BUTTON_H + TILE_GAP
        bottom = y
    group = [el("g", {"class": "zone-strip"}, *parts)] if parts else []
    return group, right, bottom


def render_board(state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> str:
    """The board alone for the table (see the module docstring); clickable as the whole picture is
    (the seat to act, or ``None``), every clickable part with a ``data-label``."""
    seat = clickable_seat(state, viewer) if clickable else None
    legal: Sequence[Action] = state.legal_actions() if seat is not None else ()
    choices = Choices(state, legal) if legal else None
    sample = board_frame(state, 0, 0)
    frame = board_frame(state, sample.x0 * CELL, -sample.y1 * CELL)
    last = _last(state)
    on_board = {parse_pos(p) for p in last}
    label = (lambda a: action_label(state, a)) if choices is not None else None
    body = board_parts(state, frame, choices, label, on_board)
    body.extend(_vacated(state, frame, last))
    body.extend(_scored(state, frame))
    right, bottom = frame.left + frame.width, frame.top + frame.height
    if choices is not None:
        strip, strip_right, bottom = _strip(state, frame, choices)
        body.extend(strip)
        right = max(right, strip_right)
        body.extend(layer_parts(frame, choices, label))
    left, top = frame.left - PAD, frame.top - PAD
    width, height = right + PAD / 2 - left, bottom + PAD / 2 - top
    focus = _focus(state, frame, last)
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": width,
        "height": height,
        "viewBox": " ".join(fmt(v) for v in (left, top, width, height)),
        "font-family": FONT,
        "data-game": "royal-court",
        "data-ply": state.ply,
        "data-turn": state.turn + 1,
        "data-step": PHASES[state.phase],
        "data-to-act": to_act(state, lambda s: SEAT_NAMES[s]),
        "data-viewer": "spectator" if viewer is None else SEAT_NAMES[viewer],
        "data-clickable": "true" if choices else "false",
        "data-cell": CELL,
        "data-focus": f"{fmt(focus[0])} {fmt(focus[1])}",
    }
    style = el("style", {}, text=".clickable{cursor:pointer}.choice.clickable:hover{opacity:0.7}")
    ground = el("rect", {"x": left, "y": top, "width": width, "height": height, "fill": "#fffdf7"})
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + el("svg", attrs, style, ground, *body) + "\n"


def _focus(state: RoyalCourtState, frame: Frame, last: Sequence[str]) -> tuple[float, float]:
    """The centre of the last square the last ply touched, else the middle of the king and the queen."""
    if last:
        return frame.centre(parse_pos(last[-1]))
    (ax, ay), (bx, by) = (frame.centre(state.consort_at(s)) for s in (0, 1))
    return (ax + bx) / 2, (ay + by) / 2


def render_stage(state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> str | None:
    """No close-up: every choice is a whole square or a tile of the strip, apart from the others."""
    return None


def positions(svg: str) -> list[Pos]:
    """The ``data-pos`` squares of a board document, in document order (for tests)."""
    import xml.etree.ElementTree as ET

    return [parse_pos(e.attrib["data-pos"]) for e in ET.fromstring(svg).iter() if "data-pos" in e.attrib]


__all__ = ["CELL", "positions", "render_board", "render_stage"]
