"""The rulebook's examples 1 to 5, built as positions (rules/the-two-heirs.md)."""

from __future__ import annotations

from .builders import BLUE, GREEN, GREY, WHITE, Board, acts, basic, legal, refused, road, texts


def test_example_1_reach_three_gives_stone_grain_and_wood() -> None:
    """Example 1 (Royal protocol, Resources): reach 3 gives 1 stone, 1 grain, 1 wood; tiles 4-6 are out."""
    s = basic(reserve=[None, "W8", "D1", "T3", "W1", "D4", "T6"])  # grey, yellow, green, ...
    assert s.shield_mine and s.current_player == WHITE  # the shield shows white's crown
    assert s.reach(WHITE) == 3
    assert texts(s, "take") == ["take W8", "take D1", "take T3"]
    for far in ("W1", "D4", "T6"):
        refused(s, f"take {far}", "Royal protocol")
    royal = [a - b for a, b in zip(s.resources(WHITE), [0, 1, 0], strict=True)]  # minus the elite's grey
    assert royal == [1, 1, 1]


def test_example_2_inn_and_trading_post_in_the_same_turn() -> None:
    """Example 2 (Resources): reach 2 (stone, wood), units on a yellow building and grey terrain, and a
    farm: 2 grain, 2 stone, 1 wood -- enough for the inn and, with the same sources, the trading post."""
    s = basic(
        board={(0, 0): "D4@0", (1, 0): GREY, (-3, -3): "T2@0"},
        units=[(0, 0), (1, 0), None, (5, 5), None, None],
        reserve=[None, "W8", "T3", "D1", "W1", "D2", "T9"],
        hands=[["W3", "T7"], []],
    )
    assert s.reach(WHITE) == 2
    assert s.resources(WHITE) == [1, 2, 2]  # wood, stone, grain
    acts(s, "build W3 0,1")
    assert s.resources(WHITE) == [1, 2, 2]  # resources never run out
    acts(s, "build T7 1,-1")
    assert s.hands[WHITE] == []


def test_example_3_free_terrain_discount_pays_for_the_bakery() -> None:
    """Example 3 (B.2): 1 grain and 1 wood for a bakery (2 grain + 1 wood): a grey tile played as free
    terrain gives the missing resource."""
    s = basic(
        board={(0, 0): GREEN, (1, 0): GREY, (-1, 0): GREY},
        units=[(0, 0), (1, 0), (-1, 0), (5, 5), None, None],
        reserve=[None, "D1", "T3", "W8", "W1", "D2", "T9"],
        hands=[["D4", "T6"], []],
    )
    assert s.resources(WHITE) == [1, 2, 1]
    refused(s, "build D4 0,-1", "Resources")
    acts(s, "terrain T6 0,1", "build D4 0,-1")
    assert s.board[(0, -1)] & 3 == WHITE + 1 and s.discounts == 0


def test_example_4_only_calling_a_unit_onto_green_terrain_works() -> None:
    """Example 4 (Action C): no wood for a lookout; stepping or withdrawing the unit on the yellow
    building loses the placement, calling a unit onto the green terrain works."""
    s = basic(
        board={(0, 0): GREY, (1, 0): "D4@0", (0, 1): GREEN},
        units=[(0, 0), (1, 0), None, (5, 5), None, None],
        reserve=[None, "W8", "D1", "T3", "W1", "D2", "T9"],
        hands=[["G5"], []],
        took=True,  # the shield already shows blue's crown
    )
    assert s.resources(WHITE) == [0, 2, 2]
    refused(s, "build G5 2,-1", "Resources")
    moved = s.clone()
    acts(moved, "step 1,0 0,1")
    refused(moved, "build G5 2,-1", "Action B.1")
    withdrawn = s.clone()
    acts(withdrawn, "withdraw 1,0")
    assert withdrawn.resources(WHITE)[0] == 1  # more reach: the green T3 gives wood ...
    refused(withdrawn, "build G5 2,-1", "Action B.1")  # ... but the placement is lost
    called = s.clone()
    acts(called, "call 0,1")
    assert legal(called, "build G5 2,-1")
    acts(called, "build G5 2,-1", "end")
    assert called.current_player == BLUE


def test_example_5_road_scoring() -> None:
    """Example 5 (Roads): A 3 white = 3 for white; B 2 blue + 1 white = 1 for blue; C 2 + 2 = nobody;
    D a single building = nothing."""
    b = Board()
    for y, owners in (
        (0, [WHITE] * 3),
        (2, [BLUE, BLUE, WHITE]),
        (4, [WHITE, WHITE, BLUE, BLUE]),
        (6, [BLUE]),
    ):
        for x, owner in enumerate(owners):
            b.put((x, y), road("E-W"), owner)
    roads = {r.tiles[0][1]: (r.winner, r.points) for r in b.sheet().roads}
    assert roads == {0: (WHITE, 3), 2: (BLUE, 1), 4: (None, 0)}  # road D is not even a road
    assert b.sheet().totals == (3, 1)
