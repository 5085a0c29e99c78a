"""``regalia play`` on the match layer: resign, ``--clock``, and the record's ending in ``regalia replay``."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from regalia.cli import ERROR_EXIT_CODE, app
from regalia.core.record import Record

runner = CliRunner()


def invoke(*args: str, input: str = "") -> Any:
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "120", "NO_COLOR": "1"})


def test_resign_asks_first_then_ends_the_game_lost_by_the_resigner(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(
        "play", "two-heirs", "--vs", "random", "--seed", "1", "--save", str(save),
        input="1\nresign\nno\nresign\nyes\n",
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out, out
    assert "resign: white (you) loses the game. Sure? (yes/no)" in out
    assert "not resigned: the game goes on" in out
    assert "game over: white (you) resigned; blue wins" in out
    record = Record.load(save)
    assert record.ending == {"reason": "resign", "seat": 0}
    assert record.result is not None and record.result["winner"] == 1
    assert record.players == ("human", "random") and len(record.times) == len(record.actions)
    assert record.times[0] is None  # chance's first ply has no time

    shown = invoke("replay", str(save))
    assert shown.exit_code == 0, shown.output
    assert f"white resigned after {len(record.actions)} plies; blue wins" in shown.output
    stepped = invoke("replay", str(save), "--step", "--ply", str(len(record.actions)), input="q\n")
    assert "white resigned after" in stepped.output

    again = invoke("play", "--load", str(save), input="1\n")  # a resigned game stays over
    assert again.exit_code == 0, again.output
    assert "game over: white (you) resigned; blue wins" in again.output
    assert Record.load(save).actions == record.actions


def test_resign_at_one_keyboard_is_for_the_seat_to_act() -> None:
    result = invoke("play", "royal-court", "--vs", "human", "--seed", "2", input="resign\ny\n")
    assert result.exit_code == 0, result.output
    to_act = re.search(r"resign: (\w+) loses the game", result.output)
    assert to_act is not None
    other = {"red": "blue", "blue": "red"}[to_act[1]]
    assert f"game over: {to_act[1]} resigned; {other} wins" in result.output


def test_bad_clocks_are_one_line_and_exit_code_2() -> None:
    for text in ("fast", "move:0", "fischer:x+1", "days:-1"):
        result = invoke("play", "two-heirs", "--clock", text, input="quit\n")
        assert result.exit_code == ERROR_EXIT_CODE, (text, result.output)
        assert f"--clock {text}: time control" in result.stderr
        assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_a_timed_game_shows_the_time_left_at_the_prompt() -> None:
    cases = {"fischer:300+5": r"[45]:\d\d", "move:30": r"0:[23]\d", "days:2": r"(2d 0:00|1d 23:59)"}
    for clock, left in cases.items():
        result = invoke("play", "two-heirs", "--vs", "human", "--seed", "1", "--clock", clock, input="quit\n")
        assert result.exit_code == 0, result.output
        assert f"seed 1 · clock {clock.replace('days:2', 'move:172800')}" in result.output
        assert re.search(rf"(white|blue) · {left} left \(number, move, help\)", result.output), result.output
    untimed = invoke("play", "two-heirs", "--vs", "human", "--seed", "1", input="quit\n")
    assert (
        re.search(r"(white|blue) \(number, move, help\)", untimed.output) and " left " not in untimed.output
    )


def test_a_fallen_flag_ends_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five seconds a turn, and a clock on which each reading is ten seconds after the one before:
    the flag has fallen by the time the move is typed; the move is not played."""
    ticks = itertools.count(0.0, 10.0)
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks))
    save = tmp_path / "game.json"
    result = invoke(
        "play", "two-heirs", "--vs", "human", "--seed", "1", "--clock", "move:5", "--save", str(save),
        input="1\n1\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    fallen = re.search(r"game over: (\w+) ran out of time; (\w+) wins", result.output)
    assert fallen is not None and {fallen[1], fallen[2]} == {"white", "blue"}, result.output
    record = Record.load(save)
    assert record.ending == {"reason": "time", "seat": record.seats.index(fallen[1])}
    assert not [a for a in record.actions if a.startswith("take")]
    assert f"{fallen[1]} lost on time" in invoke("replay", str(save)).output
