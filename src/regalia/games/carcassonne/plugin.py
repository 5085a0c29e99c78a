"""Carcassonne's plugin surface: renderers, score calculator, statistics, encoding.

>>> len(PLUGIN.check_options) >= 6
True
"""

from __future__ import annotations

from regalia.core.plugin import Plugin

PLUGIN = Plugin(
    check_options=(
        {},
        {"players": 3},
        {"players": 5},
        {"shrines": "5"},
        {"players": 3, "shrines": "6"},
        {"players": 5, "shrines": "6", "challenge_house_rule": True},
        {"farmers": False, "small_city": 2},
    ),
)
