"""Setup and the three steps of a turn (rules: Setup, Gameplay 1-3)."""

from __future__ import annotations

import pytest

import regalia
from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE
from regalia.core.grid import format_pos, neighbours8
from regalia.core.record import replay
from regalia.games.royal_court.state import P_MOVE, P_PLAY, P_TARGET

from .builders import at, build, influence, piece_of, run, texts


def test_setup_tiles_in_zones_active_and_royals_two_squares_apart() -> None:
    """Setup: each player's 10 tiles in their activation zone, active side up; the king and the
    queen in one row with 2 empty spaces between them."""
    state = regalia.load_game("royal-court").new_state(seed=1)
    assert state.zone_tiles(0) == list(range(10)) and state.zone_tiles(1) == list(range(10))
    assert state.inactive == 0
    assert at(state, "0,0") == "king" and at(state, "3,0") == "queen"
    assert at(state, "1,0") is None and at(state, "2,0") is None
    assert len(state.board) == 2


def test_first_player_is_an_explicit_chance_outcome() -> None:
    """Gameplay ("flip a coin"), ruling RC-first-player: chance chooses the first player, each
    seat with probability 1/2, and the record replays without the seed."""
    state = regalia.load_game("royal-court").new_state(seed=5)
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.notation(a) for a, _ in outcomes] == ["first red", "first blue"]
    assert [p for _, p in outcomes] == [0.5, 0.5]
    state.apply_text("first blue")
    assert state.current_player == 1
    again = replay(state.record())
    assert again.current_player == 1 and again.first == 1


def test_consorts_by_option() -> None:
    """Ruling RC-consorts: red's consort is the king unless ``consort=queen``."""
    assert regalia.load_game("royal-court").consorts == ("king", "queen")
    assert regalia.load_game("royal-court", consort="queen").consorts == ("queen", "king")
    state = build({"0,1": "red Spy", "1,0": "red Joker"}, consort="queen")
    # the king is blue's: red's tiles beside it count against
    assert state.consort_score(1) == -(influence(state, "Spy") + influence(state, "Joker"))
    assert state.consort_score(0) == 0  # nothing beside the queen
    default = build({"0,1": "red Spy", "1,0": "red Joker"})
    assert default.consort_score(0) == influence(state, "Spy") + influence(state, "Joker")


def test_play_adjacent_even_diagonally() -> None:
    """Gameplay 1: a tile played must be adjacent to another tile, even diagonally; the king and
    the queen count."""
    state = build({})
    squares = {t.split()[2] for t in texts(state) if t.startswith("play Assassin")}
    assert "1,1" in squares and "-1,-1" in squares and "4,1" in squares
    assert "5,0" not in squares and "0,2" not in squares
    with pytest.raises(IllegalAction, match=r"adjacent to another tile.*\[Gameplay 1\]"):
        state.apply_text("play Assassin 0,5")


def test_play_onto_an_occupied_square_is_refused() -> None:
    """Gameplay 1: a tile is played onto an empty square."""
    state = build({"1,0": "blue Spy"})
    with pytest.raises(IllegalAction, match=r"not empty \[Gameplay 1\]"):
        state.apply_text("play Assassin 1,0")


def test_play_only_from_your_own_zone() -> None:
    """Gameplay 1: PLAY A TILE from your Activation Area (not one already in play)."""
    state = build({"1,1": "red Assassin"})
    with pytest.raises(IllegalAction, match=r"not in your activation zone \[Gameplay 1\]"):
        state.apply_text("play Assassin 1,-1")


def test_first_tile_of_each_player_does_not_activate() -> None:
    """Gameplay 1: the first tile played by each player will not activate its ability: red's
    first tile, then blue's first tile once red has started, while red's later tiles do."""
    state = build({"1,0": "blue Spy"}, started=())
    run(state, "play Assassin 1,1")
    assert state.phase == P_MOVE  # no target asked: straight to step 3
    assert at(state, "1,0") == "blue Spy"
    # blue's first tile, red having started: an Assassin beside red's active Spy removes nothing
    state = build({"1,0": "red Spy"}, player=1, started=(0,))
    run(state, "play Assassin 2,1")
    assert state.phase == P_MOVE and state.current_player == 1
    assert at(state, "1,0") == "red Spy" and state.is_active(state.board[(1, 0)])
    run(state, "move 2,1 1,1")
    # red's later tile activates against blue's (now started) Assassin
    assert state.current_player == 0 and state.phase == P_PLAY
    run(state, "play Assassin 2,2")
    assert state.phase == P_TARGET and texts(state) == ["remove 1,1"]
    run(state, "remove 1,1")
    assert at(state, "1,1") is None and state.phase == P_MOVE


def test_second_tile_activates() -> None:
    """Gameplay 2: a player's later tiles activate their ability."""
    state = build({"1,0": "blue Spy"})
    run(state, "play Assassin 1,1")
    assert state.phase == P_TARGET and texts(state) == ["remove 1,0"]


def test_tile_enters_on_its_zone_side_and_an_inactive_one_does_not_activate() -> None:
    """Gameplay 1: a tile played enters on the side it had in the zone; an INACTIVE tile stays
    inactive (and its ability does not activate)."""
    state = build({"1,0": "blue Spy"}, inactive=["red Assassin"])
    run(state, "play Assassin 1,1")
    assert not state.is_active(state.board[(1, 1)])
    assert state.phase == P_MOVE and at(state, "1,0") == "blue Spy"
    other = build({"1,0": "blue Spy"})
    run(other, "play Joker 1,1")
    assert other.is_active(other.board[(1, 1)])


def test_steps_in_order_play_first() -> None:
    """Gameplay: on your turn you must 1) play a tile, 2) activate its ability, 3) move, in that
    order: no move before the play, no move while the ability waits for its target."""
    state = build({"1,1": "red Spy", "2,1": "blue Joker"})
    assert state.phase == P_PLAY
    with pytest.raises(IllegalAction, match=r"must first play a tile .*\[Gameplay 1\]"):
        state.apply_text("move 1,1 1,2")
    run(state, "play Assassin 2,2")  # beside blue's active Joker
    assert state.phase == P_TARGET and texts(state) == ["remove 2,1"]
    with pytest.raises(IllegalAction, match=r"chosen with 'remove' \[Gameplay 2\]"):
        state.apply_text("move 1,1 1,2")
    with pytest.raises(IllegalAction, match=r"\[Gameplay 2\]"):
        state.apply_text("play Joker 1,2")
    run(state, "remove 2,1")
    assert state.phase == P_MOVE and state.current_player == 0
    assert texts(state) and all(t.startswith("move ") for t in texts(state))
    with pytest.raises(IllegalAction, match=r"must now move one of your tiles .*\[Gameplay 3\]"):
        state.apply_text("play Joker 1,2")
    run(state, "move 1,1 1,2")
    assert state.current_player == 1 and state.phase == P_PLAY


def test_move_one_square_in_eight_directions_ending_adjacent() -> None:
    """Gameplay 3: move one of your tiles in play one space, diagonally or perpendicularly; it
    must end adjacent to another tile."""
    state = build({"1,1": "red Spy"}, started=(1,))
    run(state, "play Joker -1,0")  # red's first tile: no ability
    moves = {t for t in texts(state) if t.startswith("move 1,1")}
    assert moves == {"move 1,1 0,1", "move 1,1 1,0", "move 1,1 2,0", "move 1,1 2,1"}
    with pytest.raises(IllegalAction, match=r"end adjacent to another tile \[Gameplay 3\]"):
        state.apply_text("move 1,1 1,2")
    with pytest.raises(IllegalAction, match=r"one space .*\[Gameplay 3\]"):
        state.apply_text("move 1,1 1,-1")


def test_move_never_onto_another_tile() -> None:
    """Gameplay 3: under no circumstance a tile can end up on another tile."""
    state = build({"1,0": "red Spy"}, started=(1,))
    run(state, "play Joker 1,1")
    with pytest.raises(IllegalAction, match=r"end up or move over another tile \[Gameplay 3\]"):
        state.apply_text("move 1,0 0,0")


def test_move_only_your_own_tiles_not_the_king_or_queen() -> None:
    """Gameplay 3 and ruling RC-royals-move: you move one of YOUR tiles; the king, the queen and
    the opponent's tiles are not moved by step 3."""
    state = build({"1,0": "blue Spy"}, started=(1,))
    run(state, "play Joker 2,1")
    sources = {t.split()[1] for t in texts(state)}
    assert sources == {"2,1"}
    with pytest.raises(IllegalAction, match=r"the king and queen move only by an ability .*\[Gameplay 3\]"):
        state.apply_text("move 0,0 -1,0")
    with pytest.raises(IllegalAction, match=r"the tile at 1,0 is blue's.*\[Gameplay 3\]"):
        state.apply_text("move 1,0 1,-1")


def test_step_three_is_mandatory() -> None:
    """Ruling RC-move-mandatory: step 3 must be taken when a move exists; no pass."""
    state = build({}, started=(1,))
    run(state, "play Joker 1,1")
    assert "pass" not in texts(state)
    with pytest.raises(IllegalAction, match=r"ruling RC-joker-optional"):
        state.apply_text("pass")


def test_no_possible_move_ends_the_turn() -> None:
    """Ruling RC-no-move: a player with no legal move skips step 3 and the turn passes."""
    walls = {"2,1": "blue Spy", "2,-1": "blue Joker", "1,1": "blue Thief", "1,-1": "blue Bishop"}
    walls.update({"1,0": "blue Captain", "3,1": "blue Wizard", "3,-1": "blue Healer"})
    state = build(walls, started=(1,))
    run(state, "play Assassin 2,0")  # red's first tile, boxed in by the queen and blue's tiles
    assert state.current_player == 1 and state.phase == P_PLAY
    assert state.turn == 1


def test_player_with_an_empty_zone_only_moves() -> None:
    """Ruling RC-empty-zone: a player whose zone is empty at the start of their turn skips steps
    1 and 2 and still moves (step 3); the game goes on while the other has tiles."""
    reds = ["Assassin", "Joker", "Spy", "Thief", "Bishop", "Captain", "Wizard", "Healer", "Diplomat"]
    board = {f"{-1 - i},1": f"red {name}" for i, name in enumerate(reds)}
    state = build(board)
    run(state, "play Courtisan -1,0")  # red's last tile (it blocks blue's next ability)
    run(state, texts(state)[0])
    assert state.current_player == 1 and state.phase == P_PLAY
    run(state, "play Spy 4,0")
    run(state, texts(state)[0])
    assert state.current_player == 0 and state.zone_tiles(0) == []
    assert state.phase == P_MOVE and not state.is_terminal()
    assert texts(state) and all(t.startswith("move ") for t in texts(state))


def test_a_diagonal_move_between_two_tiles_is_not_moving_over_them() -> None:
    """Ruling RC-move-over: a one-square diagonal move passes over no tile, even between two
    tiles that touch its corners."""
    state = build({"0,1": "red Spy", "-1,1": "blue Joker", "0,2": "blue Thief"}, started=(1,))
    run(state, "play Bishop 4,0")  # red's first tile: no ability
    assert "move 0,1 -1,2" in texts(state)
    run(state, "move 0,1 -1,2")
    assert at(state, "-1,2") == "red Spy"


def test_an_inactive_tile_is_moved_as_usual_by_its_owner() -> None:
    """Gameplay 2: a tile turned to its INACTIVE side "can be moved as usual by its owner": step 3
    offers its moves like an active tile's, and it stays inactive where it moves."""
    state = build({"1,1": "red Spy"}, inactive=["red Spy"], started=(1,))
    run(state, "play Joker -1,0")  # red's first tile: no ability, one move
    spy = piece_of(state.game, "red Spy")
    assert not state.is_active(spy)
    moves = {t for t in texts(state) if t.startswith("move 1,1")}
    assert moves == {"move 1,1 0,1", "move 1,1 1,0", "move 1,1 2,0", "move 1,1 2,1"}
    run(state, "move 1,1 2,1")
    assert at(state, "2,1") == "red Spy" and not state.is_active(spy)
    assert state.current_player == 1


def test_a_tile_left_alone_by_another_move_stays_and_moves_only_next_to_a_tile() -> None:
    """Gameplay 3: a tile must end a move adjacent to another tile, "unless it ended there due
    to the movement of the other tiles": moving a tile away may leave another with no neighbour
    (that move is legal), and the lone tile may then only move onto a square adjacent to a tile."""
    state = build({"5,2": "red Spy", "4,1": "red Thief"})
    run(state, "play Joker -1,0")  # the Joker's extra move lets red move twice
    assert state.phase == P_MOVE
    run(state, "move 4,1 4,0")  # the Spy's only neighbour leaves
    assert at(state, "5,2") == "red Spy" and not any(q in state.board for q in neighbours8((5, 2)))
    assert state.current_player == 0 and state.phase == P_MOVE  # the extra move
    assert {t for t in texts(state) if t.startswith("move 5,2")} == {"move 5,2 4,1", "move 5,2 5,1"}
    with pytest.raises(IllegalAction, match=r"end adjacent to another tile \[Gameplay 3\]"):
        state.apply_text("move 5,2 6,2")
    run(state, "move 5,2 5,1")
    assert at(state, "5,1") == "red Spy" and state.current_player == 1


def test_the_king_and_queen_count_as_tiles_and_a_move_may_end_at_a_corner() -> None:
    """Ruling RC-adjacency: "adjacent" (Gameplay 1 and 3) counts the king and the queen as tiles,
    and a touch at a corner, for a move as for a play ("even diagonally"). From a new game, in
    notation: red's first tile may enter on the 16 squares around the king and the queen, no
    other; the Spy at 1,1 touches only the king, at a corner, and may move beside the king (0,1,
    1,0), beside the queen (2,0) or to the queen's corner (2,1), not to 1,2 (touching nothing).
    Blue's Joker enters at the queen's corner (4,-1). Red's Joker at 2,2 may move to 3,2 or 1,2,
    touching only the Spy (2,1) at a corner, not to 2,3."""
    state = regalia.load_game("royal-court").new_state(seed=1)
    run(state, "first red")
    around = {format_pos(q) for q in (*neighbours8((0, 0)), *neighbours8((3, 0)))}
    assert len(around) == 16 and {t.split()[2] for t in texts(state)} == around
    run(state, "play Spy 1,1")  # red's first tile: no ability, one move
    assert set(texts(state)) == {"move 1,1 0,1", "move 1,1 1,0", "move 1,1 2,0", "move 1,1 2,1"}
    with pytest.raises(IllegalAction, match=r"end adjacent to another tile \[Gameplay 3\]"):
        state.apply_text("move 1,1 1,2")
    run(state, "move 1,1 2,1")
    assert at(state, "2,1") == "red Spy" and state.current_player == 1
    run(state, "play Joker 4,-1", "move 4,-1 4,0")  # blue's first tile
    run(state, "play Joker 2,2")  # red's second tile: the Joker's extra move
    moves = {t for t in texts(state) if t.startswith("move 2,2")}
    assert moves == {"move 2,2 3,2", "move 2,2 3,1", "move 2,2 1,1", "move 2,2 1,2"}
    with pytest.raises(IllegalAction, match=r"end adjacent to another tile \[Gameplay 3\]"):
        state.apply_text("move 2,2 2,3")
    run(state, "move 2,2 3,2")
    assert at(state, "3,2") == "red Joker" and state.phase == P_MOVE and state.current_player == 0
