"""The plugin surface of Intrigue in the Royal Court: terminal renderer, menu, descriptions,
notation help, rulebook and the option sets the conformance kit checks.

>>> "play Assassin 1,1" in PLUGIN.notation_help, PLUGIN.rules().startswith("#")
(True, True)
"""

from __future__ import annotations

from regalia.core.plugin import lazy, package_plugin

NOTATION_HELP = """\
Intrigue in the Royal Court notation (tiles by archetype, squares as x,y; north is +y):
  play Assassin 1,1    step 1: play a tile from your zone next to any piece (even diagonally)
  remove 2,1           Assassin: remove that opponent's active tile from the game
  return 2,1           Thief / Healer: return that active tile to its owner's zone
  swap 2,1             Spy: swap squares with that opponent's active tile
  flip Spy             Bishop: flip the opponent's active Spy in their zone
  consort 0,0 0,1      Wizard: move the active king or queen at 0,0 one square
  force Spy            Diplomat: the opponent must play their Spy next turn
  place Spy 2,2        Captain: play a second tile (no ability)
  move 2,1 3,2         step 3: move one of your tiles one square (Joker: once more)
  pass                 decline the Joker's extra move
Chance's outcome (enter it when you flip a real coin): first red, first blue."""


PLUGIN = package_plugin(
    "regalia.games.royal_court",
    notation_help=NOTATION_HELP,
    statistics=lazy("regalia.games.royal_court", "stats:game_statistics"),
    encoding=lazy("regalia.games.royal_court", "encoding:RoyalCourtEncoding"),
    check_options=(
        {},
        {"consort": "queen"},
        {"turn_cap": 12},
    ),
)
