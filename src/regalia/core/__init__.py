"""Game-agnostic core: the Game/State contract, chance, options, plugins, errors, grid geometry,
records and the registry (docs/contract.md).

>>> from regalia.core import CHANCE, TERMINAL, load_game
>>> state = load_game("two-heirs").new_state(seed=0)
>>> state.current_player == CHANCE, TERMINAL
(True, -4)
"""

from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL, Game, Ply, State
from regalia.core.options import Options, option
from regalia.core.plugin import Calculator, Plugin
from regalia.core.registry import game_ids, game_plugin, load_game

__all__ = [
    "CHANCE",
    "OMNISCIENT",
    "SPECTATOR",
    "TERMINAL",
    "Calculator",
    "Game",
    "IllegalAction",
    "Options",
    "Plugin",
    "Ply",
    "RegaliaError",
    "State",
    "game_ids",
    "game_plugin",
    "load_game",
    "option",
]
