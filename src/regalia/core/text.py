"""Small helpers for the words every part of regalia prints.

>>> plural(1, "tile"), plural(3, "ply", "plies"), plural(0, "game")
('1 tile', '3 plies', '0 games')
"""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``1 tile``, ``2 tiles``, ``0 plies``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


__all__ = ["plural"]
