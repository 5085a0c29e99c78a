"""The Royal Court encoding: action ids, legal masks, chance ids, observation tensors (docs/encodings.md)."""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regalia
import regalia.games.royal_court
from regalia.core.encoding import EncodingError
from regalia.games.royal_court.encoding import DEFAULT_SIZE, RoyalCourtEncoding
from regalia.games.royal_court.plugin import PLUGIN
from regalia.games.royal_court.state import P_PLACE, P_TARGET
from regalia.lab.fit import run_fit
from regalia.testing import check_game

from .. import encoding_checks
from ..encoding_checks import (
    check_cells_and_positions,
    check_end,
    check_ids,
    check_layout,
    check_twins,
    random_step,
)
from .builders import build, run

SHIPPED = Path(regalia.games.royal_court.__file__).parent / "data" / "archetypes.json"


def _designer_file() -> str:
    """Seven archetypes: the first six shipped ones with the Bishop flipping a tile in play (so
    ``flip X,Y`` is reached), and the Wizard."""
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    kept = [
        a
        for a in doc["archetypes"]
        if a["name"] in ("Assassin", "Joker", "Spy", "Thief", "Bishop", "Captain")
    ]
    for a in kept:
        if a["name"] == "Bishop":
            a["effects"] = [{"do": "flip", "target": "opponent-active-in-play"}]
    wizard = next(a for a in doc["archetypes"] if a["name"] == "Wizard")
    doc["archetypes"] = [*kept, wizard]
    path = Path(tempfile.mkdtemp(prefix="rc-encoding-")) / "seven.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


DESIGNER = _designer_file()
OPTION_SETS: tuple[Mapping[str, Any], ...] = (*PLUGIN.check_options, {"archetypes": DESIGNER})


@cache
def game(index: int) -> Any:
    return regalia.load_game("royal-court", **OPTION_SETS[index])


@cache
def encoding(index: int, size: int = DEFAULT_SIZE, frame: str = "board") -> RoyalCourtEncoding:
    return RoyalCourtEncoding(game(index), size=size, frame=frame)


def random_state(index: int, seed: int, plies: int) -> Any:
    """A state after ``plies`` random actions (chance with its probabilities), or the end."""
    return encoding_checks.random_state(game(index), seed, plies)


def check_observation(enc: RoyalCourtEncoding, state: Any) -> None:
    """The shared checks, and the window block's second value: whether the board is whole in view."""
    for seat, tensor in enumerate(encoding_checks.check_observation(enc, state)):
        window = tensor[enc.offsets["window"] : enc.offsets["window"] + 3]
        assert window[1] == (enc.clipped(state, seat) == 0)


@settings(max_examples=60, deadline=None)
@given(
    index=st.integers(0, len(OPTION_SETS) - 1),
    seed=st.integers(0, 2**31 - 1),
    plies=st.integers(0, 250),
    size=st.sampled_from([DEFAULT_SIZE, 5]),
)
def test_random_states_ids_masks_and_observations(index: int, seed: int, plies: int, size: int) -> None:
    """Any reachable state, chance nodes and ends included, at the default window and at a 5x5 one
    that cuts many: ids in range and unique, the mask equals the legal set when it fits (and holds
    exactly the actions with an id when not), every legal action round-trips, tensors of constant
    shape and finite values."""
    state = random_state(index, seed, plies)
    enc = encoding(index, size)
    check_ids(enc, state)
    check_observation(enc, state)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_whole_games_every_state(index: int) -> None:
    """Every state of a few whole random games, and the steps of a turn they reach."""
    enc = encoding(index)
    phases = set()
    for seed in range(4):
        state = game(index).new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            check_ids(enc, state)
            phases.add(state.phase)
            if state.is_terminal():
                break
            random_step(state, rng)
        check_observation(enc, state)
    assert P_TARGET in phases


def test_small_windows_leave_actions_out_without_crashing() -> None:
    """With a 5x5 window many states do not fit: the mask holds exactly the actions with an id."""
    enc = encoding(0, size=5)
    unfit = 0
    state = game(0).new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        check_ids(enc, state)
        check_observation(enc, state)
        unfit += not enc.fits(state)
        random_step(state, rng)
    assert unfit > 0


def test_a_state_that_does_not_fit_a_tiny_window() -> None:
    """A line of tiles running east from the queen: in a 4x3 window the far tiles are clipped,
    plays and moves beyond have no id and are left out of the mask; nothing crashes."""
    state = build({"4,0": "red Joker", "5,0": "red Spy", "6,0": "red Healer", "7,0": "blue Spy"})
    enc = RoyalCourtEncoding(state.game, size=4, height=3, frame="royal")
    assert not enc.fits(state) and not enc.board_fits(state)
    assert enc.clipped(state) == 4  # x = -1 .. 2 in view: 4,0 .. 7,0 are outside
    check_ids(enc, state)
    check_observation(enc, state)
    assert 0 < len(enc.legal_ids(state)) < len(state.legal_actions())
    outside = state.parse_action("play Assassin 8,0")
    assert outside in state.legal_actions()
    with pytest.raises(EncodingError, match="outside the 4x3 window"):
        enc.action_id(state, outside)
    tensor = enc.observation_tensor(state, 0)
    assert enc.board_planes(tensor)[enc.plane_index["own_tile"]].sum() == 0
    window = tensor[enc.offsets["window"] : enc.offsets["window"] + 3]
    assert list(window) == pytest.approx([1.0, 0.0, 0.0])
    assert RoyalCourtEncoding(state.game, size=14, frame="royal").fits(state)  # x = -5 .. 8
    assert RoyalCourtEncoding(state.game, size=10).fits(state)  # the board frame: x = -1 .. 8


def test_the_window_is_centred_on_the_king_and_queen() -> None:
    """At the setup the king and queen lie in the middle row, symmetric about the centre (even
    width); the Wizard moving the king shifts the window by half a square, rounded."""
    state = build({"0,1": "red Joker"}, player=0)
    enc = RoyalCourtEncoding(state.game, size=12, height=11, frame="royal")
    planes = enc.board_planes(enc.observation_tensor(state, 0))
    (krow,), (kcol,) = planes[enc.plane_index["king"]].nonzero()
    (qrow,), (qcol,) = planes[enc.plane_index["queen"]].nonzero()
    assert krow == qrow == 5
    assert (kcol, qcol) == (4, 7) and kcol == 11 - qcol
    run(state, "play Wizard -1,-1", "consort 0,0 -1,0")
    planes = enc.board_planes(enc.observation_tensor(state, 0))
    (kcol,) = planes[enc.plane_index["king"]].nonzero()[1]
    (qcol,) = planes[enc.plane_index["queen"]].nonzero()[1]
    assert qcol - kcol == 4 and kcol in (3, 4)
    origin = RoyalCourtEncoding(state.game, size=12, height=11, frame="origin")
    planes = origin.board_planes(origin.observation_tensor(state, 0))
    assert planes[origin.plane_index["king"]].nonzero()[1][0] == 3


def test_seat_one_sees_the_board_turned() -> None:
    """Blue sits opposite: its window is red's turned by 180 degrees, each seat sees its own
    consort on its left (default consorts) and its own tiles as its own; a move north on the board
    is a move south as blue sees it."""
    state = build({"1,1": "red Joker", "2,-1": "blue Joker"}, player=1)
    enc = RoyalCourtEncoding(state.game, size=12, height=11)
    red = enc.board_planes(enc.observation_tensor(state, 0))
    blue = enc.board_planes(enc.observation_tensor(state, 1))
    idx = enc.plane_index
    for a, b in (("own_tile", "opp_tile"), ("own_consort", "opp_consort"), ("own_ring", "opp_ring")):
        assert np.array_equal(red[idx[a]][:, :], blue[idx[b]][::-1, ::-1])
    assert np.array_equal(red[idx["arch_Joker"]], blue[idx["arch_Joker"]][::-1, ::-1])
    assert red[idx["own_consort"]].nonzero()[1][0] == blue[idx["own_consort"]].nonzero()[1][0] == 4
    run(state, "play Courtisan 2,-2")
    action = state.parse_action("move 2,-1 2,0")  # north on the board
    assert action in state.legal_actions()
    plane, cell = divmod(enc.action_id(state, action), enc.cells)
    assert plane == enc.plane_move + 4  # S as blue sees it
    assert enc.position(enc.frame(state, 1), cell) == (2, -1)


def test_each_kind_of_action_and_its_id() -> None:
    """Put ids are play in step 1 and place in the Captain's step; one target plane serves
    remove, return and swap; zone ids serve flip and force; consort ids are per own/opposing
    consort and direction; pass has one id."""
    enc = encoding(0)
    c = enc.cells
    state = build({"1,1": "red Joker", "2,1": "blue Spy", "2,-1": "blue Joker"})
    play = state.parse_action("play Captain 1,-1")
    i = enc.action_id(state, play)
    assert i // c == enc.plane_put + state.game.archetypes.by_name["captain"].number
    run(state, "play Captain 1,-1")
    assert state.phase == P_PLACE
    place = enc.action_from_id(state, i)
    assert place.kind == "place" and place.dst == (1, -1)
    seen = {}
    for text, kind in (("Assassin", "remove"), ("Thief", "return"), ("Spy", "swap")):
        s = build({"1,1": "red Joker", "2,1": "blue Spy", "2,-1": "blue Joker", "-1,0": "red Healer"})
        run(s, f"play {text} 1,-1")
        assert s.phase == P_TARGET
        ids = enc.legal_ids(s)
        assert all(enc.plane_target * c <= j < enc.id_zone for j in ids)
        assert {enc.action_from_id(s, j).kind for j in ids} == {kind}
        seen[kind] = ids
    s = build({"1,1": "red Joker"})
    run(s, "play Bishop 1,-1")
    assert [enc.action_from_id(s, j).kind for j in enc.legal_ids(s)] == ["flip"] * 10
    assert enc.legal_ids(s) == list(range(enc.id_zone, enc.id_zone + 10))
    s = build({"1,1": "red Joker"})
    run(s, "play Diplomat 1,-1")
    assert enc.action_from_id(s, enc.id_zone + 2) == s.parse_action("force Spy")
    s = build({"1,1": "red Joker"})
    run(s, "play Wizard 1,-1")
    ids = enc.legal_ids(s)
    assert all(enc.id_consort <= j < enc.id_pass for j in ids)
    own = s.parse_action("consort 0,0 -1,0")  # red's consort, the king, to the west
    assert enc.action_id(s, own) == enc.id_consort + 6
    assert enc.action_id(s, s.parse_action("consort 3,0 4,0")) == enc.id_consort + 8 + 2
    s = build({"1,1": "red Healer"})
    run(s, "play Joker 2,1", "move 1,1 1,2")
    assert enc.id_pass in enc.legal_ids(s)
    assert enc.action_from_id(s, enc.id_pass).kind == "pass"


def test_chance_ids() -> None:
    """The coin flip has two outcome ids, red and blue, each with probability 1/2."""
    enc = encoding(0)
    state = game(0).new_state(seed=3)
    assert enc.size(state) == 2
    assert enc.chance_ids(state) == [(0, 0.5), (1, 0.5)]
    assert [state.action_text(enc.action_from_id(state, i)) for i in (0, 1)] == ["first red", "first blue"]
    assert list(enc.legal_mask(state)) == [1, 1]
    with pytest.raises(EncodingError):
        enc.action_from_id(state, 2)


def test_sizes_follow_the_archetype_file() -> None:
    """``n`` archetypes: ``n + 9`` action planes, ``n`` zone ids, 16 consort ids, pass."""
    for index, n in ((0, 10), (len(OPTION_SETS) - 1, 7)):
        enc = encoding(index)
        assert enc.count == n
        c = DEFAULT_SIZE * DEFAULT_SIZE
        assert enc.num_actions == (n + 9) * c + n + 16 + 1
        assert len(enc.board_planes(enc.observation_tensor(game(index).new_state(seed=1), 0))) == 12 + n
    assert encoding(1).num_actions == encoding(0).num_actions == encoding(2).num_actions


def test_the_viewer_sees_its_own_consort_and_scores() -> None:
    """With ``consort=queen`` red surrounds the queen; the score block is the viewer's first."""
    state = build({"2,0": "red Bishop", "4,0": "blue Joker", "-1,0": "blue Bishop"}, consort="queen")
    enc = RoyalCourtEncoding(state.game)
    for seat in (0, 1):
        tensor = enc.observation_tensor(state, seat)
        planes = enc.board_planes(tensor)
        own = planes[enc.plane_index["own_consort"]]
        name = "queen" if seat == 0 else "king"
        assert np.array_equal(own, planes[enc.plane_index[name]])
        scores = tensor[enc.offsets["scores"] : enc.offsets["scores"] + 3]
        mine, theirs = state.consort_score(seat), state.consort_score(1 - seat)
        assert list(scores) == pytest.approx([mine / 20, theirs / 20, (mine - theirs) / 20])
        seat_block = tensor[enc.offsets["seat"] : enc.offsets["seat"] + 4]
        assert seat_block[3] == (name == "king")


def test_zones_and_pending_effects_are_vectors() -> None:
    """The tiles of each seat (zone, play, removed; side), the Diplomat's forced tile, the
    Courtisan's block, the pending effect and the resolving archetype."""
    state = build({"1,1": "red Joker", "2,1": "blue Spy"}, removed=["blue Captain"], inactive=["red Healer"])
    enc = encoding(0)
    n = enc.count
    names = state.game.archetypes.by_name
    tensor = enc.observation_tensor(state, 0)
    own = tensor[enc.offsets["tiles_own"] : enc.offsets["tiles_own"] + 5 * n].reshape(n, 5)
    opp = tensor[enc.offsets["tiles_opp"] : enc.offsets["tiles_opp"] + 5 * n].reshape(n, 5)
    assert list(own[names["joker"].number]) == [0, 0, 1, 0, 0]
    assert list(own[names["healer"].number]) == [0, 1, 0, 0, 0]
    assert list(opp[names["captain"].number]) == [0, 0, 0, 0, 1]
    assert list(opp[names["assassin"].number]) == [1, 0, 0, 0, 0]
    assert own.sum() == opp.sum() == n
    run(state, "play Assassin 1,-1")
    tensor = enc.observation_tensor(state, 0)
    pending = tensor[enc.offsets["pending"] : enc.offsets["pending"] + 15]
    assert pending[0] == 1 and pending[9] == 1 and pending.sum() == 2  # remove, opponent-active-in-play
    assert tensor[enc.offsets["source_arch"] + names["assassin"].number] == 1
    targets = enc.board_planes(tensor)[enc.plane_index["targets"]]
    assert targets.sum() == 1
    state = build({"1,1": "red Joker"})
    run(state, "play Diplomat 1,-1", "force Spy")
    forced = enc.observation_tensor(state, 1)[enc.offsets["forced"] : enc.offsets["forced"] + 2 * n]
    assert forced.reshape(2, n)[0, names["spy"].number] == 1 and forced.sum() == 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), other=st.integers(0, 2**31 - 1), plies=st.integers(1, 200))
def test_tensor_does_not_depend_on_the_seed(seed: int, other: int, plies: int) -> None:
    """Two states with the same history and different seeds give the same tensors, ids and masks."""
    state = random_state(0, seed, plies)
    twin = regalia.replay(state.record(), seed=other, game=game(0))
    enc = encoding(0)
    check_twins(enc, state, twin)


def test_cells_and_positions_are_inverse() -> None:
    for frame in ("royal", "board", "origin"):
        enc = encoding(0, frame=frame)
        check_cells_and_positions(enc, random_state(0, 3, 120))


def test_layout_describes_the_tensor() -> None:
    for index in range(len(OPTION_SETS)):
        check_layout(encoding(index))


def test_bad_ids_and_arguments() -> None:
    enc = encoding(0)
    state = random_state(0, 2, 3)
    assert state.current_player in (0, 1) and state.phase != P_TARGET
    for bad in (-1, enc.num_actions):
        with pytest.raises(EncodingError):
            enc.action_from_id(state, bad)
    for wrong_step in (enc.id_zone, enc.id_consort, enc.plane_target * enc.cells):
        with pytest.raises(EncodingError, match=r"no ability|no Wizard"):
            enc.action_from_id(state, wrong_step)
    with pytest.raises(EncodingError):
        enc.observation_tensor(state, 2)
    with pytest.raises(EncodingError):
        enc.action_id(state, "pass")
    with pytest.raises(EncodingError):
        enc.action_id(state, state.parse_action("move 0,0 0,2"))
    with pytest.raises(EncodingError):
        enc.action_id(regalia.load_game("two-heirs").new_state(seed=1), state.legal_actions()[0])
    for kwargs in ({"size": 3}, {"size": 6, "height": 2}, {"frame": "elsewhere"}, {"size": "12"}):
        with pytest.raises(EncodingError):
            RoyalCourtEncoding(game(0), **kwargs)
    with pytest.raises(EncodingError):
        RoyalCourtEncoding(regalia.load_game("two-heirs"))
    check_end(enc, random_state(0, 2, 10_000))


def test_the_plugin_declares_this_encoding_and_the_kit_checks_it() -> None:
    plugin = regalia.game_plugin("royal-court")
    assert plugin.has_encoding
    enc = plugin.encoding(game(0))
    assert isinstance(enc, RoyalCourtEncoding)
    assert enc.num_actions == encoding(0).num_actions
    for options in ({}, {"archetypes": DESIGNER}):
        report = check_game("royal-court", games=2, seed=1, **options)
        assert "encoding" in report.passed, report


def test_regalia_fit_on_variants() -> None:
    """``regalia fit`` reaches the encoding through the plugin: the default holds every state of a
    few random games, a 5x5 window does not."""
    result = run_fit(
        "royal-court", "random", games=4, seed=1, encodings=[{}, {"size": 5}, {"frame": "board"}]
    )
    default, tiny, board = result.variants
    assert default.states == tiny.states == board.states == sum(g.decisions for g in result.results)
    assert tiny.states_fit < tiny.states
    assert default.states_fit == default.states
