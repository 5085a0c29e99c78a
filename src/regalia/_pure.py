"""``REGALIA_PURE_PYTHON=1``: load every ``regalia`` module from its ``.py`` source, even where the
compiled build put a C extension beside it (:mod:`regalia._native`).

:func:`install` puts a finder first on ``sys.meta_path``; ``regalia/__init__.py`` calls it before
any engine module is imported. Packages are left to the ordinary finders (their ``__init__`` is
never compiled).

>>> import regalia.core
>>> spec = SourceFinder().find_spec("regalia.core.game", regalia.core.__path__)
>>> spec.origin.endswith("game.py"), SourceFinder().find_spec("json", None)
(True, None)
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class SourceFinder:
    """A meta path finder of the ``.py`` file of a ``regalia.*`` module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("regalia.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def install() -> None:
    """Put a :class:`SourceFinder` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())
