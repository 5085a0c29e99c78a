"""Actions B.1, B.2 and C, resources, the hand limit and the end of the game (rules/the-two-heirs.md)."""

from __future__ import annotations

import random

import pytest

from regalia.core.errors import PositionError
from regalia.core.game import TERMINAL
from regalia.core.grid import neighbours8
from regalia.games.two_heirs.rules import BUILD_BIAS

from .builders import (
    BLUE,
    GREEN,
    GREY,
    WHITE,
    YELLOW,
    acts,
    basic,
    legal,
    position,
    refused,
    texts,
    tid,
)


# -- Action B.1 ---------------------------------------------------------------------------------
def test_b1_building_touching_own_unit_by_corner_is_placed_face_up_for_its_owner() -> None:
    """Action B.1: a building may touch the unit's tile by a corner; it is face up and owned."""
    s = basic(hands=[["T2"], []])  # farm: 1 wood + 1 stone (W1 green in reach, elite on grey)
    acts(s, "build T2 1,1")
    assert s.board[(1, 1)] == tid("T2") * 4 + WHITE + 1
    assert s.hands[WHITE] == []
    assert s.last_built[WHITE] == (1, 1)


def test_b1_building_not_touching_own_unit_is_refused() -> None:
    """Action B.1: a building must touch, by side or corner, a tile with the player's unit."""
    s = basic(hands=[["T2"], []])
    refused(s, "build T2 2,0", "Action B.1")
    refused(s, "build T2 4,4", "Action B.1")  # touches only the opponent's unit


def test_b1_building_on_an_occupied_position_is_refused() -> None:
    """Action B.1: the new building goes on a free position."""
    s = basic(hands=[["T2"], []])
    refused(s, "build T2 0,0", "Action B.1")


def test_b1_tile_not_in_hand_is_refused() -> None:
    """Action B.1: only tiles in the player's hand can be built."""
    s = basic(hands=[["T2"], ["T1"]])
    refused(s, "build T1 1,0", "Action B.1")


def test_b1_roads_need_not_line_up() -> None:
    """Action B.1: a tile may be placed next to a road that it does not continue."""
    s = basic(board={(1, 0): "T3@1"}, hands=[["T1"], []])  # T3: E-W road; T1: N-S road
    assert legal(s, "build T1 1,1")
    assert legal(s, "build T1 2,1") is False  # not touching a white unit: placement, not roads
    acts(s, "build T1 1,1")


def test_b1_several_buildings_in_one_turn() -> None:
    """Action B.1: several buildings may be built in one turn."""
    s = basic(hands=[["T2", "T1"], []])
    acts(s, "build T2 1,0", "build T1 -1,0", "take W1", "end")
    assert s.board[(1, 0)] & 3 == 1 and s.board[(-1, 0)] & 3 == 1


# -- Resources ----------------------------------------------------------------------------------
def test_resources_from_reserve_units_and_producers() -> None:
    """Resources: royal sources in reach, tiles under own units, and own farms/sawmills/quarries."""
    s = basic(
        board={(1, 0): "T2@0", (0, 1): "T4@0"},  # own farm (occupied) and sawmill (not occupied)
        units=[(0, 0), (1, 0), None, (5, 5), None, None],
    )
    # reach 2: W1 (green), D1 (yellow); elite on grey; unit on farm (yellow) + farm + sawmill
    assert s.resources(WHITE) == [2, 1, 3]


def test_resources_occupied_producer_gives_two() -> None:
    """Resources (Trade & Church note): an occupied farm gives 2 grain (building + unit)."""
    free = basic(board={(1, 0): "T2@0"})
    occupied = basic(board={(1, 0): "T2@0"}, units=[(1, 0), None, None, (5, 5), None, None])
    # elite on grey terrain vs elite on the farm: stone 1 -> 0, grain +1
    assert free.resources(WHITE) == [2, 1, 2]
    assert occupied.resources(WHITE) == [2, 0, 3]


def test_resources_one_source_serves_several_buildings() -> None:
    """Resources: a tile gives one resource per building, for every building of the turn."""
    s = basic(hands=[["T2", "T1"], []], reserve=[None, "W1", "D1", "D4", "W8", "D2", "T9"])
    # Each farm costs 1 wood + 1 stone; only W1 gives wood, only the elite's tile gives stone.
    assert s.resources(WHITE)[0] == 1
    acts(s, "build T2 1,0", "build T1 -1,0")


def test_resources_missing_resources_are_refused() -> None:
    """Resources: a building whose cost is not covered is refused."""
    s = basic(hands=[["W3"], []])  # inn: 2 stone + 1 grain; only 1 stone available
    err = refused(s, "build W3 1,0", "Resources")
    assert "2 stone + 1 grain" in str(err)


def test_resources_lost_when_the_unit_moves_away() -> None:
    """Resources: moving a unit loses access to the resource of its tile."""
    s = basic(board={(1, 0): GREEN}, hands=[["T2"], []])
    assert legal(s, "build T2 2,0") is False
    assert legal(s, "build T2 1,1")
    acts(s, "step 0,0 1,0")  # grey -> green: the only stone is gone
    refused(s, "build T2 2,0", "Resources")


def test_resources_royal_sources_follow_the_shield() -> None:
    """Resources: after a take the royal sources are counted from the shield's new position."""
    s = basic()
    assert s.resources(WHITE) == [2, 1, 1]  # W1, D1, T3 + grey under the elite
    acts(s, "take W1")  # shield to position 1: now D1, T3, W8 are in reach
    assert s.resources(WHITE) == [1, 2, 1]


# -- Action B.2 ---------------------------------------------------------------------------------
def test_b2_free_terrain_is_face_down_free_and_belongs_to_nobody() -> None:
    """Action B.2: a tile played as free terrain costs nothing, lies face down, scores for nobody."""
    s = basic(hands=[["W3"], []])  # the inn is not affordable as a building
    acts(s, "terrain W3 1,0")
    assert s.board[(1, 0)] == tid("W3") * 4
    assert all(line.pos != (1, 0) for line in s.score_sheet().buildings)


def test_b2_free_terrain_needs_the_same_placement() -> None:
    """Action B.2: free terrain must also touch, by side or corner, a tile with the player's unit."""
    s = basic(hands=[["W3"], []])
    refused(s, "terrain W3 2,0", "Action B.2")
    refused(s, "terrain W3 0,0", "Action B.2")


def test_b2_free_terrain_gives_its_resource_to_a_unit_on_it() -> None:
    """Action B.2: free terrain gives its colour's resource to a unit standing on it."""
    s = basic(hands=[["T4"], []])
    acts(s, "terrain T4 1,0", "step 0,0 1,0")
    assert s.resources(WHITE) == [3, 0, 1]


def test_b2_terrain_discount_enables_a_building_terrain_first() -> None:
    """Action B.2: a terrain discounts 1 resource of a later building; before it, the build fails."""
    s = basic(hands=[["W3", GREY], []])  # inn short of 1 stone
    refused(s, "build W3 1,0", "Resources")
    acts(s, "terrain T6 -1,0")
    assert s.discounts == 1
    acts(s, "build W3 1,0")
    assert s.discounts == 0


def test_b2_terrain_after_the_building_does_not_help() -> None:
    """Action B.2 (R-terrain-discount): a discount only helps buildings later in the turn."""
    s = basic(hands=[["W3", "T2", GREY], []])
    acts(s, "build T2 1,0", "terrain T6 -1,0")
    assert s.discounts == 1  # the farm was paid in full; the discount is still unused


def test_b2_several_terrains_stack_on_one_building() -> None:
    """Action B.2 (R-terrain-discount): two terrains may discount 2 resources of one building."""
    reserve = [None, "T3", "T4", "C1", "W8", "D2", "T9"]  # three green tiles in reach
    s = basic(hands=[["W3", GREEN, YELLOW], []], reserve=reserve)
    assert s.resources(WHITE) == [3, 1, 0]  # inn: 2 stone + 1 grain, 2 missing
    acts(s, "terrain T4 -1,0")
    refused(s, "build W3 1,0", "Resources")
    acts(s, "terrain T2 -1,1")
    acts(s, "build W3 1,0")
    assert s.discounts == 0


def test_b2_several_terrains_discount_several_buildings() -> None:
    """Action B.2 (R-terrain-discount): each terrain gives a discount; two buildings may use one each."""
    reserve = [None, "T3", "W1", "C1", "W8", "D2", "T9"]  # three green tiles in reach, no grain
    s = basic(hands=[["T6", "T5", "C5", GREEN, YELLOW], []], reserve=reserve)
    # the quarries T6 and T5 (1 wood + 1 grain) and the cooper C5 (wood, stone, grain) lack 1 grain each
    refused(s, "build T6 1,0", "Resources")
    acts(s, "terrain T4 -1,0", "terrain T2 -1,1")
    assert s.discounts == 2
    acts(s, "build T6 1,0")
    assert s.discounts == 1
    acts(s, "build T5 1,1")
    assert s.discounts == 0
    refused(s, "build C5 1,-1", "Resources")


def test_b2_discount_covers_only_missing_resources() -> None:
    """Action B.2 (R-terrain-discount): a building that is affordable uses no discount."""
    s = basic(hands=[["T2", GREY], []])
    acts(s, "terrain T6 -1,0", "build T2 1,0")
    assert s.discounts == 1


def test_b2_unused_discount_lapses_at_end_of_turn() -> None:
    """Action B.2 (R-terrain-discount): unused discounts lapse at the end of the turn."""
    s = basic(hands=[[GREY], []])
    acts(s, "terrain T6 -1,0", "take W1", "end")
    assert s.discounts == 0
    assert s.to_json()["discounts"] == 0


# -- Action C -----------------------------------------------------------------------------------
def test_c_step_to_a_tile_touching_by_side_or_corner() -> None:
    """Action C: a unit moves onto a tile touching its tile by side or corner."""
    s = basic(board={(1, 1): GREEN, (0, 1): GREEN})
    assert legal(s, "step 0,0 1,1") and legal(s, "step 0,0 0,1")
    acts(s, "step 0,0 1,1")
    assert s.units[0] == (1, 1)


def test_c_step_far_or_off_the_board_is_refused() -> None:
    """Action C: a step must reach a touching tile of the play area."""
    s = basic(board={(2, 0): GREEN})
    refused(s, "step 0,0 2,0", "Action C")
    refused(s, "step 0,0 1,0", "Action C")


def test_c_step_onto_an_occupied_tile_is_refused() -> None:
    """Action C: a unit may not move onto a tile holding another unit."""
    s = basic(board={(1, 0): GREEN}, units=[(0, 0), None, None, (1, 0), None, None])
    refused(s, "step 0,0 1,0", "Action C")


def test_c_each_unit_moves_once_per_turn_and_tokens_reset() -> None:
    """Action C: each unit moves only once a turn; at the end of the turn tokens flip back."""
    s = basic(board={(1, 0): GREEN})
    acts(s, "step 0,0 1,0")
    err = refused(s, "step 1,0 0,0", "Action C")
    assert "already moved" in str(err)
    acts(s, "take W1", "end")
    assert s.moved == 0


def test_c_unit_may_stand_on_the_opponents_building() -> None:
    """Action C: a unit may move onto any free tile, the opponent's buildings included."""
    s = basic(board={(1, 0): "D4@1"})
    acts(s, "step 0,0 1,0")
    assert s.resources(WHITE)[2] == 2  # D1 in reach + the yellow bakery under the unit


def test_c_call_onto_a_free_tile_touching_own_unit() -> None:
    """Action C: a unit called from the reserve goes to a free tile touching a tile with own unit."""
    s = basic(board={(1, 0): GREEN, (3, 0): GREEN})
    assert legal(s, "call 1,0")
    refused(s, "call 3,0", "Action C")
    refused(s, "call 0,0", "Action C")  # occupied
    refused(s, "call 2,0", "Action C")  # no tile there
    acts(s, "call 1,0")
    assert s.units[1] == (1, 0) and s.units_in_reserve(WHITE) == 1


def test_c_call_next_to_a_unit_that_has_moved() -> None:
    """Action C (R-call-touch): the called unit may join a unit that has already moved."""
    s = basic(board={(1, 0): GREEN, (2, 0): GREEN})
    acts(s, "step 0,0 1,0")
    assert legal(s, "call 2,0")


def test_c_withdrawn_unit_cannot_be_called_back_this_turn() -> None:
    """Action C (R-call-touch): a unit withdrawn this turn has moved and cannot be called back."""
    s = basic(board={(1, 0): GREEN, (1, 1): GREEN}, units=[(0, 0), (1, 0), (1, 1), (5, 5), None, None])
    acts(s, "withdraw 1,0")
    refused(s, "call 1,0", "Action C")


def test_c_withdraw_a_regular_unit_but_never_the_elite() -> None:
    """Action C: a regular unit may be withdrawn into the reserve; the elite unit may not."""
    s = basic(board={(1, 0): GREEN}, units=[(0, 0), (1, 0), None, (5, 5), None, None])
    refused(s, "withdraw 0,0", "Action C")
    acts(s, "withdraw 1,0")
    assert s.units[1] is None and s.reach(WHITE) == 3


def test_c_actions_are_freely_combined() -> None:
    """Action C note: calls, moves, builds and the take combine in any order."""
    s = basic(board={(1, 0): GREEN}, hands=[["T1"], []])
    acts(s, "call 1,0", "take W1", "build T1 2,0", "end")
    assert s.current_player == BLUE


# -- Hand limit ---------------------------------------------------------------------------------
def test_hand_limit_discard_step_lets_the_player_choose() -> None:
    """Hand limit (R-hand-limit): 4 tiles at the end: the player picks the tile for the box."""
    s = basic(hands=[["T1", "T2", "T4"], []])
    acts(s, "take W1", "end")
    assert s.discarding and s.current_player == WHITE
    assert sorted(texts(s)) == ["discard T1", "discard T2", "discard T4", "discard W1"]
    refused(s, "step 0,0 1,0", "Hand limit")
    acts(s, "discard T2")
    assert [s.tiles[t].id for t in s.box] == ["T2"]
    assert not s.discarding and s.current_player == BLUE
    assert len(s.hands[WHITE]) == 3


def test_hand_limit_three_tiles_are_kept() -> None:
    """Hand limit: 3 tiles in hand at the end of the turn are allowed."""
    s = basic(hands=[["T1", "T2"], []])
    acts(s, "take W1", "end")
    assert s.current_player == BLUE and len(s.hands[WHITE]) == 3


def test_hand_limit_discard_only_at_end_of_turn() -> None:
    """Hand limit: tiles are discarded only at the end of the turn, above 3."""
    s = basic(hands=[["T1"], []])
    refused(s, "discard T1", "Hand limit")


# -- Final turn and end of the game ----------------------------------------------------------
def test_final_turns_after_the_trigger_then_the_game_ends() -> None:
    """Final turn (R-end-trigger): trigger turn ends, opponent plays a final turn, then the trigger player."""
    s = basic(supply=["T5"])
    acts(s, "take W1")
    assert s.tiles[s.reserve[0]].id == "T5"  # the last tile is still refilled
    acts(s, "end")
    assert s.final and s.current_player == BLUE
    acts(s, "take D1")
    assert s.reserve[1] == -1  # no refill in a final turn
    acts(s, "end")
    assert s.current_player == WHITE and not s.is_terminal()
    acts(s, "take T3", "end")
    assert s.is_terminal() and s.current_player == TERMINAL
    assert s.legal_actions() == []


def test_final_turn_reach_skips_empty_positions() -> None:
    """Final turn (R-final-no-tile): empty reserve positions are not counted for reach."""
    reserve = [None, None, "D1", None, "W8", None, "T9"]
    s = basic(reserve=reserve, supply=[], final=True, finals_left=2)
    assert s.reach_positions(WHITE) == [2, 4, 6]
    assert texts(s, "take") == ["take D1", "take W8", "take T9"]


def test_final_turn_action_a_waived_only_with_an_empty_reserve() -> None:
    """Final turn (R-final-no-tile): with any tile left the take is due; with none, the turn may end."""
    one = basic(reserve=[None, None, None, None, None, None, "T9"], supply=[], final=True, finals_left=1)
    refused(one, "end", "Action A")
    none = basic(reserve=[None] * 7, supply=[], final=True, finals_left=1)
    assert texts(none, "take") == []
    acts(none, "end")
    assert none.is_terminal()


def test_after_the_end_nothing_can_be_played() -> None:
    """Final turn and end of the game: once the game is over, every action is refused."""
    s = basic(reserve=[None] * 7, supply=[], final=True, finals_left=1)
    acts(s, "end")
    refused(s, "end", "Final turn and end of the game")


def test_producer_gives_its_resource_from_the_moment_it_is_built() -> None:
    """Resources (R-producer-immediate): a farm built this turn already gives grain to later buildings."""
    s = basic(hands=[["T2", "D4"], []])  # resources 2 wood, 1 stone, 1 grain; bakery: 2 grain + 1 wood
    refused(s, "build D4 1,1", "Resources")
    acts(s, "build T2 1,0")
    assert s.resources(WHITE) == [2, 1, 2]
    acts(s, "build D4 1,1")


def test_start_tile_stays_occupied_while_an_elite_is_on_it() -> None:
    """Setup note (R-start-share): the elites share the start tile; while one is there it is occupied."""
    s = position(board={(0, 0): GREY, (1, 0): GREEN, (1, 1): GREEN})
    assert legal(s, "step 0,0 1,0")
    acts(s, "step 0,0 1,0")
    refused(s, "call 0,0", "Action C")  # blue's elite is still on the start tile
    acts(s, "call 1,1", "take W1", "end")
    refused(s, "step 0,0 1,0", "Action C")  # blue's elite cannot join white's unit either


def test_a_state_document_with_two_units_on_one_tile_is_refused() -> None:
    """Setup note (R-start-share): only the starting landscape ever holds two units; a state
    document that puts two on another tile is refused, naming the unit, and the start tile's pair
    is accepted."""
    s = basic(board={(1, 0): GREY}, units=[(0, 0), (1, 0), None, (5, 5), None, None])
    doc = s.to_json()
    doc["units"][4]["pos"] = "1,0"
    with pytest.raises(PositionError, match=r"units\[4\]\.pos': units\[1\] stands at 1,0 already"):
        s.game.state_from_json(doc)
    doc["units"][4]["pos"] = None
    doc["units"][3]["pos"] = "0,0"
    assert s.game.state_from_json(doc).units[3] == (0, 0)


def test_listed_actions_are_made_once_and_the_memo_stays_bounded() -> None:
    """The ``build`` and ``terrain`` actions a position lists are the values ``make`` makes, the
    same objects the next time, and the memo of a tile keeps at most ``MEMO_LIMIT`` positions."""
    from regalia.games.two_heirs import actions

    places = [(x, -3) for x in range(actions.MEMO_LIMIT + 50)]
    made = actions.placed(actions.BUILD, 5, places)
    assert made == [actions.make(actions.BUILD, 5, None, q) for q in places]
    again = actions.placed(actions.BUILD, 5, places[-3:])
    assert all(a is b for a, b in zip(again, made[-3:], strict=True))
    assert len(actions._BUILDS[5]) <= actions.MEMO_LIMIT
    assert [a for _, a in actions.steps_from((2, 2))] == [
        actions.make(actions.STEP, -1, (2, 2), q) for q in neighbours8((2, 2))
    ]


# -- the search's rollout policy (not a rule: docs/ai.md, "Rollout policies") ------------------------
def test_the_rollout_policy_builds_more_often_than_a_uniform_pick_and_only_legally() -> None:
    """``policy_action`` (``mcts:...:rollout=policy``) picks a legal action, a ``build`` with
    probability ``BUILD_BIAS`` more where one is legal, and from its ``rng`` alone."""
    s = basic(hands=[["T2", "W4"], []])
    legal_actions = s.legal_actions()
    builds = sum(a.kind == "build" for a in legal_actions)
    assert 0 < builds < len(legal_actions)
    draws = 4000
    rng = random.Random(3)
    picks = [s.policy_action(rng) for _ in range(draws)]
    assert set(picks) <= set(legal_actions)
    share = sum(a.kind == "build" for a in picks) / draws
    expected = BUILD_BIAS + (1 - BUILD_BIAS) * builds / len(legal_actions)
    assert abs(share - expected) < 0.03, (share, expected)
    assert [s.policy_action(random.Random(9)) for _ in range(3)] == [s.policy_action(random.Random(9))] * 3
    nothing = basic(hands=[[], []])  # no tile in hand: no build, so a uniform pick
    assert all(a.kind != "build" for a in nothing.legal_actions())
    assert nothing.policy_action(random.Random(5)) in nothing.legal_actions()
