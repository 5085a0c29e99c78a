"""The plugin surface's ``render_svg(state, viewer, clickable)``: every game's picture offers the
legal actions of the seat to act, and nothing with ``clickable=False`` (a spectator who may not act,
a replay)."""

from __future__ import annotations

import random

import pytest

import regalia
from regalia.core.registry import game_ids, game_plugin


@pytest.mark.parametrize("game_id", game_ids())
def test_a_picture_that_may_not_be_clicked_offers_no_action(game_id: str) -> None:
    state = regalia.load_game(game_id).new_state(seed=4)
    rng = random.Random(4)
    state.advance(rng)
    for _ in range(3):  # a few decisions in, so that the board holds something
        state.apply(rng.choice(state.legal_actions()))
        state.advance(rng)
    render = game_plugin(game_id).render_svg
    assert render is not None and state.current_player >= 0
    clickable = render(state, None)
    inert = render(state, None, clickable=False)
    assert "data-action=" in clickable and "data-action=" in render(state, state.current_player)
    assert "data-action=" not in inert and "data-select=" not in inert
    assert inert.startswith("<?xml") and "<svg" in inert
