"""``regalia check GAME``: the conformance kit (:mod:`regalia.testing`) on a game.

GAME is a registered id, or a game being written that is not registered yet: ``module:Class`` (a
module that can be imported) or ``path/to/file.py:Class`` (``regalia check
examples/pretenders/pretenders.py:Pretenders``), registered under its own id for the run. Without
``-o`` it checks every option set the game's plugin lists; with ``-o`` only that one. The exit code
is 1 when a check fails.

>>> import typer
>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> register(app)
>>> result = CliRunner().invoke(app, ["two-heirs", "--games", "1", "-o", "roads=false"])
>>> result.exit_code, "all" in result.output and "checks passed" in result.output
(0, True)
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from regalia.commands._common import console, game_help, options_from
from regalia.core.errors import UnknownGame
from regalia.core.game import Game
from regalia.core.registry import game_class, register_game
from regalia.testing import CHECKS, check_game, option_sets


def game_from_target(game: str) -> str:
    """The id of the game GAME names: a registered id as it is; ``module:Class`` or
    ``path/to/file.py:Class`` imported (a file by its name, from its folder, as ``python file.py``
    would) and registered under the class's ``id``."""
    if ":" not in game:
        return game
    where, _, name = game.rpartition(":")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise UnknownGame(f"cannot load the game {game}: no file {where}")
        sys.path.insert(0, str(path.resolve().parent))
        where = path.stem
    try:
        cls = getattr(importlib.import_module(where), name)
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(f"cannot load the game {game}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise UnknownGame(f"cannot load the game {game}: {name} is not a Game subclass")
    register_game(cls.id, f"{cls.__module__}:{cls.__qualname__}")
    return cls.id


def check(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME", help=f"{game_help()} Or module:Class, or file.py:Class.")
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Random games per option set.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
) -> None:
    """Check a game against the core contract: random games, notation, chance, JSON, records, views."""
    game_id = game_from_target(game_id)
    game_class(game_id)  # an unknown game fails here, listing the valid ones
    sets = [options_from(option)] if option else option_sets(game_id)
    reports = [check_game(game_id, games=games, seed=seed, **dict(opts)) for opts in sets]
    if as_json:
        typer.echo(json.dumps([r.to_json() for r in reports], indent=1))
    else:
        out = console()
        for report in reports:
            table = Table(title=report.summary().splitlines()[0], title_justify="left", show_header=False)
            table.add_column("check")
            table.add_column("result")
            for name in CHECKS:
                if name in report.failures:
                    table.add_row(name, Text("FAILED: " + "; ".join(report.failures[name]), style="bold red"))
                elif name in report.skipped:
                    table.add_row(name, Text(f"skipped ({report.skipped[name]})", style="dim"))
                else:
                    table.add_row(name, Text("ok", style="green"))
            out.print(table)
    if not all(r.ok for r in reports):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("check")(check)
