"""Writing SVG documents by hand: elements, tooltips and text, with escaped text and attributes.

The games' SVG renderers build their documents as strings with these helpers (no third-party
library): attributes are quoted and escaped, ``None`` attributes are left out, floats are written
with at most two decimals, so the output is deterministic and well-formed XML.

>>> el("rect", {"x": 1.5, "y": 2.0, "fill": "#fff", "stroke": None})
'<rect x="1.5" y="2" fill="#fff"/>'
>>> el("g", {"data-action": "follower road E"}, title("roads & <cities>"))
'<g data-action="follower road E"><title>roads &amp; &lt;cities&gt;</title></g>'
>>> txt(10, 20, "K", 12, anchor="middle", font_weight="bold")
'<text x="10" y="20" font-size="12" text-anchor="middle" fill="#1b1b1b" font-weight="bold">K</text>'
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

#: The default colour of text.
INK = "#1b1b1b"

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


__all__ = ["INK", "Attrs", "el", "fmt", "title", "txt"]
