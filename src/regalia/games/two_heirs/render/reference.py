"""The tile reference beside the rules: every tile of the catalogue as the board pictures it (a
white building), with its colour, cost, roads and what the building scores.

>>> import regalia
>>> items = reference_items(regalia.load_game("two-heirs"))
>>> len(items), sum(i.count for i in items)
(54, 54)
>>> print(items[0].name, items[0].text)  # doctest: +ELLIPSIS
W1 Inn, green (wood); costs 2 stone + 1 grain; road N-S. Scores 1 + each tile within 3 in its row. ...
"""

from __future__ import annotations

from typing import Any

from regalia.core.game import Game
from regalia.core.plugin import ReferenceItem
from regalia.games.two_heirs.board import cell
from regalia.games.two_heirs.render.cells import tile_cell
from regalia.games.two_heirs.render.parts import CELL
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile
from regalia.render.svg import Frame, el

#: What each building scores at the end (docs/two-heirs.md, "Scoring"); ``{axis}`` is the tile's.
SCORES = {
    "inn": "Scores 1 + each tile within 3 in its {axis}.",
    "marketplace": "Scores 1 + each tile touching it by a side.",
    "pilgrimage-site": "Scores the tiles of the longest road connected to it.",
    "bandit-stronghold": "Scores 2 + 2 for each opponent's building touching it by a side.",
    "mill": "Scores 1 + the tiles in yellow formations touching it.",
    "stonemason": "Scores 1 + the tiles in grey formations touching it.",
    "stable": "Scores 1 + the tiles in green formations touching it.",
    "bakery": "Scores 1 + each of your other buildings on yellow.",
    "smithy": "Scores 1 + each of your other buildings on grey.",
    "gamekeepers-lodge": "Scores 1 + each of your other buildings on green.",
    "camp": "Scores 2 while unused.",
    "trading-post": "Scores 3 for each of your buildings it depicts ({depicts}).",
    "cathedral": "Scores 5.",
    "fortress": "Scores 1 for each of your siege towers and fortresses.",
    "lookout": "Scores 1 + each tile of its colour in its {axis}.",
    "guardhouse": "Scores 2 + 2 for each lookout on its diagonals.",
    "guild-house": "No points of its own: your workshops it depicts ({depicts}) score 4 a pair.",
}
#: Buildings with no points of their own and no entry above.
NO_POINTS = "No points of its own (see the rules for what it gives)."
WORKSHOP = "Scores 3 for each pair of neighbours in the colours printed on it."


def _words(building: str) -> str:
    return building.replace("-", " ").replace("gamekeepers", "gamekeeper's").capitalize()


def tile_text(tile: Tile) -> str:
    """What ``tile`` is and does, in words."""
    parts = [f"{_words(tile.building)}, {COLOURS[tile.colour]} ({RESOURCES[tile.colour]})"]
    parts.append(f"costs {tile.cost_text()}")
    roads = tile.roads_text()
    if roads:
        parts.append(("road " if len(roads) == 1 else "roads ") + ", ".join(roads))
    scores = SCORES.get(tile.building, WORKSHOP if tile.building.endswith("workshop") else NO_POINTS)
    scores = scores.format(axis=tile.axis or "row", depicts=", ".join(_words(d) for d in tile.depicts))
    return f"{'; '.join(parts)}. {scores} {tile.set.replace('-', ' ').capitalize()} set."


def reference_items(game: Game[Any]) -> list[ReferenceItem]:
    """Every tile of ``game``'s catalogue (one copy each), pictured as a white building."""
    from regalia.games.two_heirs.state import TwoHeirsState

    state = game.new_state(seed=0)
    assert isinstance(state, TwoHeirsState)
    frame = Frame([(0, 0)], 0, 0, CELL)
    items = []
    for tile in state.tiles:
        art = tile_cell(state, frame, (0, 0), cell(tile.index, 0), None, None)
        attrs = {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {CELL} {CELL}", "width": CELL}
        svg = el("svg", {**attrs, "height": CELL, "role": "img", "aria-label": f"tile {tile.id}"}, art)
        items.append(ReferenceItem(tile.id, 1, tile_text(tile), svg))
    return items
