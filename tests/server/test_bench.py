"""``regalia bench server``: a short run of the server benchmark (its output, never its timings)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from regalia.cli import app
from regalia.server.bench import percentile

pytest.importorskip("uvicorn")


def _app() -> typer.Typer:
    """The ``regalia`` command itself: it hands ``bench server`` to the server's benchmark
    (``regalia.commands.bench.OWN_COMMANDS``, filled by ``regalia.cli``)."""
    return app


def test_bench_server_runs_matches_through_the_api() -> None:
    args = ["bench", "server", "--games", "3", "--seconds", "1.5", "--warmup", "0.3", "--think-ms", "0"]
    result = CliRunner().invoke(_app(), [*args, "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert {"moves_per_s", "p50_ms", "p99_ms", "moves", "errors", "games"} <= set(figures)
    assert figures["moves"] > 0 and figures["moves_per_s"] > 0
    assert figures["errors"] == 0, figures["error_examples"]
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["games"] == 3 and figures["matches_started"] >= 3
    assert figures["game"] == "two-heirs" and figures["db"].startswith("sqlite")


def test_bench_server_stops_after_the_moves_asked_and_paces_them() -> None:
    """Without think time two matches play hundreds of moves per second on loopback; --rate holds
    them to its pace (with the default 100 ms think time they would stay under it anyway)."""
    args = ["bench", "server", "-n", "2", "--moves", "20", "--warmup", "0", "--think-ms", "0"]
    result = CliRunner().invoke(_app(), [*args, "--rate", "50", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["moves"] == 20 and figures["errors"] == 0
    assert figures["moves_per_s"] <= 50 * 1.5  # paced (a slot missed is not made up)


def test_bench_server_refuses_an_unknown_game() -> None:
    result = CliRunner().invoke(_app(), ["bench", "server", "--game", "nope", "--seconds", "0.5"])
    assert result.exit_code != 0
    assert "nope" in str(result.exception) + result.output


def test_bench_game_still_benchmarks_a_game() -> None:
    result = CliRunner().invoke(_app(), ["bench", "two-heirs", "-n", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 1


def test_percentile_is_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0)) == (50.0, 99.0, 100.0)
    assert percentile([3.0], 0.99) == 3.0


def test_the_client_reads_lengths_chunks_and_closed_connections() -> None:
    """The benchmark's HTTP client: a Content-Length body on a kept connection, a chunked body, and
    a body ended by the server closing the connection (the next request opens a new one)."""
    import asyncio

    from regalia.server.bench import Http

    answers = [
        b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 8\r\n\r\n{"a": 1}',
        b"HTTP/1.1 409 Conflict\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
        b'4\r\n{"de\r\n9\r\ntail": 2}\r\n0\r\n\r\n',
        b"HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n\r\noops",
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]",
    ]
    connections = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        while answers:
            head = await reader.readuntil(b"\r\n\r\n")
            length = [
                int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")
            ]
            await reader.readexactly(length[0] if length else 0)
            answer = answers.pop(0)
            writer.write(answer)
            await writer.drain()
            if b"content-length" not in answer and b"chunked" not in answer:
                break
        writer.close()

    async def main() -> list[tuple[int, object]]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        http = Http("127.0.0.1", port)
        got = [
            await http.request("POST", "/x", {"b": 1}, token="t"),
            await http.request("GET", "/y"),
            await http.request("GET", "/z"),
            await http.request("GET", "/again"),
        ]
        http.close()
        server.close()
        await server.wait_closed()
        return got

    got = asyncio.run(main())
    assert got == [(200, {"a": 1}), (409, {"detail": 2}), (500, "oops"), (200, [])]
    assert connections == 2
