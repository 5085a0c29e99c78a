"""Placing a tile and deploying a follower (base game rules as stated in
/work/shared/research/carcassonne.md, section 3 "General rules an engine needs"; the rulebook
shipped with the game, data/rules.md, sections "Drawing a tile", "Placing a tile", "Deploying a
follower"); the order of play.

The start tile D lies at 0,0: city north, road west-east, field south.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE, TERMINAL

from .builders import BLUE, GREEN, RED, bag_game, legal, new, refused, texts, turn, turns

PLACE = "Placing a tile"
DEPLOY = "Deploying a follower"
DRAW = "Drawing a tile"


# -- placing a tile --------------------------------------------------------------------------------


def test_first_tile_goes_where_its_edges_match_the_start_tile() -> None:
    """Placing a tile ("every edge matches neighbours and it touches >= 1 placed tile"): an E (city
    north, fields elsewhere) fits north of the start tile only turned 180 (city to the start's city)
    and south of it turned 90, 180 or 270 (a field towards the start's field); not east or west,
    where the start tile shows a road."""
    state = new()
    state.apply_text("draw E")
    assert texts(state) == ["place E 0,-1 90", "place E 0,-1 180", "place E 0,-1 270", "place E 0,1 180"]


def test_edges_must_match() -> None:
    """Placing a tile: an edge may not face a different edge (city against road or field)."""
    state = new()
    state.apply_text("draw E")
    err = refused(state, "place E 0,1 0", PLACE)
    assert "does not match" in str(err)
    refused(state, "place E 1,0 90", PLACE)  # its city against the start tile's road


def test_every_neighbour_must_match() -> None:
    """Placing a tile: the edges match *every* neighbour. At 1,1 the tile touches U (1,0, field to
    the north) and E (0,1 turned 180, field to the east): an E turned 0 or 90 fits, turned 270 its
    city faces the E's field although its south field matches the U."""
    state = new()
    turns(state, "U 1,0 0", "E 0,1 180")
    state.apply_text("draw E")
    assert legal(state, "place E 1,1 0") and legal(state, "place E 1,1 90")
    refused(state, "place E 1,1 270", PLACE)


def test_the_rotations_that_fit_each_pattern_are_the_edges_matched_one_by_one() -> None:
    """Placing a tile ("every edge matches neighbours"): for every tile type, shrines included, and
    every pattern of edges the neighbours of a free position can show (``.``: no neighbour on that
    side), the rotations the engine finds (from its table, filled a tile at a time) are those whose
    four edges each meet no neighbour or the same edge."""
    import regalia
    from regalia.games.carcassonne.tiles import PATTERNS

    state = regalia.load_game("carcassonne", shrines="6").new_state(seed=0)
    cat = state.cat
    assert len(cat.types) > 24
    for tile in range(len(cat.types)):
        for number, pattern in enumerate(PATTERNS):
            edges = {r: cat.turned(tile, r).edges for r in cat.types[tile].rotations}
            wanted = tuple(
                r for r, e in edges.items() if all(p in (".", e[k]) for k, p in enumerate(pattern))
            )
            assert state.fits(tile, number) == wanted, (tile, pattern)


def test_tile_must_touch_a_tile_by_a_side() -> None:
    """Placing a tile: the tile touches a laid tile by a side; by a corner only (1,1) or not at all
    is refused."""
    state = new()
    state.apply_text("draw B")
    assert "does not touch a tile by a side" in str(refused(state, "place B 1,-1 0", PLACE))
    refused(state, "place B 5,5 0", PLACE)
    assert texts(state) == ["place B 0,-1 0"]


def test_position_must_be_free_and_the_tile_the_one_drawn() -> None:
    """Placing a tile: the tile drawn, on a free position."""
    state = new()
    state.apply_text("draw E")
    assert "holds a tile already" in str(refused(state, "place E 0,0 180", PLACE))
    assert "the tile drawn is E" in str(refused(state, "place U 1,0 0", PLACE))
    refused(state, "pass", PLACE)
    refused(state, "follower city N", PLACE)


def test_a_turn_starts_with_the_draw() -> None:
    """Drawing a tile: chance draws first (a tile of the bag); no second draw in a turn."""
    state = new()
    assert state.current_player == CHANCE
    refused(state, "place E 0,1 180", DRAW)
    refused(state, "pass", DRAW)
    state.apply_text("draw E")
    assert "place it" in str(refused(state, "draw U", DRAW))
    state.apply_text("place E 0,1 180")
    assert "deploy a follower or pass" in str(refused(state, "draw U", DRAW))


def test_a_tile_not_left_in_the_bag_cannot_be_drawn() -> None:
    """Drawing a tile: the bag holds one C; once it is drawn no other C can be."""
    state = new()
    turn(state, "C 0,1 0")
    assert "no tile of that kind" in str(refused(state, "draw C", DRAW))


def test_equivalent_rotations_have_one_notation() -> None:
    """Placing a tile (notation): a straight road turned 180 is the same tile as turned 0, so both
    are written 'place U 1,0 0', and a legal action is listed once."""
    state = new()
    state.apply_text("draw U")
    assert state.action_text(state.parse_action("place U 1,0 180")) == "place U 1,0 0"
    assert texts(state).count("place U 1,0 0") == 1
    assert "place U 1,0 180" not in texts(state)


# -- the discard -----------------------------------------------------------------------------------


def test_unplaceable_tile_is_discarded_and_another_drawn() -> None:
    """Drawing a tile (research 3: "If a drawn tile has no legal placement anywhere it is discarded
    and another is drawn"). Red closes the start's city with an E at 0,1 (turned 180): the free
    positions now need a field (0,2, 1,1, -1,1, 0,-1) or a road (1,0, -1,0) towards a laid tile.
    Blue draws the C (city on all four sides): it fits nowhere, so it is discarded (an event), it
    leaves the bag, and chance draws again for blue: 69 tiles left, C among them no more."""
    state = new()
    turn(state, "E 0,1 180", RED)
    assert state.bag_left == 70
    state.apply_text("draw C")
    assert state.events()[-1][1:] == ("discard", "C")
    assert state.current_player == CHANCE and state.player == BLUE
    assert state.bag_left == 69 and "C" not in state.observation()["bag"]
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert dict((state.action_text(a), p) for a, p in outcomes)["draw U"] == pytest.approx(8 / 69)
    turn(state, "U 1,0 0", BLUE)
    assert state.player == RED


def test_discarding_the_last_tile_ends_the_game() -> None:
    """Drawing a tile / End of the game: when the discarded tile was the last in the bag, the game
    is over at once, with the final scoring. Red's E at 0,1 closes the start's city and red's farmer
    on the E's field touches that completed city: 3 points at the end."""
    state = bag_game({"E": 1, "C": 1})
    turn(state, "E 0,1 180 field Nw", RED)
    state.apply_text("draw C")  # the city tile: every free position needs a road or a field
    assert state.is_terminal() and state.current_player == TERMINAL
    assert [e[1:4] for e in state.events()] == [("discard", "C"), ("final", "field", [3, 0])]
    assert state.scores() == [3, 0] and state.legal_actions() == []


# -- deploying a follower --------------------------------------------------------------------------


def test_follower_only_on_the_tile_just_placed() -> None:
    """Deploying a follower: one follower, on a feature of the tile just laid: U at 1,0 offers its
    road (joined to the start's road, unoccupied), its two fields, or none; not the start tile's
    city."""
    state = new()
    state.apply_text("draw U")
    state.apply_text("place U 1,0 0")
    assert texts(state) == ["follower road E", "follower field Nw", "follower field Es", "pass"]
    assert "no city" in str(refused(state, "follower city N", DEPLOY))


def test_no_follower_on_an_occupied_connected_feature() -> None:
    """Deploying a follower: not on a feature whose connected whole already holds a follower, even
    when the follower stands two tiles away. Red's thief is on the road at 1,0; blue's U at -1,0
    extends that road through the start tile: blue may not deploy on the road, but may on either
    field (nobody is on them)."""
    state = new()
    turn(state, "U 1,0 0 road E", RED)
    state.apply_text("draw U")
    state.apply_text("place U -1,0 0")
    assert "already holds a follower" in str(refused(state, "follower road E", DEPLOY))
    assert texts(state) == ["follower field Nw", "follower field Es", "pass"]


def test_no_follower_left_only_pass() -> None:
    """Deploying a follower ("Followers: 8 per colour, one used on the score track -> 7 followers"):
    with all 7 followers on the board (6 monks and a thief, nothing completed), red may only pass."""
    state = new()
    turns(
        state,
        "B 0,-1 0 cloister",
        "U 1,0 0",
        "B 1,-1 0 cloister",
        "U -1,0 0",
        "B -1,-1 0 cloister",
        "U 2,0 0",
        "B 2,-1 0 cloister",
        "U -2,0 0",
        "A -2,-1 0 cloister",
        "U 3,0 0",
        "A 3,-1 0 cloister",
        "U -3,0 0",
        "U 4,0 0 road E",
        "E 0,1 180",
    )
    assert state.followers == [0, 7]
    state.apply_text("draw V")
    state.apply_text("place V 0,2 90")
    assert texts(state) == ["pass"]
    assert "no follower left" in str(refused(state, "follower road N", DEPLOY))


def test_no_farmers_when_the_option_is_off() -> None:
    """Deploying a follower, option farmers=false (research 3: JCloisterZone's on/off switch; later
    rulebooks present farmers as a supplement): fields take no follower."""
    state = new(farmers=False)
    state.apply_text("draw U")
    state.apply_text("place U 1,0 0")
    assert texts(state) == ["follower road E", "pass"]
    assert "farmers" in str(refused(state, "follower field Nw", DEPLOY))


def test_feature_named_by_its_first_side_clockwise_from_north() -> None:
    """Deploying a follower (notation): a feature is named by its first side clockwise from north
    as the tile lies. M turned 180 at 0,1 has its city on the east and south sides: 'city E'; the
    other side names the same city and is read as 'city E' (issue 20, item 7); a side the city
    does not reach is refused."""
    state = new()
    state.apply_text("draw M")
    state.apply_text("place M 0,1 180")
    assert "follower city E" in texts(state)
    assert state.action_text(state.parse_action("follower city S")) == "follower city E"
    assert "no city at N" in str(refused(state, "follower city N", DEPLOY))


# -- order of play ---------------------------------------------------------------------------------


def test_seat_zero_starts_and_seats_play_in_turn() -> None:
    """Course of the game (ruling C-first-player): seat 0 plays first, then each seat in turn."""
    state = new(players=3)
    assert state.player == RED
    turn(state, "U 1,0 0", RED)
    turn(state, "U 2,0 0", BLUE)
    turn(state, "U 3,0 0", GREEN)
    turn(state, "U -1,0 0", RED)
    assert state.player == BLUE


def test_bag_counts_are_public_and_draws_follow_them() -> None:
    """Drawing a tile (ruling C-open-bag): every viewer sees how many tiles of each type are left
    (players can count them); the order is nobody's: chance draws each type with its share of the
    tiles left. After red's U, 70 tiles: 7 U (7/70), 3 D (3/70)."""
    state = new()
    turn(state, "U 1,0 0", RED)
    views = [state.observation(seat) for seat in (RED, BLUE, None)]
    assert all(v["bag"] == views[0]["bag"] and v["bag_left"] == 70 for v in views)
    assert views[0]["bag"]["U"] == 7
    odds = {state.action_text(a): p for a, p in state.chance_outcomes()}
    assert odds["draw U"] == pytest.approx(7 / 70) and odds["draw D"] == pytest.approx(3 / 70)
    assert sum(odds.values()) == pytest.approx(1)


def test_a_placement_that_names_a_feature_is_refused_as_a_placement() -> None:
    """Placing a tile: an action object built by hand as a legal placement plus a feature is not
    a placement; it is refused under "Placing a tile" (not a shrine rule, shrines being off)."""
    state = new()
    state.apply_text("draw E")
    good = state.parse_action("place E 0,1 180")
    assert state.is_legal(good)
    with pytest.raises(IllegalAction, match=r"names a feature \[Placing a tile\]"):
        state.apply(good._replace(feature="city"))
    assert texts(state) == ["place E 0,-1 90", "place E 0,-1 180", "place E 0,-1 270", "place E 0,1 180"]


def test_two_catalogues_with_one_file_name_keep_their_own_placements(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Placing a tile in a catalogue of one's own (``-o tiles=FILE``): where a tile fits is worked
    out from that catalogue's edges, even when a game of the shipped catalogue (file name
    tiles.json too) ran first in the same process. The user's file lists the types in reverse, so
    a type's index names another tile in each catalogue."""
    import json

    import regalia
    from regalia.core.data import read_package_json

    doc = read_package_json("regalia.games.carcassonne", "data/tiles.json")
    doc["tiles"] = list(reversed(doc["tiles"]))
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    shipped = new()
    for tile in range(len(shipped.cat.types)):  # where every shipped tile fits next to the start
        shipped.placements(tile)
    monkeypatch.chdir(tmp_path)
    mine = regalia.load_game("carcassonne", tiles="tiles.json").new_state(seed=1)
    for letter in ("E", "W", "H"):
        state = mine.clone()
        state.apply_text(f"draw {letter}")
        expected = new()
        expected.apply_text(f"draw {letter}")
        assert texts(state) == texts(expected), letter


def test_a_draw_is_the_one_the_shares_of_the_bag_give() -> None:
    """Drawing a tile: the tile drawn is the outcome the core's State.sample_chance picks from the
    chance outcomes (each tile type's share of the tiles left) with the same random number, so
    records and searches are the same as when the outcomes were listed; here over many draws of
    random games and the draws that end a bag (one tile type left)."""
    import random

    from regalia.core.game import State
    from regalia.core.loop import playout

    state = new()
    seen = last_kinds = 0
    for seed in range(8):
        game = state.game.new_state(seed)
        rng = random.Random(seed)
        while not game.is_terminal():
            if game.current_player == CHANCE:
                for k in range(5):
                    assert game.sample_chance(random.Random(k)) == State.sample_chance(game, random.Random(k))
                seen += 1
                last_kinds += sum(1 for n in game.bag if n) == 1
            playout(game, rng, decisions=1)
    assert seen > 100 and last_kinds > 0


def test_placement_actions_are_made_once_and_the_memo_stays_bounded() -> None:
    """The placements a draw lists are the values ``make_place`` makes, the same objects at the
    next draw, and however many positions a long run's boards reach, the memo of a tile type
    keeps at most ``MEMO_LIMIT`` of them."""
    from regalia.games.carcassonne import actions

    places = tuple(((x, 7), r) for x in range(actions.MEMO_LIMIT + 50) for r in (0, 270))
    made = actions.placed(3, places)
    assert made == tuple(actions.make_place(3, pos, r) for pos, r in places)
    again = actions.placed(3, places[-4:])
    assert all(a is b for a, b in zip(again, made[-4:], strict=True))
    assert len(actions._PLACED[3]) <= actions.MEMO_LIMIT
