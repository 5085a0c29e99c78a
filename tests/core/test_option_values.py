"""Options take a value in its natural type as well as its text, in every game (issue 20, item 10).

A Python caller writes ``load_game("carcassonne", shrines=5)``; the command line writes
``-o shrines=5``. Both go through the shared option machinery (``regalia.core.options``).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.errors import OptionError
from regalia.core.options import Options, option

#: Per game, options written in their natural type and the value each must read as.
NATURAL: dict[str, list[tuple[str, Any, Any]]] = {
    "carcassonne": [
        ("shrines", 5, "5"),
        ("shrines", 6, "6"),
        ("small_city", 2, 2),
        ("small_city", 2.0, 2),
        ("farmers", False, False),
        ("players", 3, 3),
    ],
    "royal-court": [("turn_cap", 10, 10), ("consort", "queen", "queen")],
    "two-heirs": [
        ("roads", False, False),
        ("sets", ["warfare", "crafts", "guard"], ("warfare", "crafts", "guard")),
        ("sets", ("warfare", "crafts", "guard"), ("warfare", "crafts", "guard")),
    ],
}


@pytest.mark.parametrize(
    ("game_id", "name", "value", "expected"),
    [(g, n, v, e) for g, rows in NATURAL.items() for n, v, e in rows],
)
def test_load_game_takes_an_option_in_its_natural_type(
    game_id: str, name: str, value: Any, expected: Any
) -> None:
    game = regalia.load_game(game_id, **{name: value})
    assert getattr(game.options, name) == expected
    text = ",".join(value) if isinstance(value, list | tuple) else str(expected).lower()
    assert getattr(regalia.load_game(game_id, **{name: text}).options, name) == expected


def test_carcassonne_shrines_given_as_a_number_plays_with_the_shrine_tiles() -> None:
    """The issue's own call: ``load_game("carcassonne", shrines=5)`` once failed with "expected a string"."""
    game = regalia.load_game("carcassonne", shrines=5, challenge_house_rule=True)
    assert game.options == regalia.load_game("carcassonne", shrines="5", challenge_house_rule="true").options
    game.new_state(seed=1)


def test_two_heirs_level_as_an_int_with_solo_as_a_bool() -> None:
    game = regalia.load_game("two-heirs", solo=True, level=2)
    assert game.options.to_json()["level"] == 2 and game.options.to_json()["solo"] is True


@pytest.mark.parametrize(
    ("game_id", "values", "words"),
    [
        ("carcassonne", {"shrines": 7}, "unknown value '7'"),
        ("carcassonne", {"farmers": 2}, "expected true or false"),
        ("carcassonne", {"players": 2.5}, "expected an integer"),
        ("carcassonne", {"players": True}, "expected an integer"),
        ("royal-court", {"turn_cap": 5}, "between 10 and 1000"),
        ("two-heirs", {"sets": 3}, "expected a list"),
    ],
)
def test_wrong_natural_values_are_still_refused(game_id: str, values: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        regalia.load_game(game_id, **values)


class Speed(enum.Enum):
    SLOW = "slow"
    FAST = "fast"


@dataclasses.dataclass(frozen=True, slots=True)
class Demo(Options):
    ratio: float = option(0.5, "a float")
    speed: Speed = option(Speed.SLOW, "an enum", choices=(Speed.SLOW, Speed.FAST))  # noqa: RUF009


def test_float_and_enum_options_take_their_type_or_text() -> None:
    assert Demo.from_mapping({"ratio": 1}).ratio == 1.0
    assert Demo.from_mapping({"ratio": "0.25"}).ratio == 0.25
    assert Demo.from_mapping({"speed": Speed.FAST}).speed is Speed.FAST
    assert Demo.from_mapping({"speed": "fast"}).speed is Speed.FAST
    assert Demo.from_mapping({"speed": "FAST"}).speed is Speed.FAST
    assert Demo.from_mapping({"speed": "fast"}).to_json() == {"ratio": 0.5, "speed": "fast"}
    assert [o["choices"] for o in Demo.schema()] == [None, ["slow", "fast"]]
    with pytest.raises(OptionError, match="valid speed: slow, fast"):
        Demo.from_mapping({"speed": "warp"})
    with pytest.raises(OptionError, match="expected a number"):
        Demo.from_mapping({"ratio": "half"})


def test_games_command_shows_each_options_type() -> None:
    result = CliRunner().invoke(app, ["games", "carcassonne"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    rows = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in result.output.splitlines()
        if line.count("│") > 3
    }
    assert rows["players"] == "int" and rows["farmers"] == "bool"
    assert rows["shrines"] == 'str (5 or "5")' and rows["tiles"] == "path or None"
    assert "load_game(GAME, NAME=VALUE)" in result.output
