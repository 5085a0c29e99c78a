"""The tile reference beside the rules: every tile type pictured, with counts that add up."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import regalia
from regalia.core.registry import game_plugin
from regalia.games.carcassonne.game import Carcassonne


def test_the_reference_lists_every_tile_type_with_its_count() -> None:
    game = regalia.load_game("carcassonne")
    assert isinstance(game, Carcassonne)
    items = game_plugin("carcassonne").reference(game)
    types = game.catalogue.types
    assert [i.name for i in items] == [t.id for t in types]
    base = [i for i, t in zip(items, types, strict=True) if t.set == "base"]
    assert [i.name for i in base] == [chr(c) for c in range(ord("A"), ord("X") + 1)]
    # the 72 tiles of the base game, the start tile (one of the four D) included
    assert sum(i.count for i in base) == 72
    assert {i.name: i.count for i in base}["D"] == 4 and "start tile" in base[3].text
    shrines = [i for i, t in zip(items, types, strict=True) if t.set != "base"]
    assert len(shrines) == 6 and sum(i.count for i in shrines) == 6
    assert all("shrine" in i.text for i in shrines)
    assert "pennant" in base[2].text and "cloister" in base[0].text
    for item in items:
        root = ET.fromstring(item.svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
