"""docs/rulings.md, the Carcassonne part: every ruling quotes the rule, decides, and names tests that
exist; docs/carcassonne.md links every ruling (the checks: tests/games/rulings_check.py)."""

from __future__ import annotations

from pathlib import Path

from ..rulings_check import Rulings, RulingsDocTests

RULINGS = Rulings(
    heading="\n# Rulings: Carcassonne",
    prefix="C",
    game_doc="carcassonne.md",
    cue="ruling",
    # The points the rulings must decide (the list).
    required=(
        "C-first-player",
        "C-fields-same-city",
        "C-city-several-fields",
        "C-challenge-own",
        "C-monk-challenges",
        "C-heretic",
        "C-challenge-same-turn",
        "C-completed-on-placement",
        "C-discard",
        "C-restriction-off",
        "C-house-rule",
        "C-small-city",
        "C-calculator",
    ),
)


class TestRulingsDoc(RulingsDocTests):
    """The checks of tests/games/rulings_check.py on this game's part and docs/carcassonne.md."""

    rulings = RULINGS
    folder = Path(__file__).parent
