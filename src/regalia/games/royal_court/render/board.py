"""The board of Intrigue in the Royal Court as SVG parts, shared by the whole picture
(:func:`~.svg.render_svg`) and the table's board (:func:`~.table.render_board`): the grid around
the pieces, the four sides of each consort, the squares a tile may be played onto, the king, the
queen and the tiles, and the selection layers of the legal actions (:class:`Choices`).

The parts take two optional extras the table uses: ``label`` (an action's words, put in
``data-label`` on every clickable part, docs/table.md) and ``last`` (the squares the last ply
touched: their pieces carry ``data-last``).

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first red")
>>> choices = Choices(state, state.legal_actions())
>>> sorted(choices.layers)[:2], len(choices.layers["play Spy"])
(['play Assassin', 'play Bishop'], 16)
>>> frame = board_frame(state, 0, 0)
>>> (frame.x0, frame.x1, frame.y0, frame.y1)
(-1, 4, -1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from regalia.core.grid import Pos, format_pos, neighbours4
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.render.art import (
    BOARD_BG,
    CHOICE,
    CHOICE_FILL,
    SEAT_FILL,
    royal_art,
    seat_of,
    tile_art,
    tile_title,
)
from regalia.games.royal_court.render.labels import piece_words
from regalia.games.royal_court.state import KING, RoyalCourtState
from regalia.render.svg import Frame, board_ground, el, layer, offer, title, txt

#: The size of a square, in SVG units (CSS pixels at zoom 1 on the table).
CELL = 68

#: An action's words for ``data-label`` (``None``: the picture carries none).
Label = Callable[[Action], str] | None


class Choices:
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
                self.layers.setdefault(key, []).append((a.dst, arrow(a.src, a.dst), a))
            elif a.dst is not None and a.src is None and kind != act.PASS:
                self.on_square[a.dst] = a
            elif kind in (act.FLIP, act.FORCE):
                self.on_zone[a.arg] = a
            else:
                self.buttons.append(a)

    @property
    def only_layer(self) -> bool:
        """Whether the one layer is the only choice (a Diplomat's force): it is shown at once."""
        return len(self.layers) == 1 and not self.on_square and not self.on_zone


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


def arrow(src: Pos, dst: Pos) -> str:
    """The arrow of a step from ``src`` to ``dst``."""
    return _ARROWS.get((dst[0] - src[0], dst[1] - src[1]), "•")


def board_frame(state: RoyalCourtState, left: float, top: float, cell: float = CELL) -> Frame:
    """The frame of the board: the pieces and one square around them."""
    xs = [p[0] for p in state.board]
    ys = [p[1] for p in state.board]
    corners = [(min(xs) - 1, min(ys) - 1), (max(xs) + 1, max(ys) + 1)]
    return Frame(corners, left, top, cell)


def square(x: float, y: float, size: float, short: str, action: str, cls: str, words: str | None) -> str:
    """A clickable square of a layer: a green square with a short label."""
    return el(
        "g",
        {**offer({"class": cls}, action), "data-label": words},
        title(words or action),
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
        txt(x + size / 2, y + size / 2 + 5, short, 14, anchor="middle", font_weight="bold", fill=CHOICE),
    )


def ring(x: float, y: float, size: float) -> str:
    """The green ring around a clickable piece."""
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


def _grid(state: RoyalCourtState, frame: Frame, choices: Choices | None) -> list[str]:
    """The ground, the grid lines, the consorts' sides and the squares a tile may be played onto."""
    cell = frame.cell
    parts = board_ground(frame, BOARD_BG)
    for col in range(frame.x0, frame.x1 + 1):
        x, _ = frame.corner((col, frame.y1))
        line = {"x1": x, "y1": frame.top, "x2": x, "y2": frame.top + frame.height, "stroke": "#d6ccb3"}
        parts.append(el("line", line))
    for row in range(frame.y0, frame.y1 + 1):
        _, y = frame.corner((frame.x0, row))
        line = {"x1": frame.left, "y1": y, "x2": frame.left + frame.width, "y2": y, "stroke": "#d6ccb3"}
        parts.append(el("line", line))
    for seat in (0, 1):  # the four sides of each consort
        for q in neighbours4(state.consort_at(seat)):
            x, y = frame.corner(q)
            side = {"x": x + 3, "y": y + 3, "width": cell - 6, "height": cell - 6, "fill": "none"}
            style = {"stroke": SEAT_FILL[seat], "stroke-width": 1.5, "stroke-dasharray": "2 4"}
            head = {"class": "consort-side", "data-seat": SEAT_NAMES[seat]}
            parts.append(el("rect", {**head, **side, **style}))
    if choices is not None:  # where a tile may be played (clicked in the tile's layer)
        squares = {
            pos
            for key, items in choices.layers.items()
            if key.split()[0] in (act.PLAY, act.PLACE)
            for pos, _, _ in items
        }
        for pos in sorted(squares):
            x, y = frame.corner(pos)
            box = {"x": x + 8, "y": y + 8, "width": cell - 16, "height": cell - 16, "rx": 6}
            style = {"fill": "none", "stroke": CHOICE, "stroke-dasharray": "6 4"}
            parts.append(el("rect", {"class": "playable", "data-pos": format_pos(pos), **box, **style}))
    return parts


def board_parts(
    state: RoyalCourtState,
    frame: Frame,
    choices: Choices | None,
    label: Label = None,
    last: Collection[Pos] = (),
) -> list[str]:
    """The board: the grid (:func:`_grid`) and every piece on it, the targets of an ability and the
    pieces that open a layer made clickable."""
    cell = frame.cell
    parts = _grid(state, frame, choices)
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
            attrs["data-consort-of"] = SEAT_NAMES[seat_of(state, piece)]
            art = royal_art(state, piece, x, y, cell)
            whose = SEAT_NAMES[seat_of(state, piece)]
            tip = f"the {attrs['data-piece']}, {whose}'s consort · {side} · {where}"
        else:
            game = state.game
            attrs["data-owner"] = SEAT_NAMES[game.owner[piece]]
            attrs["data-archetype"] = game.archetypes.archetypes[game.arch[piece]].name
            art = tile_art(state, piece, x, y, cell)
            tip = tile_title(state, piece, where)
        head: dict[str, object] = {"class": cls, **attrs}
        if pos in last:
            head["data-last"] = ""
        if choices is not None and pos in choices.on_square:
            action = choices.on_square[pos]
            head = offer(head, choices.text[action], cls="target")
            words = label(action) if label else None
            head["data-label"] = words
            tip += f" · click: {words or choices.text[action]}"
            extra.append(ring(x, y, cell))
        elif choices is not None and pos in choices.select_square:
            key = choices.select_square[pos]
            head = offer(head, select=key, cls="selectable")
            if label:
                thing = piece_words(state, piece, state.current_player)
                head["data-label"] = f"Move {thing} from {where} (choose its square)"
            tip += f" · click to choose where: {key} …"
            extra.append(ring(x, y, cell))
        parts.append(el("g", head, title(tip), *art, *extra))
    return parts


def layer_parts(frame: Frame, choices: Choices, label: Label = None) -> list[str]:
    """The selection layers: one green square per choice with its ``data-action``."""
    out = []
    for key, items in choices.layers.items():
        squares = []
        for pos, short, action in items:
            x, y = frame.corner(pos)
            words = label(action) if label else None
            squares.append(square(x, y, frame.cell, short, choices.text[action], "choice", words))
        out.append(layer(key, *squares, shown=choices.only_layer))
    return out


__all__ = ["CELL", "Choices", "Label", "arrow", "board_frame", "board_parts", "layer_parts", "ring", "square"]
