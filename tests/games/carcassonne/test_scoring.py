"""Scoring roads, cities and cloisters, completed during the game and unfinished at the end
(/work/shared/research/carcassonne.md, section 3 "Base scoring rules" and "General rules"; the
rulebook shipped with the game, data/rules.md, "Scoring" and "Final scoring"); majority and ties;
the option ``small_city``.

The start tile D lies at 0,0: city north, road west-east, field south. Games that must end are
played with a bag of chosen tiles (:func:`builders.bag_game`): the final scoring follows the last.
"""

from __future__ import annotations

from regalia.games.carcassonne.actions import FOLLOWER
from regalia.games.carcassonne.tiles import CITY

from .builders import BLUE, RED, bag_game, new, scored, turn, turns

# -- roads -----------------------------------------------------------------------------------------


def test_completed_road_scores_one_per_tile() -> None:
    """Scoring (road, completed: 1 per tile). Red's thief on the start road (U at 1,0); junctions (W)
    end it at 2,0 and -1,0: the road covers -1,0 0,0 1,0 2,0: 4 tiles = 4 points, the thief goes
    home."""
    state = new()
    turn(state, "U 1,0 0 road E", RED)
    assert turn(state, "W 2,0 0", BLUE) == []
    events = turn(state, "W -1,0 0", RED)
    assert scored(events) == [("road", [4, 0])]
    assert events[0][4] == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert state.points == [4, 0] and state.followers == [7, 7]


def test_unfinished_road_scores_one_per_tile_at_the_end() -> None:
    """Final scoring (road, incomplete: 1 per tile). Red's thief on the start road, extended by two
    U: 0,0 1,0 2,0 = 3 tiles = 3 points."""
    state = bag_game({"U": 2})
    turn(state, "U 1,0 0 road E", RED)
    events = turn(state, "U 2,0 0", BLUE)
    assert state.is_terminal()
    assert scored(events, "final") == [("road", [3, 0])]
    assert state.scores() == [3, 0]


def test_a_loop_of_road_is_complete_and_counts_each_tile_once() -> None:
    """Scoring (road: 1 per tile, research 1: "JCZ counts distinct tile positions"): four curves
    closed into a ring have no end: complete at the fourth, 4 tiles = 4 points for blue's thief."""
    state = new()
    turn(state, "U 1,0 0", RED)
    turn(state, "V 1,-1 270 road E", BLUE)
    turns(state, "V 2,-1 0", "V 1,-2 180")
    events = turn(state, "V 2,-2 90", RED)
    assert scored(events) == [("road", [0, 4])]


# -- cities ----------------------------------------------------------------------------------------


def test_completed_city_two_per_tile_and_two_per_pennant() -> None:
    """Scoring (city, completed: 2 per tile + 2 per pennant). The start city, an F turned 90 (city
    north-south with a pennant) and an E closing it: 3 tiles + 1 pennant = 2 x 4 = 8 points."""
    state = new()
    turn(state, "F 0,1 90 city N", RED)
    events = turn(state, "E 0,2 180", BLUE)
    assert scored(events) == [("city", [8, 0])]
    assert state.points == [8, 0] and state.followers == [7, 7]


def test_unfinished_city_one_per_tile_and_one_per_pennant_at_the_end() -> None:
    """Final scoring (city, incomplete: 1 per tile + 1 per pennant): the start city and the F with
    its pennant, open to the north: 2 tiles + 1 pennant = 3 points."""
    state = bag_game({"F": 1, "U": 1})
    turn(state, "F 0,1 90 city N", RED)
    events = turn(state, "U 1,0 0", BLUE)
    assert scored(events, "final") == [("city", [3, 0])]
    assert state.scores() == [3, 0]


def test_small_city_scores_four_or_two_with_the_option() -> None:
    """Scoring, option small_city (research 3, rule history: a completed city of exactly 2 tiles
    scored 2 in the early first-edition rules, 4 since; JCloisterZone's tiny-city-scoring). The start
    city closed by an E: 2 tiles = 2 x 2 = 4 points, or 1 x 2 = 2 with small_city=2."""
    for option, points in ((4, 4), (2, 2)):
        state = new(small_city=option)
        events = turn(state, "E 0,1 180 city S", RED)
        assert scored(events) == [("city", [points, 0])], option


def test_small_city_option_changes_only_cities_of_two_tiles() -> None:
    """Scoring, option small_city=2: a city of 3 tiles still scores 2 per tile and pennant (the F
    city above: 8), and an unfinished city of 2 tiles 1 per tile at the end as always (2)."""
    state = new(small_city=2)
    turn(state, "F 0,1 90 city N", RED)
    assert scored(turn(state, "E 0,2 180", BLUE)) == [("city", [8, 0])]
    state = bag_game({"G": 1, "U": 1}, small_city=2)
    turn(state, "G 0,1 90 city N", RED)  # the start city and a G (no pennant), open to the north
    assert scored(turn(state, "U 1,0 0", BLUE), "final") == [("city", [2, 0])]


def test_majority_takes_the_city() -> None:
    """Scoring ("Majority: player(s) with most followers on the feature score full points").
    Three knights claim three separate parts of one city, which tiles later join: red at 0,1 (R
    turned 180, the start's city), blue at 2,1, red at -2,1 (E tiles). The F at 1,1 joins red's and
    blue's parts; the G at -1,1 closes it: -2,1 -1,1 0,1 0,0 1,1 2,1 = 6 tiles + 1 pennant (F):
    2 x 7 = 14 to red (2 knights against 1), 0 to blue. All three knights go home."""
    state = new()
    turns(state, "R 0,1 180 city E", "U 1,0 0", "U 2,0 0", "E 2,1 270 city W")
    turns(state, "U -1,0 0", "U -2,0 0", "E -2,1 90 city E", "F 1,1 0")
    assert state.followers == [5, 6]
    events = turn(state, "G -1,1 0", RED)
    assert scored(events) == [("city", [14, 0])]
    assert events[0][4] == [(-2, 1), (-1, 1), (0, 0), (0, 1), (1, 1), (2, 1)]
    assert state.followers == [7, 7] and state.points == [14, 0]


def test_tied_majority_each_score_in_full() -> None:
    """Scoring ("tied players each score full points"), with three players: red's, blue's and
    green's knights on three parts of the city above, joined and closed: 1 knight each, so each
    scores the full 2 x (6 tiles + 1 pennant) = 14."""
    state = new(players=3)
    turns(state, "R 0,1 180 city E", "U 1,0 0", "U -1,0 0")
    turns(state, "U 2,0 0", "E 2,1 270 city W", "U -2,0 0")
    turns(state, "F 1,1 0", "U 3,0 0", "E -2,1 90 city E")
    assert state.followers == [6, 6, 6]
    events = turn(state, "G -1,1 0", RED)
    assert scored(events) == [("city", [14, 14, 14])]
    assert state.points == [14, 14, 14] and state.followers == [7, 7, 7]


def test_tied_road_two_thieves_each_score() -> None:
    """Scoring (ties): red's thief on the start road (1,0) and blue's on a road below it (1,-1) are
    joined by two curves at 2,-1 and 2,0, then closed by junctions at -1,0 and 0,-1: -1,0 0,0 1,0
    2,0 2,-1 1,-1 0,-1 = 7 tiles: 7 points each."""
    state = new()
    turns(state, "U 1,0 0 road E", "U 1,-1 0 road E", "V 2,-1 90", "V 2,0 0", "W -1,0 0")
    events = turn(state, "W 0,-1 0", BLUE)
    assert scored(events) == [("road", [7, 7])]
    assert state.followers == [7, 7]


def test_players_tied_with_the_most_points_share_the_victory() -> None:
    """End of the game ("players tied with the most points share the victory"); ruling C-tie-win.
    Three players, a bag of three U: red's thief on the start road (U at 1,0), blue's on a road
    below it (U at 0,-1), extended by green's U at 1,-1 without a follower. Final scoring: red's
    road 0,0 1,0 = 2, blue's road 0,-1 1,-1 = 2, green 0. Red and blue share the first place: each
    gets the mean of places 1 and 2 (0.5, not a win's 1.0), green the last (-1.0), and no seat is
    the winner."""
    state = bag_game({"U": 3}, players=3)
    turns(state, "U 1,0 0 road E", "U 0,-1 0 road E", "U 1,-1 0")
    assert state.is_terminal()
    assert state.scores() == [2, 2, 0]
    assert state.returns() == [0.5, 0.5, -1.0]
    assert state.winner() is None


# -- cloisters -------------------------------------------------------------------------------------


CLOISTER_RING = ("U -1,0 0", "U 1,0 0", "E -1,-1 270", "E 1,-1 90", "U -1,-2 0", "U 0,-2 0", "U 1,-2 0")


def test_completed_cloister_scores_nine() -> None:
    """Scoring (cloister, completed: itself + 8 neighbours = 9). Red's monk at 0,-1; blue lays the
    eighth neighbour (1,-2): red scores 9 and the monk goes home."""
    state = new()
    turn(state, "B 0,-1 0 cloister", RED)
    before = turns(state, *CLOISTER_RING[:-1])
    assert scored(before) == []
    events = turn(state, CLOISTER_RING[-1], BLUE)
    assert scored(events) == [("cloister", [9, 0])]
    assert state.points == [9, 0] and state.followers == [7, 7]


def test_unfinished_cloister_one_per_tile_of_its_block_at_the_end() -> None:
    """Final scoring (cloister, incomplete: 1 per tile present in its 3x3 block): the cloister and
    0,0 1,0 -1,0 around it: 4 points."""
    state = bag_game({"B": 1, "U": 2})
    turns(state, "B 0,-1 0 cloister", "U 1,0 0", "U -1,0 0")
    assert scored(state.events(), "final") == [("cloister", [4, 0])]
    assert state.scores() == [4, 0]


# -- when scoring happens --------------------------------------------------------------------------


def test_follower_on_a_feature_its_tile_completes_scores_at_once() -> None:
    """Scoring ("deploy ... -> score every feature completed by the placement -> return scored
    followers"): a knight deployed on the E that closes the start city scores it in the same turn
    (2 tiles: 4 points) and is back in the supply before the next turn."""
    state = new()
    events = turn(state, "E 0,1 180 city S", RED)
    assert scored(events) == [("city", [4, 0])]
    assert state.followers == [7, 7] and state.meeples == {}


def test_completed_feature_without_followers_scores_nothing() -> None:
    """Scoring ("A completed feature without a follower scores nothing"): red closes the start city
    with E 0,1 and deploys nobody: no points. No follower may be deployed on it later: it has no
    open side, so no later tile joins it (Placing a tile: a side that touches a tile continues it),
    and a follower goes only on the tile just laid (Deploying a follower). Checked on blue's turn
    for every tile of the bag with a city that fits somewhere, in every place and rotation: no follower
    option is on the closed city (the only city of 0,0 and of 0,1), and the city still covers only
    those two tiles."""
    state = new()
    assert turn(state, "E 0,1 180", RED) == []
    assert state.points == [0, 0]
    closed = state.feature((0, 0), state.turned((0, 0)).segment_named(CITY, "N"))
    assert (sorted(closed.tiles), closed.open, len(closed.meeples)) == ([(0, 0), (0, 1)], 0, 0)
    options_seen = 0
    bag = state.observation()["bag"]
    for tile in (t.id for t in state.cat.types if "C" in t.edges and bag.get(t.id)):
        drawn = state.clone()
        drawn.apply_text(f"draw {tile}")
        if drawn.current_player != BLUE:  # it fits nowhere: discarded
            continue
        for place in drawn.legal_actions():
            placed = drawn.clone()
            placed.apply(place)
            pos = placed.placed
            assert pos is not None
            for option in placed.legal_actions():
                if option.kind != FOLLOWER:
                    continue
                options_seen += 1
                segment = placed.turned(pos).segment_named(option.feature, option.side or option.feature)
                feature = placed.feature(pos, segment)
                assert not (feature.kind == CITY and (0, 1) in feature.tiles), (tile, place, option)
            assert sorted(placed.feature((0, 0), state.turned((0, 0)).segment_named(CITY, "N")).tiles) == [
                (0, 0),
                (0, 1),
            ]
    assert options_seen > 100


def test_scores_accumulate_over_the_game() -> None:
    """Scoring: points add up; the returned follower is used again. Red closes the start city (4),
    then a road of 4 tiles (4): 8."""
    state = new()
    turn(state, "E 0,1 180 city S", RED)
    turn(state, "U 1,0 0", BLUE)
    turn(state, "W 2,0 0 road W", RED)
    turn(state, "V 0,2 90", BLUE)
    events = turn(state, "W -1,0 0", RED)
    assert scored(events) == [("road", [4, 0])]
    assert state.points == [8, 0] and state.scores() == [8, 0]
