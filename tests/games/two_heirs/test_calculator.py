"""The score calculator (calculator.py) and the position format (docs/formats.md)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.errors import PositionError
from regalia.games.two_heirs.calculator import (
    load_position,
    parse_position,
    position_of_state,
    score_document,
    score_position,
)
from regalia.games.two_heirs.calculator import schema as calculator_schema

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "position.json"


def example() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return doc


def small(*cells: dict[str, Any], units: dict[str, Any] | None = None, **options: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "two-heirs-position", "version": 1, "board": list(cells)}
    if units is not None:
        doc["units"] = units
    if options:
        doc["options"] = options
    return doc


def test_example_scores_as_documented() -> None:
    result = score_position(load_position(EXAMPLE))
    assert result.totals == (27, 22)
    assert result.winner_name == "white"
    assert result.decided_by == "points"
    by_pos = {b.pos: b for b in result.sheet.buildings}
    assert by_pos[(1, 0)].doubled and by_pos[(1, 0)].points == 8  # inn under white's unit
    assert by_pos[(1, 2)].tile == "@1,2"  # an inline tile gets its position as id
    assert sorted(r.points for r in result.sheet.roads) == [2, 3]


def test_example_matches_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = calculator_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(example(), schema)


def test_schema_rejects_what_the_reader_rejects() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = calculator_schema()
    doc = example()
    doc["board"][1]["owner"] = "green"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)
    with pytest.raises(PositionError, match=r"board\[1\]\.owner"):
        parse_position(doc)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="two-heirs-state"), "format"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(colour="red"), "colour"),
        (lambda d: d["options"].update(roads="yes"), "options.roads"),
        (lambda d: d["options"].update(treasures=3), "options.treasures"),
        (lambda d: d.update(board=[]), "board"),
        (lambda d: d["board"][2].update(pos="1;1"), r"board\[2\]\.pos"),
        (lambda d: d["board"][2].update(pos="1,0"), r"board\[2\]\.pos: 1,0 is already used by board\[1\]"),
        (lambda d: d["board"][2].update(owner="red"), r"board\[2\]\.owner"),
        (lambda d: d["board"][2].pop("owner"), r"board\[2\]\.owner: missing"),
        (lambda d: d["board"][2].update(tile="Z9"), r"board\[2\]\.tile: 'Z9' is not a tile"),
        (lambda d: d["board"][2].update(tile="W1"), r"board\[2\]\.tile: W1 is already on the board"),
        (lambda d: d["board"][2].update(tile=7), r"board\[2\]\.tile"),
        (lambda d: d["board"][3]["tile"].update(cost={"stone": -1}), r"board\[3\]\.tile\.cost"),
        (lambda d: d["board"][3]["tile"].update(roads=["N-S-E"]), r"board\[3\]\.tile\.roads"),
        (lambda d: d["board"][3]["tile"].update(axis="row"), r"board\[3\]\.tile\.axis"),
        (lambda d: d["board"][3]["tile"].update(building="castle"), r"board\[3\]\.tile\.building"),
        (lambda d: d["board"][3]["tile"].pop("colour"), r"board\[3\]\.tile\.colour"),
        (lambda d: d["board"][3]["tile"].update(size=3), r"board\[3\]\.tile\.size"),
        (lambda d: d["board"][6]["tile"].update(colour="purple"), r"board\[6\]\.tile\.colour"),
        (lambda d: d["units"]["white"].update(positions=["5,5"]), r"units\.white\.positions\[0\]: no tile"),
        (lambda d: d["units"]["blue"].update(reserve=3), r"units\.blue\.reserve"),
        (lambda d: d["units"]["blue"].update(positions=["0,1", "0,2", "-1,0"]), r"units\.blue: 3 units"),
        (lambda d: d["units"].update(green={}), r"units\.green"),
    ],
)
def test_errors_name_the_field(change: Any, field: str) -> None:
    doc = copy.deepcopy(example())
    change(doc)
    with pytest.raises(PositionError, match=field):
        parse_position(doc)


def test_owner_spellings_and_face_down_colour_only() -> None:
    doc = small(
        {"pos": "0,0", "owner": None, "tile": {"colour": "green"}},
        {"pos": "1,0", "owner": 0, "tile": "T9"},
        {"pos": "-1,0", "owner": "blue", "tile": "D9"},
    )
    position = parse_position(doc)
    result = score_position(position)
    assert [b.owner for b in result.sheet.buildings] == [1, 0]
    assert result.totals == (5, 2)


def test_tie_is_broken_by_units_in_the_reserve_then_a_draw() -> None:
    cells = (
        {"pos": "0,0", "owner": "white", "tile": "T9"},
        {"pos": "1,1", "owner": "blue", "tile": {"colour": "grey", "building": "cathedral"}},
    )
    units = {"white": {"reserve": 1}, "blue": {"reserve": 2}}
    result = score_position(parse_position(small(*cells, units=units)))
    assert result.totals == (5, 5)
    assert result.winner_name == "blue"
    assert result.decided_by == "units in the royal reserve"
    units["white"]["reserve"] = 2
    result = score_position(parse_position(small(*cells, units=units)))
    assert result.winner is None
    assert result.decided_by == "draw"


def test_roads_option_off() -> None:
    doc = example()
    doc["options"]["roads"] = False
    result = score_position(parse_position(doc))
    assert result.sheet.roads == ()
    assert result.totals == (24, 20)


def test_solo_position_with_henry() -> None:
    cells = (
        {"pos": "0,0", "owner": "white", "tile": "T9"},
        {"pos": "1,0", "owner": "blue", "tile": "D9"},
    )
    doc = small(*cells, henry="blue", treasures=1)
    result = score_position(parse_position(doc))
    # Henry's camp (2) is one of his three best buildings: doubled; 1 treasure: 5 points
    assert result.totals == (5, 9)
    assert result.winner_name == "blue"
    assert result.extra == ((1, "1 treasure token", 5),)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_position_of_a_finished_game_scores_like_the_engine(seed: int) -> None:
    state = regalia.load_game("two-heirs").new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    result = score_document(json.loads(json.dumps(position_of_state(state))))
    assert list(result.totals) == state.scores()
    expected = state.winner()
    assert result.winner == expected


def test_to_json_is_json() -> None:
    doc = score_position(load_position(EXAMPLE)).to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["units_in_reserve"] == {"white": 1, "blue": 1}


def test_load_position_errors(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="cannot read"):
        load_position(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(PositionError, match="not valid JSON"):
        load_position(bad)
