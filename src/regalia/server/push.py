"""Pushes over WebSockets: each connection gets its own seat's view, then what changed.

The first message of a connection is the whole view (``{"type": "view", "view"}``). After a change
the :class:`Hub` sends each connection only what changed since the view it holds:
``{"type": "delta", "keep": K, "log": [...], "view": {...}}``: the first ``K`` items of the log it
holds stay (fewer than it holds after an undo), the ``log`` items follow them, and ``view`` is every
other field of the new view (docs/server.md, "WebSocket").

>>> hub = Hub(service=None)
>>> hub.changed("some-match")  # no connection to it here (and no loop yet): nothing to push
>>> hub.clients
{}
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool

from regalia.server.service import MatchService
from regalia.server.views import delta


class Hub:
    """The WebSocket connections of this process, by match, with the log each one holds."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.clients: dict[str, dict[WebSocket, int | None]] = {}
        self.sent: dict[WebSocket, list[Any]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[str] = set()
        self._tasks: set[asyncio.Future[None]] = set()

    def changed(self, match_id: str) -> None:
        """A match changed (called from any thread)."""
        loop = self.loop
        if loop is None or match_id not in self.clients:
            return
        loop.call_soon_threadsafe(self._schedule, match_id)

    def _schedule(self, match_id: str) -> None:
        if match_id in self._pending:
            return
        self._pending.add(match_id)
        task = asyncio.ensure_future(self.push(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def push(self, match_id: str) -> None:
        self._pending.discard(match_id)
        clients = dict(self.clients.get(match_id, {}))
        if not clients:
            return
        views: dict[int | None, Any] = {}
        for ws, seat in clients.items():
            try:
                if seat not in views:
                    views[seat] = await run_in_threadpool(self.view, match_id, seat)
                await self.send(ws, views[seat])
            except Exception:  # a closed socket: forget it
                self.remove(match_id, ws)

    async def send(self, ws: WebSocket, view: dict[str, Any]) -> None:
        """Send ``view`` to ``ws``: whole the first time, then as a delta of the log it holds."""
        sent = self.sent.get(ws)
        # What the connection holds once this is sent, set before the send: a push meanwhile is
        # a delta of this one, and messages on a connection arrive in the order they are sent.
        self.sent[ws] = view["log"]
        if sent is None:
            await ws.send_json({"type": "view", "view": view})
        else:
            await ws.send_json({"type": "delta", **delta(sent, view)})

    def view(self, match_id: str, seat: int | None) -> Any:
        """The view of ``seat`` in a match (``None``: a spectator's)."""
        return self.service.view_of(self.service.live(match_id), seat)

    def add(self, match_id: str, ws: WebSocket, seat: int | None) -> None:
        self.clients.setdefault(match_id, {})[ws] = seat

    def remove(self, match_id: str, ws: WebSocket) -> None:
        self.sent.pop(ws, None)
        group = self.clients.get(match_id)
        if group is not None:
            group.pop(ws, None)
            if not group:
                del self.clients[match_id]

    def elsewhere(self, match_id: str) -> None:
        """Another process changed a match (PostgreSQL notice)."""
        if match_id in self.clients and self.service.changed_elsewhere(match_id):
            self.changed(match_id)


__all__ = ["Hub"]
