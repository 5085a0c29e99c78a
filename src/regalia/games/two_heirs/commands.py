"""Commands of The Two Heirs for the ``regalia`` command (declared in the game's plugin).

``regalia henry POSITION.json``: Henry's whole turn for a printed solo game. The position format
(``two-heirs-solo-position``) is documented in docs/formats.md, section "Solo position (regalia
henry)". A bad file ends with one line naming the field and exit code 2.

>>> import typer
>>> app = typer.Typer()
>>> register(app)
>>> [c.name for c in app.registered_commands]
['henry']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from regalia.core.data import read_json_file
from regalia.core.errors import PositionError
from regalia.games.two_heirs.companion import plan_document, plan_json, turn_lines


def henry_turn(
    path: Annotated[
        Path,
        typer.Argument(metavar="POSITION.json", help="A solo position (JSON, see docs/formats.md)."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print Henry's turn as JSON.")] = False,
) -> None:
    """The Two Heirs solo: Henry's turn in a printed game (tile, placement rule A-D, treasure, unit)."""
    plan = plan_document(read_json_file(path, "solo position", PositionError))
    if as_json:
        typer.echo(json.dumps(plan_json(plan), indent=1))
        return
    out = Console(highlight=False)
    out.print(Text("Henry's turn", style="bold"))
    for line in turn_lines(plan):
        out.print(Text(line))


def register(app: Any) -> None:
    """Add ``henry`` to the ``regalia`` command."""
    app.command("henry")(henry_turn)


__all__ = ["henry_turn", "register"]
