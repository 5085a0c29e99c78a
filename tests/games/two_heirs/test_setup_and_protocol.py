"""Setup, course of the game, royal protocol and action A (rules/the-two-heirs.md)."""

from __future__ import annotations

import pytest

import regalia
from regalia.core.errors import IllegalAction, OptionError
from regalia.core.game import CHANCE
from regalia.games.two_heirs.actions import make
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RECOMMENDED_SETS

from .builders import BLUE, WHITE, acts, basic, game, legal, position, refused, texts


# -- Setup -----------------------------------------------------------------------------------
def started(seed: int, **options: object) -> TwoHeirsState:
    """A new game with setup's chance outcomes drawn from ``seed``."""
    s = regalia.load_game("two-heirs", **options).new_state(seed=seed)
    s.advance()
    assert isinstance(s, TwoHeirsState)
    return s


def test_setup_three_recommended_sets_make_27_tiles() -> None:
    """Setup: the default game uses the 3 recommended sets: 27 tiles (6 reserve, 1 start, 20 supply)."""
    s = started(5)
    assert s.sets == RECOMMENDED_SETS
    in_play = [t for t in s.reserve if t >= 0] + list(s.supply) + [s.board[(0, 0)] >> 2]
    assert len(in_play) == len(set(in_play)) == 27
    assert {s.tiles[t].set for t in in_play} == set(RECOMMENDED_SETS)
    assert len(s.supply) == 20
    assert s.hands == [[], []] and s.box == []


def test_setup_royal_reserve_six_tiles_clockwise_from_the_shield() -> None:
    """Setup: the royal reserve is 6 face-up tiles to the right of the shield, 7 positions in all."""
    s = started(5)
    assert len(s.reserve) == 7
    assert s.shield == 0 and s.reserve[0] == -1
    assert all(t >= 0 for t in s.reserve[1:])


def test_setup_starting_landscape_face_down_with_both_elites() -> None:
    """Setup: the start tile lies face down in the middle with both elite units on it."""
    s = started(5)
    assert list(s.board) == [(0, 0)]
    assert s.board[(0, 0)] & 3 == 0  # face down
    assert s.units[0] == s.units[3] == (0, 0)
    assert s.units_in_reserve(WHITE) == s.units_in_reserve(BLUE) == 2


def test_setup_shield_coin_flip_is_seeded() -> None:
    """Setup: the royal shield's coin flip picks the first player, reproducibly from the seed."""
    firsts = {started(n).current_player for n in range(30)}
    assert firsts == {0, 1}
    assert all(started(n).to_json() == started(n).to_json() for n in range(5))


def test_setup_is_chance_in_the_order_of_the_rulebook() -> None:
    """Setup as chance's outcomes: the shield's coin flip, the six reserve tiles, the starting
    landscape, then the colour on the back of the supply's top tile; nothing is drawn before."""
    s = regalia.load_game("two-heirs").new_state(seed=8)
    assert s.current_player == CHANCE and s.supply and s.reserve == [-1] * 7 and not s.board
    assert [a for a, _ in s.chance_outcomes()] == [make("first", 0), make("first", 1)]
    texts_ = [s.action_text(a) for a in s.advance()]
    assert texts_[0] in ("first white", "first blue")
    assert [t.split()[0] for t in texts_[1:]] == ["draw"] * 7 + ["top"]
    assert s.record().actions == tuple(texts_)
    assert COLOURS[s.top] == texts_[-1].split()[1]
    # the top colour is drawn with its share of the supply
    before = regalia.load_game("two-heirs").new_state(seed=8)
    for text in texts_[:-1]:
        before.apply_text(text)
    counts = before.supply_counts()
    assert {before.action_text(a): p for a, p in before.chance_outcomes()} == {
        f"top {COLOURS[c]}": n / 20 for c, n in enumerate(counts) if n
    }


def test_setup_any_three_sets_or_random_sets() -> None:
    """Setup: any 3 of the 6 sets may be chosen; 'random' lets chance pick 3 (20 equally likely)."""
    s = started(1, sets="warfare,crafts,guard")
    tiles = [t for t in s.reserve if t >= 0] + s.supply
    assert {s.tiles[t].set for t in tiles} <= {"warfare", "crafts", "guard"}
    r = regalia.load_game("two-heirs", sets="random").new_state(seed=4)
    assert r.sets == () and not r.supply
    outcomes = r.chance_outcomes()
    assert len(outcomes) == 20 and all(p == pytest.approx(1 / 20) for _, p in outcomes)
    r.advance()
    assert len(set(r.sets)) == 3 and r.record().actions[0].startswith("sets ")
    assert started(4, sets="random").sets == r.sets


def test_a_draw_at_a_real_table_can_be_entered() -> None:
    """Setup and Action A: chance's outcomes may come from a person (a physical draw): they are
    checked against the supply and the colour on the back of its top tile."""
    s = regalia.load_game("two-heirs").new_state()
    acts_ = [
        "first blue",
        "draw W1",
        "draw W2",
        "draw D1",
        "draw D2",
        "draw T1",
        "draw T2",
        "draw D7",
        "top grey",
    ]
    for text in acts_:
        s.apply_text(text)
    assert s.current_player == BLUE and s.tiles[s.reserve[1]].id == "W1"
    assert s.board[(0, 0)] >> 2 == s.game.catalogue.by_id["D7"].index
    s.apply_text("take W1")
    assert s.current_player == CHANCE
    with pytest.raises(IllegalAction, match="the supply's top tile is grey") as info:
        s.apply_text("draw W3")  # a yellow inn, but the back of the top tile showed grey
    assert info.value.rule == "Action A"
    with pytest.raises(IllegalAction, match="W1 is not in the supply"):
        s.apply_text("draw W1")
    with pytest.raises(IllegalAction, match="chance is to act first"):
        s.apply_text("end")
    grey = [s.action_text(a) for a in s.legal_actions()]
    assert grey and all(s.tiles[s.parse_action(t).tile].colour_name == "grey" for t in grey)
    s.apply_text(grey[0])
    assert s.current_player == CHANCE  # the next top colour shows
    s.apply_text("top green")
    assert s.current_player == BLUE and s.top == COLOURS.index("green")


def test_setup_wrong_number_of_sets_is_refused() -> None:
    """Setup: exactly 3 different sets are played."""
    with pytest.raises(OptionError, match="3 different sets"):
        regalia.load_game("two-heirs", sets="warfare,crafts")
    with pytest.raises(OptionError, match="valid sets"):
        regalia.load_game("two-heirs", sets="warfare,crafts,magic")


# -- Course of the game --------------------------------------------------------------------
def test_course_players_alternate_turns() -> None:
    """Course of the game: after a turn ends, the other player plays."""
    s = basic()
    acts(s, "take W1", "end")
    assert s.current_player == BLUE
    acts(s, "take D1", "end")
    assert s.current_player == WHITE


def test_course_actions_in_any_order_build_before_take() -> None:
    """Course of the game: actions A, B and C may be done in any order (build, then take)."""
    s = basic(hands=[["T2"], []], reserve=[None, "T3", "T5", "T1", "W8", "D2", "T9"])
    # T2 farm costs 1 wood + 1 stone: T3 (green) in reach, elite on grey terrain.
    acts(s, "build T2 1,0", "step 0,0 1,0", "take T3", "end")
    assert s.current_player == BLUE


# -- Royal protocol --------------------------------------------------------------------------
def test_protocol_reach_is_one_plus_units_in_reserve() -> None:
    """Royal protocol: reach = 1 + own units in the royal reserve (start: 3)."""
    s = basic()
    assert s.reach(WHITE) == 3
    s2 = basic(board={(1, 0): "T4"}, units=[(0, 0), (1, 0), None, (5, 5), None, None])
    assert s2.reach(WHITE) == 2
    s3 = basic(board={(1, 0): "T4", (1, 1): "T4"}, units=[(0, 0), (1, 0), (1, 1), (5, 5), None, None])
    assert s3.reach(WHITE) == 1 and s3.reach(BLUE) == 3
    assert texts(s3, "take") == ["take W1"]


def test_protocol_tile_beyond_reach_is_refused() -> None:
    """Action A: a tile beyond reach is refused (Royal protocol)."""
    s = basic()
    assert texts(s, "take") == ["take W1", "take D1", "take T3"]
    refused(s, "take W8", "Royal protocol")


def test_protocol_reach_counts_clockwise_and_wraps_round() -> None:
    """Royal protocol: reach is counted clockwise from the shield, round the circle."""
    s = basic(reserve=["W1", "D1", "T3", "W8", "D2", None, "T9"], shield=5)
    assert s.reach_positions(WHITE) == [6, 0, 1]
    assert texts(s, "take") == ["take T9", "take W1", "take D1"]


def test_protocol_withdraw_and_call_change_reach_during_the_turn() -> None:
    """Royal protocol: calling a unit lowers reach, withdrawing raises it, at once."""
    s = basic(board={(1, 0): "T4"})
    acts(s, "call 1,0")
    assert s.reach(WHITE) == 2
    assert texts(s, "take") == ["take W1", "take D1"]
    s = basic(board={(1, 0): "T4", (1, 1): "T4"}, units=[(0, 0), (1, 0), (1, 1), (5, 5), None, None])
    assert s.reach(WHITE) == 1
    acts(s, "withdraw 1,0")
    assert s.reach(WHITE) == 2
    assert texts(s, "take") == ["take W1", "take D1"]


def test_protocol_taking_moves_the_shield_for_the_opponent() -> None:
    """Action A / Royal protocol: after a take, reach counts from the shield's new position."""
    s = basic()
    acts(s, "take T3", "end")  # T3 was at position 3: the shield moves there
    assert s.shield == 3
    assert s.reach_positions(BLUE) == [4, 5, 6]


# -- Action A -----------------------------------------------------------------------------------
def test_action_a_take_into_hand_moves_and_flips_shield_and_refills() -> None:
    """Action A: the tile goes to the hand, the shield moves and flips, the old spot is refilled."""
    s = basic(supply=["T1", "T5"])
    acts(s, "take D1")
    assert [s.tiles[t].id for t in s.hands[WHITE]] == ["D1"]
    assert s.shield == 2 and s.reserve[2] == -1
    assert not s.shield_mine
    assert s.tiles[s.reserve[0]].id == "T5"  # top of the supply refills the shield's old position
    assert [s.tiles[t].id for t in s.supply] == ["T1"]


def test_action_a_only_once_per_turn() -> None:
    """Action A: a second take in the same turn is refused."""
    s = basic()
    acts(s, "take W1")
    refused(s, "take D1", "Action A")


def test_action_a_is_mandatory() -> None:
    """Action A: the turn cannot end before a tile is taken."""
    s = basic()
    refused(s, "end", "Action A")


def test_action_a_tile_not_in_reserve_is_refused() -> None:
    """Action A: only tiles of the royal reserve can be taken."""
    s = basic()
    refused(s, "take C1", "Action A")


def test_action_a_can_be_done_at_the_end_of_the_turn() -> None:
    """Action A: the take may come after other actions (here a move)."""
    s = basic(board={(1, 0): "T4"})
    acts(s, "step 0,0 1,0")
    assert legal(s, "take W1")
    acts(s, "take W1", "end")
    assert s.current_player == BLUE


def test_action_a_last_supply_tile_triggers_the_end() -> None:
    """Action A: taking the tile that empties the supply triggers the end of the game."""
    s = basic(supply=["T5"])
    acts(s, "take W1")
    assert s.supply == [] and s.trigger and not s.final


def test_game_id_and_defaults_roads_on() -> None:
    """Scoring: roads are scored by default (option roads, off for a first game)."""
    assert game().options.roads is True
    assert regalia.load_game("two-heirs", roads=False).options.roads is False
    assert position(roads=False).game.options.roads is False


def test_every_view_shows_the_whole_table() -> None:
    """Ruling R-open-information: both hands, the box, the supply's contents and top colour are
    open to every seat and to a spectator; the views differ only in whose moves they list."""
    s = started(6)
    s.apply(s.legal_actions()[0])
    s.advance()
    views = [s.observation(0), s.observation(1), s.observation(None)]
    for view in views:
        assert view["hands"] == [[s.tiles[t].id for t in h] for h in s.hands]
        assert view["supply"] == sorted(s.tiles[t].id for t in s.supply)
        assert view["supply_top"] == COLOURS[s.top]
        assert view["box"] == []
    strip = [{k: v for k, v in view.items() if k not in ("viewer", "legal")} for view in views]
    assert strip[0] == strip[1] == strip[2]
    mover = s.current_player
    assert views[mover]["legal"] and not views[1 - mover]["legal"]
