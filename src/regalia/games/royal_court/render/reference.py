"""The archetype reference beside the rules: each of the archetypes as the board pictures its tile
(active side), with its influence and its ability.

>>> import regalia
>>> items = reference_items(regalia.load_game("royal-court"))
>>> len(items), sum(i.count for i in items)
(10, 20)
>>> print(items[0].name, items[0].text)
Assassin Influence 2. Kill: remove one opponent's active tile in play from the game. One tile per player.
"""

from __future__ import annotations

from typing import Any

from regalia.core.game import Game
from regalia.core.plugin import ReferenceItem
from regalia.games.royal_court.render.art import tile_art
from regalia.render.svg import el

#: The size of a pictured tile, in SVG units.
SIZE = 96


def reference_items(game: Game[Any]) -> list[ReferenceItem]:
    """Every archetype of ``game``, in the file's order: one tile per player, pictured active."""
    from regalia.games.royal_court.game import RoyalCourt

    assert isinstance(game, RoyalCourt)
    from regalia.games.royal_court.state import RoyalCourtState

    state = game.new_state(seed=0).clone()
    assert isinstance(state, RoyalCourtState)
    state.inactive = 0  # a picture of each tile's active side
    items = []
    for number, arch in enumerate(game.archetypes.archetypes):
        piece = next(p for p in range(len(game.arch)) if game.arch[p] == number and game.owner[p] == 0)
        count = sum(1 for p in range(len(game.arch)) if game.arch[p] == number)
        art = "".join(tile_art(state, piece, 0, 0, SIZE))
        attrs = {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {SIZE} {SIZE}", "width": SIZE}
        svg = el("svg", {**attrs, "height": SIZE, "role": "img", "aria-label": arch.name}, art)
        text = f"Influence {arch.influence}. {arch.word[:1].upper()}{arch.word[1:]}: {arch.ability}."
        text += " One tile per player." if count == game.num_players else f" {count} tiles."
        items.append(ReferenceItem(arch.name, count, text, svg))
    return items
