"""Carcassonne position files (issue 20, item 12): tile ids in any case and JCloisterZone's names,
errors that say what to do (a follower on a completed feature, one tile too many), and documents
that are not objects."""

from __future__ import annotations

from typing import Any

import pytest

from regalia.core.errors import PositionError
from regalia.games.carcassonne.calculator import (
    FORMAT,
    JCZ_NAMES,
    parse_position,
    score_position,
    tile_of_name,
)
from regalia.games.carcassonne.tiles import catalogue_for


def _doc(
    board: list[tuple[str, str, int]], followers: list[dict[str, Any]] | None = None, **options: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "board": [{"pos": pos, "tile": tile, "rotation": rot} for tile, pos, rot in board],
        "followers": followers or [],
    }
    if options:
        doc["options"] = options
    return doc


ROAD = [("D", "0,0", 0), ("E", "0,1", 180), ("U", "1,0", 0)]
RED_ROAD = [{"pos": "1,0", "seat": "red", "feature": "road", "name": "E"}]


def test_tile_ids_are_read_in_any_case_as_the_terminal_reads_them() -> None:
    lower = [(t.lower(), p, r) for t, p, r in ROAD]
    assert score_position(parse_position(_doc(lower, RED_ROAD))).totals == (2, 0)
    assert parse_position(_doc(lower)).board == parse_position(_doc(ROAD)).board
    shrine = parse_position(_doc([("D", "0,0", 0), ("shc", "0,-1", 180)], shrines=5))
    assert shrine.catalogue.types[shrine.board[1][1]].id == "SHC"


def test_jcloisterzone_names_are_aliases_of_the_tiles() -> None:
    """JCloisterZone's names (``basic.xml``, ``cult.xml``) are the same tiles: BA/RCr is D, CU/S the
    shrine alone; every catalogue tile has one, and each has the layout of the tile it names."""
    cat = catalogue_for(None)
    assert sorted(set(JCZ_NAMES.values())) == sorted(t.id for t in cat.types)
    jcz = [("BA/RCr", "0,0", 0), ("BA/C", "0,1", 180), ("BA/RFr", "1,0", 0)]
    assert parse_position(_doc(jcz)).board == parse_position(_doc(ROAD)).board
    layouts = {"BA/LR": "FFRF", "BA/Cccc+": "CCCC", "BA/RrC": "CFRR", "CU/SRFR": "RFRF", "CU/SRCR": "CRFR"}
    for name, edges in layouts.items():
        found = tile_of_name(cat, name)
        assert found is not None and found.edges == edges, name
    assert tile_of_name(cat, "CU.SC") is tile_of_name(cat, "CU/SC") is cat.by_id["SHC"]
    doc = _doc([("D", "0,0", 0), ("CU/S", "0,-1", 0)], shrines=5)
    position = parse_position(doc)
    assert position.catalogue.types[position.board[1][1]].id == "SH"


def test_an_unknown_tile_says_which_names_are_read() -> None:
    with pytest.raises(PositionError, match=r"'Z' is not a tile .*in any case, or by JCloisterZone's names"):
        parse_position(_doc([("D", "0,0", 0), ("Z", "0,1", 0)]))


def test_a_follower_on_a_completed_feature_is_told_to_move_its_points() -> None:
    """Scoring: a completed feature was scored and its followers went home; the message says to
    take the follower off and put what it scored into ``points``."""
    city = [("D", "0,0", 0), ("E", "0,1", 180)]  # the city of two tiles, closed
    doc = _doc(city, [{"pos": "0,1", "seat": "red", "feature": "city", "name": "S"}])
    with pytest.raises(PositionError) as caught:
        parse_position(doc)
    message = str(caught.value)
    assert "is complete" in message
    assert "take the follower off and add what the feature scored to that seat's entry in 'points'" in message


def test_one_tile_too_many_names_inline_tiles_and_a_catalogue_file() -> None:
    board = [("C", "0,0", 0), ("C", "1,0", 0)]  # the catalogue has one C
    with pytest.raises(PositionError) as caught:
        parse_position(_doc(board))
    message = str(caught.value)
    assert "one C too many" in message
    assert "write it inline" in message and "-o tiles=FILE" in message


@pytest.mark.parametrize("doc", [None, [], [1, 2], "carcassonne-position", 3])
def test_a_position_that_is_not_an_object_says_so(doc: Any) -> None:
    with pytest.raises(PositionError, match=r"\(document\): a position must be a JSON object"):
        parse_position(doc)
