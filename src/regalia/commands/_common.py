"""Helpers shared by the sub-commands: consoles, options, seats and prompts.

>>> options_from(["roads=false", "sets=random"])
{'roads': 'false', 'sets': 'random'}
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer

from regalia.core.errors import OptionError
from regalia.core.game import State
from regalia.core.options import parse_option_pairs
from regalia.render.console import console as console  # the commands print on it

#: The game commands use when none is named (``regalia play`` alone).
DEFAULT_GAME = "two-heirs"


def game_help() -> str:
    """The help text of a GAME argument: the registered games."""
    from regalia.core.registry import game_ids

    return f"Game id: {', '.join(game_ids())} (default {DEFAULT_GAME})."


def options_from(pairs: Sequence[str] | None) -> dict[str, str]:
    """``-o NAME=VALUE`` options as a mapping (the game converts and checks the values)."""
    return parse_option_pairs(pairs)


def seat_index(state: State[Any], seat: str) -> int:
    """A seat given by name (``white``) or by number counted from 1 (``1``), checked against the
    game's seats."""
    names = [n.lower() for n in state.seat_names()]
    text = seat.strip().lower()
    if text in names:
        return names.index(text)
    if text.isascii() and text.isdigit() and 1 <= int(text) <= state.num_players:
        return int(text) - 1
    numbers = f"1 to {state.num_players}"
    raise OptionError(f"unknown seat {seat!r}; valid seats: {', '.join(names)} (or {numbers})")


def read_line(prompt: str) -> str | None:
    """One line of input after ``prompt``; ``None`` at the end of the input.

    At a terminal it is ``input()``, so readline gives line editing and history; otherwise
    ``typer.prompt`` (tests and scripts feed stdin).
    """
    if sys.stdin.isatty():
        try:
            return input(f"{prompt}: ")
        except EOFError:
            return None
    try:
        line: str = typer.prompt(prompt, default="", show_default=False)
    except (typer.Abort, EOFError):  # typer.Abort is click's Abort in older typer versions
        return None
    return line
