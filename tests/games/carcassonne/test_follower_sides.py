"""A follower names its feature by any side (or half) the feature reaches on the tile just laid
(issue 20, item 7), as the calculator resolves a follower's name; the record keeps the feature's
own name (its first side clockwise from north)."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalAction


def laid_v() -> Any:
    state = regalia.load_game("carcassonne").new_state(seed=3)
    state.apply_text("draw V")
    state.apply_text("place V 1,0 0")  # a curve: the road reaches S and W
    return state


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("follower road S", "follower road S"),
        ("follower road W", "follower road S"),
        ("follower road w", "follower road S"),
        ("follower field Ws", "follower field Sw"),
        ("follower field Ne", "follower field Nw"),
        ("follower field Es", "follower field Nw"),
    ],
)
def test_any_side_of_the_feature_names_it(typed: str, read: str) -> None:
    state = laid_v()
    action = state.parse_or_raise(typed)
    assert state.action_text(action) == read and state.is_legal(action)
    state.apply(action)
    assert state.plies()[-1].text == read


def test_a_side_the_feature_does_not_reach_is_still_refused() -> None:
    state = laid_v()
    with pytest.raises(IllegalAction, match="no road at N"):
        state.apply_text("follower road N")
