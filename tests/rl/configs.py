"""The games and option sets the research adapters are tested with (docs/research.md), and how the
tests import the libraries of the ``rl`` extra."""

from __future__ import annotations

import importlib
import platform
from typing import Any

import pytest

#: (game id, options): every registered game and its main options (test_pettingzoo checks that
#: every registered game is here).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("two-heirs", {}),
    ("two-heirs", {"solo": True}),
    ("carcassonne", {"players": 2}),
    ("carcassonne", {"players": 4, "shrines": "5"}),
    ("royal-court", {}),
]

#: Modules pyproject's ``dev`` and ``rl`` extras install on some machines only (its markers):
#: module -> the ``platform.machine()`` values that get it.
PLATFORM_ONLY = {"pyspiel": ("x86_64",)}


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game_id, options = config
    return game_id + "".join(f",{k}={v}" for k, v in options.items())


def need(module: str) -> Any:
    """Import ``module``, a library of the ``rl`` (or ``dev``) extra. On a machine where the extras
    install it, a missing module is an error, not a skip, so that a CI run cannot pass without the
    PettingZoo and OpenSpiel tests; elsewhere (open_spiel ships x86_64 wheels only) the tests skip,
    saying why."""
    machines = PLATFORM_ONLY.get(module)
    if machines is not None and platform.machine() not in machines:
        return pytest.importorskip(
            module, reason=f"{module} has no wheel for {platform.machine()} (only {', '.join(machines)})"
        )
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module} is missing; pip install -e '.[dev]' installs it on this machine ({exc})"
        ) from None
