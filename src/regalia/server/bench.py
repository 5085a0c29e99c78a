"""``regalia bench server``: concurrent matches driven through the game server's HTTP API.

What it measures
    The server answering ``POST /api/matches/{id}/actions`` (parse, check with the engine, apply,
    draw chance, commit to the store, answer with the next legal actions) under load: accepted moves
    per second and the p50/p99 latency of the action requests in milliseconds, seen by the client on
    loopback (JSON keys ``moves_per_s``, ``p50_ms``, ``p99_ms``).

How
    The server is started as a subprocess (``regalia serve --host 127.0.0.1 --port P --db URL``,
    :mod:`regalia.server.process`), on a fresh SQLite file in a temporary folder unless
    ``--db`` names a database, on a free port unless ``--port`` names one; ``--url`` benchmarks a
    server that is already running instead (to run it under a profiler, say). The client waits until
    ``GET /api/games`` answers, creates ``games`` matches with every seat human (automaton seats stay
    automata) and holds all their tokens, then drives every match at once from one asyncio event loop
    (uvloop when installed), each match over its own keep-alive HTTP/1.1 connection (:class:`Http`,
    a minimal client: a general one such as httpx cost the client more CPU per request than the
    server's whole move, and its garbage collections paused the client long enough to show as the
    server's p99). One request per move suffices: the answer to an action carries ``version``,
    ``status``, ``to_act`` and ``legal`` (the legal actions of the seat to act as a spectator reads
    them), so the client picks the next move with a seeded :class:`random.Random` (one per match
    slot; chance is drawn by the server from a secret seed, so the games themselves are not
    reproducible) and posts it with the acting seat's token and the match's version. A finished
    match is replaced by a new one, so that ``games`` matches are always in play. Any refused
    action (not 200) or request without an answer is counted in ``errors`` over the whole run
    (there should be none), and the match is read again before it goes on.

    The matches are created first (not timed; what the client holds then is frozen out of its
    garbage collections, :func:`gc.freeze`); then ``warmup`` seconds of play are not counted;
    then the requests answered within the measured window (``seconds``, or until ``moves`` moves are
    accepted) are counted: ``moves_per_s`` is accepted moves divided by the window, ``p50_ms``,
    ``p90_ms``, ``p99_ms``, ``max_ms`` and ``mean_ms`` are over the action requests answered in it.
    Creating the replacement matches is part of the load but not of the latencies.

Think time and Little's law
    The loop is closed: a match sends its next move only once the last one is answered. With
    ``think_ms = 0`` every match has a request in flight at all times, so by Little's law the mean
    latency is ``games / moves_per_s`` whatever the server does: 100 matches at 1,000 moves/s wait
    100 ms on average. That run measures the server's capacity (its saturation throughput), not the
    latency a player sees. With ``think_ms = T`` each simulated player waits a uniformly random
    ``0.5 T`` to ``1.5 T`` after an answer before its next move (and the matches start at random
    offsets within ``T``), so ``games`` matches offer at most ``games / (T + latency)`` moves per
    second; the default, 100 ms, is a player ten times faster than any human and lets 100 matches
    offer up to about 1,000 moves per second, twice the target of 500. ``rate`` (moves per second,
    all matches together) paces the moves instead or as well: a move waits for the next free slot of
    a uniform schedule. ``in_flight_mean`` (= ``moves_per_s * mean_ms / 1000``) is the mean number of
    action requests the server held at once.

    The figures depend on the machine: the client shares its cores with the server, so
    ``client_cpu_ms_per_move`` and ``server_cpu_ms_per_move`` (the server process's CPU time, Linux
    only) are reported too.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import dataclasses
import gc
import json
import math
import os
import platform
import random
import signal
import socket
import statistics
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from regalia.core.errors import OptionError, RegaliaError
from regalia.core.registry import game_class
from regalia.server.process import ServerProcess, ServerStartError, wait_answering

#: Concurrent matches.
DEFAULT_GAMES = 100
#: The game the benchmark's matches play unless told (``--game``).
DEFAULT_GAME = "two-heirs"
#: Seconds measured (after the warm-up).
DEFAULT_SECONDS = 10.0
#: Seconds of play not counted, after the matches are created.
DEFAULT_WARMUP = 2.0
#: Mean think time of a simulated player, in milliseconds.
DEFAULT_THINK_MS = 100.0
#: Errors after which the run is given up.
MAX_ERRORS = 1000


class BenchError(RegaliaError):
    """The benchmark could not run (the server did not start, or stopped answering)."""


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ascending values, by nearest rank; ``nan`` for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user and system) of process ``pid`` so far; ``None`` off Linux or without one."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclasses.dataclass
class Server:
    """A server to benchmark: its address, its process id if this run started it, its database."""

    url: str
    pid: int | None
    db: str


@contextlib.contextmanager
def served(db: str | None = None, port: int | None = None) -> Iterator[Server]:
    """Run ``regalia serve`` in a subprocess on ``db`` (default: a new SQLite file in a temporary
    folder, removed afterwards) and ``port`` (default: a free one) until the block ends; it is
    stopped with Ctrl+C (SIGINT), then SIGKILL to whatever is left of its process group
    (:class:`~regalia.server.process.ServerProcess`)."""
    with tempfile.TemporaryDirectory(prefix="regalia-bench-", ignore_cleanup_errors=True) as folder:
        shown = "sqlite (a new temporary file)" if db is None else _shown(db)
        if db is None:
            db = f"sqlite:///{os.path.join(folder, 'bench.db')}"
        server = ServerProcess(db, log_path=Path(folder, "serve.log"), port=port)
        try:
            try:
                server.start()
            except ServerStartError as exc:
                raise BenchError(str(exc)) from None
            yield Server(server.url, server.pid, shown)
        finally:
            server.stop(signal.SIGINT, timeout=15.0)


def _shown(db: str) -> str:
    """A database URL without its password (as SQLAlchemy shows one); as given if it is none.

    >>> _shown("postgresql+psycopg://me:secret@db.example:5432/regalia"), _shown("sqlite:///x.db")
    ('postgresql+psycopg://me:***@db.example:5432/regalia', 'sqlite:///x.db')
    """
    import sqlalchemy as sa

    try:
        return sa.engine.make_url(db).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:  # not a URL: `regalia serve` will say so
        return db


class HttpError(Exception):
    """A request that got no answer (the connection failed or closed, or it timed out)."""


class Http:
    """One keep-alive HTTP/1.1 connection to the server: JSON in, status and JSON out.

    The benchmark's own client, deliberately minimal, so that it disturbs what it measures as little
    as possible: it shares the machine's cores with the server, and a general client costs more per
    request than the server's whole move (httpx: ~1 ms of CPU, and ~45 objects of cyclic garbage
    whose collections paused the client for 30-100 ms, which showed as the server's p99)."""

    #: Seconds a connection may stay idle before it is opened again (uvicorn closes it after 5).
    IDLE = 4.0

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """``(status, decoded JSON or text)``; :class:`HttpError` when no answer came."""
        try:
            return await asyncio.wait_for(self._request(method, path, body, token), self.timeout)
        except (OSError, EOFError, ValueError, asyncio.LimitOverrunError, TimeoutError) as exc:
            self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__} {exc}") from None

    async def _request(self, method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        if self.writer is None or time.monotonic() - self.used > self.IDLE:
            self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        self.writer.write(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            content = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            content = await self._chunks()
        else:  # the body ends with the connection
            content = await self.reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        self.used = time.monotonic()
        if headers.get("content-type", "").startswith("application/json"):
            return status, json.loads(content)
        return status, content.decode("utf-8", "replace")

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _detail(answer: Any) -> str:
    """What a refusal says."""
    if isinstance(answer, dict) and "detail" in answer:
        return str(answer["detail"])
    return str(answer)[:300]


@dataclasses.dataclass
class Match:
    """One match as the client knows it."""

    id: str
    tokens: dict[int, str]
    version: int = 0
    finished: bool = False
    to_act: int | None = None
    legal: list[str] = dataclasses.field(default_factory=list)

    def update(self, answer: Mapping[str, Any]) -> None:
        self.version = int(answer["version"])
        self.finished = answer["status"] == "finished"
        self.to_act = answer["to_act"]
        self.legal = list(answer["legal"])


class Pacer:
    """At most ``rate`` moves per second over all matches: each move takes the next slot of a uniform
    schedule (a slot missed is not made up later)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next_at = time.perf_counter()

    async def wait(self) -> None:
        now = time.perf_counter()
        at = max(self.next_at, now)
        self.next_at = at + self.interval
        if at > now:
            await asyncio.sleep(at - now)


@dataclasses.dataclass
class Settings:
    """What one run does (see :func:`bench_server`)."""

    games: int
    game: str
    options: dict[str, Any]
    seconds: float
    moves: int | None
    warmup: float
    think_ms: float
    rate: float | None
    seed: int
    spectators: int = 0
    idle: int = 0


class Watch:
    """The match the spectators watch (slot 0's; the next one once it is over) and when each of its
    moves was sent, by the version it was sent at: a push that brings a spectator from version ``p``
    is the answer to the move sent at ``p``."""

    def __init__(self) -> None:
        self.match_id: str | None = None
        self.sent: dict[int, float] = {}
        self.moved = asyncio.Event()  # set when the watched match is replaced

    def watch(self, match_id: str) -> None:
        self.match_id = match_id
        self.sent = {}
        self.moved.set()
        self.moved = asyncio.Event()


def _upgrade(host: str, port: int, path: str) -> bytes:
    """The HTTP request that opens a WebSocket."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def _text_frame(text: str) -> bytes:
    """A masked text frame (as a client sends) of a short text.

    >>> _text_frame("{}")[:2]
    b'\\x81\\x82'
    """
    data = text.encode()
    assert len(data) < 126
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def idle_socket(
    host: str, port: int, match_id: str, hello: str = "{}", timeout: float = 10.0
) -> socket.socket:
    """A WebSocket to a match's pushes that finishes the handshake, sends its hello and then never
    reads (a small receive buffer, so that it falls behind soon): the socket, to be closed by the
    caller. What a careless or hostile spectator does (docs/server.md, "WebSocket")."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(timeout)
    try:
        sock.connect((host, port))
        sock.sendall(_upgrade(host, port, f"/api/matches/{match_id}/ws"))
        head = b""
        while b"\r\n\r\n" not in head:  # the 101 answer, read a byte at a time: nothing after it
            byte = sock.recv(1)
            if not byte:
                raise OSError("the server closed the connection during the handshake")
            head += byte
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError(f"no WebSocket: {head.splitlines()[0]!r}")
        sock.sendall(_text_frame(hello))
    except BaseException:
        sock.close()
        raise
    return sock


class Run:
    """The counts and timings of one run."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.start = 0.0  # the measured window, perf_counter() seconds
        self.end = math.inf
        self.stop = asyncio.Event()
        self.samples: list[tuple[float, float]] = []  # (answered at, milliseconds), accepted moves
        self.refusals: list[tuple[float, float]] = []  # the same, refused or failed action requests
        self.errors: collections.Counter[str] = collections.Counter()
        self.examples: list[str] = []
        self.started = 0
        self.finished = 0
        self.counted = 0
        self.failure: str | None = None
        self.pushes: list[tuple[float, float]] = []  # (received at, ms since the move was sent)
        self.push_messages = 0  # messages the spectators received in the measured window
        self.drops = 0  # spectator connections the server closed before their match was over

    def measuring(self, t: float) -> bool:
        return self.start <= t <= self.end and self.start > 0

    def accepted(self, sent: float, answered: float) -> None:
        self.samples.append((answered, (answered - sent) * 1000.0))
        if self.measuring(answered):
            self.counted += 1
            moves = self.settings.moves
            if moves is not None and self.counted >= moves:
                self.finish(answered)

    def refused(self, sent: float, answered: float, kind: str, detail: str) -> None:
        self.refusals.append((answered, (answered - sent) * 1000.0))
        self.errors[kind] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {detail}"[:300])
        if sum(self.errors.values()) >= MAX_ERRORS:
            self.fail(f"{MAX_ERRORS} errors")

    def finish(self, t: float) -> None:
        if not self.stop.is_set():
            self.end = t
            self.stop.set()

    def fail(self, why: str) -> None:
        if self.failure is None:
            self.failure = why
        self.finish(time.perf_counter())


async def _drive(url: str, settings: Settings, server_pid: int | None) -> dict[str, Any]:
    """Play the matches against the server at ``url``; the figures."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or parts.hostname is None:
        raise OptionError(f"--url: expected http://HOST:PORT, not {url!r}")
    host, port = parts.hostname, parts.port or 80
    run = Run(settings)
    watch = Watch()
    idle: list[socket.socket] = []  # the sockets that never read
    think = settings.think_ms / 1000.0
    pacer = Pacer(settings.rate) if settings.rate else None
    # one keep-alive connection per match, as each player of a real match has its own
    connections = [Http(host, port) for _ in range(settings.games)]
    try:
        status, answer = await connections[0].request(
            "POST", f"/api/games/{settings.game}/seats", {"options": settings.options}
        )
        if status != 200:
            raise BenchError(_detail(answer))
        seats = [{"kind": "automaton" if s["automaton"] else "human"} for s in answer]
        all_made = asyncio.Event()

        async def new_match(http: Http) -> Match:
            body = {"game": settings.game, "options": settings.options, "seats": seats, "screen": "online"}
            status, made = await http.request("POST", "/api/matches", body)
            if status != 201:
                raise BenchError(f"creating a match: {status} {_detail(made)}")
            tokens = {int(s["seat"]): str(s["token"]) for s in made["seats"] if "token" in s}
            match = Match(made["id"], tokens)
            if http is connections[0]:
                watch.watch(match.id)
            await reread(http, match)
            run.started += 1
            if run.started == settings.games:
                all_made.set()
            return match

        async def reread(http: Http, match: Match) -> None:
            status, view = await http.request("GET", f"/api/matches/{match.id}")
            if status != 200:
                raise BenchError(f"reading match {match.id}: {status} {_detail(view)}")
            match.update(view)

        async def player(slot: int) -> None:
            rng = random.Random(f"{settings.seed}:{slot}")
            http = connections[slot]
            match = await new_match(http)
            await all_made.wait()
            if think:
                await asyncio.sleep(rng.uniform(0.0, think))
            while not run.stop.is_set():
                if match.finished:
                    run.finished += 1
                    match = await new_match(http)
                    continue
                if match.to_act is None or match.to_act not in match.tokens or not match.legal:
                    # not a human seat's turn (a computer or chance would be: there is none here)
                    await asyncio.sleep(0.01)
                    await reread(http, match)
                    continue
                action = rng.choice(match.legal)
                if pacer is not None:
                    await pacer.wait()
                    if run.stop.is_set():
                        break
                path = f"/api/matches/{match.id}/actions"
                body = {"action": action, "version": match.version}
                sent = time.perf_counter()
                if slot == 0:
                    watch.sent[match.version] = sent
                try:
                    status, answer = await http.request("POST", path, body, match.tokens[match.to_act])
                except HttpError as exc:  # the match is read again (which fails if the server is gone)
                    run.refused(sent, time.perf_counter(), "no answer", str(exc))
                    await reread(http, match)
                    continue
                answered = time.perf_counter()
                if status == 200:
                    run.accepted(sent, answered)
                    match.update(answer)
                else:
                    run.refused(sent, answered, str(status), f"{action!r}: {_detail(answer)}")
                    await reread(http, match)
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))

        cpu: dict[str, tuple[float, float | None]] = {}

        async def clock() -> None:
            await all_made.wait()
            gc.collect()  # what the setup left is kept out of the collections during the run
            gc.freeze()
            await asyncio.sleep(settings.warmup)
            run.start = time.perf_counter()
            cpu["before"] = (time.process_time(), _cpu_seconds(server_pid))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    run.stop.wait(), None if math.isinf(settings.seconds) else settings.seconds
                )
            run.finish(time.perf_counter())
            cpu["after"] = (time.process_time(), _cpu_seconds(server_pid))

        async def spectator(ws_url: str) -> None:
            from websockets.asyncio.client import connect
            from websockets.exceptions import WebSocketException

            await all_made.wait()
            while not run.stop.is_set():
                match_id, moved = watch.match_id, watch.moved
                try:
                    async with connect(f"{ws_url}/api/matches/{match_id}/ws", max_size=None) as ws:
                        await ws.send("{}")
                        held: int | None = None
                        async for text in ws:
                            now = time.perf_counter()
                            pushed = json.loads(text)
                            if "view" not in pushed:  # an error: the next connection says more
                                break
                            version = pushed["view"]["version"]
                            if run.measuring(now):
                                run.push_messages += 1
                                if held is not None and held in watch.sent and match_id == watch.match_id:
                                    run.pushes.append((now, (now - watch.sent[held]) * 1000.0))
                            held = version
                            if pushed["view"]["status"] == "finished":
                                break
                        else:
                            run.drops += 1
                except (OSError, WebSocketException):
                    run.drops += 1
                    await asyncio.sleep(0.1)
                    continue
                if match_id == watch.match_id:
                    await moved.wait()

        async def idlers() -> None:
            await all_made.wait()
            loop = asyncio.get_running_loop()
            assert watch.match_id is not None
            for _ in range(settings.idle):
                idle.append(await loop.run_in_executor(None, idle_socket, host, port, watch.match_id))

        tasks = [asyncio.ensure_future(player(slot)) for slot in range(settings.games)]
        ws_url = f"ws://{host}:{port}"
        # the spectators read until they are cancelled, once the players and the clock are done
        watchers = [asyncio.ensure_future(spectator(ws_url)) for _ in range(settings.spectators)]
        if settings.idle:
            watchers.append(asyncio.ensure_future(idlers()))
        tasks.append(asyncio.ensure_future(clock()))
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks + watchers:
                task.cancel()
            await asyncio.gather(*tasks, *watchers, return_exceptions=True)
    except HttpError as exc:
        raise BenchError(f"the server at {url} stopped answering: {exc}") from None
    finally:
        for http in connections:
            http.close()
        for sock in idle:
            sock.close()
    return _figures(run, cpu["before"], cpu["after"])


def _ms(value: float, digits: int = 2) -> float | None:
    """A figure for JSON: ``None`` when there was nothing to measure."""
    return None if math.isnan(value) else round(value, digits)


def _figures(
    run: Run, before: tuple[float, float | None], after: tuple[float, float | None]
) -> dict[str, Any]:
    if run.failure is not None:
        raise BenchError(f"the run was given up: {run.failure}; e.g. {run.examples[:3]}")
    s = run.settings
    window = run.end - run.start
    moves = [ms for t, ms in run.samples if run.measuring(t)]
    answered = sorted(moves + [ms for t, ms in run.refusals if run.measuring(t)])
    if not answered:
        raise BenchError(f"no action was answered in the {window:.1f} s measured: try more --seconds")
    rate = len(moves) / window if window > 0 else 0.0
    mean = statistics.fmean(answered)
    server_cpu = None if before[1] is None or after[1] is None else after[1] - before[1]
    per_move = 1000.0 / len(moves) if moves else math.nan
    pushed = sorted(ms for t, ms in run.pushes if run.measuring(t))
    return {
        "moves_per_s": round(rate, 1),
        "p50_ms": _ms(percentile(answered, 0.50)),
        "p99_ms": _ms(percentile(answered, 0.99)),
        "p90_ms": _ms(percentile(answered, 0.90)),
        "max_ms": _ms(answered[-1]),
        "mean_ms": _ms(mean),
        "in_flight_mean": round(rate * mean / 1000.0, 1),
        "moves": len(moves),
        "errors": sum(run.errors.values()),
        "errors_by_kind": dict(run.errors),
        "error_examples": run.examples,
        "seconds": round(window, 3),
        "warmup_s": s.warmup,
        "games": s.games,
        "game": s.game,
        "options": s.options,
        "think_ms": s.think_ms,
        "rate": s.rate,
        "matches_started": run.started,
        "matches_finished": run.finished,
        "client_cpu_ms_per_move": _ms((after[0] - before[0]) * per_move, 3),
        "server_cpu_ms_per_move": None if server_cpu is None else _ms(server_cpu * per_move, 3),
        "spectators": s.spectators,
        "idle_spectators": s.idle,
        "spectator_messages": run.push_messages,
        "spectator_messages_per_s": round(run.push_messages / window, 1) if window > 0 else 0.0,
        "spectator_p50_ms": _ms(percentile(pushed, 0.50)),
        "spectator_p99_ms": _ms(percentile(pushed, 0.99)),
        "spectator_max_ms": _ms(pushed[-1]) if pushed else None,
        "spectator_drops": run.drops,
        "server_cpu_ms_per_message": None
        if server_cpu is None or not run.push_messages
        else _ms(server_cpu * 1000.0 / run.push_messages, 3),
        "cpus": os.cpu_count(),
        "seed": s.seed,
        "python": platform.python_version(),
    }


def _event_loop_factory() -> Any:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def bench_server(
    games: int = DEFAULT_GAMES,
    game: str = DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
    seconds: float | None = None,
    moves: int | None = None,
    warmup: float = DEFAULT_WARMUP,
    think_ms: float = DEFAULT_THINK_MS,
    rate: float | None = None,
    seed: int = 0,
    db: str | None = None,
    port: int | None = None,
    url: str | None = None,
    spectators: int = 0,
    idle: int = 0,
) -> dict[str, Any]:
    """Drive ``games`` concurrent matches of ``game`` through the HTTP API of a server started for
    the run (on ``db`` and ``port``; or the running server at ``url``) and return the figures (see
    the module's docstring). The measured window lasts ``seconds`` (default 10 s, or until ``moves``
    moves are accepted when that is given)."""
    if games < 1:
        raise OptionError("--games: expected at least 1")
    if moves is not None and moves < 1:
        raise OptionError("--moves: expected at least 1")
    if think_ms < 0 or (rate is not None and rate <= 0) or warmup < 0:
        raise OptionError("--think-ms and --warmup: expected 0 or more; --rate: more than 0")
    if seconds is None:
        seconds = math.inf if moves is not None else DEFAULT_SECONDS
    if spectators < 0 or idle < 0:
        raise OptionError("--spectators and --idle-spectators: expected 0 or more")
    settings = Settings(
        games, game, dict(options or {}), seconds, moves, warmup, think_ms, rate, seed, spectators, idle
    )
    if url is None:
        game_class(game)  # an unknown game is refused before a server is started
    with contextlib.ExitStack() as stack:
        if url is None:
            server = stack.enter_context(served(db, port))
        else:
            url = url.rstrip("/")
            try:
                wait_answering(url, timeout=10.0)
            except ServerStartError as exc:
                raise BenchError(str(exc)) from None
            server = Server(url, None, "the running server's")
        with asyncio.Runner(loop_factory=_event_loop_factory()) as runner:
            result = runner.run(_drive(server.url, settings, server.pid))
        result["db"] = server.db
        result["server"] = "regalia serve (subprocess)" if url is None else url
        return result


# -- the command ------------------------------------------------------------------------------------
def bench_server_command(
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Matches played at once (each replaced when over).")
    ] = DEFAULT_GAMES,
    game: Annotated[str, typer.Option("--game", help="The game the matches play.")] = DEFAULT_GAME,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", min=0.1, help="Seconds measured, after the warm-up (default 10)."),
    ] = None,
    moves: Annotated[
        int | None, typer.Option("--moves", min=1, help="Stop once this many moves are accepted.")
    ] = None,
    warmup: Annotated[
        float, typer.Option("--warmup", min=0.0, help="Seconds of play before the measurement.")
    ] = DEFAULT_WARMUP,
    think_ms: Annotated[
        float,
        typer.Option(
            "--think-ms", min=0.0, help="Mean think time of a player between moves (0: no pause, saturation)."
        ),
    ] = DEFAULT_THINK_MS,
    rate: Annotated[
        float | None, typer.Option("--rate", min=0.001, help="At most this many moves per second in all.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the players' choices.")] = 0,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL of the server (default: a new SQLite file).")
    ] = None,
    port: Annotated[
        int | None, typer.Option("--port", min=1, max=65535, help="Port of the server (default: a free one).")
    ] = None,
    url: Annotated[
        str | None,
        typer.Option("--url", help="Benchmark the server running at this address instead of starting one."),
    ] = None,
    spectators: Annotated[
        int,
        typer.Option(
            "--spectators", min=0, help="Spectator WebSockets on one match (slot 0's), reading every push."
        ),
    ] = 0,
    idle: Annotated[
        int,
        typer.Option("--idle-spectators", min=0, help="Spectator WebSockets on it that never read."),
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Benchmark the game server: concurrent matches of random moves through its HTTP API on loopback
    (accepted moves per second, p50/p99 latency of the action requests); see docs/server.md."""
    from regalia.core.options import parse_option_pairs
    from regalia.render.console import console

    if url is not None and (db is not None or port is not None):
        raise OptionError("--url benchmarks a running server: --db and --port start one")
    result = bench_server(
        games=games,
        game=game,
        options=parse_option_pairs(option),
        seconds=seconds,
        moves=moves,
        warmup=warmup,
        think_ms=think_ms,
        rate=rate,
        seed=seed,
        db=db,
        port=port,
        url=url,
        spectators=spectators,
        idle=idle,
    )
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    from rich.table import Table

    table = Table(title="regalia bench server", title_style="bold", show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right", style="bold")
    table.add_row("accepted moves per second", f"{result['moves_per_s']:.1f}")
    for q in ("p50", "p90", "p99"):
        table.add_row(f"{q} latency of an action", f"{result[q + '_ms']:.1f} ms")
    table.add_row("mean / max latency", f"{result['mean_ms']:.1f} / {result['max_ms']:.1f} ms")
    table.add_row("requests in flight (mean)", f"{result['in_flight_mean']:.1f}")
    table.add_row("moves measured", f"{result['moves']} in {result['seconds']:.1f} s")
    table.add_row("errors (refused or failed)", str(result["errors"]))
    table.add_row(
        "matches at once / started / finished",
        f"{games} / {result['matches_started']} / {result['matches_finished']}",
    )
    pace = f"{think_ms:g} ms think time" + (f", at most {rate:g} moves/s" if rate else "")
    table.add_row("players", pace)
    if result["server_cpu_ms_per_move"] is not None:
        table.add_row("server CPU per move", f"{result['server_cpu_ms_per_move']:.2f} ms")
    table.add_row("client CPU per move", f"{result['client_cpu_ms_per_move']:.2f} ms")
    if spectators or idle:
        table.add_row("spectators reading / never reading", f"{spectators} / {idle} on one match")
        table.add_row("pushes received (per second)", f"{result['spectator_messages_per_s']:.1f}")
        if result["spectator_p50_ms"] is not None:
            p50, p99 = result["spectator_p50_ms"], result["spectator_p99_ms"]
            table.add_row("push latency p50 / p99 (move sent to push read)", f"{p50:.1f} / {p99:.1f} ms")
        table.add_row("spectator connections dropped", str(result["spectator_drops"]))
    table.add_row("game", f"{result['game']} {json.dumps(result['options'])}")
    table.add_row("database", str(result["db"]))
    out = console()
    out.print(table)
    for example in result["error_examples"]:
        out.print(f"[red]error:[/red] {example}", highlight=False, markup=True)


def command() -> Any:
    """``regalia bench server`` as a click command (``regalia bench`` hands its arguments over)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command("server")(bench_server_command)
    return typer.main.get_command(app)
