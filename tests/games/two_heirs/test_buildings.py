"""Building effects of the six sets, unit doubling and the winner (rules/the-two-heirs.md)."""

from __future__ import annotations

from .builders import BLUE, GREEN, GREY, WHITE, YELLOW, Board, position

AT = (0, 0)


# -- Wandering ----------------------------------------------------------------------------------
def test_inn_counts_tiles_within_three_in_its_row() -> None:
    """Wandering, Inn: 1 + each tile within 3 in its row (W3 is marked 'row'); the column is ignored."""
    b = Board().put(AT, "W3", WHITE)
    b.fill([(1, 0), (2, 0), (3, 0), (4, 0), (-1, 0), (-2, 0), (0, 1), (0, -1)])
    assert b.points(AT) == 1 + 3 + 2


def test_inn_column_and_maximum_of_seven() -> None:
    """Wandering, Inn: a column inn counts its column; at most 3 tiles each way, 7 points in all."""
    b = Board().put(AT, "W2", WHITE)  # W2 is marked 'column'
    b.fill([(0, k) for k in range(-5, 6) if k] + [(1, 0), (-1, 0)])
    assert b.points(AT) == 7


def test_inn_counts_beyond_gaps_and_face_down_tiles() -> None:
    """Wandering, Inn (R-inn-gap): gaps do not stop counting; any tile, face-down included."""
    b = Board().put(AT, "W3", WHITE).put((1, 0), GREEN).put((3, 0), "D4", BLUE).put((-3, 0), YELLOW)
    assert b.points(AT) == 1 + 3


def test_marketplace_counts_side_neighbours() -> None:
    """Wandering, Marketplace: 1 + each tile touching by a side (corners do not count); at most 5."""
    b = Board().put(AT, "W5", WHITE).fill([(1, 0), (0, 1), (-1, 0), (1, 1), (-1, -1)])
    assert b.points(AT) == 4
    b.fill([(0, -1)])
    assert b.points(AT) == 5


def test_bandit_stronghold_counts_opponents_buildings_by_side() -> None:
    """Wandering, Bandit stronghold: 2 + 2 per opponent's building touching by a side."""
    b = Board().put(AT, "W8", WHITE)
    b.put((1, 0), "D4", BLUE).put((0, 1), "T2", BLUE)  # counted
    b.put((-1, 0), "D1", WHITE).put((0, -1), "D2")  # own building, free terrain: not counted
    b.put((1, 1), "D5", BLUE)  # corner: not counted
    assert b.points(AT) == 2 + 2 * 2
    b.put((-1, 0), "D6", BLUE).put((0, -1), "D3", BLUE)
    assert b.points(AT) == 10


# -- Dominion -------------------------------------------------------------------------------------
def test_mill_counts_yellow_formations_touching_by_side() -> None:
    """Dominion, Mill: 1 + every yellow tile of formations touching it by a side, any owner or face down."""
    b = Board().put(AT, "D1", WHITE)
    b.put((1, 0), YELLOW).put((2, 0), "T1", BLUE).put((2, 1), "D4", WHITE)  # a formation of 3
    b.put((-1, 0), YELLOW)  # a formation of 1
    b.put((0, 1), GREY).put((0, 2), YELLOW)  # not touching the mill through yellow
    b.put((3, -1), YELLOW)  # touches the formation only by a corner
    assert b.points(AT) == 1 + 4


def test_mill_own_tile_not_counted_and_formation_counted_once() -> None:
    """Dominion, Mill (R-formation-self): the mill's own tile is not counted again; a formation
    touching it on two sides counts once; formations never join through the mill."""
    b = Board().put(AT, "D1", WHITE)
    b.put((1, 0), YELLOW).put((1, 1), YELLOW).put((0, 1), YELLOW)  # L around the NE corner
    assert b.points(AT) == 1 + 3
    b2 = Board().put(AT, "D1", WHITE).put((1, 0), YELLOW).put((-1, 0), YELLOW)
    assert b2.points(AT) == 1 + 2  # two formations of 1, not one through the mill


def test_stonemason_counts_grey_formations() -> None:
    """Dominion, Stonemason's: 1 + every grey tile of formations touching it by a side."""
    b = Board().put(AT, "D2", BLUE)
    b.put((0, -1), GREY).put((0, -2), "D5", WHITE).put((1, -2), GREY).put((1, 0), GREEN)
    assert b.points(AT) == 1 + 3


def test_stable_counts_green_formations() -> None:
    """Dominion, Stable: 1 + every green tile of formations touching it by a side."""
    b = Board().put(AT, "D3", WHITE)
    b.put((-1, 0), GREEN).put((-2, 0), "D6", BLUE).put((0, 1), YELLOW).put((1, 1), GREEN)
    assert b.points(AT) == 1 + 2


def test_bakery_counts_own_buildings_on_yellow_not_itself() -> None:
    """Dominion, Bakery (R-own-colour-self): 1 + each other own building on yellow."""
    b = Board().put(AT, "D4", WHITE)
    b.put((5, 5), "T2", WHITE).put((-3, 2), "D1", WHITE)  # own yellow buildings, anywhere
    b.put((1, 0), "T1", BLUE).put((2, 0), YELLOW).put((3, 0), "D2", WHITE)  # not counted
    assert b.points(AT) == 1 + 2


def test_smithy_counts_own_buildings_on_grey_not_itself() -> None:
    """Dominion, Smithy (R-own-colour-self): 1 + each other own building on grey."""
    b = Board().put(AT, "D5", BLUE).put((4, 0), "D2", BLUE).put((1, 0), "T6", WHITE).put((2, 0), GREY)
    assert b.points(AT) == 2


def test_gamekeepers_lodge_counts_own_buildings_on_green_not_itself() -> None:
    """Dominion, Gamekeeper's lodge (R-own-colour-self): 1 + each other own building on green."""
    b = Board().put(AT, "D6", WHITE).put((1, 0), "D3", WHITE).put((2, 0), "T4", WHITE)
    b.put((3, 0), "T3", BLUE).put((4, 0), GREEN)
    assert b.points(AT) == 3


def test_camp_unused_scores_two_used_scores_nothing() -> None:
    """Dominion, Camp (R-camp): an unused camp scores 2; a used one is face down and scores nothing."""
    b = Board().put(AT, "D9", WHITE).put((1, 0), "D7")
    assert b.points(AT) == 2
    assert [line.pos for line in b.sheet().buildings] == [AT]


# -- Trade & Church -------------------------------------------------------------------------------
def test_farm_sawmill_quarry_score_nothing_themselves() -> None:
    """Trade & Church, Farm/Sawmill/Quarry: they give resources, no points."""
    b = Board().put(AT, "T2", WHITE).put((1, 0), "T4", WHITE).put((2, 0), "T6", WHITE)
    assert b.sheet().totals == (0, 0)


def test_farm_sawmill_quarry_give_a_resource_without_a_unit() -> None:
    """Trade & Church, Farm/Sawmill/Quarry: each gives 1 resource of its kind, occupied or not."""
    s = position(
        board={(0, 0): GREY, (3, 3): "T2@0", (4, 4): "T4@0", (5, 4): "T6@0", (6, 6): "T5@1"},
        units=[(0, 0), None, None, (6, 6), None, None],
        reserve=[None, "C1", "C2", "C3", "W8", "D2", "T9"],  # green, yellow, grey
    )
    assert s.resources(WHITE) == [1 + 1, 1 + 1 + 1, 1 + 1]
    assert s.resources(BLUE) == [1, 3, 1]  # the quarry gives blue its stone (and the unit on it)


def test_trading_post_scores_three_per_own_depicted_building() -> None:
    """Trade & Church, Trading post: 3 per own building depicted on it (T7 depicts the farm)."""
    b = Board().put(AT, "T7", WHITE).put((1, 0), "T1", WHITE).put((5, 5), "T2", WHITE)
    b.put((2, 0), "T2", BLUE).put((3, 0), "T1").put((4, 0), "T4", WHITE)  # not counted
    assert b.points(AT) == 6
    b2 = Board().put(AT, "T8", BLUE).put((1, 0), "T4", BLUE).put((2, 0), "T2", BLUE)
    assert b2.points(AT) == 3  # T8 depicts the sawmill


def test_cathedral_scores_five() -> None:
    """Trade & Church, Cathedral: 5 points."""
    assert Board().put(AT, "T9", BLUE).points(AT) == 5


# -- Warfare ---------------------------------------------------------------------------------------
def test_siege_tower_scores_nothing() -> None:
    """Warfare, Siege tower: a siege tower brings no points."""
    b = Board().put(AT, "V1", WHITE).put((1, 0), "V2", WHITE)
    assert b.sheet(roads=False).totals == (0, 0)


def test_fortress_counts_own_towers_and_fortresses_including_itself() -> None:
    """Warfare, Fortress: 1 per own siege tower and fortress anywhere, this one included."""
    b = Board().put(AT, "V7", WHITE).put((4, 4), "V1", WHITE).put((-3, 0), "V2", WHITE)
    b.put((1, 0), "V8", WHITE).put((2, 0), "V3", BLUE).put((3, 0), "V4")
    assert b.points(AT) == 4
    assert b.points((1, 0)) == 4


# -- Guard ------------------------------------------------------------------------------------------
def test_lookout_counts_same_colour_on_its_whole_row() -> None:
    """Guard, Lookout (R-lookout-line): 1 + each same-colour tile in its row, any distance, any owner."""
    b = Board().put(AT, "G5", WHITE)  # yellow, row
    b.put((5, 0), YELLOW).put((-7, 0), "D4", BLUE).put((2, 0), GREY).put((0, 3), YELLOW)
    assert b.points(AT) == 1 + 2


def test_lookout_column() -> None:
    """Guard, Lookout: a lookout marked 'column' counts its column."""
    b = Board().put(AT, "G2", BLUE).put((0, 9), GREEN).put((0, -2), "T4", WHITE).put((3, 0), GREEN)
    assert b.points(AT) == 3


def test_guardhouse_counts_face_up_lookouts_on_its_diagonals() -> None:
    """Guard, Guardhouse (R-guardhouse-diagonal): 2 + 2 per face-up lookout of either seat on a diagonal."""
    b = Board().put(AT, "G8", WHITE)
    b.put((2, 2), "G1", WHITE).put((-3, 3), "G3", BLUE)  # counted, gaps ignored
    b.put((1, -1), "G5").put((0, 2), "G2", WHITE).put((2, 1), "G4", BLUE)  # face down, column, off-line
    assert b.points(AT) == 2 + 2 * 2


# -- Crafts -------------------------------------------------------------------------------------------
def test_basket_makers_workshop_scores_three_per_met_pair() -> None:
    """Crafts, Basket-maker's workshop: 3 per printed green/yellow pair met, any owner or face down."""
    # C1 prints pairs {green N, yellow NE} and {green S, yellow SW}
    b = Board().put(AT, "C1", WHITE).put((0, 1), GREEN).put((1, 1), "D4", BLUE)
    b.put((0, -1), GREEN).put((-1, -1), GREY)
    assert b.points(AT) == 3
    b.put((-1, -1), YELLOW)
    assert b.points(AT) == 6


def test_workshop_without_a_met_pair_scores_nothing() -> None:
    """Crafts: if no printed pair is met, the workshop brings no points."""
    b = Board().put(AT, "C2", WHITE).put((-1, 0), YELLOW).put((1, 0), GREEN)  # colours swapped
    assert b.points(AT) == 0


def test_workshop_pairs_are_read_in_the_owners_frame() -> None:
    """Crafts (R-frames): printed positions are turned 180 degrees for blue's workshops."""
    # C2 prints {green W, yellow E} and {green NW, yellow SE}: for blue W->E, E->W
    b = Board().put(AT, "C2", BLUE).put((1, 0), GREEN).put((-1, 0), YELLOW)
    assert b.points(AT) == 3
    b2 = Board().put(AT, "C2", BLUE).put((-1, 0), GREEN).put((1, 0), YELLOW)
    assert b2.points(AT) == 0
    b2.put(AT, "C2", WHITE)
    assert b2.points(AT) == 3


def test_potters_workshop_pairs() -> None:
    """Crafts, Potter's workshop: grey/yellow pairs (C3: {grey N, yellow S}, {grey NE, yellow NW})."""
    b = Board().put(AT, "C3", WHITE).put((0, 1), GREY).put((0, -1), YELLOW)
    b.put((1, 1), GREY).put((-1, 1), YELLOW)
    assert b.points(AT) == 6


def test_coopers_workshop_pairs() -> None:
    """Crafts, Cooper's workshop: green/grey pairs (C5: {green N, grey S}, {green E, grey W})."""
    b = Board().put(AT, "C5", WHITE).put((0, 1), GREEN).put((0, -1), GREY).put((1, 0), GREY)
    assert b.points(AT) == 3


def test_guild_house_raises_its_workshop_to_four_per_pair() -> None:
    """Crafts, Guild house (R-workshop-pairs): own face-up guild house of that workshop: 4 per pair;
    it scores nothing itself, does not stack, and the opponent's does not help."""
    b = Board().put(AT, "C5", WHITE).put((0, 1), GREEN).put((0, -1), GREY).put((1, 0), GREEN)
    b.put((-1, 0), GREY)
    assert b.points(AT) == 6
    b.put((5, 5), "C9", BLUE)  # the opponent's cooper guild house
    assert b.points(AT) == 6
    b.put((6, 6), "C7", WHITE)  # own guild house of another workshop
    assert b.points(AT) == 6
    b.put((7, 7), "C9")  # face down
    assert b.points(AT) == 6
    b.put((8, 8), "C9", WHITE)
    assert b.points(AT) == 8
    assert b.points((8, 8)) == 0
    b.put((9, 9), "C9", WHITE)  # a second one does not stack
    assert b.points(AT) == 8


# -- Placement of units -----------------------------------------------------------------------
def test_own_unit_on_own_building_doubles_its_points() -> None:
    """Placement of units: an own unit (elite or regular) on an own building doubles it."""
    b = Board().put(AT, "T9", WHITE).put((1, 0), "T9", WHITE).unit(WHITE, AT).unit(WHITE, (1, 0))
    assert b.points(AT) == 10 and b.points((1, 0)) == 10


def test_opponents_unit_on_a_building_has_no_effect() -> None:
    """Placement of units: the opponent's unit on your building changes nothing."""
    b = Board().put(AT, "T9", WHITE).unit(BLUE, AT)
    assert b.points(AT) == 5
    assert b.sheet().totals == (5, 0)


def test_doubling_applies_to_every_building_kind() -> None:
    """Placement of units: doubling applies to the building's whole score (an unused camp: 4)."""
    b = Board().put(AT, "D9", BLUE).unit(BLUE, AT)
    assert b.points(AT) == 4


# -- Winner ---------------------------------------------------------------------------------------
def test_winner_has_more_points() -> None:
    """Winner: the player with more points wins."""
    s = position(board={(0, 0): GREY, (1, 0): "T9@1"}, units=[(0, 0), None, None, (0, 0), None, None])
    s.terminal = True
    assert s.scores() == [0, 5]
    assert s.returns() == [-1.0, 1.0] and s.winner() == BLUE


def test_winner_tie_broken_by_units_in_the_reserve() -> None:
    """Winner (R-tiebreak): equal points: more units in the royal reserve wins."""
    s = position(
        board={(0, 0): GREY, (1, 0): GREEN},
        units=[(0, 0), (1, 0), None, (0, 0), None, None],
        terminal=True,
    )
    assert s.scores() == [0, 0]
    assert s.returns() == [-1.0, 1.0] and s.winner() == BLUE


def test_winner_full_tie_is_a_draw() -> None:
    """Winner (R-tiebreak): equal points and equal units in reserve: a draw (returns 0)."""
    s = position(board={(0, 0): GREY, (1, 0): "T9@0", (2, 0): "T9@1"}, terminal=True)
    assert s.scores() == [5, 5]
    assert s.returns() == [0.0, 0.0] and s.winner() is None


def test_returns_are_zero_before_the_end() -> None:
    """Winner: before the end of the game nobody has won yet."""
    s = position(board={(0, 0): GREY, (1, 0): "T9@0"})
    assert s.scores() == [5, 0] and s.returns() == [0.0, 0.0]


def test_row_and_column_are_the_same_lines_for_both_players() -> None:
    """Wandering, Inn / Guard, Lookout (R-frames): 'row' and 'column' are the same board lines
    for both players, though blue's tiles are turned 180 degrees."""
    for owner in (WHITE, BLUE):
        b = Board().put(AT, "W3", owner).fill([(1, 0), (-2, 0), (0, 1)])
        assert b.points(AT) == 3
        b = Board().put(AT, "G2", owner).put((0, 5), GREEN).put((5, 0), GREEN)
        assert b.points(AT) == 2


def test_start_tile_is_free_terrain_of_its_colour() -> None:
    """Setup (R-start-tile): the starting landscape is free terrain: it scores for nobody, gives its
    resource to a unit on it and counts as a tile of its colour."""
    s = position(board={(0, 0): YELLOW, (1, 0): "D1@0"})
    assert s.resources(WHITE)[2] == 2  # D1 in reach + the yellow start tile
    assert [(line.pos, line.points) for line in s.score_sheet().buildings] == [((1, 0), 2)]
