"""The random-game benchmark (regalia.bench): output keys and shape only, never timings."""

from __future__ import annotations

import pytest

from regalia.bench import TIMING_STRIDE, bench_random_games


def test_bench_random_games_keys_and_shape() -> None:
    result = bench_random_games("two-heirs", games=2, seed=7)
    assert {"games_per_s", "legal_actions_us", "games", "plies_per_game", "game", "options"} <= set(result)
    assert result["games"] == 2
    assert result["plies_per_game"] > result["chance_per_game"] > 0
    # legal_actions() is timed at one seat decision in TIMING_STRIDE (chance's plies are not decisions)
    decisions = round((result["plies_per_game"] - result["chance_per_game"]) * 2)
    assert decisions // TIMING_STRIDE - 2 <= result["legal_actions_calls"] <= decisions // TIMING_STRIDE
    assert isinstance(result["legal_actions_us"], float)


def test_bench_plays_the_engine_loops_random_games() -> None:
    """The timed games are :func:`regalia.core.loop.playout`'s for seeds ``seed + i`` (nothing of the
    benchmark's between the plies); the untimed replay that times ``legal_actions()`` plays the same
    games (in the Royal Court chance acts once a game: it picks the first player)."""
    import random

    from regalia.core.loop import playout
    from regalia.core.registry import load_game

    game = load_game("royal-court")
    result = bench_random_games("royal-court", games=3, seed=4)
    plies = [playout(game.new_state(4 + i), random.Random(4 + i)).ply for i in range(3)]
    assert result["plies_per_game"] == round(sum(plies) / 3, 2)
    assert result["chance_per_game"] == 1.0


def test_bench_passes_options() -> None:
    result = bench_random_games("two-heirs", games=1, seed=1, roads=False)
    assert result["options"]["roads"] is False


def test_bench_needs_one_game() -> None:
    with pytest.raises(ValueError):
        bench_random_games("two-heirs", games=0)


def test_bench_command_adds_the_games_own_figures() -> None:
    """``regalia bench`` adds the figures a game's plugin measures (Carcassonne: legal_actions() for a
    drawn tile on 50-tile boards) under ``game_figures``."""
    import json

    import typer
    from typer.testing import CliRunner

    from regalia.commands.bench import register

    app = typer.Typer()
    register(app)
    app.command("noop", hidden=True)(lambda: None)
    result = CliRunner().invoke(app, ["bench", "carcassonne", "-n", "1", "--json", "-o", "shrines=5"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)["game_figures"]
    assert figures["tiles_on_board"] == 50 and figures["boards"] == 100
    assert figures["placements_50_tiles_mean"] > 0 and figures["legal_actions_50_tiles_us"] > 0


def test_bench_env_reports_the_wrappers_rate_beside_the_engines() -> None:
    """``regalia bench GAME --env`` (issue 11): steps per second through the PettingZoo environment
    next to the raw engine's decisions per second, and their ratio (keys and consistency only)."""
    import json

    import typer
    from typer.testing import CliRunner

    from regalia.commands.bench import register

    pytest.importorskip("pettingzoo", reason="--env needs the rl extra")
    app = typer.Typer()
    register(app)
    app.command("noop", hidden=True)(lambda: None)
    result = CliRunner().invoke(
        app, ["bench", "royal-court", "-n", "1", "--json", "--env", "--env-steps", "50"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["env_steps_per_s"] > 0 and figures["engine_actions_per_s"] > 0
    ratio = figures["engine_actions_per_s"] / figures["env_steps_per_s"]
    assert figures["env_overhead"] == pytest.approx(ratio, rel=0.02)
    assert figures["env_floor_steps_per_s"] > 0
