"""``regalia check GAME``: the conformance kit (:mod:`regalia.testing`) on a registered game.

Without ``-o`` it checks every option set the game's plugin lists; with ``-o`` only that one. The
exit code is 1 when a check fails.

>>> import typer
>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> register(app)
>>> result = CliRunner().invoke(app, ["two-heirs", "--games", "1", "-o", "roads=false"])
>>> result.exit_code, "all" in result.output and "checks passed" in result.output
(0, True)
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from regalia.commands._common import console, game_help, options_from
from regalia.core.registry import game_class
from regalia.testing import CHECKS, check_game, option_sets


def check(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=game_help())],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Random games per option set.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
) -> None:
    """Check a game against the core contract: random games, notation, chance, JSON, records, views."""
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
