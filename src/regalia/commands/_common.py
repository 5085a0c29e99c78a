"""Helpers shared by the sub-commands: game packages, consoles, options and seats."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import typer
from rich.console import Console

from regalia.core.data import read_json_file
from regalia.core.errors import OptionError, PositionError, RegaliaError
from regalia.core.game import State
from regalia.core.registry import GAMES, game_class


def game_package(game_id: str) -> str:
    """The package of game ``game_id`` (e.g. ``regalia.games.two_heirs``); unknown ids raise."""
    cls = game_class(game_id)  # raises UnknownGame listing the valid ids
    module = GAMES.get(game_id, cls.__module__).partition(":")[0]
    return module.rpartition(".")[0]


def game_module(game_id: str, name: str) -> ModuleType | None:
    """The module ``name`` of game ``game_id``'s package (``render``, ``calculator``...), or ``None``."""
    full = f"{game_package(game_id)}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name == full:
            return None
        raise


def console() -> Console:
    """A console on the current stdout (created per call, so that test runners can capture it).

    When stdout is not a terminal, the width comes from ``COLUMNS`` or defaults to 120 columns.
    """
    width = None
    if not os.isatty(1) and "COLUMNS" not in os.environ:
        width = 120
    return Console(highlight=False, width=width)


def seat_index(state: State[Any], seat: str) -> int:
    """A seat given by name (``white``) or number (``0``), checked against the game's seats."""
    names = [n.lower() for n in state.seat_names()]
    text = seat.strip().lower()
    if text in names:
        return names.index(text)
    if text.isdigit() and int(text) < state.num_players:
        return int(text)
    raise OptionError(f"unknown seat {seat!r}; valid seats: {', '.join(names)}")


def read_json(path: Path, error: type[RegaliaError] = PositionError) -> Any:
    """The JSON document in ``path``; unreadable or malformed files raise ``error`` naming the file."""
    return read_json_file(path, error=error)


def read_line(prompt: str) -> str | None:
    """One line of input after ``prompt`` (``typer.prompt``, so tests can feed stdin); ``None`` at EOF."""
    try:
        line: str = typer.prompt(prompt, default="", show_default=False)
    except (typer.Abort, EOFError):  # typer.Abort is click's Abort in older typer versions
        return None
    return line
