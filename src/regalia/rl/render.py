"""Pictures of a state for the adapters: text (``ansi``) and RGB arrays (``rgb_array``), from the
game's plugin (its terminal renderer and its SVG), for any game.

>>> import random
>>> from regalia.core.registry import load_game
>>> state = load_game("royal-court").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> "red" in render_text(state).lower()
True
"""

from __future__ import annotations

import importlib
import io
from typing import Any

from regalia.core.errors import RegaliaError
from regalia.core.game import SPECTATOR, State


class RenderUnavailable(RegaliaError):
    """A picture that cannot be drawn here (cairosvg or the cairo library is missing)."""


def render_text(state: State[Any], viewer: int | None = SPECTATOR, width: int = 120) -> str:
    """The position as plain text: the plugin's terminal renderer drawn by rich without colour,
    ``width`` columns wide (a game without one: the default, the state and its scores in a line)."""
    from regalia.render.text import plain_text

    return plain_text(state.game.plugin().render_terminal(state, viewer, width=width, height=None), width)


def render_rgb(state: State[Any], viewer: int | None = SPECTATOR, scale: float = 1.0) -> Any:
    """The position as a ``(height, width, 3)`` uint8 numpy array: the plugin's SVG drawn by
    cairosvg. Raises :class:`RenderUnavailable` without an SVG renderer, cairosvg or libcairo."""
    import numpy as np

    plugin = state.game.plugin()
    if not plugin.has_svg:
        raise RenderUnavailable(f"{state.game.name} has no SVG renderer (Plugin.render_svg)")
    try:
        cairosvg = importlib.import_module("cairosvg")
        image_module = importlib.import_module("PIL.Image")
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise RenderUnavailable(
            f"rgb_array needs cairosvg, Pillow and the cairo library ({exc}): pip install cairosvg"
        ) from None
    svg = plugin.render_svg(state, viewer)
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    with image_module.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


__all__ = ["RenderUnavailable", "render_rgb", "render_text"]
