"""Games registered by id. A new game adds one line to :data:`GAMES`.

>>> "two-heirs" in game_ids()
True
>>> load_game("two-heirs").num_players
2
"""

from __future__ import annotations

import importlib
from typing import Any

from regalia.core.errors import UnknownGame
from regalia.core.game import Game
from regalia.core.plugin import EMPTY, Plugin

#: game id -> "module:Class" of its :class:`Game` subclass (imported on first use).
GAMES: dict[str, str] = {
    "two-heirs": "regalia.games.two_heirs.game:TwoHeirs",
    "carcassonne": "regalia.games.carcassonne.game:Carcassonne",
    "royal-court": "regalia.games.royal_court.game:RoyalCourt",
}


#: The game commands use when none is named (``regalia play`` alone).
DEFAULT_GAME = "two-heirs"


def game_ids() -> list[str]:
    """The ids of every registered game."""
    return sorted(GAMES)


def register_game(game_id: str, target: str) -> None:
    """Register ``"module:Class"`` as ``game_id`` (for games outside the package, e.g. in tests)."""
    GAMES[game_id] = target


def _resolve(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def game_class(game_id: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``game_id``."""
    try:
        target = GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"unknown game {game_id!r}; valid games: {', '.join(game_ids())}") from None
    cls: type[Game[Any]] = _resolve(target)
    return cls


def load_game(game_id: str, **options: Any) -> Game[Any]:
    """The game ``game_id`` with ``options`` (unknown ids and options raise, listing valid ones)."""
    return game_class(game_id)(**options)


def game_plugin(game_id: str) -> Plugin:
    """The :class:`Plugin` the game ``game_id`` declares (an empty one if it declares none)."""
    return plugin_for(game_class(game_id))


def plugin_for(game: Game[Any] | type[Game[Any]]) -> Plugin:
    """The :class:`Plugin` a game (or game class) declares, registered or not (tests, third parties)."""
    ref = game.plugin
    if ref is None:
        return EMPTY
    plugin: Plugin = _resolve(ref)
    return plugin
