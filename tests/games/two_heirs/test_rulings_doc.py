"""docs/rulings.md: every ruling quotes the rule, decides, and names tests that exist (the checks:
tests/games/rulings_check.py)."""

from __future__ import annotations

from ..rulings_check import RULINGS as RULINGS_FILE
from ..rulings_check import Rulings, check_pinning_tests

#: The Two Heirs part, solo rules included: up to the next game's part
#: (tests/games/carcassonne/test_rulings_doc.py).
RULINGS = Rulings(heading="# Rulings: The Two Heirs", prefix="R", until="\n# Rulings: Carcassonne")


def test_every_ruling_has_slug_quote_decision_and_pin() -> None:
    """docs/rulings.md: '## R-slug: title', the rule quoted, a decision and 'Pinned by:'."""
    RULINGS.check_entries(at_least=20)


def test_every_pinning_test_exists() -> None:
    """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
    check_pinning_tests(RULINGS_FILE.read_text(encoding="utf-8"))
