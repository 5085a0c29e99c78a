"""The ``regalia`` command.

Sub-commands live in modules listed in :data:`COMMAND_MODULES`; each exposes
``register(app: typer.Typer) -> None``. A listed module that is not installed (an optional part of
the project, or one not written yet) is skipped, so the rest of the command keeps working.

Errors that derive from :class:`regalia.core.errors.RegaliaError` are printed as one red line on
stderr and end the command with exit code 2 (no traceback).

>>> names = [c.name for c in app.registered_commands]
>>> [n for n in ("play", "replay", "score", "bench", "check", "games", "arena") if n in names]
['play', 'replay', 'score', 'bench', 'check', 'games', 'arena']
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from regalia import __version__
from regalia.commands import bench as bench_command
from regalia.core.errors import RegaliaError

#: Modules that add sub-commands, in the order of ``regalia --help``.
COMMAND_MODULES: tuple[str, ...] = (
    "regalia.commands.play",
    "regalia.commands.replay",
    "regalia.commands.score",
    "regalia.commands.bench",
    "regalia.commands.check",
    "regalia.commands.games",
    "regalia.commands.analyse",
    "regalia.lab.cli",
    "regalia.server.cli",
)

#: Modules that must be present: a failure to import them is a bug and is not hidden.
REQUIRED_MODULES: frozenset[str] = frozenset(COMMAND_MODULES[:6])

#: Exit code of a command that ends with a :class:`RegaliaError`.
ERROR_EXIT_CODE = 2


def error_line(message: str) -> None:
    """Print ``message`` as one red line on stderr."""
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    console.print(Text(f"error: {message}", style="bold red"))


def one_paragraph(help_text: str) -> str:
    r"""The first paragraph of a command's help on one line, as ``regalia --help`` lists it: a
    docstring's own line breaks would otherwise break the description mid-line in the table.

    >>> one_paragraph("Play many games and count\n    what happens.\n\n    More.")
    'Play many games and count what happens.'
    """
    first = help_text.strip().split("\n\n", 1)[0]
    return " ".join(first.split())


class RegaliaGroup(TyperGroup):
    """The top-level command group: turns a :class:`RegaliaError` into a red line and exit code 2,
    and lists each command's description as one paragraph that wraps to the terminal's width."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and not command.short_help and command.help:
            command.short_help = one_paragraph(command.help)
        return command

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except RegaliaError as exc:
            if os.environ.get("REGALIA_TRACEBACK"):
                raise
            error_line(str(exc))
            raise typer.Exit(ERROR_EXIT_CODE) from None


app = typer.Typer(
    cls=RegaliaGroup,
    name="regalia",
    help="Play, check and analyse royal tile-laying board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"regalia {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Play, check and analyse royal tile-laying board games (set REGALIA_TRACEBACK=1 for tracebacks)."""


def _is_missing(exc: ModuleNotFoundError, module: str) -> bool:
    """True when ``exc`` says that ``module`` itself (or a parent package of it) does not exist."""
    missing = exc.name or ""
    return missing == module or module.startswith(missing + ".")


#: Optional modules that were skipped, with the reason (shown by ``regalia --help`` in debug mode).
SKIPPED: dict[str, str] = {}


def register_commands(target: typer.Typer, modules: tuple[str, ...] = COMMAND_MODULES) -> list[str]:
    """Import each module and call its ``register(target)``; returns the modules registered.

    A required module that fails to import raises. An optional module that does not exist, or whose
    own dependency (an extra) is not installed, is skipped quietly; one that is broken otherwise is
    skipped with a yellow warning on stderr, so that the other commands keep working.
    """
    done = []
    for name in modules:
        if name in REQUIRED_MODULES:
            importlib.import_module(name).register(target)
            done.append(name)
            continue
        try:
            module = importlib.import_module(name)
            register = module.register
            register(target)
        except ModuleNotFoundError as exc:
            SKIPPED[name] = "not installed" if _is_missing(exc, name) else f"needs {exc.name}"
            continue
        except Exception as exc:  # a broken optional module must not break the whole command
            SKIPPED[name] = f"broken: {type(exc).__name__}: {exc}"
            Console(stderr=True).print(
                Text(f"warning: skipped the commands of {name} ({SKIPPED[name]})", style="yellow")
            )
            continue
        done.append(name)
    if os.environ.get("REGALIA_DEBUG"):
        for name, why in SKIPPED.items():
            Console(stderr=True).print(Text(f"debug: skipped {name}: {why}", style="dim"))
    return done


def register_game_commands(target: typer.Typer) -> list[str]:
    """Add every registered game's own commands (its plugin's ``commands``); returns the game ids.

    A game whose registration cannot be loaded (a broken entry point) is skipped with a yellow
    warning, so that the other games and commands keep working; using it gives the error itself.
    """
    from regalia.core.registry import game_ids, game_plugin

    done = []
    for game_id in game_ids():
        try:
            plugin = game_plugin(game_id)
        except RegaliaError as exc:
            Console(stderr=True).print(Text(f"warning: skipped the game {game_id}: {exc}", style="yellow"))
            continue
        for register in plugin.commands:
            register(target)
            done.append(game_id)
    return done


def _server_bench() -> Any:
    """``regalia bench server``'s click command (:mod:`regalia.server.bench`, imported when asked)."""
    from regalia.server.bench import command

    return command()


register_commands(app)
register_game_commands(app)
bench_command.OWN_COMMANDS["server"] = _server_bench


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``regalia`` console script."""
    app(args=argv if argv is not None else sys.argv[1:], prog_name="regalia")


if __name__ == "__main__":  # pragma: no cover
    main()
