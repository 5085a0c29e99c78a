"""The lab's commands: ``regalia arena``, ``regalia ladder``, ``regalia balance`` and ``regalia fit``.

The main command registers them with :func:`register`; :data:`app` is the same commands as a
stand-alone Typer app. Bad requests (unknown game, agent, level, backend, option) print one
``error:`` line listing the valid choices and exit with code 2.

>>> from typer.testing import CliRunner
>>> run = CliRunner().invoke(app, ["balance", "two-heirs", "-n", "2", "-w", "1", "--json", "--no-progress"])
>>> run.exit_code, json.loads(run.stdout)["games"]
(0, 2)
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from regalia.core.errors import RegaliaError
from regalia.core.game import parse_option_pairs
from regalia.core.registry import game_ids

ERROR_EXIT_CODE = 2

AGENTS_HELP = (
    "Comma-separated agent specs, one per seat: random, greedy, mcts, mcts:easy|medium|hard,"
    " mcts:iterations=500, mcts:seconds=0.5:rollout=greedy ..."
)


def _fail(message: str) -> typer.Exit:
    Console(stderr=True, highlight=False, soft_wrap=True).print(Text(f"error: {message}", style="bold red"))
    return typer.Exit(ERROR_EXIT_CODE)


def _show(result: Any, json_output: bool) -> None:
    """Print a run's result: one JSON object, or its table."""
    if json_output:
        typer.echo(json.dumps(result.to_json(), indent=1))
    else:
        _console().print(result.table())


def _console() -> Console:
    """A console on stdout; 120 columns when stdout is not a terminal and COLUMNS is unset."""
    width = 120 if not os.isatty(1) and "COLUMNS" not in os.environ else None
    return Console(highlight=False, width=width)


def _stop_on_sigterm() -> None:
    from regalia.lab.backends import stop_signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop_signal)


def _run(
    run: Callable[..., Any],
    game: str,
    agents: str,
    games: int,
    seed: int,
    workers: int | None,
    backend: str,
    ray_address: str | None,
    option: list[str] | None,
    progress: bool,
    **extra: Any,
) -> Any:
    """A lab run from the command line: a bad request is one red ``error:`` line and exit code 2;
    SIGTERM (``timeout``, a batch system) stops it as Ctrl-C does (an arena then reports the games
    finished)."""
    _stop_on_sigterm()
    try:
        return run(
            game,
            agents,
            games=games,
            seed=seed,
            workers=_workers(workers),
            backend=backend,
            ray_address=ray_address,
            options=parse_option_pairs(option),
            progress=progress,
            **extra,
        )
    except RegaliaError as exc:
        raise _fail(str(exc)) from None


def _workers(workers: int | None) -> int:
    return workers if workers is not None else max(1, os.cpu_count() or 1)


GameArg = Annotated[
    str, typer.Argument(metavar="GAME", help=f"Game id: {', '.join(game_ids())}.", show_default=False)
]
AgentsOpt = Annotated[str, typer.Option("--agents", "-a", help=AGENTS_HELP, show_default=False)]
#: ``balance`` and ``fit``: the agents that play every seat (their defaults differ, so are shown).
SeatAgentsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        help="Agent specs, one for every seat agents play or one per seat (comma-separated).",
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="Seed of the whole run.")]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", "-w", help="Worker processes (default: one per CPU).", min=1),
]
BackendOpt = Annotated[str, typer.Option("--backend", help="local (processes) or ray.")]
RayOpt = Annotated[
    str | None,
    typer.Option("--ray-address", help="Address of a Ray cluster (default: start a local Ray)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Game option NAME=VALUE (repeatable; see: regalia games GAME)."),
]
ProgressOpt = Annotated[
    bool, typer.Option("--progress/--no-progress", help="Show a live progress bar on stderr.")
]


def arena_command(
    game: GameArg,
    agents: AgentsOpt,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=1)] = 100,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    json_output: JsonOpt = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write records, report.md and plots into this directory."),
    ] = None,
    option: OptionOpt = None,
    progress: ProgressOpt = True,
    pairs: Annotated[
        bool,
        typer.Option(
            "--pairs",
            help="Play each seed once per rotation of the seats (two agents: twice, seats swapped);"
            " two agents are then also counted by pairs (LL, LD, DD/WL, WD, WW). In a solo game:"
            " each deal once per agent, compared deal by deal.",
        ),
    ] = False,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
            help="Sequential probability ratio test of the first agent against the second (H1: it is"
            " stronger by elo1, H0: by elo0 at most; alpha, beta 0.05 by default): stop when it"
            " decides, --games being the most played.",
        ),
    ] = None,
    continues: Annotated[
        list[Path] | None,
        typer.Option(
            "--continue",
            metavar="RUN.json",
            help="Go on with the SPRT of an earlier run of this match-up on another seed (its --json"
            " summary; repeatable): the test starts from its counts and stops when the runs together"
            " decide (docs/lab.md).",
        ),
    ] = None,
) -> None:
    """Play many games between agents (seats alternated) and summarise the results: W/D/L, Elo of
    the first agent over the second with a 95% interval and the likelihood of superiority."""
    from regalia.lab.arena import run_arena
    from regalia.lab.sprt import parse_sprt

    spec = None
    if sprt is not None:
        try:
            spec = parse_sprt(sprt)
        except ValueError as exc:
            raise _fail(f"--sprt {sprt}: {exc}") from None
    result = _run(
        run_arena,
        game,
        agents,
        games,
        seed,
        workers,
        backend,
        ray_address,
        option,
        progress,
        out_dir=out,
        pairs=pairs,
        sprt=spec,
        continues=continues or (),
    )
    _show(result, json_output)
    if not json_output:
        for line in result.summary_lines():
            _console().print(Text(line))
    if out is not None and not json_output:
        _console().print(f"report: {out / 'report.md'}")
    if result.interrupted:
        raise typer.Exit(130)  # the shell's code for a run stopped by a signal


def ladder_command(
    game: GameArg,
    agents: AgentsOpt,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per pair of agents.", min=1)] = 20,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    json_output: JsonOpt = False,
    option: OptionOpt = None,
    progress: ProgressOpt = True,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap samples for the intervals.", min=1)
    ] = 200,
) -> None:
    """Round robin between agents, rated by Bradley-Terry on the Elo scale with 95% intervals."""
    from regalia.lab.ratings import run_ladder

    result = _run(
        run_ladder,
        game,
        agents,
        games,
        seed,
        workers,
        backend,
        ray_address,
        option,
        progress,
        bootstrap=bootstrap,
    )
    _show(result, json_output)


def combine_command(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN.json", help="Summaries of arena runs (regalia arena --json).", show_default=False
        ),
    ],
    json_output: JsonOpt = False,
) -> None:
    """Combine arena runs of one match-up on other seeds: counts added, Elo, win rates and SPRT
    worked out anew (docs/lab.md, "Combining runs")."""
    from regalia.lab.combine import combine, load_runs, summary_lines

    try:
        doc = combine(load_runs(runs))
    except RegaliaError as exc:
        raise _fail(str(exc)) from None
    if json_output:
        typer.echo(json.dumps(doc, indent=1))
    else:
        _console().print("\n".join(summary_lines(doc)))


def option_flags(args: list[str]) -> list[str]:
    """Game options given as flags, ``--NAME VALUE`` or ``--NAME=VALUE``, as ``NAME=VALUE`` pairs
    (dashes in NAME become underscores), so ``--archetypes FILE`` is ``-o archetypes=FILE``.

    >>> option_flags(["--archetypes", "mine.json", "--turn-cap=30"])
    ['archetypes=mine.json', 'turn_cap=30']
    """
    pairs: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) < 3:
            raise _fail(f"unexpected argument {arg!r} (game options are --NAME VALUE or -o NAME=VALUE)")
        name, sep, value = arg[2:].partition("=")
        if not sep:
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                raise _fail(f"{arg}: give a value (--NAME VALUE)")
            i += 1
            value = args[i]
        pairs.append(f"{name.replace('-', '_')}={value}")
        i += 1
    return pairs


def balance_command(
    ctx: typer.Context,
    game: GameArg,
    agents: SeatAgentsOpt = "greedy",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=1)] = 200,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    json_output: JsonOpt = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the tables in Markdown.")] = False,
    all_statistics: Annotated[
        bool, typer.Option("--all", help="List every statistic, not only the names without a colon.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write the JSON document to this file.")
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Write report.md, summary.json and PNG plots into this directory."),
    ] = None,
    option: OptionOpt = None,
    progress: ProgressOpt = True,
) -> None:
    """Play many games and aggregate what the game's statistics hook counts (buildings built, their
    points, ...): how often, how much, and the win rates with and without. Any game option can
    also be given as a flag after GAME: --NAME VALUE or --NAME=VALUE (regalia games GAME lists
    them)."""
    from regalia.lab.balance import run_balance, write_balance_report

    if game.startswith("-"):
        raise _fail(f"{game!r}: give GAME first (regalia balance GAME --NAME VALUE)")
    if out is not None and out.is_dir():
        raise _fail(f"--out {out}: it is a folder; give a file for the JSON document")
    if report is not None and report.exists() and not report.is_dir():
        raise _fail(f"--report {report}: it is a file; give a folder for the report")
    option = [*(option or []), *option_flags(list(ctx.args))]
    result = _run(run_balance, game, agents, games, seed, workers, backend, ray_address, option, progress)
    if out is not None:
        try:
            result.save(out)
        except OSError as exc:
            raise _fail(f"--out {out}: {exc.strerror or exc}") from None
    if report is not None:
        try:
            path = write_balance_report(result, report, all_statistics=all_statistics)
        except OSError as exc:
            raise _fail(f"--report {report}: {exc.strerror or exc}") from None
        if not json_output and not markdown:
            _console().print(f"report: {path}")
    if json_output:
        typer.echo(json.dumps(result.to_json(), indent=1))
    elif markdown:
        typer.echo(result.markdown(all_statistics))
    else:
        _console().print(result.table(all_statistics))


def fit_command(
    game: GameArg,
    agents: SeatAgentsOpt = "random",
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=1)] = 100,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "local",
    ray_address: RayOpt = None,
    json_output: JsonOpt = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the table in Markdown.")] = False,
    option: OptionOpt = None,
    encoding: Annotated[
        list[str] | None,
        typer.Option(
            "--encoding",
            "-e",
            help="An encoding variant NAME=VALUE[,NAME=VALUE] (keyword arguments of the game's encoding;"
            " repeatable, one variant each; 'default' for the default). Default: the default encoding.",
        ),
    ] = None,
    progress: ProgressOpt = True,
    extents: Annotated[
        bool,
        typer.Option(
            "--extents",
            help="Measure the same games' board extents instead (spans and reaches of the decisions"
            " naming positions, final boards; the encoding's extent()), printed in Markdown.",
        ),
    ] = False,
) -> None:
    """Play many games and measure how often their decision states fit the game's encoding (every
    legal action has an id), per encoding variant."""
    from regalia.lab.fit import parse_variant, run_extents, run_fit

    if extents:
        if encoding:
            raise _fail("--extents measures the games themselves: give no --encoding")
        study = _run(run_extents, game, agents, games, seed, workers, backend, ray_address, option, progress)
        typer.echo(json.dumps(study.to_json(), indent=1) if json_output else study.markdown())
        return
    try:
        variants = [parse_variant(text) for text in encoding] if encoding else [{}]
    except RegaliaError as exc:
        raise _fail(str(exc)) from None
    result = _run(
        run_fit,
        game,
        agents,
        games,
        seed,
        workers,
        backend,
        ray_address,
        option,
        progress,
        encodings=variants,
    )
    if markdown and not json_output:
        typer.echo(result.markdown())
    else:
        _show(result, json_output)


#: Unknown ``--NAME VALUE`` flags reach the command as game options (:func:`option_flags`).
_OPTION_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def register(target: typer.Typer) -> None:
    """Add ``arena``, ``ladder``, ``balance`` and ``fit`` to the ``regalia`` command."""
    target.command("arena")(arena_command)
    target.command("ladder")(ladder_command)
    target.command("combine")(combine_command)
    target.command("balance", context_settings=_OPTION_FLAGS)(balance_command)
    target.command("fit")(fit_command)


app = typer.Typer(
    name="lab",
    help="Arena, ladder, balance and encoding fit runs between agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
register(app)
