"""The tile reference beside the rules: every tile type of the catalogue as the board pictures it,
with its count and what it holds.

>>> import regalia
>>> items = reference_items(regalia.load_game("carcassonne"))
>>> [(i.name, i.count) for i in items[:4]]
[('A', 2), ('B', 4), ('C', 1), ('D', 4)]
>>> items[3].text
'City on N; road W-E; fields. Base game. The start tile is one of these.'
>>> sum(i.count for i in items if i.svg.startswith("<svg") and "Base game" in i.text)
72
"""

from __future__ import annotations

from typing import Any

from regalia.core.game import Game
from regalia.core.plugin import ReferenceItem
from regalia.games.carcassonne.render.svg import tile_art
from regalia.games.carcassonne.tiles import SIDES, Catalogue, TileType
from regalia.render.svg import el

#: The size of a pictured tile, in SVG units.
SIZE = 96

_SETS = {
    "base": "Base game",
    "shrines5": "Heretics and Shrines (shrines=5 or 6)",
    "shrines6": "Heretics and Shrines, 6th tile (shrines=6)",
}


def _sides(sides: tuple[int, ...]) -> str:
    return "-".join(SIDES[s] for s in sides)


def tile_text(tile: TileType) -> str:
    """What ``tile`` holds, in words: its cities (with pennants), roads, cloister or shrine."""
    parts: list[str] = []
    for city in tile.cities:
        parts.append(f"City on {_sides(city.sides)}" + (" with a pennant" if city.pennant else ""))
    for road in tile.roads:
        parts.append(f"road {_sides(road)}" if len(road) > 1 else f"road ending {_sides(road)}")
    if tile.cloister:
        parts.append("cloister")
    if tile.shrine:
        parts.append("shrine")
    if tile.fields:
        parts.append("fields" if len(tile.fields) > 1 else "a field")
    words = "; ".join(parts)
    text = words[:1].upper() + words[1:] + f". {_SETS.get(tile.set, tile.set)}."
    if tile.start:
        text += " The start tile is one of these."
    return text


def tile_picture(catalogue: Catalogue, tile: TileType, size: int = SIZE) -> str:
    """``tile`` unrotated as an ``<svg>`` element ``size`` units square."""
    art = tile_art(catalogue.turned(tile.index, 0), 0, 0, size)
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {size} {size}",
        "width": size,
        "height": size,
    }
    return el("svg", {**attrs, "role": "img", "aria-label": f"tile {tile.id}"}, art)


def reference_items(game: Game[Any]) -> list[ReferenceItem]:
    """Every tile type of ``game``'s catalogue, in its order, with the copies it holds."""
    from regalia.games.carcassonne.game import Carcassonne

    assert isinstance(game, Carcassonne)
    catalogue = game.catalogue
    from regalia.games.carcassonne.render.cells import cell_lines

    return [
        ReferenceItem(
            t.id,
            t.count,
            tile_text(t),
            tile_picture(catalogue, t),
            tuple(cell_lines(catalogue.turned(t.index, 0))),
        )
        for t in catalogue.types
    ]
