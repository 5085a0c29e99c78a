"""The observation tensors and legal ids of every game stay what they were before the encodings
were rewritten for speed (numpy bulk writes): ``data/observations.json`` was recorded from the
former element-wise encodings over the random positions of every option set of every game
(:func:`regalia.testing.random_positions`), every seat. Each tensor is compared by a digest of its
bytes (shape, dtype and every value), one record in 15 value by value too (to show a difference).

The Royal Court's records were written again each time the order of its legal actions changed
(its frontier read off the counts, then kept with them, 2026-12-07), which changed its random
positions: at each new position the engine and encoding before the change gave the same tensors
and the same set of legal ids (the position reached from the same actions); the records keep the
new order of the ids.

The same tensors must come out of the PettingZoo environment, and after undo, replay and clone."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from .configs import need

np = need("numpy")

from regalia.core.registry import load_game  # noqa: E402
from regalia.rl.common import make_encoding  # noqa: E402
from regalia.testing import random_positions  # noqa: E402

DATA = json.loads((Path(__file__).parent / "data" / "observations.json").read_text())
CASES = sorted({(r["game"], json.dumps(r["options"], sort_keys=True)) for r in DATA["positions"]})


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g + o for g, o in CASES])
def test_tensors_and_legal_ids_equal_the_recorded_ones(game_id: str, options: str) -> None:
    opts: dict[str, Any] = json.loads(options)
    records = [r for r in DATA["positions"] if r["game"] == game_id and r["options"] == opts]
    game = load_game(game_id, **opts)
    enc = make_encoding(game)
    done = 0
    for seed in DATA["seeds"]:
        expected = iter(r for r in records if r["seed"] == seed)
        for state in random_positions(game.new_state(seed=seed), seed=seed + 100, every=DATA["every"]):
            record = next(expected)
            assert record["ply"] == state.ply
            assert _digest(json.dumps(enc.legal_ids(state)).encode()) == record["legal"], state.ply
            for seat in range(state.num_players):
                tensor = enc.observation_tensor(state, seat)
                assert tensor.dtype == np.float32 and tensor.shape == enc.observation_shape
                if "full" in record:
                    index, values = record["full"][seat]
                    want = np.zeros(enc.observation_shape, dtype=np.float32)
                    want[index] = values
                    differ = np.flatnonzero(tensor != want)
                    assert not len(differ), (state.ply, seat, [enc_block(enc, int(i)) for i in differ[:5]])
                assert _digest(tensor.tobytes()) == record["obs"][seat], (state.ply, seat)
            done += 1
        assert next(expected, None) is None
    assert done == len(records)


def enc_block(enc: Any, index: int) -> str:
    """The layout block an index of the tensor lies in (for a failure's message)."""
    at = 0
    for name, shape, _ in enc.layout():
        size = int(np.prod(shape))
        if index < at + size:
            return f"{name}[{index - at}]"
        at += size
    return f"?{index}"


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g + o for g, o in CASES])
def test_an_encoding_used_all_game_long_draws_what_a_fresh_one_draws(game_id: str, options: str) -> None:
    """What an encoding keeps between calls (plane offsets per board code, road planes) is static:
    a game's positions, their clones and the clones moved on, drawn by one encoding all along, give
    the tensors of a fresh encoding and of the position itself."""
    game = load_game(game_id, **json.loads(options))
    warm = make_encoding(game)
    rng = random.Random(7)
    for state in random_positions(game.new_state(seed=3), seed=4, every=5):
        fresh = make_encoding(game)
        twin = state.clone()
        for seat in range(state.num_players):
            tensor = warm.observation_tensor(state, seat)
            assert (tensor == fresh.observation_tensor(state, seat)).all()
            assert (tensor == warm.observation_tensor(twin, seat)).all()
        assert warm.legal_ids(state) == fresh.legal_ids(twin)
        if not twin.is_terminal():  # the clone moved on: drawn anew, the original unchanged
            legal = twin.legal_actions()
            twin.apply(legal[rng.randrange(len(legal))])
            for seat in range(state.num_players):
                assert (warm.observation_tensor(twin, seat) == fresh.observation_tensor(twin, seat)).all()
                assert (warm.observation_tensor(state, seat) == fresh.observation_tensor(state, seat)).all()


def test_the_environment_observes_what_the_encoding_draws() -> None:
    """PettingZoo's observations are the encoding's tensors of the environment's state, and the mask
    its legal ids, at every step of a few games of every game."""
    need("pettingzoo")
    from regalia.rl.pettingzoo import env

    for game_id in sorted({g for g, _ in CASES}):
        environment = env(game_id)
        fresh = make_encoding(environment.game)
        pick = random.Random(1)
        for seed in range(2):
            environment.reset(seed=seed)
            for agent in environment.agent_iter():
                observation, _, termination, truncation, _ = environment.last()
                state, seat = environment.state, environment.agent_seat[agent]
                assert (observation["observation"] == fresh.observation_tensor(state, seat)).all()
                if termination or truncation:
                    environment.step(None)
                    continue
                ids = fresh.legal_ids(state)
                assert np.flatnonzero(observation["action_mask"]).tolist() == ids
                environment.step(ids[pick.randrange(len(ids))])
