"""N-seat ratings (OpenSkill, Plackett-Luce) in the ladder, beside Bradley-Terry."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ai.toygame import ToyGame
from regalia.core.registry import game_ids
from regalia.lab import run_ladder
from regalia.lab.cli import app
from regalia.lab.play import GameResult
from regalia.lab.ratings import plackett_luce

pytest.importorskip("openskill")


def _game(index: int, agents: tuple[int, ...], returns: list[float]) -> GameResult:
    n = len(agents)
    return GameResult(index, 0, index, agents, [0] * n, returns, 1, [1] * n, [0.0] * n)


def test_plackett_luce_orders_a_consistent_ranking() -> None:
    games = [_game(i, (0, 1, 2), [1.0, 0.0, -1.0]) for i in range(10)]
    skill = plackett_luce(3, games)
    assert skill is not None
    (mu0, s0), (mu1, _s1), (mu2, s2) = skill
    assert mu0 > mu1 > mu2
    assert s0 < 25 / 3 and s2 < 25 / 3  # more games, less uncertainty


def test_plackett_luce_ties_share_a_rank() -> None:
    skill = plackett_luce(3, [_game(i, (0, 1, 2), [1.0, 0.0, 0.0]) for i in range(5)])
    assert skill is not None
    assert skill[1][0] == pytest.approx(skill[2][0]) and skill[0][0] > skill[1][0]
    even = plackett_luce(2, [_game(i, (0, 1), [0.0, 0.0]) for i in range(5)])
    assert even is not None and even[0][0] == pytest.approx(even[1][0])


def test_three_seat_toy_ladder() -> None:
    result = run_ladder(
        ToyGame(players=3), ["random", "greedy", "random"], games=6, bootstrap=20, progress=False
    )
    assert result.skill is not None and len(result.skill) == 3
    doc = result.to_json()["openskill"]
    assert set(doc) == {"random", "greedy", "random#2"}
    for row in doc.values():
        assert row["low"] == pytest.approx(row["mu"] - 2 * row["sigma"])


@pytest.mark.skipif("carcassonne" not in game_ids(), reason="needs carcassonne")
def test_three_player_carcassonne_ladder_rates_greedy_higher() -> None:
    run = CliRunner().invoke(
        app,
        [
            "ladder",
            "carcassonne",
            "-o",
            "players=3",
            "-a",
            "random,greedy,random",
            "-n",
            "4",
            "-w",
            "1",
            "--bootstrap",
            "20",
            "--json",
            "--no-progress",
        ],
    )
    assert run.exit_code == 0, run.output
    doc = json.loads(run.stdout)
    skill = doc["openskill"]
    assert skill["greedy"]["mu"] > skill["random"]["mu"] and skill["greedy"]["mu"] > skill["random#2"]["mu"]
    assert next(iter(skill)) == "greedy"  # ordered by mu - 2 sigma
    assert doc["ratings"]["greedy"]["elo"] > 0  # Bradley-Terry agrees
