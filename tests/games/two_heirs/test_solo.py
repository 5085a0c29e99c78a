"""The solo game against Henry ("Solo rules"): setup, Henry's turn, treasures, scoring, properties.

Rulings pinned here are in docs/rulings.md, section "Solo rules (Henry)".
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.errors import DataError, IllegalAction, OptionError, PositionError
from regalia.core.game import CHANCE, TERMINAL
from regalia.core.grid import Pos, neighbours8
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs import henry
from regalia.games.two_heirs.actions import make
from regalia.games.two_heirs.base import CH_TOP, CH_TREASURE
from regalia.games.two_heirs.henry import HENRY, default_treasures, parse_treasures
from regalia.games.two_heirs.scoring import building_base
from regalia.games.two_heirs.solo import HENRY_BASE, SoloState

from .builders import GREEN, GREY, YELLOW, cell_code, tid

TS = default_treasures()
TILES_JSON = Path(regalia.__file__).parent / "games" / "two_heirs" / "data" / "tiles.json"


def roads(tile_id: str) -> set[str]:
    """The printed road ends of a catalogue tile (the road tests state what they rely on)."""
    t = regalia.load_game("two-heirs").catalogue.by_id[tile_id]
    return {d for sec in t.roads for d in sec}


def tok(token_id: str) -> int:
    return TS.token(token_id).index


#: The treasure tokens a test's pile holds, top last, by state: chance flips them in that order.
_PILES: dict[int, list[int]] = {}


def solo(
    board: Mapping[Pos, str],
    *,
    last: Pos | None,
    reserve: Sequence[str | None] = (None, "D2", "W3", "V1", "D6", "T1", "T5"),
    shield: int = 0,
    supply: Sequence[str] = ("T2", "T6", "T3"),
    units: Sequence[Pos | None] = ((0, 0), None, None, None, None, None),
    pile: Sequence[str] | None = None,
    treasures: Sequence[tuple[Pos, str]] = (),
    level: int = 3,
    tiles: str | None = None,
    roads: bool = True,
) -> SoloState:
    """A solo position at the end of the player's turn (the player has taken a tile).

    ``board`` cells are written like builders.position's ("D4" face down, "D4@0" the player's,
    "D4@1" Henry's); ``units`` are the player's 3 then Henry's 3 (elite first); ``pile`` lists
    token ids, top last (:func:`henry_turn` flips them in that order); ``supply``'s last tile is
    the top of the supply (its colour shows; refills draw it first).
    """
    game = regalia.load_game("two-heirs", solo=True, level=level, tiles=tiles, roads=roads)
    s = game.initial_state()
    assert isinstance(s, SoloState)
    s.board = {pos: cell_code(spec) for pos, spec in board.items()}
    s.last_built = [last, None]
    s.reserve = [-1 if t is None else tid(t) for t in reserve]
    s.shield = shield
    s.supply = [tid(t) for t in supply]
    s.top = s.tiles[s.supply[-1]].colour if s.supply else -1
    s.chance = 0
    s.refill = -1
    s.first = s.player = 0
    s.units = list(units)
    s.henry_off = sum(1 << k for k in range(3) if units[HENRY_BASE + k] is None)
    s.hands = [[], []]
    s.treasures = tuple((pos, tok(t)) for pos, t in treasures)
    if pile is not None:
        s.pile_left = len(pile)
        _PILES[id(s)] = [tok(t) for t in pile]
    s.took = True
    s.shield_mine = False

    s.recount()
    s._reindex_units()
    s._legal = None
    s._score_cache = None
    return s


def chance_in_order(s: SoloState) -> None:
    """Chance's outcomes as the test's supply and pile list them (their last items first)."""
    pile = _PILES.get(id(s), [])
    while s.current_player == CHANCE:
        if s.chance == CH_TOP:
            s.apply(make(act.TOP, s.tiles[s.supply[-1]].colour))
        elif s.chance == CH_TREASURE:
            token = pile.pop() if pile else s.unseen_tokens()[0]
            s.apply(make(act.TREASURE, token))
        else:
            s.apply(make(act.DRAW, s.supply[-1]))


def run_henry(s: SoloState) -> None:
    """Henry's steps (and chance's outcomes in them) until the player is to act or the game ends."""
    while not s.is_terminal():
        chance_in_order(s)
        if s.is_terminal() or s.current_player != HENRY:
            return
        s.apply(s.forced_action())


def henry_turn(s: SoloState) -> list[dict[str, Any]]:
    """End the player's turn, play Henry's whole turn and return its steps."""
    s.apply_text("end")
    run_henry(s)
    assert s.current_player in (0, TERMINAL)
    return s.last_henry_turn()


def step(events: list[dict[str, Any]], name: str) -> dict[str, Any]:
    found = [e for e in events if e["step"] == name]
    assert len(found) == 1, events
    return found[0]


@pytest.fixture
def four_road_pilgrimage(tmp_path: Path) -> str:
    """A catalogue in which the pilgrimage site W6 has a road end on each of its four sides."""
    doc = json.loads(TILES_JSON.read_text())
    for t in doc["tiles"]:
        if t["id"] == "W6":
            t["roads"] = ["N", "E", "S", "W"]
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc))
    return str(path)


# -- setup ---------------------------------------------------------------------------------------


def started(seed: int, **options: Any) -> SoloState:
    """A new solo game with setup's chance outcomes drawn from ``seed``."""
    s = regalia.load_game("two-heirs", solo=True, **options).new_state(seed=seed)
    s.advance()
    assert isinstance(s, SoloState)
    return s


@pytest.mark.parametrize(("level", "removed"), [(1, 4), (2, 2), (3, 0)])
def test_level_setup_removes_4_2_or_0_treasure_tokens_unseen(level: int, removed: int) -> None:
    """Solo setup: Level 1 removes 4 tokens, level 2 removes 2, level 3 none, without looking.

    Which tokens were removed is never seen, so it is not decided: the pile holds 10 - removed
    tokens, and each flip draws one of the tokens nobody has seen."""
    s = started(11, level=level)
    assert s.pile_left == 10 - removed
    obs = s.observation(0)["solo"]
    assert obs["pile_size"] == 10 - removed and obs["removed_unseen"] == removed
    assert "pile" not in obs and "unseen_removed" not in obs
    assert s.unseen_tokens() == list(range(10))


def test_solo_setup_player_starts_and_henrys_units_wait_off_the_board() -> None:
    """Solo setup / course: you always start (no coin flip); Henry's units are outside the royal
    reserve."""
    for seed in range(20):
        s = regalia.load_game("two-heirs", solo=True).new_state(seed=seed)
        assert s.chance_outcomes()[0][0].kind == "draw"  # no "first": the shield is not flipped
        s.advance()
        assert s.first == 0 and s.current_player == 0
        assert s.units[:3] == [(0, 0), None, None]
        assert s.henry_units() == [None, None, None]
        assert s.henry_off == 0b111
        assert s.units_in_reserve(0) == 2 and s.units_in_reserve(1) == 0
        assert s.reach(0) == 3
        assert [u["off_board"] for u in s.observation(0)["solo"]["henry_units"]] == [True] * 3


def test_options_level_and_treasures_are_validated() -> None:
    with pytest.raises(OptionError, match="level"):
        regalia.load_game("two-heirs", solo=True, level=4)
    with pytest.raises(OptionError, match="treasures"):
        regalia.load_game("two-heirs", treasures="x.json")
    with pytest.raises(OptionError, match="only used by the solo game"):
        regalia.load_game("two-heirs", level=2)
    with pytest.raises(DataError, match="cannot read treasure file"):
        regalia.load_game("two-heirs", solo=True, treasures="/nonexistent/treasures.json")


# -- henry's turn after the end of the player's turn ---------------------------------------------


def test_henrys_turn_follows_the_end_of_the_players_turn_step_by_step() -> None:
    """Solo course of the game: after your turn, Henry's turn. Henry is an automaton seat: each of
    his steps is the one legal action of his seat, and chance refills and flips his treasure."""
    s = started(5)
    take = next(a for a in s.legal_actions() if a.kind == "take")
    s.apply(take)
    s.advance()
    s.apply_text("end")
    assert s.current_player == HENRY and s.automaton_seats() == (HENRY,) and s.henry_turns == 1
    assert len(s.legal_actions()) == 1 and s.forced_action().kind == "take"
    with pytest.raises(IllegalAction, match="it is Henry's turn") as info:
        s.apply_text("end")
    assert info.value.rule == "Solo course of the game"
    before = s.ply
    steps = [s.action_text(a) for a in s.advance()]
    assert [t.split()[0] for t in steps] == ["take", "draw", "top", "build", "treasure"]
    assert s.current_player == 0 and s.shield_mine and not s.took
    henry_buildings = [p for p, c in s.board.items() if c & 3 == 2]
    assert len(henry_buildings) == 1
    assert [e["step"] for e in s.last_henry_turn()] == ["take", "place", "treasure", "unit"]
    assert s.record().actions[before:] == tuple(steps)  # Henry's steps are in the record
    assert s.observation(0)["solo"]["last_henry_turn"] == s.last_henry_turn()


# -- 1. taking a building tile -------------------------------------------------------------------


def test_henry_takes_the_first_tile_of_the_supply_top_colour_rule_a() -> None:
    """1a: the first tile clockwise from the shield of the colour of the supply's top tile."""
    s = solo({(0, 0): GREY}, last=None, supply=("T2", "T3"))  # top: T3, green
    take = step(henry_turn(s), "take")
    assert (take["tile"], take["rule"], take["reserve_pos"], take["rank"]) == ("V1", "a", 3, 3)
    assert take["supply_top"] == "green"
    # the shield moved to the vacated position, flipped, and its old position was refilled
    assert s.shield == 3 and s.reserve[3] == -1 and s.reserve[0] == tid("T3")


def test_henry_takes_the_first_tile_clockwise_when_no_tile_has_that_colour_rule_b() -> None:
    """1b: no tile of the supply's top colour in the reserve: the first tile clockwise."""
    reserve = (None, "D2", "W3", "D5", "W2", "T1", "T5")  # no green tile
    s = solo({(0, 0): GREY}, last=None, reserve=reserve, supply=("T2", "T3"))
    take = step(henry_turn(s), "take")
    assert (take["tile"], take["rule"], take["reserve_pos"]) == ("D2", "b", 1)


def test_henry_has_unlimited_reach_and_counts_clockwise_from_the_shield() -> None:
    """1: unlimited reach: the 6th tile clockwise is taken if it is the first of the colour."""
    reserve = ("W3", "D2", "D5", "W2", "T1", None, "T5")  # shield at 5; clockwise: 6, 0, 1, 2, 3, 4
    s = solo({(0, 0): GREY}, last=None, reserve=reserve, shield=5, supply=("T2", "W1"))  # green top
    take = step(henry_turn(s), "take")
    assert take["rule"] == "b" and take["tile"] == "T5"  # no green at all: first clockwise
    reserve = ("W3", "D2", "D5", "W2", "V1", None, "T5")
    s = solo({(0, 0): GREY}, last=None, reserve=reserve, shield=5, supply=("T2", "W1"))
    take = step(henry_turn(s), "take")
    assert (take["rule"], take["tile"], take["rank"]) == ("a", "V1", 6)


def test_henry_takes_the_first_tile_clockwise_once_the_supply_is_empty() -> None:
    """1b: "or the shared supply is already empty"."""
    s = solo({(0, 0): GREY}, last=None, supply=())
    s.final, s.finals_left = True, 2
    take = step(henry_turn(s), "take")
    assert (take["tile"], take["rule"], take["supply_top"]) == ("D2", "b", None)
    assert s.reserve[0] == -1  # no refill in the final turns


def test_henry_cannot_take_any_tile_and_does_nothing() -> None:
    """Ruling R-henry-no-tile: an empty royal reserve (final turns): Henry's turn passes."""
    s = solo({(0, 0): GREY}, last=None, reserve=(None,) * 7, supply=())
    s.final, s.finals_left = True, 2
    board = dict(s.board)
    events = henry_turn(s)
    assert [e["step"] for e in events] == ["no-tile"]
    assert s.board == board and s.pile_left == 10
    assert s.henry_off == 0b111


# -- 2. placing the tile: the rulebook example and rules A to D ----------------------------------


def test_rulebook_example_siege_tower_next_to_the_pilgrimage_site_ends_at_c6(
    four_road_pilgrimage: str,
) -> None:
    """Solo rules, "Example: Placing Henry's building".

    The top of the supply is green, so Henry takes a siege tower. The player's last building is
    the pilgrimage site: A1/A2 (its roads continued by the tower) and B1/B2 (its roads blocked)
    are occupied, so rule C scans C1..C8 clockwise from the top edge; the first free is C6.
    """
    assert roads("V1") == {"N", "S"}
    x, y = 5, 0
    board = {
        (0, 0): GREY,
        (x, y): "W6@0",  # the pilgrimage site, roads to all four sides in this catalogue
        (x, y + 1): GREEN,  # C1 = A1 (the tower's N-S road would continue the N road)
        (x + 1, y + 1): GREY,  # C2
        (x + 1, y): YELLOW,  # C3 = B1 (the tower has no road towards the E road: blocks)
        (x + 1, y - 1): GREY,  # C4
        (x, y - 1): GREEN,  # C5 = A2
        # C6 (x - 1, y - 1) is free
        (x - 1, y): GREY,  # C7 = B2
        # C8 (x - 1, y + 1) is free too, but comes after C6
    }
    s = solo(board, last=(x, y), supply=("T2", "T3"), tiles=four_road_pilgrimage)  # top: green
    plan = s.plan_henry()
    assert plan.take is not None and s.tiles[plan.take.tile].building == "siege-tower"
    assert plan.placement == henry.Placement((x - 1, y - 1), "C", 6, "SW")
    events = henry_turn(s)
    place = step(events, "place")
    assert (place["tile"], place["rule"], place["slot"], place["pos"]) == ("V1", "C", "C6", "4,-1")
    assert s.board[(x - 1, y - 1)] == cell_code("V1@1")  # upside down for the player: Henry's
    # with C1 free instead, the siege tower continues the pilgrimage site's north road (A1)
    del board[(x, y + 1)]
    s = solo(board, last=(x, y), supply=("T2", "T3"), tiles=four_road_pilgrimage)
    assert s.plan_henry().placement == henry.Placement((x, y + 1), "A", 1, "N")
    # with A1 and A2 taken but B1 free, the tower blocks the east road (B1 = C3)
    board[(x, y + 1)] = GREEN
    del board[(x + 1, y)]
    s = solo(board, last=(x, y), supply=("T2", "T3"), tiles=four_road_pilgrimage)
    assert s.plan_henry().placement == henry.Placement((x + 1, y), "B", 3, "E")


def test_rule_a_connects_a_road_of_the_last_building_with_henrys_tile_turned_around() -> None:
    """2A / ruling R-henry-connect: Henry's tile needs a road on the side facing the road end.

    The camp D7 prints one road end at its S side; turned to face away from the player it shows
    at the N side, so it continues the pilgrimage site's S road (C5) and not its N road (C1),
    although C1 comes first in the scan.
    """
    assert roads("W6") == {"N", "S"} and roads("D7") == {"S"}
    board = {(0, 0): GREY, (3, 0): "W6@0"}  # pilgrimage site W6: road ends N and S
    s = solo(board, last=(3, 0), reserve=(None, "D7", "W3", "V1", "D6", "T1", "T5"), supply=("T2", "T3"))
    events = henry_turn(s)
    place = step(events, "place")
    assert (place["tile"], place["rule"], place["slot"], place["pos"]) == ("D7", "A", "C5", "3,-1")


def test_rule_b_blocks_a_road_when_no_placement_connects() -> None:
    """2B / ruling R-henry-block: a tile without a facing road on a road end blocks it."""
    assert roads("W6") == {"N", "S"} and roads("V3") == {"E", "W"} and roads("V2") == set()
    board = {(0, 0): GREY, (3, 0): "W6@0"}  # road ends N and S
    # V3 (siege tower) has an E-W road: it can continue neither the N nor the S road
    s = solo(board, last=(3, 0), reserve=(None, "V3", "W3", "V1", "D6", "T1", "T5"), supply=("T2", "T6"))
    place = step(henry_turn(s), "place")
    assert (place["tile"], place["rule"], place["slot"], place["pos"]) == ("V3", "B", "C1", "3,1")
    # a tile without roads blocks too; with the N end taken, the S end (C5) is blocked
    board[(3, 1)] = GREEN
    s = solo(board, last=(3, 0), reserve=(None, "V2", "W3", "V1", "D6", "T1", "T5"), supply=("T2", "T3"))
    place = step(henry_turn(s), "place")
    assert (place["rule"], place["slot"]) == ("B", "C5")


def test_rule_c_first_free_position_clockwise_from_the_top_edge() -> None:
    """2C / ruling R-henry-scan: C1 = above, then clockwise in the player's frame."""
    assert roads("D2") == set()
    board = {(0, 0): GREY, (3, 0): "D2@0", (3, 1): GREEN, (4, 1): GREY}  # stonemason: no roads
    s = solo(board, last=(3, 0), supply=("T2", "T6"))
    place = step(henry_turn(s), "place")
    assert (place["rule"], place["slot"], place["pos"], place["direction"]) == ("C", "C3", "4,0", "E")
    order = [henry.choose_placement({}, s.tiles, tid("V2"), (0, 0)).pos]
    board2 = {(0, 0): 0}
    for _ in range(7):
        board2[order[-1]] = 0
        order.append(henry.choose_placement(board2, s.tiles, tid("V2"), (0, 0)).pos)
    assert order == [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


def test_rule_d_the_tile_leaves_the_game_when_all_eight_positions_are_taken() -> None:
    """2D: no permitted position: the tile is removed from the game, nothing else happens."""
    board = {(0, 0): GREY, (3, 0): "D2@0"}
    board.update({q: GREY for q in neighbours8((3, 0))})
    s = solo(board, last=(3, 0), supply=("T2", "T6"), pile=["H1", "H2"])
    events = henry_turn(s)
    assert [e["step"] for e in events] == ["take", "discard"]
    assert step(events, "discard")["rule"] == "D"
    assert s.box == [tid("D2")] and s.pile_left == 2
    assert s.henry_off == 0b111


def test_henry_places_next_to_the_starting_tile_before_the_player_has_built() -> None:
    """Note: "If you have not yet built any building, Henry ... touch the starting tile"."""
    s = solo({(0, 0): GREY}, last=None, supply=("T2", "T6"))
    place = step(henry_turn(s), "place")
    assert (place["rule"], place["pos"], place["next_to"]) == ("C", "0,1", "0,0")


def test_henry_pays_nothing_and_his_building_faces_away_from_the_player() -> None:
    """2a and Note: Henry ignores the construction cost; his buildings are upside down for you."""
    s = solo({(0, 0): GREY}, last=None, reserve=(None, "T9", "W3", "V1", "D6", "T1", "T5"), supply=("T6",))
    place = step(henry_turn(s), "place")
    assert place["tile"] == "T9"  # the cathedral, whatever the resources
    assert s.board[(0, 1)] == cell_code("T9@1")


# -- 3. treasures ----------------------------------------------------------------------------------


def test_a_treasure_goes_on_henrys_new_building_while_the_pile_lasts() -> None:
    """3: place a treasure token on Henry's newly built building, if there are any left."""
    s = solo({(0, 0): GREY}, last=None, supply=("T2", "T6"), pile=["H2", "H9"])
    events = henry_turn(s)
    treasure = step(events, "treasure")
    assert (treasure["token"], treasure["pos"]) == ("H9", "0,1")
    assert s.treasures == (((0, 1), tok("H9")),) and s.pile_left == 1
    s2 = solo({(0, 0): GREY}, last=None, supply=("T2", "T6"), pile=[])
    assert "treasure" not in [e["step"] for e in henry_turn(s2)]


@pytest.mark.parametrize(
    ("token", "cells", "met"),
    [
        # vertical green (H1): two green tiles elsewhere in the column of the treasure
        ("H1", {(0, 3): GREEN, (0, -5): GREEN}, True),
        ("H1", {(0, 3): GREEN, (0, -5): GREY}, False),
        ("H1", {(0, 3): GREEN, (1, -5): GREEN}, False),  # not in the same column
        # horizontal yellow (H6): the row
        ("H6", {(-4, 0): YELLOW, (2, 0): "D4@0"}, True),  # the player's yellow bakery counts too
        ("H6", {(-4, 0): YELLOW, (2, 1): YELLOW}, False),
        # positional N + E (H7), brown: any colours
        ("H7", {(0, 1): GREEN, (1, 0): YELLOW}, True),
        ("H7", {(0, 1): GREEN, (0, -1): YELLOW}, False),
        ("H7", {(0, 1): GREEN}, False),
        # positional NW + NE (H9)
        ("H9", {(-1, 1): GREY, (1, 1): "V2@1"}, True),
        ("H9", {(-1, -1): GREY, (1, -1): GREY}, False),
    ],
)
def test_treasure_conditions_met_and_not_met(token: str, cells: dict[Pos, str], met: bool) -> None:
    """Treasures: vertical, horizontal and positional conditions (the treasure's tile excluded)."""
    board = {(0, 0): cell_code("V1@1")}  # the treasure's own tile is green: it never counts
    board.update({p: cell_code(c) for p, c in cells.items()})
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    assert henry.condition_met(TS.token(token), (0, 0), board, tiles) is met


def test_the_treasures_own_tile_does_not_count() -> None:
    """Vertical: "The tile with the treasure does not count"."""
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    board = {(0, 0): cell_code("V1@1"), (0, 2): cell_code(GREEN)}
    assert not henry.condition_met(TS.token("H1"), (0, 0), board, tiles)


def test_positional_condition_is_read_in_the_players_frame() -> None:
    """Ruling R-henry-positional-frame: the token is turned towards the player, whoever's tile."""
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    # H7 wants tiles above (N) and to the right (E) as the player sees it, not as Henry does
    board = {(0, 0): cell_code("V1@1"), (0, 1): cell_code(GREY), (1, 0): cell_code(GREY)}
    assert henry.condition_met(TS.token("H7"), (0, 0), board, tiles)
    board = {(0, 0): cell_code("V1@1"), (0, -1): cell_code(GREY), (-1, 0): cell_code(GREY)}
    assert not henry.condition_met(TS.token("H7"), (0, 0), board, tiles)


def test_brown_means_any_colour_in_a_row_or_column_condition() -> None:
    """Note: "If a condition shows brown tiles, they can be tiles of any kinds/colours"."""
    token = henry.parse_token({"id": "X", "condition": "vertical", "colour": "brown"}, 0, "test")
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    board = {(0, 0): cell_code("V1@1"), (0, 1): cell_code(GREY), (0, 7): cell_code(YELLOW)}
    assert henry.condition_met(token, (0, 0), board, tiles)


@pytest.mark.parametrize(
    ("token", "cells", "progress"),
    [
        ("H1", {}, 0.0),  # vertical green: no green tile in the column yet
        ("H1", {(0, 3): GREEN, (1, 2): GREEN}, 0.5),  # one in the column, one beside it
        ("H1", {(0, 3): GREEN, (0, -5): GREEN}, 1.0),  # met
        ("H7", {(0, 1): GREY}, 0.5),  # positional N + E: one of the two positions filled
        ("H7", {(0, 1): GREY, (1, 0): GREEN}, 1.0),
    ],
)
def test_condition_progress_is_the_share_of_the_two_tiles_there(
    token: str, cells: dict[Pos, str], progress: float
) -> None:
    """Treasures: a condition asks for 2 tiles; the search's measure of it counts those there,
    and reads 1 exactly when the condition is met."""
    board = {(0, 0): cell_code("V1@1")}
    board.update({p: cell_code(c) for p, c in cells.items()})
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    assert henry.condition_progress(TS.token(token), (0, 0), board, tiles) == progress
    assert henry.condition_met(TS.token(token), (0, 0), board, tiles) is (progress == 1.0)


def test_a_positional_condition_with_a_wrong_colour_neighbour_can_never_be_met() -> None:
    """Treasures, positional: a tile never leaves the board, so a marked position holding a tile
    of another colour than the token's rules the condition out for good (progress 0)."""
    token = henry.parse_token(
        {"id": "X", "condition": "positional", "colour": "grey", "positions": ["N", "E"]}, 0, "test"
    )
    tiles = regalia.load_game("two-heirs").catalogue.tiles
    board = {(0, 0): cell_code("V1@1"), (0, 1): cell_code(GREY)}
    assert henry.condition_progress(token, (0, 0), board, tiles) == 0.5
    board[(1, 0)] = cell_code(GREEN)
    assert henry.condition_progress(token, (0, 0), board, tiles) == 0.0
    assert not henry.condition_met(token, (0, 0), board, tiles)


def test_the_treasures_heuristic_values_a_treasure_half_met_above_one_not_begun() -> None:
    """Solo scoring counts 5 points per treasure left; the search heuristic ``treasures`` counts a
    treasure whose condition is half met at 5 * (1 - TREASURE_HOPE / 2) for Henry, the scores
    unchanged; the game's default heuristic stays the score lead."""
    from regalia.games.two_heirs.solo import TREASURE_HOPE

    # H1 (vertical green) on Henry's tile at (0, 1); a green free terrain in its column or not
    near = solo({(0, 0): GREY, (0, 1): "T2@1", (0, 3): GREEN}, last=None, treasures=[((0, 1), "H1")], pile=[])
    far = solo({(0, 0): GREY, (0, 1): "T2@1", (1, 3): GREEN}, last=None, treasures=[((0, 1), "H1")], pile=[])
    assert near.scores() == far.scores()
    lead = near.scores()[0] - near.scores()[1]
    assert far.evaluate_treasures(0) == lead
    assert near.evaluate_treasures(0) == lead + henry.TREASURE_POINTS * TREASURE_HOPE * 0.5
    assert near.evaluate_treasures(1) == -near.evaluate_treasures(0)
    assert near.evaluate(0) == far.evaluate(0) == lead
    assert near.game.heuristics()["treasures"] == "evaluate_treasures"
    assert "treasures" not in regalia.load_game("two-heirs").heuristics()  # the solo game's only


def test_the_ahead_heuristic_counts_henrys_next_treasure_where_he_would_build_now() -> None:
    """Solo course of the game, 2 and 3: Henry builds next to the player's last building and a
    treasure goes on it; "If these conditions are already met at the moment you place the token,
    remove it from the game immediately". The heuristic ``ahead`` adds to ``treasures`` 5 points
    times the mean, over the unseen tokens, of 1 for a condition met where Henry would build now
    and TREASURE_HOPE * progress for one begun."""
    # last=None: Henry builds next to the face-down starting tile, which has no road: rule C,
    # its first free position clockwise from the top edge, C1 = (0, 1)
    sparse = solo({(0, 0): GREY}, last=None)
    ring = {p: GREEN for p in [(0, 2), (1, 2), (-1, 2), (1, 1), (-1, 1), (1, 0), (-1, 0)]}
    dense = solo({(0, 0): GREY, **ring}, last=None)
    for s in (sparse, dense):
        plan = s.plan_henry()
        assert plan.placement is not None and plan.placement.pos == (0, 1)
        assert len(s.unseen_tokens()) == 10 and s.pile_left == 10
    # sparse: H2 (grey, column) and H8 (S and W) are half met: 2 * 0.5 * 0.5 = 0.5 of 10 tokens
    assert sparse.evaluate_treasures_ahead(0) == pytest.approx(sparse.evaluate_treasures(0) + 5 * 0.05)
    # dense: H7 to H10 (every neighbour filled) and H4 (2 green in its row) met at once: 5 tokens;
    # H1 (one green in its column) and H2 (one grey) half: 5 + 2 * 0.25 = 5.5 of 10 tokens
    assert dense.evaluate_treasures_ahead(0) == pytest.approx(dense.evaluate_treasures(0) + 5 * 0.55)
    assert dense.evaluate_treasures_ahead(1) == -dense.evaluate_treasures_ahead(0)
    # no token left in the pile: no next treasure
    empty = solo({(0, 0): GREY, **ring}, last=None, pile=[])
    assert empty.evaluate_treasures_ahead(0) == empty.evaluate_treasures(0)
    assert dense.game.heuristics()["ahead"] == "evaluate_treasures_ahead"


@pytest.mark.parametrize("heuristic", ["treasures", "ahead"])
def test_a_search_on_a_solo_heuristic_plays_a_legal_step(heuristic: str) -> None:
    """The solo heuristics are searchable by name (``mcts:...:heuristic=NAME``): a cut rollout
    is valued by them, and the search picks one of the player's legal steps."""
    from regalia.ai.mcts import MCTSAgent

    s = _random_solo_game(3, upto=12)
    assert s.current_player == 0
    agent = MCTSAgent(iterations=60, heuristic=heuristic, c=0.3)
    assert agent.choose(s, random.Random(1)) in s.legal_actions()
    assert agent.last_iterations == 60


def test_a_treasure_whose_condition_already_holds_is_removed_at_once() -> None:
    """Treasures: "If these conditions are already met at the moment you place the token..."."""
    board = {(0, 0): GREY, (0, 2): GREEN, (0, 3): GREEN}  # green tiles in column 0
    s = solo(board, last=None, supply=("T2", "T6"), pile=["H2", "H1"])  # H1: vertical green
    events = henry_turn(s)
    removed = step(events, "treasure-removed")
    assert (removed["token"], removed["pos"], removed["by"]) == ("H1", "0,1", "henry")
    assert s.treasures == () and s.taken == (tok("H1"),)
    assert s.pile_left == 1


def test_henrys_new_tile_can_fulfil_an_older_treasure() -> None:
    """Ruling R-henry-treasure-timing: every placement is checked, Henry's own included."""
    s3 = solo(
        {(0, 0): GREY, (5, 5): "D2@1", (6, 5): GREY, (7, 4): "D6@0", (7, 5): GREEN},
        last=(7, 4),
        reserve=(None, "D5", "W3", "V1", "D6", "T1", "T5"),
        supply=("T2", "T6"),  # top: grey -> Henry takes the grey smithy D5
        pile=["H3"],
        treasures=[((5, 5), "H5")],
    )
    events = henry_turn(s3)
    assert step(events, "place")["pos"] == "8,5"  # C1 taken (green), C2 = 8,5
    gone = [e for e in events if e["step"] == "treasure-removed"]
    assert [(e["token"], e["by"]) for e in gone] == [("H5", "henry")]


def test_the_players_tiles_remove_treasures_whose_condition_becomes_true() -> None:
    """Treasures: you remove a treasure as soon as you meet its condition (terrain counts too)."""
    board = {(0, 0): GREY, (3, 3): "V2@1", (3, 5): GREEN}
    s = solo(board, last=None, pile=["H2"], treasures=[((3, 3), "H1")])  # vertical green
    s.took, s.shield_mine = False, True
    s.units[0] = (3, 5)
    s._reindex_units()
    s.hands[0] = [tid("T4")]  # a green sawmill, played face down as free terrain
    s._legal = None
    s.apply_text("terrain T4 3,6")
    assert s.treasures == () and s.taken == (tok("H1"),)
    removed = s.events()[-1]
    assert (removed["step"], removed["by"], removed["actor"], removed["token"]) == (
        "treasure-removed",
        "player",
        "player",
        "H1",
    )


# -- 4. Henry's units ------------------------------------------------------------------------------


def test_the_unit_with_the_cross_of_the_new_buildings_colour_moves_onto_it() -> None:
    """4: "Always use the unit that has a cross of the same colour as the terrain"."""
    s = solo({(0, 0): GREY}, last=None, supply=("T2", "T3"))  # Henry takes V1, green
    unit = step(henry_turn(s), "unit")
    k = TS.unit_for(0)
    assert (unit["cross"], unit["unit"], unit["src"], unit["dst"]) == (
        "green",
        henry.UNIT_NAMES[k],
        None,
        "0,1",
    )
    assert s.units[HENRY_BASE + k] == (0, 1) and not s.henry_off >> k & 1
    assert s.unit_at[(0, 1)] == HENRY_BASE + k
    # the next green building takes the same unit away from its first building
    s = solo({(0, 0): GREY, (0, 1): "V2@1"}, last=None, units=((0, 0), None, None, (0, 1), None, None))
    unit = step(henry_turn(s), "unit")
    assert (unit["unit"], unit["src"], unit["dst"]) == ("elite", "0,1", "1,1")
    assert (0, 1) not in s.unit_at and s.unit_at[(1, 1)] == HENRY_BASE


def test_the_players_units_cannot_enter_a_tile_with_henrys_unit() -> None:
    """Ruling R-henry-units: Henry's units occupy tiles like an opponent's ("Action C")."""
    board = {(0, 0): GREY, (0, 1): "V1@1", (1, 0): GREY}
    s = solo(board, last=None, units=((0, 0), None, None, (0, 1), None, None))
    s.took, s.shield_mine = False, True
    s._legal = None
    texts = [s.action_text(a) for a in s.legal_actions()]
    assert "step 0,0 1,0" in texts and "step 0,0 0,1" not in texts
    assert "call 0,1" not in texts


def test_henrys_units_never_count_as_in_the_royal_reserve() -> None:
    """Solo setup: Henry's units are outside the reserve; they give no reach and no tie-break."""
    s = solo({(0, 0): GREY}, last=None)
    assert s.units_in_reserve(1) == 0


# -- scoring ---------------------------------------------------------------------------------------


def test_henry_scores_his_three_best_buildings_double_plus_5_per_treasure() -> None:
    """Solo scoring: top three doubled, Henry's units never double, 5 per treasure left."""
    board = {
        (0, 0): GREY,
        (10, 0): "T9@1",  # cathedral 5
        (20, 0): "D9@1",  # unused camp 2
        (30, 0): "W8@1",  # bandit stronghold 2
        (40, 0): "D5@1",  # smithy 1 + 0 own grey buildings ... counts T9, W8 (grey) -> 3
        (50, 0): "T2@1",  # farm 0
        (60, 0): "D4@0",  # the player's bakery 1
    }
    s = solo(board, last=None, units=((60, 0), None, None, (50, 0), (20, 0), None), pile=["H1"])
    s.treasures = (((10, 0), tok("H2")), ((20, 0), tok("H3")))
    s.pile_left = 1
    tiles = s.tiles
    bases = {p: building_base(p, s.board, tiles)[0] for p in board if s.board[p] & 3 == 2}
    assert bases == {(10, 0): 5, (20, 0): 2, (30, 0): 2, (40, 0): 3, (50, 0): 0}
    sheet = s.score_sheet()
    doubled = {b.pos for b in sheet.buildings if b.owner == 1 and b.doubled}
    assert doubled == {(10, 0), (40, 0), (20, 0)}  # 5, 3 and the first of the two 2s by position
    assert sheet.building_points(1) == 10 + 6 + 4 + 2 + 0
    assert sheet.extra == ((1, "3 treasures x 5", 15),)
    assert s.scores() == [2, 22 + 15]  # the player's bakery is doubled by the player's unit


def test_the_player_wins_only_with_strictly_more_points() -> None:
    """Solo scoring: "If you scored fewer or equal points, you lose"."""
    board = {(0, 0): GREY, (3, 0): "T9@0", (9, 0): "T9@1"}
    units = ((0, 0), (3, 0), None, None, None, None)
    s = solo(board, last=None, units=units, pile=[])
    s.terminal = True
    assert s.scores() == [10, 10]  # the player's unit doubles; Henry's best three are doubled
    assert s.returns() == [-1.0, 1.0] and s.winner() == 1
    board[(20, 0)] = "D2@0"  # one more point for the player
    s = solo(board, last=None, units=units, pile=[])
    s.terminal = True
    assert s.scores() == [11, 10]
    assert s.returns() == [1.0, -1.0] and s.winner() == 0


# -- end of the game -------------------------------------------------------------------------------


def test_henry_taking_the_last_supply_tile_triggers_the_end() -> None:
    """Ruling R-henry-end: Henry finishes his turn, then you and Henry play one final turn each."""
    s = solo({(0, 0): GREY}, last=None, supply=("T6",))
    henry_turn(s)  # Henry takes, the refill takes the last tile: the end is triggered
    assert s.final and s.finals_left == 2 and not s.supply and s.current_player == 0
    turns = s.henry_turns
    s.apply(next(a for a in s.legal_actions() if a.kind == "take"))
    assert s.current_player == 0  # no refill in the final turns
    henry_turn(s)  # the player's final turn, then Henry's final turn: the game ends
    assert s.is_terminal() and s.henry_turns == turns + 1


def test_the_player_taking_the_last_supply_tile_gives_henry_and_the_player_one_final_turn() -> None:
    """Final turn and end of the game, solo: the player triggers; Henry, then the player, play."""
    s = solo({(0, 0): GREY}, last=None, supply=("T6",))
    s.took, s.shield_mine = False, True
    s.apply(next(a for a in s.legal_actions() if a.kind == "take"))
    chance_in_order(s)
    assert s.trigger and not s.supply
    henry_turn(s)  # Henry's final turn follows
    assert s.final and s.finals_left == 1 and s.henry_turns == 1 and s.current_player == 0
    s.apply(next(a for a in s.legal_actions() if a.kind == "take"))
    s.apply_text("end")
    assert s.is_terminal() and s.henry_turns == 1


# -- state contract --------------------------------------------------------------------------------


def _random_solo_game(seed: int, level: int = 3, upto: int | None = None) -> SoloState:
    """Random play (chance with its probabilities, Henry by his rules) for ``upto`` player actions,
    stopping at a player's decision (or the end)."""
    s = regalia.load_game("two-heirs", solo=True, level=level).new_state(seed=seed)
    assert isinstance(s, SoloState)
    rng = random.Random(seed)
    s.advance(rng)
    n = 0
    while not s.is_terminal() and (upto is None or n < upto):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        s.advance(rng)
        n += 1
        assert n < 2000
    return s


def test_to_json_round_trips_and_clone_is_independent() -> None:
    s = _random_solo_game(8, level=2, upto=60)
    doc = json.loads(json.dumps(s.to_json()))
    back = s.game.state_from_json(doc)
    assert isinstance(back, SoloState)
    assert back.to_json() == s.to_json()
    assert back.events() == s.events()
    before = s.to_json()
    _play_out(s.clone())
    assert s.to_json() == before


def test_a_state_document_with_bad_solo_fields_is_refused_naming_the_field() -> None:
    s = _random_solo_game(8, upto=30)
    doc = s.to_json()
    doc["solo"]["removed"] = ["H99"]
    with pytest.raises(PositionError, match=r"solo\.removed\[0\]"):
        s.game.state_from_json(doc)
    doc = s.to_json()
    doc["solo"]["pile_size"] = 11
    with pytest.raises(PositionError, match=r"solo\.pile_size"):
        s.game.state_from_json(doc)
    doc = s.to_json()
    del doc["solo"]
    with pytest.raises(PositionError, match="'solo'"):
        s.game.state_from_json(doc)


def test_a_state_document_cut_before_henrys_token_is_flipped_goes_on_the_same() -> None:
    """3: the token goes on the building Henry placed this turn, also in a state read from a
    document saved while the token was still to be flipped (the position comes from its events);
    a document whose events hold no building of Henry's there is refused naming the field."""
    s = solo({(0, 0): GREY}, last=None, supply=("T2", "T6"), pile=["H2", "H9"])
    s.apply_text("end")
    while s.chance != CH_TREASURE:
        if s.current_player == CHANCE:
            top = s.chance == CH_TOP
            s.apply(make(act.TOP, s.tiles[s.supply[-1]].colour) if top else make(act.DRAW, s.supply[-1]))
        else:
            s.apply(s.forced_action())
    doc = json.loads(json.dumps(s.to_json()))
    back = s.game.state_from_json(doc)
    for state in (s, back):
        state.apply(make(act.TREASURE, tok("H9")))
    assert back.treasures == s.treasures == (((0, 1), tok("H9")),)
    assert back.to_json() == s.to_json()
    place = next(e for e in doc["solo"]["events"] if e["step"] == "place")
    place["pos"] = "0,0"  # the starting landscape: not Henry's
    with pytest.raises(PositionError, match=r"solo\.events\[\d+\]\.pos'.*no building of Henry's at 0,0"):
        s.game.state_from_json(doc)
    doc["solo"]["events"] = [e for e in doc["solo"]["events"] if e["step"] != "place"]
    with pytest.raises(PositionError, match=r"solo\.events"):
        s.game.state_from_json(doc)


def test_the_pile_order_is_not_decided_before_a_token_is_flipped() -> None:
    """Hidden information: the pile's order and the tokens removed unseen at setup are decided by
    chance only when a token is flipped; no state, observation or record holds them."""
    s = _random_solo_game(2, level=1, upto=10)
    obs = s.observation(0)
    assert "pile" not in obs["solo"] and "unseen_removed" not in obs["solo"]
    assert "pile" not in s.to_json()["solo"]
    twin = regalia.replay(s.record(), seed=12345)
    assert twin.to_json() == s.to_json() and twin.observation(0) == obs
    # the next flip: any token nobody has seen, equally likely (those removed at setup included)
    seen = set(s.taken) | {t for _, t in s.treasures}
    assert set(s.unseen_tokens()) == set(range(10)) - seen
    d = s.determinize(0, random.Random(1))
    assert d.observation(0) == obs and d.unseen_tokens() == s.unseen_tokens()


def test_treasure_file_is_validated_naming_the_token_and_field() -> None:
    doc = json.loads((TILES_JSON.parent / "treasures.json").read_text())
    doc["tokens"][3]["colour"] = "purple"
    with pytest.raises(DataError, match=r"tokens\[3\] \(token H4\): field 'colour'"):
        parse_treasures(doc)
    doc = json.loads((TILES_JSON.parent / "treasures.json").read_text())
    doc["tokens"][7]["positions"] = ["N"]
    with pytest.raises(DataError, match=r"token H8\): field 'positions'"):
        parse_treasures(doc)
    doc = json.loads((TILES_JSON.parent / "treasures.json").read_text())
    doc["henry_units"]["regular-2"] = "green"
    with pytest.raises(DataError, match="henry_units"):
        parse_treasures(doc)
    doc = json.loads((TILES_JSON.parent / "treasures.json").read_text())
    doc["tokens"] = doc["tokens"][:9]
    with pytest.raises(DataError, match="field 'tokens'"):
        parse_treasures(doc)


def test_a_users_treasure_file_replaces_the_reconstructed_one(tmp_path: Path) -> None:
    doc = json.loads((TILES_JSON.parent / "treasures.json").read_text())
    for t in doc["tokens"]:
        t.pop("positions", None)
        t["condition"], t["colour"] = "horizontal", "brown"
    doc["henry_units"] = {"elite": "yellow", "regular-1": "green", "regular-2": "grey"}
    path = tmp_path / "my-treasures.json"
    path.write_text(json.dumps(doc))
    game = regalia.load_game("two-heirs", solo=True, treasures=str(path))
    assert game.treasure_set.crosses == (2, 0, 1)
    s = game.new_state(seed=1)
    assert all(t.condition == "horizontal" for t in s.tset.tokens)
    again = regalia.replay(_play_out(s).record().to_json())
    assert again.to_json() == s.to_json() and again.tset.crosses == (2, 0, 1)


def _play_out(s: SoloState, seed: int = 0) -> SoloState:
    rng = random.Random(seed)
    while True:
        s.advance(rng)
        if s.is_terminal():
            return s
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])


# -- properties ------------------------------------------------------------------------------------

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 10**6), level=st.sampled_from([1, 2, 3]))
def test_random_solo_games_end_and_replay_identically(seed: int, level: int) -> None:
    """Solo end of the game: random play always ends; the record replays to the same state."""
    s = _random_solo_game(seed, level)
    assert s.is_terminal() and s.current_player == TERMINAL
    assert sum(s.returns()) == 0 and 0 not in s.returns()
    record = s.record().to_json()
    assert "events" not in record and "seed" not in record
    again = regalia.replay(json.loads(json.dumps(record)))
    assert again.to_json() == s.to_json() and again.events() == s.events()
    # the 27 tiles are conserved: supply, reserve, hands, board, box
    placed = len(s.board) + len(s.supply) + sum(1 for t in s.reserve if t >= 0)
    assert placed + len(s.box) + len(s.hands[0]) + len(s.hands[1]) == 27
    assert not s.hands[1]  # Henry never keeps a tile
    # every Henry building went onto a free position next to the player's last building
    for e in s.events():
        if e["step"] == "place":
            x, y = map(int, e["pos"].split(","))
            lx, ly = map(int, e["next_to"].split(","))
            assert max(abs(x - lx), abs(y - ly)) == 1
    # the incremental scores equal the full solo score sheet
    assert s.scores() == list(s.score_sheet().totals)
    # every token flipped is once somewhere; the pile holds what was never flipped
    flipped = [*s.taken, *(t for _, t in s.treasures)]
    assert len(flipped) == len(set(flipped))
    assert s.pile_left + len(flipped) == 10 - henry.REMOVED_AT_LEVEL[level]


@FAST
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 150))
def test_henrys_turn_is_a_legal_pure_function_of_the_state(seed: int, plies: int) -> None:
    """Henry never places illegally, and his turn depends only on the state (and chance)."""
    s = _random_solo_game(seed, upto=plies)
    if s.is_terminal() or s.pending or s.discarding:
        return
    before = s.to_json()
    plan = s.plan_henry()
    assert s.to_json() == before  # planning changes nothing
    assert s.clone().plan_henry() == plan
    assert s.game.state_from_json(json.loads(json.dumps(before))).plan_henry() == plan
    if plan.take is not None:
        assert plan.take.tile in s.reserve
        pos = plan.pos
        if pos is not None:
            assert pos not in s.board
            assert pos in set(neighbours8(s.last_building()))
        else:
            assert all(q in s.board for q in neighbours8(s.last_building()))
    # playing the turn: two copies with the same chance give the same result
    a, b = s.clone(), s.game.state_from_json(json.loads(json.dumps(before)))
    for x in (a, b):
        x._legal = None
        x.took, x.shield_mine = True, False
        x.apply_text("end")
        x.advance(random.Random(seed))
    assert a.to_json() == b.to_json()
    # units never share a tile, Henry's included
    placed = [u for u in a.units if u is not None]
    assert len(placed) == len(set(placed))


def test_henrys_siege_towers_never_destroy() -> None:
    """Ruling R-henry-siege: Henry has no step to destroy; his second tower destroys nothing."""
    board = {(0, 0): GREY, (3, 0): "D2@0", (3, -1): "V4@1"}  # Henry's tower below the stonemason
    s = solo(board, last=(3, 0), reserve=(None, "V2", "W3", "V1", "D6", "T1", "T5"), supply=("T2", "T3"))
    place = step(henry_turn(s), "place")
    assert (place["tile"], place["pos"]) == ("V2", "3,1")  # now two towers touch it by their sides
    assert s.board[(3, 0)] == cell_code("D2@0") and s.pending == () and s.current_player == 0
