"""The HTTP and WebSocket front of the game server (FastAPI), and the browser client's files.

:func:`create_app` builds the application on a database URL. Every request is answered by the
:class:`~regalia.server.service.MatchService`; refused requests get a 4xx whose ``detail`` says what
is wrong (docs/server.md). Views are pushed over WebSockets by the
:class:`~regalia.server.push.Hub`, each connection getting its own seat's view, then what changed;
on PostgreSQL a :class:`~regalia.server.store.Listener` hears the changes other server processes
make and pushes them too.

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
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from regalia import __version__
from regalia.server.push import Hub
from regalia.server.service import ApiError, MatchService, warm
from regalia.server.store import Listener, Store

log = logging.getLogger("regalia.server")

#: The largest request body accepted (bytes).
MAX_BODY = 64 * 1024
#: Seconds a WebSocket client has to send its first message.
HELLO_TIMEOUT = 10.0

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse a request body over :data:`MAX_BODY` bytes with 413, whether or not it says its
    length, before the application reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = b'{"detail":"the request is larger than 64 KiB"}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


# -- request bodies ------------------------------------------------------------------------------
class SeatRequest(BaseModel):
    """A seat of a new match."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "computer", "automaton"] | None = None
    name: str | None = Field(None, max_length=40)
    agent: str | None = Field(None, max_length=64, description="computer seats: random, greedy or mcts")
    level: str | None = Field(None, max_length=32, description="computer seats: a level of the agent")


class CreateMatch(BaseModel):
    """A new match: a registered game, its options, one entry per seat, and the screen."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(max_length=16)
    screen: Literal["online", "shared"] = "online"


class SeatsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)


class ActionRequest(BaseModel):
    """An action in the game's notation; ``version``, when given, must be the match's."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=200)
    version: int | None = None


class Ack(BaseModel):
    """The answer to an accepted action: where the match stands, and the legal actions of the seat
    to act as a spectator reads them."""

    version: int
    plies: int
    status: Literal["active", "finished"]
    to_act: int | None
    legal: list[str]


def _token(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise ApiError(401, "Authorization: expected 'Bearer TOKEN'")
    return token.strip()


Auth = Annotated[str | None, Header(description="Bearer TOKEN: the seat's token")]


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


def create_app(db_url: str, workers: int = 1, pool: concurrent.futures.Executor | None = None) -> FastAPI:
    """The server on the database at ``db_url``; computer seats think in ``pool`` (by default a
    pool of ``workers`` processes)."""
    holder: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        own_pool = pool is None
        executor = pool if pool is not None else process_pool(workers)
        executor.submit(warm)
        service = MatchService(store, executor)
        hub = Hub(service)
        hub.loop = asyncio.get_running_loop()
        service.on_change = hub.changed
        listener = Listener(db_url, hub.elsewhere) if store.is_postgres else None
        if listener is not None:
            listener.start()
        holder.update(service=service, hub=hub, store=store)
        app.state.service = service
        resumed = await run_in_threadpool(service.resume)
        if resumed:
            log.info("computer seats resumed in %d matches", resumed)
        # What was built to start (modules, games, tables) lives as long as the server: kept out of
        # the garbage collector's full passes, which otherwise stall the event loop for 70-110 ms.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            if listener is not None:
                listener.stop()
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

    def service() -> MatchService:
        svc: MatchService = holder["service"]
        return svc

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        body: dict[str, Any] = {"detail": exc.detail}
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
        return JSONResponse({"detail": "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code)

    # -- games ----------------------------------------------------------------------------
    @app.get("/api/games", tags=["games"])
    def games() -> list[dict[str, Any]]:
        """The registered games: options schema, seat range, the agents and their levels."""
        return service().catalog()

    @app.post("/api/games/{game}/seats", tags=["games"])
    def seats(game: str, body: SeatsRequest) -> list[dict[str, Any]]:
        """The seats a game has with these options (422 names a bad option)."""
        return service().seats_for(game, body.options)

    @app.get("/api/games/{game}/rules", tags=["games"], response_class=PlainTextResponse)
    def rules(game: str) -> PlainTextResponse:
        """The rulebook shipped with the game (Markdown)."""
        return PlainTextResponse(service().rules(game), media_type="text/markdown; charset=utf-8")

    # -- matches --------------------------------------------------------------------------
    @app.post("/api/matches", status_code=201, tags=["matches"])
    def create(body: CreateMatch) -> dict[str, Any]:
        """Create a match: the private link and token of each human seat, and the spectator link."""
        seats = [s.model_dump(exclude_none=True) for s in body.seats]
        return service().create(body.game, body.options, seats, body.screen)

    @app.get("/api/matches", tags=["matches"])
    def matches(
        status: Annotated[Literal["active", "finished"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> list[dict[str, Any]]:
        """Matches, the most recently changed first."""
        return service().listing(status, limit)

    @app.get("/api/matches/{match_id}", tags=["matches"])
    def view(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """The view of the token's seat, or a spectator's without a token."""
        return service().view(match_id, _token(authorization))

    @app.post("/api/matches/{match_id}/actions", tags=["matches"], response_model=Ack)
    async def act(match_id: str, body: ActionRequest, authorization: Auth = None) -> JSONResponse:
        """Play an action in the game's notation (checked by the engine; 422 names the rule).

        The hot path: on SQLite checked, applied and committed on the event loop itself (a
        fraction of a millisecond; no thread hop; on PostgreSQL, whose commits cross the network,
        in a worker thread), the answer written without a response model."""
        svc, token = service(), _token(authorization)
        if svc.store.is_postgres:
            ack = await run_in_threadpool(svc.act, match_id, token, body.action, body.version)
        else:
            ack = svc.act(match_id, token, body.action, body.version)
        return JSONResponse(ack)

    @app.post("/api/matches/{match_id}/undo", tags=["matches"])
    def undo(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """Take back your last decision, with what the computer played after it (online against
        people: asks the opponent)."""
        return service().undo(match_id, _token(authorization))

    @app.post("/api/matches/{match_id}/undo/accept", tags=["matches"])
    def undo_accept(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """Allow the opponent's request to take back."""
        return service().answer_undo(match_id, _token(authorization), True)

    @app.post("/api/matches/{match_id}/undo/decline", tags=["matches"])
    def undo_decline(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """Refuse the opponent's request to take back."""
        return service().answer_undo(match_id, _token(authorization), False)

    @app.post("/api/matches/{match_id}/resign", tags=["matches"], response_model=Ack)
    def resign(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """Resign: the match is over and the seat ranks last (the record says so); 409 when over."""
        return service().resign(match_id, _token(authorization))

    @app.post("/api/matches/{match_id}/hint", tags=["matches"])
    def hint(match_id: str, authorization: Auth = None) -> dict[str, Any]:
        """What the hint agent would play (against the computer, or on a shared screen)."""
        return service().hint(match_id, _token(authorization))

    @app.get("/api/matches/{match_id}/record", tags=["matches"])
    def record(match_id: str, authorization: Auth = None) -> JSONResponse:
        """The record: complete once the match is over; the viewer's while it is played."""
        doc = service().record(match_id, _token(authorization))
        headers = {"Content-Disposition": f'attachment; filename="regalia-{match_id}.json"'}
        return JSONResponse(doc, headers=headers)

    @app.get("/api/matches/{match_id}/svg", tags=["matches"], response_class=Response)
    def svg(match_id: str, ply: Annotated[int, Query(ge=0, le=100_000)]) -> Response:
        """A finished match's position after ``ply`` plies (SVG)."""
        return Response(service().svg_at(match_id, ply), media_type="image/svg+xml")

    @app.websocket("/api/matches/{match_id}/ws")
    async def socket(websocket: WebSocket, match_id: str) -> None:
        await websocket.accept()
        hub: Hub = holder["hub"]
        try:
            hello = await asyncio.wait_for(websocket.receive_json(), HELLO_TIMEOUT)
            token = hello.get("token") if isinstance(hello, dict) else None
            if token is not None and not isinstance(token, str):
                raise ApiError(401, "token: expected a text")
            seat = await run_in_threadpool(service().seat_of, match_id, token)
            first = await run_in_threadpool(hub.view, match_id, seat)
        except ApiError as exc:
            await websocket.send_json({"type": "error", "detail": exc.detail})
            await websocket.close(code=1008)
            return
        except (TimeoutError, ValueError, KeyError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "detail": 'expected {"token": ...} first'})
                await websocket.close(code=1008)
            return
        hub.add(match_id, websocket, seat)
        try:
            await hub.send(websocket, first)
            while True:
                message = await websocket.receive_text()
                if message.strip() in ('{"type":"ping"}', '{"type": "ping"}', "ping"):
                    await websocket.send_json({"type": "pong"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.remove(match_id, websocket)

    # -- the browser client -----------------------------------------------------------------
    web = resources.files("regalia.web")

    def page(name: str) -> FileResponse:
        path = web / name
        if not path.is_file():
            raise ApiError(404, f"the browser client's {name} is not installed")
        return FileResponse(str(path), media_type="text/html")

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/match/{match_id}", include_in_schema=False)
    def match_page(match_id: str) -> FileResponse:
        return page("match.html")

    app.mount("/static", StaticFiles(directory=str(web)), name="static")
    app.add_middleware(BodyLimit)
    return app
