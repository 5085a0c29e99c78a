"""The terminal renderer through the plugin: 80x24 without colour, the final result, the menu."""

from __future__ import annotations

import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.errors import NotationError
from regalia.core.grid import format_pos
from regalia.core.registry import game_plugin
from regalia.games.royal_court.render.terminal import ROOM, result_line, status_line

from .builders import FIRST_GUESS, build, run, texts


def printed(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, no_color=True, record=True)
    console.print(renderable)
    return console.export_text().splitlines()


def test_the_view_fits_80_by_24_without_colour_at_any_point() -> None:
    """The position fits 80x24 with room for the play command's lines, readable without colour."""
    plugin = game_plugin("royal-court")
    game = regalia.load_game("royal-court")
    for seed in range(6):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while True:
            lines = printed(plugin.render_terminal(state, 0, width=80, height=24))
            assert max(len(line) for line in lines) <= 80
            assert len(lines) <= 24 - ROOM + 1
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_the_view_shows_royals_consorts_sides_zones_abilities_and_scores() -> None:
    """The board marks the king and queen with whose consort they are, tiles with owner,
    abbreviation and side; both zones; each tile's ability in a word; each consort's score."""
    state = build(
        {"0,1": "red Spy", "1,0": "blue Joker"},
        inactive=["blue Joker", "red Assassin"],
        archetypes=FIRST_GUESS,
    )
    text = "\n".join(printed(game_plugin("royal-court").render_terminal(state, 0, width=80, height=24)))
    for part in ("K:R+", "Q:B+", "RSp+", "BJo-", "As-", "Sp Spy 2 swap", "Co Courtisan 4 seduce"):
        assert part in text, part
    assert "red  king  score  -1" in text and "blue queen score   0" in text


def test_the_result_explains_each_consorts_score() -> None:
    """End game 2: the result lists what counts beside each consort."""
    state = build({"0,1": "red Spy", "1,0": "blue Joker"}, inactive=["red Spy"], archetypes=FIRST_GUESS)
    state._finish("scored")
    lines = printed(game_plugin("royal-court").render_result(state))
    assert "red (king): +2+1 -3 = 0" in lines and lines[0].startswith("a draw 0-0")


def test_menu_groups_plays_by_tile_and_describes_plies() -> None:
    """Step 1: the squares are numbered once (for the zone's first tile) and one line says how to
    play any other tile; the ply descriptions come from the plugin."""
    plugin = game_plugin("royal-court")
    state = build({"1,0": "blue Spy"}, archetypes=FIRST_GUESS)
    groups = plugin.legal_groups(state, state.legal_actions())
    labels = [label.plain for label, _ in groups]
    assert labels[0] == "play As Assassin (1, kill) onto" and set(labels[1:-1]) == {"play As"}
    assert labels[-1] == "other tiles: type one with a square, e.g. Jo 3 or play Joker 1,1"
    assert len(groups) <= 4
    items = [item for _, line in groups for item in line]
    squares = [short for _, short in items]
    assert squares == [format_pos(q) for q in state.play_squares()] and len(squares) == 15
    assert all(state.notation(a) == f"play Assassin {short}" for a, short in items)
    assert groups[-1][1] == []
    run(state, "play Assassin 1,1")
    assert "its ability activates" in plugin.describe(state, state.plies()[-1])


def test_a_single_tile_lists_its_placements() -> None:
    """Under the Diplomat's force (or with one tile left) the numbers are that tile's placements."""
    state = build({"1,0": "blue Spy"}, archetypes=FIRST_GUESS)
    state.forced = (2, -1)
    state._legal = None
    groups = game_plugin("royal-court").legal_groups(state, state.legal_actions())
    assert [label.plain for label, _ in groups][:2] == ["play Sp Spy (2, swap)", "play Sp"]
    assert sorted(state.notation(a) for _, line in groups for a, _ in line) == sorted(texts(state))


def test_every_action_of_other_steps_is_numbered() -> None:
    """Targets, moves and pass: every legal action appears once in the menu."""
    plugin = game_plugin("royal-court")
    game = regalia.load_game("royal-court")
    seen = 0
    for seed in range(4):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player >= 0 and legal[0].kind not in ("play", "place"):
                groups = plugin.legal_groups(state, legal)
                listed = [a for _, items in groups for a, _ in items]
                assert sorted(listed) == sorted(legal)
                seen += 1
            state.apply(legal[rng.randrange(len(legal))])
    assert seen > 50


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Sp 3", "play Spy 1,1"),
        ("sp 1,1", "play Spy 1,1"),
        ("Spy 1", "play Spy -1,1"),
        ("play Sp 3", "play Spy 1,1"),
        ("play Spy 1,1", "play Spy 1,1"),
    ],
)
def test_a_tile_is_typed_with_a_square_number_or_its_square(typed: str, expected: str) -> None:
    """The short forms the menu offers: abbreviation or name, then a square's number or x,y."""
    state = build({"1,0": "blue Spy"})
    assert state.play_squares()[:3] == [(-1, 1), (0, 1), (1, 1)]
    assert state.notation(state.parse_or_raise(typed)) == expected


def test_short_forms_only_while_a_tile_is_played_and_errors_stay_clear() -> None:
    state = build({"1,0": "blue Spy"})
    with pytest.raises(NotationError, match="no square 99; the squares are numbered 1 to 15"):
        state.parse_action("Sp 99")
    run(state, "play Joker 1,1")
    with pytest.raises(NotationError, match="unknown action 'Sp'"):
        state.parse_action("Sp 3")


def test_the_board_numbers_the_squares_like_the_menu() -> None:
    state = build({"1,0": "blue Spy"})
    lines = printed(game_plugin("royal-court").render_terminal(state, 0, width=80, height=24))
    row = next(line for line in lines if line.startswith("  1 "))
    assert row.split()[1:4] == ["[1]", "[2]", "[3]"]  # -1,1 0,1 1,1


def play_lines(moves: str, seed: int = 2, vs: str = "human") -> list[str]:
    result = CliRunner().invoke(
        app,
        ["play", "royal-court", "--vs", vs, "--seed", str(seed)],
        input=moves,
        env={"NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"},
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()


def test_the_step_one_menu_fits_under_the_board_at_80_by_24() -> None:
    """``--vs human`` at 80x24 without colour: each screen (view, plies of the turn, menu, prompt)
    fits 24 lines of 80 columns; a number, a short form, hint and undo work."""
    lines = play_lines("1\nJo 2\nhint\nundo\nquit\n")
    assert max(len(line) for line in lines) <= 80
    screens = "\n".join(lines).split("turn ")
    for screen in screens[1:]:
        assert len(screen.splitlines()) <= 24, screen
    text = "\n".join(lines)
    assert "play Assassin" in text and "play Joker" in text and "hint:" in text and "took back" in text


def test_play_command_against_mcts_runs_in_a_small_terminal() -> None:
    """``regalia play royal-court --vs mcts`` at 80 columns without colour: a move, a hint, undo."""
    result = CliRunner().invoke(
        app,
        ["play", "royal-court", "--vs", "mcts", "--seed", "2"],
        input="1\nhint\nundo\nquit\n",
        env={"NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"},
    )
    assert result.exit_code == 0, result.output
    assert "K:R+" in result.output and "hint:" in result.output and "Traceback" not in result.output


def test_a_move_is_described_from_its_square_to_its_square() -> None:
    """Gameplay 3: the description of ``move A B`` names both squares (it once named B twice)."""
    plugin = game_plugin("royal-court")
    state = regalia.load_game("royal-court").new_state(seed=4)
    for text in ("first blue", "play Courtisan 3,1"):
        state.apply_text(text)
    run(state, "move 3,1 2,0")
    described = plugin.describe(state, state.plies()[-1])
    assert described == "blue moves a tile from 3,1 to 2,0 (Gameplay 3)."


def test_targets_are_described_by_name_and_square() -> None:
    """Gameplay 2: a Diplomat's choice names the tile, a Wizard's move names the king or queen and
    both squares, a Bishop's flip names the opponent's tile."""
    plugin = game_plugin("royal-court")
    state = build({})
    run(state, "play Diplomat 1,1", "force Wizard")
    assert plugin.describe(state, state.plies()[-1]) == (
        "blue must play their Wizard next turn (ruling RC-diplomat-courtisan)."
    )
    state = build({})
    run(state, "play Wizard 1,1", "consort 0,0 1,0")
    assert plugin.describe(state, state.plies()[-1]) == (
        "The king moves from 0,0 to 1,0 and turns inactive (Gameplay 2)."
    )
    state = build({})
    run(state, "play Bishop 1,1", "flip Spy")
    assert plugin.describe(state, state.plies()[-1]) == (
        "blue's Spy turns to its inactive side (Gameplay 2)."
    )


def test_a_draw_below_zero_and_the_status_after_the_end_read_well() -> None:
    """End game 2: equal scores draw, written "-3 to -3" (not "-3--3"); once the game is over the
    status line counts the turns played instead of naming a turn that never came."""
    state = build({"0,1": "blue Spy", "3,1": "red Spy"}, archetypes=FIRST_GUESS)
    state._finish("scored")
    assert state.scores() == [-2, -2]
    assert result_line(state).plain.startswith("a draw -2 to -2:")
    assert status_line(state, None).plain.startswith(f"after {state.turn} turns · a draw")
