"""Rendering helpers shared by the games' renderers (rich is a dependency of regalia).

The games draw their own boards and panels; what they share lives here: :mod:`.text` (parts packed
into lines, a renderable's size on a terminal), :mod:`.window` (the part of a board a small
terminal shows) and :mod:`.svg` (the SVG builder of every game's picture: elements, buttons,
clickable parts, selection layers, wrapped text; standard library only). Like
:mod:`regalia.core`, nothing here names a game.

>>> from rich.text import Text
>>> measure(pack([Text("red 12"), Text("blue 9"), Text("green 3")], 14), 40)
(2, 13)
>>> Window(-1, 2, 0, 1, full=(-3, 2, 0, 1)).cut
True
"""

from regalia.render.text import measure, pack
from regalia.render.window import Window, bounds

__all__ = ["Window", "bounds", "measure", "pack"]
