"""The archetypes as data: the shipped file, its validation, and a designer's file
(``-o archetypes=FILE``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.data import read_package_json
from regalia.core.errors import DataError
from regalia.games.royal_court.archetypes import default_archetypes, parse_archetypes
from regalia.games.royal_court.state import P_MOVE, P_TARGET

from .builders import build, run, texts

SHIPPED: dict[str, Any] = read_package_json("regalia.games.royal_court", "data/archetypes.json")
ROOT = Path(__file__).resolve().parents[3]


def test_the_ten_archetypes_are_shipped_with_values_marked_as_ours() -> None:
    """Description: 10 archetypes per player; the values and adaptations are regalia's own."""
    names = [a.name for a in default_archetypes().archetypes]
    assert names == [
        "Assassin",
        "Joker",
        "Spy",
        "Thief",
        "Bishop",
        "Captain",
        "Wizard",
        "Healer",
        "Diplomat",
        "Courtisan",
    ]
    assert "regalia's" in SHIPPED["note"]
    assert all(a.influence >= 0 and a.word for a in default_archetypes().archetypes)


def test_the_schema_beside_the_file_accepts_it() -> None:
    """data/archetypes.schema.json describes the shipped file."""
    schema = read_package_json("regalia.games.royal_court", "data/archetypes.schema.json")
    jsonschema.validate(SHIPPED, schema)


def broken(path: str, value: Any) -> dict[str, Any]:
    """The shipped document with one field changed (``archetypes.0.effects.0.do``); ``...`` deletes it."""
    doc = copy.deepcopy(SHIPPED)
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    target = doc
    for k in keys[:-1]:
        target = target[k]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            "archetypes.0.effects.0.do",
            "poison",
            r"archetype Assassin: field 'effects\[0\].do': unknown effect 'poison'",
        ),
        (
            "archetypes.0.effects.0.target",
            "active-consort",
            r"archetype Assassin: field 'effects\[0\].target': effect 'remove' needs",
        ),
        (
            "archetypes.1.effects.0.target",
            "own-active-in-play",
            r"archetype Joker: field 'effects\[0\].target': effect 'extra-move' takes no target",
        ),
        ("archetypes.2.influence", "2", r"archetype Spy: field 'influence': expected an integer"),
        ("archetypes.2.influence", True, r"archetype Spy: field 'influence': expected an integer"),
        ("archetypes.3.name", "Spy", r"archetype Spy: field 'name': 'Spy' is used twice"),
        ("archetypes.3.abbr", "SP", r"field 'abbr': 'SP' is used twice"),
        ("archetypes.4.colour", "red", r"archetype Bishop: field 'colour': unknown field"),
        ("archetypes.4.word", ..., r"archetype Bishop: field 'word': expected a non-empty string"),
        ("archetypes.7.effects.0.side", "up", r"archetype Healer: field 'effects\[0\].side'"),
        ("archetypes.0.effects.0.side", "active", r"only a 'return' effect names a side"),
        ("archetypes.3.requires_all", "yes", r"archetype Thief: field 'requires_all'"),
        ("format", "tiles", r"field 'format' must be 'royal-court-archetypes'"),
        ("archetypes", [], r"field 'archetypes' must be a non-empty list"),
    ],
)
def test_a_malformed_archetype_file_names_the_entry_and_field(path: str, value: Any, message: str) -> None:
    """Archetypes are validated on load; the error names the entry and the field."""
    with pytest.raises(DataError, match=message):
        parse_archetypes(broken(path, value), "mine.json")


def test_a_designers_file_replaces_the_archetypes(tmp_path: Path) -> None:
    """``-o archetypes=FILE``: a designer changes an archetype without code (here the Assassin
    becomes worth 9 and returns its target instead of removing it)."""
    doc = broken("archetypes.0.influence", 9)
    doc["archetypes"][0]["effects"] = [{"do": "return", "target": "opponent-active-in-play"}]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    state = build({"1,0": "blue Spy"}, archetypes=str(path))
    run(state, "play Assassin 1,1")
    assert state.phase == P_TARGET and texts(state) == ["return 1,0"]
    run(state, "return 1,0")
    assert state.zone_tiles(1)[:3] == [0, 1, 2] and state.phase == P_MOVE
    assert state.game.influence[state.game.piece(0, 0)] == 9


def test_bad_archetype_option_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    """Bad input gets one clear line: a missing file, malformed JSON, a bad field."""
    with pytest.raises(DataError, match="cannot read archetype file"):
        regalia.load_game("royal-court", archetypes=str(tmp_path / "none.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.json: not valid JSON"):
        regalia.load_game("royal-court", archetypes=str(bad))
    result = CliRunner().invoke(app, ["check", "royal-court", "-n", "1", "-o", f"archetypes={bad}"])
    assert result.exit_code != 0 and "not valid JSON" in result.output and "Traceback" not in result.output


def test_the_rulebooks_table_gives_the_shipped_values() -> None:
    """The rulebook shipped with the game (``rules`` at the prompt) lists each archetype with the
    influence of the shipped file."""
    import re

    rules = regalia.game_plugin("royal-court").rules()
    table = dict(re.findall(r"^\| ([A-Z][a-z]+) \| (\d+) \|", rules, flags=re.M))
    shipped = {a.name: str(a.influence) for a in default_archetypes().archetypes}
    assert table == shipped
