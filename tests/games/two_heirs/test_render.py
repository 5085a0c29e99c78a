"""The terminal renderers of The Two Heirs (``regalia.games.two_heirs.render``): the adaptive layout
(80x24, 140x45, no height limit), colour as text (NO_COLOR), the solo view, the move menu with its
take previews, and the descriptions of plies."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from rich.console import Console

import regalia
from regalia.core.game import CHANCE, Ply
from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import render
from regalia.games.two_heirs.base import CH_DEAL, CH_DRAW, CH_START, CH_TOP
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.henry import HENRY
from regalia.games.two_heirs.render.board import compact_cell, full_cell, render_board
from regalia.games.two_heirs.render.layout import menu_room, view_lines
from regalia.games.two_heirs.render.style import COLOUR_LETTERS, MARKERS, plural
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS
from regalia.testing import random_positions

from .builders import CAT, GREY, acts, basic, draw_in_order, position

LETTER = dict(zip(COLOURS, COLOUR_LETTERS, strict=True))


def lines_of(renderable: object, width: int = 140, height: int | None = None) -> list[str]:
    """The lines a terminal without colour shows (NO_COLOR)."""
    console = Console(
        width=width, height=height or 200, record=True, no_color=True, color_system=None, file=io.StringIO()
    )
    console.print(renderable)
    return console.export_text().splitlines()


def text_of(renderable: object, width: int = 140, height: int | None = None) -> str:
    return "\n".join(lines_of(renderable, width, height))


def play(state: TwoHeirsState, rng: random.Random) -> None:
    """One ply: chance from ``rng``, a seat or an automaton a random legal action."""
    if state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        state.apply(rng.choice(state.legal_actions()))


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int) -> Iterator[TwoHeirsState]:
    """Every ``every``-th state of a random game (chance included), and the last one."""
    state = regalia.load_game("two-heirs", **options).new_state(seed)
    yield from random_positions(state, seed, every)


def game_at(options: Mapping[str, Any], seed: int, plies: int) -> TwoHeirsState:
    state = regalia.load_game("two-heirs", **options).new_state(seed)
    rng = random.Random(seed)
    while state.ply < plies and not state.is_terminal():
        play(state, rng)
    state.advance(rng)
    return state


@pytest.fixture(scope="module")
def mid_game() -> TwoHeirsState:
    state = game_at({}, 3, 80)
    assert not state.is_terminal() and state.current_player >= 0
    return state


@pytest.fixture(scope="module")
def solo_game() -> SoloState:
    state = game_at({"solo": True}, 4, 60)
    assert isinstance(state, SoloState) and state.treasures and state.last_henry_turn()
    return state


def big_board(top: int = 2) -> TwoHeirsState:
    """A board of rows y -2..top (5 rows by default) and 8 columns (x -3..4) with buildings of
    both seats, roads and units."""
    ids = [t.id for t in CAT.tiles if t.set in ("wandering", "dominion", "trade-and-church")]
    board: dict[Pos, str] = {}
    k = 0
    for y in range(-2, top + 1):
        for x in range(-3, 5):
            if (x + y) % 3 == 0 and (x, y) != (0, 0):
                continue
            owner = "" if (x * y) % 2 else f"@{(x + y) % 2}"
            board[(x, y)] = ids[k % len(ids)] + owner
            k += 1
    board[(0, 0)] = GREY
    white, blue = (3, 1), (-2, -2)
    assert white in board and blue in board
    return position(
        board=board,
        units=[(0, 0), white, None, blue, None, None],
        hands=(("W1", "D4"), ("T2",)),
    )


# -- cells and board ---------------------------------------------------------------------------------


def test_full_cells_show_owner_id_colour_letter_units_and_roads(mid_game: TwoHeirsState) -> None:
    """A full cell: the owner's marker and the id, the colour letter in the top right corner."""
    out = text_of(render_board(mid_game))
    for pos, code in mid_game.board.items():
        tile = mid_game.tiles[tile_of(code)]
        owner = owner_of(code)
        first = full_cell(tile, owner, [], pos == (0, 0), None).plain.splitlines()[0]
        assert first.endswith(LETTER[tile.colour_name])
        assert first.startswith(f"{MARKERS[owner]}{tile.id}" if owner >= 0 else f"({tile.id})")
        assert re.search(re.escape(first[:5]) + r".*" + LETTER[tile.colour_name], out)
    assert "W★" in out or "W★†" in out
    for pos in mid_game.placements(mid_game.player):
        assert f"+ {format_pos(pos)}" in out


def test_compact_cells_read_marker_id_colour_and_units() -> None:
    inn = CAT.by_id["W2"]  # a grey inn with an east-west road
    cell = compact_cell(inn, 1, [(1, False, True)], False, "H4").plain.splitlines()
    assert cell[0].startswith("▼W2 s B†")
    assert "◆H4" in cell[1] and cell[1].endswith("─")
    assert all(len(line) == 9 for line in cell)
    start = compact_cell(CAT.by_id[GREY], -1, [(0, True, False), (1, True, False)], True, None).plain
    assert start.splitlines()[0].startswith("░" + GREY)
    assert "W★B★" in start


def test_empty_play_area_and_undealt_reserve_render() -> None:
    state = regalia.load_game("two-heirs").new_state(1)
    for size in ((80, 24), (140, 45), (None, None)):
        out = text_of(render.render_terminal(state, None, width=size[0], height=size[1]))
        assert "empty" in out and "not dealt" in out
        assert "chance" in out


# -- sizes -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"solo": True}, {"solo": True, "level": 1, "roads": False}])
def test_every_state_fits_80x24_with_room_for_the_menu(options: Mapping[str, Any]) -> None:
    """At 80x24 the view (board, reserve, seats, status) leaves MENU_ROOM lines for the menu."""
    assert view_lines(24) == 24 - menu_room(24) == 18
    for state in states_of_a_game(options, 2, every=9):
        view = render.render_terminal(state, 0, width=80, height=24)
        lines = lines_of(view, 80, 24)
        if state.is_terminal():
            assert any("wins" in line for line in lines)
            continue
        assert len(lines) <= 18, "\n".join(lines)
        assert all(len(line) <= 80 for line in lines)
        assert any(line.startswith("ply ") for line in lines)  # the status line
        if state.board:
            assert lines[0].startswith("y\\x")  # the board's header


def test_80x24_cut_board_keeps_the_action_and_says_what_is_cut() -> None:
    state = big_board(top=6)  # 9 rows, 8 columns
    lines = lines_of(render.render_terminal(state, 0, width=80, height=24), 80, 24)
    assert len(lines) <= 18
    out = " ".join(" ".join(lines).split())
    note = re.search(
        r"board cut to fit: rows y (-?\d+)\.\.(-?\d+) of 6\.\.-2, columns x (-?\d+)\.\.(-?\d+) of -3\.\.4;",
        out,
    )
    assert note, out
    assert "the 'board' command shows every row and a wider terminal shows every column" in out
    header = [int(x) for x in lines[0].split()[1:]]
    rows = [int(line.split()[0]) for line in lines[1:] if re.match(r"^\s*-?\d+ ", line)]
    for unit in state.unit_positions(state.player):  # the units of the seat to move are in view
        assert unit[0] in header and unit[1] in rows


def test_the_board_command_gets_the_whole_board_without_a_height() -> None:
    """``height=None`` (what the play command's ``board`` should ask for) shows every tile."""
    state = big_board()
    out = text_of(render.render_terminal(state, 0, width=140, height=None), 140)
    assert "cut" not in out
    for code in state.board.values():
        assert CAT.tiles[tile_of(code)].id in out


def test_a_5_row_board_fits_140x45_in_full() -> None:
    state = big_board()
    ys = {p[1] for p in state.board}
    assert len(ys) == 5
    lines = lines_of(render.render_terminal(state, 0, width=140, height=45), 140, 45)
    assert len(lines) <= 45 - menu_room(45)
    out = "\n".join(lines)
    assert "cut" not in out
    for code in state.board.values():
        assert CAT.tiles[tile_of(code)].id in out
    assert "Royal reserve" in out and "hand" in out


def test_wide_terminal_uses_full_cells_and_small_one_compact(mid_game: TwoHeirsState) -> None:
    wide = text_of(render.render_terminal(mid_game, 0, width=200, height=60), 200)
    small = text_of(render.render_terminal(mid_game, 0, width=80, height=24), 80)
    assert "┌───" in wide  # the boxed grid of full cells
    assert "┌───" not in small


def test_no_size_gives_the_full_stacked_view(mid_game: TwoHeirsState) -> None:
    out = text_of(render.render_terminal(mid_game, 0))
    assert "Royal reserve" in out and "shield" in out
    assert f"reach: white {mid_game.reach(0)}, blue {mid_game.reach(1)}" in out
    assert "white (you)" in out
    assert f"ply {mid_game.ply}" in out


def test_rendering_does_not_change_the_state(mid_game: TwoHeirsState) -> None:
    before = mid_game.to_json()
    for width, height in ((80, 24), (140, 45), (None, None)):
        text_of(render.render_terminal(mid_game, 1, width=width, height=height))
    render.legal_groups(mid_game, mid_game.legal_actions())
    render.render_svg(mid_game)
    assert mid_game.to_json() == before


# -- colour as text --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (140, 45), (None, None)])
def test_colour_letters_show_without_colour(mid_game: TwoHeirsState, size: tuple[Any, Any]) -> None:
    """NO_COLOR: every reserve tile, hand tile and the supply's top read with their colour letter."""
    out = text_of(render.render_terminal(mid_game, 0, width=size[0], height=size[1]), size[0] or 140)
    assert "w green" in out or "w/s/g" in out  # the legend
    for t in mid_game.reserve:
        if t >= 0:
            tile = mid_game.tiles[t]
            assert f"{tile.id} {LETTER[tile.colour_name]} " in out
    for hand in mid_game.hands:
        for t in hand:
            tile = mid_game.tiles[t]
            assert f"{tile.id} {LETTER[tile.colour_name]} " in out
    if mid_game.supply and mid_game.top >= 0:
        top = COLOURS[mid_game.top]
        assert f"top {LETTER[top]} {top}" in out


def test_compact_board_cells_carry_the_colour_letter(mid_game: TwoHeirsState) -> None:
    out = text_of(render_board(mid_game, compact=True), 120)
    for code in mid_game.board.values():
        tile = mid_game.tiles[tile_of(code)]
        mark = MARKERS[owner_of(code)] if owner_of(code) >= 0 else "░"
        assert f"{mark}{tile.id:<3}{LETTER[tile.colour_name]}" in out


# -- solo -------------------------------------------------------------------------------------------


def test_solo_board_marks_treasures_and_lists_their_conditions(solo_game: SoloState) -> None:
    tokens = solo_game.tset.tokens
    for width, height in ((200, 80), (None, None)):
        out = text_of(render.render_terminal(solo_game, 0, width=width, height=height), width or 140)
        for pos, t in solo_game.treasures:
            assert f"◆{tokens[t].id}" in out
            assert f"{tokens[t].id} at {format_pos(pos)}: {tokens[t].describe()}" in out
    small = text_of(render.render_terminal(solo_game, 0, width=80, height=24), 80)
    assert "treasures" in small
    for _, t in solo_game.treasures:
        assert tokens[t].id in small


@pytest.mark.parametrize(("level", "treasures"), [(1, 6), (3, 10)])
def test_henrys_starting_score_is_explained_as_treasures(level: int, treasures: int) -> None:
    """Solo scoring: 5 points per treasure left on the board or in the pile, shown apart."""
    state = game_at({"solo": True, "level": level}, 9, 0)
    assert state.scores()[HENRY] == 5 * treasures
    expected = f"{5 * treasures} for {treasures} treasures"
    for size in ((80, 24), (140, 45), (None, None)):
        out = text_of(render.render_terminal(state, 0, width=size[0], height=size[1]), size[0] or 140)
        assert expected in out, out


def test_henrys_last_turn_one_line_per_step(solo_game: SoloState) -> None:
    lines = lines_of(render.render_terminal(solo_game, 0), 400)
    start = next(i for i, line in enumerate(lines) if line.startswith("Henry's last turn:"))
    events = solo_game.last_henry_turn()
    assert len(events) >= 3
    for k, event in enumerate(events, start=1):
        assert lines[start + k].strip() == f"{k}. {solo_game.event_text(event)}"


# -- the menu ----------------------------------------------------------------------------------------


def test_legal_groups_cover_every_legal_action_once(mid_game: TwoHeirsState) -> None:
    for state in [mid_game, *states_of_a_game({"solo": True}, 5, every=11)]:
        actions = state.legal_actions()
        groups = render.legal_groups(state, actions)
        listed = [a for _, items in groups for a, _ in items]
        assert sorted(listed) == sorted(actions)


def expected_take(state: TwoHeirsState, tile: int) -> tuple[list[int], list[str]]:
    """Resources and affordable hand tiles after taking ``tile``, from the rules written out:
    the shield moves to the taken tile's place, reach counts clockwise from there."""
    seat = state.player
    pos = state.reserve.index(tile)
    reserve = state.reserve[:]
    reserve[pos] = -1
    reach = 1 + state.units_in_reserve(seat)
    res = list(state.prod[seat])
    for k in range(1, 7):
        t = reserve[(pos + k) % 7]
        if t >= 0 and reach:
            res[state.tiles[t].colour] += 1
            reach -= 1
    for u in state.unit_positions(seat):
        res[state.tiles[tile_of(state.board[u])].colour] += 1
    hand = [*state.hands[seat], tile]
    ok = [
        state.tiles[t].id
        for t in hand
        if sum(max(0, c - h) for c, h in zip(state.tiles[t].cost, res, strict=True)) <= state.discounts
    ]
    return res, ok


def test_take_previews_give_resources_and_affordable_tiles_after_the_take() -> None:
    """Taking moves the royal shield, so the royal sources change: the menu says what follows."""
    state = basic(hands=(("W3", "T2", "D9"), ()))  # white reaches 3 from shield 0: W1, D1, T3
    groups = render.legal_groups(state, state.legal_actions())
    label, items = groups[0]
    assert (
        label.plain
        == "take a tile (A); resources now " + render.menu.resources_short(state.resources(0)).plain
    )
    assert len(items) == 3
    for action, short in items:
        res, ok = expected_take(state, action.tile)
        tile = state.tiles[action.tile]
        head = f"take {tile.id} {LETTER[tile.colour_name]} "
        after = " ".join(f"{n}{letter}" for n, letter in zip(res, COLOUR_LETTERS, strict=True))
        assert short.startswith(head) and f"→ {after};" in short
        if ok:
            assert short.endswith(f"{plural(len(ok), 'tile')} affordable: {', '.join(ok)}")
        else:
            assert short.endswith("no tile affordable")


@pytest.mark.parametrize("seed", range(6))
def test_take_previews_are_exact_on_random_positions(seed: int) -> None:
    for state in states_of_a_game({}, seed, every=5):
        if state.current_player < 0:
            continue
        for action in state.legal_actions():
            if action.kind != "take":
                continue
            res, ok = render.take_preview(state, action)
            exp_res, exp_ok = expected_take(state, action.tile)
            assert res == exp_res
            assert [state.tiles[t].id for t in ok] == list(dict.fromkeys(exp_ok))


def test_take_previews_use_singular_and_plural() -> None:
    counts = set()
    for seed in range(30):
        for state in states_of_a_game({}, seed, every=3):
            if state.current_player < 0 or state.ply > 60:
                continue
            for action in state.legal_actions():
                if action.kind == "take":
                    short = render.menu.take_text(state, action)
                    assert not re.search(r"\b1 tiles\b", short)
                    m = re.search(r"(\d+) tiles? affordable", short)
                    counts.add(int(m.group(1)) if m else 0)
                    if m:
                        assert m.group(0) == f"{plural(int(m.group(1)), 'tile')} affordable"
        if {0, 1, 2} <= counts:
            break
    assert {0, 1, 2} <= counts


# -- descriptions -----------------------------------------------------------------------------------


def described(state: TwoHeirsState) -> str:
    return render.describe_ply(state, state.plies()[-1])


def test_setup_draws_name_the_reserve_position_and_the_starting_landscape() -> None:
    state = regalia.load_game("two-heirs").new_state(6)
    rng = random.Random(6)
    seen = 0
    while state.current_player == CHANCE:
        step = state.chance
        state.apply(state.sample_chance(rng))
        text = described(state)
        if step == CH_DEAL:
            seen += 1
            k = state.reserve.index(state.plies()[-1].action.tile)
            assert text.endswith(
                f"laid in the royal reserve, {render.describe.ordinal(k)} clockwise from the shield (Setup)."
            )
        elif step == CH_START:
            assert "starting landscape" in text and "both elites" in text
        elif step == CH_TOP:
            assert f"shows a {COLOURS[state.top]} back" in text
        else:
            assert "crown" in text
    assert seen == 6


def test_refill_and_top_colour_are_described() -> None:
    state = game_at({}, 8, 0)
    rng = random.Random(8)
    take = next(a for a in state.legal_actions() if a.kind == "take")
    state.apply(take)
    assert "resources now " + render.menu.resources_short(state.resources(state.player)).plain in described(
        state
    )
    assert state.chance == CH_DRAW
    state.apply(state.sample_chance(rng))
    text = described(state)
    drawn = state.plies()[-1].action.tile
    k = (state.reserve.index(drawn) - state.shield) % 7
    assert (
        f"refills the royal reserve at the shield's old place, {render.describe.ordinal(k)} clockwise" in text
    )
    state.apply(state.sample_chance(rng))
    assert f"shows a {COLOURS[state.top]} back" in described(state)


def test_henrys_steps_are_described_with_their_rules() -> None:
    state = game_at({"solo": True, "level": 3}, 4, 0)
    rng = random.Random(4)
    state.apply(next(a for a in state.legal_actions() if a.kind == "take"))
    state.advance(rng)
    state.apply_text("end")
    texts: dict[str, str] = {}
    while state.current_player != 0:
        player = state.current_player
        play(state, rng)
        ply = state.plies()[-1]
        texts[("henry " if player == HENRY else "chance ") + ply.text.split()[0]] = described(state)
    assert texts["henry take"].startswith("Henry takes")
    assert "Rule " in texts["henry build"]
    token = state.tset.tokens[state.treasures[-1][1]] if state.treasures else None
    if token is not None and "chance treasure" in texts:
        assert token.id in texts["chance treasure"] and token.describe() in texts["chance treasure"]
        assert "unit" in texts["chance treasure"]  # the unit's move is in the same ply


def test_player_actions_are_described() -> None:
    state = basic(hands=(("W3",), ()))
    state.apply_text("take W1")
    assert described(state).startswith("white takes the green inn into the hand; the shield moves")
    draw_in_order(state)
    acts(state, "terrain W3 1,0")
    assert "the yellow inn face down at 1,0 as free terrain" in described(state)
    acts(state, "call 1,0")
    assert described(state).endswith("reach now 2 tiles.")
    state = basic(board={(1, 0): "T4"}, units=[(0, 0), (1, 0), (-9, -9), (5, 5), None, None])
    state.units[2] = None
    state._reindex_units()
    acts(state, "withdraw 1,0")
    assert described(state).endswith("reach now 3 tiles.")
    acts(state, "step 0,0 1,0")
    assert described(state) == "white's unit moves from 0,0 to 1,0 (green: 1 wood while it stays)."


@pytest.mark.parametrize("options", [{}, {"solo": True}, {"sets": "random"}])
def test_describe_never_fails_and_returns_a_sentence(options: Mapping[str, Any]) -> None:
    state = regalia.load_game("two-heirs", **options).new_state(12)
    rng = random.Random(12)
    while not state.is_terminal():
        play(state, rng)
        ply = state.plies()[-1]
        text = render.describe_ply(state, ply)
        assert isinstance(text, str)
        if ply.player == CHANCE or ply.text.split()[0] in ("take", "build", "step", "call"):
            assert text, ply
        assert not re.search(r"\b1 (tiles|turns)\b", text)
    assert render.describe_ply(state, Ply(0, "not an action", "?")) == ""


# -- results ----------------------------------------------------------------------------------------


def test_finished_game_shows_the_result_with_both_names() -> None:
    state = game_at({}, 1, 10_000)
    assert state.is_terminal()
    out = text_of(render.render_terminal(state, 0, width=80, height=24), 80)
    assert "The game is over" in out and "Totals" in out
    scores = state.scores()
    assert f"white {scores[0]}, blue {scores[1]}" in out


def test_score_tables_list_each_building() -> None:
    state = game_at({}, 5, 10_000)
    sheet = state.score_sheet()
    out = text_of(render.score_tables(sheet, [0, 0]))
    for b in sheet.buildings:
        assert b.building[:10] in out
    assert str(sheet.totals[0]) in out
