"""The part of a board a terminal shows when the whole board does not fit: :class:`Window`.

A game subclasses :class:`Window` for its own note on what is cut (:meth:`Window.note`) and chooses
the window its own way (around the action); :func:`bounds` is the extent of a set of positions.

>>> full = bounds([(0, 0), (3, -1), (-2, 4)])
>>> full
(-2, 3, -1, 4)
>>> window = Window(-1, 2, 0, 3, full)
>>> window.cols, window.rows, window.cut, window.holds((2, 3)), window.holds((3, 3))
(4, 4, True, True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from regalia.core.grid import Pos


@dataclasses.dataclass(frozen=True)
class Window:
    """The part of the board shown: columns ``x0..x1`` and rows ``y0..y1`` (inclusive) of the
    whole extent ``full`` (``x0, x1, y0, y1``)."""

    x0: int
    x1: int
    y0: int
    y1: int
    full: tuple[int, int, int, int]

    @property
    def cols(self) -> int:
        return self.x1 - self.x0 + 1

    @property
    def rows(self) -> int:
        return self.y1 - self.y0 + 1

    @property
    def cut(self) -> bool:
        """Part of the board is not shown."""
        return (self.x0, self.x1, self.y0, self.y1) != self.full

    def holds(self, pos: Pos) -> bool:
        """``pos`` is inside the window."""
        return self.x0 <= pos[0] <= self.x1 and self.y0 <= pos[1] <= self.y1


def bounds(points: Iterable[Pos]) -> tuple[int, int, int, int] | None:
    """``x0, x1, y0, y1`` of ``points`` (``None`` for none)."""
    pts = list(points)
    if not pts:
        return None
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), max(xs), min(ys), max(ys)


__all__ = ["Window", "bounds"]
