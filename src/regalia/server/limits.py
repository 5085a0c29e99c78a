"""The size of what a client may send: :class:`BodyLimit` refuses a request body over
:data:`MAX_BODY` bytes with 413, before the application reads it.

>>> import asyncio
>>> sent = []
>>> async def app(scope, receive, send): raise AssertionError("not reached")
>>> async def send(message): sent.append(message)
>>> scope = {"type": "http", "headers": [(b"content-length", b"70000")]}
>>> asyncio.run(BodyLimit(app)(scope, None, send))
>>> sent[0]["status"], sent[1]["body"]
(413, b'{"detail":"the request is larger than 64 KiB"}')
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: The largest request body accepted (bytes).
MAX_BODY = 64 * 1024

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


__all__ = ["MAX_BODY", "BodyLimit"]
