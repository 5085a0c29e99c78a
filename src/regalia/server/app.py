"""The game server's application (FastAPI): its parts put together, started and stopped.

:func:`create_app` builds the application on a database URL: the HTTP API
(:mod:`regalia.server.routes`), the WebSocket of pushes (:mod:`regalia.server.sockets`), the
browser client's pages and files (:mod:`regalia.server.pages`) and the request size limit
(:mod:`regalia.server.limits`). Every request is answered by the
:class:`~regalia.server.service.MatchService`; refused requests get a 4xx whose ``detail`` says what
is wrong (docs/server.md). Views are pushed over WebSockets by the
:class:`~regalia.server.push.Hub`, each connection getting its own seat's view, then what changed;
on PostgreSQL a :class:`~regalia.server.store.Listener` hears the changes other server processes
make and pushes them too. A background task looks at the clocks of the matches in memory every
``clock_interval`` seconds and ends those whose flag has fallen.

>>> import concurrent.futures, os, tempfile
>>> from fastapi.testclient import TestClient
>>> db = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.db")
>>> with TestClient(create_app(db, pool=concurrent.futures.ThreadPoolExecutor(1))) as client:
...     games = client.get("/api/games").json()
...     refused = client.post("/api/matches", json={"game": "chess", "seats": []})
>>> sorted(g["id"] for g in games), refused.status_code, refused.json()["detail"][:16]
(['carcassonne', 'royal-court', 'two-heirs'], 404, "unknown game 'ch")
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from regalia import __version__
from regalia.server import pages, routes, sockets
from regalia.server.budgets import DEFAULT_THINK_SECONDS, Caps
from regalia.server.clocks import ABANDON_AFTER
from regalia.server.limits import (
    CREATES_PER_MINUTE,
    MAX_ACTIVE_MATCHES,
    MAX_BODY,
    BodyLimit,
    CreateLimits,
    printable,
)
from regalia.server.push import Hub
from regalia.server.service import ApiError, MatchService, warm
from regalia.server.store import Listener, Store, matches

log = logging.getLogger("regalia.server")

#: Seconds between two looks at the clocks of the matches in memory.
CLOCK_INTERVAL = 1.0
#: Seconds between two renewals of this process's computer-move leases (and looks for moves whose
#: lease ran out: their process died), well within the lease (live.LEASE_SECONDS).
LEASE_INTERVAL = 1.0


def process_pool(workers: int) -> concurrent.futures.Executor:
    """The pool computer seats think in: processes, so a long search blocks no other match."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn")
    )


def stop_pool(executor: concurrent.futures.Executor) -> None:
    """Stop a pool without waiting for the searches in progress (their matches resume at the next
    start): the pending jobs are cancelled and worker processes still thinking are ended."""
    executor.shutdown(wait=False, cancel_futures=True)
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()


async def watch_leases(service: MatchService, interval: float) -> None:
    """Every ``interval`` seconds, renew the leases of the computer moves this process thinks about
    and take over those whose process died (:meth:`MatchService.tick_computers`)."""
    while True:
        await asyncio.sleep(interval)
        try:
            await run_in_threadpool(service.tick_computers)
        except Exception:  # the leases go on
            log.exception("renewing or taking over computer moves failed")


def active_matches(store: Store) -> int:
    """How many matches in progress the database holds (the limit of new ones counts them)."""
    with store.engine.connect() as c:
        return int(c.execute(_ACTIVE).scalar() or 0)


_ACTIVE = sa.select(sa.func.count()).select_from(matches).where(matches.c.status == "active")


async def watch_clocks(service: MatchService, interval: float) -> None:
    """Every ``interval`` seconds, end the matches in memory whose flag has fallen (committed and
    pushed like any change), so a flag falls with nobody asking."""
    while True:
        await asyncio.sleep(interval)
        try:
            await run_in_threadpool(service.check_clocks)
        except Exception:  # the clocks go on
            log.exception("looking at the clocks failed")


def create_app(
    db_url: str,
    workers: int = 1,
    pool: concurrent.futures.Executor | None = None,
    now: Callable[[], float] = time.time,
    clock_interval: float = CLOCK_INTERVAL,
    max_think_seconds: float = DEFAULT_THINK_SECONDS,
    max_creates_per_minute: int = CREATES_PER_MINUTE,
    max_active_matches: int = MAX_ACTIVE_MATCHES,
    abandon_after: float | None = ABANDON_AFTER,
    analysis_iterations: int | None = None,
) -> FastAPI:
    """The server on the database at ``db_url``; computer seats think in ``pool`` (by default a
    pool of ``workers`` processes); ``now`` is the clocks' wall-clock time (a test's own clock),
    looked at every ``clock_interval`` seconds; every search thinks at most
    ``max_think_seconds``. At most ``max_creates_per_minute`` new matches a
    minute from one client address, and ``max_active_matches`` matches in progress (0: no limit;
    429 beyond). A match nobody moved in for ``abandon_after`` seconds ends as abandoned by the seat
    to act (``None``: never). A finished match's analysis searches each position with
    ``analysis_iterations`` (default :data:`regalia.server.analysis.DEFAULT_ITERATIONS`), within the
    caps."""

    caps = Caps(think_seconds=max_think_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        own_pool = pool is None
        executor = pool if pool is not None else process_pool(workers)
        executor.submit(warm)
        service = MatchService(
            store,
            executor,
            now=now,
            caps=caps,
            abandon_after=abandon_after,
            analysis_iterations=analysis_iterations,
        )
        hub = Hub(service)
        hub.loop = asyncio.get_running_loop()
        service.on_change = hub.changed
        listener = Listener(db_url, hub.elsewhere) if store.is_postgres else None
        if listener is not None:
            listener.start()
        app.state.service = service
        app.state.hub = hub
        app.state.limits = CreateLimits(
            max_creates_per_minute, max_active_matches, active=lambda: active_matches(store)
        )
        resumed = await run_in_threadpool(service.resume)
        if resumed:
            log.info("computer seats resumed in %d matches", resumed)
        clocks = asyncio.create_task(watch_clocks(service, clock_interval))
        leases = asyncio.create_task(watch_leases(service, LEASE_INTERVAL))
        # What was built to start (modules, games, tables) lives as long as the server: kept out of
        # the garbage collector's full passes, which otherwise stall the event loop for 70-110 ms.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            clocks.cancel()
            leases.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await clocks
            with contextlib.suppress(asyncio.CancelledError):
                await leases
            if listener is not None:
                listener.stop()
            service.analyses.close()
            if own_pool:
                stop_pool(executor)
            store.close()

    app = FastAPI(
        title="regalia",
        version=__version__,
        summary="Play The Two Heirs, Carcassonne and Intrigue in the Royal Court in a browser.",
        description="The game server of regalia: see docs/server.md.",
        lifespan=lifespan,
    )

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        body: dict[str, Any] = {"detail": printable(exc.detail)}
        if exc.rule:
            body["rule"] = exc.rule
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse({"detail": "the body is not valid JSON"}, status_code=400)
        parts = []
        for e in errors[:3]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg", "invalid")))
        return JSONResponse({"detail": printable("; ".join(parts))}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and pages.is_page_path(request.url.path):
            return pages.not_found(f"page {request.url.path[:200]!r}")
        return JSONResponse({"detail": printable(str(exc.detail))}, status_code=exc.status_code)

    app.include_router(routes.router)
    app.include_router(sockets.router)
    pages.mount(app)
    app.add_middleware(BodyLimit)
    return app


__all__ = ["CLOCK_INTERVAL", "MAX_BODY", "create_app", "process_pool", "stop_pool", "watch_clocks"]
