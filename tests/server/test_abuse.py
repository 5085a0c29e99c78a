"""The 5xx reproductions of issue 17, each a 4xx naming what is wrong with the state unchanged, and
the server's limits (docs/server.md, "Limits"): creates per address and matches in progress (429),
chunked bodies over the limit (413), the request head's size (431) and deadline, idle keep-alive.
In-process on a SQLite file and on PostgreSQL (REGALIA_TEST_POSTGRES); the head and timeouts
against a real `regalia serve`."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regalia.server.app import create_app
from regalia.server.limits import HEAD_TIMEOUT, KEEP_ALIVE, BodyLimit, printable

from .conftest import Server

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'abuse.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    with TestClient(create_app(db_url, pool=pool)) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


def make(client: TestClient, game: str) -> tuple[str, dict[int, str]]:
    answer = client.post("/api/matches", json={"game": game, "seats": HUMANS})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["id"], {s["seat"]: s["token"] for s in made["seats"]}


def version(client: TestClient, match_id: str) -> int:
    answer = client.get(f"/api/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    return int(answer.json()["version"])


# -- the reproductions ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "action"),
    [
        ("carcassonne", "place D 1,0 \u00b2"),
        ("royal-court", "play Spy \u00b2"),
        ("royal-court", "play Spy \uff11"),
    ],
)
def test_a_superscript_in_an_action_is_a_422_and_changes_nothing(
    client: TestClient, game: str, action: str
) -> None:
    match_id, tokens = make(client, game)
    before = client.get(f"/api/matches/{match_id}").json()
    token = tokens[before["to_act"]] if before["to_act"] in tokens else tokens[0]
    answer = client.post(
        f"/api/matches/{match_id}/actions",
        json={"action": action},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 422, answer.text
    assert "cannot read" in answer.json()["detail"] or "not" in answer.json()["detail"]
    assert version(client, match_id) == before["version"]


@pytest.mark.parametrize("path", ["/api/games/two-heirs/seats", "/api/matches"])
def test_an_option_called_options_is_an_unknown_option(client: TestClient, path: str) -> None:
    body: dict[str, Any] = {"options": {"options": {}}}
    if path == "/api/matches":
        body |= {"game": "two-heirs", "seats": HUMANS}
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    assert "unknown option(s) options" in answer.json()["detail"]


@pytest.mark.parametrize("path", ["/api/games/two-heirs/seats", "/api/matches"])
def test_an_option_name_with_a_lone_surrogate_is_a_422_that_renders(client: TestClient, path: str) -> None:
    extra = ', "game": "two-heirs", "seats": [{}, {}]' if path == "/api/matches" else ""
    raw = '{"options": {"\\ud800": 1}' + extra + "}"
    answer = client.post(path, content=raw.encode(), headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "lone surrogate" in answer.json()["detail"]
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize(
    "text", ["a\\u0000b", "\\udfff", "\\u202eevil", "x" * 41], ids=["nul", "surrogate", "rtl", "long"]
)
def test_odd_seat_names_are_refused_or_kept_as_sent(client: TestClient, text: str) -> None:
    raw = '{"game": "royal-court", "seats": [{"kind": "human", "name": "' + text + '"}, {"kind": "human"}]}'
    answer = client.post("/api/matches", content=raw.encode(), headers={"content-type": "application/json"})
    if text == "\\u202eevil":  # a right-to-left mark is text like any other
        assert answer.status_code == 201, answer.text
        assert answer.json()["seats"][0]["name"] == "\u202eevil"
    else:
        assert answer.status_code == 422, answer.text


@pytest.mark.parametrize("match_id", ["%00", "a%00b", "%F0%9F%98%80", "..", "x" * 65])
def test_an_id_no_match_could_have_is_404_on_every_store(client: TestClient, match_id: str) -> None:
    assert client.get(f"/api/matches/{match_id}").status_code == 404
    assert client.get(f"/api/matches/{match_id}/record").status_code == 404
    assert client.post(f"/api/matches/{match_id}/actions", json={"action": "pass"}).status_code == 404


def test_a_nul_in_a_token_or_a_hello_is_refused(client: TestClient) -> None:
    match_id, _tokens = make(client, "royal-court")
    answer = client.get(f"/api/matches/{match_id}", headers={"Authorization": "Bearer a\tb"})
    assert answer.status_code == 403
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_text('{"token": "a\\u0000\\ud800"}')
        assert ws.receive_json()["type"] == "error"


def test_a_binary_frame_after_the_hello_is_ignored(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    match_id, _tokens = make(client, "royal-court")
    with caplog.at_level(logging.WARNING), client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({})
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b"\x00\xff" * 100)
        ws.send_text("\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
        ws.send_text('{"type":"ping"}')
        assert ws.receive_json() == {"type": "pong"}
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize(
    "hello",
    ['{"token": ' * 20_000 + "null" + "}" * 20_000, "[" * 20_000 + "]" * 20_000, "nope", '{"token": 7}'],
    ids=["token-nested-20000", "list-nested-20000", "not-json", "token-not-text"],
)
def test_a_bad_hello_is_an_error_message_then_closed(client: TestClient, hello: str) -> None:
    match_id, _tokens = make(client, "royal-court")
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_text(hello)
        answer = ws.receive_json()
        assert answer["type"] == "error", answer


def test_a_binary_hello_is_an_error(client: TestClient) -> None:
    match_id, _tokens = make(client, "royal-court")
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_bytes(b'{"token": null}')
        assert ws.receive_json()["type"] == "error"


def test_a_body_nested_20000_deep_is_a_4xx(client: TestClient) -> None:
    raw = '{"options": {"x": ' + "[" * 20_000 + "]" * 20_000 + "}}"
    answer = client.post(
        "/api/games/two-heirs/seats", content=raw, headers={"content-type": "application/json"}
    )
    assert answer.status_code in (400, 422), answer.text
    deep = '{"options": {"x": ' + "[" * 100 + "]" * 100 + "}}"
    answer = client.post(
        "/api/games/two-heirs/seats", content=deep, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 422 and "nested deeper than 32" in answer.json()["detail"]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "1" + "0" * 40])
def test_numbers_no_option_could_mean_are_a_422(client: TestClient, number: str) -> None:
    raw = '{"options": {"turn_cap": ' + number + "}}"
    answer = client.post(
        "/api/games/royal-court/seats", content=raw, headers={"content-type": "application/json"}
    )
    assert answer.status_code in (400, 422), answer.text


def test_a_chunked_body_over_the_limit_is_413_and_one_under_it_is_read(client: TestClient) -> None:
    def chunks(total: int) -> Iterator[bytes]:
        yield b'{"options": {}, "pad": "'
        for _ in range(total // 1024):
            yield b"x" * 1024
        yield b'"}'

    answer = client.post(
        "/api/games/two-heirs/seats", content=chunks(200 * 1024), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413, answer.text
    ok = client.post(
        "/api/games/two-heirs/seats",
        content=iter([b'{"options": ', b'{"solo": true}}']),
        headers={"content-type": "application/json"},
    )
    assert ok.status_code == 200, ok.text


# -- creates --------------------------------------------------------------------------------------
def test_creates_per_address_are_limited_with_a_429_saying_so(tmp_path: Path) -> None:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'rate.db'}", pool=pool)  # the defaults
    body = {"game": "two-heirs", "seats": HUMANS}
    with TestClient(app) as client:
        codes = [client.post("/api/matches", json=body).status_code for _ in range(200)]
        refused = client.post("/api/matches", json=body)
        other = TestClient(app, client=("10.1.2.3", 5000)).post("/api/matches", json=body)
    pool.shutdown(wait=True)
    assert 0 < codes.count(201) <= 60 and set(codes) == {201, 429}
    assert refused.status_code == 429 and "a minute" in refused.json()["detail"]
    assert other.status_code == 201  # another address is not held up


def test_two_thousand_creates_in_twenty_seconds_do_not_all_succeed(tmp_path: Path) -> None:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'rate.db'}", pool=pool, max_creates_per_minute=100)
    body = {"game": "royal-court", "seats": HUMANS, "public": True}
    made = 0
    with TestClient(app) as client:
        start = time.monotonic()
        for _ in range(2000):
            made += client.post("/api/matches", json=body).status_code == 201
        assert time.monotonic() - start < 20
        assert len(client.get("/api/matches?limit=500").json()) == made
    pool.shutdown(wait=True)
    assert made == 100


def test_matches_in_progress_are_limited_and_an_ended_one_makes_room(tmp_path: Path) -> None:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'active.db'}", pool=pool, max_active_matches=2)
    with TestClient(app) as client:
        first, tokens = make(client, "royal-court")
        make(client, "royal-court")
        refused = client.post("/api/matches", json={"game": "royal-court", "seats": HUMANS})
        assert refused.status_code == 429 and "2 matches in progress" in refused.json()["detail"]
        resign = client.post(f"/api/matches/{first}/resign", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert resign.status_code == 200, resign.text
        make(client, "royal-court")
    pool.shutdown(wait=True)


# -- a real server: the request head, idle and half-sent requests ---------------------------------
def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """True if the server closes ``sock`` within ``seconds`` (whatever it sends first)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (TimeoutError, ConnectionError):
        return False
    return False


def test_the_request_head_is_limited_and_slow_or_idle_connections_are_closed(
    servers: Callable[..., Server], tmp_path: Path
) -> None:
    server = servers(f"sqlite:///{tmp_path / 'head.db'}")
    address = ("127.0.0.1", server.port)
    # a 4 MB header: 431, the connection closed, the server still answers
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: ")
        # The server stops reading and closes the connection: the sends fail, or (when the
        # kernel's buffers take all 4 MB on loopback) the answer is a 431 or the end of the
        # connection, within seconds, never a 200 nor a connection kept open.
        with contextlib.suppress(OSError):
            for _ in range(4096):
                sock.sendall(b"a" * 1024)
        sock.settimeout(5.0)
        try:
            answer = sock.recv(65536)
        except TimeoutError:
            pytest.fail("the server kept reading a 4 MB request head")
        except OSError:
            answer = b""  # reset: closed
        assert not answer or answer.startswith(b"HTTP/1.1 431"), answer[:200]
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 431")
    assert server.http.get("/api/games").status_code == 200
    # an idle connection, a half-sent head, an idle keep-alive: all closed in time
    idle = socket.create_connection(address)
    half_head = socket.create_connection(address)
    half_head.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    kept = socket.create_connection(address)
    kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    time.sleep(0.5)
    assert kept.recv(65536).startswith(b"HTTP/1.1 200")
    try:
        assert _closed_within(kept, KEEP_ALIVE + 2)
        assert _closed_within(idle, HEAD_TIMEOUT + 2)
        assert _closed_within(half_head, 2)
    finally:
        for sock in (idle, half_head, kept):
            sock.close()
    assert server.http.get("/api/games").status_code == 200
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-2000:]


def test_a_half_sent_body_is_408_after_the_body_timeout() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not reached")

    async def receive() -> dict[str, Any]:
        if not sent:
            sent.append({"type": "first"})
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(10)
        raise AssertionError("not reached")

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"content-length", b"100")]}
    asyncio.run(BodyLimit(app, timeout=0.2)(scope, receive, send))
    assert sent[1]["status"] == 408 and b"in time" in sent[2]["body"]


def test_printable_makes_any_text_utf8() -> None:
    assert json.dumps(printable("\ud800\x00"), ensure_ascii=False).encode("utf-8")
