"""``regalia replay FILE``: step through a game record, or list its moves and show a board.

A record that does not replay (an illegal or unreadable action, or a result that disagrees)
stops with an error naming the ply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from regalia.commands._common import console, game_module, read_line
from regalia.core.errors import OptionError, RegaliaError, ReplayDivergence
from regalia.core.game import State
from regalia.core.record import Record, initial_state


def _draw(out: Any, render: Any, state: State[Any]) -> None:
    if render is not None and hasattr(render, "render_terminal"):
        out.print(render.render_terminal(state, None))
    else:
        out.print(Text(f"{state} scores {state.scores()}"))


def _apply(state: State[Any], ply: int, text: str) -> None:
    try:
        state.apply_text(text)
    except RegaliaError as exc:
        raise ReplayDivergence(ply, text, str(exc)) from None


def _check_result(record: Record, state: State[Any]) -> None:
    if record.result is None:
        return
    last = record.actions[-1] if record.actions else ""
    if not state.is_terminal():
        raise ReplayDivergence(len(record.actions), last, "record has a result but the game is not over")
    recorded = list(record.result.get("scores", []))
    if recorded and recorded != state.scores():
        raise ReplayDivergence(
            len(record.actions), last, f"recorded scores {recorded} but replay gives {state.scores()}"
        )


def replay_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON).")],
    step: Annotated[
        bool, typer.Option("--step", help="Step through the moves: Enter for the next, q to stop.")
    ] = False,
    ply: Annotated[
        int | None, typer.Option("--ply", min=0, help="Stop at this ply (with --step: start stepping there).")
    ] = None,
) -> None:
    """Replay a game record: list every move and show the board at the end (or at --ply)."""
    record = Record.load(path)
    if ply is not None and ply > len(record.actions):
        raise OptionError(f"--ply {ply}: the record has only {len(record.actions)} plies")
    out = console()
    state = initial_state(record)
    render = game_module(record.game, "render")
    names = state.seat_names()
    result_text = ""
    if record.result is not None:
        result_text = f", result {record.result.get('scores')}"
    out.print(
        Text(
            f"{record.game} · seed {record.seed} · {len(record.actions)} plies · "
            f"seats {', '.join(record.seats)}{result_text}",
            style="bold",
        )
    )

    def line(n: int, player: int, text: str) -> Text:
        who = names[player] if 0 <= player < len(names) else "?"
        out_line = Text(f"{n:4d}. ", style="dim")
        out_line.append(f"{who}: ", style="bold")
        out_line.append(text)
        return out_line

    if not step:
        stop = len(record.actions) if ply is None else ply
        for n, text in enumerate(record.actions[:stop], start=1):
            player = state.current_player
            _apply(state, n, text)
            out.print(line(n, player, text))
        if ply is None:
            _check_result(record, state)
        out.print(Text("final position" if ply is None else f"position after ply {stop}", style="bold"))
        _draw(out, render, state)
        return
    first = ply or 0
    for n, text in enumerate(record.actions[:first], start=1):
        _apply(state, n, text)
    out.print(Text(f"position after ply {first}", style="bold"))
    _draw(out, render, state)
    for n, text in enumerate(record.actions[first:], start=first + 1):
        answer = read_line("Enter: next ply, q: stop")
        if answer is None or answer.strip().lower() in ("q", "quit", "exit"):
            return
        player = state.current_player
        _apply(state, n, text)
        out.print(line(n, player, text))
        _draw(out, render, state)
    _check_result(record, state)
    out.print(Text("end of the record", style="bold"))


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
