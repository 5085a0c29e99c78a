"""The companion for the printed solo game: ``regalia henry POSITION.json`` (docs/formats.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import regalia
from regalia.core.errors import PositionError
from regalia.games.two_heirs.companion import parse_solo_position, plan_document, plan_json, turn_lines
from regalia.games.two_heirs.henry import Placement
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.tiles import COLOURS


def doc(**kw: Any) -> dict[str, Any]:
    """A solo position: starting tile at 0,0, the player's inn W2 (road E-W) at 1,0."""
    base: dict[str, Any] = {
        "format": "two-heirs-solo-position",
        "version": 1,
        "board": [
            {"pos": "0,0", "owner": None, "tile": "D8"},
            {"pos": "1,0", "owner": "player", "tile": "W2"},
        ],
        "reserve": ["D2", "W3", "V2", None, "T1", "T5"],
        "supply_top": "green",
        "last_building": "1,0",
        "pile": 10,
    }
    base.update(kw)
    return base


def test_the_companion_prints_the_whole_turn_in_the_players_frame() -> None:
    """Take (rule a), placement (rule B: V2 has no road, it blocks the inn's east road), unit."""
    plan = plan_document(doc())
    assert plan.turn.placement == Placement((2, 0), "B", 3, "E")
    lines = turn_lines(plan)
    assert lines[0].startswith("1. Henry takes V2 (siege tower, green), the 3rd tile clockwise")
    assert "rule a: the first green tile" in lines[0]
    assert (
        lines[1]
        == "2. Build it upside down (facing Henry) to the right of your inn (W2 at 1,0): position 2,0."
    )
    assert lines[2].strip().startswith("Rule B")
    assert "elite unit with the green cross from the edge of the play area" in lines[4]


def test_diagonal_positions_read_above_your_building_to_the_right() -> None:
    """Ruling R-henry-scan: C2 is "above your inn, to the right" for the player."""
    board = [
        {"pos": "0,0", "owner": None, "tile": "D8"},
        {"pos": "1,0", "owner": "player", "tile": "D4"},  # a bakery: no roads
        {"pos": "1,1", "owner": None, "tile": "T4"},  # C1 taken
    ]
    lines = turn_lines(plan_document(doc(board=board)))
    assert "above your bakery (D4 at 1,0), to the right: position 2,1." in lines[1]
    assert "C2" in lines[2]


def test_the_companion_agrees_with_the_engine() -> None:
    """The companion and the engine share Henry: same position, same turn."""
    s = regalia.load_game("two-heirs", solo=True).new_state(seed=21)
    assert isinstance(s, SoloState)
    # reach a position after a few random turns
    import random

    rng = random.Random(3)
    s.advance(rng)
    while s.henry_turns < 4 or s.current_player != 0:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        s.advance(rng)
    s.took, s.shield_mine = True, False  # the end of the player's turn: Henry is next
    tiles = s.tiles
    board = [
        {
            "pos": f"{p[0]},{p[1]}",
            "owner": {0: None, 1: "player", 2: "henry"}[c & 3],
            "tile": tiles[c >> 2].id,
        }
        for p, c in s.board.items()
    ]
    clockwise = [s.reserve[(s.shield + k) % 7] for k in range(1, 7)]
    crosses = ["green", "grey", "yellow"]
    units = {
        crosses[s.tset.crosses[k]]: None if p is None else f"{p[0]},{p[1]}"
        for k, p in enumerate(s.henry_units())
    }
    position = doc(
        board=board,
        reserve=[None if t < 0 else tiles[t].id for t in clockwise],
        supply_top=COLOURS[s.top] if s.top >= 0 else None,
        last_building=None if s.last_built[0] is None else f"{s.last_built[0][0]},{s.last_built[0][1]}",
        henry_units=units,
        treasures=[{"pos": f"{p[0]},{p[1]}", "token": s.tset.tokens[t].id} for p, t in s.treasures],
        pile=s.pile_left,
    )
    plan = plan_document(position).turn
    engine = s.plan_henry()
    assert plan.placement == engine.placement
    assert plan.unit == engine.unit and plan.unit_from == engine.unit_from
    assert (plan.take and tiles[plan.take.tile].id) == (engine.take and tiles[engine.take.tile].id)
    assert [(q, t) for q, t in plan.removed] == list(engine.removed)


def test_a_known_next_treasure_is_checked_at_once() -> None:
    board = [
        {"pos": "0,0", "owner": None, "tile": "D8"},
        {"pos": "1,0", "owner": "player", "tile": "D4"},
        {"pos": "2,1", "owner": None, "tile": "C4"},  # yellow tiles joining the board (one area)
        {"pos": "2,2", "owner": None, "tile": "C9"},
        {"pos": "1,3", "owner": None, "tile": "T4"},
        {"pos": "1,4", "owner": None, "tile": "T3"},
    ]
    plan = plan_document(doc(board=board, next_treasure="H1"))  # vertical green
    assert plan.turn.placement is not None and plan.turn.placement.pos == (1, 1)
    assert "already met: remove it at once" in turn_lines(plan)[3]
    out = plan_json(plan)
    assert out["remove"] == [{"pos": "1,1", "token": "H1"}]


def test_treasures_already_on_the_board_that_the_new_tile_fulfils_are_listed() -> None:
    board = [
        {"pos": "0,0", "owner": None, "tile": "D8"},
        {"pos": "1,0", "owner": "player", "tile": "D4"},
        {"pos": "2,0", "owner": None, "tile": "C4"},  # yellow tiles joining the board (one area)
        {"pos": "3,0", "owner": None, "tile": "C9"},
        {"pos": "4,1", "owner": "henry", "tile": "T9"},
        {"pos": "5,1", "owner": None, "tile": "T6"},
    ]
    # H5: 2 grey tiles elsewhere in its row (row 1); Henry's grey D2 lands at 1,1
    position = doc(
        board=board,
        supply_top="grey",
        treasures=[{"pos": "4,1", "token": "H5"}],
        henry_units={"grey": "4,1"},
        pile=3,
    )
    plan = plan_document(position)
    assert plan.turn.placement is not None and plan.turn.placement.pos == (1, 1)
    lines = turn_lines(plan)
    assert lines[-1].startswith("5. Treasures to remove now: H5 at 4,1")
    assert "from 4,1 onto it" in lines[4]


def test_rule_d_in_the_companion() -> None:
    board = [{"pos": "0,0", "owner": None, "tile": "D8"}, {"pos": "1,0", "owner": "player", "tile": "D4"}]
    ids = iter(["T4", "T6", "T2", "T3", "V1", "V3", "V4", "V5"])
    for x, y in [(0, 1), (1, 1), (2, 1), (2, 0), (2, -1), (1, -1), (0, -1)]:
        board.append({"pos": f"{x},{y}", "owner": None, "tile": next(ids)})
    lines = turn_lines(plan_document(doc(board=board)))
    assert lines[1].startswith("2. Rule D: all eight positions around your bakery")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "two-heirs-position"}, "format"),
        ({"reserve": ["D2"]}, "reserve"),
        ({"reserve": ["D2", "W3", "ZZ", None, "T1", "T5"]}, r"reserve\[2\]"),
        ({"reserve": ["D8", "W3", "V2", None, "T1", "T5"]}, r"reserve\[0\]"),
        ({"supply_top": "brown"}, "supply_top"),
        ({"last_building": "0,0"}, "last_building"),
        ({"last_building": "7,7"}, "last_building"),
        ({"henry_units": {"purple": "1,0"}}, "henry_units.purple"),
        ({"henry_units": {"green": "1,0"}}, "henry_units.green"),
        ({"treasures": [{"pos": "1,0", "token": "H1"}]}, r"treasures\[0\]\.pos"),
        ({"pile": 11}, "pile"),
        ({"next_treasure": "H42"}, "next_treasure"),
        ({"board": [{"pos": "0,0", "owner": "nobody", "tile": "D8"}]}, r"board\[0\]\.owner"),
        ({"board": [{"pos": "0,0", "owner": None, "tile": "D8", "colour": "x"}]}, r"board\[0\]\.colour"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_positions_are_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError, match=rf"^{field}: "):
        parse_solo_position(doc(**change))


def test_regalia_henry_command_prints_the_turn_and_exits_2_on_bad_input(tmp_path: Path) -> None:
    from regalia.cli import app

    runner = CliRunner()
    good = tmp_path / "position.json"
    good.write_text(json.dumps(doc()))
    result = runner.invoke(app, ["henry", str(good)])
    assert result.exit_code == 0, result.output
    assert "Henry's turn" in result.output and "Rule B" in result.output
    result = runner.invoke(app, ["henry", str(good), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["place"]["slot"] == "C3"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc(supply_top="purple")))
    result = runner.invoke(app, ["henry", str(bad)])
    assert result.exit_code == 2
    assert "supply_top" in result.output


def test_regalia_play_solo_shows_henrys_turn_and_uses_the_level(tmp_path: Path) -> None:
    """``regalia play two-heirs -o solo=true -o level=1``: Henry's steps are shown one by one
    after your turn, each with the rule that decided it, and they are in the record."""
    from regalia.cli import app

    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        app,
        ["play", "two-heirs", "-o", "solo=true", "-o", "level=1", "--seed", "4", "--save", str(record)],
        input="1\nend\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Henry takes" in result.output and "Rule C" in result.output
    saved = json.loads(record.read_text())
    assert saved["options"]["solo"] is True and saved["options"]["level"] == 1
    assert saved["players"] == ["human", "automaton"]
    henry_plies = [a for a in saved["actions"][saved["actions"].index("end") + 1 :]][:4]
    assert [a.split()[0] for a in henry_plies][:2] == ["take", "draw"]
