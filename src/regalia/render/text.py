"""Text for a terminal: parts packed into lines (:func:`pack`), a renderable's size (:func:`measure`).

>>> from rich.text import Text
>>> print(pack([Text("take W3"), Text("build W3 1,-2"), Text("end")], 20, sep=" · "))
take W3
build W3 1,-2 · end
>>> measure(Text("a short line"), 40), measure(Text("a line that wraps at ten columns"), 10)
((1, 12), (4, 10))
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.text import Text


def pack(parts: Sequence[Text], width: int | None, sep: str = " ", indent: str = "") -> Text:
    """``parts`` joined by ``sep``, breaking lines only between parts to fit ``width`` columns
    (``None``: one line); a new line starts with ``indent``."""
    out = Text()
    col = 0
    for k, part in enumerate(parts):
        if k and width is not None and col + len(sep) + len(part) > width:
            out.append("\n" + indent)
            col = len(indent)
        elif k:
            out.append(sep)
            col += len(sep)
        out.append_text(part)
        col += len(part)
    return out


def console(width: int) -> Console:
    """A console ``width`` columns wide that prints nowhere, without colour or highlighting (for
    measuring)."""
    return Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False, highlight=False)


def plain_text(renderable: RenderableType, width: int) -> str:
    """``renderable`` printed ``width`` columns wide as plain text (no colour codes): for reports,
    files and browsers."""
    out = console(width)
    out.print(renderable)
    text: str = out.file.getvalue()  # type: ignore[attr-defined]
    return text


def measure(renderable: RenderableType, width: int) -> tuple[int, int]:
    """Lines and natural width (columns, at most ``width``) of ``renderable`` printed ``width``
    columns wide."""
    out = console(width)
    options = out.options.update(width=width)
    lines = out.render_lines(renderable, options, pad=False)
    natural = Measurement.get(out, options, renderable).maximum
    return len(lines), natural


__all__ = ["console", "measure", "pack", "plain_text"]
