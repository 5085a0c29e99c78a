"""The terminal renderer through the plugin: 80x24 without colour, the final result, the menu."""

from __future__ import annotations

import random

from rich.console import Console
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.registry import game_plugin
from regalia.games.royal_court.render.terminal import ROOM

from .builders import build, run


def printed(renderable: object, width: int = 80) -> list[str]:
    console = Console(width=width, no_color=True, record=True)
    console.print(renderable)
    return console.export_text().splitlines()


def test_the_view_fits_80_by_24_without_colour_at_any_point() -> None:
    """The position fits 80x24 with room for the play command's lines, readable without colour."""
    plugin = game_plugin("royal-court")
    assert plugin.render_terminal is not None
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
    state = build({"0,1": "red Spy", "1,0": "blue Joker"}, inactive=["blue Joker", "red Assassin"])
    text = "\n".join(printed(game_plugin("royal-court").render_terminal(state, 0, width=80, height=24)))  # type: ignore[misc]
    for part in ("K:R+", "Q:B+", "RSp+", "BJo-", "As-", "Sp Spy 2 swap", "Co Courtisan 4 seduce"):
        assert part in text, part
    assert "red  king  score  -1" in text and "blue queen score   0" in text


def test_the_result_explains_each_consorts_score() -> None:
    """End game 2: the result lists what counts beside each consort."""
    state = build({"0,1": "red Spy", "1,0": "blue Joker"}, inactive=["red Spy"])
    state._finish("scored")
    lines = printed(game_plugin("royal-court").render_result(state))  # type: ignore[misc]
    assert lines[0].startswith("blue wins 0-0") is False
    assert "red (king): +2+1 -3 = 0" in lines and lines[0].startswith("a draw 0-0")


def test_menu_groups_plays_by_tile_and_describes_plies() -> None:
    """The numbered menu and the ply descriptions come from the plugin."""
    plugin = game_plugin("royal-court")
    state = build({"1,0": "blue Spy"})
    groups = plugin.menu(state, state.legal_actions())  # type: ignore[misc]
    assert len(groups) == 10 and groups[0][0].plain == "play Assassin (1, kill)"
    run(state, "play Assassin 1,1")
    assert "its ability activates" in plugin.describe(state, state.plies()[-1])  # type: ignore[misc]


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
