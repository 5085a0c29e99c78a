"""Helpers of the measuring browser tests of the table (tests/web/test_table.py, docs/table.md):
driving a match fast through the HTTP API, making one decision on the page by clicking or by the
keyboard through the staged moves of the contract, and the measurements (on-screen font sizes,
target sizes, overflow) as JavaScript run in the page.

Everything here goes by "The page" of docs/table.md (``#board``, ``#seats [data-seat]``, ``#stage``,
``#stage-controls [data-step=...]``, ``data-action``, ``data-select``, ``data-last``) and by what the
page kept from docs/server.md's client (``#status[data-state]``, ``body[data-version]``,
``#error``, ``#result``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, Server

#: The three games and the options of their test matches (the Royal Court at its smallest turn cap).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("carcassonne", {"players": 2}),
    ("royal-court", {"turn_cap": 10}),
    ("two-heirs", {}),
]
GAME_IDS = [game for game, _ in GAMES]
#: The two screen sizes of issue 18: a desktop and a phone.
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Milliseconds a page waits for its turn (the computer's moves included).
TURN_TIMEOUT = 60_000
SCREENSHOTS = ARTIFACTS / "screenshots"


def screenshot(page: Page, game: str, size: str, moment: str) -> Path:
    """Save test-artifacts/screenshots/<game>-<desktop|phone>-<start|end>.png (the whole page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{game}-{size}-{moment}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def new_context(browser: Any, size: str) -> Any:
    """A fresh context: the desktop (1280x800) or a phone (390x844, mobile, touch)."""
    if size == "phone":
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    else:
        ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(20_000)
    return ctx


def watch(page: Page) -> list[str]:
    """Collect the page's script errors."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


# ------------------------------------------------------------------------------------- the API
def view(server: Server, match_id: str, token: str | None = None) -> dict[str, Any]:
    code, answer = server.call("GET", f"/api/matches/{match_id}", token=token)
    assert code == 200, answer
    return dict(answer)


def drive(
    server: Server,
    made: dict[str, Any],
    rng: random.Random,
    until: Any,
    max_plies: int = 2000,
    prefer: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Play random legal actions for whichever human seat is to act (through the API, with each
    seat's token) until ``until(view)`` is true or the match is over; returns the last view.
    ``prefer``: words, in order: a random action starting with the first that some action starts
    with."""
    tokens = {seat["seat"]: seat.get("token") for seat in made["seats"]}
    current = view(server, made["id"], tokens[0])
    for _ in range(max_plies):
        if until(current) or current["status"] == "finished":
            return current
        seat = current["to_act"]
        assert seat is not None and tokens.get(seat), f"no human seat to act: {current['to_act']!r}"
        mine = view(server, made["id"], tokens[seat])
        choices = next(
            (found for word in prefer if (found := [a for a in mine["legal"] if a.startswith(word)])),
            mine["legal"],
        )
        action = rng.choice(choices)
        code, answer = server.call(
            "POST",
            f"/api/matches/{made['id']}/actions",
            {"action": action, "version": mine["version"]},
            token=tokens[seat],
        )
        assert code == 200, (action, answer)
        current = view(server, made["id"], tokens[0])
    raise AssertionError(f"the condition was not met in {max_plies} plies")


def tiles_placed(current: dict[str, Any]) -> int:
    """Carcassonne: the tiles laid by the players (log entries 'place ...')."""
    return sum(entry["text"].startswith("place ") for entry in current["log"])


# ------------------------------------------------------------------------------------ the page
def version(page: Page) -> int:
    return int(page.get_attribute("body", "data-version") or -1)


def state(page: Page) -> str:
    return page.get_attribute("#status", "data-state") or ""


def open_match(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#board svg")
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    settle(page)


def settle(page: Page) -> None:
    """Two animation frames: the client's layout and first zoom are done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def wait_turn(page: Page, timeout: int = TURN_TIMEOUT) -> str:
    """Wait until the page may move or the match is over; returns 'your-turn' or 'over'."""
    page.wait_for_function(
        "() => ['your-turn', 'over'].includes(document.querySelector('#status')?.dataset.state)",
        timeout=timeout,
    )
    return state(page)


def wait_taken(page: Page, before: int, what: str) -> None:
    """Wait until the page shows a version newer than ``before`` (the action was taken)."""
    try:
        page.wait_for_function(
            "v => Number(document.body.dataset.version) > v || !document.querySelector('#error').hidden",
            arg=before,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"{what} was not taken: {page.inner_text('#status')!r}") from None
    error = page.locator("#error")
    assert error.is_hidden(), f"{what} was refused: {error.inner_text()}"


#: The clickable parts of a board or stage picture a person can click now: a point of the part
#: (its centre, else one of a 5x5 grid over its box) inside the board's viewport and the window
#: where the part is on top (elementFromPoint lands on it or inside it). [index, dx, dy] each, dx
#: and dy the point from the part's top left corner.
IN_VIEW_JS = """
([root, selector]) => {
  const box = document.querySelector(root)?.getBoundingClientRect();
  if (!box) return [];
  const out = [];
  const grid = [[0.5, 0.5]];
  for (const fx of [0.1, 0.3, 0.5, 0.7, 0.9]) for (const fy of [0.1, 0.3, 0.5, 0.7, 0.9]) grid.push([fx, fy]);
  document.querySelectorAll(selector).forEach((el, index) => {
    if (!el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) return;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return;
    for (const [fx, fy] of grid) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < box.left || x > box.right || y < box.top || y > box.bottom) continue;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      const on = hit && (hit === el || el.contains(hit) || hit.closest('[data-action],[data-select]') === el);
      if (on) { out.push([index, x - r.left, y - r.top]); return; }
    }
  });
  return out;
}
"""


def clickable_in_view(page: Page, root: str, selector: str) -> list[tuple[int, float, float]]:
    """The parts (index in ``page.locator(selector)``, and a point on them) a person can click now."""
    return [tuple(found) for found in page.evaluate(IN_VIEW_JS, [root, selector])]  # type: ignore[misc]


def click_found(page: Page, selector: str, found: tuple[int, float, float]) -> Any:
    """Click the part ``found`` (of :func:`clickable_in_view`) at its point; returns its locator.

    The mouse goes to the very point :func:`clickable_in_view` hit-tested (from the part's
    ``getBoundingClientRect``). ``Locator.click(position=...)`` measures from another box, the
    layout's box model, which for an SVG part includes its strokes (70 px against 66 for a Royal
    Court zone tile), and scrolls the part into view first: a point near a part's edge then
    lands a few pixels off it, on the board's ground, and the click waits until it times out."""
    part = page.locator(selector).nth(int(found[0]))
    x, y = part.evaluate(
        "(el, [dx, dy]) => { const r = el.getBoundingClientRect(); return [r.left + dx, r.top + dy]; }",
        [found[1], found[2]],
    )
    page.mouse.click(x, y)
    return part


def fit(page: Page) -> None:
    """Fit the whole board in the viewport: the Fit button, else the key 0 (docs/table.md)."""
    if page.locator("#zoom-fit").is_visible():
        page.click("#zoom-fit")
    else:
        page.focus("#board")
        page.keyboard.press("0")
    settle(page)


def board_candidates(page: Page) -> tuple[str, list[int]]:
    selector = "#board [data-action], #board [data-select]"
    found = clickable_in_view(page, "#board", selector)
    if not found:  # everything clickable is off the viewport: fit the board
        fit(page)
        found = clickable_in_view(page, "#board", selector)
    return selector, found


def stage_open(page: Page) -> bool:
    return page.locator("#stage").is_visible()


def cycle_open(page: Page) -> bool:
    return page.locator("#stage-controls").is_visible()


def shown_choice(page: Page) -> str | None:
    """The notation of the cycle's choice shown now (the one visible [data-choice])."""
    return page.evaluate(
        """() => {
          const drawn = el => {
            for (let e = el; e && e.tagName.toLowerCase() !== 'svg'; e = e.parentElement)
              if (e.getAttribute('display') === 'none'
                  || getComputedStyle(e).display === 'none') return false;
            return true;
          };
          const shown = [...document.querySelectorAll('#board [data-choice]')].filter(drawn);
          return shown.length === 1 ? shown[0].dataset.action : `${shown.length} shown`;
        }"""
    )


def click_decision(page: Page, rng: random.Random) -> str:
    """Make one decision by clicking, the staged way (docs/table.md): a worded stage button or a
    stage target; or a board part: a data-action part, or a data-select part, then in a cycle
    sometimes Turn right, and Confirm, or in another layer one of its choices. Waits until the
    server has taken it; returns what was clicked (for the messages)."""
    before = version(page)
    if stage_open(page):
        buttons = page.locator("#stage-buttons button:visible")
        targets_sel = "#stage [data-action]"
        targets = clickable_in_view(page, "#stage", targets_sel)
        assert buttons.count() or targets, "the stage is open with nothing to choose"
        if targets and (not buttons.count() or rng.random() < 0.5):
            pick = rng.choice(targets)
            what = f"stage: {page.locator(targets_sel).nth(pick[0]).get_attribute('data-action')}"
            click_found(page, targets_sel, pick)
        else:
            part = buttons.nth(rng.randrange(buttons.count()))
            what = f"stage: {part.inner_text()}"
            part.click()
        wait_taken(page, before, what)
        return what
    selector, found = board_candidates(page)
    if not found:
        legal = page.eval_on_selector_all("#legal [data-legal]", "els => els.map(e => e.dataset.legal)")
        raise AssertionError(
            "neither the stage (#stage hidden) nor the board (no data-action/data-select part in view, "
            f"fitted) offers a choice on the player's turn; the legal moves: {legal[:12]}"
        )
    pick = rng.choice(found)
    part = page.locator(selector).nth(pick[0])
    action, select = part.get_attribute("data-action"), part.get_attribute("data-select")
    click_found(page, selector, pick)
    if select is None:
        what = f"board: {action}"
    else:
        page.wait_for_function(
            """k => !document.querySelector('#stage-controls').hidden
                 || document.querySelector(`#board [data-layer="${k}"]`)
                      ?.getAttribute('display') !== 'none'""",
            arg=select,
        )
        if cycle_open(page):
            nxt = page.locator('#stage-controls [data-step="next"]')
            for _ in range(rng.randrange(4)):
                if nxt.is_visible() and nxt.is_enabled():
                    nxt.click()
            what = f"cycle {select}: {shown_choice(page)}"
            page.click('#stage-controls [data-step="confirm"]')
        else:
            layer_sel = f'#board [data-layer="{select}"] [data-action]'
            choices = clickable_in_view(page, "#board", layer_sel)
            if not choices:  # the choices lie off the viewport: fit the board, as a person would
                fit(page)
                choices = clickable_in_view(page, "#board", layer_sel)
            if not choices:
                boxes = page.eval_on_selector_all(
                    layer_sel,
                    "els => els.map(e => { const r = e.getBoundingClientRect(); return "
                    "`${e.dataset.action} ${r.x|0},${r.y|0} ${r.width|0}x${r.height|0}`; })",
                )
                board = page.locator("#board").bounding_box()
                raise AssertionError(
                    f"the layer {select!r} opened with no choice in view (fitted): its choices {boxes[:8]}, "
                    f"#board at {board}"
                )
            pick = rng.choice(choices)
            what = f"layer {select}: {page.locator(layer_sel).nth(pick[0]).get_attribute('data-action')}"
            click_found(page, layer_sel, pick)
    wait_taken(page, before, what)
    return what


# ---------------------------------------------------------------------------------- measuring
#: The on-screen font size (CSS px) of every visible, non-blank text node under the roots: an HTML
#: text's computed font-size; an SVG text's font-size times the picture's scale on screen.
FONT_SIZES_JS = """
(roots) => {
  const seen = new Set(), out = [];
  for (const sel of roots) for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(node) || !node.textContent.trim()) continue;
      seen.add(node);
      if (el.closest('style, script, title, desc')) continue;
      if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      let size = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) {
        const m = el.getScreenCTM();
        if (m) size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      const name = typeof el.className === 'string' ? el.className : '';
      const cls = name ? '.' + name.split(' ').join('.') : '';
      const group = el.parentElement?.closest('[class]')?.getAttribute('class');
      const pos = el.closest('[data-pos]')?.getAttribute('data-pos');
      const where = (el.id ? '#' + el.id : el.tagName.toLowerCase() + cls)
        + (group && !cls ? ` in .${group.split(' ').join('.')}` : '') + (pos ? ` at ${pos}` : '');
      const onScreen = r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
      out.push({size: Math.round(size * 100) / 100, text: node.textContent.trim().slice(0, 40), where,
                root: sel, onScreen});
    }
  }
  return out;
}
"""

#: Every visible clickable target, with its whole box (an input with a label: the union of its box
#: and its labels', a click on the label acts). Only targets inside the page (scrolling down
#: included) count and, on the board, those at least partly inside the viewport #board (a part
#: the viewport cuts is measured whole: the board pans).
TARGETS_JS = """
(selector) => {
  const board = document.querySelector('#board')?.getBoundingClientRect();
  const docW = document.documentElement.clientWidth;
  const out = [];
  const union = (a, b) => ({left: Math.min(a.left, b.left), top: Math.min(a.top, b.top),
                            right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom)});
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    let r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    let box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    if (el.labels && el.labels.length) for (const l of el.labels) {
      const lr = l.getBoundingClientRect();
      if (lr.width > 0 && lr.height > 0) box = union(box, lr);
    }
    if (board && el.closest('#board')) {  // only the parts inside the viewport #board, at full size
      const l = Math.max(box.left, board.left), t = Math.max(box.top, board.top);
      const rr = Math.min(box.right, board.right), b = Math.min(box.bottom, board.bottom);
      if (rr <= l || b <= t) continue;
    }
    if (box.right <= 0 || box.left >= docW) continue;          // off the page sideways
    if (box.bottom + scrollY <= 0) continue;                    // above the page
    const name = el.dataset.action || el.dataset.select || el.dataset.step || el.id
      || el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 30) || el.tagName;
    out.push({tag: el.tagName.toLowerCase(), name, w: Math.round((box.right - box.left) * 10) / 10,
              h: Math.round((box.bottom - box.top) * 10) / 10});
  }
  return out;
}
"""
TARGETS = "button, a, input, select, [data-action], [data-select], [role=button]"


def font_sizes(page: Page, roots: list[str]) -> list[dict[str, Any]]:
    return list(page.evaluate(FONT_SIZES_JS, roots))


def targets(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate(TARGETS_JS, TARGETS))


def describe(target: dict[str, Any]) -> str:
    return f"{target['tag']} {target['name']!r}: {target['w']}x{target['h']}"
