"""Intrigue in the Royal Court's panels beside the table's board (docs/table.md, "Panels"):
:func:`panels`.

One seat per player, in seat order: its name, its colour (the solid colour of its tiles), its
consort's current score and facts (the consort it surrounds, the tiles in its zone, in play and
removed, a Diplomat's force or a Courtisan's block against it). Then the sections the whole
picture's right-hand column holds: whose turn and which step, each activation zone and the
removed tiles as small pictures, the last ply in words, the result once the game is over, and the
archetypes' legend.

Nothing is hidden in this game (the rules' Setup lays both zones open beside the board, and the
state's observation is the same for every viewer), so the panels are the same for every viewer:
``viewer`` is taken for the contract and changes nothing.

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first red")
>>> doc = panels(state, 0)
>>> [(s["name"], s["colour"], s["score"]) for s in doc["seats"]]
[('red', '#c92a2a', 0), ('blue', '#1c5fb8', 0)]
>>> [s["id"] for s in doc["sections"]]
['turn', 'last', 'zone-red', 'zone-blue', 'archetypes']
"""

from __future__ import annotations

from typing import Any

from regalia.core.errors import RegaliaError
from regalia.core.game import TERMINAL
from regalia.games.royal_court.actions import SEAT_NAMES
from regalia.games.royal_court.render.art import SEAT_FILL, piece_svg
from regalia.games.royal_court.render.describe import describe_ply
from regalia.games.royal_court.render.terminal import result_line, score_line, status_line
from regalia.games.royal_court.state import RoyalCourtState

#: The size of a tile pictured in a panel, in units.
PICTURE = 56


def _fact(label: str, value: object, tip: str | None = None) -> dict[str, str]:
    out = {"label": label, "value": str(value)}
    if tip:
        out["title"] = tip
    return out


def _seat(state: RoyalCourtState, seat: int) -> dict[str, Any]:
    game = state.game
    names = game.archetypes.archetypes
    zone = state.zone_tiles(seat)
    active = sum(1 for k in zone if state.is_active(game.piece(seat, k)))
    removed = sum(1 for k in range(game.count) if state.removed >> game.piece(seat, k) & 1)
    facts = [
        _fact("Consort", f"the {game.consorts[seat]}", "the royal this seat surrounds with influence"),
        _fact("Zone", f"{len(zone)} of {game.count}", f"{active} active, {len(zone) - active} inactive"),
        _fact("In play", len(state.tiles_in_play(seat)), "tiles on the board"),
        _fact("Removed", removed, "tiles removed from the game"),
    ]
    if state.forced[seat] >= 0:
        why = "chosen by an ability of the opponent's"
        facts.append(_fact("Must play", names[state.forced[seat]].name, why))
    if state.blocked >> seat & 1:
        why = "an ability of the opponent's: the next tile's ability does not activate"
        facts.append(_fact("Blocked", "next ability", why))
    return {
        "seat": seat,
        "name": SEAT_NAMES[seat],
        "colour": SEAT_FILL[seat],
        "score": state.consort_score(seat),
        "facts": facts,
    }


def _zone(state: RoyalCourtState, seat: int) -> dict[str, Any]:
    game = state.game
    names = game.archetypes.archetypes
    pictures = []
    for k in state.zone_tiles(seat):
        piece = game.piece(seat, k)
        side = "active" if state.is_active(piece) else "inactive"
        arch = names[k]
        pictures.append(
            {
                "svg": piece_svg(state, piece, PICTURE, f"in {SEAT_NAMES[seat]}'s zone"),
                "caption": arch.name,
                "title": f"{arch.name} ({arch.influence}, {side}): {arch.ability}",
            }
        )
    section: dict[str, Any] = {
        "id": f"zone-{SEAT_NAMES[seat]}",
        "title": f"{SEAT_NAMES[seat]}'s activation zone",
    }
    if pictures:
        section["pictures"] = pictures
    else:
        section["text"] = "Empty: every tile is in play or removed."
    return section


def _removed(state: RoyalCourtState) -> dict[str, Any] | None:
    game = state.game
    pictures = []
    for seat in (0, 1):
        for k in range(game.count):
            piece = game.piece(seat, k)
            if state.removed >> piece & 1:
                name = state.piece_name(piece)
                svg = piece_svg(state, piece, PICTURE, "removed from the game")
                pictures.append({"svg": svg, "caption": name, "title": f"{name}: removed from the game"})
    if not pictures:
        return None
    return {"id": "removed", "title": "Removed from the game", "pictures": pictures}


def _last(state: RoyalCourtState) -> dict[str, Any] | None:
    try:
        ply = state.last_ply()
    except RegaliaError:
        return None
    return {"id": "last", "title": "Last ply", "text": describe_ply(state, ply)}


def panels(state: RoyalCourtState, viewer: int | None = None) -> dict[str, Any]:
    """The seats and the sections (see the module docstring), the same for every ``viewer``."""
    sections: list[dict[str, Any]] = [{"id": "turn", "title": "Turn", "text": status_line(state, None).plain}]
    last = _last(state)
    if last is not None:
        sections.append(last)
    if state.current_player == TERMINAL:
        text = result_line(state).plain
        facts = [_fact(SEAT_NAMES[s], score_line(state, s)) for s in (0, 1)]
        sections.append({"id": "result", "title": "Result", "text": text, "facts": facts})
    sections.extend(_zone(state, seat) for seat in (0, 1))
    removed = _removed(state)
    if removed is not None:
        sections.append(removed)
    legend = [
        _fact(f"{a.abbr} {a.name}", f"{a.influence}, {a.word}", a.ability)
        for a in state.game.archetypes.archetypes
    ]
    sections.append({"id": "archetypes", "title": "Archetypes", "facts": legend})
    return {"seats": [_seat(state, seat) for seat in (0, 1)], "sections": sections}


__all__ = ["panels"]
