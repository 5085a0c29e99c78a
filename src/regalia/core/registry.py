"""Games registered by id. A new game adds one line to :data:`GAMES`.

>>> "two-heirs" in game_ids()
True
"""

from __future__ import annotations

import importlib
from typing import Any

from regalia.core.errors import UnknownGame
from regalia.core.game import Game

#: game id -> "module:Class" of its :class:`Game` subclass (imported on first use).
GAMES: dict[str, str] = {
    "two-heirs": "regalia.games.two_heirs.game:TwoHeirs",
}


def game_ids() -> list[str]:
    """The ids of every registered game."""
    return sorted(GAMES)


def game_class(game_id: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``game_id``."""
    try:
        target = GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; valid games: {', '.join(game_ids())}") from None
    module_name, _, class_name = target.partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(game_id: str, **options: Any) -> Game[Any]:
    """The game ``game_id`` with ``options`` (unknown ids and options raise, listing valid ones)."""
    return game_class(game_id)(**options)
