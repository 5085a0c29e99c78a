"""The end of the game: outright victory (End game 1), scoring (End game 2), the turn cap."""

from __future__ import annotations

import regalia
from regalia.games.royal_court.state import P_MOVE, P_PLAY, RoyalCourtState

from .builders import build, influence, run, texts

ALL = ["Assassin", "Joker", "Spy", "Thief", "Bishop", "Captain", "Wizard", "Healer", "Diplomat", "Courtisan"]


SIDES = {"0,1": "red Spy", "1,0": "red Joker", "-1,0": "red Thief", "4,1": "red Bishop"}


def test_surround_made_in_your_turn_wins_at_your_next_turn() -> None:
    """End game 1: a player who STARTS their turn with their consort surrounded on all four sides
    (perpendicularly) by their own tiles wins outright; completing it during the turn is not yet a
    win."""
    state = build(SIDES)
    run(state, "play Assassin 0,-1")  # the fourth side (no opponent tile to remove)
    assert state.surrounded(0) and not state.is_terminal()
    run(state, "move 4,1 4,0")
    assert state.current_player == 1 and not state.is_terminal()
    run(state, "play Courtisan 4,-1", "move 4,-1 3,-1")
    assert state.is_terminal() and state.ending == "surround"
    assert state.returns() == [1.0, -1.0] and state.winner() == 0


def test_surround_broken_before_your_turn_does_not_win() -> None:
    """End game 1 is checked at the start of a turn only: a surround that does not last until
    then does not win."""
    state = build(SIDES)
    run(state, "play Assassin 0,-1", "move 4,1 4,0")
    run(state, "play Assassin 1,1", "remove 1,0", "move 1,1 1,0")
    assert not state.is_terminal() and state.current_player == 0 and state.phase == P_PLAY
    assert not state.surrounded(0)


def test_outright_victory_is_only_for_the_player_starting_the_turn() -> None:
    """End game 1: a surround of the opponent's consort at the start of MY turn does not end the
    game; it is checked for the player whose turn starts."""
    blue = {"3,1": "blue Spy", "4,0": "blue Joker", "2,0": "blue Thief", "3,-1": "blue Bishop"}
    state = build(blue, player=0, inactive=["blue Spy", "blue Joker"])  # inactive tiles count too
    state._start_turn()
    assert not state.is_terminal() and state.phase == P_PLAY
    state.player = 1
    state._start_turn()
    assert state.is_terminal() and state.winner() == 1


def test_scoring_with_inactive_tokens() -> None:
    """End game 2: your tiles on the four sides of your consort, plus 1 for each of them that is
    inactive, minus the influence of your opponent's tiles beside your consort (ruling
    RC-scoring: an inactive tile keeps its influence; only your own inactive tiles earn +1)."""
    state = build(
        {
            "0,1": "red Bishop",
            "1,0": "red Spy",
            "-1,0": "blue Courtisan",
            "0,-1": "blue Wizard",
            "1,1": "red Joker",
        },
        inactive=["red Spy", "blue Courtisan"],
    )
    # red: Bishop + Spy + token 1 - Courtisan - Wizard (Joker at 1,1 is diagonal: no count)
    bishop, spy, courtisan, wizard = (influence(state, n) for n in ("Bishop", "Spy", "Courtisan", "Wizard"))
    assert state.consort_score(0) == bishop + spy + 1 - courtisan - wizard
    assert state.consort_score(1) == 0


def test_game_ends_when_every_tile_is_played_and_higher_score_wins() -> None:
    """End game 2: once the players have played all their tiles comes the scoring; the higher
    score wins, equal scores draw."""
    reds = {f"{-1 - i},2": f"red {n}" for i, n in enumerate(ALL[:9])}
    blues = {f"{4 + i},1": f"blue {n}" for i, n in enumerate(ALL)}
    state = build({**reds, **blues, "0,1": "red Courtisan"}, player=0)
    state._vacate((0, 1))  # the board and the counts around the square
    state.at[state.game.piece(0, 9)] = None
    state.zone = 1 << state.game.piece(0, 9)
    state._legal = None
    run(state, "play Courtisan 1,0")
    assert state.phase == P_MOVE
    run(state, "move 1,0 0,1")
    assert state.is_terminal() and state.ending == "scored"
    assert state.scores() == [influence(state, "Courtisan"), 0] and state.returns() == [1.0, -1.0]


def test_equal_scores_draw() -> None:
    """End game 2: in case of a tie... a draw."""
    state = build({"0,1": "red Spy", "3,1": "blue Spy"})
    state._finish("scored")
    assert (
        state.scores() == [influence(state, "Spy")] * 2
        and state.returns() == [0.0, 0.0]
        and state.winner() is None
    )


def test_all_tiles_played_means_both_zones_empty_and_returns_reopen_it() -> None:
    """Ruling RC-all-played: the game ends at the end of a turn when both zones are empty; a
    tile that came back to a zone must be played again first."""
    reds = {f"{-1 - i},1": f"red {n}" for i, n in enumerate(["Joker", "Spy", "Bishop", "Captain", "Wizard"])}
    reds.update(
        {f"{-1 - i},-1": f"red {n}" for i, n in enumerate(["Healer", "Diplomat", "Courtisan", "Assassin"])}
    )
    blues = {f"{4 + i},1": f"blue {n}" for i, n in enumerate(ALL)}
    state = build({**reds, **blues}, player=0)
    assert state.zone_tiles(0) == [3] and state.zone_tiles(1) == []
    run(state, "play Thief 1,1", "return -1,1", "return 4,1")  # the last tile brings two back
    assert state.zone_tiles(0) == [1] and state.zone_tiles(1) == [0]
    run(state, texts(state)[0])
    assert not state.is_terminal() and state.current_player == 1 and state.phase == P_PLAY


def test_turn_cap_ends_and_scores_the_game() -> None:
    """Ruling RC-turn-cap: after ``turn_cap`` turns the game ends and is scored as End game 2."""
    state = regalia.load_game("royal-court", turn_cap=10).new_state(seed=3)
    state.apply_text("first red")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.turn == 10 and state.ending == "cap"
    assert state.zone  # tiles were left: it ended by the cap
    # scored as End game 2: each consort's score, the higher one wins
    red, blue = state.consort_score(0), state.consort_score(1)
    assert state.scores() == [red, blue]
    assert red != blue  # this game has a winner, so the sign below is checked
    sign = (red > blue) - (red < blue)
    assert state.returns() == [float(sign), float(-sign)]
    assert state.winner() == (0 if red > blue else 1)


RED_REST = ["Spy", "Bishop", "Wizard", "Healer", "Diplomat", "Courtisan"]
BLUE_REST = ["Assassin", "Joker", "Spy", "Thief", "Captain", "Healer"]
#: Every tile in play but red's Joker: red's three lowest-influence archetypes on three sides of the
#: king (1,0 left open), blue's four highest on the four sides of the queen, the others in two rows.
LAST_TILE = {
    "0,1": "red Assassin",
    "-1,0": "red Thief",
    "0,-1": "red Captain",
    **{f"{-1 - i},2": f"red {n}" for i, n in enumerate(RED_REST)},
    "3,1": "blue Bishop",
    "4,0": "blue Courtisan",
    "2,0": "blue Wizard",
    "3,-1": "blue Diplomat",
    **{f"{4 + i},2": f"blue {n}" for i, n in enumerate(BLUE_REST)},
}


def _surround_then_end(state: RoyalCourtState) -> None:
    """Red plays the Joker at 1,0, the fourth side of the king; moves the Spy at -1,2 (not part
    of the surround) and declines the Joker's extra move: the turn ends with the king surrounded."""
    run(state, "play Joker 1,0")
    assert state.surrounded(0) and state.phase == P_MOVE
    run(state, "move -1,2 -1,1", "pass")
    assert state.surrounded(0)


def test_a_surround_made_with_the_last_tile_is_scored_not_an_outright_victory() -> None:
    """Ruling RC-end-order: End game 2 is checked at the end of the turn, before the next turn's
    End game 1 check. Red's last tile (the Joker at 1,0, with blue's zone already empty) completes
    the surround of the king: the game ends there and is scored, no turn starts, so red's surround
    is no outright victory; blue's four tiles beside the queen outweigh red's and blue wins."""
    state = build(LAST_TILE, player=0)
    assert state.zone_tiles(0) == [1] and state.zone_tiles(1) == []
    _surround_then_end(state)
    assert state.is_terminal() and state.ending == "scored"
    red = sum(influence(state, n) for n in ("Joker", "Assassin", "Thief", "Captain"))
    blue = sum(influence(state, n) for n in ("Bishop", "Courtisan", "Wizard", "Diplomat"))
    assert blue > red  # the position is chosen so the scoring, not the surround, decides
    assert state.scores() == [red, blue]
    assert state.returns() == [-1.0, 1.0] and state.winner() == 1


def test_a_surround_made_on_the_capped_turn_is_scored_not_an_outright_victory() -> None:
    """Ruling RC-end-order: the turn cap is checked at the end of the turn too, before the next
    turn's End game 1 check. The same surround made on the turn that reaches the cap, with a tile
    left in blue's zone (its Healer, so End game 2 does not apply), ends the game by the cap,
    scored: blue wins."""
    board = {k: v for k, v in LAST_TILE.items() if v != "blue Healer"}
    state = build(board, player=0, turn_cap=10)
    state.turn = 9
    assert state.zone_tiles(1) == [7]
    _surround_then_end(state)
    assert state.turn == 10 and state.is_terminal() and state.ending == "cap"
    assert state.scores()[1] > state.scores()[0]
    assert state.returns() == [-1.0, 1.0] and state.winner() == 1


def test_an_opponent_tile_on_one_side_of_the_consort_is_no_outright_victory() -> None:
    """End game 1: the consort must be surrounded by the player's OWN tiles: three own tiles and
    an opponent's tile on the fourth side do not win at the start of the turn (and the game goes
    on); with the fourth side own the same turn start wins."""
    mixed = {"0,1": "red Spy", "1,0": "blue Joker", "-1,0": "red Thief", "0,-1": "red Bishop"}
    state = build(mixed, player=1)
    run(state, "play Courtisan 4,1", "move 4,1 4,0")  # blue's turn, then red's starts
    assert state.current_player == 0 and state.phase == P_PLAY
    assert not state.is_terminal() and not state.surrounded(0)
    own = {**mixed, "1,0": "red Joker"}
    control = build(own, player=1)
    run(control, "play Courtisan 4,1", "move 4,1 4,0")
    assert control.is_terminal() and control.ending == "surround" and control.winner() == 0


def test_no_game_exceeds_the_turn_cap() -> None:
    """Ruling RC-turn-cap: random games never run past the cap (default 60 turns)."""
    import random

    game = regalia.load_game("royal-court")
    for seed in range(40):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            assert state.turn <= game.options.turn_cap
        assert state.turn <= game.options.turn_cap
