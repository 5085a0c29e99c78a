"""Each archetype's effect, and "abilities cannot target INACTIVE tiles" for every archetype that
targets (rules: Gameplay 2; the archetypes as adapted in data/archetypes.json)."""

from __future__ import annotations

import pytest

from regalia.core.errors import IllegalAction
from regalia.core.registry import game_plugin
from regalia.games.royal_court.state import NO_TARGET, P_MOVE, P_PLACE, P_PLAY, P_TARGET

from .builders import at, build, piece_of, run, texts

INACTIVE = r"abilities cannot target INACTIVE tiles \[Gameplay 2\]"


# -- Assassin ----------------------------------------------------------------------------------------
def test_assassin_removes_an_opponent_tile_from_the_game() -> None:
    """Assassin: remove one opponent's active tile in play from the game (Gameplay 2)."""
    state = build({"1,0": "blue Spy", "-1,0": "red Joker"})
    run(state, "play Assassin 1,1")
    assert texts(state) == ["remove 1,0"]  # never red's own Joker
    run(state, "remove 1,0")
    spy = piece_of(state.game, "blue Spy")
    assert at(state, "1,0") is None and state.removed >> spy & 1 and not state.zone >> spy & 1
    assert state.phase == P_MOVE


def test_assassin_cannot_target_an_inactive_tile() -> None:
    """Gameplay 2: abilities cannot target INACTIVE tiles (Assassin)."""
    state = build({"1,0": "blue Spy", "1,-1": "blue Joker"}, inactive=["blue Spy"])
    run(state, "play Assassin 1,1")
    assert texts(state) == ["remove 1,-1"]
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("remove 1,0")
    only_inactive = build({"1,0": "blue Spy"}, inactive=["blue Spy"])
    run(only_inactive, "play Assassin 1,1")
    assert only_inactive.phase == P_MOVE  # no target: the ability is not possible


# -- Joker -------------------------------------------------------------------------------------------
def test_joker_moves_one_more_time_and_may_decline() -> None:
    """Joker (rules text): move ONE MORE TIME after you placed it; ruling RC-joker-optional: the
    extra move may be declined with ``pass``."""
    state = build({"1,1": "red Spy"})
    run(state, "play Joker -1,0")
    assert state.phase == P_MOVE and "pass" not in texts(state)
    run(state, "move 1,1 2,1")
    assert state.current_player == 0 and state.phase == P_MOVE and "pass" in texts(state)
    run(state, "move 2,1 3,1")
    assert state.current_player == 1 and at(state, "3,1") == "red Spy"
    declined = build({"1,1": "red Spy"})
    run(declined, "play Joker -1,0", "move 1,1 2,1", "pass")
    assert declined.current_player == 1 and at(declined, "2,1") == "red Spy"


def test_joker_gives_moves_only_and_removes_nothing() -> None:
    """Ruling RC-joker-purpose: "...or when you want to remove an opponent tile as well"
    (Gameplay 3) names a purpose of the extra move, not a removal: after the Joker is played the
    legal actions are moves, then moves and pass, never a remove; the opponent's active tile beside
    it stays in play, active."""
    state = build({"1,1": "red Spy", "1,0": "blue Spy"})
    run(state, "play Joker 2,1")  # beside blue's active Spy
    assert state.phase == P_MOVE
    assert texts(state) and {t.split()[0] for t in texts(state)} == {"move"}
    with pytest.raises(IllegalAction, match=r"must now move one of your tiles .*\[Gameplay 3\]"):
        state.apply_text("remove 1,0")
    run(state, "move 1,1 0,1")
    assert state.current_player == 0 and {t.split()[0] for t in texts(state)} == {"move", "pass"}
    with pytest.raises(IllegalAction, match=r"\[Gameplay 3\]"):
        state.apply_text("remove 1,0")
    run(state, "move 2,1 2,0")
    blue_spy = piece_of(state.game, "blue Spy")
    assert state.current_player == 1 and at(state, "1,0") == "blue Spy" and state.is_active(blue_spy)
    assert state.removed == 0


def test_joker_as_first_tile_gives_no_extra_move() -> None:
    """Gameplay 1: the first tile does not activate, so a first Joker gives one move only."""
    state = build({}, started=(1,))
    run(state, "play Joker 1,1", "move 1,1 1,0")
    assert state.current_player == 1


# -- Spy ---------------------------------------------------------------------------------------------
def test_spy_swaps_with_an_opponent_tile_which_turns_inactive() -> None:
    """Spy: swap squares with an opponent's active tile in play; the affected tile turns
    inactive (Gameplay 2), the Spy stays active."""
    state = build({"0,1": "blue Joker"})
    run(state, "play Spy 4,0", "swap 0,1")
    assert at(state, "0,1") == "red Spy" and at(state, "4,0") == "blue Joker"
    assert not state.is_active(piece_of(state.game, "blue Joker"))
    assert state.is_active(piece_of(state.game, "red Spy"))


def test_spy_cannot_target_an_inactive_tile() -> None:
    """Gameplay 2: abilities cannot target INACTIVE tiles (Spy)."""
    state = build({"0,1": "blue Joker", "0,-1": "blue Bishop"}, inactive=["blue Joker"])
    run(state, "play Spy 4,0")
    assert texts(state) == ["swap 0,-1"]
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("swap 0,1")


# -- Thief -------------------------------------------------------------------------------------------
def test_thief_returns_one_own_and_one_opponent_tile_inactive() -> None:
    """Thief: return one of your other active tiles in play and one opponent's active tile in
    play to their owners' zones, inactive side up (ruling RC-returned-tiles)."""
    state = build({"-1,0": "red Joker", "1,0": "blue Spy"})
    run(state, "play Thief 1,1")
    assert texts(state) == ["return -1,0"]
    run(state, "return -1,0")
    assert texts(state) == ["return 1,0"]
    run(state, "return 1,0")
    joker, spy = piece_of(state.game, "red Joker"), piece_of(state.game, "blue Spy")
    assert state.zone >> joker & 1 and state.zone >> spy & 1
    assert not state.is_active(joker) and not state.is_active(spy)
    assert at(state, "-1,0") is None and at(state, "1,0") is None


def test_thief_needs_both_targets() -> None:
    """Thief (requires_all, ruling RC-ability-mandatory): without one of your other active tiles
    in play the ability is not possible, and the opponent's tile stays."""
    state = build({"1,0": "blue Spy"})
    run(state, "play Thief 1,1")
    assert state.phase == P_MOVE and at(state, "1,0") == "blue Spy"


def test_thief_does_nothing_without_an_opponent_active_tile_in_play() -> None:
    """Gameplay 2, "ACTIVE its ability (if possible)" and ruling RC-ability-mandatory (the Thief
    is ``requires_all``): with one of your other active tiles in play but no opponent's ACTIVE tile
    in play (blue's only tile is inactive), the ability is not possible: your tile stays in play,
    active, and the turn goes on to step 3."""
    state = build({"-1,0": "red Joker", "1,0": "blue Spy"}, inactive=["blue Spy"])
    joker = piece_of(state.game, "red Joker")
    zone = state.zone
    run(state, "play Thief 1,1")
    assert state.phase == P_MOVE and all(t.startswith("move ") for t in texts(state))
    assert at(state, "-1,0") == "red Joker" and state.is_active(joker)
    assert at(state, "1,0") == "blue Spy" and state.zone == zone & ~(1 << piece_of(state.game, "red Thief"))
    assert state.to_json()["last_play"] == "no target"
    # the same position with blue's Spy active: the ability acts
    control = build({"-1,0": "red Joker", "1,0": "blue Spy"})
    run(control, "play Thief 1,1")
    assert control.phase == P_TARGET and texts(control) == ["return -1,0"]


def test_thief_cannot_target_an_inactive_tile() -> None:
    """Gameplay 2: abilities cannot target INACTIVE tiles (Thief, own and opponent's)."""
    board = {"-1,0": "red Joker", "-1,1": "red Spy", "1,0": "blue Spy", "1,-1": "blue Joker"}
    state = build(board, inactive=["red Spy", "blue Spy"])
    run(state, "play Thief 1,1")
    assert texts(state) == ["return -1,0"]
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("return -1,1")
    run(state, "return -1,0")
    assert texts(state) == ["return 1,-1"]
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("return 1,0")


# -- Bishop ------------------------------------------------------------------------------------------
def test_bishop_flips_an_opponent_tile_in_their_zone() -> None:
    """Bishop (ruling RC-bishop): flip one active tile of the opponent's zone to its inactive
    side; played later, it enters inactive and does not activate (Gameplay 1)."""
    state = build({"1,0": "blue Joker"})
    run(state, "play Bishop 1,1")
    assert {t for t in texts(state)} == {
        f"flip {n}"
        for n in (
            "Assassin",
            "Spy",
            "Thief",
            "Bishop",
            "Captain",
            "Wizard",
            "Healer",
            "Diplomat",
            "Courtisan",
        )
    }
    run(state, "flip Assassin", "move 1,1 2,1")
    assassin = piece_of(state.game, "blue Assassin")
    assert state.zone >> assassin & 1 and not state.is_active(assassin)
    run(state, "play Assassin 4,0")
    assert state.phase == P_MOVE  # entered inactive: no target to choose
    assert not state.is_active(assassin)


def test_bishop_cannot_target_an_inactive_tile() -> None:
    """Gameplay 2: abilities cannot target INACTIVE tiles (Bishop: an inactive tile in the zone
    is not a target either), nor tiles in play."""
    state = build({"1,0": "blue Joker"}, inactive=["blue Spy"])
    run(state, "play Bishop 1,1")
    assert "flip Spy" not in texts(state)
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("flip Spy")
    with pytest.raises(IllegalAction, match=r"not a target"):
        state.apply_text("flip 1,0")


# -- Captain -----------------------------------------------------------------------------------------
def test_captain_plays_a_second_tile_without_its_ability() -> None:
    """Captain (ruling RC-captain): play a second tile from your zone at once, by the rules of
    step 1 (Gameplay 1: adjacent); its ability does not activate."""
    state = build({"1,0": "blue Spy"})
    run(state, "play Captain -1,0")
    assert state.phase == P_PLACE and all(t.startswith("place ") for t in texts(state))
    with pytest.raises(IllegalAction, match=r"adjacent to another tile .*\[Gameplay 1\]"):
        state.apply_text("place Assassin 9,9")
    run(state, "place Assassin 1,1")
    assert state.phase == P_MOVE and at(state, "1,0") == "blue Spy"
    assert state.is_active(piece_of(state.game, "red Assassin"))


def test_captain_with_an_empty_zone_does_nothing() -> None:
    """Captain (ruling RC-captain): with no tile left in the zone there is nothing to place (the
    ability is not possible)."""
    names = ["Assassin", "Joker", "Spy", "Thief", "Bishop", "Wizard", "Healer", "Diplomat", "Courtisan"]
    state = build({f"{-1 - i},1": f"red {n}" for i, n in enumerate(names)})
    run(state, "play Captain 1,1")
    assert state.phase == P_MOVE
    assert state.last_play == NO_TARGET  # reported as an ability that had nothing to do
    described = game_plugin("royal-court").describe(state, state.plies()[-1])
    assert described.endswith("its ability has no target (ruling RC-ability-mandatory).")


# -- Wizard ------------------------------------------------------------------------------------------
def test_wizard_moves_a_consort_which_turns_inactive() -> None:
    """Wizard (ruling RC-royals-move): move an active king or queen one square (movement as in
    Gameplay 3); the consort affected turns inactive ("Same happens with the King and Queen",
    Gameplay 2)."""
    state = build({})
    run(state, "play Wizard 1,1")
    assert state.phase == P_TARGET and "consort 0,0 1,0" in texts(state)
    assert "consort 3,0 4,0" not in texts(state)  # would end adjacent to nothing
    run(state, "consort 0,0 1,0")
    assert at(state, "1,0") == "king" and not state.is_active(0)


def test_wizard_cannot_target_an_inactive_consort() -> None:
    """Gameplay 2: the king or queen once affected is inactive and cannot be targeted again."""
    state = build({}, inactive=["king"])
    run(state, "play Wizard 1,1")
    assert texts(state) and all(t.startswith("consort 3,0 ") for t in texts(state))
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("consort 0,0 0,1")


# -- Healer ------------------------------------------------------------------------------------------
def test_healer_returns_an_own_tile_active_and_it_can_activate_again() -> None:
    """Healer (ruling RC-healer): return one of your other active tiles in play to your zone,
    active side up; played again, it activates."""
    state = build({"-1,0": "red Assassin", "4,0": "blue Spy"})
    run(state, "play Healer 1,1")
    assert texts(state) == ["return -1,0"]
    run(state, "return -1,0", "move 1,1 2,1")
    assassin = piece_of(state.game, "red Assassin")
    assert state.zone >> assassin & 1 and state.is_active(assassin)
    run(state, "play Bishop 0,1", "flip Spy", "move 0,1 1,1")  # blue's turn
    run(state, "play Assassin 4,1")
    assert state.phase == P_TARGET and "remove 4,0" in texts(state)


def test_healer_cannot_target_an_inactive_tile() -> None:
    """Gameplay 2: abilities cannot target INACTIVE tiles (Healer: not even your own)."""
    state = build({"-1,0": "red Assassin", "-1,1": "red Spy"}, inactive=["red Assassin"])
    run(state, "play Healer 1,1")
    assert texts(state) == ["return -1,1"]
    with pytest.raises(IllegalAction, match=INACTIVE):
        state.apply_text("return -1,0")
    with pytest.raises(IllegalAction, match=r"cannot target itself"):
        state.apply_text("return 1,1")


# -- Diplomat ----------------------------------------------------------------------------------------
def test_diplomat_chooses_the_opponents_next_tile() -> None:
    """Diplomat (ruling RC-diplomat-courtisan): choose which tile the opponent must play on their
    next turn; the choice turns nothing inactive."""
    state = build({})
    run(state, "play Diplomat 1,1", "force Wizard", "move 1,1 2,1")
    assert state.current_player == 1 and {t.split()[1] for t in texts(state)} == {"Wizard"}
    forced = r"obliges you to play your Wizard \[ruling RC-diplomat-courtisan\]"
    with pytest.raises(IllegalAction, match=forced):
        state.apply_text("play Spy 4,0")
    run(state, "play Wizard 4,0")
    assert state.phase == P_TARGET  # the forced tile keeps its ability
    assert state.forced == (-1, -1)


def test_diplomat_may_name_an_inactive_zone_tile() -> None:
    """Ruling RC-diplomat-courtisan: the Diplomat obliges the player, it does not target the tile,
    so an inactive tile of the zone may be named (it stays inactive and enters so)."""
    state = build({}, inactive=["blue Spy"])
    run(state, "play Diplomat 1,1")
    assert "force Spy" in texts(state)
    run(state, "force Spy", "move 1,1 2,1", "play Spy 4,0")
    assert state.phase == P_MOVE and not state.is_active(piece_of(state.game, "blue Spy"))


# -- Courtisan ---------------------------------------------------------------------------------------
def test_courtisan_blocks_the_opponents_next_ability_only() -> None:
    """Courtisan (ruling RC-diplomat-courtisan): the opponent cannot activate the ability of the
    next tile they play; the one after activates again."""
    state = build({"-1,0": "red Spy", "-1,1": "red Joker"})
    run(state, "play Courtisan 1,1", "move 1,1 2,1")
    assert state.blocked == 0b10
    run(state, "play Assassin 1,-1")
    assert state.phase == P_MOVE and at(state, "-1,0") == "red Spy"
    assert state.blocked == 0
    run(state, "move 1,-1 2,-1", "play Bishop 0,1", "flip Thief", "move 0,1 0,2")
    run(state, "play Spy 4,0")
    assert state.phase == P_TARGET and "swap -1,0" in texts(state)


def test_courtisan_block_is_spent_even_on_a_tile_without_ability() -> None:
    """Courtisan (ruling RC-diplomat-courtisan): the block is spent on the opponent's next tile
    played, whatever it is."""
    state = build({"-1,0": "red Spy"})
    run(state, "play Courtisan 1,1", "move 1,1 2,1", "play Joker 1,-1")
    assert state.phase == P_MOVE and "pass" not in texts(state)  # no extra move: blocked
    run(state, texts(state)[0])
    assert state.current_player == 0 and state.phase == P_PLAY and state.blocked == 0
