"""``regalia score FILE.json``: the score calculator for a position written in JSON.

The document's ``format`` picks the game: each game's plugin declares its calculator
(:class:`regalia.core.plugin.Calculator`) and the format it reads. Formats are described in
docs/formats.md.

>>> "two-heirs-position" in calculators()
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from regalia.commands._common import console, options_from
from regalia.core.data import read_json_file
from regalia.core.errors import PositionError
from regalia.core.plugin import Calculator
from regalia.core.registry import game_ids, game_plugin


def calculators() -> dict[str, Calculator]:
    """position format -> the calculator of the game that reads it."""
    out: dict[str, Calculator] = {}
    for game_id in game_ids():
        calc = game_plugin(game_id).calculator
        if calc is not None:
            out[calc.format] = calc
    return out


def score(
    path: Annotated[
        Path, typer.Argument(metavar="FILE", help="A position file (JSON, see docs/formats.md).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scoring as JSON.")] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A calculator option NAME=VALUE, e.g. -o tiles=FILE."),
    ] = None,
) -> None:
    """Score a position: every building or feature, the totals and the winner."""
    doc = read_json_file(path, "position", PositionError)
    known = calculators()
    if not isinstance(doc, dict):
        kind = {list: "a JSON list", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(doc), "a number"
        )
        raise PositionError(
            f"a position is a JSON object with a format ({', '.join(sorted(known))}), not {kind}"
        )
    fmt = doc.get("format")
    if not isinstance(fmt, str) or fmt not in known:
        raise PositionError(f"format: expected one of {', '.join(sorted(known))}, got {fmt!r}")
    calc = known[fmt]
    result = calc.score(doc, options_from(option))
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
        return
    out = console()
    if calc.render is not None:
        out.print(calc.render(result))
    else:
        out.print_json(data=result.to_json())


def register(app: typer.Typer) -> None:
    app.command("score")(score)
