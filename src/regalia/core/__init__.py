"""Game-agnostic core: the Game/State contract, errors, grid geometry, records and the registry."""

from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import Game, Options, State
from regalia.core.registry import game_ids, load_game

__all__ = ["Game", "IllegalAction", "Options", "RegaliaError", "State", "game_ids", "load_game"]
