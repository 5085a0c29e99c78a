"""Board cells of The Two Heirs, packed as small ints.

A cell code is ``tile_index * 4 + owner_code`` where ``owner_code`` is 0 for a face-down tile
(free terrain, the starting landscape, a destroyed building, a used camp) and ``seat + 1`` for a
building facing its owner. A building is oriented in its owner's frame: seat 0 looks north
(``+y``), seat 1 sits opposite and looks south, so its tiles are turned by 180 degrees.

>>> code = cell(tile=12, owner=1)
>>> code, tile_of(code), owner_of(code), owner_of(cell(12, None))
(50, 12, 1, -1)
>>> to_global("NE", 1)
'SW'
"""

from __future__ import annotations

from typing import Final

from regalia.core.grid import OPPOSITE

FACE_DOWN: Final = 0


def cell(tile: int, owner: int | None) -> int:
    """The code of ``tile`` owned by ``owner`` (``None``: face down)."""
    return tile * 4 + (0 if owner is None else owner + 1)


def tile_of(code: int) -> int:
    return code >> 2


def owner_of(code: int) -> int:
    """The owning seat of a building, -1 for a face-down tile."""
    return (code & 3) - 1


def to_global(direction: str, owner: int) -> str:
    """A direction printed on a tile of ``owner`` turned into the board's frame."""
    return direction if owner == 0 else OPPOSITE[direction]
