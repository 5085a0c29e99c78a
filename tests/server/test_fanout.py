"""The WebSocket fan-out (docs/server.md, "WebSocket"): a socket that never reads cannot stall the
others, it is dropped and its client reconnects to the current view, and a push encodes each viewer
kind's message once however many sockets share it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import Server, tokens_of
from websockets.sync.client import connect

from regalia.server import push
from regalia.server.app import create_app
from regalia.server.bench import idle_socket
from regalia.server.push import Connection

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _closed_by_the_server(sock: socket.socket, timeout: float = 20.0) -> bool:
    """Read what a socket left unread until the server closes it: True, or False if it stays open."""
    sock.settimeout(timeout)
    try:
        while sock.recv(1 << 16):
            pass
    except TimeoutError:
        return False
    except OSError:  # reset: closed too
        pass
    return True


def test_three_sockets_that_never_read_do_not_delay_a_reader_and_are_dropped(
    servers: Callable[..., Server], tmp_path: Path
) -> None:
    server = servers(f"sqlite:///{tmp_path / 'fanout.db'}")
    made = server.create("carcassonne", HUMANS)
    match_id, seat_tokens = made["id"], tokens_of(made)
    host, port = "127.0.0.1", server.port
    idle = [idle_socket(host, port, match_id) for _ in range(3)]
    rng = random.Random(0)
    delays: list[float] = []
    try:
        with connect(f"ws://{host}:{port}/api/matches/{match_id}/ws", max_size=None) as reader:
            reader.send("{}")
            first = json.loads(reader.recv(timeout=10))
            assert first["type"] == "view"
            current = server.view(match_id)
            held = first["view"]["version"]
            deadline = time.monotonic() + 40.0
            moves = 0
            while current["status"] != "finished" and time.monotonic() < deadline and moves < 120:
                seat = current["to_act"]
                answer = server.act(
                    match_id, seat_tokens[seat], rng.choice(current["legal"]), current["version"]
                )
                assert answer.status_code == 200, answer.text
                moves += 1
                current = answer.json()
                sent = time.monotonic()
                while held < current["version"]:  # the reader gets this move, however the others read
                    pushed = json.loads(reader.recv(timeout=5))
                    assert pushed["type"] == "delta"
                    held = pushed["view"]["version"]
                delays.append(time.monotonic() - sent)
            assert held == server.view(match_id)["version"]  # every update, the last included
            assert max(delays) < 1.0, f"a push waited {max(delays):.2f} s"
            # The three fell behind and were dropped (what they hold unread, then the close).
            assert all(_closed_by_the_server(sock) for sock in idle), f"not dropped after {moves} moves"
        # A dropped client reconnects and gets the current view.
        with connect(f"ws://{host}:{port}/api/matches/{match_id}/ws", max_size=None) as again:
            again.send("{}")
            view = json.loads(again.recv(timeout=10))
            assert view["type"] == "view" and view["view"] == server.view(match_id)
    finally:
        for sock in idle:
            sock.close()
    assert "Traceback" not in server.log()


class _Stuck:
    """A WebSocket whose client reads nothing: every send waits for ever."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.Event().wait()


def test_a_send_that_times_out_or_a_full_queue_drops_the_connection() -> None:
    async def main() -> tuple[str, bool, bool, int]:
        timed_out = Connection(_Stuck(), None)  # type: ignore[arg-type]
        timed_out.offer("a")
        why = await asyncio.wait_for(timed_out.run(timeout=0.05), 5)
        full = Connection(_Stuck(), None, size=2)  # type: ignore[arg-type]
        accepted = [full.offer(str(n)) for n in range(3)]
        return why, accepted == [True, True, False], full.dropped is not None, len(full.queue)

    why, refused_the_third, dropped, left = asyncio.run(main())
    assert why.startswith("too slow") and refused_the_third and dropped and left == 0


def test_a_push_encodes_each_viewer_kinds_message_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    calls: list[Any] = []
    encode = push.encode

    def counted(message: Any) -> str:
        calls.append(message["type"])
        return encode(message)

    monkeypatch.setattr(push, "encode", counted)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'kinds.db'}", pool=pool)) as client:
        made = client.post("/api/matches", json={"game": "royal-court", "seats": HUMANS}).json()
        seat_tokens = tokens_of(made)
        path = f"/api/matches/{made['id']}/ws"
        hellos = [{}, {}, {}, {"token": seat_tokens[0]}, {"token": seat_tokens[1]}]
        with contextlib_nested(client, path, len(hellos)) as sockets:
            for ws, hello in zip(sockets, hellos, strict=True):
                ws.send_json(hello)
                assert ws.receive_json()["type"] == "view"
            assert calls == ["view"] * 5  # a first view each
            calls.clear()
            start = client.get(f"/api/matches/{made['id']}").json()
            action = next(a for a in start["legal"] if a.startswith("play"))
            headers = {"Authorization": f"Bearer {seat_tokens[start['to_act']]}"}
            answer = client.post(
                f"/api/matches/{made['id']}/actions", json={"action": action}, headers=headers
            )
            assert answer.status_code == 200, answer.text
            pushed = [ws.receive_json() for ws in sockets]
            assert all(
                p["type"] == "delta" and p["view"]["version"] == answer.json()["version"] for p in pushed
            )
            assert pushed[0] == pushed[1] == pushed[2] and pushed[3] != pushed[4]
            assert calls == ["delta"] * 3  # seat 0, seat 1, the spectator: not five
    pool.shutdown(wait=True, cancel_futures=True)


class contextlib_nested:
    """``n`` WebSocket sessions of a TestClient, open together."""

    def __init__(self, client: TestClient, path: str, n: int) -> None:
        self.sessions = [client.websocket_connect(path) for _ in range(n)]

    def __enter__(self) -> list[Any]:
        return [s.__enter__() for s in self.sessions]

    def __exit__(self, *exc: object) -> None:
        for s in reversed(self.sessions):
            s.__exit__(None, None, None)
