"""``regalia replay FILE``: list a game record's plies and show a board, or step through it.

A record that does not replay (an illegal or unreadable action, or a result that disagrees)
stops with an error naming the ply. ``--step`` shows one ply at a time, its description under the
board: Enter (or ``n``) goes on, ``b`` steps back, a number jumps to that ply, ``board`` draws the
whole board, ``q`` stops; anything else is answered under the board.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance()
>>> _state_at(state.record(), 3).ply
3
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from regalia.commands._common import console, read_line
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE, State
from regalia.core.plugin import Plugin
from regalia.core.record import Record, apply_ply, check_result, initial_state
from regalia.core.registry import game_plugin
from regalia.core.text import plural
from regalia.render.svg import write_png
from regalia.render.text import plain_text

STEP_KEYS = "Enter/n: next ply, b: back, a number: go to that ply, board: all of it, q: stop"
#: How a record tells a game its rules did not end (``Record.ending["reason"]``).
ENDED = {"resign": "resigned", "time": "lost on time", "abandon": "abandoned the match"}


def ending_line(record: Record) -> Text | None:
    """How the game of a record ended when its rules did not end it: ``blue resigned after 12
    plies; white wins`` (``None`` for a record without an ending).

    >>> from regalia.core.record import Record
    >>> done = Record("royal-court", {}, ("red", "blue"), ("first red",),
    ...               ending={"reason": "time", "seat": 0}, result={"winner": 1})
    >>> ending_line(done).plain
    'red lost on time after 1 ply; blue wins'
    """
    if record.ending is None:
        return None
    names = record.seats
    seat = int(record.ending["seat"])
    who = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
    line = f"{who} {ENDED.get(str(record.ending['reason']), str(record.ending['reason']))}"
    line += f" after {plural(len(record.actions), 'ply', 'plies')}"
    winner = record.result.get("winner") if isinstance(record.result, dict) else None
    if isinstance(winner, int) and 0 <= winner < len(names):
        line += f"; {names[winner]} wins"
    return Text(line, style="bold")


def _draw(out: Console, plugin: Plugin[Any], state: State[Any], whole: bool = False) -> bool:
    """The board fitted to the terminal (``whole``: all of it, the width fitted); whether it is cut."""
    size = out.size
    view = plugin.render_terminal(state, None, width=size.width, height=None if whole else size.height)
    out.print(view)
    return "board cut" in plain_text(view, size.width)


def _line(state: State[Any], plugin: Plugin[Any], n: int, player: int, text: str) -> Text:
    """Ply ``n`` (just applied to ``state``): who played it, its notation and what it did."""
    names = state.seat_names()
    who = "chance" if player == CHANCE else names[player] if 0 <= player < len(names) else "?"
    out = Text(f"{n:4d}. ", style="dim")
    out.append(f"{who}: ", style="bold")
    out.append(text)
    detail = plugin.describe(state, state.plies()[-1])
    if detail and detail != text:
        out.append(f" ({detail})", style="dim")
    return out


def _export(out: Console, plugin: Plugin[Any], state: State[Any], svg: Path | None, png: Path | None) -> None:
    """Write the position as SVG and/or PNG (the game's ``render_svg``; PNG through cairosvg)."""
    if svg is None and png is None:
        return
    document = plugin.render_svg(state, None, clickable=False)
    if svg is not None:
        try:
            svg.write_text(document, encoding="utf-8")
        except OSError as exc:
            raise OptionError(f"--svg: cannot write {svg}: {exc.strerror or exc}") from None
        out.print(Text(f"wrote {svg}", style="green"))
    if png is not None:
        write_png(document, png)
        out.print(Text(f"wrote {png}", style="green"))


def _echo(text: str, limit: int = 40) -> str:
    """What was typed, cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _state_at(record: Record, ply: int) -> State[Any]:
    state = initial_state(record)
    for n, text in enumerate(record.actions[:ply], start=1):
        apply_ply(state, n, text)
    return state


def replay_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON).")],
    step: Annotated[bool, typer.Option("--step", help=f"Step through the plies ({STEP_KEYS}).")] = False,
    ply: Annotated[
        int | None, typer.Option("--ply", min=0, help="Stop at this ply (with --step: start stepping there).")
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also write the position (at the end or --ply) as SVG.")
    ] = None,
    png: Annotated[
        Path | None, typer.Option("--png", help="Also write the position (at the end or --ply) as PNG.")
    ] = None,
) -> None:
    """Replay a game record: list every ply and show the board at the end (or at --ply)."""
    record = Record.load(path)
    if ply is not None and ply > len(record.actions):
        raise OptionError(f"--ply {ply}: the record has only {plural(len(record.actions), 'ply', 'plies')}")
    out = console()
    plugin = game_plugin(record.game)
    if (svg or png) and not plugin.has_svg:
        raise OptionError(f"--svg/--png: {record.game} has no SVG renderer")
    for target in (svg, png):
        if target is not None and (target.is_dir() or not target.parent.is_dir()):
            raise OptionError(f"cannot write {target}: give a file in an existing folder")
    result_text = f", result {record.result.get('scores')}" if record.result is not None else ""
    players = f" ({', '.join(record.players)})" if record.players else ""
    out.print(
        Text(
            f"{record.game} · {plural(len(record.actions), 'ply', 'plies')} · "
            f"seats {', '.join(record.seats)}{players}{result_text}",
            style="bold",
        )
    )
    if not step:
        state = initial_state(record)
        stop = len(record.actions) if ply is None else ply
        for n, text in enumerate(record.actions[:stop], start=1):
            player = state.current_player
            apply_ply(state, n, text)
            out.print(_line(state, plugin, n, player, text))
        if ply is None:
            check_result(record, state)
        out.print(Text("final position" if ply is None else f"position after ply {stop}", style="bold"))
        if _draw(out, plugin, state, whole=True):  # after a listing that scrolls: the whole board
            how = "--svg FILE or --png FILE" if plugin.has_svg else "a wider terminal"
            out.print(
                Text(
                    f"(too wide for {out.size.width} columns: the whole board is in {how}; "
                    "with --step, 'board' draws all of it)",
                    style="dim",
                )
            )
        ending = ending_line(record)
        if ending is not None and ply is None:
            out.print(ending)
        _export(out, plugin, state, svg, png)
        return
    _step_through(out, plugin, record, ply or 0)


def _step_through(out: Console, plugin: Plugin[Any], record: Record, first: int) -> None:
    total = len(record.actions)
    at = first
    state = _state_at(record, at)
    last_line: Text | None = None
    whole = False
    while True:
        _draw(out, plugin, state, whole=whole)
        whole = False
        out.print(Text(f"position after ply {at} of {total}", style="bold"))
        if last_line is not None:
            out.print(last_line)
        if at == total:
            check_result(record, state)
            out.print(Text("end of the record", style="bold"))
            ending = ending_line(record)
            if ending is not None:
                out.print(ending)
        answer = read_line(STEP_KEYS)
        if answer is None:
            return
        key = answer.strip().lower()
        if key in ("q", "quit", "exit"):
            return
        if key in ("", "n", "next"):
            if at == total:
                out.print(Text("this is the last ply; b steps back, q stops", style="yellow"))
                last_line = None
                continue
            player = state.current_player
            apply_ply(state, at + 1, record.actions[at])
            at += 1
            last_line = _line(state, plugin, at, player, record.actions[at - 1])
        elif key in ("b", "back", "p"):
            if at == 0:
                out.print(Text("this is the start; Enter goes on", style="yellow"))
                continue
            at -= 1
            state = _state_at(record, at)
            last_line = Text(f"back to ply {at}", style="dim")
        elif key == "board":
            whole = True
        elif key.lstrip("-").isascii() and key.lstrip("-").isdigit():
            target = int(key)
            if 0 <= target <= total:
                at = target
                state = _state_at(record, at)
                last_line = Text(f"jumped to ply {at}", style="dim")
            else:
                last_line = Text(f"no ply {_echo(key)}: choose 0 to {total}", style="bold yellow")
        else:
            last_line = Text(f"unknown key {_echo(answer.strip())!r}: {STEP_KEYS}", style="bold yellow")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
