"""The game-agnostic core: registry and options, errors, records and replays, grid, notation errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.errors import (
    DataError,
    IllegalAction,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    RegaliaError,
    ReplayDivergence,
    UnknownGame,
)
from regalia.core.game import CHANCE, State
from regalia.core.grid import format_pos, neighbours4, neighbours8, parse_pos, rotate_dir, step
from regalia.core.loop import playout
from regalia.core.record import Record, replay
from regalia.games.two_heirs.tiles import parse_catalogue, parse_tile


def finished_game(seed: int = 3) -> regalia.State:
    s = regalia.load_game("two-heirs").new_state(seed)
    rng = random.Random(seed)
    while True:
        s.advance(rng)
        if s.is_terminal():
            return s
        s.apply(rng.choice(s.legal_actions()))


def started(seed: int) -> regalia.State:
    """A two-player game after setup's chance outcomes."""
    s = regalia.load_game("two-heirs").new_state(seed)
    s.advance()
    return s


# -- registry and options -----------------------------------------------------------------------
def test_unknown_game_id_lists_the_valid_ids() -> None:
    with pytest.raises(UnknownGame, match=r"valid games: .*two-heirs"):
        regalia.load_game("chess")
    assert "two-heirs" in regalia.game_ids()


def test_unknown_option_lists_the_valid_names() -> None:
    with pytest.raises(OptionError) as info:
        regalia.load_game("two-heirs", road=False)
    assert "road" in str(info.value)
    assert "valid options: level, roads, sets, solo, tiles, treasures" in str(info.value)


def test_option_values_are_type_checked_and_converted() -> None:
    with pytest.raises(OptionError, match="option roads: expected true or false"):
        regalia.load_game("two-heirs", roads="maybe")
    with pytest.raises(OptionError, match="option level"):
        regalia.load_game("two-heirs", level="high")
    g = regalia.load_game("two-heirs", roads="off", sets="warfare, crafts, guard")
    assert g.options.roads is False and g.options.sets == ("warfare", "crafts", "guard")


def test_options_json_round_trip() -> None:
    g = regalia.load_game("two-heirs", roads=False, sets="random")
    again = regalia.load_game("two-heirs", **g.options.to_json())
    assert again.options == g.options


def test_every_error_derives_from_the_base_error() -> None:
    for cls in (IllegalAction, NotationError, OptionError, UnknownGame, DataError, PositionError):
        assert issubclass(cls, RegaliaError)
    assert issubclass(ReplayDivergence, RecordError)


def test_illegal_action_carries_its_rule() -> None:
    err = IllegalAction("no", "Action A")
    assert err.rule == "Action A" and str(err) == "no [Action A]"


# -- records -----------------------------------------------------------------------------------------
def test_record_json_round_trip(tmp_path: Path) -> None:
    s = finished_game()
    rec = s.record()
    assert rec.result is not None and rec.result["scores"] == s.scores()
    assert Record.from_json(rec.to_json()) == rec
    assert Record.loads(rec.dumps()) == rec
    path = tmp_path / "game.json"
    rec.save(path)
    assert Record.load(path) == rec
    assert replay(Record.load(path)).to_json() == s.to_json()


def test_record_of_an_unfinished_game_has_no_result_and_no_seed() -> None:
    """A record lists chance's outcomes as ordinary plies, so it replays without the seed and tells
    nothing about draws to come."""
    s = started(8)
    s.apply(s.legal_actions()[0])
    doc = s.record().to_json()
    assert doc["result"] is None and doc["game"] == "two-heirs" and "seed" not in doc
    assert doc["format"] == "regalia-record" and doc["version"] == 2
    assert doc["seats"] == ["white", "blue"]
    assert doc["options"] == {
        "sets": ["wandering", "dominion", "trade-and-church"],
        "roads": True,
        "solo": False,
    }
    assert doc["actions"][0] in ("first white", "first blue") and doc["actions"][-1].startswith("take ")
    assert s.current_player == regalia.CHANCE  # the refill is not drawn yet, so no record holds it
    assert replay(doc, seed=123).to_json() == s.to_json()


def test_version_1_records_are_refused_with_a_reason() -> None:
    doc = started(1).record().to_json()
    doc["version"] = 1
    with pytest.raises(RecordError, match="version 1 records drew everything from a seed"):
        Record.from_json(doc)


def test_replay_divergence_names_the_ply() -> None:
    doc = finished_game().record().to_json()
    doc["result"] = None
    doc["actions"][14] = "take ZZZ"
    with pytest.raises(ReplayDivergence) as info:
        replay(doc)
    assert info.value.ply == 15 and "ply 15" in str(info.value)
    doc["actions"][14] = "end"
    doc["actions"].insert(9, "end")  # right after setup: illegal before a take
    with pytest.raises(ReplayDivergence, match=r"ply 10 .*Action A"):
        replay(doc)
    doc["actions"].insert(0, "end")  # chance is to act first
    with pytest.raises(ReplayDivergence, match=r"ply 1 .*chance is to act first"):
        replay(doc)


def test_replay_refuses_a_wrong_result() -> None:
    doc = finished_game().record().to_json()
    doc["result"]["scores"] = [999, 0]
    with pytest.raises(ReplayDivergence, match="recorded scores"):
        replay(doc)
    doc = finished_game().record().to_json()
    doc["actions"] = doc["actions"][:-3]
    with pytest.raises(ReplayDivergence, match="not over"):
        replay(doc)


def test_replay_upto_stops_early() -> None:
    s = finished_game()
    doc = s.record().to_json()
    partial = replay(doc, upto=10)
    assert len(partial.history) == 10


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "pgn"}, "'format'"),
        ({"version": 9}, "'version'"),
        ({"game": 3}, "'game'"),
        ({"seats": "white"}, "'seats'"),
        ({"players": [1]}, "'players'"),
        ({"view": "everyone"}, "'view'"),
        ({"options": []}, "'options'"),
        ({"actions": "take"}, "'actions'"),
        ({"actions": ["end", 4]}, "'actions[1]'"),
        ({"result": 5}, "'result'"),
    ],
)
def test_malformed_record_fields_are_named(change: dict[str, object], field: str) -> None:
    doc = started(1).record().to_json()
    doc.update(change)
    with pytest.raises(RecordError, match=field.replace("[", r"\[").replace("]", r"\]")):
        Record.from_json(doc)


def test_missing_record_field_is_named() -> None:
    doc = started(1).record().to_json()
    del doc["game"]
    with pytest.raises(RecordError, match="field 'game' is missing"):
        Record.from_json(doc)
    with pytest.raises(RecordError, match="not JSON"):
        Record.loads("{")
    with pytest.raises(RecordError, match="cannot read"):
        Record.load("/nonexistent/record.json")


# -- state documents ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("reserve",), [None] * 6, "'reserve'"),
        (("board", 0, "tile"), "ZZ9", "'board[0].tile'"),
        (("board", 0, "pos"), "here", "'board[0].pos'"),
        (("units",), [], "'units'"),
        (("player",), 7, "'player'"),
        (("supply", 0), "nope", "'supply[0]'"),
    ],
)
def test_malformed_state_fields_are_named(path: tuple[object, ...], value: object, field: str) -> None:
    g = regalia.load_game("two-heirs")
    doc = json.loads(json.dumps(started(2).to_json()))
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(PositionError) as info:
        g.state_from_json(doc)
    assert field in str(info.value)


# -- notation --------------------------------------------------------------------------------------------
def test_notation_errors_say_what_was_expected() -> None:
    s = started(1)
    with pytest.raises(NotationError, match="valid: take, build"):
        s.parse_action("fly W1")
    with pytest.raises(NotationError, match="no tile 'ZZ'"):
        s.parse_action("take ZZ")
    with pytest.raises(NotationError, match="expected 'build TILE X,Y'"):
        s.parse_action("build W1")
    with pytest.raises(NotationError, match="not a position"):
        s.parse_action("call a,b")
    with pytest.raises(NotationError, match="empty"):
        s.parse_action("  ")


# -- tile data --------------------------------------------------------------------------------------------
def test_tile_errors_name_the_tile_and_the_field() -> None:
    with pytest.raises(DataError, match="tile Q1: field 'colour'"):
        parse_tile({"id": "Q1", "set": "guard", "colour": "red", "building": "lookout"}, 0)
    with pytest.raises(DataError, match="tile Q2: field 'axis'"):
        parse_tile({"id": "Q2", "set": "guard", "colour": "green", "building": "lookout"}, 0)
    with pytest.raises(DataError, match=r"tile Q3: field 'roads'.*at most 2"):
        parse_tile(
            {
                "id": "Q3",
                "set": "trade-and-church",
                "colour": "grey",
                "building": "cathedral",
                "roads": ["N-E-S"],
            },
            0,
        )
    with pytest.raises(DataError, match="set guard: has 1 tile, a set has 9"):
        parse_catalogue(
            {
                "format": "two-heirs-tiles",
                "version": 1,
                "tiles": [{"id": "G1", "set": "guard", "colour": "green", "building": "guardhouse"}],
            }
        )


# -- grid ---------------------------------------------------------------------------------------------------
def test_grid_geometry() -> None:
    assert list(neighbours4((0, 0))) == [(0, 1), (1, 0), (0, -1), (-1, 0)]
    assert len(set(neighbours8((2, 3)))) == 8 and (3, 4) in neighbours8((2, 3))
    assert step((0, 0), "SW", 2) == (-2, -2)
    assert rotate_dir("NE", 2) == "SW" and rotate_dir("N", -1) == "W"
    assert parse_pos(format_pos((3, -4))) == (3, -4)
    with pytest.raises(ValueError):
        parse_pos("1;2")


def test_squares_are_canonical_and_outside_positions_do_not_grow_the_table() -> None:
    """The engines' squares are one tuple per square (a look-up that meets the same object compares
    no tuples); a position parsed or stepped to is that tuple when the square is known, and a new
    position from outside (a client's) is left out of the table."""
    from regalia.core import grid

    around = neighbours8((40, -41))
    assert all(grid.square((q[0], q[1])) is q for q in around)
    assert neighbours4((40, -41))[0] is around[0] and step((40, -41), "N") is around[0]
    assert parse_pos(format_pos(around[3])) is around[3]
    known = len(grid._SQUARES)
    far = parse_pos("987654321,-987654321")
    assert far == (987654321, -987654321) and len(grid._SQUARES) == known
    assert step(far, "E") == (987654322, -987654321) and len(grid._SQUARES) == known


# -- playout's cut at a turn's end (core.loop.playout, to_turn_end) --------------------------


def _seats_after(state: State[Any], before: int) -> list[int]:
    return [p for p, _ in state.actors()[before:]]


@pytest.mark.parametrize("seed", range(6))
def test_a_cut_playout_stops_right_after_its_last_decision(seed: int) -> None:
    """``decisions=N`` alone: nothing follows the N-th seat decision, not even chance's or
    Henry's plies (The Two Heirs' solo game, "Solo course of the game")."""
    state = regalia.load_game("two-heirs", solo=True).new_state(seed=seed)
    rng = random.Random(seed)
    playout(state, rng, decisions=3)
    seats = _seats_after(state, 0)
    assert seats.count(0) == 3 and seats[-1] == 0


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_cut_at_the_turns_end_plays_out_the_turn_and_henrys_reply(seed: int) -> None:
    """``to_turn_end``: after the N-th decision the player finishes the turn, Henry's turn and
    the chance plies after it are applied, and play stops at the player's next decision."""
    state = regalia.load_game("two-heirs", solo=True).new_state(seed=seed)
    rng = random.Random(seed)
    playout(state, rng, decisions=1)  # into the player's first turn
    before = len(state.actors())
    playout(state, rng, decisions=1, to_turn_end=True)
    seats = _seats_after(state, before)
    assert not state.is_terminal() and state.current_player == 0
    assert 1 in seats, seats  # Henry played his turn
    first_henry = seats.index(1)
    assert set(seats[:first_henry]) <= {0, CHANCE} and 0 in seats[:first_henry]
    assert set(seats[first_henry:]) <= {1, CHANCE}  # nothing of the player's next turn


@pytest.mark.parametrize("seed", range(6))
def test_a_two_seat_playout_cut_at_the_turns_end_stops_before_the_other_seat(seed: int) -> None:
    """Two seats, no automaton: the turn's end is where the other seat is to act."""
    state = regalia.load_game("two-heirs").new_state(seed=seed)
    rng = random.Random(seed)
    playout(state, rng, decisions=1)
    mover = state.actors()[-1][0]
    before = len(state.actors())
    playout(state, rng, decisions=1, to_turn_end=True)
    seats = _seats_after(state, before)
    assert set(seats) <= {mover, CHANCE} and mover in seats
    assert state.is_terminal() or state.current_player == 1 - mover
