"""The WebSocket each match page keeps open: the :class:`~regalia.server.push.Hub` sends it the
seat's view first, then what changed (docs/server.md, "WebSocket").

>>> [route.path for route in router.routes], HELLO_TIMEOUT
(['/api/matches/{match_id}/ws'], 10.0)
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from regalia.server.push import Hub
from regalia.server.routes import checked_id
from regalia.server.service import ApiError, MatchService

#: Seconds a WebSocket client has to send its first message.
HELLO_TIMEOUT = 10.0

router = APIRouter()


@router.websocket("/api/matches/{match_id}/ws")
async def socket(websocket: WebSocket, match_id: str) -> None:
    """The first message is ``{"token": ...}`` (null: a spectator); then the pushes, and a pong for
    each ping."""
    await websocket.accept()
    hub: Hub = websocket.app.state.hub
    service: MatchService = websocket.app.state.service
    try:
        await checked_id(match_id)  # 404 before any database sees an id no match could have
        received = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        text = received.get("text")
        if not isinstance(text, str):  # a binary frame, or the client left
            raise ValueError("not a text")
        try:
            hello = json.loads(text)
        except RecursionError:  # nested too deep for the parser
            raise ValueError("nested too deep") from None
        token = hello.get("token") if isinstance(hello, dict) else None
        if token is not None and not isinstance(token, str):
            raise ApiError(401, "token: expected a text")
        seat = await run_in_threadpool(service.seat_of, match_id, token)
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
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            message = received.get("text")
            if not isinstance(message, str):  # a binary frame: ignored
                continue
            if message.strip() in ('{"type":"ping"}', '{"type": "ping"}', "ping"):
                await websocket.send_json({"type": "pong"})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.remove(match_id, websocket)


__all__ = ["HELLO_TIMEOUT", "router"]
