"""``regalia bench GAME``: random full games per second and the median cost of ``legal_actions()``."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from regalia.bench import bench_random_games
from regalia.commands._common import console
from regalia.core.errors import OptionError
from regalia.core.game import parse_option_pairs


def mcts_benchmark() -> Any:
    """``regalia.ai.bench_mcts`` when the AI package provides it, else ``None``."""
    try:
        import regalia.ai as ai
    except ImportError:  # pragma: no cover
        return None
    return getattr(ai, "bench_mcts", None)


def bench(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id, e.g. two-heirs.")] = "two-heirs",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Random games to play.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game (game i uses seed + i).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="Two Heirs: the solo game against Henry.")] = False,
    no_roads: Annotated[bool, typer.Option("--no-roads", help="Two Heirs: do not score roads.")] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Any game option NAME=VALUE.")
    ] = None,
    mcts: Annotated[bool, typer.Option("--mcts", help="Also measure MCTS iterations per second.")] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="Duration of the MCTS measurement.")
    ] = 3.0,
) -> None:
    """Benchmark random full games on one core (games/s) and legal_actions() (median µs)."""
    options = parse_option_pairs(option)
    if solo:
        options["solo"] = True
    if no_roads:
        options["roads"] = False
    bench_mcts = None
    if mcts:
        bench_mcts = mcts_benchmark()
        if bench_mcts is None:
            raise OptionError("MCTS benchmarking is unavailable: regalia.ai has no bench_mcts()")
    result = bench_random_games(game_id, games=games, seed=seed, **options)
    if bench_mcts is not None:
        result["mcts_iterations_per_s"] = round(float(bench_mcts(game_id, seconds, seed, **options)), 1)
        result["mcts_seconds"] = seconds
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    table = Table(title=f"regalia bench {game_id}", title_style="bold", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right", style="bold")
    table.add_row("random games per second (one core)", f"{result['games_per_s']:.1f}")
    table.add_row("legal_actions() median", f"{result['legal_actions_us']:.1f} µs")
    table.add_row("games", str(result["games"]))
    table.add_row("plies per game", f"{result['plies_per_game']:.1f}")
    table.add_row("plies per second", f"{result['plies_per_s']:.0f}")
    if "mcts_iterations_per_s" in result:
        table.add_row("MCTS iterations per second", f"{result['mcts_iterations_per_s']:.0f}")
    table.add_row("seed", str(seed))
    table.add_row("python", result["python"])
    out = console()
    out.print(table)
    out.print(Text(f"options: {json.dumps(result['options'])}", style="dim"))


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)
