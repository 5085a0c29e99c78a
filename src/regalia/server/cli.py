"""``regalia serve``: the game server and the browser client (docs/server.md).

>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> register(app)
>>> result = CliRunner().invoke(app, ["--db", "mysql://nowhere"])
>>> result.exit_code, type(result.exception).__name__, str(result.exception)[:26]
(1, 'OptionError', '--db: expected a sqlite://')
>>> str(CliRunner().invoke(app, ["--abandon-after", "soon"]).exception)
"--abandon-after: duration 'soon': expected a number and a unit (30d, 12h, 90m, 3600s) or off"
"""

from __future__ import annotations

import signal
import sys
from typing import Annotated

import typer

from regalia.core.errors import OptionError
from regalia.render.console import console
from regalia.server.budgets import DEFAULT_THINK_SECONDS
from regalia.server.limits import CREATES_PER_MINUTE, MAX_ACTIVE_MATCHES


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///PATH or postgresql+psycopg://USER:PW@HOST/NAME "
            "(default: a SQLite file in your data directory).",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=64, help="Processes the computer seats think in.")
    ] = 1,
    max_creates_per_minute: Annotated[
        int,
        typer.Option(
            "--max-creates-per-minute",
            min=0,
            help="New matches one client address may create in a minute (0: no limit; 429 beyond).",
        ),
    ] = CREATES_PER_MINUTE,
    max_active_matches: Annotated[
        int,
        typer.Option(
            "--max-active-matches",
            min=0,
            help="Matches in progress the server holds before refusing new ones (0: no limit).",
        ),
    ] = MAX_ACTIVE_MATCHES,
    max_think_seconds: Annotated[
        float,
        typer.Option(
            "--max-think-seconds",
            min=0.01,
            max=3600,
            help="The longest any search may think (a computer seat's move, a hint): budgets over it "
            "are refused, and every search is cut then.",
        ),
    ] = DEFAULT_THINK_SECONDS,
    abandon_after: Annotated[
        str,
        typer.Option(
            "--abandon-after",
            help="End a match nobody has moved in for this long, the seat to act having abandoned "
            "it: 30d, 12h, 90m, 3600s, or off.",
        ),
    ] = "30d",
    analysis_iterations: Annotated[
        int | None,
        typer.Option(
            "--analysis-iterations",
            min=1,
            help="Iterations of search a position of a finished match's analysis gets (default 300; "
            "at most the cap of --max-think-seconds).",
        ),
    ] = None,
) -> None:
    """Serve games in the browser: open the address it prints."""
    try:
        import uvicorn

        from regalia.server.app import create_app
        from regalia.server.limits import uvicorn_settings
    except ImportError as exc:
        raise OptionError(
            f"regalia serve needs the server extra: pip install 'regalia[server]' ({exc})"
        ) from None
    from regalia.server.clocks import parse_duration
    from regalia.server.store import default_url

    try:
        abandon_seconds = parse_duration(abandon_after)
    except OptionError as exc:
        raise OptionError(f"--abandon-after: {exc}") from None
    if db is None:
        db, path = default_url()
        console().print(f"games are kept in {path}")
    elif not db.startswith(("sqlite", "postgresql")):
        raise OptionError(f"--db: expected a sqlite:/// or postgresql+psycopg:// URL, not {db!r}")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    console().print(f"regalia serves on http://{shown}:{port}/ (Ctrl+C stops it)")
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it, which would end the interpreter
    # without its exit handlers (worker processes left behind): exit normally instead.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    app = create_app(
        db,
        workers=workers,
        max_think_seconds=max_think_seconds,
        max_creates_per_minute=max_creates_per_minute,
        max_active_matches=max_active_matches,
        abandon_after=abandon_seconds,
        analysis_iterations=analysis_iterations,
    )
    # The request head's size and deadline, idle keep-alive, the WebSocket message size: limits.
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, **uvicorn_settings())


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
