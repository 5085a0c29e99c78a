"""``regalia play --draws manual``: chance's outcomes typed in by the players, to follow a real box."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from regalia.cli import app
from regalia.core.game import CHANCE
from regalia.core.record import Record, replay

runner = CliRunner()


def invoke(*args: str, input: str) -> object:
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "120", "NO_COLOR": "1"})


def test_manual_draws_are_typed_by_name_number_or_notation_and_recorded(tmp_path: Path) -> None:
    """The first draws of The Two Heirs typed three ways (name alone, notation, menu number) end up
    in the record as chance's plies, in that order."""
    save = tmp_path / "game.json"
    result = invoke(
        "play", "two-heirs", "--vs", "human", "--draws", "manual", "--save", str(save),
        input="white\ndraw W3\n1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert "draws typed in" in result.output  # type: ignore[attr-defined]
    record = Record.load(save)
    assert record.actions == ("first white", "draw W3", "draw W1")
    assert all(player == CHANCE for player, _ in replay(record).actors())


def test_a_draw_that_cannot_happen_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(
        "play", "two-heirs", "--vs", "human", "--draws", "manual", "--save", str(save),
        input="white\nZ9\ndraw Q1\nhint\nquit\n",
    )  # fmt: skip
    out = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 0 and "Traceback" not in out, out  # type: ignore[attr-defined]
    assert "'Z9' is not a possible outcome here" in out
    assert "chance is to act: type what was drawn" in out
    assert json.loads(save.read_text())["actions"] == ["first white"]


def test_undo_takes_back_a_mistyped_draw(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(
        "play", "two-heirs", "--vs", "human", "--draws", "manual", "--save", str(save),
        input="white\nW5\nundo\nW6\nquit\n",
    )  # fmt: skip
    assert "took back: draw W5" in result.output  # type: ignore[attr-defined]
    assert json.loads(save.read_text())["actions"] == ["first white", "draw W6"]


def test_an_unknown_draws_source_is_refused() -> None:
    result = invoke("play", "two-heirs", "--draws", "dice", input="")
    assert result.exit_code != 0  # type: ignore[attr-defined]
    assert "--draws dice: choose one of seed, manual" in result.output  # type: ignore[attr-defined]
