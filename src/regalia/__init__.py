"""regalia: engine and platform for royal tile-laying board games.

>>> import regalia
>>> game = regalia.load_game("two-heirs", roads=False)
>>> state = game.new_state(seed=1)
>>> state.current_player == regalia.CHANCE
True
>>> _ = state.advance()
>>> state.current_player in (0, 1)
True
"""

import os as _os

if _os.environ.get("REGALIA_PURE_PYTHON") == "1":
    # the .py modules even where the compiled build installed C extensions (regalia._native);
    # before any engine module is imported
    from regalia import _pure

    _pure.install()

from regalia.core.errors import IllegalAction, RegaliaError
from regalia.core.game import CHANCE, OMNISCIENT, SPECTATOR, TERMINAL, Game, State
from regalia.core.record import Record, replay
from regalia.core.registry import game_ids, game_plugin, load_game

__all__ = [
    "CHANCE",
    "OMNISCIENT",
    "SPECTATOR",
    "TERMINAL",
    "Game",
    "IllegalAction",
    "Record",
    "RegaliaError",
    "State",
    "game_ids",
    "game_plugin",
    "load_game",
    "replay",
]
#: The version: written here only (pyproject.toml reads it; CHANGELOG.md says what each one holds).
__version__ = "0.1.0"
