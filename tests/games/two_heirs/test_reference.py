"""The tile reference beside the rules: every tile of the catalogue pictured, one copy each."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import regalia
from regalia.core.registry import game_plugin
from regalia.games.two_heirs.state import TwoHeirsState


def test_the_reference_lists_the_tile_catalogue() -> None:
    game = regalia.load_game("two-heirs")
    state = game.new_state(seed=0)
    assert isinstance(state, TwoHeirsState)
    items = game_plugin("two-heirs").reference(game)
    assert [i.name for i in items] == [t.id for t in state.tiles]
    assert len(items) == 54 and sum(i.count for i in items) == len(state.tiles)
    for item, tile in zip(items, state.tiles, strict=True):
        assert tile.cost_text() in item.text and item.text.lower().startswith(
            tile.building[:6].replace("-", " ")
        )
        root = ET.fromstring(item.svg)
        assert root.find(".//{http://www.w3.org/2000/svg}g").get("data-tile") == tile.id  # type: ignore[union-attr]
