"""The terminal renderers of Carcassonne (``regalia.games.carcassonne.render``): tiles as 5x3 cells,
the view fitted to 100x30 and 80x24 with room for the menu (with and without colour), the whole
board for the ``board`` command, the menu's numbers on the board, the menu itself, the descriptions
of plies, the final scoring, and the play command driven through scripted stdin."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.game import CHANCE, Ply
from regalia.core.grid import format_pos
from regalia.core.record import Record
from regalia.games.carcassonne import render
from regalia.games.carcassonne.actions import FOLLOWER, PASS, PLACE
from regalia.games.carcassonne.base import PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.render.board import LABEL_W, fit_positions, render_board, whole_window
from regalia.games.carcassonne.render.cells import CELL_H, CELL_W, paint
from regalia.games.carcassonne.render.layout import MIN_LINES, TURN_ROOM
from regalia.games.carcassonne.render.menu import LINE_W, ONE_LINE_EACH, menu_numbers
from regalia.games.carcassonne.render.result import breakdown
from regalia.games.carcassonne.render.style import (
    CITY_GLYPH,
    CLOISTER_GLYPH,
    PENNANT_GLYPH,
    ROAD_H,
    ROAD_V,
    ROTATION_ARROWS,
    SEAT_LETTERS,
    SHRINE_GLYPH,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import CITY, FIELD, ROAD, default_catalogue

from .builders import BLUE, RED, bag_game, new, turn, turns

OPTION_SETS: tuple[Mapping[str, Any], ...] = (
    {},
    {"players": 3, "shrines": "5"},
    {"players": 5, "shrines": "6"},
    {"players": 4, "farmers": False},
)
SIZES = ((100, 30), (80, 24))


def lines_of(renderable: object, width: int, colour: bool = False) -> list[str]:
    """The lines a terminal shows (text only; ``colour``: rendered with truecolor styles)."""
    console = Console(
        width=width,
        height=200,
        record=True,
        no_color=not colour,
        color_system="truecolor" if colour else None,
        force_terminal=colour,
        file=io.StringIO(),
    )
    console.print(renderable)
    return console.export_text().splitlines()


def step(state: CarcassonneState, rng: random.Random) -> None:
    if state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int) -> Iterator[CarcassonneState]:
    """Every ``every``-th state of a random game where a seat is to act, and the last state."""
    state: CarcassonneState = regalia.load_game("carcassonne", **options).new_state(seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if state.current_player >= 0:
            if n % every == 0:
                yield state
            n += 1
        step(state, rng)
    yield state


def game_at(options: Mapping[str, Any], seed: int, plies: int) -> CarcassonneState:
    state: CarcassonneState = regalia.load_game("carcassonne", **options).new_state(seed)
    rng = random.Random(seed)
    while state.ply < plies and not state.is_terminal():
        step(state, rng)
    state.advance(rng)
    return state


def finished(options: Mapping[str, Any], seed: int) -> CarcassonneState:
    return game_at(options, seed, 10_000)


def play_menu_lines(state: CarcassonneState, width: int) -> int:
    """The lines of the move menu exactly as the play command prints it (one line per group:
    ``label: 1 text  2 text``, wrapped by the terminal)."""
    if state.current_player < 0:
        return 0
    lines = []
    number = 0
    for label, items in render.legal_groups(state, state.legal_actions()):
        line = Text()
        line.append_text(label if isinstance(label, Text) else Text(str(label)))
        line.append(": ")
        for k, (_, short) in enumerate(items):
            number += 1
            if k:
                line.append("  ")
            line.append(str(number))
            line.append(f" {short}")
        lines.append(line)
    return len(lines_of(Text("\n").join(lines), width))


# -- cells ----------------------------------------------------------------------------------------------


def test_every_tile_and_rotation_paints_its_features_with_their_own_anchor() -> None:
    """Each feature of each tile as it lies has an anchor of its own (where its follower stands);
    a city's sides show the city glyph, a road's sides a road glyph, a cloister or shrine its mark
    at the centre, a pennant per pennant."""
    cat = default_catalogue()
    for tile in cat.types:
        for rotation in tile.rotations:
            turned = cat.turned(tile.index, rotation)
            painted = paint(turned)
            assert len(painted.glyphs) == CELL_H and all(len(line) == CELL_W for line in painted.glyphs)
            anchors = painted.anchors
            assert len(set(anchors)) == len(turned.segments), (tile.id, rotation)
            for i, (col, line) in enumerate(anchors):
                assert painted.owner[line][col] == i, (tile.id, rotation, turned.segments[i])
            middles = {0: (2, 0), 1: (4, 1), 2: (2, 2), 3: (0, 1)}
            for seg in turned.segments:
                for side in seg.sides if seg.kind in (CITY, ROAD) else ():
                    col, line = middles[side]
                    glyph = painted.glyphs[line][col]
                    if seg.kind == CITY:
                        assert glyph in (CITY_GLYPH, PENNANT_GLYPH), (tile.id, rotation, side)
                    else:
                        assert glyph == (ROAD_V if side in (0, 2) else ROAD_H), (tile.id, rotation, side)
            flat = "".join("".join(line) for line in painted.glyphs)
            assert flat.count(PENNANT_GLYPH) == tile.pennants
            assert (painted.glyphs[1][2] == CLOISTER_GLYPH) == tile.cloister
            assert (painted.glyphs[1][2] == SHRINE_GLYPH) == tile.shrine


def test_followers_stand_on_their_feature_with_the_seat_letter() -> None:
    """NO_COLOR: every follower reads as its seat's letter at its feature's anchor, a farmer's in
    lowercase (the board as the ``board`` command draws it)."""
    seen = set()
    for options, seed in (({"players": 5, "shrines": "6"}, 2), ({"players": 3}, 5)):
        state = game_at(options, seed, 120)
        assert state.meeples
        window = whole_window(state)
        lines = lines_of(render_board(state, window), 400)
        for pos, (seat, segment) in state.meeples.items():
            turned = state.turned(pos)
            col, line = paint(turned).anchors[segment]
            row = 1 + (window.y1 - pos[1]) * CELL_H + line
            column = LABEL_W + (pos[0] - window.x0) * CELL_W + col
            letter = SEAT_LETTERS[seat]
            kind = turned.segments[segment].kind
            assert lines[row][column] == (letter.lower() if kind == FIELD else letter), (pos, kind)
            seen.add(kind)
    assert {CITY, ROAD, FIELD} <= seen


def test_positions_where_the_tile_fits_carry_the_menu_numbers_and_arrows() -> None:
    """The number of each placement in the menu is written in its cell with the arrow of its
    rotation; the numbers are those the play command gives (its menu counts from 1)."""
    state = game_at({"players": 3, "shrines": "5"}, 4, 40)
    while state.phase != PH_PLACE:
        step(state, random.Random(state.ply))
    numbers = menu_numbers(state)
    assert sorted(numbers.values()) == list(range(1, len(state.legal_actions()) + 1))
    window = whole_window(state)
    lines = lines_of(render_board(state, window), 400)
    for action, number in numbers.items():
        assert action.kind == PLACE and action.pos is not None
        x, y = action.pos
        top = 1 + (window.y1 - y) * CELL_H
        left = LABEL_W + (x - window.x0) * CELL_W
        cell = "\n".join(lines[top + k][left : left + CELL_W] for k in range(CELL_H))
        assert f"{number}{ROTATION_ARROWS[action.rotation]}" in cell, (action, cell)


def test_follower_options_are_numbered_on_the_tile_just_laid() -> None:
    state = new()
    state.apply_text("draw V")
    state.apply_text("place V 1,0 0")
    numbers = menu_numbers(state)
    lines = lines_of(render_board(state), 200)
    turned = state.turned((1, 0))
    anchors = paint(turned).anchors
    for action, number in numbers.items():
        if action.kind != FOLLOWER:
            continue
        index = turned.segment_named(action.feature, action.side or action.feature)
        col, line = anchors[index]
        assert lines[1 + line][LABEL_W + CELL_W + col] == str(number)
    assert len([a for a in numbers if a.kind == FOLLOWER]) == 3


# -- the view ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("size", SIZES)
def test_every_view_fits_the_terminal_with_room_for_the_menu(
    options: Mapping[str, Any], size: tuple[int, int]
) -> None:
    """At 100x30 and 80x24, with and without colour, the view is at most as wide as the terminal,
    and the view, the menu (as the play command prints it) and the turn's lines fit its height;
    when the menu alone leaves less than MIN_LINES (a tile that fits in some 40 places of a
    sprawling random board), the view takes MIN_LINES."""
    width, height = size
    for seed in (1, 2):
        for state in states_of_a_game(options, seed, every=9):
            view = render.render_terminal(state, 0, width=width, height=height)
            if state.is_terminal():
                continue  # the final scoring follows the view and may scroll
            menu = play_menu_lines(state, width)
            for colour in (False, True):
                lines = lines_of(view, width, colour)
                assert max(len(line) for line in lines) <= width
                assert len(lines) <= max(MIN_LINES, height - menu - TURN_ROOM), (state.ply, len(lines), menu)


def test_a_placement_in_a_small_terminal_keeps_places_in_view_and_says_what_is_cut() -> None:
    state = game_at({"players": 3, "shrines": "5"}, 3, 140)
    while state.phase != PH_PLACE:
        step(state, random.Random(state.ply))
    text = "\n".join(lines_of(render.render_terminal(state, 0, width=80, height=24), 80))
    assert "board cut to fit" in text and "'board' shows it all" in text
    numbers = menu_numbers(state)
    assert any(f"{n}{ROTATION_ARROWS[a.rotation]}" in text for a, n in numbers.items())
    tile = state.cat.types[state.drawn].id
    assert f"to lay tile {tile}" in text


def test_the_board_command_gets_every_row_and_the_fitted_view_fewer() -> None:
    state = game_at({"players": 2}, 6, 150)
    window = whole_window(state)
    whole = lines_of(render.render_terminal(state, 0, width=200, height=None), 200)
    labels = {line[: LABEL_W - 1].strip().lstrip("▸") for line in whole}  # ▸: the last tile's row
    assert {str(y) for y in range(window.y0, window.y1 + 1)} <= labels
    assert not any("board cut to fit" in line for line in whole)
    fitted = lines_of(render.render_terminal(state, 0, width=100, height=30), 100)
    assert len(fitted) < len(whole)


def test_the_view_shows_seats_drawn_tile_rotations_bag_and_legend() -> None:
    state = game_at({"players": 3, "shrines": "5"}, 8, 30)
    while state.phase != PH_PLACE:
        step(state, random.Random(state.ply))
    text = "\n".join(lines_of(render.render_terminal(state, 1, width=100, height=30), 100))
    for seat, name in enumerate(state.seat_names()):
        assert name in text
        assert SEAT_LETTERS[seat] * state.followers[seat] in text
    assert "blue (you)" in text
    tile = state.cat.types[state.drawn]
    for rotation in tile.rotations:
        assert f"{ROTATION_ARROWS[rotation]}{rotation}°" in text
    assert f"bag {state.bag_left}:" in text
    assert "A" + str(state.bag[state.cat.by_id["A"].index]) in text
    assert "cloister" in text and "shrine" in text


def test_no_size_gives_everything_stacked_and_a_tiny_terminal_does_not_fail() -> None:
    state = game_at({"players": 4, "shrines": "6"}, 9, 100)
    stacked = "\n".join(lines_of(render.render_terminal(state, None), 300))
    assert "bag " in stacked and "board cut" not in stacked
    for width, height in ((40, 10), (20, 5), (60, 12)):
        lines = lines_of(render.render_terminal(state, 0, width=width, height=height), width)
        assert max(len(line) for line in lines) <= width


def test_rendering_does_not_change_the_state() -> None:
    state = game_at({"players": 3, "shrines": "5"}, 2, 77)
    before = state.to_json()
    render.render_terminal(state, 0, width=80, height=24)
    render.render_svg(state, 0)
    render.legal_groups(state, state.legal_actions())
    render.describe_ply(state, state.plies()[-1])
    assert state.to_json() == before


def test_a_finished_game_shows_the_final_scoring_after_the_board() -> None:
    state = finished({"players": 3, "shrines": "5"}, 11)
    text = "\n".join(lines_of(render.render_terminal(state, 0, width=100, height=30), 100))
    assert "game over" in text and "Final scoring" in text


# -- the menu ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
def test_legal_groups_cover_every_legal_action_once(options: Mapping[str, Any]) -> None:
    for state in states_of_a_game(options, 3, every=5):
        actions = state.legal_actions()
        groups = render.legal_groups(state, actions)
        listed = [a for _, items in groups for a, _ in items]
        assert sorted(map(state.action_text, listed)) == sorted(map(state.action_text, actions))
        assert len(listed) == len(set(listed))
        if not actions or actions[0].kind != PLACE:
            continue
        positions = {a.pos for a in actions}
        if len(positions) <= ONE_LINE_EACH:  # one group per position, its rotations as items
            assert [str(label) for label, _ in groups] == [
                format_pos(p) for p in sorted(positions, key=lambda p: (-p[1], p[0]))
            ]
            for label, items in groups:
                assert all(a.pos is not None and format_pos(a.pos) == str(label) for a, _ in items)
                assert [short for _, short in items] == [f"{a.rotation}°" for a, _ in items]
        else:  # packed: each position once, before its first rotation, lines of at most LINE_W
            number = 0
            for label, items in groups:
                line = f"{label}: " + "  ".join(
                    f"{number + k + 1} {short}" for k, (_, short) in enumerate(items)
                )
                number += len(items)
                assert len(line) <= LINE_W
            shorts = [short for _, items in groups for _, short in items]
            assert sum(1 for s in shorts if "," in s) == len(positions)


def test_followers_are_grouped_by_kind_then_pass() -> None:
    state = new(shrines="5")
    state.apply_text("draw SHCR")
    state.apply_text("place SHCR 0,1 180")
    groups = render.legal_groups(state, state.legal_actions())
    assert [str(label) for label, _ in groups] == [
        "city (knight)",
        "road (thief)",
        "field (farmer)",
        "shrine (heretic)",
        "pass",
    ]
    assert [short for _, short in groups[0][1]] == ["S"]  # the city joins the start tile's
    assert [short for _, short in groups[1][1]] == ["N"]
    assert [short for _, short in groups[3][1]] == ["shrine"]
    assert [short for _, short in groups[-1][1]] == ["no follower"]


def test_chance_draws_entered_by_a_person_list_the_tiles_left() -> None:
    state = new()
    groups = render.legal_groups(state, state.legal_actions())
    assert len(groups) == 1
    label, items = groups[0]
    assert "draw" in str(label)
    assert ("D ×3") in [short for _, short in items] and "U ×8" in [short for _, short in items]


# -- descriptions -------------------------------------------------------------------------------------------


def last_description(state: CarcassonneState) -> str:
    return render.describe_ply(state, state.plies()[-1])


def test_a_completed_city_with_a_pennant_is_described_with_its_score() -> None:
    """D's city (0,0), F turned 90 (a city north to south with a pennant) with red's knight, E
    turned 180 closes it: 3 tiles and 1 pennant, 8 points for red, told on blue's ply."""
    state = new()
    turn(state, "F 0,1 90 city N", RED)
    assert last_description(state).startswith("red's knight on the city of 2 tiles and 1 pennant")
    turn(state, "E 0,2 180", BLUE)
    assert last_description(state) == "red's city of 3 tiles and 1 pennant is complete: red scores 8"
    assert state.points == [8, 0]


def test_a_follower_that_scores_at_once_goes_home() -> None:
    state = new()
    turn(state, "E 0,1 180 city S", RED)
    assert last_description(state) == (
        "red's knight: red's city of 2 tiles is complete: red scores 4; the knight goes home"
    )


def test_a_challenge_is_described() -> None:
    """Heretics and Shrines: blue's shrine (1,-1) completes first; red's monk (0,-1) goes home."""
    state = new(shrines="5")
    turn(state, "B 0,-1 0 cloister", RED)
    turn(state, "SH 1,-1 0 shrine", BLUE)
    turns(state, "U 1,0 0", "U 2,0 0", "E 2,-1 90", "U 2,-2 0", "U 1,-2 0", "U 0,-2 0")
    text = last_description(state)
    assert text == (
        "blue's shrine at 1,-1 is complete: blue scores 9; "
        "challenge: red's monk at 0,-1 goes home with 0 points"
    )


def test_a_tile_that_fits_nowhere_is_described_as_discarded() -> None:
    """Once E closes the start tile's city, no free position shows a city edge: a C fits nowhere."""
    state = new()
    turn(state, "E 0,1 180")
    state.apply_text("draw C")
    assert state.events()[-1][1:] == ("discard", "C")
    assert last_description(state) == "the drawn tile fits nowhere: discarded, another is drawn"


def test_a_discarded_last_tile_ends_the_game_with_the_final_scoring() -> None:
    """Red's farmer north of the city that E closes; the last tile, a C, fits nowhere: the game
    ends on the draw, the farm scores 3 for the completed city."""
    state = bag_game({"E": 1, "C": 1})
    turn(state, "E 0,1 180 field Nw")
    state.apply_text("draw C")
    assert state.is_terminal()
    assert last_description(state) == (
        "the drawn tile fits nowhere: discarded; the bag is empty; final scoring: red 3 (fields 3)"
    )


def test_draws_and_placements_are_described() -> None:
    state = new()
    state.apply_text("draw V")
    assert last_description(state) == "red draws V: it fits in 3 places; 70 tiles left in the bag"
    state.apply_text("place V 1,0 0")
    assert last_description(state) == "3 follower options on it, or pass"
    state.apply_text("pass")
    assert last_description(state) == "red deploys no follower"
    state.apply_text("draw E")
    state.apply_text("place E 0,1 180")
    assert last_description(state).startswith("it completes a city of 2 tiles")


def test_a_follower_on_an_open_feature_is_described_with_what_it_holds() -> None:
    state = new()
    turn(state, "U -1,0 0 field Nw")
    assert last_description(state) == "red's farmer in a field touching no completed city yet"
    turn(state, "E 0,1 180 field Nw")
    assert last_description(state) == "blue's farmer in a field touching 1 completed city"
    turn(state, "B 0,-1 0 cloister")
    assert last_description(state) == "red's monk on the cloister: 3 of its 9 tiles laid"
    turn(state, "U 1,0 0 road E")
    assert last_description(state) == "blue's thief on the road of 3 tiles, 2 open edges"


def test_the_final_scoring_is_summed_per_seat_and_kind() -> None:
    state = finished({"players": 3}, 4)
    final_ply = max(e[0] for e in state.events() if e[1] == "final")
    plies = state.plies()
    text = render.describe_ply(state, plies[final_ply - 1])
    assert "final scoring: " in text
    for seat, name in enumerate(state.seat_names()):
        points = sum(e[3][seat] for e in state.events() if e[1] == "final")
        if points:
            assert f"{name} {points} (" in text


@pytest.mark.parametrize("options", OPTION_SETS)
def test_describe_never_fails_on_random_games(options: Mapping[str, Any]) -> None:
    """Every ply of a random game is described by a non-empty line; one that scored or discarded
    nothing names its seat: a draw the seat that will lay the tile, a follower or a pass the seat
    that chose it. A ply that is not a Carcassonne action gives the empty text."""
    state: CarcassonneState = regalia.load_game("carcassonne", **options).new_state(7)
    rng = random.Random(7)
    names = state.seat_names()
    while not state.is_terminal():
        before = len(state.events())
        step(state, rng)
        ply = state.plies()[-1]
        text = render.describe_ply(state, ply)
        assert isinstance(text, str) and text.strip(), ply
        if len(state.events()) > before:  # a scoring, a discard...: described instead
            continue
        if ply.player == CHANCE:  # a draw names the seat that lays the tile
            assert text.startswith(f"{names[state.current_player]} draws "), (ply, text)
        elif ply.action.kind in (FOLLOWER, PASS):  # the follower step names the seat that acted
            assert text.startswith(
                f"{names[ply.player]} deploys no follower"
                if ply.action.kind == PASS
                else f"{names[ply.player]}'s "
            ), (ply, text)
    assert render.describe_ply(state, Ply(0, "not an action", "x")) == ""


# -- the result -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"players": 5, "shrines": "6", "challenge_house_rule": True}])
def test_result_breaks_points_down_by_kind(options: Mapping[str, Any]) -> None:
    state = finished(options, 12)
    table = breakdown(state)
    assert [sum(points.values()) for points in table] == state.scores()
    text = "\n".join(lines_of(render.render_result(state), 140))
    for kind in ("roads", "cities", "cloisters", "fields"):
        assert kind in text
    assert ("shrines" in text) == (options.get("shrines", "off") != "off")
    for name in state.seat_names():
        assert name in text
    assert "wins" in text or "share the victory" in text


# -- the play command ------------------------------------------------------------------------------------

runner = CliRunner()


def invoke(*args: str, input: str) -> Any:
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "100", "LINES": "30", "NO_COLOR": "1"})


def test_play_a_few_moves_help_hint_board_and_quit(tmp_path: Any) -> None:
    save = tmp_path / "game.json"
    result = invoke(
        "play",
        "carcassonne",
        "--vs",
        "random",
        "--seed",
        "3",
        "--save",
        str(save),
        input="1\nhelp\nhint\nboard\n1\n1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    assert "to lay tile" in out and "y\\x" in out
    assert "follower city N" in out  # the notation help
    assert "hint: " in out
    assert "blue (random): place" in out
    assert "game stopped." in out
    assert max(len(line) for line in out.splitlines()) <= 100
    record = Record.load(save)
    mine = [p.text for p in regalia.replay(record).plies() if p.player == 0]
    assert mine[0].startswith("place ") and len(mine) >= 3


def test_play_three_players_with_shrines_by_notation_and_bad_input() -> None:
    state: CarcassonneState = regalia.load_game("carcassonne", players=3, shrines="5").new_state(5)
    state.advance()
    first = state.action_text(state.legal_actions()[-1])
    result = invoke(
        "play",
        "carcassonne",
        "-o",
        "players=3",
        "-o",
        "shrines=5",
        "--vs",
        "random",
        "--seed",
        "5",
        input=f"place Q 99,99 0\n999\nfollower city X\n{first}\npass\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Traceback" not in out
    assert "no move number 999" in out
    assert out.count("nothing was changed") >= 2
    assert f"red (you): {first}" in out
    assert "green (random): place" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_only_the_place_phase_marks_positions() -> None:
    state = new()
    assert fit_positions(state) == {}
    state.apply_text("draw V")
    assert state.phase == PH_PLACE and set(fit_positions(state)) == {(-1, 0), (1, 0), (0, -1)}
    state.apply_text("place V 1,0 0")
    assert state.phase == PH_FOLLOWER and fit_positions(state) == {}
