"""The Carcassonne encoding: action ids, legal masks, chance ids, observation tensors, the window and
its variants (docs/encodings.md, Carcassonne)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.encoding import EncodingError
from regalia.core.game import CHANCE
from regalia.games.carcassonne import plugin as plugin_module
from regalia.games.carcassonne.actions import PLACE, Action, parse_action
from regalia.games.carcassonne.encoding import (
    DEFAULT_SIZE,
    FOLLOWER_CHOICES,
    CarcassonneEncoding,
)

from .. import encoding_checks
from ..encoding_checks import check_end, check_layout, check_observation, check_twins, random_step

#: Option sets of the random-state tests: 2 to 5 players, shrines off, 5 and 6, farmers off.
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"players": 3, "farmers": False},
    {"players": 4, "shrines": "5"},
    {"players": 5, "shrines": "6", "challenge_house_rule": True},
    {"players": 2, "shrines": "6", "farmers": False, "small_city": 2},
)


@cache
def game(index: int) -> Any:
    return regalia.load_game("carcassonne", **OPTION_SETS[index])


@cache
def encoding(index: int, size: int = DEFAULT_SIZE, frame: str = "board") -> CarcassonneEncoding:
    return CarcassonneEncoding(game(index), size=size, frame=frame)


def random_state(index: int, seed: int, plies: int) -> Any:
    """A state after ``plies`` random plies (chance with its probabilities), or the end."""
    return encoding_checks.random_state(game(index), seed, plies)


def turn(state: Any, spec: str) -> None:
    """One whole turn from ``"TILE X,Y ROTATION [FOLLOWER...]"`` (no follower: pass)."""
    tile, pos, rotation, *follower = spec.split()
    state.apply_text(f"draw {tile}")
    state.apply_text(f"place {tile} {pos} {rotation}")
    state.apply_text(f"follower {' '.join(follower)}" if follower else "pass")


def check_ids(enc: CarcassonneEncoding, state: Any) -> None:
    """The shared checks (ids, mask, round trips, ``fits``); what a window leaves out is a
    placement, refused as outside the window."""
    for missing in encoding_checks.check_ids(enc, state, match="outside the")[:1]:
        assert missing.kind == PLACE


def window_block(enc: CarcassonneEncoding, tensor: Any) -> list[float]:
    at = enc.offsets["window"]
    return [float(v) for v in tensor[at : at + 3]]


# ---------------------------------------------------------------------- random states and games


@settings(max_examples=60, deadline=None)
@given(
    index=st.integers(0, len(OPTION_SETS) - 1),
    seed=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 450),
    size=st.sampled_from([DEFAULT_SIZE, 7]),
)
def test_random_states_ids_masks_and_observations(index: int, seed: int, plies: int, size: int) -> None:
    """Any reachable state (chance nodes and the end included), at the default window and at a 7x7
    one that cuts many: ids in range and unique, the mask is the legal set (or its part with ids),
    round trips, tensors of constant shape, finite."""
    state = random_state(index, seed, plies)
    enc = encoding(index, size)
    check_ids(enc, state)
    check_observation(enc, state)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_whole_random_games_fit_the_default_window(index: int) -> None:
    """Every state of two whole random games: the checks above, every state fits the default window
    and the board stays whole in view."""
    enc = encoding(index)
    for seed in range(2):
        state = game(index).new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            check_ids(enc, state)
            assert enc.fits(state)
            assert enc.clipped(state) == 0
            if state.is_terminal():
                break
            random_step(state, rng)
        check_observation(enc, state)


def test_small_windows_leave_placements_out_without_crashing() -> None:
    """A 5x5 window: many placement decisions do not fit; the mask then holds exactly the legal
    actions with an id, follower decisions and draws always fit, tiles outside are clipped."""
    enc = encoding(0, 5)
    state = game(0).new_state(seed=4)
    rng = random.Random(4)
    unfit = 0
    while not state.is_terminal():
        check_ids(enc, state)
        fits = enc.fits(state)
        if state.current_player == CHANCE or state.phase != 2:
            assert fits
        unfit += not fits
        if not fits:
            tensor = enc.observation_tensor(state, state.current_player)
            assert window_block(enc, tensor)[2] == 0.0
        random_step(state, rng)
    assert unfit > 10
    clipped = enc.clipped(state)
    assert clipped > 0 and not enc.board_fits(state)
    tensor = enc.observation_tensor(state, 0)
    planes = enc.board_planes(tensor)
    assert planes[enc.plane_index["tile"]].sum() == len(state.board) - clipped
    assert window_block(enc, tensor)[:2] == pytest.approx([clipped / 10, 0.0])


@settings(max_examples=25, deadline=None)
@given(
    index=st.integers(0, len(OPTION_SETS) - 1),
    seed=st.integers(0, 2**31 - 1),
    other=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 400),
)
def test_nothing_about_the_bag_order_is_encoded(index: int, seed: int, other: int, plies: int) -> None:
    """Two states with the same history and different seeds (so different future draws) give the
    same tensors, ids and masks."""
    state = random_state(index, seed, plies)
    twin = regalia.replay(state.record(), seed=other, game=game(index))
    enc = encoding(index)
    check_twins(enc, state, twin)
    assert np.array_equal(enc.legal_mask(state), enc.legal_mask(twin))


def test_the_observation_changes_with_what_a_seat_sees() -> None:
    """The test above is not vacuous: a different drawn tile, or another seat's view, changes it."""
    enc = encoding(0)
    a = game(0).new_state(seed=1)
    b = game(0).new_state(seed=1)
    a.apply_text("draw U")
    b.apply_text("draw V")
    assert not np.array_equal(enc.observation_tensor(a, 0), enc.observation_tensor(b, 0))
    assert not np.array_equal(enc.observation_tensor(a, 0), enc.observation_tensor(a, 1))


# ---------------------------------------------------------------------- ids


def test_placement_ids_are_rotation_planes_of_window_cells() -> None:
    """``place`` ids are ``rotation // 90 * C + cell``; the frame follows the board."""
    enc = CarcassonneEncoding(game(0), size=9)
    state = game(0).new_state()
    state.apply_text("draw V")
    frame = enc.frame(state)
    for action in state.legal_actions():
        i = enc.action_id(state, action)
        plane, cell = divmod(i, enc.cells)
        assert plane == action.rotation // 90
        assert enc.position(frame, cell) == action.pos
    assert enc.cell(frame, (0, 0)) == 4 * 9 + 4  # a 1x1 board with placements all round: centred


def test_rotations_that_repeat_a_smaller_one_decode_to_it() -> None:
    """U turned 180 is U turned 0: the 180 plane's id decodes to the 0 rotation and is never legal."""
    enc = encoding(0)
    state = game(0).new_state()
    state.apply_text("draw U")
    legal = state.legal_actions()
    assert game(0).catalogue.by_id["U"].rotations == (0, 90)
    assert {a.rotation for a in legal} == {0}  # a road going on east or west, a field south
    zero = next(a for a in legal if a.rotation == 0)
    i = enc.action_id(state, zero)
    assert i < enc.cells
    turned = 2 * enc.cells + i  # the same cell, plane 180
    assert enc.action_from_id(state, turned) == zero
    assert enc.legal_mask(state)[turned] == 0
    assert enc.action_id(state, Action(PLACE, zero.tile, zero.pos, 180)) == i


def test_follower_ids_and_pass() -> None:
    """The 19 ids after the placements: cities, roads, fields by half, cloister, shrine, pass."""
    enc = encoding(0)
    assert enc.num_actions == 4 * enc.cells + 19
    assert len(FOLLOWER_CHOICES) == 18
    state = game(0).new_state()
    turn(state, "E 0,1 180 city S")  # closes the start tile's city: the knight comes home
    state.apply_text("draw L")
    state.apply_text("place L 1,0 0")
    texts = {state.action_text(a) for a in state.legal_actions()}
    assert "follower road W" in texts and "pass" in texts
    ids = enc.legal_ids(state)
    assert [state.action_text(enc.action_from_id(state, i)) for i in ids] == sorted(
        texts, key=lambda t: enc.action_id(state, state.parse_action(t))
    )
    for text, expected in (
        ("follower city N", 0),
        ("follower road E", 5),
        ("follower field Nw", 8),
        ("follower field Wn", 15),
        ("follower cloister", 16),
        ("follower shrine", 17),
        ("pass", 18),
    ):
        action = parse_action(text, state.cat)  # the name as written (the state reads Wn as En here)
        assert enc.action_id(state, action) == 4 * enc.cells + expected
        assert enc.action_from_id(state, 4 * enc.cells + expected) == action


def test_chance_ids_are_tile_types() -> None:
    """At a draw the ids are the catalogue's tile types, with the bag's odds; they sum to 1."""
    for index in range(len(OPTION_SETS)):
        enc = encoding(index)
        cat = game(index).catalogue
        assert enc.num_chance_outcomes == len(cat.types)
        state = random_state(index, 3, 30)
        while state.current_player != CHANCE:
            state.apply(state.legal_actions()[0])
        pairs = enc.chance_ids(state)
        assert sum(p for _, p in pairs) == pytest.approx(1.0)
        assert [i for i, _ in pairs] == [t for t, n in enumerate(state.bag) if n]
        for i, p in pairs:
            assert p == pytest.approx(state.bag[i] / state.bag_left)
            assert state.action_text(enc.action_from_id(state, i)) == f"draw {cat.types[i].id}"
        check_ids(enc, state)
        with pytest.raises(EncodingError):
            enc.action_from_id(state, enc.num_chance_outcomes)


def test_bad_ids_actions_and_arguments() -> None:
    enc = encoding(0)
    state = game(0).new_state()
    turn(state, "V 1,0 0")
    state.apply_text("draw U")
    for bad in (-1, enc.num_actions):
        with pytest.raises(EncodingError):
            enc.action_from_id(state, bad)
    with pytest.raises(EncodingError, match="not a Carcassonne action"):
        enc.action_id(state, "place U 0,1 0")
    with pytest.raises(EncodingError, match="waits to be laid"):
        enc.action_id(state, state.parse_action("place V 0,1 0"))  # not the drawn tile
    with pytest.raises(EncodingError, match="outside the"):
        enc.action_id(state, Action(PLACE, state.drawn, (40, 0), 0))
    with pytest.raises(EncodingError):
        enc.observation_tensor(state, 2)
    state.apply(state.legal_actions()[0])  # now a follower decision: placement ids name nothing
    with pytest.raises(EncodingError, match="no tile waits"):
        enc.action_from_id(state, 0)
    with pytest.raises(EncodingError, match="waits to be laid"):
        enc.action_id(state, Action(PLACE, 20, (0, 1), 0))
    with pytest.raises(EncodingError):
        CarcassonneEncoding(game(0), size=2)
    with pytest.raises(EncodingError):
        CarcassonneEncoding(game(0), size=True)  # type: ignore[arg-type]
    with pytest.raises(EncodingError):
        CarcassonneEncoding(game(0), frame="table")
    end = random_state(0, 2, 10_000)
    check_end(enc, end)
    assert enc.fits(end)


# ---------------------------------------------------------------------- the observation


def plane(enc: CarcassonneEncoding, tensor: Any, name: str) -> Any:
    return enc.board_planes(tensor)[enc.plane_index[name]]


def at(enc: CarcassonneEncoding, state: Any, tensor: Any, name: str, pos: tuple[int, int]) -> float:
    row, col = divmod(enc.cell(enc.frame(state), pos), enc.side)
    return float(plane(enc, tensor, name)[row, col])


def test_board_planes_of_a_small_position() -> None:
    """Tiles, edges, links, complete features, claims per viewer, followers by relative seat."""
    enc = CarcassonneEncoding(game(0), size=7)
    state = game(0).new_state()
    turn(state, "E 0,1 180 city S")  # red closes the city of the start tile (4 points)
    turn(state, "V 1,0 0 road S")  # blue: a thief on the road west-south, joined to the start's road
    turn(state, "U 1,-1 90 field Ne")  # red: a farmer on the field east of the road
    red = enc.observation_tensor(state, 0)
    blue = enc.observation_tensor(state, 1)
    assert plane(enc, red, "tile").sum() == 4
    assert at(enc, state, red, "city_N", (0, 0)) == 1 and at(enc, state, red, "road_E", (0, 0)) == 1
    assert at(enc, state, red, "road_E_W", (0, 0)) == 1 and at(enc, state, red, "road_S_W", (1, 0)) == 1
    assert at(enc, state, red, "road_N_S", (1, -1)) == 1 and at(enc, state, red, "city_S", (0, 1)) == 1
    assert at(enc, state, red, "origin", (0, 0)) == 1
    # the city of two tiles is complete, the road is not
    assert at(enc, state, red, "complete_N", (0, 0)) == 1 and at(enc, state, red, "complete_S", (0, 1)) == 1
    assert plane(enc, red, "complete_E").sum() == 0
    # the road with blue's thief: blue's for blue, another seat's for red, on its three tiles
    for pos, sides in (((0, 0), "EW"), ((1, 0), "SW"), ((1, -1), "NS")):
        for side in sides:
            assert at(enc, state, blue, f"own_{side}", pos) == 1
            assert at(enc, state, red, f"opp_{side}", pos) == 1
            assert at(enc, state, red, f"own_{side}", pos) == 0
    # red's farmer: the field east of the new road reaches the start tile's north field via V
    assert at(enc, state, red, "own_En", (0, 0)) == 1 and at(enc, state, red, "own_Es", (0, 0)) == 0
    assert at(enc, state, blue, "opp_Ne", (1, -1)) == 1 and at(enc, state, blue, "opp_Sw", (1, -1)) == 0
    # followers by seat relative to the viewer, and where on the tile they stand
    assert at(enc, state, red, "follower_0", (1, -1)) == 1 and at(enc, state, red, "follower_1", (1, 0)) == 1
    assert (
        at(enc, state, blue, "follower_0", (1, 0)) == 1 and at(enc, state, blue, "follower_1", (1, -1)) == 1
    )
    for half in ("Ne", "En", "Es", "Se"):
        assert at(enc, state, red, f"follower_at_{half}", (1, -1)) == 1
    assert at(enc, state, red, "follower_at_Nw", (1, -1)) == 0
    assert (
        at(enc, state, red, "follower_at_S", (1, 0)) == 1
        and at(enc, state, red, "follower_at_W", (1, 0)) == 1
    )
    # the board planes are the same for both viewers but for the seat-relative ones
    same = [n for n in enc.plane_index if not n.startswith(("own_", "opp_", "follower_"))]
    for name in same:
        assert np.array_equal(plane(enc, red, name), plane(enc, blue, name)), name


def test_global_blocks_are_seat_relative() -> None:
    """Scores, followers left and who acts, listed from the viewer on in turn order."""
    enc = encoding(1)  # three players
    state = game(1).new_state()
    turn(state, "E 0,1 180 city S")  # seat 0 scores 4
    turn(state, "V 1,0 0 road S")  # seat 1: a thief on the open road
    state.apply_text("draw U")  # seat 2 to place
    for viewer in range(3):
        tensor = enc.observation_tensor(state, viewer)
        off = enc.offsets
        order = [(viewer + k) % 3 for k in range(3)]
        scores = [4, 0, 0]
        left = [7, 6, 7]
        assert list(tensor[off["scores"] : off["scores"] + 3]) == pytest.approx(
            [scores[p] / 100 for p in order]
        )
        assert list(tensor[off["followers"] : off["followers"] + 3]) == pytest.approx(
            [left[p] / 7 for p in order]
        )
        assert tensor[off["scores"] + 3 : off["scores"] + 5].sum() == 0  # no fourth or fifth seat
        to_act = tensor[off["to_act"] : off["to_act"] + 7]
        assert to_act.argmax() == (2 - viewer) % 3 and to_act.sum() == 1
        assert tensor[off["seat"] + viewer] == 1 and tensor[off["players"] + 1] == 1
        assert tensor[off["phase"] + 1] == 1  # a placement
        u = game(1).catalogue.by_id["U"].index
        assert tensor[off["drawn"] + u] == 1 and tensor[off["drawn"] : off["drawn"] + enc.types].sum() == 1
        assert tensor[off["bag"] + u] == pytest.approx(7 / 8)
        share = tensor[off["bag_share"] : off["bag_share"] + enc.types]
        assert share.sum() == pytest.approx(1.0) and share[u] == pytest.approx(7 / 68)
        assert tensor[off["bag_left"]] == pytest.approx(68 / 71)
    assert list(tensor[off["options"] : off["options"] + 6]) == [0, 0, 1, 0, 0, 0]  # farmers off


def test_placement_planes_are_the_mask() -> None:
    """While a tile waits: ``fits_R`` marks exactly the legal placements, ``open`` every free
    position next to the board; after it is laid, ``placed`` marks it."""
    enc = encoding(0)
    state = random_state(0, 8, 61)
    while state.current_player == CHANCE or state.phase != 2:
        state.apply(
            state.sample_chance(random.Random(1))
            if state.current_player == CHANCE
            else state.legal_actions()[0]
        )
    tensor = enc.observation_tensor(state, state.current_player)
    planes = enc.board_planes(tensor)
    fits = np.stack([planes[enc.plane_index[f"fits_{r}"]] for r in (0, 90, 180, 270)]).reshape(-1)
    assert list(np.flatnonzero(fits)) == enc.legal_ids(state)
    assert plane(enc, tensor, "open").sum() == len(state.need)
    action = state.legal_actions()[0]
    state.apply(action)
    tensor = enc.observation_tensor(state, state.current_player)
    assert plane(enc, tensor, "placed").sum() == 1 and at(enc, state, tensor, "placed", action.pos) == 1
    assert plane(enc, tensor, "fits_0").sum() == 0


def test_cloisters_and_shrines() -> None:
    """An abbey's plane, its 3x3 block count, and a monk in the centre."""
    enc = encoding(4)  # shrines 6
    state = game(4).new_state()
    turn(state, "B 0,-1 0 cloister")
    turn(state, "SH 1,-1 0 shrine")
    tensor = enc.observation_tensor(state, 0)
    assert at(enc, state, tensor, "cloister", (0, -1)) == 1 and at(enc, state, tensor, "shrine", (1, -1)) == 1
    assert at(enc, state, tensor, "abbey_block", (0, -1)) == pytest.approx(3 / 9)
    assert at(enc, state, tensor, "abbey_block", (1, -1)) == pytest.approx(3 / 9)
    assert at(enc, state, tensor, "follower_at_centre", (0, -1)) == 1
    assert at(enc, state, tensor, "follower_1", (1, -1)) == 1


def test_layout_describes_the_tensor() -> None:
    for index in range(len(OPTION_SETS)):
        check_layout(encoding(index))
    # the same shape and ids for every option set of the shipped catalogue
    assert len({encoding(i).observation_shape for i in range(len(OPTION_SETS))}) == 1
    assert len({encoding(i).num_actions for i in range(len(OPTION_SETS))}) == 1


# ---------------------------------------------------------------------- the window and its variants


def row_with_a_city_end() -> Any:
    """Tiles at x = -1 .. 1 (a J whose city faces west, the start, a straight road) and a C drawn:
    it fits only west of the row (and north of the start)."""
    state = game(0).new_state()
    turn(state, "J -1,0 270")
    turn(state, "U 1,0 0")
    state.apply_text("draw C")
    assert sorted(a.pos for a in state.legal_actions()) == [(-2, 0), (0, 1)]
    return state


def test_the_window_leans_towards_where_the_tile_may_go() -> None:
    """A row 3 tiles wide in a 4x4 window: centred on the tiles alone the spare column is east and
    the placement west is cut; the default frame, which counts where the drawn tile may go, holds it."""
    state = row_with_a_city_end()
    tiles = CarcassonneEncoding(game(0), size=4, frame="tiles")
    board = CarcassonneEncoding(game(0), size=4)
    assert tiles.board_fits(state) and not tiles.fits(state)
    assert board.board_fits(state) and board.fits(state)
    check_ids(tiles, state)
    check_ids(board, state)
    assert len(tiles.legal_ids(state)) == 1
    with pytest.raises(EncodingError, match="position -2,0 is outside the 4x4 window"):
        tiles.action_id(state, state.parse_action("place C -2,0 0"))


def test_a_board_as_wide_as_the_window_stays_whole() -> None:
    """3 tiles across in a 3x3 window: the placement beyond has no id, but no tile leaves the view."""
    state = row_with_a_city_end()
    enc = CarcassonneEncoding(game(0), size=3)
    assert enc.board_fits(state) and not enc.fits(state)
    check_ids(enc, state)
    assert plane(enc, enc.observation_tensor(state, 0), "tile").sum() == 3


def test_origin_frame_is_centred_on_the_start_tile() -> None:
    enc = CarcassonneEncoding(game(0), size=5, frame="origin")
    state = random_state(0, 5, 90)
    frame = enc.frame(state)
    assert enc.cell(frame, (0, 0)) == 2 * 5 + 2
    assert enc.position(frame, 0) == (-2, 2)
    check_ids(enc, state)


def test_cells_and_positions_are_inverse() -> None:
    for size in (3, 4, DEFAULT_SIZE):
        enc = CarcassonneEncoding(game(0), size=size)
        state = random_state(0, 3, 150)
        frame = enc.frame(state)
        for cell in range(enc.cells):
            assert enc.cell(frame, enc.position(frame, cell)) == cell


def test_sizes_follow_the_window() -> None:
    for size in (9, 24, DEFAULT_SIZE):
        enc = CarcassonneEncoding(game(3), size=size)
        assert enc.num_actions == 4 * size * size + 19
        planes = len(enc.plane_index)
        globals_ = encoding(3).observation_shape[0] - planes * DEFAULT_SIZE**2
        assert enc.observation_shape == (planes * size * size + globals_,)
        assert enc.board_planes(np.zeros(enc.observation_shape, np.float32)).shape == (planes, size, size)


# ---------------------------------------------------------------------- through the plugin surface


@pytest.fixture
def plugin() -> Any:
    """The registered plugin, which declares this encoding."""
    return regalia.game_plugin("carcassonne")


def test_the_plugin_builds_this_encoding(plugin: Any) -> None:
    enc = plugin.encoding(game(0))
    assert isinstance(enc, CarcassonneEncoding) and enc.side == DEFAULT_SIZE
    assert plugin.encoding(game(0), size=9, frame="tiles").side == 9


@pytest.mark.parametrize(
    "options", [{}, {"players": 5, "shrines": "6", "challenge_house_rule": True}], ids=str
)
def test_the_conformance_kit_checks_the_encoding(plugin: Any, options: dict[str, Any]) -> None:
    """The kit's ``encoding`` check passes (two of the plugin's option sets here;
    tests/test_conformance.py runs it on every one of them)."""
    from regalia.testing import check_game

    assert options in plugin_module.PLUGIN.check_options

    report = check_game("carcassonne", games=1, seed=5, **options)
    assert "encoding" in report.passed, report.summary()
    assert report.ok, report.summary()


def test_regalia_fit_measures_its_variants(plugin: Any) -> None:
    from regalia.lab.fit import run_fit

    result = run_fit(
        "carcassonne", "random", games=2, seed=1, encodings=[{}, {"size": 5}, {"frame": "origin"}]
    )
    default, tiny, origin = result.variants
    assert default.states == tiny.states == result.decision_states > 0
    assert default.states_fit == default.states and default.most_clipped == 0
    assert tiny.states_fit < tiny.states and tiny.most_clipped is not None and tiny.most_clipped > 0
    assert 0 < tiny.kept_actions < tiny.lost_actions
    assert origin.label == "frame=origin"


def test_a_user_catalogue_sizes_the_chance_ids_and_blocks(tmp_path: Any) -> None:
    """With ``tiles=FILE`` the chance ids and per-type blocks are that catalogue's types; a whole
    game passes every check."""
    import json

    from regalia.core.data import read_package_json

    doc = read_package_json("regalia.games.carcassonne", "data/tiles.json")
    keep = {"D": 2, "U": 5, "C": 2, "B": 3}
    doc["tiles"] = [{**t, "count": keep[t["id"]]} for t in doc["tiles"] if t["id"] in keep]
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    small = regalia.load_game("carcassonne", tiles=str(path), players=3)
    enc = CarcassonneEncoding(small, size=11)
    assert enc.num_chance_outcomes == enc.types == 4
    assert enc.num_actions == 4 * 121 + 19
    blocks = {name: shape for name, shape, _ in enc.layout()}
    assert blocks["bag"] == blocks["drawn"] == (4,)
    state = small.new_state(seed=2)
    rng = random.Random(2)
    while True:
        check_ids(enc, state)
        check_observation(enc, state)
        if state.is_terminal():
            break
        random_step(state, rng)
    discarded = sum(1 for e in state.events() if e[1] == "discard")
    assert len(state.board) == sum(keep.values()) - discarded  # the start tile, and the bag's 11 tiles


def test_extent_gives_the_tiles_laid_and_the_drawn_tiles_squares() -> None:
    """``extent`` (what ``regalia fit carcassonne --extents`` measures): the squares of the tiles
    on the board, and while a tile is to be placed the squares it may go to (Rule: a tile is laid
    beside one already on the board); none while chance is to draw."""
    state = game(0).initial_state()
    enc = encoding(0)
    pieces, targets = enc.extent(state)
    assert pieces == [(0, 0)] and targets == []  # the start tile; chance draws next
    state.apply_text("draw D")
    pieces, targets = enc.extent(state)
    assert pieces == [(0, 0)]
    assert set(targets) == {p for p, _ in state.placements(state.drawn)}
    assert set(targets) <= {(1, 0), (-1, 0), (0, 1), (0, -1)}
