"""The Two Heirs' calculator refuses a tile that touches nothing (issue 20, item 12), as
Carcassonne's does: "Place the new building on a free position in the play area so that it
touches, by side or corner, another tile" (Build a building; Extend the landscape)."""

from __future__ import annotations

from typing import Any

import pytest

from regalia.core.errors import PositionError
from regalia.games.two_heirs.calculator import parse_position, score_position


def _doc(*cells: tuple[str, str | None, str]) -> dict[str, Any]:
    return {
        "format": "two-heirs-position",
        "version": 1,
        "board": [{"pos": pos, "owner": owner, "tile": tile} for pos, owner, tile in cells],
    }


def test_a_tile_that_touches_nothing_is_refused() -> None:
    doc = _doc(("0,0", "white", "T9"), ("1,1", "blue", "T8"), ("5,5", "blue", "W1"))
    with pytest.raises(PositionError, match=r"board\[2\]\.pos: the tile at 5,5 touches no other tile"):
        parse_position(doc)


def test_two_separate_groups_are_refused() -> None:
    doc = _doc(("0,0", "white", "T9"), ("1,1", "blue", "T8"), ("5,5", "blue", "W1"), ("5,6", None, "W2"))
    with pytest.raises(
        PositionError, match=r"board\[2\]\.pos: the tile at 5,5 is not connected .* to board\[0\]"
    ):
        parse_position(doc)


def test_tiles_touching_by_a_corner_are_one_area() -> None:
    doc = _doc(("0,0", "white", "T9"), ("1,1", "blue", "T8"), ("2,0", None, "W1"))
    score_position(parse_position(doc))
    score_position(parse_position(_doc(("0,0", "white", "T9"))))


def test_a_state_with_a_tile_beyond_reach_is_refused_by_its_field() -> None:
    """A state document's tile further than 128 from 0,0 (the engines keep boards by square within
    that reach, docs/formats.md) is refused at once, naming the field: before, a tile 30,000
    squares away was read, and the lists by square id ran out of memory."""
    import json
    import random

    import regalia
    from regalia.core.loop import playout

    game = regalia.load_game("two-heirs")
    state = game.new_state(seed=2)
    playout(state, random.Random(1), decisions=30)
    doc = json.loads(json.dumps(state.to_json()))
    doc["board"].append(dict(doc["board"][-1], pos="30000,7"))
    field = f"field 'board\\[{len(doc['board']) - 1}\\]\\.pos'"
    with pytest.raises(PositionError, match=f"{field}: '30000,7' lies further than 128 squares from 0,0"):
        game.state_from_json(doc)
