"""The OpenSpiel games (regalia.rl.openspiel): registration and parameters, the game type each game
declares, OpenSpiel's own consistency test (random_sim_test), explicit chance, observations,
resampling, the enforced max_game_length, and OpenSpiel's own MCTSBot and ISMCTSBot finishing a
game of each registered game (tiny budgets: these check the plumbing, not the play)."""

from __future__ import annotations

from typing import Any

import pytest

from .configs import CONFIGS, config_id, need

pyspiel = need("pyspiel")
np = need("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from regalia.core.errors import OptionError  # noqa: E402
from regalia.core.registry import game_ids  # noqa: E402
from regalia.rl.common import game_traits  # noqa: E402
from regalia.rl.openspiel import LENGTH_MARGIN, RegaliaGame, RegaliaState, game_name, register_all  # noqa: E402

NAMES = register_all()

Information = pyspiel.GameType.Information


def load(game_id: str, options: dict[str, Any], **extra: str) -> Any:
    """``pyspiel.load_game`` of a regalia game with options, by its name and a parameter dict."""
    params = {k: (str(v) if isinstance(v, str) else v) for k, v in {**options, **extra}.items()}
    return pyspiel.load_game(NAMES[game_id], params)


def play(game: Any, choose: Any, seed: int) -> Any:
    """A whole game: chance with its probabilities, seats by ``choose(player, state)``."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = choose(state.current_player(), state)
            assert action in state.legal_actions()
            state.apply_action(int(action))
    return state


def test_every_registered_game_is_registered() -> None:
    assert set(NAMES) == set(game_ids())
    assert NAMES["two-heirs"] == "python_regalia_two_heirs" == game_name("two-heirs")
    assert NAMES["royal-court"] == "python_regalia_royal_court"
    assert set(NAMES.values()) <= set(pyspiel.registered_names())
    assert register_all() == NAMES  # again: nothing happens


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_game_type_and_info(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    game = load(game_id, options)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == Information.PERFECT_INFORMATION  # nothing hidden but future chance
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    enc = game.encoding
    assert game.num_distinct_actions() == enc.num_actions
    assert game.max_chance_outcomes() == enc.num_chance_outcomes
    assert game.num_players() == game.regalia_game.num_players
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == list(enc.observation_shape)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)


@pytest.mark.parametrize("information", ["auto", "imperfect"])
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_sim_test(config: tuple[str, dict[str, Any]], information: str) -> None:
    """OpenSpiel's own checks over random games: legal actions sorted and in range, chance outcomes
    summing to 1, clones and serialization (replayed from the action history) equal to the state,
    returns, observation and information-state strings and tensors of every player."""
    game_id, options = config
    pyspiel.random_sim_test(load(game_id, options, information=information), 2, True, False)


def test_parameters_are_the_game_options() -> None:
    game = pyspiel.load_game('python_regalia_carcassonne(players=4,shrines="5")')
    assert game.num_players() == 4
    assert game.regalia_game.options.shrines == "5"
    by_dict = pyspiel.load_game("python_regalia_carcassonne", {"shrines": "6"})
    assert by_dict.regalia_game.options.shrines == "6"
    assert 'shrines="6"' in str(by_dict)  # quoted: OpenSpiel would read 6 as a number
    assert pyspiel.load_game(str(by_dict)).regalia_game.options == by_dict.regalia_game.options
    heirs = pyspiel.load_game("python_regalia_two_heirs(sets=warfare+crafts+guard,roads=False)")
    assert list(heirs.regalia_game.options.sets) == ["warfare", "crafts", "guard"]
    solo = pyspiel.load_game("python_regalia_two_heirs(solo=True,level=2)")
    assert solo.regalia_game.options.level == 2
    assert pyspiel.load_game("python_regalia_two_heirs").regalia_game.options.level is None
    assert pyspiel.load_game(str(heirs)).regalia_game.options == heirs.regalia_game.options
    assert RegaliaGame("royal-court", turn_cap=12).regalia_game.options.turn_cap == 12
    with pytest.raises(OptionError, match="information"):
        pyspiel.load_game("python_regalia_royal_court(information=maybe)")
    imperfect = pyspiel.load_game("python_regalia_royal_court(information=imperfect)")
    assert imperfect.get_type().information == Information.IMPERFECT_INFORMATION
    assert RegaliaGame("royal-court", information="imperfect").get_type().information == (
        Information.IMPERFECT_INFORMATION
    )
    with pytest.raises(OptionError, match="max_game_length"):
        pyspiel.load_game("python_regalia_royal_court(max_game_length=-1)")


def test_solo_automaton_never_acts_in_openspiel() -> None:
    game = load("two-heirs", {"solo": True})
    seen = set()

    def first(player: int, state: Any) -> int:
        seen.add(player)
        return int(state.legal_actions()[0])

    state = play(game, first, 3)
    assert seen == {0}
    assert any(p == 1 for p, _ in state.core.actors())  # Henry played, inside the state
    assert sum(state.returns()) == 0


def test_states_observations_and_clones() -> None:
    game = load("royal-court", {})
    state = game.new_initial_state()
    state.apply_action(0)  # the coin: red first
    assert state.current_player() == 0
    legal = state.legal_actions()
    assert legal == sorted(legal) and legal == game.encoding.legal_ids(state.core)
    tensor = np.array(state.observation_tensor(0), dtype=np.float32)
    assert np.array_equal(tensor, game.encoding.observation_tensor(state.core, 0))
    assert '"viewer":0' in state.observation_string(0)
    assert state.information_state_string(0) == "-1: first red"
    clone = state.clone()
    clone.apply_action(legal[0])
    assert state.history() == [0] and clone.history() == [0, legal[0]]
    assert state.core.ply == 1 and clone.core.ply == 2
    assert state.action_to_string(0, legal[0]).startswith("play ")
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(game.num_distinct_actions() - 1)  # pass: only in step 3
    assert state.history() == [0]


def test_observer_dict_names_the_encoding_blocks() -> None:
    from open_spiel.python.observation import make_observation

    game = load("carcassonne", {})
    observation = make_observation(game)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    observation.set_from(state, 0)
    names = [name for name, _, _ in game.encoding.layout()]
    assert list(observation.dict) == names
    assert observation.tensor.shape == game.encoding.observation_shape


def test_resample_from_infostate_is_determinize() -> None:
    game = load("carcassonne", {})
    state = play_until(game, plies=20, seed=1)
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.core.to_json() == state.core.to_json()  # nothing is hidden in Carcassonne
    assert sample.core is not state.core
    assert sample.history() == state.history()
    assert sample.legal_actions() == state.legal_actions()


def test_resample_from_infostate_calls_determinize_for_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("royal-court", {})
    state = play_until(game, plies=9, seed=2)
    player = state.current_player()
    calls: list[tuple[int, float]] = []
    original = type(state.core).determinize

    def determinize(self: Any, seat: int, rng: Any) -> Any:
        calls.append((seat, rng.random()))
        return original(self, seat, rng)

    monkeypatch.setattr(type(state.core), "determinize", determinize)
    for value in (0.25, 0.25, 0.75):
        state.resample_from_infostate(player, lambda value=value: value)
    other = 1 - player
    state.resample_from_infostate(other, lambda: 0.5)
    assert [seat for seat, _ in calls] == [player, player, player, other]
    assert calls[0][1] == calls[1][1] != calls[2][1]  # the generator is seeded from the sampler


def test_resample_refuses_a_sample_whose_ids_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    """An id chosen in a sample is applied to the real state: a determinization with other legal
    ids (an encoding whose ids depend on what the seat cannot see) is refused."""
    game = load("royal-court", {})
    state = play_until(game, plies=9, seed=2)
    elsewhere = play_until(game, plies=30, seed=3).core
    assert game.encoding.legal_ids(elsewhere) != state.legal_actions()
    monkeypatch.setattr(type(state.core), "determinize", lambda self, seat, rng: elsewhere.clone())
    with pytest.raises(ValueError, match="other legal ids"):
        state.resample_from_infostate(state.current_player(), lambda: 0.5)


def play_until(game: Any, plies: int, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_default_max_game_length_is_a_margin_over_real_games(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    game = load(game_id, options)
    assert game.max_game_length() == LENGTH_MARGIN * game_traits(game.regalia_game).longest
    rng = np.random.RandomState(5)
    for seed in range(3):  # other games than the probe's
        state = play(game, lambda player, s: int(rng.choice(s.legal_actions())), seed)
        assert not state.stopped() and len(state.history()) <= state.core.ply
        assert state.core.ply * 2 < game.max_game_length()


def test_max_game_length_is_enforced() -> None:
    """A game that reaches its max_game_length is terminal with zero returns: OpenSpiel's
    algorithms may rely on the bound (AlphaZero sizes a histogram of game lengths by it)."""
    game = pyspiel.load_game("python_regalia_carcassonne(max_game_length=25)")
    assert game.max_game_length() == 25
    rng = np.random.RandomState(0)
    state = play(game, lambda player, s: int(rng.choice(s.legal_actions())), 0)
    assert len(state.history()) == 25 == state.core.ply  # no automaton in Carcassonne
    assert state.is_terminal() and state.stopped() and not state.core.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    with pytest.raises(Exception, match="over"):
        state.apply_action(0)
    shorter = pyspiel.load_game("python_regalia_two_heirs(solo=True,max_game_length=40)")
    state = play(shorter, lambda player, s: int(s.legal_actions()[0]), 1)
    assert state.stopped() and len(state.history()) <= 40 <= state.core.ply  # Henry's steps count


def test_a_position_without_ids_is_terminal_with_zero_returns() -> None:
    game = RegaliaGame("carcassonne", encoding={"size": 3})
    rng = np.random.RandomState(0)
    state = play(game, lambda player, s: int(rng.choice(s.legal_actions())), 0)
    assert state.stopped() and not state.core.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []


def rollout_evaluator(seed: int) -> Any:
    # rollouts cut after 40 actions (a cut rollout's value is 0): Carcassonne has ~230 actions
    return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed), max_length=40)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_mcts_bot_finishes_a_game(config: tuple[str, dict[str, Any]]) -> None:
    game_id, options = config
    game = load(game_id, options)
    bots = [
        mcts.MCTSBot(
            game, 2.0, 4, rollout_evaluator(seat), random_state=np.random.RandomState(seat), solve=False
        )
        for seat in range(game.num_players())
    ]
    state = play(game, lambda player, s: bots[player].step(s), 1)
    assert state.is_terminal() and state.core.is_terminal()
    assert abs(sum(state.returns())) < 1e-9 and max(state.returns()) > -1


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_ismcts_bot_finishes_a_game(
    config: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ISMCTSBot insists on an imperfect-information game type: the parameter ``information``
    declares one (information sets are then single states), and its searches resample with
    ``resample_from_infostate`` (counted: the bot's own resampler is not used instead)."""
    game_id, options = config
    game = load(game_id, options, information="imperfect")
    bots = [
        ismcts.ISMCTSBot(game, rollout_evaluator(seat), 2.0, 4, random_state=np.random.RandomState(seat))
        for seat in range(game.num_players())
    ]
    resamples = 0
    original = RegaliaState.resample_from_infostate

    def counted(self: Any, player: int, sampler: Any) -> Any:
        nonlocal resamples
        resamples += 1
        return original(self, player, sampler)

    monkeypatch.setattr(RegaliaState, "resample_from_infostate", counted)
    state = play(game, lambda player, s: bots[player].step(s), 2)
    assert state.is_terminal() and state.core.is_terminal()
    assert abs(sum(state.returns())) < 1e-9
    assert resamples > 0
