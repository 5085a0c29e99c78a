"""``regalia bench GAME``: random full games per second (chance included), the median cost of
``legal_actions()``, with ``--mcts`` MCTS iterations per second, and with ``--env`` steps per second
through the PettingZoo environment beside the raw engine's decisions per second (the wrapper's
overhead; :mod:`regalia.rl.bench`).

``regalia bench server`` benchmarks the game server instead, with options of its own
(:mod:`regalia.server.bench`; ``regalia bench server --help``).

>>> import json, typer
>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> register(app)
>>> result = CliRunner().invoke(app, ["two-heirs", "--games", "1", "--json"])
>>> sorted(json.loads(result.output))[:3]
['chance_per_game', 'compiled', 'game']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand

from regalia.bench import bench_random_games
from regalia.commands._common import DEFAULT_GAME, console, game_help, options_from
from regalia.core.errors import OptionError
from regalia.core.registry import game_plugin, load_game


def bench(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME", help=game_help() + " Or server: see regalia bench server --help.")
    ] = DEFAULT_GAME,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Random games to play.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game (game i uses seed + i).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
    ] = None,
    mcts: Annotated[bool, typer.Option("--mcts", help="Also measure MCTS iterations per second.")] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="Duration of the MCTS measurement.")
    ] = 3.0,
    env: Annotated[
        bool,
        typer.Option(
            "--env",
            help="Also measure steps per second through the PettingZoo environment, next to the raw "
            "engine's decisions per second (needs the rl extra).",
        ),
    ] = False,
    env_steps: Annotated[int, typer.Option("--env-steps", min=1, help="Decisions of the --env run.")] = 5000,
) -> None:
    """Benchmark random full games on one core (games/s, chance included) and legal_actions() (µs)."""
    from regalia.ai.bench import bench_mcts

    options = options_from(option)
    result = bench_random_games(game_id, games=games, seed=seed, **options)
    extra = dict(game_plugin(game_id).benchmarks(load_game(game_id, **options), seed))
    if extra:
        result["game_figures"] = extra
    if mcts:
        game = load_game(game_id, **options)
        result["mcts_iterations_per_s"] = round(float(bench_mcts(game, seconds=seconds, seed=seed)), 1)
        result["mcts_seconds"] = seconds
        result["mcts_rollout_depth"] = game.search_defaults().get("depth")  # None: rollouts to the end
    if env:
        try:
            from regalia.rl.bench import env_benchmark
        except ImportError as exc:
            raise OptionError(f"--env needs the rl extra: pip install 'regalia[rl]' ({exc})") from None
        figures = env_benchmark(game_id, options, env_steps, seed)
        result["env_steps_per_s"] = round(figures["env_steps_per_s"], 1)
        result["engine_actions_per_s"] = round(figures["engine_actions_per_s"], 1)
        result["env_overhead"] = round(figures["overhead"], 2)
        result["env_floor_steps_per_s"] = round(figures["floor_steps_per_s"], 1)
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    table = Table(title=f"regalia bench {game_id}", title_style="bold", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right", style="bold")
    table.add_row("random games per second (one core)", f"{result['games_per_s']:.1f}")
    table.add_row("legal_actions() median", f"{result['legal_actions_us']:.1f} µs")
    table.add_row("games", str(result["games"]))
    table.add_row("plies per game (chance included)", f"{result['plies_per_game']:.1f}")
    table.add_row("chance outcomes per game", f"{result['chance_per_game']:.1f}")
    table.add_row("plies per second", f"{result['plies_per_s']:.0f}")
    if "mcts_iterations_per_s" in result:
        depth = result["mcts_rollout_depth"]
        cut = "to the end" if depth is None else f"cut at {depth} decisions"
        rate = f"{result['mcts_iterations_per_s']:.0f}"
        table.add_row(f"MCTS iterations per second (rollouts {cut})", rate)
    if "env_steps_per_s" in result:
        table.add_row("PettingZoo env steps per second", f"{result['env_steps_per_s']:.0f}")
        table.add_row("engine decisions per second (same games)", f"{result['engine_actions_per_s']:.0f}")
        table.add_row("env overhead (times slower)", f"{result['env_overhead']:.1f}")
        table.add_row(
            "PettingZoo floor: steps per second of an env doing nothing",
            f"{result['env_floor_steps_per_s']:.0f}",
        )
    for name, value in result.get("game_figures", {}).items():
        label = name.removesuffix("_us").replace("_", " ")
        table.add_row(label + (" (µs)" if name.endswith("_us") else ""), str(value))
    table.add_row("seed", str(seed))
    table.add_row("python", result["python"])
    table.add_row("compiled engine (mypyc)", "yes" if result["compiled"] else "no")
    out = console()
    out.print(table)
    out.print(Text(f"options: {json.dumps(result['options'])}", style="dim"))


#: Benchmarks with options of their own, by the word after ``bench`` (``server``): a function making
#: the benchmark's click command. The ``regalia`` command fills it (:mod:`regalia.cli`), so that the
#: commands do not import the parts they measure (the server may not import the commands, nor they
#: it; docs/architecture.md).
OWN_COMMANDS: dict[str, Callable[[], Any]] = {}

#: The key under which :class:`BenchCommand` keeps the context of such a benchmark.
_OWN = "regalia.bench.own"


class BenchCommand(TyperCommand):
    """``regalia bench GAME ...``, except that ``regalia bench server ...`` (a name in
    :data:`OWN_COMMANDS`) is handed, with the rest of its arguments, to that benchmark's own command
    (its options differ)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] in OWN_COMMANDS:
            name = f"{ctx.info_name} {args[0]}"  # its usage reads 'regalia bench server [OPTIONS]'
            ctx.meta[_OWN] = OWN_COMMANDS[args[0]]().make_context(name, args[1:], parent=ctx.parent)
            return []
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        own = ctx.meta.pop(_OWN, None)
        if own is None:
            return super().invoke(ctx)
        with own:
            return own.command.invoke(own)


def register(app: typer.Typer) -> None:
    app.command("bench", cls=BenchCommand)(bench)
