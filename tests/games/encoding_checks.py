"""The checks every game's encoding tests share (``tests/games/<game>/test_encoding.py``): random
states, ids in range and unique, the mask equal to the legal set (or to its part with ids), round
trips, finite tensors of constant shape, and twins that differ only in the seed. Import it after
``pytest.importorskip("numpy")``.

The conformance kit (:mod:`regalia.testing`) checks less: only fitting, non-terminal states."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from regalia.core.encoding import EncodingError
from regalia.core.game import CHANCE


def random_step(state: Any, rng: random.Random) -> None:
    """One ply: chance with its probabilities, a seat's action uniformly at random."""
    legal = state.legal_actions()
    state.apply(state.sample_chance(rng) if state.current_player == CHANCE else rng.choice(legal))


def random_state(game: Any, seed: int, plies: int) -> Any:
    """A state of ``game`` after ``plies`` random plies (chance with its probabilities), or the end."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


def check_ids(enc: Any, state: Any, match: str | None = None) -> list[Any]:
    """Ids in range and unique; the mask is the legal set when the state fits (else exactly the legal
    actions with an id); every legal action with an id round-trips; ``fits`` tells which; an action
    left out raises :class:`EncodingError` (matching ``match``). Returns the actions left out."""
    legal = state.legal_actions()
    ids = enc.legal_ids(state)
    size = enc.num_chance_outcomes if state.current_player == CHANCE else enc.num_actions
    assert enc.size(state) == size
    assert len(set(ids)) == len(ids)
    assert all(0 <= i < size for i in ids)
    mask = enc.legal_mask(state)
    assert mask.shape == (size,) and mask.dtype == np.int8
    assert list(np.flatnonzero(mask)) == ids
    with_id = [a for a in legal if enc.representable(state, a)]
    for a in with_id:
        assert enc.action_from_id(state, enc.action_id(state, a)) == a
    assert sorted(enc.action_id(state, a) for a in with_id) == ids
    for i in ids:
        assert enc.action_from_id(state, i) in legal
    left_out = [a for a in legal if a not in with_id]
    if enc.fits(state):
        assert len(with_id) == len(legal)
    else:
        assert len(with_id) < len(legal)
        with pytest.raises(EncodingError, match=match):
            enc.action_id(state, left_out[0])
    return left_out


def check_observation(enc: Any, state: Any) -> list[Any]:
    """Each seat's tensor: the declared shape, float32, finite. Returns them, by seat."""
    tensors = []
    for seat in range(state.num_players):
        tensor = enc.observation_tensor(state, seat)
        assert tensor.shape == enc.observation_shape
        assert tensor.dtype == np.float32
        assert np.all(np.isfinite(tensor))
        tensors.append(tensor)
    return tensors


def check_twins(enc: Any, state: Any, twin: Any) -> None:
    """Two states with the same history (and different seeds): the same tensors and ids."""
    for seat in range(state.num_players):
        assert np.array_equal(enc.observation_tensor(state, seat), enc.observation_tensor(twin, seat))
    assert enc.legal_ids(state) == enc.legal_ids(twin)


def check_layout(enc: Any, offsets: bool = True) -> None:
    """``layout()`` names each part once, with a meaning, and covers the tensor; with ``offsets``,
    each part that is not a board plane starts at its offset."""
    layout = enc.layout()
    names = [name for name, _, _ in layout]
    assert len(set(names)) == len(names)
    assert sum(int(np.prod(shape)) for _, shape, _ in layout) == enc.observation_shape[0]
    assert all(meaning for _, _, meaning in layout)
    if offsets:
        at = 0
        for name, shape, _ in layout:
            if not name.startswith("board."):
                assert enc.offsets[name] == at
            at += int(np.prod(shape))


def check_end(enc: Any, end: Any) -> None:
    """At the end of a game no id stands for an action and the mask is empty."""
    assert end.is_terminal()
    with pytest.raises(EncodingError, match="over"):
        enc.action_from_id(end, 0)
    assert enc.legal_ids(end) == [] and not enc.legal_mask(end).any()


def check_cells_and_positions(enc: Any, state: Any) -> None:
    """In each seat's frame, ``cell`` and ``position`` are inverse over the window's cells."""
    for seat in range(state.num_players):
        frame = enc.frame(state, seat)
        for cell in range(enc.cells):
            assert enc.cell(frame, enc.position(frame, cell)) == cell
