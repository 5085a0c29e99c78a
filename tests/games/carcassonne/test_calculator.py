"""Carcassonne's score calculator (calculator.py), its position format (docs/formats.md) and
``regalia score`` on Carcassonne positions.

Boards are written compactly: ``"E 0,1 180"`` is tile E at 0,1 turned 180 degrees clockwise; a
follower ``"0,1 red city S"`` stands on the city of the tile at 0,1 reaching its south side. Tile
edges (N E S W, unturned): D CRFR (city N, road W-E), E CFFF, F FCFC (city W-E with a pennant),
C CCCC (pennant), U FRFR (road W-E), V FFRR (road S-W), B FFFF (cloister), SH FFFF (shrine),
I CFFC (two separate cities N and W, one field touching both), H CFCF. Turning a tile by 90 moves
its north side to the east.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import ERROR_EXIT_CODE, app
from regalia.core.errors import OptionError, PositionError, RegaliaError
from regalia.core.grid import Pos
from regalia.games.carcassonne import calculator as calc
from regalia.games.carcassonne import plugin as carcassonne_plugin
from regalia.games.carcassonne.calculator import (
    FORMAT,
    load_position,
    parse_position,
    position_of_state,
    score_document,
    score_position,
    state_of_position,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, CITY, FIELD, ROAD

from .builders import reference_features

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
EXAMPLE = EXAMPLES / "carcassonne-position.json"
SHRINES_EXAMPLE = EXAMPLES / "carcassonne-shrines.json"

runner = CliRunner()


def cells(*specs: str) -> list[dict[str, Any]]:
    """``"E 0,1 180"`` -> ``{"pos": "0,1", "tile": "E", "rotation": 180}``."""
    out = []
    for spec in specs:
        tile, pos, rotation = spec.split()
        out.append({"pos": pos, "tile": tile, "rotation": int(rotation)})
    return out


def follower(spec: str) -> dict[str, Any]:
    """``"0,1 red city S"`` or ``"0,-1 blue cloister"``."""
    words = spec.split()
    out: dict[str, Any] = {"pos": words[0], "seat": words[1], "feature": words[2]}
    if len(words) > 3:
        out["name"] = words[3]
    return out


def position(
    board: list[str], followers: Sequence[str] = (), points: Any = None, **options: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT, "version": 1, "board": cells(*board)}
    doc["followers"] = [follower(f) for f in followers]
    if points is not None:
        doc["points"] = points
    if options:
        doc["options"] = options
    return doc


def score(doc: dict[str, Any]) -> calc.PositionScore:
    return score_position(parse_position(doc))


def only(result: calc.PositionScore, kind: str) -> calc.FeatureScore:
    found = [f for f in result.features if f.kind == kind]
    assert len(found) == 1, found
    return found[0]


def example(path: Path = EXAMPLE) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


# -- hand-computed scenarios -------------------------------------------------------------------------


def test_incomplete_road() -> None:
    """Final scoring (an unfinished road: 1 point per tile). D 0,0 (road W-E), U 1,0 and U 2,0
    (straight roads W-E): one road of 3 tiles, open at both ends (W of 0,0, E of 2,0). Red's thief
    on 2,0: 3 tiles x 1 = 3 points; red had 5: 5 + 3 = 8."""
    doc = position(["D 0,0 0", "U 1,0 0", "U 2,0 0"], ["2,0 red road E"], points=[5, 2])
    result = score(doc)
    road = only(result, "road")
    assert road.tiles == ((0, 0), (1, 0), (2, 0))
    assert (road.followers, road.scorers, road.points) == ((1, 0), (0,), 3)
    assert road.detail == "3 tiles × 1"
    assert result.totals == (8, 2)
    assert result.by_kind(0) == {"roads": 3, "cities": 0, "cloisters": 0, "shrines": 0, "fields": 0}


def test_incomplete_city_with_pennants() -> None:
    """Final scoring (an unfinished city: 1 point per tile and 1 per pennant). D 0,0 (city N), C 0,1
    (city on all 4 sides, pennant), F 1,1 (city W-E, pennant): the city covers 3 tiles with 2
    pennants and is open on C's N and W sides and F's E side. Blue's knight on F: 3 tiles + 2
    pennants = 5 points (1 each at the end, not 2)."""
    doc = position(["D 0,0 0", "C 0,1 0", "F 1,1 0"], ["1,1 blue city W"])
    result = score(doc)
    city = only(result, "city")
    assert (len(city.tiles), city.pennants, city.scorers, city.points) == (3, 2, (1,), 5)
    assert city.detail == "(3 tiles + 2 pennants) × 1"
    assert result.totals == (0, 5)


def test_cloister_with_five_neighbours() -> None:
    """Final scoring (an unfinished cloister: 1 point for itself and 1 for each tile around it). B
    (cloister) at 0,-1 below D 0,0; around it U -1,0 and U 1,0 (roads W-E, fields S), V -1,-1 (field
    N and E) and E 1,-1 turned 180 (city S, field W N E): 5 of its 8 neighbours. Red's monk: 1
    (itself) + 5 = 6 points."""
    doc = position(
        ["D 0,0 0", "B 0,-1 0", "U -1,0 0", "U 1,0 0", "V -1,-1 0", "E 1,-1 180"], ["0,-1 red cloister"]
    )
    result = score(doc)
    cloister = only(result, "cloister")
    assert (cloister.tiles, cloister.points, cloister.detail) == (((0, -1),), 6, "itself + 5 neighbours")
    assert result.totals == (6, 0)
    assert result.by_kind(0)["cloisters"] == 6


def test_shrine() -> None:
    """Heretics and Shrines: final scoring / placing a tile ("Shrines are placed and scored in the
    same way as a cloister"), with Final scoring's unfinished cloister. SH (a shrine, fields all
    round) at 0,-1 below D 0,0, with U 1,0 beside D: the shrine's block holds itself, 0,0 and 1,0:
    1 + 2 = 3 points for blue's heretic, counted as shrines, not cloisters."""
    doc = position(["D 0,0 0", "U 1,0 0", "SH 0,-1 0"], ["0,-1 blue shrine"], shrines="5")
    result = score(doc)
    shrine = only(result, "shrine")
    assert (shrine.points, shrine.scorers) == (3, (1,))
    assert result.by_kind(1) == {"roads": 0, "cities": 0, "cloisters": 0, "shrines": 3, "fields": 0}


def test_field_touching_two_completed_cities_and_one_incomplete() -> None:
    """Final scoring (a field: 3 points for each completed city it touches; "A city that is not
    completed counts for no field"); ruling C-fields-same-city. D 0,0 + E 0,1 turned 180 close city
    A (0,0 0,1). U 1,0 (road W-E) lies beside D. I 1,1 turned 90 has two separate cities, N and E,
    and a field on its S and W sides touching both; E 1,2 turned 180 closes I's north city B (1,1
    1,2); I's east city C stays open. The field north of the road (D's upper field, U's north field,
    I's field, E 0,1's field) touches A and B (complete) and C (open). Red's farmer on U: 2
    completed cities x 3 = 6 points."""
    doc = position(
        ["D 0,0 0", "E 0,1 180", "U 1,0 0", "I 1,1 90", "E 1,2 180"],
        ["1,0 red field Nw"],
        shrines="off",
    )
    result = score(doc)
    field = only(result, "field")
    assert field.cities == (((0, 0), (0, 1)), ((1, 1), (1, 2)))
    assert (field.points, field.detail) == (6, "2 completed cities × 3")
    assert set(field.tiles) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert result.totals == (6, 0)


def _three_tile_city() -> list[str]:
    """E -1,0 turned 90 (city E), F 0,0 (city W-E, pennant, a field N and a field S, both touching
    it), E 1,0 turned 270 (city W): a completed city of 3 tiles. Four separate fields touch it:
    F's north field, F's south field, and the fields of the two Es."""
    return ["E -1,0 90", "F 0,0 0", "E 1,0 270"]


def test_two_fields_touching_the_same_city_both_count_it() -> None:
    """Final scoring ("Each field is scored on its own ... A city that touches several fields counts
    for each of them"); ruling C-fields-same-city. Red's farmer in F's north field, blue's in the
    field of E 1,0: two fields, each touching the completed city once: red 3, blue 3 (a city counts
    for every field that touches it)."""
    result = score(position(_three_tile_city(), ["0,0 red field Nw", "1,0 blue field Nw"]))
    fields = [f for f in result.features if f.kind == "field"]
    assert len(fields) == 2
    assert all(f.points == 3 and len(f.cities) == 1 for f in fields)
    assert result.totals == (3, 3)


def test_one_players_two_farmers_in_two_fields_touching_one_city() -> None:
    """Final scoring ("even when one player holds several of those fields"); ruling
    C-city-several-fields. Red's farmers in F's north field and in the field of E 1,0 (separate
    fields), and in the field of E -1,0: each field scores the city for red: 3 + 3 + 3 = 9."""
    followers = ["0,0 red field Nw", "1,0 red field Nw", "-1,0 red field Nw"]
    result = score(position(_three_tile_city(), followers))
    assert [f.points for f in result.features] == [3, 3, 3]
    assert result.totals == (9, 0)
    assert result.by_kind(0)["fields"] == 9


def _merged_city() -> list[str]:
    """E -2,0 turned 90 (city E) | G -1,0 (city W-E) | F 0,0 (city W-E, pennant) | F 1,0: one city
    of 4 tiles and 2 pennants, open on the east side of 1,0: worth 4 + 2 = 6 at the end."""
    return ["E -2,0 90", "G -1,0 0", "F 0,0 0", "F 1,0 0"]


def test_majority_on_a_merged_city() -> None:
    """Scoring (the player with the most followers on a feature scores its points; the others
    nothing), applied by Final scoring; ruling C-majority. Red has knights on -2,0 and 0,0, blue on
    -1,0 (joined when the parts merged): red 2 > blue 1, so red scores the city's 6, blue
    nothing."""
    result = score(position(_merged_city(), ["-2,0 red city E", "-1,0 blue city E", "0,0 red city E"]))
    city = only(result, "city")
    assert (city.followers, city.scorers, city.points) == ((2, 1), (0,), 6)
    assert result.totals == (6, 0)


def test_tie_on_a_merged_city_scores_for_both() -> None:
    """Scoring ("players tied with the most each score the full points"), applied by Final scoring;
    End of the game (players tied with the most points share the victory); ruling C-majority. Three
    players: red on -2,0 and 0,0, blue on -1,0 and 1,0: 2 against 2, both score the city's 6; green,
    with no knight there, nothing. Red and blue share the victory."""
    followers = ["-2,0 red city E", "-1,0 blue city E", "0,0 red city E", "1,0 blue city W"]
    result = score(position(_merged_city(), followers, players=3))
    city = only(result, "city")
    assert (city.followers, city.scorers, city.points) == ((2, 2, 0), (0, 1), 6)
    assert result.totals == (6, 6, 0)
    assert result.winners == (0, 1)
    assert result.to_json()["winners"] == ["red", "blue"]


def test_a_minority_of_three_seats_scores_nothing() -> None:
    """Scoring (majority: "the others score nothing"), applied by Final scoring; ruling C-majority.
    Three seats on the merged city: red 2, blue 1, green 1: red alone scores 6."""
    followers = ["-2,0 red city E", "-1,0 blue city E", "0,0 red city E", "1,0 green city E"]
    result = score(position(_merged_city(), followers, players=3))
    assert result.totals == (6, 0, 0)


def test_small_city_does_not_matter_at_the_end() -> None:
    """Final scoring (an unfinished city: 1 point per tile and 1 per pennant, whatever the option);
    ruling C-small-city. D 0,0 + F 0,1 turned 90 (city N-S, pennant): a city of 2 tiles open to the
    north: 2 + 1 = 3 points with small_city 4 and with the early rule's 2 (which changes only
    completed cities)."""
    board = ["D 0,0 0", "F 0,1 90"]
    results = [score(position(board, ["0,1 red city N"], small_city=n)) for n in (4, 2)]
    assert [r.totals for r in results] == [(3, 0), (3, 0)]
    assert results[0].to_json() == results[1].to_json()


def test_a_field_without_a_completed_city_is_listed_with_no_points() -> None:
    """Final scoring (a field: 3 points for each completed city it touches, so none here); ruling
    C-fields-same-city. A farmer on D's lower field (nothing completed anywhere): listed, 0
    points."""
    result = score(position(["D 0,0 0"], ["0,0 blue field Es"]))
    field = only(result, "field")
    assert (field.points, field.cities, field.detail) == (0, (), "no completed city")
    assert result.totals == (0, 0)
    assert result.winners == (0, 1)


def test_unresolved_challenge_both_score_as_unfinished() -> None:
    """Heretics and Shrines: final scoring ("If a challenge has not been resolved by the end of the
    game, both players receive the usual points awarded for incomplete cloisters"). B 0,-1
    (cloister) and SH 1,-1 (shrine) side by side under D 0,0 and U 1,0; V -1,-1 and U -1,0 too.
    Blue's monk and green's heretic: neither building is complete, so no challenge was decided and
    both score as unfinished: the cloister 1 + 5 (-1,0 0,0 1,0 -1,-1 1,-1) = 6, the shrine 1 + 3
    (0,0 1,0 0,-1) = 4."""
    board = ["D 0,0 0", "U -1,0 0", "U 1,0 0", "B 0,-1 0", "SH 1,-1 0", "V -1,-1 0"]
    doc = position(board, ["0,-1 blue cloister", "1,-1 green shrine"], players=3, shrines=6)
    result = score(doc)
    assert (only(result, "cloister").points, only(result, "shrine").points) == (6, 4)
    assert result.totals == (0, 6, 4)


def test_followers_named_by_any_side_of_their_feature() -> None:
    """The notation names D's road by its first side (E); W, reached by the same road, is accepted,
    and so is lower case; the result uses the engine's feature."""
    first = score(position(["D 0,0 0"], ["0,0 red road E"]))
    doc = position(["D 0,0 0"])
    doc["followers"] = [{"pos": "0,0", "seat": 0, "feature": "road", "name": "w"}]
    other = score(doc)
    assert first.to_json() == other.to_json()
    doc = position(["B 0,0 0"], [])
    doc["followers"] = [{"pos": "0,0", "seat": "blue", "feature": "cloister", "name": "cloister"}]
    assert score(doc).totals == (0, 1)


def test_points_as_an_object_by_seat() -> None:
    doc = position(["D 0,0 0"], [], points={"blue": 7, "0": 2}, players=3)
    assert score(doc).so_far == (2, 7, 0)


def test_inline_tile_and_the_catalogue_counts() -> None:
    """An inline tile (a road ending at a city gate) is laid like any other and does not count
    against the catalogue; its id defaults to @x,y. The gate's city (open) and the road
    D 0,0 + gate 1,0 (2 tiles, ends at the gate) score 1 + 2."""
    gate = {
        "edges": "FCFR",
        "cities": [{"sides": ["E"]}],
        "roads": [["W"]],
        "fields": [{"halves": ["Nw", "Ne", "Se", "Sw", "Ws", "Wn"], "cities": [0]}],
    }
    doc = position(["D 0,0 0"], [])
    doc["board"].append({"pos": "1,0", "tile": gate})
    doc["followers"] = [follower("0,0 red road W"), follower("1,0 blue city E")]
    result = score(doc)
    assert result.totals == (2, 1)
    assert result.position.catalogue.types[-1].id == "@1,0"
    state = state_of_position(result.position)
    assert state.cat.types[state.board[(1, 0)] >> 2].id == "@1,0"


# -- the examples and the command ------------------------------------------------------------------


def test_example_scores_as_documented() -> None:
    """docs/examples/carcassonne-position.json (docs/formats.md): red 12 so far + road 5 + city 5
    (tie with blue) + field 6 (2 completed cities) = 28; blue 10 + city 5 + cloister 6 + field 0
    = 21."""
    result = score_position(load_position(EXAMPLE))
    assert result.totals == (28, 21)
    assert result.by_kind(0) == {"roads": 5, "cities": 5, "cloisters": 0, "shrines": 0, "fields": 6}
    assert result.by_kind(1) == {"roads": 0, "cities": 5, "cloisters": 6, "shrines": 0, "fields": 0}
    assert result.winners == (0,)


def test_shrines_example_scores_as_documented() -> None:
    """docs/examples/carcassonne-shrines.json: red 7 + road 4 + city (2 tiles + 1 pennant) 3 = 14;
    blue 11 + cloister 6 = 17; green 4 + shrine 5 + field 3 = 12."""
    result = score_position(load_position(SHRINES_EXAMPLE))
    assert result.totals == (14, 17, 12)
    assert result.winners == (1,)
    assert result.by_kind(2) == {"roads": 0, "cities": 0, "cloisters": 0, "shrines": 5, "fields": 3}


@pytest.mark.parametrize("path", [EXAMPLE, SHRINES_EXAMPLE], ids=["base", "shrines"])
def test_examples_match_the_schema(path: Path) -> None:
    schema = calc.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(example(path), schema)


def test_schema_rejects_what_the_reader_rejects() -> None:
    schema = calc.schema()
    for change, field in [
        (lambda d: d["board"][1].update(rotation=45), r"board\[1\]\.rotation"),
        (lambda d: d["followers"][0].update(seat="purple"), r"followers\[0\]\.seat"),
        (lambda d: d["followers"][0].pop("name"), r"followers\[0\]\.name: missing"),
        (lambda d: d["options"].update(shrines="7"), r"options\.shrines"),
        (lambda d: d.update(extra=1), "extra: unknown field"),
    ]:
        doc = example()
        change(doc)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(doc, schema)
        with pytest.raises(PositionError, match=field):
            parse_position(doc)


def test_the_plugin_declares_the_calculator() -> None:
    """``regalia score`` finds calculators through the games' plugins: Carcassonne's declares this
    one (its format and its entry point), so the command tests below use the shipped plugin."""
    calculator = carcassonne_plugin.PLUGIN.calculator
    assert calculator is not None
    assert calculator.format == calc.FORMAT
    assert calculator.score(example()).totals == (28, 21)


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "140"})


def test_regalia_score_prints_the_example() -> None:
    result = invoke("score", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    for text in ("Final scoring", "Totals", "cloister", "red, blue (tie)", "2 completed cities × 3"):
        assert text in result.output
    assert "red wins: red 28, blue 21" in result.output


def test_regalia_score_json_of_the_shrines_example() -> None:
    result = invoke("score", str(SHRINES_EXAMPLE), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format"] == "carcassonne-score"
    assert [p["total"] for p in doc["players"]] == [14, 17, 12]
    assert doc["winners"] == ["blue"]
    assert doc == score_position(load_position(SHRINES_EXAMPLE)).to_json()


def test_regalia_score_a_bad_file_is_one_line(tmp_path: Path) -> None:
    doc = example()
    doc["board"][3]["rotation"] = 90
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: board[3].rotation: U turned 90 at 1,0")


def test_regalia_score_with_a_tile_catalogue(tmp_path: Path) -> None:
    """``-o tiles=FILE``: the ids are those of the user's catalogue (here the shipped layouts under
    other ids: D is 'Start', U is 'Straight')."""
    from regalia.core.data import read_package_json

    shipped = read_package_json("regalia.games.carcassonne", "data/tiles.json")
    renamed = {"D": "Start", "U": "Straight"}
    for entry in shipped["tiles"]:
        entry["id"] = renamed.get(entry["id"], entry["id"])
    catalogue = tmp_path / "tiles.json"
    catalogue.write_text(json.dumps(shipped))
    doc = position(["Start 0,0 0", "Straight 1,0 0"], ["1,0 blue road E"])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(doc))
    result = invoke("score", str(path), "-o", f"tiles={catalogue}", "--json")
    assert result.exit_code == 0, result.output
    assert [p["total"] for p in json.loads(result.output)["players"]] == [0, 2]
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "board[0].tile: 'Start' is not a tile of catalogue tiles.json" in result.stderr
    result = invoke("score", str(path), "-o", "colour=red")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "unknown calculator option(s) colour; valid: tiles" in result.stderr


def _printed(result: calc.PositionScore) -> str:
    from rich.console import Console

    from regalia.games.carcassonne.calculator_render import render_position_score

    console = Console(width=120, no_color=True)
    with console.capture() as cap:
        console.print(render_position_score(result))
    return cap.get()


def test_rendering_of_five_seats_and_a_shared_victory() -> None:
    doc = position(["D 0,0 0"], ["0,0 black road E"], points={"yellow": 1}, players=5)
    text = _printed(score(doc))
    assert "yellow and black share the victory: red 0, blue 0, green 0, yellow 1, black 1" in text
    assert "1 tile × 1" in text
    text = _printed(score(position(["D 0,0 0"], players=3)))
    assert "No follower on the board" in text
    assert "red, blue and green share the victory" in text


def test_unknown_calculator_option() -> None:
    with pytest.raises(OptionError, match="valid: tiles"):
        score_document(example(), {"roads": "false"})


# -- the engine agrees ------------------------------------------------------------------------------


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3, "shrines": "6"},
    {"players": 5, "shrines": "5", "challenge_house_rule": True},
    {"farmers": False, "small_city": 2},
    {"players": 4},
]


def _random_game(options: dict[str, Any], seed: int) -> tuple[Any, Any]:
    """A random game to its end, and the state just before the engine's final scoring
    (``_finish``): the last tile has been laid, its follower deployed and the features it completed
    scored in play; the followers still standing are those the final scoring counts. That state is
    the one before the game's last ply, given one tile more in the bag (``bag_left``), with the
    last ply applied: the last follower step (or the discard of a last tile that fits nowhere)
    then does all but the final scoring (no method is patched: a compiled engine ignores that)."""
    state = regalia.load_game("carcassonne", **options).new_state(seed)
    rng = random.Random(seed)
    previous, last = state, None
    while not state.is_terminal():
        last = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        previous = state.clone()
        state.apply(last)
    before: CarcassonneState = previous
    before.bag_left += 1
    before.apply(last)
    assert not before.is_terminal()
    return state, before


Reference = tuple[list[int], list[tuple[str, tuple[Pos, ...], tuple[int, ...], tuple[int, ...], int]]]


def reference_final_scoring(state: CarcassonneState) -> Reference:
    """The final scoring of the followers standing in ``state``, computed from scratch by the rules
    ("Final scoring", "Heretics and Shrines: final scoring") without the engine's features or
    scoring code: the features come from :func:`builders.reference_features` (a search over the
    laid tiles); each feature holding followers is worth, to every seat with the most followers on
    it, an unfinished road 1 per tile, an unfinished city 1 per tile + 1 per pennant (small_city
    only changes completed cities), a cloister or shrine 1 + 1 per tile around it (a challenge not
    resolved: both as unfinished cloisters), a field 3 per completed city (no open city side) it
    touches. Returns the totals (points so far + final) and, per feature, (kind, tiles, followers
    per seat, the scoring seats, the points)."""
    seats = state.num_players
    segments = reference_features(state)
    held: dict[int, tuple[dict[str, Any], list[int]]] = {}
    for pos, (seat, segment) in state.meeples.items():
        feature = segments[(pos, segment)]
        held.setdefault(id(feature), (feature, [0] * seats))[1][seat] += 1
    totals = list(state.points)
    features = []
    for feature, counts in held.values():
        kind, tiles = feature["kind"], feature["tiles"]
        if kind in ABBEYS:
            ((x, y),) = tiles
            value = sum((x + dx, y + dy) in state.board for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        elif kind == ROAD:
            assert feature["open"] > 0, "a follower on a completed road at the end"
            value = len(tiles)
        elif kind == CITY:
            assert feature["open"] > 0, "a follower on a completed city at the end"
            value = len(tiles) + feature["pennants"]
        else:
            assert kind == FIELD
            cities = {
                id(segments[(pos, city)])
                for pos, i in feature["members"]
                for city in state.turned(pos).segments[i].cities
                if segments[(pos, city)]["open"] == 0
            }
            value = 3 * len(cities)
        most = max(counts)
        scorers = tuple(seat for seat in range(seats) if counts[seat] == most)
        for seat in scorers:
            totals[seat] += value
        features.append((kind, tuple(sorted(tiles)), tuple(counts), scorers, value))
    return totals, sorted(features)


def calculator_features(result: calc.PositionScore) -> list[tuple[Any, ...]]:
    """The calculator's features in the form of :func:`reference_final_scoring`."""
    return sorted((f.kind, f.tiles, f.followers, f.scorers, f.points) for f in result.features)


@pytest.mark.parametrize("seed", range(15))
def test_random_finished_games_score_like_the_engine(seed: int) -> None:
    """Final scoring, Heretics and Shrines: final scoring. Property: for a random finished game, the
    calculator applied to the position just before the final scoring (board, followers standing,
    points so far, written as a JSON document) gives, per seat and per feature, the points of an
    independent reference (:func:`reference_final_scoring`: the board's features found from scratch
    and scored by the rules); it also agrees with the engine's own final scoring (its final points
    and its final scoring events)."""
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    final, before = _random_game(options, seed)
    doc = json.loads(json.dumps(position_of_state(before)))
    result = score_document(doc)
    totals, features = reference_final_scoring(before)
    assert list(result.totals) == totals
    assert calculator_features(result) == features
    assert features, "no follower standing at the end: nothing was checked"
    assert list(result.totals) == final.scores()
    engine = sorted(
        (e[2], tuple(e[4]), tuple(e[3])) for e in final.events()[len(before.events()) :] if e[1] == "final"
    )
    mine = sorted(
        (f.kind, f.tiles, tuple(f.points if s in f.scorers else 0 for s in range(len(f.followers))))
        for f in result.features
        if f.points
    )
    assert mine == engine
    assert sum(sum(f.followers) for f in result.features) == len(before.meeples)


@pytest.mark.parametrize("seed", range(4))
def test_between_turns_the_calculator_gives_the_engines_potential(seed: int) -> None:
    """Final scoring: between two turns (chance to draw) no follower stands on a completed feature,
    so the calculator scores the position as the game would end there: per seat and per feature
    the points of the independent reference (:func:`reference_final_scoring`), which are also the
    engine's points plus its potential (what the followers on the board would score)."""
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    state = regalia.load_game("carcassonne", **options).new_state(seed)
    rng = random.Random(seed)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if state.ply % 7 == 0:
                result = score_document(position_of_state(state))
                totals, features = reference_final_scoring(state)
                assert list(result.totals) == totals
                assert calculator_features(result) == features
                expected = [p + q for p, q in zip(state.points, state.potential(), strict=True)]
                assert list(result.totals) == expected
                checked += 1
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 5


def test_to_json_is_json_and_the_state_keeps_the_position() -> None:
    result = score_position(load_position(EXAMPLE))
    doc = result.to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["players"][0] == {
        "seat": "red",
        "so_far": 12,
        "roads": 5,
        "cities": 5,
        "cloisters": 0,
        "shrines": 0,
        "fields": 6,
        "total": 28,
    }
    state = state_of_position(result.position)
    assert len(state.board) == 13 and len(state.meeples) == 6
    assert state.followers == [4, 4] and state.points == [12, 10]
    assert state.bag_left == 72 - 13
    again = position_of_state(state)
    assert score_document(again).to_json() == doc


# -- every error names its field -----------------------------------------------------------------------


def _gate(d: dict[str, Any]) -> dict[str, Any]:
    tile: dict[str, Any] = {
        "edges": "FCFR",
        "cities": [{"sides": ["E"]}],
        "roads": [["W"]],
        "fields": [{"halves": ["Nw", "Ne", "Se", "Sw", "Ws", "Wn"], "cities": [0]}],
    }
    d["board"].append({"pos": "9,9", "tile": tile})
    return tile


def _add(d: dict[str, Any], *specs: str) -> None:
    d["board"].extend(cells(*specs))


def _eight_red(d: dict[str, Any]) -> None:
    """Every follower of the example red, and two more: the 8th is one too many."""
    for f in d["followers"]:
        f["seat"] = "red"
    d["followers"].extend([follower("0,1 red city S"), follower("2,0 red road W")])


def _complete_road(d: dict[str, Any]) -> None:
    """Close the example's open road (red's thief on 1,0): a junction (W) at -2,0 ends it in the
    west, a cloister (A turned 180, road N) at 2,-2 ends it in the south, below the U at 2,-1."""
    _add(d, "W -2,0 0", "A 2,-2 180")


def _complete_cloister(d: dict[str, Any]) -> None:
    """Fill the 3 empty places around the example's cloister at 0,-1: -1,-2 (U turned 90, road N
    from V -1,-1), 0,-2 (B) and 1,-2 (E turned 0, city N under E 1,-1's city S)."""
    _add(d, "U -1,-2 90", "B 0,-2 0", "E 1,-2 0")


ERRORS: list[tuple[Callable[[dict[str, Any]], Any], str]] = [
    # the document
    (lambda d: d.update(format="carcassonne-state"), "format: expected 'carcassonne-position'"),
    (lambda d: d.update(version=2), "version: unsupported version 2"),
    (lambda d: d.update(bag=[]), "bag: unknown field"),
    # options
    (lambda d: d.update(options=[]), "options: expected an object"),
    (lambda d: d["options"].update(players=6), r"options\.players: expected a number of players 2 to 5"),
    (lambda d: d["options"].update(players="2"), r"options\.players"),
    (lambda d: d["options"].update(farmers="yes"), r"options\.farmers: expected true or false"),
    (lambda d: d["options"].update(small_city=3), r"options\.small_city: expected 4 or 2"),
    (lambda d: d["options"].update(shrines="on"), r"options\.shrines: expected 'off', 5 or 6"),
    (lambda d: d["options"].update(challenge_house_rule=True), r"options: option challenge_house_rule"),
    (lambda d: d["options"].update(tiles="x.json"), r"options\.tiles: give your tile catalogue"),
    (lambda d: d["options"].update(roads=True), r"options\.roads: unknown option"),
    # the board
    (lambda d: d.update(board=[]), "board: expected a non-empty list"),
    (lambda d: d["board"].append("D 5,5"), r"board\[13\]: expected an object"),
    (lambda d: d["board"][2].update(owner="red"), r"board\[2\]\.owner: unknown field"),
    (lambda d: d["board"][2].pop("tile"), r"board\[2\]\.tile: missing"),
    (lambda d: d["board"][2].pop("pos"), r"board\[2\]\.pos: missing"),
    (lambda d: d["board"][2].update(pos="1;0"), r"board\[2\]\.pos: '1;0' is not a position"),
    (lambda d: d["board"][2].update(pos=[1, 0]), r"board\[2\]\.pos: expected a position"),
    (lambda d: d["board"][2].update(pos="0,0"), r"board\[2\]\.pos: 0,0 is already used by board\[0\]"),
    (lambda d: d["board"][2].update(tile="Z"), r"board\[2\]\.tile: 'Z' is not a tile of catalogue"),
    (lambda d: d["board"][2].update(tile=7), r"board\[2\]\.tile: expected a catalogue id"),
    (lambda d: d["board"][2].update(rotation=45), r"board\[2\]\.rotation: expected 0, 90, 180 or 270"),
    (lambda d: d["board"][2].update(rotation="90"), r"board\[2\]\.rotation"),
    (lambda d: _add(d, "SH 4,0 0"), r"board\[13\]\.tile: SH is a tile of set shrines5, which is not in play"),
    (lambda d: _add(d, "C 9,9 0"), r"board\[13\]\.pos: 9,9 is not connected by sides to board\[0\]"),
    (
        lambda d: _add(d, "F 5,5 0", "F 6,6 0"),
        r"board\[14\]\.tile: one F too many: the catalogue has 2 F tiles \(the start tile included\)",
    ),
    (
        lambda d: _add(d, "C -1,1 0"),
        r"board\[13\]\.rotation: C turned 0 at -1,1 shows a city on its E side, but board\[1\] \(E turned "
        r"180 at 0,1\) shows a field on its W side: .*; no rotation of C fits there",
    ),
    (
        lambda d: d["board"][3].update(rotation=90),
        r"board\[3\]\.rotation: U turned 90 at 1,0 shows a field on its W side, but board\[0\] \(D turned 0 "
        r"at 0,0\) shows a road on its E side: the edges of neighbouring tiles must match; rotations of U "
        r"that fit: 0$",
    ),
    # inline tiles
    (lambda d: _gate(d).update(edges="FCFX"), r"board\[13\]\.tile\.edges: 4 letters"),
    (lambda d: _gate(d).update(cities=[{"sides": ["E", "E"]}]), r"board\[13\]\.tile\.cities\[0\]\.sides"),
    (lambda d: _gate(d).update(roads=[]), r"board\[13\]\.tile\.roads: the R sides"),
    (lambda d: _gate(d).update(roads=5), r"board\[13\]\.tile\.roads: expected a list, got 5$"),
    (lambda d: _gate(d).update(fields=[]), r"board\[13\]\.tile\.fields: the halves"),
    (lambda d: _gate(d).update(set="base"), r"board\[13\]\.tile\.set: unknown field"),
    (lambda d: _gate(d).update(id="D"), r"board\[13\]\.tile\.id: 'D' is already the id of a tile of the"),
    (lambda d: _gate(d).update(id=""), r"board\[13\]\.tile\.id: a non-empty string"),
    (lambda d: _gate(d).update(cloister="yes"), r"board\[13\]\.tile\.cloister"),
    (
        lambda d: _gate(d).update(
            edges="FFFF", cities=[], roads=[], fields=[{"halves": list(calc.HALVES)}], shrine=True
        ),
        r"board\[13\]\.tile\.shrine: a shrine needs Heretics and Shrines",
    ),
    # points
    (lambda d: d.update(points=[1]), r"points: expected 2 numbers, one per seat \(red, blue\), got 1$"),
    (lambda d: d.update(points=[1, 2, 3]), "points: .*got 3; set options.players"),
    (lambda d: d.update(points=[1, -2]), r"points\[1\]: expected a number of points >= 0"),
    (lambda d: d.update(points=[1, True]), r"points\[1\]"),
    (lambda d: d.update(points="12"), "points: expected a list of 2 numbers"),
    (lambda d: d.update(points={"green": 3}), r"points\.green: 'green' is not a seat; with 2 players"),
    (lambda d: d.update(points={"red": 1.5}), r"points\.red: expected a number of points"),
    # followers
    (lambda d: d.update(followers={}), "followers: expected a list"),
    (lambda d: d["followers"].append("0,0 red road"), r"followers\[6\]: expected an object"),
    (lambda d: d["followers"][0].update(kind="road"), r"followers\[0\]\.kind: unknown field"),
    (lambda d: d["followers"][0].pop("seat"), r"followers\[0\]\.seat: missing"),
    (lambda d: d["followers"][0].pop("feature"), r"followers\[0\]\.feature: missing"),
    (lambda d: d["followers"][0].update(pos="7,7"), r"followers\[0\]\.pos: no tile at 7,7"),
    (
        lambda d: d["followers"][1].update(pos="1,0"),
        r"followers\[1\]\.pos: 1,0 already holds followers\[0\]: one follower per tile",
    ),
    (lambda d: d["followers"][0].update(seat="green"), r"followers\[0\]\.seat: 'green' is not a seat"),
    (lambda d: d["followers"][0].update(seat=2), r"followers\[0\]\.seat"),
    (
        lambda d: d["followers"][0].update(feature="castle"),
        r"followers\[0\]\.feature: 'castle' is not a feature",
    ),
    (lambda d: d["options"].update(farmers=False), r"followers\[1\]\.feature: farmers are not played"),
    (lambda d: d["followers"][0].pop("name"), r"followers\[0\]\.name: missing: the road's side"),
    (
        lambda d: d["followers"][0].update(name="Nw"),
        r"followers\[0\]\.name: a road is named by one of N, E, S, W",
    ),
    (
        lambda d: d["followers"][0].update(name="N"),
        r"followers\[0\]\.name: U turned 0 at 1,0 has no road at N; its features: road E \(E/W\), field Nw",
    ),
    (lambda d: d["followers"][4].update(name="N"), r"followers\[4\]\.name: a cloister is named 'cloister'"),
    (
        lambda d: d["followers"][0].update(feature="cloister"),
        r"followers\[0\]\.feature: U turned 0 at 1,0 has no cloister",
    ),
    (_eight_red, r"followers\[7\]\.seat: red has more than 7 followers on the board"),
    (
        lambda d: d["followers"].append(follower("0,1 red city S")),
        r"followers\[6\]: the city of 2 tiles \(0,0 0,1\) is complete: it was scored",
    ),
    (_complete_road, r"followers\[0\]: the road of 7 tiles \(-2,0 -1,0 0,0 1,0 2,-2 2,-1 ...\) is complete"),
    (_complete_cloister, r"followers\[4\]: the cloister at 0,-1 is complete \(8 neighbours\)"),
]


@pytest.mark.parametrize(("change", "message"), ERRORS, ids=[m[:40] for _, m in ERRORS])
def test_errors_name_the_field(change: Callable[[dict[str, Any]], Any], message: str) -> None:
    doc = copy.deepcopy(example())
    change(doc)
    with pytest.raises(PositionError, match=message):
        parse_position(doc)


JUNK: list[Any] = [None, [], {}, "x", -1, 1.5, True, "N", 90, {"sides": 3}, [["N"]]]


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in items:
        yield from _leaves(value, (*path, key))


@pytest.mark.parametrize("path", [EXAMPLE, SHRINES_EXAMPLE], ids=["base", "shrines"])
def test_any_bad_value_is_refused_in_one_line_never_a_crash(path: Path) -> None:
    """Every value of an example, in turn, replaced by junk of every JSON type: the reader either
    accepts the document or refuses it with a RegaliaError (one line from regalia score); no other
    exception escapes."""
    base = example(path)
    refused = 0
    for where in _leaves(base):
        for junk in JUNK:
            doc = copy.deepcopy(base)
            target = doc
            for key in where[:-1]:
                target = target[key]
            target[where[-1]] = copy.deepcopy(junk)
            try:
                score(doc)
            except RegaliaError:
                refused += 1
    assert refused > len(JUNK) * 20


def test_several_followers_on_one_feature_are_allowed() -> None:
    """Followers of several seats, or several of one seat, on one connected feature arise from
    merges: the reader accepts them (test_majority_on_a_merged_city scores them)."""
    doc = position(_merged_city(), ["-2,0 red city E", "-1,0 red city E", "0,0 blue city E"])
    assert len(parse_position(doc).followers) == 3


def test_shrine_touching_two_cloisters_is_refused() -> None:
    """Heretics and Shrines: placing a tile ("a shrine may not be placed in such a way that it
    adjoins several cloisters. [2] Similarly, a cloister may not be placed so that it neighbors
    several shrines. [3]"; ruling C-restriction): a position with a shrine touching two cloisters,
    or a cloister touching two shrines, is refused; one shrine beside one cloister is fine."""
    board = ["D 0,0 0", "B 0,-1 0", "SH 1,-1 0", "B 2,-1 0", "U 1,0 0"]
    with pytest.raises(PositionError, match=r"board\[2\]\.pos: the shrine at 1,-1 touches 2 cloisters"):
        parse_position(position(board, shrines=5))
    board = ["D 0,0 0", "SH 0,-1 0", "B 1,-1 0", "SHR 2,-1 0", "U 1,0 0"]
    with pytest.raises(PositionError, match=r"board\[2\]\.pos: the cloister at 1,-1 touches 2 shrines"):
        parse_position(position(board, shrines=5))
    assert score(position(["D 0,0 0", "B 0,-1 0", "SH 1,-1 0", "U 1,0 0"], shrines=5)).totals == (0, 0)


def test_shrine_tiles_need_their_set() -> None:
    with pytest.raises(PositionError, match=r"board\[1\]\.tile: SHCRR is a tile of set shrines6"):
        parse_position(position(["D 0,0 0", "SHCRR 0,1 180"], shrines=5))
    assert parse_position(position(["D 0,0 0", "SHCRR 0,1 180"], shrines=6)).players == 2


def test_the_start_tile_counts_among_its_copies() -> None:
    """The catalogue has 4 D, the start tile one of them: 4 D on a board are fine, 5 are not."""
    board = ["D 0,0 0", "D 1,0 0", "D 2,0 0", "D 3,0 0"]
    assert len(parse_position(position(board)).board) == 4
    with pytest.raises(PositionError, match=r"board\[4\]\.tile: one D too many: the catalogue has 4 D"):
        parse_position(position([*board, "D 4,0 0"]))


def test_a_document_that_is_not_an_object() -> None:
    with pytest.raises(PositionError, match=r"\(document\): a position must be a JSON object"):
        parse_position([])


def test_load_position_errors(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="cannot read"):
        load_position(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(PositionError, match="not valid JSON"):
        load_position(bad)


# -- how far a board may reach (core.grid.REACH) ------------------------------------------------


def _shifted(doc: dict[str, Any], dx: int, dy: int) -> dict[str, Any]:
    """``doc`` with every position moved by ``dx, dy``."""

    def move(pos: str) -> str:
        x, y = (int(v) for v in pos.split(","))
        return f"{x + dx},{y + dy}"

    out = copy.deepcopy(doc)
    for entry in (*out["board"], *out.get("followers", [])):
        entry["pos"] = move(entry["pos"])
    return out


def test_a_board_anywhere_within_reach_scores_as_at_the_start() -> None:
    """The engines keep boards by square within 128 of 0,0 in each coordinate (docs/formats.md):
    the example moved to the edge of that reach scores the same."""
    doc = example()
    far = 125  # the example spans -1 to 3 across and -1 to 2 up
    here = score_position(parse_position(doc))
    there = score_position(parse_position(_shifted(doc, far, -far)))
    assert there.totals == here.totals == (28, 21)
    assert [there.by_kind(seat) for seat in (0, 1)] == [here.by_kind(seat) for seat in (0, 1)]


def test_a_board_beyond_reach_is_refused_by_its_field() -> None:
    """A position further than 128 from 0,0 is refused at once, naming the field (before, a
    board 30,000 squares away was accepted, and its lists by square id ran out of memory)."""
    doc = _shifted(position(["D 0,0 0", "U 1,0 0"]), 30000, 0)
    with pytest.raises(PositionError, match=r"board\[0\]\.pos: '30000,0' lies further than 128 squares"):
        parse_position(doc)


def test_a_tile_laid_beyond_reach_changes_nothing() -> None:
    """Laying a tile out of reach (a setup, not a move: no move reaches that far) is refused before
    the board changes."""
    state = CarcassonneState.new(regalia.load_game("carcassonne"))  # type: ignore[arg-type]
    before = (dict(state.board), list(state.cells), list(state.need_sorted))
    with pytest.raises(PositionError, match="129,0 lies further than 128 squares from 0,0"):
        state.lay_tile((129, 0), 0, 0)
    assert (dict(state.board), list(state.cells), list(state.need_sorted)) == before
