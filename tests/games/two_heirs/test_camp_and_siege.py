"""The camp (Dominion) and the siege tower (Warfare): effects played during a turn."""

from __future__ import annotations

from typing import Any

from regalia.games.two_heirs.state import TwoHeirsState

from .builders import BLUE, GREY, WHITE, acts, basic, legal, refused, texts, tid


# -- Camp -------------------------------------------------------------------------------------------
def camp_position(**kw: Any) -> TwoHeirsState:
    return basic(board={(1, 0): "D9@0", (2, 2): "D7@1"}, **kw)


def test_camp_after_a_take_flips_the_camp_and_the_shield() -> None:
    """Dominion, Camp (R-camp): after taking, the camp flips face down and the shield flips back."""
    s = camp_position()
    acts(s, "take W1")
    assert legal(s, "camp D9")
    acts(s, "camp D9")
    assert s.board[(1, 0)] == tid("D9") * 4  # face down: free terrain of the same tile
    assert s.shield_mine
    assert legal(s, "take D1")
    acts(s, "take D1", "end")
    assert len(s.hands[WHITE]) == 2


def test_camp_before_taking_is_refused() -> None:
    """Dominion, Camp (R-camp): the camp can be used only once a tile has been taken this turn."""
    s = camp_position()
    refused(s, "camp D9", "Dominion: Camp")


def test_camp_extra_take_is_optional() -> None:
    """Dominion, Camp (R-camp): after using the camp the player may end the turn without taking."""
    s = camp_position()
    acts(s, "take W1", "camp D9", "end")
    assert s.current_player == BLUE and len(s.hands[WHITE]) == 1


def test_camp_only_own_and_only_once() -> None:
    """Dominion, Camp: only your own face-up camp, and each camp only once per game."""
    s = camp_position()
    acts(s, "take W1")
    refused(s, "camp D7", "Dominion: Camp")  # the opponent's camp
    acts(s, "camp D9", "take D1")
    refused(s, "camp D9", "Dominion: Camp")


def test_used_camp_keeps_the_unit_on_it_and_scores_nothing() -> None:
    """Dominion, Camp (R-flip-keeps-units): a used camp is free terrain of its colour; its unit stays."""
    s = camp_position(units=[(1, 0), None, None, (5, 5), None, None])
    assert s.scores() == [4, 2]  # unused camps: 2 each, white's doubled by its elite
    acts(s, "take W1", "camp D9")
    assert s.units[0] == (1, 0)
    assert s.resources(WHITE) == [1, 1, 2]  # D1, T3, W8 in reach + the yellow tile under the elite
    assert s.scores() == [0, 2]


# -- Siege tower ------------------------------------------------------------------------------------
def siege(**kw: Any) -> TwoHeirsState:
    """Blue's bakery at 2,0 touched by white's tower at 2,1; white's elite on grey terrain at 3,1."""
    board = {(2, 0): "D4@1", (2, 1): "V2@0", (3, 1): GREY}
    board.update(kw.pop("board", {}))
    kw.setdefault("units", [(3, 1), None, None, (5, 5), None, None])
    kw.setdefault("hands", [["V4", "V6"], []])  # grey and yellow towers: 1 stone + 1 grain
    return basic(board=board, **kw)


def test_second_tower_may_destroy_the_besieged_building() -> None:
    """Warfare, Siege tower: the second tower touching an opponent's building by a side may destroy it."""
    s = siege(units=[(3, 1), None, None, (2, 0), None, None])
    acts(s, "build V4 3,0")
    assert sorted(texts(s)) == ["destroy 2,0", "spare"]
    acts(s, "destroy 2,0")
    assert s.board[(2, 0)] == tid("D4") * 4  # flipped face down: free terrain
    assert s.units[3] == (2, 0)  # R-flip-keeps-units
    assert s.scores()[BLUE] == 0


def test_a_destroyed_camp_can_no_longer_be_used() -> None:
    """Warfare, Siege tower and Dominion, Camp: a camp destroyed by a siege is free terrain, not a
    camp its owner may still use (the count of each seat's unused camps goes down with it)."""
    s = siege(board={(2, 0): "D7@1"}, units=[(3, 1), None, None, (2, 0), None, None])
    assert s.camps_up == [0, 1]
    acts(s, "build V4 3,0", "destroy 2,0")
    assert s.board[(2, 0)] == tid("D7") * 4
    assert s.camps_up == [0, 0]


def test_siege_decision_comes_before_anything_else() -> None:
    """Warfare, Siege tower (R-siege-second): nothing else can be done until destroy/spare is decided."""
    s = siege()
    acts(s, "build V4 3,0")
    refused(s, "take W1", "Warfare: Siege tower")
    refused(s, "destroy 3,1", "Warfare: Siege tower")


def test_siege_destruction_is_optional() -> None:
    """Warfare, Siege tower: destroying is not mandatory ('spare')."""
    s = siege()
    acts(s, "build V4 3,0", "spare")
    assert s.board[(2, 0)] & 3 == BLUE + 1
    assert s.pending == ()
    refused(s, "spare", "Warfare: Siege tower")


def test_one_tower_alone_has_no_effect() -> None:
    """Warfare, Siege tower: a single tower touching a building does nothing."""
    s = siege(board={(2, 1): GREY})
    acts(s, "build V4 3,0")
    assert s.pending == ()
    assert "take W1" in texts(s)


def test_towers_touching_by_corner_do_not_besiege() -> None:
    """Warfare, Siege tower: the towers must touch the building by their sides."""
    s = basic(
        board={(2, 0): "D4@1", (2, 1): "V2@0", (4, 1): GREY},
        units=[(4, 1), None, None, (5, 5), None, None],
        hands=[["V4"], []],
    )
    acts(s, "build V4 3,1")  # touches 2,0 only by a corner
    assert s.pending == ()


def test_third_tower_does_not_trigger_again() -> None:
    """Warfare, Siege tower (R-siege-second): a third tower on the same building does not trigger."""
    s = siege(
        board={(3, 0): "V3@0", (3, -1): GREY},
        units=[(3, -1), None, None, (5, 5), None, None],
    )
    acts(s, "build V6 2,-1")  # three towers now touch the bakery by a side
    assert s.pending == ()


def test_several_buildings_besieged_at_once() -> None:
    """Warfare, Siege tower (R-siege-second): one tower may complete two sieges; destroy one by one."""
    s = siege(
        board={(4, 0): "T2@1", (4, 1): "V1@0", (3, -1): GREY},
        units=[(3, -1), None, None, (5, 5), None, None],
    )
    assert s.prod[BLUE] == [0, 0, 1]
    acts(s, "build V4 3,0")
    assert sorted(texts(s)) == ["destroy 2,0", "destroy 4,0", "spare"]
    acts(s, "destroy 4,0")
    assert s.prod[BLUE] == [0, 0, 0]  # a destroyed farm stops producing
    assert texts(s) == ["destroy 2,0", "spare"]
    acts(s, "spare")
    assert s.board[(2, 0)] & 3 == BLUE + 1


def test_own_buildings_and_free_terrain_are_never_besieged() -> None:
    """Warfare, Siege tower: only the opponent's buildings can be destroyed."""
    s = siege(board={(2, 0): "D4@0"})
    acts(s, "build V4 3,0")
    assert s.pending == ()
    s = siege(board={(2, 0): "D4"})
    acts(s, "build V4 3,0")
    assert s.pending == ()


def test_destroyed_building_keeps_colour_loses_roads_and_owner() -> None:
    """Warfare, Siege tower (R-flip-keeps-units): a destroyed building is free terrain of its colour:
    its unit stays and still gets the resource, its roads and points are gone."""
    s = siege(
        board={(2, 0): "W2@1", (1, 0): "T3@1"},  # blue's grey inn and sawmill joined by an E-W road
        units=[(3, 1), None, None, (2, 0), None, None],
    )
    assert [r.tiles for r in s.score_sheet().roads] == [((1, 0), (2, 0))]
    stone = s.resources(BLUE)[1]
    acts(s, "build V4 3,0", "destroy 2,0")
    assert s.score_sheet().roads == ()
    assert [line.pos for line in s.score_sheet().buildings if line.owner == BLUE] == [(1, 0)]
    assert s.resources(BLUE)[1] == stone  # the face-down inn still gives stone to the unit on it


def test_pending_siege_and_discard_steps_survive_a_json_round_trip() -> None:
    """Positions: a state waiting for a siege decision or for discards reads back from JSON as it was."""
    s = siege()
    acts(s, "build V4 3,0")
    back = s.game.state_from_json(s.to_json())
    assert back.to_json() == s.to_json()
    assert back.legal_actions() == s.legal_actions()
    d = basic(hands=[["T1", "T2", "T4"], []])
    acts(d, "take W1", "end")
    back = d.game.state_from_json(d.to_json())
    assert back.discarding and back.legal_actions() == d.legal_actions()
