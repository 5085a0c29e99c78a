"""The rulebook shipped with the game (src/regalia/games/carcassonne/data/rules.md): its headings are
the rule names the engine's errors cite, it reads at 80 columns, and it holds the whole text of
Heretics and Shrines (/work/shared/rules/heretics-and-shrines.md) without the wiki's navigation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from regalia.core.data import read_package_text
from regalia.core.errors import IllegalAction

from .builders import new, refused, turns

SOURCE = Path(__file__).resolve().parents[3] / "src" / "regalia" / "games" / "carcassonne"


def rulebook() -> str:
    return read_package_text("regalia.games.carcassonne", "data/rules.md")


def headings() -> list[str]:
    return re.findall(r"^#+ (.+)$", rulebook(), flags=re.M)


def flat(text: str) -> str:
    return " ".join(text.split())


def cited_rules() -> set[str]:
    """The rule names given to IllegalAction anywhere in the engine's modules."""
    found: set[str] = set()
    for path in SOURCE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == IllegalAction.__name__
                and len(node.args) == 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                found.add(node.args[1].value)
    return found


def test_every_rule_an_error_cites_is_a_section() -> None:
    """Every rule name in the engine's errors is a heading of the rulebook."""
    rules = cited_rules()
    assert {"Placing a tile", "Deploying a follower", "Heretics and Shrines: placing a tile"} <= rules
    assert rules <= set(headings())


def test_the_sections_the_rulings_cite() -> None:
    """The base game's sections and the expansion's, as docs/rulings.md and the tests cite them."""
    for name in (
        "Preparation",
        "Course of the game",
        "Drawing a tile",
        "Placing a tile",
        "Deploying a follower",
        "Scoring",
        "Final scoring",
        "End of the game",
        "Heretics and Shrines: placing a tile",
        "Heretics and Shrines: deploying a follower",
        "Heretics and Shrines: scoring",
        "Heretics and Shrines: the challenge",
        "Heretics and Shrines: final scoring",
        "Heretics and Shrines: house rules",
    ):
        assert name in headings(), name


def test_readable_at_80_columns() -> None:
    """The `rules` command prints the text as it is: no line wider than 80 columns, no tabs."""
    for number, line in enumerate(rulebook().splitlines(), start=1):
        assert len(line) <= 80, f"line {number} has {len(line)} characters"
        assert "\t" not in line


def test_heretics_and_shrines_text_in_full() -> None:
    """The expansion's rules as its text reads (sentences compared with the spacing flattened),
    every footnote [1] to [21], and nothing of the wiki page's navigation or image names."""
    text = flat(rulebook())
    for sentence in (
        "The new land tiles should be mixed in with the other tiles.",
        "Shrines are placed and scored in the same way as a cloister. [1] However, a shrine may not be "
        "placed in such a way that it adjoins several cloisters. [2] Similarly, a cloister may not be "
        "placed so that it neighbors several shrines. [3] [4] [5]",
        "A follower deployed to a shrine is called a heretic. If a player places a shrine directly "
        "(horizontally, vertically, or diagonally) next to the cloister [6] of another player [7] and "
        "deploys a heretic to it, a challenge is laid down to the monk. [8] The same is true when a "
        "monk is deployed to a cloister directly next to a heretic. [9] Challenging your own monk or "
        "heretic is also possible. [10] [11] [12]",
        "instead of to the shrine itself. [13]",
        "The challenge is about who can finish his or her building first. [14] [15]",
        "The player who finishes his or her feature first scores 9 points, [16] while the other player "
        "scores nothing. [17] [18] [19] Both followers are then returned to their owners. [20] [21]",
        "If a challenge has not been resolved by the end of the game, both players receive the usual "
        "points awarded for incomplete cloisters.",
        "the winning challenger receives the points for both structures while the loser still "
        "receives nothing.",
    ):
        assert sentence in text, sentence
    for n in range(1, 22):
        assert re.search(rf"^\[{n}\] \S", rulebook(), flags=re.M), f"footnote [{n}]"
    for noise in (
        "Jump to navigation",
        "Translate this page",
        "Other languages",
        ".png",
        "Retrieved from",
        "↑",
    ):
        assert noise not in rulebook(), noise


def test_error_messages_name_a_section_of_the_rulebook() -> None:
    """An illegal action at the table names a section a player can look up with `rules`: a shrine
    between two cloisters (Heretics and Shrines: placing a tile), a tile far from the others and a
    pass before placing (Placing a tile), a follower when none is left (Deploying a follower)."""
    state = new(shrines="5")
    turns(state, "B 0,-1 0 cloister", "U 1,0 0", "U 2,0 0", "B 2,-1 0")
    state.apply_text("draw SH")
    for text, rule in (
        ("place SH 1,-1 0", "Heretics and Shrines: placing a tile"),
        ("place SH 5,5 0", "Placing a tile"),
        ("pass", "Placing a tile"),
        ("draw U", "Drawing a tile"),
    ):
        assert refused(state, text, rule).rule in headings()
