"""The Two Heirs' plugin surface: renderers, score calculator, commands, statistics, encoding.

>>> PLUGIN.calculator.format
'two-heirs-position'
>>> "take W3" in PLUGIN.notation_help
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regalia.core.plugin import lazy, package_plugin, position_calculator, rulebook
from regalia.games.two_heirs import calculator, commands

#: The rulebook of The Two Heirs (two-player and solo rules), as shipped with regalia.
rules_text = rulebook("regalia.games.two_heirs")


def _lazy(target: str) -> Callable[..., Any]:
    return lazy("regalia.games.two_heirs", target)


NOTATION_HELP = """\
The Two Heirs notation (tiles by id, positions as x,y; north is +y):
  take W3            A: take W3 from the royal reserve into your hand
  build W3 1,-2      B.1: construct W3 at 1,-2 (touching a tile with your unit)
  terrain W3 1,-2    B.2: play W3 face down as free terrain (a discount of 1 resource)
  step 0,0 1,1       C: move your unit from 0,0 to 1,1
  call 1,1           C: call a unit from the royal reserve to 1,1
  withdraw 1,1       C: withdraw your unit at 1,1 into the royal reserve
  camp D7            use your camp D7 to take another tile
  destroy 1,0        siege towers: destroy the building at 1,0 (or: spare)
  discard W3         hand limit: return W3 to the box
  end                end your turn
Chance's outcomes (entered when you play with real tiles): first white, draw W3, top green,
sets wandering,dominion,guard, treasure H4."""


PLUGIN = package_plugin(
    "regalia.games.two_heirs",
    notation_help=NOTATION_HELP,
    rules=rules_text,
    calculator=position_calculator(
        calculator, _lazy("render:render_position_score"), "tiles=FILE: your own tile catalogue"
    ),
    commands=(commands.register,),
    statistics=_lazy("stats:game_statistics"),
    encoding=_lazy("encoding:TwoHeirsEncoding"),
    check_options=(
        {},
        {"roads": False, "sets": "warfare,crafts,guard"},
        {"sets": "random"},
        {"solo": True, "level": 1},
        {"solo": True},
    ),
)
