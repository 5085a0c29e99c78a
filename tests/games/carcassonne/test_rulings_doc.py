"""docs/rulings.md, the Carcassonne part: every ruling quotes the rule, decides, and names tests that
exist; docs/carcassonne.md links every ruling (the checks: tests/games/rulings_check.py)."""

from __future__ import annotations

from pathlib import Path

from ..rulings_check import Rulings

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


def test_every_ruling_has_slug_quote_decision_and_pin() -> None:
    """docs/rulings.md: '## C-slug: title', the rule quoted, a decision and 'Pinned by:'."""
    RULINGS.check_entries()


def test_every_pinning_test_exists() -> None:
    """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
    RULINGS.check_pinning_tests()


def test_slugs_cited_in_tests_are_rulings() -> None:
    """A slug a Carcassonne test cites ('ruling C-...') is a ruling of docs/rulings.md."""
    RULINGS.check_cited_slugs(Path(__file__).parent)


def test_game_doc_links_every_ruling() -> None:
    """docs/carcassonne.md links every Carcassonne ruling, and every link into rulings.md lands on
    a heading."""
    RULINGS.check_game_doc_links()


def test_game_doc_examples_run() -> None:
    """Every ``>>>`` example of docs/carcassonne.md gives the output shown."""
    RULINGS.check_game_doc_examples()
