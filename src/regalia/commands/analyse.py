"""``regalia analyse RECORD``: every decision of a game record searched, its loss and mark.

The work is :func:`regalia.lab.analyse.analyse_record` (docs/analysis.md); this command reads the
record, prints the table of plies and a summary per seat (or, with ``--json``, the analysis as
JSON on standard output) and with ``--plot`` writes the evaluation curve as PNG. The progress bar
is on standard error, shown when it is a terminal (``--progress/--no-progress`` decide).

>>> from regalia.lab.analyse import PlyAnalysis
>>> _cells(PlyAnalysis(3, -1, "chance", "draw D", probability=0.25, outcomes=4), ["red", "blue"])[:5]
['3', 'chance', 'draw D', '', 'p 0.250']
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from regalia.ai.registry import make_agent
from regalia.commands._common import console
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE
from regalia.core.record import Record
from regalia.lab.analyse import Analysis, PlyAnalysis, analyse_record, budget_spec, write_plot
from regalia.lab.backends import check_backend

#: The style of each mark in the table.
MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _cells(row: PlyAnalysis, seats: tuple[str, ...] | list[str]) -> list[str]:
    """The table's cells of one ply: ply, seat, played, value, best, best value, loss, mark."""
    who = "chance" if row.seat == CHANCE else seats[row.seat] if 0 <= row.seat < len(seats) else "?"
    if row.kind == "chance":
        best = "" if row.probability is None else f"p {row.probability:.3f}"
    elif row.kind == "decision":
        best = row.best or ""
    else:
        best = "(only move)" if row.kind == "forced" else "(automaton)"
    return [
        str(row.ply),
        who,
        row.played,
        _number(row.value),
        best,
        _number(row.best_value) if row.kind == "decision" and row.best != row.played else "",
        _number(row.loss) if row.kind == "decision" else "",
        row.mark or "",
    ]


def plies_table(analysis: Analysis) -> Table:
    """Every ply in a table that fits 80 columns (long notations end with an ellipsis)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0), show_edge=False)
    table.add_column("ply", justify="right", no_wrap=True)
    table.add_column("seat", max_width=6, no_wrap=True, overflow="ellipsis")
    table.add_column("played", max_width=16, no_wrap=True, overflow="ellipsis")
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("best", max_width=16, no_wrap=True, overflow="ellipsis")
    table.add_column("best", justify="right", no_wrap=True)
    table.add_column("loss", justify="right", no_wrap=True)
    table.add_column("mark", no_wrap=True)
    for row in analysis.plies:
        cells = _cells(row, analysis.seats)
        style = "dim" if row.kind != "decision" else ""
        mark = Text(cells[-1], style=MARK_STYLES.get(cells[-1], ""))
        table.add_row(*cells[:-1], mark, style=style)
    return table


def summary_table(analysis: Analysis) -> Table:
    """Per seat: decisions searched, the average loss, the marks."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title="summary", title_justify="left")
    for name in ("seat", "decisions", "avg loss", "inaccuracies", "mistakes", "blunders"):
        table.add_column(name, justify="left" if name == "seat" else "right")
    for s in analysis.summary():
        table.add_row(
            s.name,
            str(s.decisions),
            f"{s.average_loss:.3f}",
            str(s.inaccuracies),
            str(s.mistakes),
            str(s.blunders),
        )
    return table


def _check_target(path: Path) -> None:
    if path.is_dir() or not path.parent.is_dir():
        raise OptionError(f"--plot: cannot write {path}: give a file in an existing folder")


def analyse_command(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    level: Annotated[
        str, typer.Option("--level", help="The search's level: easy, medium, hard (mcts levels).")
    ] = "medium",
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", min=0.0, help="Seconds of search a position (replaces --level)."),
    ] = None,
    iterations: Annotated[
        int | None, typer.Option("--iterations", min=1, help="Iterations a position (replaces --level).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the searches (iteration budgets repeat).")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Worker processes (default: one per CPU).")
    ] = None,
    backend: Annotated[str, typer.Option("--backend", help="local (processes) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="A running Ray cluster (with --backend ray).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the analysis as JSON (docs/analysis.md).")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", metavar="FILE.png", help="Write the evaluation curve as PNG.")
    ] = None,
    progress: Annotated[
        bool | None,
        typer.Option("--progress/--no-progress", help="A progress bar on stderr (default: if a terminal)."),
    ] = None,
) -> None:
    """Analyse a game record: search every decision, value the move played against the best found,
    mark inaccuracies, mistakes and blunders (docs/analysis.md)."""
    if seconds is not None and seconds <= 0:
        raise OptionError("--seconds must be more than 0")
    check_backend(backend)
    make_agent("mcts", level)  # an unknown level is an error even when a budget replaces it
    if plot is not None:
        _check_target(plot)
    record = Record.load(path)
    budget = budget_spec(level, seconds, iterations)
    if progress is None:
        progress = sys.stderr.isatty()
    start = time.perf_counter()
    analysis = analyse_record(
        record,
        budget,
        seed=seed,
        workers=workers if workers is not None else max(1, os.cpu_count() or 1),
        backend=backend,
        ray_address=ray_address,
        progress=progress,
    )
    elapsed = time.perf_counter() - start
    if plot is not None:
        write_plot(analysis, plot)
    if as_json:
        sys.stdout.write(analysis.dumps() + "\n")
        if plot is not None:
            Console(stderr=True).print(Text(f"wrote {plot}", style="green"))
        return
    out = console()
    low, mid, high = analysis.thresholds
    out.print(
        Text(
            f"{record.game} · {len(analysis.decisions())} decisions searched in {elapsed:.1f} s\n"
            f"budget {budget}, seed {seed} · marks from a loss of {low:g} / {mid:g} / {high:g}",
            style="bold",
        )
    )
    out.print(plies_table(analysis))
    out.print(summary_table(analysis))
    if plot is not None:
        out.print(Text(f"wrote {plot}", style="green"))


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse_command)
