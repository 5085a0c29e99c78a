"""Writing SVG documents by hand: elements, tooltips and text, with escaped text and attributes.

The games' SVG renderers build their documents as strings with these helpers (no third-party
library): attributes are quoted and escaped, ``None`` attributes are left out, floats are written
with at most two decimals, so the output is deterministic and well-formed XML. What every game's
picture has is shared too: the :class:`Frame` of a square-cell board, its numbered ground
(:func:`board_ground`), the seat whose actions are clickable (:func:`clickable_seat`), who is to
act (:func:`to_act`) and the standalone :func:`document`.

>>> el("rect", {"x": 1.5, "y": 2.0, "fill": "#fff", "stroke": None})
'<rect x="1.5" y="2" fill="#fff"/>'
>>> el("g", {"data-action": "follower road E"}, title("roads & <cities>"))
'<g data-action="follower road E"><title>roads &amp; &lt;cities&gt;</title></g>'
>>> txt(10, 20, "K", 12, anchor="middle", font_weight="bold")
'<text x="10" y="20" font-size="12" text-anchor="middle" fill="#1b1b1b" font-weight="bold">K</text>'
>>> frame = Frame([(0, 0), (2, -1)], left=40, top=30, cell=50)
>>> frame.width, frame.height, frame.corner((2, -1)), frame.centre((0, 0))
(150, 100, (140, 80), (65.0, 55.0))
>>> print(document(200, 100, {"data-game": "toy"}, (), [el("g", {})]))
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="200" height="100" viewBox="0 0 200 100" \
data-game="toy"><rect x="0" y="0" width="200" height="100" fill="#fffdf7"/><g/></svg>
<BLANKLINE>
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from regalia.core.errors import RegaliaError
from regalia.core.game import CHANCE, State
from regalia.core.grid import Pos

#: The default colour of text.
INK = "#1b1b1b"
#: The font of every game's pictures (the root's ``font-family``).
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

Attrs = Mapping[str, object]


def fmt(value: object) -> str:
    """A number as SVG writes it: floats with at most two decimals, no trailing zeros."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def el(tag: str, attrs: Attrs, *children: str, text: str | None = None) -> str:
    """One XML element; ``None`` attributes are left out, text is escaped."""
    head = tag + "".join(f" {k}={quoteattr(fmt(v))}" for k, v in attrs.items() if v is not None)
    body = (escape(text) if text is not None else "") + "".join(children)
    return f"<{head}>{body}</{tag}>" if body else f"<{head}/>"


def title(text: str) -> str:
    """A tooltip (``<title>``) for the enclosing element."""
    return el("title", {}, text=text)


def txt(x: float, y: float, text: str, size: int = 12, **attrs: object) -> str:
    """A line of text (``anchor``: start, middle, end; other keywords are attributes, ``_`` read
    as ``-``)."""
    anchor = attrs.pop("anchor", None)
    base: dict[str, object] = {"x": x, "y": y, "font-size": size, "text-anchor": anchor, "fill": INK}
    base.update({k.replace("_", "-"): v for k, v in attrs.items()})
    return el("text", base, text=text)


class Frame:
    """Where board positions are drawn: square cells of ``cell`` units, columns ``x0..x1`` from
    ``left``, rows ``y1`` (north, at ``top``) down to ``y0``; no points: the position 0,0."""

    def __init__(self, points: Iterable[Pos], left: float, top: float, cell: float) -> None:
        pts = list(points) or [(0, 0)]
        self.x0 = min(p[0] for p in pts)
        self.x1 = max(p[0] for p in pts)
        self.y0 = min(p[1] for p in pts)
        self.y1 = max(p[1] for p in pts)
        self.left = left
        self.top = top
        self.cell = cell

    @property
    def width(self) -> float:
        return (self.x1 - self.x0 + 1) * self.cell

    @property
    def height(self) -> float:
        return (self.y1 - self.y0 + 1) * self.cell

    def corner(self, pos: Pos) -> tuple[float, float]:
        """The top left corner of ``pos``'s cell."""
        return self.left + (pos[0] - self.x0) * self.cell, self.top + (self.y1 - pos[1]) * self.cell

    def centre(self, pos: Pos) -> tuple[float, float]:
        """The centre of ``pos``'s cell."""
        x, y = self.corner(pos)
        return x + self.cell / 2, y + self.cell / 2


def board_ground(frame: Frame, fill: str, stroke: str = "#c8bfa8") -> list[str]:
    """The numbers of the board's columns (above) and rows (left), and its background."""
    parts = []
    for col in range(frame.x0, frame.x1 + 1):
        cx, _ = frame.centre((col, frame.y1))
        parts.append(txt(cx, frame.top - 8, str(col), 11, anchor="middle", fill="#555555"))
    for row in range(frame.y0, frame.y1 + 1):
        _, cy = frame.centre((frame.x0, row))
        parts.append(txt(frame.left - 8, cy + 4, str(row), 11, anchor="end", fill="#555555"))
    ground = {"x": frame.left, "y": frame.top, "width": frame.width, "height": frame.height}
    parts.append(el("rect", {**ground, "fill": fill, "stroke": stroke}))
    return parts


def clickable_seat(state: State[Any], viewer: int | None) -> int | None:
    """The seat whose legal actions the picture offers (``None``: nothing is clickable): the seat
    to act (not an automaton), for itself or for a spectator."""
    player = state.current_player
    if state.is_terminal() or player < 0 or player in state.automaton_seats():
        return None
    if viewer is not None and viewer != player:
        return None
    return player


def to_act(state: State[Any], name: Callable[[int], str]) -> str:
    """Who is to act, for ``data-to-act``: ``over``, ``chance``, ``automaton`` or the ``name`` of
    the seat."""
    player = state.current_player
    if state.is_terminal():
        return "over"
    if player == CHANCE:
        return "chance"
    if player in state.automaton_seats():
        return "automaton"
    return name(player)


def document(
    width: float,
    height: float,
    attrs: Attrs,
    head: Sequence[str],
    body: Sequence[str],
    background: str = "#fffdf7",
) -> str:
    """A standalone SVG document ``width`` x ``height``: the XML declaration, the root element with
    its size and ``attrs`` (font, ``data-`` attributes), ``head`` (style, definitions), a background
    of colour ``background``, then ``body``."""
    root = {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": width,
        "height": height,
        "viewBox": f"0 0 {fmt(width)} {fmt(height)}",
        **attrs,
    }
    ground = el("rect", {"x": 0, "y": 0, "width": width, "height": height, "fill": background})
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + el("svg", root, *head, ground, *body) + "\n"


def button(x: float, y: float, label: str, action: str, fill: str, stroke: str) -> str:
    """A clickable button at ``(x, y)``: a rounded box of ``fill`` and ``stroke``, ``label`` in bold,
    ``action`` as its ``data-action`` and tooltip."""
    w = 16 + 8 * len(label)
    return el(
        "g",
        {"class": "button clickable", "data-action": action},
        title(action),
        el("rect", {"x": x, "y": y, "width": w, "height": 26, "rx": 5, "fill": fill, "stroke": stroke}),
        txt(x + w / 2, y + 17, label, 12, anchor="middle", font_weight="bold"),
    )


def write_png(svg: str, path: str | Path, scale: float = 1.0) -> Path:
    """Write an SVG document as a PNG image at ``path`` (needs ``cairosvg``)."""
    try:
        cairosvg = importlib.import_module("cairosvg")
    except (ImportError, OSError):  # OSError: the cairo library itself is missing
        raise RegaliaError(
            "PNG export needs cairosvg and the cairo library: pip install 'regalia[plots]'"
        ) from None
    out = Path(path)
    try:
        cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(out), scale=scale)
    except OSError as exc:
        raise RegaliaError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out


__all__ = [
    "FONT",
    "INK",
    "Attrs",
    "Frame",
    "board_ground",
    "button",
    "clickable_seat",
    "document",
    "el",
    "fmt",
    "title",
    "to_act",
    "txt",
    "write_png",
]
