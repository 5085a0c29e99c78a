"""The console the commands print on (``regalia play``, ``regalia serve``, ``regalia bench`` ...).

Written once here, below both :mod:`regalia.commands` and :mod:`regalia.server`, which may not import
each other.

>>> out = console()
>>> out.width == 120 or out.is_terminal or "COLUMNS" in __import__("os").environ
True
"""

from __future__ import annotations

import os

from rich.console import Console


def console() -> Console:
    """A console on the current stdout (created per call, so that test runners can capture it).

    When stdout is not a terminal, the width comes from ``COLUMNS`` or defaults to 120 columns.
    Colour follows ``NO_COLOR`` (rich honours it).
    """
    width = None
    if not os.isatty(1) and "COLUMNS" not in os.environ:
        width = 120
    return Console(highlight=False, width=width)
