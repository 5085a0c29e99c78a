"""The Two Heirs' panels beside the browser table's board (docs/table.md, "Panels").

One seat entry per seat (white, blue; blue is Henry in the solo game) with its colour, points and
facts (units on the board and in the royal reserve, reach, resources, hand size, unused camps;
Henry's treasures), then sections: the supply, both hands (each tile pictured, its building named
whole), the solo extras (Henry's score explained, the treasures and their conditions, Henry's last
turn), the final turns and, once the game is over, the verdict.

Everything on the table is open in The Two Heirs (docs/rules: both hands, the reserve, the box, the
colour of the supply's top tile); only the order of the supply is unknown, to everyone, so the
panels are the same for every viewer and never depend on the hidden order.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> doc = panels(state)
>>> [(s["name"], s["score"]) for s in doc["seats"]], [s["id"] for s in doc["sections"]]
([('white', 0), ('blue', 0)], ['supply', 'hand-white', 'hand-blue'])
"""

from __future__ import annotations

from typing import Any

from regalia.core.grid import format_pos
from regalia.games.two_heirs.render.cells import cost_text, name_lines
from regalia.games.two_heirs.render.parts import CELL, FILL, SEAT_NAME
from regalia.games.two_heirs.render.reserve import reach_label
from regalia.games.two_heirs.render.scoresheet import verdict
from regalia.games.two_heirs.render.solo import henry_score_text, henry_turn_lines
from regalia.games.two_heirs.render.style import (
    COLOUR_LETTERS,
    building_words,
    is_henry,
    plural,
    seat_label,
)
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES
from regalia.render.svg import el, txt

#: The seats' colours on the page: white's tokens are white with a near-black edge, and the panel
#: takes that edge (white text would not read on the page); blue's are the blue the SVG fills.
PANEL_COLOUR = ("#1b1b1b", "#1f4fbf")


def _fact(label: str, value: object, tip: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "value": str(value)}
    if tip:
        out["title"] = tip
    return out


def _camps(state: TwoHeirsState, seat: int) -> int:
    codes = state.game.camp_codes[seat]
    return sum(1 for c in state.board.values() if c in codes)


def _seat(state: TwoHeirsState, seat: int) -> dict[str, Any]:
    on_board = len(state.unit_positions(seat))
    waiting = state.units_in_reserve(seat)
    facts = [
        _fact(
            "Units", f"{on_board} on the board, {waiting} in the reserve", "the elite never leaves the board"
        )
    ]
    if is_henry(state, seat):
        facts.append(_fact("Reach", "all", "Henry reaches the whole royal reserve and builds for free"))
    else:
        res = state.resources(seat)
        have = " ".join(f"{n}{COLOUR_LETTERS[r]}" for r, n in enumerate(res))
        facts.append(_fact("Reach", reach_label(state, seat), "reserve tiles clockwise from the shield"))
        facts.append(_fact("Resources", have, ", ".join(f"{n} {RESOURCES[r]}" for r, n in enumerate(res))))
        if seat == state.player and state.discounts:
            facts.append(_fact("Discounts", state.discounts, "free terrain played this turn"))
    facts.append(
        _fact("Hand", plural(len(state.hands[seat]), "tile"), "the hand limit is 3 at the end of a turn")
    )
    camps = _camps(state, seat)
    if camps:
        facts.append(_fact("Camps", f"{camps} unused", "flip one to take another tile this turn"))
    if is_henry(state, seat) and isinstance(state, SoloState):
        facts.append(
            _fact(
                "Treasures",
                f"{len(state.treasures)} on the board, {state.pile_left} in the pile",
                "5 points each for Henry while it stays",
            )
        )
    return {
        "seat": seat,
        "name": f"Henry ({SEAT_NAME[seat]})" if is_henry(state, seat) else SEAT_NAME[seat],
        "colour": PANEL_COLOUR[seat],
        "score": state.scores()[seat],
        "facts": facts,
    }


def tile_picture(state: TwoHeirsState, t: int) -> dict[str, str]:
    """A tile as a small SVG document with its caption (id and building, whole) and tooltip."""
    tile = state.tiles[t]
    c = CELL / 2
    svg = el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": CELL,
            "height": CELL,
            "viewBox": f"0 0 {CELL} {CELL}",
            "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
        },
        el(
            "rect",
            {"x": 1, "y": 1, "width": CELL - 2, "height": CELL - 2, "rx": 4, "fill": FILL[tile.colour]},
        ),
        txt(7, 16, tile.id, 12, font_weight="bold"),
        txt(CELL - 7, 16, COLOUR_LETTERS[tile.colour], 12, anchor="end", font_weight="bold"),
        *name_lines(c, c, building_words(tile), CELL - 8),
        txt(c, CELL - 8, cost_text(tile), 10, anchor="middle"),
    )
    return {
        "svg": svg,
        "caption": f"{tile.id} {building_words(tile)}",
        "title": f"{tile.id} {building_words(tile)}, {COLOURS[tile.colour]} ({RESOURCES[tile.colour]}); "
        f"costs {tile.cost_text()}",
    }


def _sections(state: TwoHeirsState) -> list[dict[str, Any]]:
    counts = state.supply_counts()
    n = len(state.supply)
    top = f"; the top one shows a {COLOURS[state.top]} back" if n and state.top >= 0 else ""
    out: list[dict[str, Any]] = [
        {
            "id": "supply",
            "title": "Supply",
            "text": f"{plural(n, 'tile')} face down{top}.",
            "facts": [
                _fact(COLOURS[c].capitalize(), counts[c], f"{RESOURCES[c]} tiles left") for c in range(3)
            ],
        }
    ]
    for seat in (0, 1):
        hand = state.hands[seat]
        section: dict[str, Any] = {
            "id": f"hand-{SEAT_NAME[seat]}",
            "title": f"{seat_label(state, seat)}'s hand",
            "text": "empty" if not hand else plural(len(hand), "tile"),
        }
        if hand:
            section["pictures"] = [tile_picture(state, t) for t in hand]
        out.append(section)
    if isinstance(state, SoloState):
        tokens = state.tset.tokens
        treasures = [
            _fact(f"{tokens[t].id} at {format_pos(pos)}", tokens[t].describe()) for pos, t in state.treasures
        ]
        out.append(
            {
                "id": "henry",
                "title": "Henry",
                "text": henry_score_text(state).plain,
                "facts": [*treasures, _fact("Pile", f"{state.pile_left} face down")],
            }
        )
        lines = henry_turn_lines(state)
        if lines:
            out.append(
                {
                    "id": "henry-turn",
                    "title": "Henry's last turn",
                    "text": "\n".join(t.plain for t in lines[1:]),
                }
            )
    if state.final and not state.is_terminal():
        out.append(
            {"id": "final", "title": "Final turns", "text": f"{plural(state.finals_left, 'turn')} left."}
        )
    if state.is_terminal():
        out.append({"id": "result", "title": "Result", "text": verdict(state).plain})
    return out


def panels(state: TwoHeirsState, viewer: int | None = None) -> dict[str, Any]:
    """The seats and sections beside the board; the same for every ``viewer`` (nothing is hidden
    but the supply's order, which nobody knows)."""
    return {"seats": [_seat(state, seat) for seat in (0, 1)], "sections": _sections(state)}


__all__ = ["PANEL_COLOUR", "panels", "tile_picture"]
