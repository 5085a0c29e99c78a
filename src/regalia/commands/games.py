"""``regalia games [GAME]``: the registered games, their seats and every option ``-o`` accepts.

>>> import typer
>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> register(app)
>>> result = CliRunner().invoke(app, ["two-heirs"], env={"COLUMNS": "120"})
>>> result.exit_code, "roads" in result.output, "-o NAME=VALUE" in result.output
(0, True, True)
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from regalia.commands._common import console
from regalia.core.options import type_label
from regalia.core.registry import game_class, game_ids, load_game


def games_command(
    game_id: Annotated[str | None, typer.Argument(metavar="[GAME]", help="A game id (default: all).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the games and options as JSON.")] = False,
) -> None:
    """List the games regalia plays, their seats and their options (for -o NAME=VALUE)."""
    ids = [game_id] if game_id is not None else game_ids()
    docs: list[dict[str, Any]] = []
    for gid in ids:
        cls = game_class(gid)
        game = load_game(gid)
        docs.append(
            {
                "id": gid,
                "name": cls.name,
                "players": [cls.min_players, cls.max_players],
                "seats": game.seat_names(),
                "options": cls.options_schema(),
            }
        )
    if as_json:
        typer.echo(json.dumps(docs, indent=1))
        return
    out = console()
    for doc in docs:
        lo, hi = doc["players"]
        seats = f"{lo}" if lo == hi else f"{lo} to {hi}"
        title = f"{doc['id']}: {doc['name']} ({seats} players; seats {', '.join(doc['seats'])})"
        table = Table(title=title, title_justify="left", title_style="bold")
        table.add_column("-o NAME")
        table.add_column("type")
        table.add_column("default")
        table.add_column("choices")
        table.add_column("meaning")
        for o in doc["options"]:
            default = o["default"]
            shown = (
                ",".join(default) if isinstance(default, list) else "" if default is None else str(default)
            )
            choices = ", ".join(str(c) for c in o["choices"] or [])
            if o["minimum"] is not None or o["maximum"] is not None:
                choices = f"{o['minimum']} to {o['maximum']}"
            table.add_row(o["name"], type_label(o), shown, choices, o["help"])
        out.print(table)
    out.print(Text("Give options to any command as -o NAME=VALUE (repeatable).", style="dim"))
    out.print(
        Text(
            "From Python, load_game(GAME, NAME=VALUE) takes the value in its type (5, True, a list) "
            "or as text.",
            style="dim",
        )
    )


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
