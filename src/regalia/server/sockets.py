"""The WebSocket each match page keeps open: the :class:`~regalia.server.push.Hub` sends it the
seat's view first, then what changed (docs/server.md, "WebSocket").

Each connection runs two tasks: one reads (the pings, answered with a pong through the same queue
as the pushes; text frames that are not a ping and binary frames are ignored), one sends what the
hub queued (:meth:`~regalia.server.push.Connection.run`). When either ends (the client left, or it
fell behind and was dropped) the connection is closed: a dropped one with code 1013, within
:data:`~regalia.server.push.CLOSE_TIMEOUT` seconds, else the transport is just closed.

>>> [route.path for route in router.routes], HELLO_TIMEOUT
(['/api/matches/{match_id}/ws'], 10.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from regalia.server.push import CLOSE_TIMEOUT, DROPPED, Connection, Hub, encode
from regalia.server.routes import checked_id
from regalia.server.service import ApiError, MatchService

#: Seconds a WebSocket client has to send its first message.
HELLO_TIMEOUT = 10.0
#: What a ping may look like (answered with ``{"type": "pong"}``).
PINGS = frozenset({'{"type":"ping"}', '{"type": "ping"}', "ping"})
PONG = encode({"type": "pong"})

router = APIRouter()
log = logging.getLogger("regalia.server")


async def _hello(websocket: WebSocket) -> str | None:
    """The token of the first message (``None``: a spectator); ValueError for anything else."""
    first = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
    text = first.get("text")
    if first["type"] != "websocket.receive" or not isinstance(text, str):
        raise ValueError("not a text")
    try:
        hello = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None
    token = hello.get("token") if isinstance(hello, dict) else None
    if token is not None and not isinstance(token, str):
        raise ApiError(401, "token: expected a text")
    return token


async def _read(websocket: WebSocket, connection: Connection) -> None:
    """Answer the pings until the client leaves."""
    while True:
        received = await websocket.receive()
        if received["type"] == "websocket.disconnect":
            return
        text = received.get("text")
        if isinstance(text, str) and text.strip() in PINGS:
            connection.offer(PONG)


@router.websocket("/api/matches/{match_id}/ws")
async def socket(websocket: WebSocket, match_id: str) -> None:
    """The first message is ``{"token": ...}`` (null: a spectator); then the pushes, and a pong for
    each ping."""
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    service: MatchService = websocket.app.state.service
    connection: Connection | None = None
    try:
        await checked_id(match_id)  # 404 before any database sees an id no match could have
        token = await _hello(websocket)
        seat = await run_in_threadpool(service.seat_of, match_id, token)
        # Registered before its first view is built, so that no change is missed meanwhile.
        connection = hub.add(match_id, websocket, seat)
        hub.first(match_id, connection, await run_in_threadpool(hub.view, match_id, seat))
    except ApiError as exc:
        if connection is not None:
            hub.remove(match_id, websocket)
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "detail": exc.detail})
            await websocket.close(code=1008)
        return
    except (TimeoutError, ValueError, KeyError, WebSocketDisconnect, RuntimeError):
        if connection is not None:
            hub.remove(match_id, websocket)
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "detail": 'expected {"token": ...} first'})
            await websocket.close(code=1008)
        return
    why = ["closed"]
    try:
        async with anyio.create_task_group() as tasks:

            async def send() -> None:
                try:
                    why[0] = await connection.run()
                finally:  # dropped, or the send failed (the client left): stop reading
                    tasks.cancel_scope.cancel()

            tasks.start_soon(send)
            await _read(websocket, connection)
            tasks.cancel_scope.cancel()
    except Exception:  # a send to a client that left: the connection is over
        log.debug("WebSocket of match %s ended", match_id, exc_info=True)
    finally:
        hub.remove(match_id, websocket)
    if why[0] != "closed":  # dropped: the client reconnects and gets the current view
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=DROPPED, reason=why[0][:120]), CLOSE_TIMEOUT)


__all__ = ["HELLO_TIMEOUT", "router"]
