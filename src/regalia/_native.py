"""The compiled build: which modules mypyc compiles (``REGALIA_COMPILE=1 pip install ...``, see
``setup.py``) and whether the ones loaded are compiled.

The compiled build is the same source built into C extensions: the engine (core, the three games'
rules, not their renderers, plugins, encodings or statistics) and the searches. ``REGALIA_PURE_PYTHON=1``
in the environment forces the plain ``.py`` modules even where compiled ones are installed
(:mod:`regalia._pure`). This module imports nothing of regalia: ``setup.py`` reads it.

>>> compiled() in (True, False)
True
>>> "regalia.core.game" in ENGINE_MODULES
True
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES

#: The compiled modules by package (none of them a package's ``__init__``).
_COMPILED: dict[str, str] = {
    # not core.options nor the games' game modules (their options classes): the options are read
    # from their dataclasses' annotations, which a compiled dataclass keeps only as erased classes
    # (``tuple`` for ``tuple[str, ...]``), and an interpreted class may not subclass a compiled one
    # (unless it says so: Game and State do); nor core.errors, whose errors the other layers extend
    "core": "data encoding fields game grid loop notation record registry text",
    # the games' data (tiles, archetypes, treasures, score sheets) too: their frozen dataclasses,
    # which states hold, pickle through __reduce__ (regalia.core.data.frozen_reduce; unpickled by
    # setting their fields, a compiled frozen dataclass raises FrozenInstanceError); and the
    # encodings (core.encoding and each game's): the observation tensors and action ids are most of
    # a research adapter's step (docs/performance.md)
    "games.carcassonne": "actions base effects encoding rules state tiles views",
    "games.royal_court": "actions archetypes encoding state",
    "games.two_heirs": "actions base board effects encoding henry position rules scoring solo state tally "
    "tiles views",
    # mcts too: inspect.signature(MCTSAgent), which the agent registry reads, needs its __init__'s
    # defaults to be literals or Final constants (BY_GAME is Final)
    "ai": "base simple expectimax mcts",
}
#: The modules the compiled build compiles.
ENGINE_MODULES: tuple[str, ...] = tuple(
    f"regalia.{package}.{module}" for package, modules in _COMPILED.items() for module in modules.split()
)

#: The environment variable that forces the pure modules at run time (value ``1``).
PURE_VARIABLE = "REGALIA_PURE_PYTHON"


def source_paths(root: str = "src") -> list[str]:
    """The source files of :data:`ENGINE_MODULES` under ``root`` (for ``setup.py``)."""
    return [f"{root}/{name.replace('.', '/')}.py" for name in ENGINE_MODULES]


def is_extension(module: object) -> bool:
    """Whether ``module`` was loaded from a C extension (a compiled module)."""
    path = getattr(module, "__file__", None)
    return isinstance(path, str) and path.endswith(tuple(EXTENSION_SUFFIXES))


def compiled() -> bool:
    """True when the engine modules loaded so far are all compiled (and at least one is loaded)."""
    loaded = [sys.modules[name] for name in ENGINE_MODULES if name in sys.modules]
    return bool(loaded) and all(is_extension(m) for m in loaded)
