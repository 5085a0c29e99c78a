"""Fuzzing the server's API (a seeded generator, a few seconds a store): every route the application
has, and its WebSocket, get malformed JSON, wrong types, deep nesting, unicode oddities (lone
surrogates, NUL, superscripts, right-to-left marks, fullwidth digits), huge numbers, unknown games,
options and ids, odd headers. Whatever comes, the server answers below 500, logs no traceback, and
a refused request changes no match. On a SQLite file and on PostgreSQL (REGALIA_TEST_POSTGRES)."""

from __future__ import annotations

import concurrent.futures
import json
import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.routing import APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from regalia.server.app import create_app
from regalia.server.sockets import router as sockets_router

#: Requests sent per store (about 3-6 s on SQLite on this project's machine).
REQUESTS = 900
#: WebSocket connections opened per store.
SOCKETS = 40
#: Stop sending after this many seconds whatever is left (a bound on the test's time).
BUDGET = 40.0

ODD_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "\udfff\ud800",
    "\u00b2",
    "\u00b9,\u00b2",
    "\uff11,\uff10",
    "\u0661,\u0662",
    "\u202e1,0",
    "\u200f",
    "\ufeff",
    "\U0001f600",
    "e\u0301",
    "x" * 300,
    "9" * 5000,
    "-0",
    "1_000",
    "null",
    "\\",
    '"',
    "%00",
    "../../etc/passwd",
    "<script>",
    "place D 1,0 \u00b2",
    "play Spy \u00b2",
    "place D \uff11,0 90",
    "move 2,1 3,\u00b2",
    "pass",
    "take W3",
]
ODD_NUMBERS: list[Any] = [
    0,
    -1,
    1,
    2**31,
    2**53 + 1,
    2**64,
    10**40,
    -(10**40),
    1e308,
    1e-308,
    0.5,
    True,
    False,
]
GAMES = ["two-heirs", "carcassonne", "royal-court", "chess", "", "TWO-HEIRS", "two-heirs\x00", "\ud800"]
OPTIONS = [
    "solo",
    "tiles",
    "roads",
    "level",
    "sets",
    "treasures",
    "archetypes",
    "consort",
    "turn_cap",
    "options",
]


class Fuzzer:
    """Random values of every kind a JSON body can carry, and some it cannot."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def text(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(ODD_TEXT)
        if r < 0.8:
            return "".join(chr(self.rng.randrange(0, 0x11_0000)) for _ in range(self.rng.randrange(1, 8)))
        return self.rng.choice(OPTIONS + GAMES)

    def value(self, depth: int = 0) -> Any:
        r = self.rng.random()
        if depth > 3 or r < 0.35:
            return self.text()
        if r < 0.55:
            return self.rng.choice(ODD_NUMBERS)
        if r < 0.6:
            return None
        if r < 0.8:
            return [self.value(depth + 1) for _ in range(self.rng.randrange(0, 4))]
        return {self.text(): self.value(depth + 1) for _ in range(self.rng.randrange(0, 4))}

    def options(self) -> Any:
        if self.rng.random() < 0.15:
            return self.value()
        return {self.rng.choice(OPTIONS + ODD_TEXT): self.value(2) for _ in range(self.rng.randrange(0, 3))}

    def body(self, route: str) -> Any:
        """A body for ``route``: mostly of the right shape with odd values, sometimes anything."""
        rng = self.rng
        if rng.random() < 0.15:
            return self.value()
        if route.endswith("/seats"):
            return {"options": self.options()}
        if route == "/api/matches":
            body: dict[str, Any] = {
                "game": rng.choice(GAMES),
                "seats": [
                    {rng.choice(["kind", "name", "agent", "level", "x"]): self.value(3) for _ in range(2)}
                    for _ in range(rng.randrange(0, 4))
                ],
            }
            for key in ("options", "screen", "time_control", "public", "extra"):
                if rng.random() < 0.4:
                    body[key] = self.options() if key == "options" else self.value(2)
            return body
        if route.endswith("/actions"):
            body = {"action": self.value(3) if rng.random() < 0.3 else self.text()}
            if rng.random() < 0.5:
                body["version"] = self.value(3)
            return body
        return self.value()

    def raw(self, body: Any) -> bytes:
        """``body`` as bytes, sometimes malformed: cut, nested 20,000 deep, NaN, invalid UTF-8."""
        r = self.rng.random()
        if r < 0.05:
            return b"[" * 20_000 + b"]" * 20_000
        if r < 0.1:
            return b'{"options": {"x": NaN, "y": Infinity}}'
        if r < 0.15:
            return b"\xff\xfe{\x00}"
        text = json.dumps(body, ensure_ascii=True)  # lone surrogates as \ud800 escapes
        if r < 0.25:
            return text[: self.rng.randrange(0, len(text) + 1)].encode()
        return text.encode()

    def headers(self, tokens: list[str]) -> dict[str, str | bytes]:
        r = self.rng.random()
        if r < 0.4:
            return {}
        if r < 0.7 and tokens:
            return {"Authorization": f"Bearer {self.rng.choice(tokens)}"}
        odd = self.text().encode("utf-8", "replace").decode("latin-1", "replace")
        choice = self.rng.choice(["Bearer " + odd, "Basic abc", "Bearer", odd, "Bearer " + "A" * 300])
        safe = "".join(c for c in choice if c not in "\r\n\x00")
        return {"Authorization": safe.encode("latin-1")}  # bytes: sent as they are


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fuzz.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    # raise_server_exceptions: an unhandled exception (a 500) fails the test with its traceback
    with TestClient(
        create_app(db_url, pool=pool, max_creates_per_minute=0), raise_server_exceptions=True
    ) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


def versions(client: TestClient) -> dict[str, tuple[int, str]]:
    listed = client.get("/api/matches?limit=500")
    assert listed.status_code == 200
    return {m["id"]: (m["version"], m["status"]) for m in listed.json()}


def fill(path: str, ids: list[str], fuzz: Fuzzer) -> str:
    """``path`` with its parameters: a real match id or game mostly, an odd one sometimes."""
    rng = fuzz.rng
    odd_ids = ["%00", "nope", "x" * 22, "%F0%9F%98%80", "a%00b", "%ED%A0%80", "..%2F..", "1" * 70, "%20"]
    match_id = rng.choice(ids) if rng.random() < 0.7 else rng.choice(odd_ids)
    game = (
        rng.choice(["two-heirs", "carcassonne", "royal-court"])
        if rng.random() < 0.6
        else rng.choice(["chess", "%00", "%ED%A0%80", "TWO-HEIRS", "x" * 100])
    )
    return path.replace("{match_id}", match_id).replace("{game}", game)


def fuzz_socket(client: TestClient, match_id: str, fuzz: Fuzzer) -> None:
    """A connection with an odd hello (text or binary), then odd frames and a ping."""
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        hello = fuzz.rng.random()
        if hello < 0.3:
            ws.send_bytes(fuzz.raw(fuzz.value()))
        else:
            ws.send_text(
                fuzz.raw({"token": fuzz.value(3)} if hello < 0.6 else fuzz.value()).decode("latin-1")
            )
        first = ws.receive_json()
        assert first["type"] in ("view", "error"), first
        if first["type"] == "view":
            for _ in range(3):
                if fuzz.rng.random() < 0.5:
                    ws.send_bytes(bytes(fuzz.rng.randrange(256) for _ in range(20)))
                else:
                    ws.send_text(fuzz.text().encode("utf-8", "replace").decode("utf-8"))
            ws.send_text('{"type":"ping"}')
            assert ws.receive_json()["type"] in ("pong", "delta", "view")


def test_no_input_gets_a_5xx_a_traceback_or_a_change(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    schema = client.get("/openapi.json").json()  # every HTTP route of the application, and its methods
    routes = [(m.upper(), path) for path, ops in schema["paths"].items() for m in ops]
    routes += [("GET", "/"), ("GET", "/match/{match_id}"), ("GET", "/static/{match_id}")]  # the pages
    sockets = [r.path for r in sockets_router.routes if isinstance(r, APIWebSocketRoute)]
    assert len(routes) >= 12 and sockets == ["/api/matches/{match_id}/ws"], routes
    made = [
        client.post(
            "/api/matches",
            json={"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "public": True},
        ).json()
        for game in ("two-heirs", "carcassonne", "royal-court")
    ]
    ids = [m["id"] for m in made]
    tokens = [s["token"] for m in made for s in m["seats"] if "token" in s]
    fuzz = Fuzzer(seed=17)
    deadline = time.monotonic() + BUDGET
    counts: dict[int, int] = {}
    with caplog.at_level(logging.WARNING):
        before = versions(client)
        for _ in range(REQUESTS):
            if time.monotonic() > deadline:
                break
            method, route = fuzz.rng.choice(routes)
            path = fill(route, ids, fuzz)
            if fuzz.rng.random() < 0.2:
                path += fuzz.rng.choice(
                    ["?limit=0", "?limit=%00", "?ply=-1", "?ply=99999999999", "?status=x"]
                )
            headers = {"content-type": "application/json", **fuzz.headers(tokens)}
            content = fuzz.raw(fuzz.body(route)) if method == "POST" else None
            answer = client.request(method, path, content=content, headers=headers)
            counts[answer.status_code] = counts.get(answer.status_code, 0) + 1
            assert answer.status_code < 500, (method, path, content and content[:200], answer.text[:300])
            if answer.status_code == 404 and not path.startswith("/api"):  # a page: the HTML not-found page
                assert 'data-testid="not-found"' in answer.text, (path, answer.text[:300])
            elif answer.status_code >= 400:
                assert answer.json()["detail"], (path, answer.text)
                if route != "/api/matches" or method != "POST":
                    after = versions(client)
                    assert {k: v for k, v in after.items() if k in before} == before, (method, path, content)
            before = versions(client)
        for _ in range(SOCKETS):
            match_id = fill("{match_id}", ids, fuzz)
            try:
                fuzz_socket(client, match_id, fuzz)
            except WebSocketDisconnect:  # refused at the handshake: only a path no route matches
                assert (match_id not in ids and "/" in unquote(match_id)) or not unquote(match_id).strip()
        assert versions(client) == before
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not tracebacks, [r.getMessage() for r in tracebacks[:3]]
    print("fuzz answers by status:", dict(sorted(counts.items())))
    assert sum(counts.values()) >= 100 and any(400 <= c < 500 for c in counts), counts
