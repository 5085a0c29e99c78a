"""The SVG builder of every game's picture: elements, tooltips, text, buttons, clickable parts and
selection layers, written by hand with escaped text and attributes (standard library only).

The games' SVG renderers build their documents as strings with these helpers (no third-party
library): attributes are quoted and escaped, ``None`` attributes are left out, floats are written
with at most two decimals, so the output is deterministic and well-formed XML. What every game's
picture has is written here once: the :class:`Frame` of a square-cell board, its numbered ground
(:func:`board_ground`), the seat whose actions are clickable (:func:`clickable_seat`), who is to
act (:func:`to_act`), the standalone :func:`document`, and the parts the browser client clicks
(docs/rendering.md):

* a part that stands for a legal action carries ``data-action`` (its notation), one that opens a
  selection layer carries ``data-select`` (the layer's key); both carry the class ``clickable``
  (:func:`offer`, :func:`button`);
* a selection layer is a hidden ``<g data-layer="KEY">`` holding the parts of the actions the key
  leads to (:func:`layer`);
* text too long for a line is wrapped between words (:func:`wrap`, :func:`text_lines`).

>>> el("rect", {"x": 1.5, "y": 2.0, "fill": "#fff", "stroke": None})
'<rect x="1.5" y="2" fill="#fff"/>'
>>> el("g", {"data-action": "follower road E"}, title("roads & <cities>"))
'<g data-action="follower road E"><title>roads &amp; &lt;cities&gt;</title></g>'
>>> txt(10, 20, "K", 12, anchor="middle", font_weight="bold")
'<text x="10" y="20" font-size="12" text-anchor="middle" fill="#1b1b1b" font-weight="bold">K</text>'
>>> frame = Frame([(0, 0), (2, -1)], left=40, top=30, cell=50)
>>> frame.width, frame.height, frame.corner((2, -1)), frame.centre((0, 0))
(150, 100, (140, 80), (65.0, 55.0))
>>> button(0, 0, "end turn", "end")
'<g class="button clickable" data-action="end"><title>end</title><rect x="0" y="0" width="80" \
height="26" rx="5" fill="#d3f9d8" stroke="#2b8a3e"/><text x="40" y="17" font-size="12" \
text-anchor="middle" fill="#1b1b1b" font-weight="bold">end turn</text></g>'
>>> offer({"class": "unit", "data-pos": "1,2"}, select="unit 1,2")
{'class': 'unit clickable', 'data-pos': '1,2', 'data-select': 'unit 1,2'}
>>> wrap("the drawn tile fits here", 10)
[(0, 'the drawn'), (0, 'tile fits'), (0, 'here')]
>>> print(document(200, 100, {"data-game": "toy"}, (), [el("g", {})]))
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="200" height="100" viewBox="0 0 200 100" \
data-game="toy"><rect x="0" y="0" width="200" height="100" fill="#fffdf7"/><g/></svg>
<BLANKLINE>
"""

from __future__ import annotations

import importlib
import textwrap
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
        parts.append(txt(cx, frame.top - 8, str(col), 12, anchor="middle", fill="#555555"))
    for row in range(frame.y0, frame.y1 + 1):
        _, cy = frame.centre((frame.x0, row))
        parts.append(txt(frame.left - 8, cy + 4, str(row), 12, anchor="end", fill="#555555"))
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


#: The colours of a button (and of a game's other choices, by default).
BUTTON_FILL = "#d3f9d8"
BUTTON_STROKE = "#2b8a3e"


def offer(
    attrs: Attrs, action: str | None = None, select: str | None = None, cls: str = ""
) -> dict[str, object]:
    """``attrs`` of a part of the picture made clickable: ``action`` (the notation of a legal
    action) as its ``data-action``, or else ``select`` (the key of the selection layer it opens) as
    its ``data-select``; its class gains ``cls`` and ``clickable``. Neither: ``attrs`` as they are."""
    out = dict(attrs)
    if action is None and select is None:
        return out
    out["class"] = " ".join(c for c in (str(out.get("class") or ""), cls, "clickable") if c)
    if action is not None:
        out["data-action"] = action
    else:
        out["data-select"] = select
    return out


def button_width(label: str, pad: float = 16) -> float:
    """The width of a button labelled ``label`` (8 units a character and ``pad``)."""
    return pad + 8 * len(label)


def button(
    x: float,
    y: float,
    label: str,
    action: str | None = None,
    *,
    select: str | None = None,
    fill: str = BUTTON_FILL,
    stroke: str = BUTTON_STROKE,
    width: float | None = None,
    height: float = 26,
    rx: float = 5,
    size: int = 12,
    baseline: float = 17,
    bold: bool = True,
    tip: str | bool = True,
) -> str:
    """A clickable button with its top left corner at ``(x, y)``: a rounded box of ``fill`` and
    ``stroke`` (``width`` by default :func:`button_width`), ``label`` centred ``baseline`` below its
    top, ``action`` as its ``data-action`` or ``select`` as its ``data-select`` (:func:`offer`);
    ``tip`` its tooltip (``True``: the action or the key, ``False``: none)."""
    w = button_width(label) if width is None else width
    tooltip = (action if action is not None else select) if tip is True else tip or None
    return el(
        "g",
        offer({"class": "button"}, action, select),
        *((title(tooltip),) if tooltip else ()),
        el("rect", {"x": x, "y": y, "width": w, "height": height, "rx": rx, "fill": fill, "stroke": stroke}),
        txt(x + w / 2, y + baseline, label, size, anchor="middle", font_weight="bold" if bold else None),
    )


def layer(key: str, *parts: str, shown: bool = False) -> str:
    """The selection layer ``key``: ``parts`` (each with its ``data-action``), hidden until a part
    with ``data-select`` equal to ``key`` is clicked, or ``shown`` from the start."""
    return el("g", {"class": "layer", "data-layer": key, "display": "inline" if shown else "none"}, *parts)


def wrap(text: str | Sequence[str], columns: int, hang: int = 0) -> list[tuple[int, str]]:
    """``text`` (a paragraph, or one per item) in lines of at most ``columns`` characters, broken
    between words (only a word longer than a line is split), as (indent, line) pairs: a
    paragraph's leading spaces are its indent, kept on each of its lines; the lines after its
    first are ``hang`` columns further in. An empty paragraph is one empty line."""
    out: list[tuple[int, str]] = []
    for paragraph in [text] if isinstance(text, str) else text:
        indent = len(paragraph) - len(paragraph.lstrip())
        lines = textwrap.wrap(paragraph.strip(), max(columns - indent, 1)) or [""]
        out.extend((indent + (hang if k else 0), line) for k, line in enumerate(lines))
    return out


def text_lines(
    x: float,
    y: float,
    text: str | Sequence[str],
    columns: int,
    size: int = 11,
    step: float | None = None,
    char: float = 7,
    hang: int = 0,
    **attrs: object,
) -> tuple[list[str], float]:
    """``text`` wrapped to ``columns`` (:func:`wrap`) as lines of text from ``(x, y)`` down, ``step``
    apart (default ``size + 4``), an indent ``char`` units a column; returns the lines and the
    ``y`` below them. Other keywords are attributes of each line (:func:`txt`)."""
    out = []
    gap = size + 4 if step is None else step
    for indent, line in wrap(text, columns, hang):
        out.append(txt(x + char * indent if indent else x, y, line, size, **attrs))
        y += gap
    return out, y


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
    "BUTTON_FILL",
    "BUTTON_STROKE",
    "FONT",
    "INK",
    "Attrs",
    "Frame",
    "board_ground",
    "button",
    "button_width",
    "clickable_seat",
    "document",
    "el",
    "fmt",
    "layer",
    "offer",
    "text_lines",
    "title",
    "to_act",
    "txt",
    "wrap",
    "write_png",
]
