"""Browser test of the rules dialog (docs/server.md, ``GET /api/games/{game}/rules.html``): the match
page shows the rulebook rendered, not raw Markdown, and the reference's pictures beside it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="the playwright Python package is missing: pip install playwright"
)

from .conftest import Server

pytestmark = pytest.mark.browser


def test_the_rules_dialog_shows_the_rendered_rules_and_the_archetypes(server: Server, context: Any) -> None:
    made = server.create("royal-court", [{"kind": "human"}, {"kind": "human"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url(f"/match/{made['id']}#token={made['seats'][0]['token']}"))
    page.wait_for_selector("#board svg")
    page.click("#rules-button")
    page.wait_for_selector("#rules-text h1")
    assert not page.inner_text("#rules-text").lstrip().startswith("#")
    figures = page.locator("#rules-text .reference-item")
    assert figures.count() == 10 and page.locator("#rules-text .reference-item svg").count() == 10
    assert "Assassin" in figures.first.inner_text() and "Influence 2" in figures.first.inner_text()
    box = page.locator("#rules-text .reference-item svg").first.bounding_box()
    assert box is not None and box["width"] >= 48
    page.click("[data-testid=rules-close]")
    assert page.locator("#rules-dialog").is_hidden() and errors == []
