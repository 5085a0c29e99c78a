"""What a client may send, and how much: the server's limits (docs/server.md, "Limits").

- :class:`BodyLimit` refuses a request body over :data:`MAX_BODY` bytes with 413 before the
  application reads it, whether it says its length or comes in chunks (a chunked body is read
  here, up to the limit, then handed on), and answers 408 to a body that does not arrive within
  :data:`BODY_TIMEOUT` seconds.
- :func:`check_body` refuses what JSON carries but no request means: text with NUL or a lone
  surrogate, numbers that are not finite or beyond 2**53, nesting deeper than :data:`MAX_DEPTH`.
- :class:`CreateLimits`: creates per client address per minute, and matches in progress on the
  server (429 with a message).
- :func:`http_protocol`: uvicorn's HTTP protocol with a limit on the request head
  (:data:`MAX_HEAD` bytes: 431) and a deadline for it (:data:`HEAD_TIMEOUT` seconds from the
  connection or the last answer: closed), which uvicorn has no setting for.

>>> import asyncio
>>> sent = []
>>> async def app(scope, receive, send): raise AssertionError("not reached")
>>> async def send(message): sent.append(message)
>>> scope = {"type": "http", "headers": [(b"content-length", b"70000")]}
>>> asyncio.run(BodyLimit(app)(scope, None, send))
>>> sent[0]["status"], sent[1]["body"]
(413, b'{"detail":"the request is larger than 64 KiB"}')
>>> check_body({"options": {"name": "a\\u0000"}})
Traceback (most recent call last):
...
ValueError: options.name: a text holding NUL
>>> limits = CreateLimits(per_minute=2, max_active=0, clock=lambda: 0.0)
>>> limits.check("10.0.0.1"), limits.check("10.0.0.1")
(None, None)
>>> limits.check("10.0.0.1")
Traceback (most recent call last):
...
regalia.server.errors.ApiError: too many new matches from your address: at most 2 a minute; try again in 60 s
"""

from __future__ import annotations

import asyncio
import collections
import math
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from regalia.server.errors import ApiError

#: The largest request body accepted (bytes).
MAX_BODY = 64 * 1024
#: Seconds a request body has to arrive once its head has.
BODY_TIMEOUT = 30.0
#: The largest request head (request line and headers, bytes) accepted.
MAX_HEAD = 16 * 1024
#: Seconds a connection has to send a whole request head (from its opening or the last answer).
HEAD_TIMEOUT = 10.0
#: Seconds an idle keep-alive connection stays open (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE = 5
#: The deepest nesting of arrays and objects accepted in a request body.
MAX_DEPTH = 32
#: The largest integer accepted in a request body (JSON's safe integers).
MAX_INT = 2**53
#: Default: new matches one client address may create in a minute (0: no limit).
CREATES_PER_MINUTE = 30
#: Default: matches in progress (status active) the server holds before refusing new ones (0: no limit).
MAX_ACTIVE_MATCHES = 10_000

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# -- bodies ---------------------------------------------------------------------------------------
class BodyLimit:
    """Refuse a request body over :data:`MAX_BODY` bytes with 413, whether or not it says its
    length, before the application reads it; 408 for a body that does not come in time."""

    def __init__(self, app: ASGIApp, timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 12 or int(length) > MAX_BODY:
                await _answer(send, 413, b'{"detail":"the request is larger than 64 KiB"}')
                return
            if int(length) == 0:
                await self.app(scope, receive, send)
                return
        elif b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        # A body to come: read it here (chunked bodies up to the limit), then hand it on.
        chunks: list[bytes] = []
        seen = 0
        more = True
        try:
            async with asyncio.timeout(self.timeout):
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    chunk = message.get("body", b"")
                    seen += len(chunk)
                    if seen > MAX_BODY:
                        await _answer(send, 413, b'{"detail":"the request is larger than 64 KiB"}')
                        return
                    chunks.append(chunk)
                    more = bool(message.get("more_body", False))
        except TimeoutError:
            await _answer(send, 408, b'{"detail":"the request body did not arrive in time"}')
            return
        body: Message | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> Message:
            nonlocal body
            if body is not None:
                first, body = body, None
                return first
            return await receive()

        await self.app(scope, replay, send)


async def _answer(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def check_body(value: Any, where: str = "", depth: int = 0) -> None:
    """Refuse (``ValueError`` naming where) text with NUL or a lone surrogate (keys too), numbers
    that are not finite or beyond :data:`MAX_INT`, and nesting deeper than :data:`MAX_DEPTH`."""
    if isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ValueError(f"{where or 'body'}: a number beyond 2**53")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where or 'body'}: a number that is not finite")
    elif isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            raise ValueError(f"{where or 'body'}: nested deeper than {MAX_DEPTH}")
        if isinstance(value, dict):
            for key, item in value.items():
                name = f"{where}.{key}" if where else str(key)
                if isinstance(key, str):
                    _check_text(key, name)
                check_body(item, name, depth + 1)
        else:
            for i, item in enumerate(value):
                check_body(item, f"{where}[{i}]", depth + 1)


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise ValueError(f"{printable(where) or 'body'}: a text holding NUL")
    if not _encodes(text):
        raise ValueError(f"{printable(where) or 'body'}: a text holding a lone surrogate (not UTF-8)")


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(text: str) -> str:
    """``text`` as it can be sent back: lone surrogates and NUL written as escapes.

    >>> printable("a\\ud800\\x00b")
    'a\\\\ud800\\\\x00b'
    """
    if _encodes(text) and "\x00" not in text:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


# -- creates ----------------------------------------------------------------------------------------
class CreateLimits:
    """At most ``per_minute`` creates per client address in any 60 seconds, and at most
    ``max_active`` matches in progress (``active()`` counts them); 0 turns a limit off. A refusal
    is :class:`ApiError` 429 saying which limit and when to try again (thread-safe)."""

    def __init__(
        self,
        per_minute: int = CREATES_PER_MINUTE,
        max_active: int = MAX_ACTIVE_MATCHES,
        active: Callable[[], int] = lambda: 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_minute = per_minute
        self.max_active = max_active
        self.active = active
        self.clock = clock
        self._seen: dict[str, collections.deque[float]] = {}
        self._lock = threading.Lock()
        self._swept = clock()

    def check(self, address: str) -> None:
        """Count a create from ``address``, or refuse it (429) without counting it."""
        if self.max_active and self.active() >= self.max_active:
            raise ApiError(
                429, f"the server holds {self.max_active} matches in progress: try again when some have ended"
            )
        if not self.per_minute:
            return
        now = self.clock()
        with self._lock:
            if now - self._swept > 60.0:  # forget the addresses quiet for a minute
                self._seen = {a: q for a, q in self._seen.items() if q and now - q[-1] < 60.0}
                self._swept = now
            times = self._seen.setdefault(address, collections.deque())
            while times and now - times[0] >= 60.0:
                times.popleft()
            if len(times) >= self.per_minute:
                wait = math.ceil(60.0 - (now - times[0]))
                raise ApiError(
                    429,
                    f"too many new matches from your address: at most {self.per_minute} a minute; "
                    f"try again in {wait} s",
                )
            times.append(now)


# -- the request head ----------------------------------------------------------------------------
def http_protocol(max_head: int = MAX_HEAD, head_timeout: float = HEAD_TIMEOUT) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools when installed, else h11) refusing a request head over
    ``max_head`` bytes (431, the connection closed) and closing a connection that has not sent a
    whole head ``head_timeout`` seconds after it opened or after its last answer."""
    httptools: Any
    try:
        import httptools
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # pragma: no cover - uvicorn without httptools
        httptools = None
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class Protocol(Base):
        _head = 0  # bytes of the head so far
        _oversized = False
        _timer: asyncio.TimerHandle | None = None
        _since = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._since = self.loop.time()
            self._timer = self.loop.call_later(head_timeout, self._check_head)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

        def _check_head(self) -> None:
            self._timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:  # closed, or a WebSocket
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:  # a request is being answered
                self._since = self.loop.time()
            elif self.loop.time() - self._since >= head_timeout:
                transport.close()
                return
            wait = max(0.1, head_timeout - (self.loop.time() - self._since))
            self._timer = self.loop.call_later(wait, self._check_head)

        def on_response_complete(self) -> None:
            self._since = self.loop.time()
            super().on_response_complete()

        # httptools (whose parser holds a header until it is whole): count what comes before
        # the end of a head, one read at a time
        _in_head = True

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if httptools is None or not self._in_head or self.transport.is_closing():
                return
            self._head += len(data)
            if self._head > max_head:
                self._oversized = True
                self.send_400_response("request head too large")

        def on_headers_complete(self) -> None:
            self._in_head, self._head = False, 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_head = True
            super().on_message_complete()

        def send_400_response(self, msg: str) -> None:
            if not self._oversized:
                super().send_400_response(msg)
                return
            body = b'{"detail":"the request head is larger than %d KiB"}' % (max_head // 1024)
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
            )
            self.transport.close()

    return Protocol


def uvicorn_settings() -> dict[str, Any]:
    """The settings ``regalia serve`` hands uvicorn beside :func:`http_protocol`: the request
    head's limit for h11, the idle keep-alive timeout, the WebSocket message size."""
    return {
        "http": http_protocol(),
        "h11_max_incomplete_event_size": MAX_HEAD,
        "timeout_keep_alive": KEEP_ALIVE,
        "ws_max_size": MAX_BODY,
    }


__all__ = [
    "BODY_TIMEOUT",
    "CREATES_PER_MINUTE",
    "HEAD_TIMEOUT",
    "KEEP_ALIVE",
    "MAX_ACTIVE_MATCHES",
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_HEAD",
    "MAX_INT",
    "BodyLimit",
    "CreateLimits",
    "check_body",
    "http_protocol",
    "printable",
    "uvicorn_settings",
]
