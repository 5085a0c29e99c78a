"""The archetype reference beside the rules: the ten archetypes pictured, with influence and ability
from data/archetypes.json, one tile of each per player."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import regalia
from regalia.core.data import read_package_text
from regalia.core.registry import game_plugin


def test_the_reference_lists_the_ten_archetypes() -> None:
    game = regalia.load_game("royal-court")
    items = game_plugin("royal-court").reference(game)
    data = json.loads(read_package_text("regalia.games.royal_court", "data/archetypes.json"))["archetypes"]
    assert len(items) == 10 == len(data)
    assert [i.name for i in items] == [a["name"] for a in data]
    assert all(i.count == 2 for i in items) and sum(i.count for i in items) == 20
    for item, arch in zip(items, data, strict=True):
        assert f"Influence {arch['influence']}." in item.text and arch["ability"] in item.text
        root = ET.fromstring(item.svg)
        assert arch["abbr"] in "".join(root.itertext())


def test_the_rules_point_at_the_reference() -> None:
    rules = game_plugin("royal-court").rules()
    assert "NOT given here" not in rules and "reference" in rules.split("```", 1)[0]
