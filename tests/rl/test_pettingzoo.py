"""The PettingZoo environment (regalia.rl.pettingzoo): PettingZoo's own API and seed tests for every
game and its main options, decision points only, masks equal to the legal sets, rewards equal to
the returns, the truncation of a position without ids, and rendering."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from .configs import CONFIGS, config_id, need

need("pettingzoo")
np = need("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from regalia.core.game import CHANCE  # noqa: E402
from regalia.core.registry import game_ids  # noqa: E402
from regalia.rl.common import NO_ID  # noqa: E402
from regalia.rl.pettingzoo import RegaliaEnv, env  # noqa: E402

#: What api_test says of every classic environment with a dict observation (PettingZoo's own
#: chess, go, connect four... are on its list of exceptions; ours cannot be).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


def play(e: RegaliaEnv, seed: int, check: Any = None) -> tuple[int, dict[str, float]]:
    """A random game through the AEC loop; ``check(env, agent, observation)`` at each decision.
    Returns the decisions made and each agent's reward at its end."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _info = e.last()
        if termination or truncation:
            final[agent] = reward
            e.step(None)
            continue
        if check is not None:
            check(e, agent, observation)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        decisions += 1
    return decisions, final


def test_every_registered_game_is_tested() -> None:
    assert {game_id for game_id, _ in CONFIGS} == set(game_ids())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, **options), num_cycles=1000)
    unexpected = {str(w.message) for w in caught} - set(EXPECTED_WARNINGS)
    assert not unexpected


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_seed_test(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    seed_test(lambda: env(game_id, **options), num_cycles=1000)


def test_agents_are_the_seats_agents_play() -> None:
    assert env("two-heirs").possible_agents == ["white_0", "blue_1"]
    solo = env("two-heirs", solo=True)
    assert solo.possible_agents == ["player_0"]  # Henry is played by the rules
    assert env("carcassonne", players=4).possible_agents == ["red_0", "blue_1", "green_2", "yellow_3"]
    assert env("royal-court").possible_agents == ["red_0", "blue_1"]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_agents_see_only_their_decisions_and_masks_are_the_legal_sets(
    config: tuple[str, dict[str, Any]],
) -> None:
    game_id, options = config
    e = env(game_id, **options)

    def check(e: RegaliaEnv, agent: str, observation: dict[str, Any]) -> None:
        state = e.core
        seat = e.agent_seat[agent]
        assert state.current_player == seat  # never chance, never an automaton
        assert seat not in state.automaton_seats()
        mask = observation["action_mask"]
        legal = state.legal_actions()
        ids = [int(i) for i in np.flatnonzero(mask)]
        assert ids == e.encoding.legal_ids(state)
        if e.encoding.fits(state):
            assert sorted(e.action_id(a) for a in legal) == ids
        assert all(e.action(i) in legal for i in ids)
        assert observation["observation"].shape == e.encoding.observation_shape
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()

    decisions, final = play(e, 7, check)
    assert decisions > 10
    assert e.core.is_terminal()
    assert decisions == sum(1 for p, _ in e.core.actors() if p in e.seats)  # every decision, once
    returns = e.core.returns()
    assert final == {a: returns[e.agent_seat[a]] for a in e.possible_agents}
    assert not e.agents


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_chance_follows_the_reset_seed(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    e = env(game_id, **options)
    e.reset(seed=3)
    first = e.core.history
    e.reset(seed=3)
    assert e.core.history == first
    e.reset(seed=4)
    assert e.core.history != first
    e.reset()  # no seed: the generator goes on
    assert e.core.history != first


def test_solo_game_plays_henry_inside_the_environment() -> None:
    e = env("two-heirs", solo=True)
    _, final = play(e, 2)
    henry = [p for p, _ in e.core.actors() if p == 1]
    assert henry, "Henry acted"
    assert list(final) == ["player_0"] and final["player_0"] in (-1.0, 1.0)


def test_an_illegal_id_is_refused() -> None:
    e = env("royal-court")
    e.reset(seed=1)
    observation, *_ = e.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    ply = e.core.ply
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    assert e.core.ply == ply


def test_a_position_without_ids_truncates_the_episode() -> None:
    """A 3 x 3 window soon leaves a drawn tile no placement with an id: the episode is truncated for
    every agent with zero rewards, and the info says why."""
    e = env("carcassonne", encoding={"size": 3})
    partial = []

    def check(e: RegaliaEnv, agent: str, observation: dict[str, Any]) -> None:
        ids = [int(i) for i in np.flatnonzero(observation["action_mask"])]
        assert ids == e.encoding.legal_ids(e.core)
        if not e.encoding.fits(e.core):  # some legal actions have no id: the game goes on with the others
            assert 0 < len(ids) < len(e.core.legal_actions())
            partial.append(agent)

    _, final = play(e, 1, check)
    assert partial
    assert not e.core.is_terminal()
    assert final == {"red_0": 0.0, "blue_1": 0.0}
    state = e.core
    assert state.current_player >= 0 and state.legal_actions() and not e.encoding.legal_ids(state)
    e.reset(seed=1)
    for _agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if truncation:
            assert info == {"truncated": NO_ID} and not termination and reward == 0.0
            assert not observation["action_mask"].any()
            e.step(None)
            continue
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_the_api_test_passes_with_truncated_episodes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("carcassonne", encoding={"size": 3}), num_cycles=200)


@pytest.mark.parametrize("game_id", game_ids())
def test_render_ansi(game_id: str) -> None:
    e = env(game_id, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and e.game.seat_names()[0].lower() in text.lower()


def test_render_without_a_mode_warns() -> None:
    e = env("royal-court")
    e.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        env("royal-court", render_mode="human")


@pytest.mark.parametrize("game_id", game_ids())
def test_render_rgb_array(game_id: str) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("rgb_array needs cairosvg and the cairo library")
    e = env(game_id, render_mode="rgb_array")
    e.reset(seed=1)
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 100 and picture.shape[1] > 100
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 2


def test_chance_is_never_an_agent() -> None:
    e = env("two-heirs")
    e.reset(seed=5)
    assert e.core.current_player != CHANCE
    assert e.core.ply > 0  # the setup's draws were made inside reset
