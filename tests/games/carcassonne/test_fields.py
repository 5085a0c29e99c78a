"""Farms: fields and farmers (/work/shared/research/carcassonne.md, section 3: "Field (farmers):
never scored during play; 3 per completed city bordering the field", "Field scoring (3rd rules
version, canonical): each field scored on its own ... a city touching several fields can be counted
by each of them (also for the same player)"; data/rules.md, "Final scoring").

The start tile D lies at 0,0: its city north, under it a strip of field (touching the city) north
of the road, and its south field (touching no city). Each game here ends with its bag.
"""

from __future__ import annotations

from .builders import BLUE, RED, bag_game, followers_on_board, scored, turn


def test_field_scores_three_per_completed_city_it_touches() -> None:
    """Final scoring: red's farmer on the field of the E that closes the start city: that field
    touches 1 completed city: 3 points."""
    state = bag_game({"E": 1, "U": 1})
    turn(state, "E 0,1 180 field Nw", RED)
    events = turn(state, "U 1,0 0", BLUE)
    assert scored(events, "final") == [("field", [3, 0])]
    assert state.scores() == [3, 0]


def test_field_touching_an_unfinished_city_scores_nothing_for_it() -> None:
    """Final scoring: only completed cities count. H at 0,1 closes the start city with its southern
    city; its northern city stays open. Red's farmer on H's field touches both: 3 for the completed
    one, 0 for the open one: 3. When the northern city is closed too (by an E at 0,2): 2 x 3 = 6."""
    state = bag_game({"H": 1, "U": 1})
    turn(state, "H 0,1 0 field En", RED)
    assert scored(turn(state, "U 1,0 0", BLUE), "final") == [("field", [3, 0])]
    state = bag_game({"H": 1, "E": 1})
    turn(state, "H 0,1 0 field En", RED)
    assert scored(turn(state, "E 0,2 180", BLUE), "final") == [("field", [6, 0])]


def test_field_touching_no_completed_city_scores_nothing() -> None:
    """Final scoring: a field next to no completed city is worth 0; its farmer just goes home. Red's
    farmer on the start tile's south field (joined by the E at 0,-1, whose own city west stays open)."""
    state = bag_game({"E": 1})
    turn(state, "E 0,-1 270 field Nw", RED)
    assert state.is_terminal()
    assert state.scores() == [0, 0] and scored(state.events(), "final") == []
    assert followers_on_board(state) == [0, 0] and state.followers == [7, 7]


def test_two_fields_touching_the_same_city_each_score_it() -> None:
    """Final scoring (each field on its own; ruling C-fields-same-city): the start city, closed by an
    E, is touched from the south by the start's strip of field (extended by the U at 1,0, red's
    farmer) and from the north by the E's field (blue's farmer). Both fields score it: red 3, blue
    3."""
    state = bag_game({"U": 1, "E": 1})
    turn(state, "U 1,0 0 field Nw", RED)
    events = turn(state, "E 0,1 180 field Nw", BLUE)
    assert scored(events) == []  # the city closes with no knight: nothing during play
    assert sorted(scored(events, "final")) == [("field", [0, 3]), ("field", [3, 0])]
    assert state.scores() == [3, 3]


def test_city_counted_by_several_fields_of_one_player() -> None:
    """Final scoring (research 3: "a city touching several fields can be counted by each of them
    (also for the same player)"; ruling C-city-several-fields): red's farmers on both fields next
    to the start city score it twice: 3 + 3 = 6 (the intermediate rule that counted a city once per
    player would give 3)."""
    state = bag_game({"U": 2, "E": 1})
    turn(state, "U 1,0 0 field Nw", RED)
    turn(state, "U -1,0 0", BLUE)
    events = turn(state, "E 0,1 180 field Nw", RED)
    assert scored(events, "final") == [("field", [3, 0]), ("field", [3, 0])]
    assert state.scores() == [6, 0]


def test_farmers_stay_on_the_board_until_the_end() -> None:
    """Scoring ("return scored followers (farmers stay until the end)"): red's farmer on H's field;
    blue's knight closes H's northern city (2 tiles: 4 to blue, knight home); the farmer stays and
    scores at the end: 2 completed cities = 6."""
    state = bag_game({"H": 1, "E": 1, "U": 1})
    turn(state, "H 0,1 0 field En", RED)
    events = turn(state, "E 0,2 180 city S", BLUE)
    assert scored(events) == [("city", [0, 4])]
    assert state.meeples == {(0, 1): (RED, state.turned((0, 1)).segment_named("field", "En"))}
    assert state.followers == [6, 7]
    events = turn(state, "U 1,0 0", RED)
    assert scored(events, "final") == [("field", [6, 0])]
    assert state.scores() == [6, 4] and state.followers == [7, 7]


def test_farmers_tie_each_score_the_field() -> None:
    """Final scoring (majority; ties score in full): red's farmer on the strip next to the start city
    (via the U at 1,0) and blue's on the field of the E that closes the city are joined by an E at
    1,1 (its field links its south and west sides). One field, one farmer each: it touches the
    completed start city (and the open city of the E at 1,1): 3 each."""
    state = bag_game({"U": 1, "E": 2})
    turn(state, "U 1,0 0 field Nw", RED)
    turn(state, "E 0,1 180 field Nw", BLUE)
    events = turn(state, "E 1,1 0", RED)
    assert scored(events, "final") == [("field", [3, 3])]
