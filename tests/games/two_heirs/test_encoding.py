"""The Two Heirs encoding: action ids, legal masks, chance ids and observation tensors (docs/encodings.md)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

import regalia  # noqa: E402
from regalia.core.encoding import EncodingError  # noqa: E402
from regalia.core.game import CHANCE  # noqa: E402
from regalia.games.two_heirs import actions as act  # noqa: E402
from regalia.games.two_heirs.encoding import TwoHeirsEncoding  # noqa: E402

from .. import encoding_checks  # noqa: E402
from ..encoding_checks import (  # noqa: E402
    check_cells_and_positions,
    check_end,
    check_ids,
    check_layout,
    check_observation,
    check_twins,
    random_step,
)
from .builders import BLUE, GREY, TILES_FILE, WHITE, basic, position  # noqa: E402

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"roads": False, "sets": "warfare,crafts,guard"},
    {"sets": "random"},
    {"solo": True},
    {"solo": True, "level": 1, "sets": "random"},
    {"tiles": TILES_FILE, "sets": "dominion,warfare,guard"},
)


@cache
def game(index: int) -> Any:
    return regalia.load_game("two-heirs", **OPTION_SETS[index])


@cache
def encoding(index: int, size: int = 11) -> TwoHeirsEncoding:
    return TwoHeirsEncoding(game(index), size=size)


def random_state(index: int, seed: int, plies: int) -> Any:
    """A state after ``plies`` random actions (chance with its probabilities), or the end."""
    return encoding_checks.random_state(game(index), seed, plies)


@settings(max_examples=60, deadline=None)
@given(
    index=st.integers(0, len(OPTION_SETS) - 1),
    seed=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 400),
)
def test_random_states_ids_masks_and_observations(index: int, seed: int, plies: int) -> None:
    """Any reachable state, chance nodes included: ids in range and unique, the mask equals the
    legal set when it fits, every legal action round-trips, tensors of constant shape, finite."""
    state = random_state(index, seed, plies)
    enc = encoding(index)
    check_ids(enc, state)
    check_observation(enc, state)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_whole_games_fit_the_default_window(index: int) -> None:
    """Every state of a few whole random games: the checks above, and the default window holds them."""
    enc = encoding(index)
    for seed in range(3):
        state = game(index).new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            check_ids(enc, state)
            assert enc.fits(state)
            if state.is_terminal():
                break
            random_step(state, rng)
        check_observation(enc, state)
        assert enc.board_fits(state)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_small_windows_leave_actions_out_without_crashing(index: int) -> None:
    """With a 3x3 window many states do not fit: the mask holds exactly the actions with an id."""
    enc = encoding(index, size=3)
    unfit = 0
    state = game(index).new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        check_ids(enc, state)
        check_observation(enc, state)
        unfit += not enc.fits(state)
        random_step(state, rng)
    assert unfit > 0


@settings(max_examples=25, deadline=None)
@given(
    index=st.integers(0, len(OPTION_SETS) - 1),
    seed=st.integers(0, 2**31 - 1),
    other=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 300),
)
def test_tensor_does_not_depend_on_the_seed(index: int, seed: int, other: int, plies: int) -> None:
    """Two states with the same history and different seeds give the same tensors, ids and masks:
    nothing about future draws is encoded."""
    state = random_state(index, seed, plies)
    twin = regalia.replay(state.record(), seed=other, game=game(index))
    enc = encoding(index)
    check_twins(enc, state, twin)
    assert np.array_equal(enc.legal_mask(state), enc.legal_mask(twin))


def test_a_board_wider_than_the_window_does_not_fit() -> None:
    """A row of 16 tiles: tiles outside the window are clipped from the observation, actions there
    have no id and are left out of the mask; nothing crashes."""
    board = {(x, 0): GREY for x in range(16)}
    state = position(board=board, units=[(15, 0), None, None, (0, 0), None, None], hands=(("W1",), ()))
    enc = TwoHeirsEncoding(state.game)
    assert not enc.fits(state)
    assert not enc.board_fits(state)
    assert enc.clipped(state) == 16 - 11
    check_ids(enc, state)
    check_observation(enc, state)
    assert 0 < len(enc.legal_ids(state)) < len(state.legal_actions())  # take, call... keep their ids
    tensor = enc.observation_tensor(state, WHITE)
    planes = enc.board_planes(tensor)
    assert planes[enc.plane_index["tile"]].sum() == 11
    window = tensor[enc.offsets["window"] : enc.offsets["window"] + 3]
    assert list(window) == pytest.approx([0.5, 0.0, 0.0])
    outside = state.parse_action("step 15,0 14,0")
    assert outside in state.legal_actions()
    with pytest.raises(EncodingError, match="outside the 11x11 window"):
        enc.action_id(state, outside)


def test_bigger_window_or_origin_frame() -> None:
    """The same wide board fits a 19x19 window; centred on the start, an 11x11 window cuts it too."""
    board = {(x, 0): GREY for x in range(16)}
    state = position(board=board, units=[(15, 0), None, None, (0, 0), None, None], hands=(("W1",), ()))
    assert TwoHeirsEncoding(state.game, size=19).fits(state)
    origin = TwoHeirsEncoding(state.game, frame="origin")
    assert not origin.fits(state)
    assert origin.clipped(state) == 10  # x = 6 .. 15


def test_the_window_leans_towards_where_tiles_may_be_played() -> None:
    """A board 10 tiles across with both units at its east end: centred on the tiles alone, the
    window cuts the placements east of it; the default frame, which also counts the free cells
    touching a unit, holds them."""
    board = {(x, 0): GREY for x in range(10)}
    state = position(board=board, units=[(9, 0), None, None, (8, 0), None, None], hands=(("W1",), ()))
    tiles_only = TwoHeirsEncoding(state.game, frame="tiles")
    assert tiles_only.board_fits(state) and not tiles_only.fits(state)
    enc = TwoHeirsEncoding(state.game)
    assert enc.board_fits(state) and enc.fits(state)
    check_ids(enc, state)


def test_a_board_as_wide_as_the_window_stays_whole() -> None:
    """11 tiles across: the placements beyond cannot all fit, but the board stays whole in view."""
    board = {(x, 0): GREY for x in range(11)}
    state = position(board=board, units=[(10, 0), None, None, (9, 0), None, None], hands=(("W1",), ()))
    enc = TwoHeirsEncoding(state.game)
    assert enc.board_fits(state) and not enc.fits(state)
    for seat in (WHITE, BLUE):
        assert enc.board_planes(enc.observation_tensor(state, seat))[enc.plane_index["tile"]].sum() == 11


def test_seat_one_sees_the_board_turned() -> None:
    """Blue sits opposite: its window is turned by 180 degrees, so a step to the board's north is a
    step towards blue (S in its view), and its elite is marked as its own."""
    state = basic(player=BLUE, board={(5, 6): GREY}, units=[(0, 0), None, None, (5, 5), None, None])
    enc = TwoHeirsEncoding(state.game)
    action = state.parse_action("step 5,5 5,6")
    assert action in state.legal_actions()
    i = enc.action_id(state, action)
    plane, cell = divmod(i, enc.cells)
    assert plane == enc.plane_step + 4  # S as blue sees it
    frame = enc.frame(state, BLUE)
    assert enc.position(frame, cell) == (5, 5)
    white = enc.board_planes(enc.observation_tensor(state, WHITE))
    blue = enc.board_planes(enc.observation_tensor(state, BLUE))
    own = enc.plane_index["own_elite"]
    opp = enc.plane_index["opp_elite"]
    # each seat sees its own elite as its own, and blue's view is white's turned by 180 degrees
    assert np.array_equal(white[own], blue[opp][::-1, ::-1])
    assert np.array_equal(white[opp], blue[own][::-1, ::-1])


def test_cells_and_positions_are_inverse() -> None:
    enc = encoding(0)
    check_cells_and_positions(enc, random_state(0, 3, 150))


def test_chance_ids() -> None:
    """Chance outcomes have their own ids: draws by tile, top colours, the first seat, the sets,
    treasure tokens; their probabilities sum to 1."""
    for index in range(len(OPTION_SETS)):
        enc = encoding(index)
        state = game(index).new_state(seed=11)
        kinds = set()
        rng = random.Random(11)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                pairs = enc.chance_ids(state)
                assert sum(p for _, p in pairs) == pytest.approx(1.0)
                assert all(0 <= i < enc.num_chance_outcomes for i, _ in pairs)
                kinds.add(state.legal_actions()[0].kind)
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        expected = {act.DRAW, act.TOP}
        options = OPTION_SETS[index]
        expected.add(act.TREASURE if options.get("solo") else act.FIRST)
        if options.get("sets") == "random":
            expected.add(act.SETS_DRAWN)
        assert expected <= kinds


def test_sizes_follow_the_options() -> None:
    """Tiles are indexed only for the sets in play (all of them when chance picks the sets)."""
    fixed, random_sets, solo = encoding(0), encoding(2), encoding(3)
    assert len(fixed.tiles) == 27 and len(random_sets.tiles) == 54
    assert fixed.num_actions == (2 * 27 + 11) * 121 + 2 * 27 + 3 + 2
    assert fixed.num_chance_outcomes == 27 + 3 + 2
    assert random_sets.num_chance_outcomes == 54 + 3 + 2 + 20
    assert solo.num_chance_outcomes == 27 + 3 + 10
    no_camps = encoding(1)
    assert no_camps.camps == () and no_camps.num_actions == (2 * 27 + 11) * 121 + 2 * 27 + 2


def test_layout_describes_the_tensor() -> None:
    for index in range(len(OPTION_SETS)):
        check_layout(encoding(index), offsets=False)


def test_bad_ids_and_arguments() -> None:
    enc = encoding(0)
    state = random_state(0, 2, 20)
    assert state.current_player in (0, 1)
    for bad in (-1, enc.num_actions):
        with pytest.raises(EncodingError):
            enc.action_from_id(state, bad)
    with pytest.raises(EncodingError):
        enc.observation_tensor(state, 2)
    with pytest.raises(EncodingError):
        enc.action_id(state, "take W1")
    with pytest.raises(EncodingError):
        TwoHeirsEncoding(game(0), size=10)
    with pytest.raises(EncodingError):
        TwoHeirsEncoding(game(0), frame="elsewhere")
    check_end(enc, random_state(0, 2, 10_000))


def test_the_plugin_declares_this_encoding() -> None:
    enc = regalia.game_plugin("two-heirs").encoding(game(0))
    assert isinstance(enc, TwoHeirsEncoding)
    assert enc.num_actions == encoding(0).num_actions
