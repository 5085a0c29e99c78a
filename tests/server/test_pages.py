"""The pages of the browser client as the server answers them (docs/server.md, "The pages"): an
unknown page path or match is an HTML page (404) with a link to the lobby, an unknown ``/api`` path
stays JSON; matches are private unless created public."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from regalia.server.app import create_app
from regalia.server.store import Store


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'pages.db'}", pool=pool)
    with TestClient(app) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "human"}]
    answer = client.post("/api/matches", json={"game": "two-heirs", "seats": seats, **body})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def is_not_found_page(answer: Any) -> bool:
    return (
        answer.status_code == 404
        and answer.headers["content-type"].startswith("text/html")
        and 'data-testid="not-found"' in answer.text
        and 'href="/"' in answer.text
    )


@pytest.mark.parametrize(
    "path", ["/nowhere", "/match/does-not-exist", "/match/a/b", "/static/none.js", "/match/%00"]
)
def test_an_unknown_page_is_an_html_page_linking_the_lobby(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert is_not_found_page(answer), (path, answer.status_code, answer.text[:200])


def test_the_page_names_what_was_not_found_escaped(client: TestClient) -> None:
    assert "match &#x27;does-not-exist&#x27;" in client.get("/match/does-not-exist").text
    answer = client.get("/<b>x</b>")
    assert is_not_found_page(answer) and "<b>" not in answer.text


@pytest.mark.parametrize(
    "path", ["/api/nowhere", "/api", "/api/matches/does-not-exist", "/api/games/nope/rules"]
)
def test_an_unknown_api_path_stays_json(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/json"
    assert answer.json()["detail"]


def test_a_match_that_exists_is_its_page(client: TestClient) -> None:
    made = create(client)
    answer = client.get(made["spectator"])
    assert answer.status_code == 200 and 'src="/static/match.js"' in answer.text
    assert client.get("/").status_code == 200


# -- public and private matches ---------------------------------------------------------------------
def test_a_match_is_private_unless_created_public(client: TestClient) -> None:
    private = create(client)
    public = create(client, public=True)
    hidden = create(client, public=False)
    assert private["public"] is False and public["public"] is True and hidden["public"] is False
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed] == [public["id"]] and listed[0]["public"] is True
    assert [m["id"] for m in client.get("/api/matches?status=active").json()] == [public["id"]]
    # A private match is still there for whoever holds its links.
    for made in (private, hidden):
        assert client.get(f"/api/matches/{made['id']}").status_code == 200
        assert client.get(made["spectator"]).status_code == 200


def test_public_must_be_a_boolean(client: TestClient) -> None:
    answer = client.post("/api/matches", json={"game": "two-heirs", "seats": [], "public": "maybe"})
    assert answer.status_code == 422 and "public" in answer.json()["detail"]


def test_matches_stored_before_the_public_flag_stay_listed(tmp_path: Path) -> None:
    """Migration 0005: every match was listed before it, so those already stored are public."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(resources.files("regalia.server") / "migrations"))
    with engine.begin() as c:
        config.attributes["connection"] = c
        command.upgrade(config, "0004")
        c.execute(
            sa.text(
                "INSERT INTO matches (id, game, options, seats, screen, seed, version, plies, status,"
                " created, updated) VALUES ('old', 'two-heirs', '{}', '[]', 'online', 1, 1, 0,"
                " 'active', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
    engine.dispose()
    store = Store(url)
    try:
        assert [r.id for r in store.listing(None, 10, public_only=True)] == ["old"]
    finally:
        store.close()
