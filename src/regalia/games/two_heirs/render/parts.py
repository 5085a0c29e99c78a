"""What the Two Heirs' pictures share: sizes, colours, the legal actions sorted by the part of the
picture they belong to (:class:`Choices`), and the selection layers of their targets.

Both :func:`~.svg.render_svg` (the whole picture) and :func:`~.table.render_board` (the browser
table's board) draw with these; every clickable part carries ``data-label``, the action in words
(:func:`~.labels.action_label`).

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance()
>>> attrs = root_attrs(state, None, False)
>>> attrs["data-game"], attrs["data-to-act"], attrs["data-viewer"], attrs["data-clickable"]
('two-heirs', 'blue', 'spectator', 'false')
"""

from __future__ import annotations

from collections.abc import Sequence

from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.render.labels import action_label, select_label
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.render.svg import FONT, Attrs, Frame, el, layer, offer, title, to_act

#: A board cell, in units (CSS pixels at zoom 1 on the browser table).
CELL = 76
SLOT = 56
RADIUS = 118
#: The smallest clickable target on the browser table.
TARGET = 44

FILL = ("#8cc97c", "#b8b8b8", "#ebd25e")
FILL_DOWN = ("#4f8a44", "#6f6f6f", "#a8913a")
ROAD = "#6b4423"
SEAT_NAME = ("white", "blue")
SEAT_FILL = ("#ffffff", "#1f4fbf")
SEAT_INK = ("#1b1b1b", "#ffffff")
SEAT_STROKE = ("#1b1b1b", "#0b2a6b")
ELITE = "#e0b000"
HIGHLIGHT = "#ffd43b"
TREASURE = "#f0c419"
#: A transparent fill that still receives clicks.
CLEAR = {"fill": "#ffffff", "fill-opacity": 0}


class Choices:
    """The legal actions of the seat to act, sorted by the part of the picture they belong to."""

    def __init__(self, state: TwoHeirsState, legal: Sequence[Action]) -> None:
        self.state = state
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

    def act(self, attrs: Attrs, action: Action, cls: str = "") -> dict[str, object]:
        """``attrs`` of a part standing for ``action``: its notation and its words."""
        return {**offer(attrs, self.text[action], cls=cls), "data-label": action_label(self.state, action)}

    def select(self, attrs: Attrs, key: str) -> dict[str, object]:
        """``attrs`` of a part opening the layer ``key``, with its words."""
        return {**offer(attrs, select=key), "data-label": select_label(self.state, key)}

    def hand_tile(self, attrs: Attrs, t: int, tile_id: str) -> dict[str, object]:
        """``attrs`` of the hand tile ``t`` of the seat to act: it discards (at the hand limit), or
        opens its ``build`` layer, or else its ``terrain`` layer; unchanged when it can do none."""
        if t in self.discard:
            return self.act(attrs, self.discard[t])
        if self.place.get((act.BUILD, t)):
            return self.select(attrs, f"build {tile_id}")
        if self.place.get((act.TERRAIN, t)):
            return self.select(attrs, f"terrain {tile_id}")
        return dict(attrs)


def root_attrs(state: TwoHeirsState, viewer: int | None, clickable: bool) -> dict[str, object]:
    """The root attributes of a picture of ``state`` for ``viewer`` (docs/rendering.md, "The root")."""
    seat = "spectator" if viewer is None else str(viewer)
    seen = SEAT_NAME[viewer] if viewer is not None and 0 <= viewer < 2 else seat
    return {
        "font-family": FONT,
        "data-game": "two-heirs",
        "data-ply": state.ply,
        "data-to-act": to_act(state, SEAT_NAME.__getitem__),
        "data-viewer": seen,
        "data-clickable": "true" if clickable else "false",
    }


def target(choices: Choices, frame: Frame, pos: Pos, action: Action) -> str:
    """The highlighted cell standing for ``action`` in a selection layer."""
    x, y = frame.corner(pos)
    attrs = {
        "class": "target",
        "data-pos": format_pos(pos),
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
    return el("rect", choices.act(attrs, action), title(choices.text[action]))


def layers(choices: Choices, frame: Frame, reserve_centre: tuple[float, float]) -> str:
    """Every selection layer of ``choices`` (drawn last, above everything)."""
    state = choices.state
    out = []
    for (kind, t), actions in choices.place.items():
        key = f"{kind} {state.tiles[t].id}"
        out.append(layer(key, *(target(choices, frame, a.dst, a) for a in actions if a.dst is not None)))
    for src in sorted(set(choices.steps) | set(choices.withdraw)):
        key = f"unit {format_pos(src)}"
        parts = [target(choices, frame, a.dst, a) for a in choices.steps.get(src, []) if a.dst is not None]
        if src in choices.withdraw:
            cx, cy = reserve_centre
            action = choices.withdraw[src]
            attrs = {
                "class": "target",
                "cx": cx,
                "cy": cy,
                "r": 34,
                "fill": HIGHLIGHT,
                "fill-opacity": 0.55,
                "stroke": "#e67700",
                "stroke-width": 3,
            }
            parts.append(
                el(
                    "circle",
                    choices.act(attrs, action),
                    title(choices.text[action] + " (into the royal reserve)"),
                )
            )
        out.append(layer(key, *parts))
    if choices.call:
        out.append(
            layer("call", *(target(choices, frame, a.dst, a) for a in choices.call if a.dst is not None))
        )
    return el("g", {"class": "layers"}, *out)


__all__ = [
    "CELL",
    "CLEAR",
    "ELITE",
    "FILL",
    "FILL_DOWN",
    "HIGHLIGHT",
    "RADIUS",
    "ROAD",
    "SEAT_FILL",
    "SEAT_INK",
    "SEAT_NAME",
    "SEAT_STROKE",
    "SLOT",
    "TARGET",
    "TREASURE",
    "Choices",
    "layers",
    "target",
]
