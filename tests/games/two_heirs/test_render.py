"""The terminal renderer of The Two Heirs (render.py) on a mid-game state."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import regalia
from regalia.core.grid import format_pos
from regalia.games.two_heirs import render
from regalia.games.two_heirs.board import owner_of, tile_of


def text_of(renderable: object, width: int = 140) -> str:
    console = Console(width=width, record=True, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


@pytest.fixture(scope="module")
def mid_game():
    state = regalia.load_game("two-heirs").new_state(3)
    rng = random.Random(2)
    for _ in range(60):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert not state.is_terminal()
    return state


def test_board_shows_every_tile_with_owner_marker_and_units(mid_game) -> None:
    out = text_of(render.render_board(mid_game))
    for code in mid_game.board.values():
        tile = mid_game.tiles[tile_of(code)]
        owner = owner_of(code)
        if owner >= 0:
            assert f"{render.MARKERS[owner]}{tile.id}" in out
        else:
            assert f"({tile.id})" in out
    assert "W★" in out or "w★" in out
    assert "B★" in out or "b★" in out
    for pos in mid_game.placements(mid_game.player):
        assert f"+ {format_pos(pos)}" in out


def test_roads_are_drawn_on_the_edges(mid_game) -> None:
    out = text_of(render.render_board(mid_game))
    has_roads = any(owner_of(c) >= 0 and mid_game.tiles[tile_of(c)].roads for c in mid_game.board.values())
    if has_roads:
        assert "┃" in out or "━" in out


def test_whole_view_has_reserve_players_and_status(mid_game) -> None:
    out = text_of(render.render_terminal(mid_game, seat=0))
    assert "Royal reserve" in out
    assert "shield" in out
    assert f"reach: white {mid_game.reach(0)}, blue {mid_game.reach(1)}" in out
    assert "white (you)" in out
    assert f"ply {len(mid_game.history)}" in out
    for t in mid_game.reserve:
        if t >= 0:
            assert mid_game.tiles[t].id in out
    for hand in mid_game.hands:
        for t in hand:
            assert mid_game.tiles[t].id in out


def test_rendering_does_not_change_the_state(mid_game) -> None:
    before = mid_game.to_json()
    text_of(render.render_terminal(mid_game, seat=1))
    assert mid_game.to_json() == before


def test_legal_groups_cover_every_legal_action_once(mid_game) -> None:
    actions = mid_game.legal_actions()
    groups = render.legal_groups(mid_game, actions)
    listed = [a for _, items in groups for a, _ in items]
    assert sorted(listed) == sorted(actions)


def test_start_position_and_finished_game_render() -> None:
    state = regalia.load_game("two-heirs").new_state(1)
    out = text_of(render.render_terminal(state))
    assert "start" in out
    assert "W★" in out and "B★" in out
    rng = random.Random(0)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    out = text_of(render.render_terminal(state))
    assert "The game is over" in out
    assert "Totals" in out
    assert ("wins" in out) or ("Draw" in out)


def test_score_tables_list_each_building() -> None:
    state = regalia.load_game("two-heirs").new_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    sheet = state.score_sheet()
    out = text_of(render.score_tables(sheet, [0, 0]))
    for b in sheet.buildings:
        assert b.building in out
    assert str(sheet.totals[0]) in out
