"""The games and option sets the research adapters are tested with (docs/research.md)."""

from __future__ import annotations

from typing import Any

#: (game id, options): every registered game and its main options.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("two-heirs", {}),
    ("two-heirs", {"solo": True}),
    ("carcassonne", {"players": 2}),
    ("carcassonne", {"players": 4, "shrines": "5"}),
    ("royal-court", {}),
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game_id, options = config
    return game_id + "".join(f",{k}={v}" for k, v in options.items())
