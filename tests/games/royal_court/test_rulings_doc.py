"""docs/rulings.md, the Royal Court part: every ruling quotes the rule, decides, and names tests that
exist; docs/royal-court.md links every ruling (the checks: tests/games/rulings_check.py)."""

from __future__ import annotations

from pathlib import Path

from ..rulings_check import Rulings

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


def test_every_ruling_has_slug_quote_decision_and_pin() -> None:
    """docs/rulings.md: '## RC-slug: title', the rule quoted, a decision and 'Pinned by:'."""
    RULINGS.check_entries()


def test_every_pinning_test_exists() -> None:
    """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
    RULINGS.check_pinning_tests()


def test_slugs_cited_in_tests_are_rulings() -> None:
    """A slug a Royal Court test cites ('ruling RC-...') is a ruling of docs/rulings.md."""
    RULINGS.check_cited_slugs(Path(__file__).parent)


def test_game_doc_links_every_ruling() -> None:
    """docs/royal-court.md links every Royal Court ruling, and every link into rulings.md lands on
    a heading."""
    RULINGS.check_game_doc_links()


def test_game_doc_examples_run() -> None:
    """Every ``>>>`` example of docs/royal-court.md gives the output shown."""
    RULINGS.check_game_doc_examples()
