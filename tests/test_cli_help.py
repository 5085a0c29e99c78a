"""``regalia --help`` lists each command's description as one paragraph wrapped to the terminal
(issue 20, item 16: ``balance`` and ``fit`` were broken mid-line where their docstrings broke)."""

from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

from regalia.cli import app


def _command_rows(output: str) -> list[tuple[str, str]]:
    """The Commands panel as (name, description part) per line."""
    panel = output.split("Commands", 1)[1].split("╰", 1)[0]
    rows = []
    for line in panel.splitlines()[1:]:
        if not line.startswith("│"):
            continue
        inner = line.strip("│")[1:]
        rows.append((inner[:9].strip(), inner[9:].rstrip()))
    return rows


@pytest.mark.parametrize("width", [80, 120])
def test_command_descriptions_wrap_only_where_the_line_is_full(width: int) -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    rows = _command_rows(result.output)
    names = [name for name, _ in rows if name]
    assert {"balance", "fit", "arena", "play"} <= set(names)
    room = max(len(text) for _, text in rows)
    for (name, text), (next_name, next_text) in itertools.pairwise(rows):
        if next_name:  # the next line starts another command
            continue
        first_word = next_text.split()[0]
        assert len(text.rstrip()) + 1 + len(first_word) > room, f"{name or '...'}: broke after {text!r}"


def test_balance_and_fit_read_as_one_sentence() -> None:
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "400"})
    rows = _command_rows(result.output)
    text = {name: desc.strip() for name, desc in rows if name}
    assert all(name in text for name in ("balance", "fit"))
    assert [n for n, _ in rows].count("") == 0  # at 400 columns every description is one line
