"""Browser tests of the links a person may hold (docs/server.md, "The pages"): a tampered or stale
seat link opens the spectator view and says why; an unknown match is a page linking the lobby."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="the playwright Python package is missing: pip install playwright"
)

from .conftest import Server

pytestmark = pytest.mark.browser


def test_a_tampered_seat_link_opens_the_spectator_view_saying_why(server: Server, context: Any) -> None:
    made = server.create("two-heirs", [{"kind": "human"}, {"kind": "human"}])
    other = server.create("two-heirs", [{"kind": "human"}, {"kind": "human"}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A made-up token, and a real one of another match (a stale link): both watch, and say why.
    for token in ("bad", other["seats"][0]["token"]):
        page.goto(server.url(f"/match/{made['id']}#token={token}"))
        page.wait_for_selector("#board svg")
        page.wait_for_selector("[data-testid=notice]:not([hidden])")
        notice = page.inner_text("[data-testid=notice]")
        assert "not valid for this match" in notice and "spectator" in notice
        assert page.inner_text("#role") == "Spectator"
        page.wait_for_function("() => document.querySelector('#connection').dataset.state === 'live'")
        assert page.locator("#board [data-action], #board [data-select]").count() == 0
    # An unknown match: the not-found page, with a link to the lobby.
    answer = page.goto(server.url("/match/does-not-exist#token=bad"))
    assert answer is not None and answer.status == 404
    assert "match 'does-not-exist'" in page.inner_text("[data-testid=not-found-what]")
    page.click("[data-testid=lobby-link]")
    page.wait_for_selector("#create-form")
    assert errors == []


def test_the_lobby_defaults_to_a_person_against_the_computer_at_medium(server: Server, context: Any) -> None:
    page = context.new_page()
    page.goto(f"{server.base}/?game=two-heirs")
    page.wait_for_selector("[data-testid=seat-1]")
    assert page.input_value("[data-testid=seat-0-kind]") == "human"
    assert page.input_value("[data-testid=seat-1-kind]") == "computer"
    assert page.input_value("[data-testid=seat-1-level]") == "medium"
    # One person: no screen to choose, one link; a second person: online or shared is offered.
    assert page.locator("[data-testid=screen-fieldset]").is_hidden()
    page.select_option("[data-testid=seat-1-kind]", "human")
    assert page.locator("[data-testid=screen-fieldset]").is_visible()
    page.select_option("[data-testid=seat-1-kind]", "computer")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("[data-testid=play-here]").is_visible()
    assert page.locator("[data-testid=link-1] a").count() == 0
    # Private by default: not in the public lists, but in this browser's own, with its seat link.
    link = page.get_attribute("[data-testid=play-here]", "href") or ""
    match_id = link.split("/match/")[1].split("#")[0]
    page.reload()
    page.wait_for_selector(f"#mine [data-match='{match_id}']")
    mine = page.locator(f"#mine [data-match='{match_id}']")
    assert "The Two Heirs" in mine.inner_text()
    assert (mine.locator("[data-testid=my-seat-link]").get_attribute("href") or "").endswith(
        link.split("/match/")[1]
    )
    page.wait_for_selector("#active table, #active p")
    assert page.locator(f"#active [data-match='{match_id}']").count() == 0
    code, made = server.call("GET", "/api/matches")
    assert code == 200 and match_id not in {m["id"] for m in made}
