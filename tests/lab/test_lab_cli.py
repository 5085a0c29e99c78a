"""``regalia arena`` and ``regalia ladder``: output, JSON and errors (exit code 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regalia.core.registry import game_ids
from regalia.lab.cli import app

runner = CliRunner()
GAME = game_ids()[0]


def test_arena_json() -> None:
    result = runner.invoke(
        app,
        ["arena", GAME, "--agents", "greedy,random", "-n", "4", "--workers", "1", "--json", "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 4
    assert set(doc["wins"]) == {"greedy", "random"}
    assert {"draws", "first_seat_win_rate"} <= set(doc)


def test_arena_table_and_out(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["arena", GAME, "-a", "random,random", "-n", "2", "-w", "1", "--out", str(tmp_path), "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    assert "random#2" in result.stdout
    assert (tmp_path / "report.md").exists()


def test_ladder_json() -> None:
    result = runner.invoke(
        app,
        [
            "ladder",
            GAME,
            "-a",
            "random,greedy",
            "-n",
            "2",
            "-w",
            "1",
            "--json",
            "--no-progress",
            "--bootstrap",
            "20",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc["ratings"]) == {"random", "greedy"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["arena", "nope", "-a", "random,random"], ["unknown game", GAME]),
        (["arena", GAME, "-a", "random,robot"], ["unknown agent", "random, greedy, mcts"]),
        (["arena", GAME, "-a", "mcts:godlike,random"], ["unknown level", "easy, medium, hard"]),
        (["arena", GAME, "-a", "random,random", "--backend", "mpi"], ["unknown backend", "local, ray"]),
        (["arena", GAME, "-a", "random,random", "-o", "nonsense"], ["NAME=VALUE"]),
        (["ladder", GAME, "-a", "random"], ["at least 2 agents", "one per seat"]),
    ],
)
def test_errors_list_valid_choices_and_exit_2(args: list[str], words: list[str]) -> None:
    result = runner.invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr
