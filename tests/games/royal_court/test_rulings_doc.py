"""docs/rulings.md, the Royal Court part: every ruling quotes the rule, decides, and names tests that
exist; docs/royal-court.md links every ruling (the checks: tests/games/rulings_check.py)."""

from __future__ import annotations

from pathlib import Path

from ..rulings_check import Rulings, RulingsDocTests

RULINGS = Rulings(
    heading="\n# Rulings: Intrigue in the Royal Court",
    prefix="RC",
    game_doc="royal-court.md",
    # The points the rulings must decide (the list).
    required=(
        "RC-first-player",
        "RC-consorts",
        "RC-ability-mandatory",
        "RC-move-mandatory",
        "RC-no-move",
        "RC-joker-optional",
        "RC-joker-purpose",
        "RC-bishop",
        "RC-healer",
        "RC-returned-tiles",
        "RC-royals-move",
        "RC-move-over",
        "RC-empty-zone",
        "RC-all-played",
        "RC-surround-check",
        "RC-scoring",
        "RC-turn-cap",
    ),
)


class TestRulingsDoc(RulingsDocTests):
    """The checks of tests/games/rulings_check.py on this game's part and docs/royal-court.md."""

    rulings = RULINGS
    folder = Path(__file__).parent
