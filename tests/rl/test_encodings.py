"""What the adapters rely on, for every registered game and every option set its plugin lists: the
action bijection round-trips (``action_from_id(action_id(a)) == a``) for every legal action of the
states of seeded random games, chance nodes included; the mask equals the legal set when the state
fits, and holds exactly the legal actions with an id when it does not; at a chance node, one id per
outcome (the ids of the legal outcomes) with probabilities summing to 1; observations have the
declared shape. The games' own encoding tests (tests/games/*/test_encoding*.py) go further."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .configs import need

np = need("numpy")

from games.encoding_checks import check_ids, check_observation  # noqa: E402
from regalia.core.game import CHANCE  # noqa: E402
from regalia.core.registry import game_ids, game_plugin, load_game  # noqa: E402
from regalia.rl.common import make_encoding  # noqa: E402

OPTION_SETS = [
    (game_id, dict(options)) for game_id in game_ids() for options in game_plugin(game_id).check_options
]

#: Random games per option set, and one state in STRIDE gets the observation check too.
GAMES = 6
STRIDE = 10


@pytest.mark.parametrize(
    ("game_id", "options"),
    OPTION_SETS,
    ids=[g + "".join(f",{k}={v}" for k, v in o.items()) for g, o in OPTION_SETS],
)
def test_action_ids_round_trip_and_masks_equal_legal_sets(game_id: str, options: dict[str, Any]) -> None:
    game = load_game(game_id, **options)
    enc = make_encoding(game)
    states = not_fitting = chance_nodes = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while True:
            left_out = check_ids(enc, state)
            not_fitting += bool(left_out)
            if state.ply % STRIDE == 0 or state.is_terminal():
                check_observation(enc, state)
            states += 1
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                chance = enc.chance_ids(state)
                ids = [i for i, _ in chance]
                assert sorted(ids) == enc.legal_ids(state)  # unique: one id per outcome
                assert all(p > 0 for _, p in chance) and abs(sum(p for _, p in chance) - 1) < 1e-9
                chance_nodes += 1
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert states > 20 * GAMES and chance_nodes >= GAMES
    assert not_fitting <= states // 100  # the default windows fit real games (docs/encodings.md)


#: A setting other than the default for each game's encoding (its window's size).
SMALL_WINDOWS = {
    "two-heirs": {"size": 7},
    "carcassonne": {"size": 9},
    "royal-court": {"size": 6, "height": 5},
}


@pytest.mark.parametrize("game_id", sorted(SMALL_WINDOWS))
def test_an_encoding_pickles_as_its_class_game_and_settings(game_id: str) -> None:
    """Encoding.__reduce__: an unpickled encoding is made anew with the same settings, so it gives
    the same ids and observations (the compiled build's encodings pickle only this way)."""
    import pickle

    game = load_game(game_id)
    enc = make_encoding(game, SMALL_WINDOWS[game_id])
    assert enc.settings == {**enc.settings, **SMALL_WINDOWS[game_id]}
    copy = pickle.loads(pickle.dumps(enc))
    assert type(copy) is type(enc) and copy.settings == enc.settings
    assert (copy.num_actions, copy.observation_shape) == (enc.num_actions, enc.observation_shape)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        state.advance(rng)
        if state.is_terminal():
            break
        assert sorted(copy.legal_actions_by_id(state)) == sorted(enc.legal_actions_by_id(state))
        seat = state.current_player
        assert np.array_equal(copy.observation_tensor(state, seat), enc.observation_tensor(state, seat))
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("small", [False, True], ids=["default window", "small window"])
@pytest.mark.parametrize("game_id", sorted(SMALL_WINDOWS))
def test_observations_after_the_ids_are_listed_equal_a_fresh_encodings(game_id: str, small: bool) -> None:
    """An environment lists the legal ids of the seat to act, then observes. An encoding may keep
    what it found while listing them (whether every legal action fits its window) for the
    observation: every seat's tensor must then be the one an encoding that never listed the ids
    makes, after every action of seeded random games. The small windows cut many positions, so
    the kept answer is both True and False."""
    game = load_game(game_id)
    settings = SMALL_WINDOWS[game_id] if small else None
    listing, fresh = make_encoding(game, settings), make_encoding(game, settings)
    fitting = set()
    for seed in range(4):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while True:
            state.advance(rng)
            if state.is_terminal():
                break
            listing.legal_actions_by_id(state)
            fitting.add(fresh.fits(state))
            for seat in range(game.num_players):
                mine = listing.observation_tensor(state, seat)
                assert np.array_equal(mine, fresh.observation_tensor(state, seat)), (seed, state.ply, seat)
            state.apply(rng.choice(state.legal_actions()))
    assert True in fitting
    assert not small or False in fitting


def test_a_wrong_setting_type_is_an_encoding_error() -> None:
    """A setting of the wrong type (a window size given as text) is refused with EncodingError in
    both builds (the compiled build would otherwise raise its own TypeError)."""
    from regalia.core.encoding import EncodingError

    for game_id in SMALL_WINDOWS:
        with pytest.raises(EncodingError, match="window size"):
            make_encoding(load_game(game_id), {"size": "9"})
        with pytest.raises(EncodingError, match="frame"):
            make_encoding(load_game(game_id), {"frame": 3})
