"""Pushes over WebSockets: each connection gets its own seat's view, then what changed.

The first message of a connection is the whole view (``{"type": "view", "view"}``). After a change
the :class:`Hub` sends each connection only what changed since the view it holds:
``{"type": "delta", "keep": K, "log": [...], "view": {...}}``: the first ``K`` items of the log it
holds stay (fewer than it holds after an undo), the ``log`` items follow them, and ``view`` is every
other field of the new view (docs/server.md, "WebSocket").

No reader can stall the others. A push builds the view of each viewer kind (each seat, the
spectator) once and encodes each message once for all the connections of that kind that hold the
same view (one JSON text for a hundred spectators), then only queues it: every connection has its
own bounded queue (:data:`QUEUE_SIZE` messages) drained by its own task (:meth:`Connection.run`),
each send waiting at most :data:`SEND_TIMEOUT` seconds. A connection whose queue is full, or whose
send times out, is dropped (closed with code 1013, "try again later"); its client reconnects and
gets the current view. :meth:`Hub.push` never awaits a client, and what a slow client costs is at
most its queue (texts shared with the other connections) and the transport's write buffer. The
pushes of one match run one at a time, in the order of the changes, so a connection never gets
an older view after a newer one.

>>> hub = Hub(service=None)
>>> hub.changed("some-match")  # no connection to it here (and no loop yet): nothing to push
>>> hub.clients
{}
>>> encode({"type": "pong"})
'{"type":"pong"}'
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from collections.abc import Iterable
from typing import Any

from fastapi import WebSocket
from starlette.concurrency import run_in_threadpool

from regalia.server.service import MatchService
from regalia.server.views import delta

log = logging.getLogger("regalia.server")

#: Messages a connection may have queued, not yet sent; one more and it is dropped.
QUEUE_SIZE = 16
#: Seconds one send may wait (the client reads nothing, its buffers are full); then it is dropped.
SEND_TIMEOUT = 5.0
#: Seconds a dropped connection's close frame may wait to be sent.
CLOSE_TIMEOUT = 1.0
#: The close code of a dropped connection: "try again later" (the client reconnects).
DROPPED = 1013

View = dict[str, Any]


def encode(message: Any) -> str:
    """A message as the JSON text sent (as Starlette's ``send_json`` would write it)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def message(held: View | None, view: View) -> str | None:
    """The text that brings a connection holding ``held`` to ``view``: the whole view the first
    time, then a delta; ``None`` when it holds that view already."""
    if held is None:
        return encode({"type": "view", "view": view})
    if held is view or held == view:
        return None
    return encode({"type": "delta", **delta(held["log"], view)})


class Connection:
    """One WebSocket: its viewer (a seat, ``None`` for a spectator), the view it was last queued,
    and its queue of texts to send."""

    def __init__(self, ws: WebSocket, seat: int | None, size: int = QUEUE_SIZE) -> None:
        self.ws = ws
        self.seat = seat
        self.view: View | None = None
        self.size = size
        self.queue: collections.deque[str] = collections.deque()
        self.ready = asyncio.Event()
        self.dropped: str | None = None

    def offer(self, text: str) -> bool:
        """Queue ``text`` (never waits); a full queue drops the connection instead: False."""
        if self.dropped is not None:
            return False
        if len(self.queue) >= self.size:
            self.drop(f"too slow: {len(self.queue)} messages unsent")
            return False
        self.queue.append(text)
        self.ready.set()
        return True

    def drop(self, why: str) -> None:
        """Give the connection up (its :meth:`run` returns ``why``); what is queued is not sent."""
        if self.dropped is None:
            self.dropped = why
            self.queue.clear()
        self.ready.set()

    async def run(self, timeout: float = SEND_TIMEOUT) -> str:
        """Send what is queued, in order, until the connection is dropped: why it was. A send that
        waits more than ``timeout`` seconds drops it; a failed send raises."""
        while True:
            await self.ready.wait()
            self.ready.clear()
            while self.queue and self.dropped is None:
                text = self.queue.popleft()
                try:
                    await asyncio.wait_for(self.ws.send_text(text), timeout)
                except TimeoutError:
                    self.drop(f"too slow: a send waited {timeout:g} s")
            if self.dropped is not None:
                return self.dropped


class Hub:
    """The WebSocket connections of this process, by match."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.clients: dict[str, dict[WebSocket, Connection]] = {}
        # The view last queued to each kind of a match: a new connection holding an equal one shares
        # it, so that its next push is one text with the others'.
        self.latest: dict[str, dict[int | None, View]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[str] = set()  # matches whose push is still to build its views
        self._running: set[str] = set()  # matches with a push task
        self._tasks: set[asyncio.Future[None]] = set()

    def changed(self, match_id: str) -> None:
        """A match changed (called from any thread)."""
        loop = self.loop
        if loop is None or match_id not in self.clients:
            return
        loop.call_soon_threadsafe(self._schedule, match_id)

    def _schedule(self, match_id: str) -> None:
        if match_id in self._pending:
            return  # a push that has not yet built its views will see this change
        self._pending.add(match_id)
        if match_id in self._running:
            return  # the match's push task pushes again once the current push is queued
        self._running.add(match_id)
        task = asyncio.ensure_future(self._pushes(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _pushes(self, match_id: str) -> None:
        """Push a match until no change is left unpushed, one push at a time."""
        try:
            while match_id in self._pending:
                self._pending.discard(match_id)
                try:
                    await self.push(match_id)
                except Exception:  # the next change pushes again
                    log.exception("pushing match %s failed", match_id)
        finally:
            self._running.discard(match_id)

    async def push(self, match_id: str) -> None:
        """Queue the current view to every connection to the match: each viewer kind's view built
        once, each text encoded once for the connections of a kind holding the same view."""
        group = self.clients.get(match_id)
        if not group:
            return
        views = await run_in_threadpool(self.views, match_id, {c.seat for c in group.values()})
        connections = list(self.clients.get(match_id, {}).values())
        held = [c.view for c in connections]  # alive while their ids key the texts
        texts: dict[tuple[int | None, int], str | None] = {}
        latest = self.latest.setdefault(match_id, {})
        for connection, old in zip(connections, held, strict=True):
            new = views.get(connection.seat)
            if new is None:  # joined meanwhile, a kind not built: its first view comes on its own
                continue
            key = (connection.seat, id(old))
            if key not in texts:
                texts[key] = message(old, new)
            text = texts[key]
            if text is not None:
                connection.view = latest[connection.seat] = new
                connection.offer(text)

    def views(self, match_id: str, seats: Iterable[int | None]) -> dict[int | None, View]:
        """The view of each of ``seats`` (built in a thread: it takes the match's lock)."""
        live = self.service.live(match_id)
        return {seat: self.service.view_of(live, seat) for seat in seats}

    def view(self, match_id: str, seat: int | None) -> View:
        """The view of ``seat`` in a match (``None``: a spectator's)."""
        return self.service.view_of(self.service.live(match_id), seat)

    def first(self, match_id: str, connection: Connection, view: View) -> None:
        """Queue a new connection's first view, unless a push brought it one meanwhile."""
        if connection.view is None:
            text = message(None, view)
            assert text is not None
            kinds = self.latest.setdefault(match_id, {})
            shared = kinds.get(connection.seat)
            if shared is not None and shared == view:
                view = shared
            connection.view = kinds[connection.seat] = view
            connection.offer(text)

    def add(self, match_id: str, ws: WebSocket, seat: int | None) -> Connection:
        connection = Connection(ws, seat)
        self.clients.setdefault(match_id, {})[ws] = connection
        return connection

    def remove(self, match_id: str, ws: WebSocket) -> None:
        group = self.clients.get(match_id)
        if group is not None:
            connection = group.pop(ws, None)
            if connection is not None:
                connection.drop("closed")
            if not group:
                del self.clients[match_id]
                self.latest.pop(match_id, None)

    def elsewhere(self, match_id: str) -> None:
        """Another process changed a match (PostgreSQL notice)."""
        if match_id in self.clients and self.service.changed_elsewhere(match_id):
            self.changed(match_id)


__all__ = ["CLOSE_TIMEOUT", "DROPPED", "QUEUE_SIZE", "SEND_TIMEOUT", "Connection", "Hub", "encode", "message"]
