"""Heretics and Shrines (/work/shared/rules/heretics-and-shrines.md, footnotes [n]): shrines scored
as cloisters, the placement restriction, the challenge and its resolution, the house rule.

The usual layout, south of the start tile D (0,0):

     y= 0   U(-1,0)   D(0,0)    U(1,0)    U(2,0)
     y=-1   E(-1,-1)  B(0,-1)   SH(1,-1)  E(2,-1)
     y=-2   U(-1,-2)  U(0,-2)   U(1,-2)   U(2,-2)

The cloister B at 0,-1 and the shrine SH at 1,-1 touch by a side. The cloister's own neighbours are
the column x=-1; the shrine's own are the column x=2; 0,0, 1,0, 0,-2 and 1,-2 are shared. U tiles
are laid turned 0 (road west-east), the E at -1,-1 turned 270 (its city faces west), the one at
2,-1 turned 90 (city east): every edge facing the cloister or the shrine is a field.
"""

from __future__ import annotations

import pytest

from regalia.core.errors import OptionError
from regalia.games.carcassonne.state import CarcassonneState

from .builders import (
    BLUE,
    RED,
    bag_game,
    followers_on_board,
    game,
    legal,
    new,
    refused,
    scored,
    texts,
    turn,
    turns,
)

H_PLACE = "Heretics and Shrines: placing a tile"

CLOISTER = "B 0,-1 0"
SHRINE = "SH 1,-1 0"
#: the cloister's own neighbours (not the shrine's), in an order where each touches a laid tile
CLOISTER_OWN = ("U -1,0 0", "E -1,-1 270", "U -1,-2 0")
#: the shrine's own neighbours (not the cloister's), once the shared 1,0 ("U 1,0 0") is laid; the
#: other shared neighbours are 0,-2 and 1,-2 ("U 0,-2 0", "U 1,-2 0"), 0,0 is the start tile
SHRINE_OWN = ("U 2,0 0", "E 2,-1 90", "U 2,-2 0")


def challenge_red_monk_blue_heretic(**options: object) -> CarcassonneState:
    """Red lays the cloister with a monk, blue the shrine next to it with a heretic: a challenge."""
    state = new(shrines="5", **options)
    turn(state, f"{CLOISTER} cloister", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    return state


# -- tiles and options ---------------------------------------------------------------------------


def test_shrine_tiles_go_into_the_bag_with_the_option() -> None:
    """Preparation ("The new land tiles should be mixed in with the other tiles"): shrines=5 adds the
    5 tiles of Count, King & Robber (71 + 5 = 76 in the bag), shrines=6 also the 6th tile of Cult,
    Siege & Creativity (77); off: none (71)."""
    assert new().bag_left == 71
    assert new(shrines="5").bag_left == 76
    assert new(shrines="6").bag_left == 77
    bag = new(shrines="5").observation()["bag"]
    assert {t: bag.get(t, 0) for t in ("SH", "SHC", "SHR", "SHCR", "SHRR", "SHCRR")} == {
        "SH": 1,
        "SHC": 1,
        "SHR": 1,
        "SHCR": 1,
        "SHRR": 1,
        "SHCRR": 0,
    }
    assert new(shrines="6").observation()["bag"]["SHCRR"] == 1


def test_house_rule_needs_shrines() -> None:
    """House Rules: the challenge house rule only means something with shrines in play."""
    with pytest.raises(OptionError, match="challenge_house_rule"):
        game(challenge_house_rule=True)
    assert game(challenge_house_rule=True, shrines="6").options.challenge_house_rule


# -- a shrine is a cloister ------------------------------------------------------------------------


def test_shrine_scores_nine_when_completed_like_a_cloister() -> None:
    """Placing a tile ("Shrines are placed and scored in the same way as a cloister"): a heretic on a
    completed shrine scores 9 (1 for the shrine + 8 for its neighbours) and goes home. No cloister
    is near: blue's shrine at 1,-1 gets its eighth neighbour (2,-2) on red's turn."""
    state = new(shrines="5")
    turn(state, "U 1,0 0", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    assert state.followers == [7, 6]
    events = turns(state, *SHRINE_OWN[:2], "E 0,-1 270", "U 0,-2 0", "U 1,-2 0", SHRINE_OWN[2])
    assert scored(events) == [("shrine", [0, 9])]
    assert state.points == [0, 9] and state.followers == [7, 7]


def test_a_shrine_tile_completing_a_city_or_a_road_scores_it_by_the_normal_rules() -> None:
    """Heretics and Shrines: scoring ("When you complete one or more features (e.g. a monastery, a
    road etc.) by placing a Shrine land tile, it is scored according to the normal rules"), with
    Scoring (city 2 per tile and 2 per pennant, road 1 per tile, the majority scores, followers go
    home). Red lays U 1,0 with a thief on the start road (0,0 1,0); blue lays F 0,1 turned 90 (city
    N-S, pennant) with a knight in the start city (0,0 0,1); red lays W -1,0 (a junction ends the
    road in the west). Blue's SHC 0,2 turned 180 (city S) closes the city: 3 tiles and 1 pennant,
    2 x 3 + 2 x 1 = 8 for blue. Red's SHR 2,0 turned 90 (road W, ending at the shrine) closes the
    road -1,0 0,0 1,0 2,0: 4 tiles x 1 = 4 for red. Neither shrine is complete, neither is
    scored."""
    state = new(shrines="5")
    turns(state, "U 1,0 0 road E", "F 0,1 90 city N", "W -1,0 0")
    assert state.points == [0, 0] and state.followers == [6, 6]
    events = turn(state, "SHC 0,2 180", BLUE)
    assert scored(events) == [("city", [0, 8])]
    assert events[0][4] == [(0, 0), (0, 1), (0, 2)]
    assert state.points == [0, 8] and state.followers == [6, 7]
    events = turn(state, "SHR 2,0 90", RED)
    assert scored(events) == [("road", [4, 0])]
    assert events[0][4] == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert state.points == [4, 8] and state.followers == [7, 7]
    assert state.abbeys == {(0, 2): "shrine", (2, 0): "shrine"}


def test_unfinished_shrine_scores_one_per_tile_of_its_block_at_the_end() -> None:
    """Final Scoring / Placing a tile (scored as a cloister): an unfinished shrine scores 1 for
    itself and 1 per neighbour. Blue's shrine at 1,-1 has 0,0 and 1,0 around it: 1 + 2 = 3."""
    state = bag_game({"U": 1, "SH": 1}, shrines="5")
    turn(state, "U 1,0 0", RED)
    events = turn(state, f"{SHRINE} shrine", BLUE)
    assert state.is_terminal()
    assert scored(events, "final") == [("shrine", [0, 3])]
    assert state.scores() == [0, 3]


def test_follower_on_another_feature_of_a_shrine_tile() -> None:
    """Deploying a follower, footnote [13]: on a shrine tile a follower may go to its city, road or
    field instead of the shrine, or none at all (RGG's added sentence: no change in play). SHC turned
    180 at 0,-1 has its city to the south."""
    state = new(shrines="5")
    state.apply_text("draw SHC")
    state.apply_text("place SHC 0,-1 180")
    assert texts(state) == ["follower city S", "follower field Nw", "follower shrine", "pass"]


# -- the placement restriction ----------------------------------------------------------------------


def test_shrine_may_not_touch_two_cloisters() -> None:
    """Placing a tile [2]: "a shrine may not be placed in such a way that it adjoins several
    cloisters". Cloisters at 0,-1 and 2,-1: the shrine's edges fit at 1,-1 between them, but it
    would touch both; diagonally at 1,-2 it would touch both too. Next to one cloister only (3,-1)
    it may go. (The E at 0,-2 turned 180 shows fields to the north, east and west.)"""
    state = new(shrines="5")
    turns(state, CLOISTER, "U 1,0 0", "U 2,0 0", "B 2,-1 0", "E 0,-2 180")
    state.apply_text("draw SH")
    refused(state, "place SH 1,-1 0", H_PLACE)
    refused(state, "place SH 1,-2 0", H_PLACE)
    assert legal(state, "place SH 3,-1 0")
    positions = {a.pos for a in state.legal_actions()}
    assert (1, -1) not in positions and (1, -2) not in positions


def test_cloister_may_not_touch_two_shrines() -> None:
    """Placing a tile [2] ("and vice versa"): a cloister may not touch several shrines. Shrines at
    0,-1 (SH) and 2,-1 (SHC turned 180, city south): a cloister fits between them at 1,-1 but is
    refused."""
    state = new(shrines="5")
    turns(state, "SH 0,-1 0", "U 1,0 0", "U 2,0 0", "SHC 2,-1 180")
    state.apply_text("draw B")
    refused(state, "place B 1,-1 0", H_PLACE)
    assert legal(state, "place B -1,-1 0")


def test_shrine_may_not_give_a_cloister_a_second_shrine() -> None:
    """Placing a tile [3]: a shrine may not be placed so that a cloister would neighbour several
    shrines. The cloister at 0,-1 has the shrine at 1,-1; a second shrine at -1,-1 touches only
    that one cloister, but would give it a second shrine: refused; at 0,-2 likewise. Away from the
    cloister (2,-1, next to the shrine) it may go: shrines may touch shrines."""
    state = new(shrines="5")
    turns(state, CLOISTER, SHRINE)
    state.apply_text("draw SHC")
    refused(state, "place SHC -1,-1 270", H_PLACE)
    refused(state, "place SHC 0,-2 180", H_PLACE)
    assert legal(state, "place SHC 2,-1 90")


def test_cloister_may_not_give_a_shrine_a_second_cloister() -> None:
    """Placing a tile [3] (the same, the other way round) and [2]'s "vice versa": the shrine at 0,-1
    has the cloister at 1,-1; a cloister at -1,-1 would give it a second one: refused, although the
    new cloister itself would touch one shrine only. Next to the cloister but away from the shrine
    (2,-1) it may go: cloisters may touch cloisters."""
    state = new(shrines="5")
    turns(state, "SH 0,-1 0", "B 1,-1 0")
    state.apply_text("draw A")
    refused(state, "place A -1,-1 0", H_PLACE)
    assert legal(state, "place A 2,-1 0")


def test_one_cloister_and_one_shrine_next_to_a_new_tile_is_allowed() -> None:
    """Placing a tile [2], [3] (research notes: JCloisterZone #182 wrongly refused this): a new
    cloister may touch one shrine and another cloister; a new shrine one cloister and another shrine,
    as long as no building gets two of the other kind."""
    state = new(shrines="5")
    turns(state, CLOISTER, "U 1,0 0", "U 2,0 0", "SH 2,-1 0")
    state.apply_text("draw B")
    assert legal(state, "place B 1,-1 0")  # touches the cloister 0,-1 and the shrine 2,-1
    state = new(shrines="5")
    turns(state, "SH 0,-1 0", "U 1,0 0", "U 2,0 0", "B 2,-1 0")
    state.apply_text("draw SHC")
    assert legal(state, "place SHC 1,-1 180")  # touches the shrine 0,-1 and the cloister 2,-1


def test_without_shrines_no_placement_restriction() -> None:
    """Placing a tile (base game; ruling C-restriction-off): without Heretics and Shrines nothing
    restricts cloisters: a cloister may touch any number of cloisters, and it fits everywhere its
    edges match. Cloisters at 0,-1 and 2,-1: a third fits at 1,-1 between them and below at 1,-2
    (touching both). With shrines in play but none on the board, the placements are the same."""
    placements = []
    for shrines in ("off", "5"):
        state = new(shrines=shrines)
        turns(state, CLOISTER, "U 1,0 0", "U 2,0 0", "B 2,-1 0", "E 0,-2 180")
        state.apply_text("draw B")
        assert legal(state, "place B 1,-1 0") and legal(state, "place B 1,-2 0")
        placements.append(texts(state))
    assert placements[0] == placements[1]


# -- the challenge -------------------------------------------------------------------------------


def test_cloister_completed_first_wins_the_challenge() -> None:
    """The challenge: "The player who finishes his or her feature first scores 9 points, while the
    other player scores nothing. Both followers are then returned". Red's monk (0,-1) next to
    blue's heretic (1,-1); the cloister's last neighbour (1,-2) is laid while the shrine still
    misses 2,0 2,-1 2,-2: red scores 9 (1 + 8 neighbours), blue 0, both followers go home."""
    state = challenge_red_monk_blue_heretic()
    assert state.followers == [6, 6]
    events = turns(state, *CLOISTER_OWN, "U 1,0 0", "U 0,-2 0", "U 1,-2 0")
    assert scored(events) == [("cloister", [9, 0])]
    assert [e[1:] for e in events if e[1] == "challenge"] == [("challenge", "shrine", [BLUE], [(1, -1)])]
    assert state.points == [9, 0]
    assert state.followers == [7, 7] and state.meeples == {}


def test_shrine_completed_first_wins_the_challenge() -> None:
    """The challenge: the heretic's shrine is completed first (its last neighbour 0,-2 laid while
    the cloister misses the column x=-1): blue scores 9 (1 + 8 neighbours), red's monk goes home
    with 0."""
    state = challenge_red_monk_blue_heretic()
    events = turns(state, "U 1,0 0", *SHRINE_OWN, "U 1,-2 0", "U 0,-2 0")
    assert scored(events) == [("shrine", [0, 9])]
    assert [e[2:4] for e in events if e[1] == "challenge"] == [("cloister", [RED])]
    assert state.points == [0, 9] and state.followers == [7, 7]


def test_challenge_loser_scores_nothing_at_the_end_either() -> None:
    """The challenge ("the other player scores nothing") and Final Scoring: the loser's follower is
    home, so its building is unoccupied and scores nothing at the end. Red's cloister loses (the
    shrine completes first); at the end of this bag red has 0 points, blue 9."""
    state = bag_game({"B": 1, "SH": 1, "U": 5, "E": 1}, shrines="5")
    turn(state, f"{CLOISTER} cloister", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    turns(state, "U 1,0 0", *SHRINE_OWN, "U 1,-2 0", "U 0,-2 0")
    assert state.is_terminal()
    assert state.scores() == [0, 9]
    assert scored(state.events(), "final") == []


def test_one_tile_completing_both_lets_both_score() -> None:
    """The challenge, footnote [14]: "If the tile placed completes both the shrine and the cloister,
    no one completed the building first, and both receive the points." Every neighbour but the
    shared 1,-2 is laid first; 1,-2 completes both: red 9 and blue 9, no challenge lost."""
    state = challenge_red_monk_blue_heretic()
    before = turns(state, *CLOISTER_OWN, "U 1,0 0", *SHRINE_OWN, "U 0,-2 0")
    assert scored(before) == []
    events = turn(state, "U 1,-2 0")
    assert sorted(scored(events)) == [("cloister", [9, 0]), ("shrine", [0, 9])]
    assert not [e for e in events if e[1] == "challenge"]
    assert state.points == [9, 9] and state.followers == [7, 7]


def test_challenge_against_your_own_monk() -> None:
    """Deploying a follower, footnotes [7] and [10]: "Challenging your own monk or heretic is also
    possible" (HiG); RGG's text needs no such sentence, as any occupied shrine next to an occupied
    monastery makes a challenge. Red lays the cloister with a monk, blue passes elsewhere, red lays
    the shrine with a heretic: when the cloister completes first red scores 9 for it, and red's
    heretic goes home with 0 (red: 9 points, 7 followers)."""
    state = new(shrines="5")
    turn(state, f"{CLOISTER} cloister", RED)
    turn(state, "U 1,0 0", BLUE)
    turn(state, f"{SHRINE} shrine", RED)
    assert state.followers == [5, 7]
    events = turns(state, *CLOISTER_OWN, "U 0,-2 0", "U 1,-2 0")
    assert scored(events) == [("cloister", [9, 0])]
    assert [e[2:4] for e in events if e[1] == "challenge"] == [("shrine", [RED])]
    assert state.points == [9, 0] and state.followers == [7, 7]


def test_monk_deployed_next_to_a_heretic_challenges_it() -> None:
    """Deploying a follower ("The same is true when a monk is deployed to a cloister directly next
    to a heretic"), footnote [9] (RGG: "the monk must challenge the heretic": no choice, no change
    in play). Blue's heretic is there first; red's monk arrives next to it. The shrine completes
    first: blue 9, red's monk home with 0."""
    state = new(shrines="5")
    turn(state, "U 1,0 0", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    turn(state, f"{CLOISTER} cloister", RED)
    events = turns(state, *SHRINE_OWN, "U 1,-2 0", "U 0,-2 0")
    assert scored(events) == [("shrine", [0, 9])]
    assert [e[2:4] for e in events if e[1] == "challenge"] == [("cloister", [RED])]
    assert state.points == [0, 9]


def test_unresolved_challenge_both_score_as_incomplete_at_the_end() -> None:
    """Final Scoring: "If a challenge has not been resolved by the end of the game, both players
    receive the usual points awarded for incomplete cloisters." The bag ends after one more tile
    (U at -1,0): red's cloister 0,-1 has 3 neighbours (-1,0 0,0 1,-1): 1 + 3 = 4; blue's shrine
    1,-1 has 2 (0,0 0,-1): 1 + 2 = 3."""
    state = bag_game({"B": 1, "SH": 1, "U": 1}, shrines="5")
    turn(state, f"{CLOISTER} cloister", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    events = turn(state, "U -1,0 0")
    assert state.is_terminal()
    assert sorted(scored(events, "final")) == [("cloister", [4, 0]), ("shrine", [0, 3])]
    assert state.scores() == [4, 3]
    assert not [e for e in state.events() if e[1] == "challenge"]


def test_shrine_completed_on_the_turn_it_is_placed_wins() -> None:
    """The challenge ("who can finish his or her building first"): a shrine laid into a hole whose
    8 neighbours are all there is completed at once; the heretic deployed on it finishes first, so
    it wins against the monk placed before. Red's cloister 0,-1 misses the column x=-1; the hole at
    1,-1 is closed by blue's shrine: blue 9, red's monk home with 0."""
    state = new(shrines="5")
    turn(state, f"{CLOISTER} cloister", RED)
    turns(state, "U 0,-2 0", "U 1,-2 0", "U 2,-2 0", "U 1,0 0", "U 2,0 0", "E 2,-1 90")
    events = turn(state, f"{SHRINE} shrine", BLUE)
    assert scored(events) == [("shrine", [0, 9])]
    assert [e[2:4] for e in events if e[1] == "challenge"] == [("cloister", [RED])]
    assert state.points == [0, 9] and state.followers == [7, 7]


def test_heretic_on_the_tile_that_completes_the_cloister_loses_at_once() -> None:
    """The challenge and the order of a turn (deploy, then score; ruling C-challenge-at-once): blue
    lays the shrine as the eighth neighbour of red's cloister and deploys a heretic on it. The
    challenge is laid down, then the tile's scoring finds the cloister completed first: red 9
    (1 + 8), blue's heretic home with 0. With the house rule red also scores the unfinished shrine,
    whose block holds 0,0 1,0 0,-1 0,-2 1,-2: 9 + (1 + 5) = 15."""
    for house, points in ((False, 9), (True, 15)):
        state = new(shrines="5", challenge_house_rule=house)
        turn(state, f"{CLOISTER} cloister", RED)
        turns(state, *CLOISTER_OWN, "U 1,0 0", "U 0,-2 0", "U 1,-2 0")
        events = turn(state, f"{SHRINE} shrine", BLUE)
        assert scored(events) == [("cloister", [points, 0])], house
        assert [e[2:4] for e in events if e[1] == "challenge"] == [("shrine", [BLUE])]
        assert state.points == [points, 0] and state.followers == [7, 7]


def test_no_challenge_without_a_second_follower() -> None:
    """Deploying a follower: a challenge needs a heretic and a monk. Blue lays the shrine next to
    red's monk without a heretic: the cloister completes, red scores 9, nothing else happens."""
    state = new(shrines="5")
    turn(state, f"{CLOISTER} cloister", RED)
    turn(state, SHRINE, BLUE)
    events = turns(state, *CLOISTER_OWN, "U 1,0 0", "U 0,-2 0", "U 1,-2 0")
    assert scored(events) == [("cloister", [9, 0])]
    assert not [e for e in state.events() if e[1] == "challenge"]


def test_follower_on_the_city_of_a_shrine_tile_is_not_a_heretic() -> None:
    """Deploying a follower ("A follower deployed to a shrine is called a heretic"), footnote [13]:
    a knight on the city of a shrine tile is no heretic and takes no part in a challenge. Blue's
    knight on SHC's city (0,-2, city south) next to red's monk: the cloister completes, red scores
    9, blue's knight stays on its open city, and no challenge is lost (with the house rule red
    would wrongly have scored the shrine too: 9 + 1 + 5 neighbours)."""
    for house in (False, True):
        state = new(shrines="5", challenge_house_rule=house)
        turn(state, f"{CLOISTER} cloister", RED)
        turn(state, "SHC 0,-2 180 city S", BLUE)
        events = turns(state, "U -1,0 0", "U 1,0 0", "E -1,-1 270", "E 1,-1 90", "E -1,-2 270", "E 1,-2 90")
        assert scored(events) == [("cloister", [9, 0])], house
        assert not [e for e in state.events() if e[1] == "challenge"], house
        assert state.points == [9, 0]
        assert followers_on_board(state) == [0, 1] and state.meeples[(0, -2)][0] == BLUE


def test_farmer_on_a_cloister_tile_is_not_a_monk() -> None:
    """Deploying a follower ("a monk is deployed to a cloister"): a farmer on the field of a
    cloister tile is no monk. Red's farmer on B's field (0,-1), blue's heretic next to it: the
    shrine completes, blue scores 9 and red's farmer stays (farmers stay until the end)."""
    state = new(shrines="5", challenge_house_rule=True)
    turn(state, f"{CLOISTER} field Nw", RED)
    turn(state, f"{SHRINE} shrine", BLUE)
    events = turns(state, "U 1,0 0", *SHRINE_OWN, "U 1,-2 0", "U 0,-2 0")
    assert scored(events) == [("shrine", [0, 9])]
    assert not [e for e in state.events() if e[1] == "challenge"]
    assert state.meeples == {(0, -1): (RED, 0)} and state.followers == [6, 7]


def test_house_rule_winner_also_scores_the_losers_building() -> None:
    """House Rules: "the winning challenger receives the points for both structures while the loser
    still receives nothing". The loser's building is unfinished, so it is worth what an unfinished
    one is (1 + its neighbours; never 9, hence never 18). The cloister wins when 1,-2 is laid; the
    shrine 1,-1 then has 0,0 1,0 0,-1 0,-2 1,-2 around it: red scores 9 + (1 + 5) = 15, blue 0."""
    state = challenge_red_monk_blue_heretic(challenge_house_rule=True)
    events = turns(state, *CLOISTER_OWN, "U 1,0 0", "U 0,-2 0", "U 1,-2 0")
    assert scored(events) == [("cloister", [15, 0])]
    assert state.points == [15, 0] and state.followers == [7, 7]


def test_house_rule_when_one_tile_completes_both() -> None:
    """House Rules with footnote [14]: when one tile completes both, nobody won a challenge, so each
    scores its own 9 and no more."""
    state = challenge_red_monk_blue_heretic(challenge_house_rule=True)
    turns(state, *CLOISTER_OWN, "U 1,0 0", *SHRINE_OWN, "U 0,-2 0")
    events = turn(state, "U 1,-2 0")
    assert sorted(scored(events)) == [("cloister", [9, 0]), ("shrine", [0, 9])]
