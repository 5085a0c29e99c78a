"""``GET /api/games/{game}/rules.html``: the rulebook's Markdown rendered (headings, raw HTML
escaped) with the game's reference, one captioned picture per tile or archetype."""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from regalia.core.registry import game_plugin
from regalia.server.app import create_app

#: Reference items per game: Carcassonne's 24 base tile kinds and 6 shrine tiles, The Two Heirs'
#: 54 tiles, the Royal Court's ten archetypes.
ITEMS = {"carcassonne": 30, "two-heirs": 54, "royal-court": 10}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'rules.db'}", pool=pool)
    with TestClient(app) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("game", sorted(ITEMS))
def test_rules_html_renders_the_markdown_and_the_reference(client: TestClient, game: str) -> None:
    answer = client.get(f"/api/games/{game}/rules.html")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    page = answer.text
    assert re.search(r"<h1>[^<]+</h1>", page) and "<h2" in page
    prose = page.split('<div class="rules-markdown">', 1)[1].split("<pre>")[0]
    assert "\n# " not in prose  # no Markdown heading left unrendered before the first code block
    assert page.count('class="reference-item"') == ITEMS[game]
    assert page.count("<svg") == ITEMS[game] and "<script" not in page


def test_raw_html_in_the_markdown_is_escaped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = type(game_plugin("royal-court"))
    markdown = "# Title\n\n<script>alert(1)</script>\n\nA <b>bold</b> word."
    monkeypatch.setattr(plugin, "rules", lambda self: markdown)
    page = client.get("/api/games/royal-court/rules.html").text
    assert "<h1>Title</h1>" in page
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page


def test_the_plain_rules_stay_and_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/royal-court/rules").headers["content-type"].startswith("text/markdown")
    assert client.get("/api/games/nope/rules.html").status_code == 404
