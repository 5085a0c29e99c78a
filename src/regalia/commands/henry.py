"""``regalia henry POSITION.json``: Henry's whole turn for a printed solo game of The Two Heirs.

The position format (``two-heirs-solo-position``) is documented in docs/formats.md, section
"Solo position (regalia henry)". A bad file ends with one line naming the field and exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from regalia.commands._common import console, read_json
from regalia.games.two_heirs.companion import plan_document, plan_json, turn_lines


def henry_turn(
    path: Annotated[
        Path,
        typer.Argument(metavar="POSITION.json", help="A solo position (JSON, see docs/formats.md)."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print Henry's turn as JSON.")] = False,
) -> None:
    """Henry's turn in a printed solo game: tile, placement (rule A-D), treasure, unit, removals."""
    plan = plan_document(read_json(path))
    if as_json:
        typer.echo(json.dumps(plan_json(plan), indent=1))
        return
    out = console()
    out.print(Text("Henry's turn", style="bold"))
    for line in turn_lines(plan):
        out.print(Text(line))


def register(app: typer.Typer) -> None:
    app.command("henry")(henry_turn)


__all__ = ["henry_turn", "register"]
