"""``regalia score FILE.json``: the score calculator for a position written in JSON.

The document's ``format`` (``<game id>-position``) picks the game; the game package provides
``calculator.score_document(doc, tiles)`` (a result with ``to_json()``) and
``render.render_position_score(result)``. Formats are described in docs/formats.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from regalia.commands._common import console, game_module, read_json
from regalia.core.errors import PositionError
from regalia.core.registry import game_ids

SUFFIX = "-position"


def score(
    path: Annotated[
        Path, typer.Argument(metavar="FILE", help="A position file (JSON, see docs/formats.md).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scoring as JSON.")] = False,
    tiles: Annotated[
        Path | None, typer.Option("--tiles", help="Two Heirs: your own tile catalogue file.")
    ] = None,
) -> None:
    """Score a position: per-building breakdown, unit doubling, roads, totals and the winner."""
    doc = read_json(path)
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if not isinstance(fmt, str) or not fmt.endswith(SUFFIX) or fmt[: -len(SUFFIX)] not in game_ids():
        known = ", ".join(f"{g}{SUFFIX}" for g in game_ids())
        raise PositionError(f"format: expected one of {known}, got {fmt!r}")
    game_id = fmt[: -len(SUFFIX)]
    calculator = game_module(game_id, "calculator")
    if calculator is None:
        raise PositionError(f"format: there is no score calculator for {game_id} yet")
    result = calculator.score_document(doc, None if tiles is None else str(tiles))
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=1))
        return
    render = game_module(game_id, "render")
    out = console()
    if render is not None and hasattr(render, "render_position_score"):
        out.print(render.render_position_score(result))
    else:
        out.print_json(data=result.to_json())


def register(app: typer.Typer) -> None:
    app.command("score")(score)
