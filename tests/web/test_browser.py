"""Browser tests of the web client (src/regalia/web) against a real `regalia serve`, in Debian's
Chromium driven by Playwright: a whole game against the computer in each game by clicking the board,
an online game between two browsers, a reload in the middle of a game, a spectator, a shared screen.

Moves are made the way a person makes them: a click on a ``data-action`` part of the board's SVG, or
on a ``data-select`` part and then on a choice of the layer it opens (docs/rendering.md); a layer that
is a cycle is turned by clicking its choice and sent with the staged move's Confirm, and a stage (a
close-up) is answered with one of its worded buttons or parts (docs/table.md). The screenshots of
each game's page go to test-artifacts/.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="the playwright Python package is missing: pip install playwright"
)
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import Server

pytestmark = pytest.mark.browser

#: The three games and the options of their test games.
GAMES = [("two-heirs", {}), ("carcassonne", {"players": 2}), ("royal-court", {})]
#: A bound on the moves of one side in one game (a game that does not end fails instead of hanging).
MAX_MOVES = 1500
#: Milliseconds a page waits for its turn (the computer's moves included).
TURN_TIMEOUT = 60_000


# ------------------------------------------------------------------------------------------ helpers
def watch(page: Page) -> list[str]:
    """Collect the page's script errors (a test asserts there were none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or -1)


def state(page: Page) -> str:
    """What the status says: your-turn, thinking, waiting or over."""
    return page.get_attribute("#status", "data-state") or ""


def wait_turn(page: Page, timeout: int = TURN_TIMEOUT) -> str:
    """Wait until the page may move or the match is over; returns 'your-turn' or 'over'."""
    page.wait_for_function(
        "() => ['your-turn', 'over'].includes(document.querySelector('#status').dataset.state)",
        timeout=timeout,
    )
    return state(page)


def click_move(page: Page, rng: random.Random) -> str:
    """Make one legal move: a button or part of the stage when there is one; else a data-action part
    of the board, or a data-select part then a choice of its layer (a cycle: turned a few times by
    clicking the choice shown, then confirmed). Waits until the server has taken it; returns the
    action's notation."""
    before = version(page)
    if page.locator("#stage").is_visible():
        options = page.locator("#stage [data-stage-action], #stage-picture [data-action]")
        part = options.nth(rng.randrange(options.count()))
        action = part.get_attribute("data-stage-action") or part.get_attribute("data-action") or ""
        part.click()
        wait_taken(page, before, action)
        return action
    if page.locator("#stage-controls").is_visible():  # a cycle open from the start
        return confirm_cycle(page, rng, before)
    direct = page.locator("#board [data-action]:visible")
    selects = page.locator("#board [data-select]:visible")
    n_direct, n_select = direct.count(), selects.count()
    assert n_direct + n_select, "the board offers no clickable part on the player's turn"
    pick = rng.randrange(n_direct + n_select)
    if pick < n_direct:
        part = direct.nth(pick)
    else:
        selects.nth(pick - n_direct).click()
        if page.locator("#stage-controls").is_visible():
            return confirm_cycle(page, rng, before)
        choices = page.locator("#board [data-layer].open [data-action]:visible")
        choices.first.wait_for(state="visible")
        part = choices.nth(rng.randrange(choices.count()))
    action = part.get_attribute("data-action") or ""
    part.click()
    wait_taken(page, before, action)
    return action


def confirm_cycle(page: Page, rng: random.Random, before: int) -> str:
    """Turn the open cycle a few times (a click on the choice shown turns it), then confirm."""
    shown = "#board [data-layer].open > [data-choice].shown"
    for _ in range(rng.randrange(4)):
        previous = page.get_attribute(shown, "data-action")
        page.locator(shown).click()
        assert page.get_attribute(shown, "data-action") != previous, "a click did not turn the cycle"
    action = page.get_attribute(shown, "data-action") or ""
    page.click("#stage-controls [data-step=confirm]")
    wait_taken(page, before, action)
    return action


def wait_taken(page: Page, before: int, action: str) -> None:
    """Wait until the page shows a newer version than ``before`` (the action was taken) or a refusal."""
    try:
        page.wait_for_function(
            "v => Number(document.body.dataset.version) > v || !document.querySelector('#error').hidden",
            arg=before,
        )
    except PlaywrightTimeout:
        raise AssertionError(
            f"{action!r} was not taken: {page.inner_text('#status')} (version {version(page)})"
        ) from None
    error = page.locator("#error")
    assert error.is_hidden(), f"{action!r} was refused: {error.inner_text()}"


def keyboard_move(page: Page) -> str:
    """Make one move with the keyboard only: focus a board part, Enter; for a data-select part Enter
    opens its layer and moves the focus to the layer's first choice, and Enter again sends it.
    A hint may have left a layer open (on the hinted square): Escape closes it first, so that the
    part focused below always starts closed (Enter on the opener of an open cycle confirms it)."""
    before = version(page)
    page.keyboard.press("Escape")
    assert page.locator("#board [data-layer].open").count() == 0, "Escape did not close the open layer"
    part = page.locator("#board [data-select]:visible, #board [data-action]:visible").first
    select, action = part.get_attribute("data-select"), part.get_attribute("data-action")
    part.focus()
    page.keyboard.press("Enter")
    if select is not None:
        assert page.locator("#board [data-layer].open").count() == 1
        action = page.evaluate("document.activeElement.dataset.action ?? null")
        assert action, "Enter on a data-select part did not move the focus into its layer"
        page.keyboard.press("Enter")
    assert action
    wait_taken(page, before, action)
    return action


def play_to_end(page: Page, rng: random.Random) -> list[str]:
    """Click moves until the match is over; returns the actions made."""
    actions: list[str] = []
    while wait_turn(page) == "your-turn":
        actions.append(click_move(page, rng))
        assert len(actions) < MAX_MOVES, "the game did not end"
    return actions


def log_texts(page: Page) -> list[str]:
    return page.locator("#log li code").all_inner_texts()


def open_match(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#board svg")
    page.wait_for_function("() => document.body.dataset.version !== undefined")


def board_parts(page: Page) -> Any:
    """Every data-action value on the board (hidden layers included) and the legal-move buttons."""
    on_board = page.eval_on_selector_all("#board [data-action]", "els => els.map(e => e.dataset.action)")
    buttons = page.eval_on_selector_all("#legal [data-legal]", "els => els.map(e => e.dataset.legal)")
    return on_board, buttons


def create_in_lobby(
    page: Page,
    server: Server,
    game: str,
    options: dict[str, Any],
    seats: list[str],
    screen: str,
    time_control: str = "none",
    public: bool = False,
) -> None:
    """Fill the lobby's form: ``seats`` 'human' or an agent's name, per seat; the clock; public."""
    page.goto(f"{server.base}/?game={game}")
    page.wait_for_selector("#seats-fields .seat-row")
    for name, value in options.items():
        page.fill(f"#opt-{name}", str(value))
    page.wait_for_selector(f"[data-testid=seat-{len(seats) - 1}]")
    for index, who in enumerate(seats):
        if who == "human":
            page.select_option(f"[data-testid=seat-{index}-kind]", "human")
        else:
            page.select_option(f"[data-testid=seat-{index}-kind]", "computer")
            page.select_option(f"[data-testid=seat-{index}-agent]", who)
    if sum(who == "human" for who in seats) >= 2:  # offered only where a second person plays
        page.check(f"[data-testid=screen-{screen}]")
    else:
        assert page.locator("[data-testid=screen-fieldset]").is_hidden()
    page.select_option("[data-testid=time-control]", time_control)
    page.set_checked("[data-testid=public]", public)
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")


# ------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_full_game_against_the_computer(
    server: Server, context: Any, artifacts: Path, game: str, options: dict[str, Any]
) -> None:
    """Create the match in the lobby, play it to the end by clicking the board, read the result,
    download the record, step through the replay, and look at it on a phone-sized screen."""
    rng = random.Random(game)
    page = context.new_page()
    errors = watch(page)
    create_in_lobby(page, server, game, options, ["human", "random"], "online", public=True)
    link = page.get_attribute("[data-testid=link-0] a", "href")
    assert link and "#token=" in link
    match_id, token = link.split("/match/")[1].split("#token=")
    open_match(page, link)
    assert "You play" in page.inner_text("#role")

    # The first turn: every clickable part is a keyboard button, the board offers exactly the legal
    # moves, and pointing at a part shows its <title>.
    assert wait_turn(page) == "your-turn"
    parts = page.locator("#board [data-action], #board [data-select]")
    assert parts.count() > 0
    aria = "els => els.map(e => ['tabindex', 'role', 'aria-label'].map(name => e.getAttribute(name)))"
    for tabindex, role, label in parts.evaluate_all(aria):
        assert tabindex == "0" and role == "button" and label
    on_board, buttons = board_parts(page)
    assert sorted(on_board) == sorted(buttons) and len(set(on_board)) == len(on_board)
    titled = page.locator("#board svg g:has(> title):visible").first
    titled.hover()
    assert titled.locator(":scope > title").text_content().strip() in page.inner_text("#tip")

    # A hint: its move is named, marked on the board and in the list of moves.
    page.click("#hint")
    page.wait_for_selector("#hint-text:not([hidden])")
    hinted = page.locator("#hint-text code").inner_text()
    assert hinted in buttons
    assert page.locator("#board .hinted").count() >= 1
    assert page.locator(f"#legal [data-legal='{hinted}']").get_attribute("class") == "legal-action hinted"
    page.screenshot(path=str(artifacts / f"{game}-playing.png"), full_page=True)

    # The first move from the keyboard, the others by clicking: the server's log of the finished
    # match holds exactly the moves made on the page for this seat, and the computer's.
    actions = [keyboard_move(page), *play_to_end(page, rng)]
    code, final = server.call("GET", f"/api/matches/{match_id}", token=token)
    assert code == 200 and final["status"] == "finished"
    assert [entry["text"] for entry in final["log"] if entry["seat"] == 0] == actions
    assert any(entry["seat"] == 1 for entry in final["log"])
    assert page.locator("#result").is_visible()
    assert page.inner_text("#result-text").strip()
    assert page.inner_text("#winner").strip()
    assert "Game over" in page.inner_text("#status")
    assert page.locator("#board [data-action], #board [data-select]").count() == 0
    plies = len(log_texts(page))
    assert plies == final["plies"] == len(final["log"])
    page.screenshot(path=str(artifacts / f"{game}.png"), full_page=True)

    # The record, downloaded with the seat's token: the whole game now that it is over.
    with page.expect_download() as download:
        page.click("#record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == game and len(record["actions"]) == plies

    # The replay: back one ply, to the start, forward one, to the end again.
    assert page.locator("#replay").is_visible()
    page.click("#replay-back")
    page.wait_for_function(f"() => document.querySelector('#board svg')?.dataset.ply === '{plies - 1}'")
    assert f"after ply {plies - 1} of {plies}" in page.inner_text("#replay-label")
    page.click("#replay-first")
    page.wait_for_function("() => document.querySelector('#board svg')?.dataset.ply === '0'")
    assert page.locator("#replay-back").is_disabled()
    page.click("#replay-forward")
    page.wait_for_function("() => document.querySelector('#board svg')?.dataset.ply === '1'")
    assert page.locator("#log li[aria-current=step]").count() == 1
    page.click("#replay-last")
    page.wait_for_function(f"() => document.querySelector('#board svg')?.dataset.ply === '{plies}'")

    # A phone: the board's viewport fits the width, nothing scrolls sideways.
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.locator("#board").bounding_box()["width"] <= 375
    page.screenshot(path=str(artifacts / f"{game}-phone.png"), full_page=True)

    # The lobby lists the finished (public) match, with a link to its replay, and this browser's.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server.base + "/")
    page.wait_for_selector(f"#finished tr[data-match='{match_id}']")
    assert page.locator(f"#mine [data-match='{match_id}']").count() == 1
    assert errors == []


@pytest.fixture
def two_contexts(browser: Any) -> Iterator[tuple[Any, Any]]:
    first = browser.new_context(viewport={"width": 1100, "height": 850})
    second = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def test_online_game_between_two_browsers(
    server: Server, two_contexts: tuple[Any, Any], artifacts: Path
) -> None:
    """Two people, each with their own link in their own browser: each sees the other's moves pushed;
    an undo needs the opponent's consent."""
    made = server.create("carcassonne", [{"kind": "human"}, {"kind": "human"}], {"players": 2})
    links = [server.url(seat["link"]) for seat in made["seats"]]
    pages = [ctx.new_page() for ctx in two_contexts]
    errors = [watch(page) for page in pages]
    for page, link in zip(pages, links, strict=True):
        open_match(page, link)
        page.wait_for_function("() => document.querySelector('#connection').dataset.state === 'live'")
    rng = random.Random(2)

    def mover() -> int:
        """The index of the page whose turn it is (waiting for one of them)."""
        for page in pages:
            page.wait_for_function("() => document.querySelector('#status').dataset.state !== undefined")
        pages[0].wait_for_function("() => document.body.dataset.status === 'active'")
        for _ in range(200):
            for index, page in enumerate(pages):
                if state(page) == "your-turn":
                    return index
            pages[0].wait_for_timeout(50)
        raise AssertionError("neither page may move")

    # The first tile placed is taken back, with the opponent's consent.
    first = mover()
    me, other = pages[first], pages[1 - first]
    action = click_move(me, rng)
    other.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version(me))
    assert action in log_texts(other)
    assert me.locator("#undo").is_enabled()
    me.click("#undo")
    other.wait_for_selector("#undo-request:not([hidden])")
    assert "asks to take back" in other.inner_text("#undo-request")
    me.wait_for_selector("#undo-request:not([hidden])")
    assert me.locator("#undo-accept").is_hidden()
    other.click("#undo-accept")
    me.wait_for_function("() => document.querySelector('#undo-request').hidden")
    for page in (me, other):
        page.wait_for_function(
            "a => ![...document.querySelectorAll('#log li code')].some(c => c.textContent === a)", arg=action
        )
    assert other.locator("#undo-request").is_hidden()
    assert wait_turn(me) == "your-turn"

    # Then a few turns each: every move is pushed to the other page.
    seen = set()
    for _ in range(10):
        index = mover()
        me, other = pages[index], pages[1 - index]
        action = click_move(me, rng)
        other.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version(me))
        assert action in log_texts(other)
        seen.add(index)
    assert seen == {0, 1}
    for index, page in enumerate(pages):
        page.screenshot(path=str(artifacts / f"online-seat-{index}.png"), full_page=True)
    assert errors == [[], []]


def test_reload_restores_the_game(server: Server, context: Any) -> None:
    """A reload in the middle of a game shows the same position, and the game goes on."""
    made = server.create("royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    page = context.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    rng = random.Random(3)
    for _ in range(5):
        assert wait_turn(page) == "your-turn"
        click_move(page, rng)
    assert wait_turn(page) == "your-turn"

    def shown() -> tuple[Any, ...]:
        """The version, the log, the board's picture and the moves offered, as the page shows them."""
        picture = page.eval_on_selector("#board svg", "svg => svg.outerHTML")
        return version(page), log_texts(page), picture, board_parts(page)

    before = shown()
    assert before[3][1], "no move offered before the reload"
    page.reload()
    page.wait_for_selector("#board svg")
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    assert wait_turn(page) == "your-turn"
    assert "You play" in page.inner_text("#role")
    assert shown() == before
    click_move(page, rng)
    assert len(log_texts(page)) > len(before[1])
    assert errors == []


def test_spectator_sees_moves_but_cannot_act(
    server: Server, two_contexts: tuple[Any, Any], artifacts: Path
) -> None:
    made = server.create("two-heirs", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    player, spectator = (ctx.new_page() for ctx in two_contexts)
    errors = [watch(player), watch(spectator)]
    open_match(player, server.url(made["seats"][0]["link"]))
    open_match(spectator, server.url(made["spectator"]))
    assert spectator.inner_text("#role") == "Spectator"
    rng = random.Random(4)
    for _ in range(4):
        assert wait_turn(player) == "your-turn"
        action = click_move(player, rng)
        # Checked when the player is to move again: the spectator's view then lists the player's
        # legal moves (docs/server.md), and the page must offer none of them.
        assert wait_turn(player) == "your-turn"
        spectator.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version(player))
        assert version(spectator) == version(player)
        assert action in log_texts(spectator)
        code, watched = server.call("GET", f"/api/matches/{made['id']}")
        assert code == 200 and watched["viewer"] is None and watched["legal"]
        assert state(spectator) == "waiting"
        # Nothing to click or focus on the spectator's board, no moves, no undo, no hint.
        assert spectator.locator("#board [data-action], #board [data-select], #board [tabindex]").count() == 0
        assert spectator.locator("[data-testid=legal-none]").is_visible()
        assert spectator.locator("#legal [data-legal]").count() == 0
        assert spectator.locator("#hint").is_hidden() and spectator.locator("#undo").is_hidden()
        assert spectator.locator("#type-action").is_hidden()
    spectator.screenshot(path=str(artifacts / "spectator.png"), full_page=True)

    # A POST without a token is refused and changes nothing.
    wait_turn(player)
    legal = player.eval_on_selector_all("#legal [data-legal]", "els => els.map(e => e.dataset.legal)")
    now = version(spectator)
    status, detail = spectator.evaluate(
        """async ([id, action, version]) => {
            const answer = await fetch(`/api/matches/${id}/actions`, {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({action, version})});
            return [answer.status, (await answer.json()).detail];
        }""",
        [made["id"], legal[0], now],
    )
    assert status == 401 and "token" in detail
    code, view = server.call("GET", f"/api/matches/{made['id']}")
    assert code == 200 and view["version"] == now
    assert errors == [[], []]


def test_shared_screen_plays_every_seat(server: Server, context: Any, artifacts: Path) -> None:
    """Two people at one screen: the lobby keeps both tokens and the page moves for the seat to act."""
    page = context.new_page()
    errors = watch(page)
    create_in_lobby(page, server, "royal-court", {}, ["human", "human"], "shared")
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.click("[data-testid=play-here]")
    page.wait_for_selector("#board svg")
    assert page.inner_text("#role") == "Shared screen"

    # The rulebook, in a dialog.
    page.click("#rules-button")
    page.wait_for_function("() => document.querySelector('#rules-text')?.textContent.length > 200")
    page.click("[data-testid=rules-close]")
    assert page.locator("#rules-dialog").is_hidden()
    rng = random.Random(5)
    movers = set()
    for _ in range(40):
        assert wait_turn(page) == "your-turn"
        movers.add(page.get_attribute("#seats [data-seat].to-act", "data-seat"))
        click_move(page, rng)
        if len(movers) == 2:
            break
    assert movers == {"0", "1"}
    page.screenshot(path=str(artifacts / "shared-screen.png"), full_page=True)
    assert errors == []


def test_pushed_moves_append_to_the_log_and_resign_ends_the_match(server: Server, context: Any) -> None:
    """The page applies the server's pushes (deltas of its log: docs/server.md, "WebSocket") so that
    its log is the server's after every move, the computer's replies included; resigning ends the
    match with that seat last, as the server's record says."""
    made = server.create("royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    page = context.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    page.wait_for_function("() => document.querySelector('#connection').dataset.state === 'live'")
    rng = random.Random(5)
    token = made["seats"][0]["token"]
    for _ in range(6):
        assert wait_turn(page) == "your-turn"
        click_move(page, rng)
        code, current = server.call("GET", f"/api/matches/{made['id']}", token=token)
        page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=current["version"])
        if version(page) == current["version"]:
            assert log_texts(page) == [e["text"] for e in current["log"]]
    assert wait_turn(page) == "your-turn"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    assert "resigned" in page.inner_text("#result-text")
    code, record = server.call("GET", f"/api/matches/{made['id']}/record")
    assert code == 200 and record["ending"] == {"reason": "resign", "seat": 0}
    assert record["result"]["winner"] == 1
    assert errors == []


def test_a_timed_match_shows_each_seats_clock_and_a_fallen_flag_loses_on_time(
    server: Server, context: Any
) -> None:
    """The lobby's clock choice: the match page shows each seat's time, the seat to act's counting
    down; a seat whose time runs out loses, and the result says so."""
    page = context.new_page()
    errors = watch(page)
    create_in_lobby(page, server, "royal-court", {}, ["human", "human"], "online", "fischer:300+5")
    link = page.get_attribute("[data-testid=link-0] a", "href")
    assert link
    open_match(page, link)
    page.wait_for_selector("#clocks:not([hidden])")
    assert page.inner_text("#clock-control") == "Clock: 5 min + 5 s"
    running = page.locator(".clock.running")
    assert running.count() == 1 and page.locator(".clock").count() == 2
    page.wait_for_function(  # the seat to act's clock counts down; the other's stays
        "() => document.querySelector('.clock.running .clock-time').textContent < '5:00'", timeout=5000
    )
    assert page.locator(".clock:not(.running) .clock-time").inner_text() == "5:00"

    made = server.create("royal-court", [{"kind": "human"}, {"kind": "human"}], time_control="move:1")
    open_match(page, server.url(made["seats"][0]["link"]))
    page.wait_for_selector("#result:not([hidden])", timeout=10_000)  # the server ends it, and pushes
    assert "lost on time" in page.inner_text("#winner")
    assert "lost on time" in page.inner_text("#result-text")
    assert page.locator(".clock.fallen").count() == 1
    assert errors == []
