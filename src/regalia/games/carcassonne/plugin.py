"""Carcassonne's plugin surface: renderers, score calculator, benchmarks, encoding.

>>> PLUGIN.calculator.format
'carcassonne-position'
>>> "place D 1,0 90" in PLUGIN.notation_help
True
>>> len(PLUGIN.check_options)
7
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regalia.core.plugin import lazy, package_plugin, position_calculator, rulebook
from regalia.games.carcassonne import calculator

#: The rulebook of Carcassonne and of Heretics and Shrines, as shipped with regalia.
rules_text = rulebook("regalia.games.carcassonne")


def _lazy(target: str) -> Callable[..., Any]:
    return lazy("regalia.games.carcassonne", target)


NOTATION_HELP = """\
Carcassonne notation (tiles by letter, positions as x,y: east is +x, north is +y; the start
tile lies at 0,0; rotations are clockwise):
  place D 1,0 90        lay the drawn tile D at 1,0 turned 90 degrees
  follower city N       a knight on the tile's city that reaches its north side
  follower road E       a thief on its road that reaches the east side
  follower field Nw     a farmer on its field at the west half of the north side
                        (halves: Nw Ne En Es Se Sw Ws Wn)
  follower cloister     a monk; follower shrine: a heretic (Heretics and Shrines)
  pass                  no follower this turn
A feature is named by its first side (or half) clockwise from north, as the tile lies.
Chance's outcomes (entered when you play with a real box, --draws manual): draw D."""


PLUGIN = package_plugin(
    "regalia.games.carcassonne",
    notation_help=NOTATION_HELP,
    rules=rules_text,
    calculator=position_calculator(
        calculator,
        _lazy("calculator_render:render_position_score"),
        "tiles=FILE: your own tile catalogue",
    ),
    benchmarks=_lazy("bench:benchmarks"),
    encoding=_lazy("encoding:CarcassonneEncoding"),
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
