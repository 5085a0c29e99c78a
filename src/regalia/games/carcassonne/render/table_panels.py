"""The panels beside the Carcassonne board on the browser table (docs/table.md, "Panels"):
:func:`panels`.

Each seat: its name and colour (the meeples' colour), its points, its followers in the supply
("5 of 7"), those on the board by kind ("1 knight, 2 farmers"); with Heretics and Shrines, the
challenges it lost; once the game is over, its points during play and at the final scoring.
Sections: ``drawn`` (the drawn tile as printed and where it fits, the tile just laid, or who draws
next), ``bag`` (the tiles left, a picture per tile type with its count: public in Carcassonne)
and, after the game, ``result`` (the winner and the points by kind of feature). Nothing is
hidden in Carcassonne once drawn, so ``viewer`` changes nothing but is honoured by the contract.

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> data = panels(state, 0)
>>> [(s["name"], s["colour"], s["score"], s["facts"][0]["value"]) for s in data["seats"]]
[('red', '#d62828', 0, '7 of 7'), ('blue', '#1f5fd6', 0, '7 of 7')]
>>> [(s["id"], s.get("text")) for s in data["sections"]]
[('drawn', 'V: fits in 3 places'), ('bag', '70 tiles left')]
"""

from __future__ import annotations

from typing import Any

from regalia.core.grid import format_pos
from regalia.games.carcassonne.base import FOLLOWERS, PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.render.board import fit_positions, standing
from regalia.games.carcassonne.render.reference import tile_picture
from regalia.games.carcassonne.render.result import breakdown, challenges_lost, split, verdict
from regalia.games.carcassonne.render.style import (
    FOLLOWER_WORDS,
    KIND_ORDER,
    KIND_PLURALS,
    SEAT_FILL,
    plural,
    seat_name,
)
from regalia.games.carcassonne.state import CarcassonneState

#: The size of the drawn tile's picture and of the bag's.
DRAWN_SIZE = 96
BAG_SIZE = 40


def _fact(label: str, value: str, tip: str | None = None) -> dict[str, str]:
    return {"label": label, "value": value} | ({"title": tip} if tip else {})


def _deployed(state: CarcassonneState, seat: int) -> str:
    """``1 knight, 2 farmers``: the seat's followers on the board, by kind."""
    counts: dict[str, int] = {}
    for pos, (owner, segment) in standing(state).items():
        if owner == seat:
            kind = state.turned(pos).segments[segment].kind
            counts[kind] = counts.get(kind, 0) + 1
    words = [plural(counts[k], FOLLOWER_WORDS[k]) for k in KIND_ORDER if counts.get(k)]
    return ", ".join(words) or "none"


def _seats(state: CarcassonneState) -> list[dict[str, Any]]:
    scores = state.scores()
    shrines = state.game.options.shrines != "off"
    lost = challenges_lost(state) if shrines else []
    during, final = split(state) if state.terminal else ([], [])
    out = []
    for seat in range(state.num_players):
        facts = [
            _fact("Followers", f"{state.followers[seat]} of {FOLLOWERS}", "in the supply"),
            _fact(
                "At the final scoring" if state.terminal else "On the board",
                _deployed(state, seat),
                "the followers that stood on the board when the game ended" if state.terminal else None,
            ),
        ]
        if shrines:
            facts.append(_fact("Challenges lost", str(lost[seat]), "followers sent home by a challenge"))
        if state.terminal:
            facts.append(_fact("During play", plural(during[seat], "point")))
            facts.append(_fact("Final scoring", plural(final[seat], "point")))
        out.append(
            {
                "seat": seat,
                "name": seat_name(state, seat),
                "colour": SEAT_FILL[seat % len(SEAT_FILL)],
                "score": scores[seat],
                "facts": facts,
            }
        )
    return out


def _picture(state: CarcassonneState, index: int, size: int, caption: str, tip: str) -> dict[str, str]:
    return {"svg": tile_picture(state.cat, state.cat.types[index], size), "caption": caption, "title": tip}


def drawn_section(state: CarcassonneState) -> dict[str, Any]:
    """The drawn tile and where it fits, the tile just laid, or who draws next."""
    section: dict[str, Any] = {"id": "drawn", "title": "Tile drawn"}
    if state.terminal:
        section["text"] = "The bag is empty: the game is over"
        return section
    who = seat_name(state, state.player)
    if state.phase == PH_PLACE and state.drawn >= 0:
        tile = state.cat.types[state.drawn]
        fits = len(fit_positions(state))
        section["text"] = f"{tile.id}: fits in {plural(fits, 'place')}"
        section["pictures"] = [_picture(state, tile.index, DRAWN_SIZE, tile.id, f"tile {tile.id} as printed")]
        section["facts"] = [_fact("To lay it", who)]
    elif state.phase == PH_FOLLOWER and state.placed is not None:
        turned = state.turned(state.placed)
        tile = state.cat.types[turned.type]
        section["title"] = "Tile laid"
        section["text"] = f"{tile.id} at {format_pos(state.placed)}: {who} may deploy a follower on it"
        section["pictures"] = [_picture(state, tile.index, DRAWN_SIZE, tile.id, f"tile {tile.id} as printed")]
    else:
        section["title"] = "Next tile"
        section["text"] = f"{who} draws the next tile"
    return section


def bag_section(state: CarcassonneState) -> dict[str, Any]:
    """The tiles left in the bag: a picture per tile type with its count (public)."""
    start = state.game.bag_counts()
    pictures = []
    for tile in state.cat.types:
        n = state.bag[tile.index]
        if start[tile.index] or n or tile.start:
            tip = f"{tile.id}: {plural(n, 'tile')} left in the bag"
            pictures.append(_picture(state, tile.index, BAG_SIZE, f"{tile.id} ×{n}", tip))
    text = f"{plural(state.bag_left, 'tile')} left" if state.bag_left else "empty"
    return {"id": "bag", "title": "Bag", "text": text, "pictures": pictures}


def result_section(state: CarcassonneState) -> dict[str, Any]:
    """The winner and each seat's points by kind of feature (a finished game)."""
    points = breakdown(state)
    facts = []
    for seat in range(state.num_players):
        detail = ", ".join(f"{KIND_PLURALS[k]} {points[seat][k]}" for k in KIND_ORDER if points[seat].get(k))
        facts.append(_fact(seat_name(state, seat), detail or "no points"))
    return {"id": "result", "title": "Final scoring", "text": verdict(state).plain, "facts": facts}


def panels(state: CarcassonneState, viewer: int | None = None) -> dict[str, Any]:
    """The seats and the sections (see the module docstring)."""
    sections = [drawn_section(state), bag_section(state)]
    if state.terminal:
        sections.insert(0, result_section(state))
    return {"seats": _seats(state), "sections": sections}


__all__ = ["bag_section", "drawn_section", "panels", "result_section"]
