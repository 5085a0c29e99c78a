"""Measuring browser tests of the table (issue 18, item 8; the contract is docs/table.md): sizes on
screen (a Carcassonne tile after 50 tiles, the panels' text, a phone's touch targets), no sideways
overflow, the panels folding under the board on a phone, axe-core on the lobby and every game's
page at both sizes, whole games played by clicking only through the staged moves, a move by the
keyboard only, the clock in the seats panel running out, ``data-last`` after the computer's move
and the score pop-up; screenshots of each game at both sizes, at the start and at the end, in
test-artifacts/screenshots/.

What is already tested elsewhere is not repeated: resigning from the page (confirm dialog
accepted) and the result it shows are test_browser.py's
``test_pushed_moves_append_to_the_log_and_resign_ends_the_match``; a fallen flag with ``move:1``
there too (here only what the table adds: the clock inside ``#seats [data-seat]``); the tampered
seat link (spectator view with a notice) and the unknown match's HTML 404 page are
test_links.py's ``test_a_tampered_seat_link_opens_the_spectator_view_saying_why``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api", reason="the playwright Python package is missing: pip install playwright"
)
from playwright.sync_api import Page

from .conftest import Server
from .table_helpers import (
    GAME_IDS,
    GAMES,
    click_decision,
    cycle_open,
    describe,
    drive,
    font_sizes,
    new_context,
    open_match,
    screenshot,
    settle,
    shown_choice,
    targets,
    tiles_placed,
    version,
    view,
    wait_taken,
    wait_turn,
    watch,
)

pytestmark = pytest.mark.browser

#: docs/table.md, "The board": the client never zooms a cell below 56 px by default.
MIN_CELL = 56
#: Issue 18: no text on the table under 12 CSS px.
MIN_FONT = 12
#: Issue 18 (WCAG 2.5.5): a touch target on a phone is at least 44x44 CSS px.
MIN_TARGET = 44
#: A bound on the decisions of the clicking side in one whole game.
MAX_DECISIONS = 600
#: A scored group in a board's SVG (docs/table.md, "Points scored").
SCORED = re.compile(r'<g [^>]*class="(?:[^"]* )?scored[ "]')
#: The panels whose text is measured: the seats, the game's sections, the stage, every .panel.
PANELS = ["#seats", "#sections", "#stage", "#stage-controls", ".panel"]


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    ctx = new_context(browser, "desktop")
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = new_context(browser, "phone")
    try:
        yield ctx
    finally:
        ctx.close()


def options_of(game: str) -> dict[str, Any]:
    return dict(GAMES)[game]


def against_the_computer(server: Server, game: str, **extra: Any) -> dict[str, Any]:
    return server.create(
        game, [{"kind": "human"}, {"kind": "computer", "agent": "random"}], options_of(game), **extra
    )


# -------------------------------------------------------------------------------- 1: sizes
def test_carcassonne_after_50_tiles_a_tile_is_at_least_56_px_and_the_text_12_px(
    server: Server, desktop: Any
) -> None:
    """docs/table.md, "The board": at the default zoom a cell (a tile) is never under 56 CSS px, even
    on a board of 50 tiles at 1280x800; issue 18: the panels' text (#seats, the sections, every
    panel) and the board's own labels on screen are at least 12 CSS px."""
    made = server.create("carcassonne", [{"kind": "human"}, {"kind": "human"}], {"players": 2})
    current = drive(server, made, random.Random(50), lambda v: tiles_placed(v) >= 50)
    assert tiles_placed(current) >= 50 and current["status"] == "active"
    seat = current["to_act"]
    page = desktop.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][seat]["link"]))
    svg = page.locator("#board svg").first
    assert svg.get_attribute("data-cell"), "the board's SVG carries no data-cell (docs/table.md)"
    widths = page.eval_on_selector_all(
        "#board [data-pos].tile", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    print(
        f"\n[table] carcassonne after {tiles_placed(current)} tiles: {len(widths)} tiles on the board, "
        f"width {min(widths, default=0):.1f} to {max(widths, default=0):.1f} CSS px"
    )
    assert len(widths) >= 51, f"#board [data-pos].tile: {len(widths)} elements, 51 tiles are laid"
    assert min(widths) >= MIN_CELL, f"the smallest tile is {min(widths):.1f} CSS px wide (< {MIN_CELL})"

    panel_text = font_sizes(page, PANELS)
    assert panel_text, "no text found in the panels"
    smallest = min(panel_text, key=lambda t: t["size"])
    print(f"[table] carcassonne panels: {len(panel_text)} text nodes, smallest {smallest}")
    small = [t for t in panel_text if t["size"] < MIN_FONT]
    assert not small, f"{len(small)} panel texts under {MIN_FONT} px, e.g. {small[:8]}"

    # The board's own labels, those on screen (inside the viewport #board and the window).
    board_text = [t for t in font_sizes(page, ["#board"]) if t["onScreen"]]
    if board_text:
        smallest = min(board_text, key=lambda t: t["size"])
        print(f"[table] carcassonne board labels on screen: {len(board_text)}, smallest {smallest}")
        small = [t for t in board_text if t["size"] < MIN_FONT]
        kinds = sorted({(t["where"].split(" at ")[0], t["size"]) for t in small})
        assert not small, (
            f"{len(small)} board labels under {MIN_FONT} px on screen: {kinds[:6]}; e.g. "
            + ", ".join(f"{t['text']!r} {t['size']} px ({t['where']})" for t in small[:6])
        )
    assert errors == []


# -------------------------------------------------------------------------------- 2: a phone
@pytest.mark.parametrize("game", GAME_IDS)
def test_on_a_phone_every_target_is_44_px_nothing_overflows_and_the_panels_fold_under_the_board(
    server: Server, phone: Any, game: str
) -> None:
    """Issue 18 (a phone, 390x844, touch): every visible clickable target (buttons, links, inputs,
    selects, the board's data-action/data-select parts within the viewport #board, role=button) is
    at least 44x44 CSS px (an input counts with its label), at the start of the turn, with a
    staged move open and, in Carcassonne, with the follower step's stage open; the page never
    scrolls sideways; the panels (#seats) come after the board."""
    made = against_the_computer(server, game)
    page = phone.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    assert wait_turn(page) == "your-turn"
    settle(page)
    screenshot(page, game, "phone", "start")
    found = targets(page)
    moments = {"start of the turn": found}

    # A staged move open: the first data-select part in view (a cycle or a layer), if the game has one.
    selects = page.locator("#board [data-select]:visible")
    if selects.count():
        selects.first.click()
        settle(page)
        moments["a staged move open"] = targets(page)
        if cycle_open(page):  # Carcassonne: confirm the tile; the follower step's stage follows
            before = version(page)
            page.click('#stage-controls [data-step="confirm"]')
            wait_taken(page, before, "Confirm")
            if wait_turn(page) == "your-turn" and page.locator("#stage").is_visible():
                settle(page)
                moments["the stage open"] = targets(page)

    lines = []
    for moment, found in moments.items():
        assert found, f"{moment}: no clickable target found"
        smallest = min(found, key=lambda t: min(t["w"], t["h"]))
        parts = [t for t in found if t["tag"] in ("g", "rect", "path", "circle", "use", "polygon")]
        on_board = min(parts, key=lambda t: min(t["w"], t["h"]), default=None)
        lines.append(
            f"{moment}: {len(found)} targets, smallest {describe(smallest)}"
            + (f", smallest SVG part {describe(on_board)}" if on_board else "")
        )
    print(f"\n[table] {game} phone: " + "; ".join(lines))
    for moment, found in moments.items():
        small = [t for t in found if t["w"] < MIN_TARGET or t["h"] < MIN_TARGET]
        small.sort(key=lambda t: min(t["w"], t["h"]))
        assert not small, (
            f"{game}, {moment}: {len(small)} targets under {MIN_TARGET}x{MIN_TARGET} CSS px; smallest "
            + "; ".join(describe(t) for t in small[:10])
        )

    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"document.documentElement.scrollWidth is {width} (> 390): the page scrolls sideways"
    board = page.locator("#board").bounding_box()
    assert board is not None
    for panel in ("#seats", "#sections"):
        box = page.locator(panel).bounding_box()
        if panel == "#seats":
            assert box is not None, "#seats is not shown on a phone"
        if box is not None and box["height"] > 0:
            assert box["y"] >= board["y"] + board["height"] - 1, (
                f"{panel} top {box['y']:.0f} is above the board's bottom {board['y'] + board['height']:.0f}"
            )
    assert errors == []


# -------------------------------------------------------------------------------- 3: axe-core
AXE_PAGES = [("lobby", size) for size in ("desktop", "phone")] + [
    (game, size) for game in GAME_IDS for size in ("desktop", "phone")
]


@pytest.mark.parametrize(("where", "size"), AXE_PAGES, ids=[f"{w}-{s}" for w, s in AXE_PAGES])
def test_axe_finds_nothing_serious_or_critical(server: Server, browser: Any, where: str, size: str) -> None:
    """Issue 18: axe-core on the lobby and on each game's match page (a seat at its turn, clickable
    parts on the board) at 1280x800 and 390x844: no violation of impact serious or critical."""
    from axe_playwright_python.sync_playwright import Axe

    ctx = new_context(browser, size)
    try:
        page = ctx.new_page()
        if where == "lobby":
            page.goto(server.base + "/")
            page.wait_for_selector("#seats-fields .seat-row")
        else:
            made = against_the_computer(server, where)
            open_match(page, server.url(made["seats"][0]["link"]))
            assert wait_turn(page) == "your-turn"
            settle(page)
            if size == "desktop":
                screenshot(page, where, "desktop", "start")
        results = Axe().run(page).response["violations"]
    finally:
        ctx.close()
    bad = [v for v in results if v.get("impact") in ("serious", "critical")]
    minor = [v for v in results if v.get("impact") not in ("serious", "critical")]
    print(
        f"\n[table] axe {where} {size}: {len(bad)} serious/critical, {len(minor)} minor/moderate "
        f"({', '.join(sorted(v['id'] for v in minor)) or 'none'})"
    )
    assert not bad, "; ".join(
        f"{v['id']} ({v['impact']}): " + ", ".join(" ".join(n["target"]) for n in v["nodes"][:6]) for v in bad
    )


# -------------------------------------------------------------------------------- 4: whole games
@pytest.mark.parametrize("game", GAME_IDS)
def test_a_whole_game_against_the_computer_by_clicking_only(
    server: Server, browser: Any, desktop: Any, game: str
) -> None:
    """Issue 18: a whole game against the computer (random) played by clicking only, through the
    staged moves of docs/table.md: Carcassonne a square (data-select), sometimes Turn right, Confirm,
    then in the follower step a stage target or a worded button; the Royal Court (turn_cap 10, the
    smallest) a hand tile then a target; The Two Heirs take then build. Carcassonne has no smaller bag
    among its options (only a tile catalogue file, which a client may not set), so it plays the
    whole bag of 72 tiles. Every move in the server's log for the seat is one made on the page."""
    made = against_the_computer(server, game)
    page = desktop.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    rng = random.Random(game)
    decisions: list[str] = []
    while wait_turn(page) == "your-turn":
        decisions.append(click_decision(page, rng))
        assert len(decisions) < MAX_DECISIONS, f"the game did not end in {MAX_DECISIONS} decisions"
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#winner").strip() and page.inner_text("#result-text").strip()
    final = view(server, made["id"], made["seats"][0]["token"])
    assert final["status"] == "finished"
    mine = [entry for entry in final["log"] if entry["seat"] == 0]
    assert len(mine) == len(decisions), (
        f"{len(decisions)} decisions on the page, {len(mine)} plies in the log"
    )
    assert page.locator("#board [data-action], #board [data-select]").count() == 0
    print(f"\n[table] {game}: a whole game in {len(decisions)} clicked decisions, {final['plies']} plies")
    screenshot(page, game, "desktop", "end")
    ctx = new_context(browser, "phone")
    try:
        small = ctx.new_page()
        open_match(small, server.url(made["seats"][0]["link"]))
        small.wait_for_selector("#result:not([hidden])")
        screenshot(small, game, "phone", "end")
    finally:
        ctx.close()
    assert errors == []


# -------------------------------------------------------------------------------- 5: keyboard
def tab_to(page: Page, selector: str, limit: int = 300) -> str:
    """Press Tab until the focus is on an element matching ``selector``; returns its outerHTML head."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return str(page.evaluate("document.activeElement.outerHTML.slice(0, 120)"))
    raise AssertionError(f"{limit} presses of Tab never reached {selector}")


def keyboard_follower(page: Page, server: Server, made: dict[str, Any]) -> str:
    """The follower step by the keyboard: the stage shows, its default button focused; Tab to the
    next button (if any) and Space. Returns the seat's last ply in the server's log."""
    token = made["seats"][0]["token"]
    page.wait_for_selector("#stage:not([hidden])")
    focused = page.evaluate("document.activeElement?.closest('#stage') !== null")
    assert focused, "the stage's default button is not focused"
    buttons = page.locator("#stage-buttons button")
    assert buttons.count() >= 1
    default = view(server, made["id"], token)["default"]
    before = version(page)
    if buttons.count() > 1:
        page.keyboard.press("Tab")
    chosen = page.evaluate("document.activeElement.dataset.action ?? document.activeElement.textContent")
    page.keyboard.press("Space")
    wait_taken(page, before, f"Space on {chosen!r}")
    last = [e["text"] for e in view(server, made["id"], token)["log"] if e["seat"] == 0][-1]
    assert last.startswith(("follower", "pass")), last
    if buttons.count() == 1:
        assert last == default
    return last


def test_a_carcassonne_move_with_the_keyboard_only(server: Server, desktop: Any) -> None:
    """docs/table.md, "Keyboard": Tab reaches a square of the board, Enter opens its cycle, r turns the
    tile (another rotation is shown), Enter confirms the one shown (the server lays exactly it); the
    follower step's stage has its default button focused; Tab and Space choose there. A drawn tile
    that fits one way only on every square (a symmetric tile) has no cycle: that turn is played by
    the keyboard too (Enter on the square, Tab to its one choice, Enter), and the next turn tried."""
    made = against_the_computer(server, "carcassonne")
    page = desktop.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    token = made["seats"][0]["token"]
    turned = None
    for _turn in range(6):
        assert wait_turn(page) == "your-turn"
        before = version(page)
        squares = page.locator("#board [data-select]").count()
        assert squares, "no square (data-select) on the board at the player's turn"
        first = None
        for _ in range(squares):
            tab_to(page, "#board [data-select]")
            page.keyboard.press("Enter")
            settle(page)
            if not cycle_open(page):  # the tile fits one way only here: no cycle
                page.keyboard.press("Escape")
                continue
            first = shown_choice(page)
            assert first and " shown" not in first, f"Enter opened a cycle with {first} [data-choice]"
            page.keyboard.press("r")
            turned = shown_choice(page)
            assert turned != first, f"r did not turn the tile: {first!r} still shown"
            break
        if first is not None:
            page.keyboard.press("Enter")
            wait_taken(page, before, f"Enter on {turned}")
            log = view(server, made["id"], token)["log"]
            assert [e["text"] for e in log if e["seat"] == 0][-1] == turned
            keyboard_follower(page, server, made)
            break
        # No cycle this turn: lay the tile by the keyboard all the same (the square's one choice).
        tab_to(page, "#board [data-select]")
        page.keyboard.press("Enter")
        settle(page)
        tab_to(page, "#board [data-layer].open [data-action]")
        page.keyboard.press("Enter")
        wait_taken(page, before, "Enter on a square's one choice")
        keyboard_follower(page, server, made)
    assert turned, "no turn of 6 drew a tile with two rotations on a square"
    assert errors == []


# -------------------------------------------------------------------------------- 6: clocks
def test_the_clock_in_the_seats_panel_runs_out_and_the_page_shows_the_loss_on_time(
    server: Server, desktop: Any
) -> None:
    """docs/table.md, "The page": each #seats [data-seat] holds a .clock; with move:2 (2 s a move) the
    seat to act does nothing: its clock counts down to nothing and the result says it lost on time.
    (The fallen flag with move:1 in the old clocks box is test_browser.py's; this is the table's.)"""
    made = server.create(
        "carcassonne", [{"kind": "human"}, {"kind": "human"}], {"players": 2}, time_control="move:2"
    )
    page = desktop.new_page()
    errors = watch(page)
    page.goto(server.url(made["seats"][0]["link"]))
    page.wait_for_selector("#seats [data-seat] .clock")
    clocks = page.locator("#seats [data-seat] .clock")
    assert clocks.count() == 2, f"{clocks.count()} .clock in #seats [data-seat]"
    start = clocks.all_inner_texts()
    page.wait_for_selector("#result:not([hidden])", timeout=15_000)
    assert "lost on time" in page.inner_text("#winner") + page.inner_text("#result-text")
    record = server.call("GET", f"/api/matches/{made['id']}/record")[1]
    fallen = record["ending"]["seat"]
    assert record["ending"]["reason"] == "time"
    after = page.locator(f"#seats [data-seat='{fallen}'] .clock").inner_text()
    assert after != start[fallen], f"the fallen seat's clock still reads {after!r}"
    assert errors == []


# -------------------------------------------------------------------------------- 8: last ply
@pytest.mark.parametrize("game", GAME_IDS)
def test_the_computers_last_ply_is_marked_data_last(server: Server, desktop: Any, game: str) -> None:
    """docs/table.md, "The last ply": after the computer moves, the parts its ply laid, moved or took
    carry data-last: every place of that ply (log[].places) is the data-pos of a [data-last] part
    (or of one inside it, or around it)."""
    made = against_the_computer(server, game)
    page = desktop.new_page()
    errors = watch(page)
    open_match(page, server.url(made["seats"][0]["link"]))
    rng = random.Random(8)
    token = made["seats"][0]["token"]
    checked = 0
    for _ in range(12):
        if wait_turn(page) != "your-turn":
            break
        log = view(server, made["id"], token)["log"]
        computer = [e for e in log if e["seat"] == 1]
        if computer and log[-1]["seat"] != 0:
            last = next((e for e in reversed(log) if e["places"]), None)
            if last is not None and last["seat"] == 1:
                marked = page.evaluate(
                    """() => [...document.querySelectorAll('#board [data-last]')].flatMap(el => [
                        el.getAttribute('data-pos'),
                        el.closest('[data-pos]')?.getAttribute('data-pos'),
                        ...[...el.querySelectorAll('[data-pos]')].map(c => c.getAttribute('data-pos'))
                    ]).filter(Boolean)"""
                )
                missing = [p for p in last["places"] if p not in marked]
                assert not missing, (
                    f"{game}: the computer's {last['text']!r} happened at {last['places']}, "
                    f"#board [data-last] covers {sorted(set(marked))}"
                )
                checked += 1
                if checked >= 2:
                    break
        click_decision(page, rng)
    assert checked, f"{game}: no computer ply with places seen (log places empty?)"
    assert errors == []


#: Followers on roads first (roads are completed soonest), then on anything.
ROAD_FIRST = ("follower road", "follower")


def test_a_completed_feature_pops_its_points_up(server: Server, desktop: Any) -> None:
    """docs/table.md, "Points scored": a ply that completes a feature draws g.scored[data-points]
    on the board and the client pops the points up (an element it adds, outside the board's SVG,
    whose text is the points, "8" or "+8"; the panels, whose scores a push rebuilds, do not count).
    Two people play random moves through the API while a spectator's page watches the pushes,
    until a board carries g.scored (the seats deploy a follower whenever they can, on a road
    first; the server draws the tiles, so the game differs from run to run, and random play does
    not complete a feature with a follower in every game: up to four games are played)."""
    for attempt in range(4):  # random play completes a feature with a follower in most games, not all
        made = server.create("carcassonne", [{"kind": "human"}, {"kind": "human"}], {"players": 2})
        page = desktop.new_page()
        errors = watch(page)
        open_match(page, server.url(made["spectator"]))
        page.evaluate(
            """() => {
              const PANELS = '#board svg, #seats, #sections, #log, #moves, #result, #status, #stage, #replay';
              window.__added = [];
              new MutationObserver(records => {
                for (const r of records) for (const n of r.addedNodes)
                  if (n.nodeType === 1 && !n.closest(PANELS)) window.__added.push(n);
              }).observe(document.body, {childList: true, subtree: true});
            }"""
        )
        rng = random.Random(18 + attempt)
        current = drive(server, made, rng, lambda v: bool(SCORED.search(v["board"])), prefer=ROAD_FIRST)
        if SCORED.search(current["board"]):
            break
        page.close()
    assert SCORED.search(current["board"]), "no g.scored on the board in four whole games"
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=current["version"])
    points = page.eval_on_selector_all(
        "#board g.scored[data-points]", "els => els.map(e => e.dataset.points)"
    )
    assert points, "the page's board has no g.scored[data-points] though the view has"
    wanted = {p for n in points for p in (n, f"+{n}")}
    # An element the client added outside the board's SVG and the panels (whose scores a push may
    # rebuild), its text the points: the pop-up.
    page.wait_for_function(
        "w => window.__added.some(n => w.includes((n.textContent || '').trim()))",
        arg=sorted(wanted),
        timeout=5000,
    )
    assert errors == []
