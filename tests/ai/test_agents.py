"""Agents: legality on every registered game, levels and specs, greedy and MCTS behaviour."""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regalia.ai import (
    Agent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    agent_from_spec,
    agent_levels,
    agent_names,
    make_agent,
    parse_agent_spec,
)
from regalia.ai.base import evaluate_after, heuristic_values, score_difference
from regalia.ai.mcts import BY_GAME
from regalia.core.errors import OptionError
from regalia.core.game import Game
from regalia.core.record import replay
from regalia.core.registry import game_ids, load_game
from regalia.testing import random_positions

from .toygame import EvalToyGame, EvalToyState, ToyGame, ToyState, dealt


def _games() -> list[tuple[str, Game[Any]]]:
    games: list[tuple[str, Game[Any]]] = [
        ("toy", ToyGame()),
        ("toy-3p", ToyGame(players=3)),
        ("toy-solo", ToyGame(players=1)),
    ]
    for gid in game_ids():
        games.append((gid, load_game(gid)))
    if "two-heirs" in game_ids():
        games.append(("two-heirs-solo", load_game("two-heirs", solo=True)))
    return games


GAMES = _games()


def _random_state(game: Game[Any], seed: int, plies: int) -> Any:
    """A state after ``plies`` random steps (chance with its probabilities), at a seat's decision."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    state.advance(rng)
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        state.advance(rng)
    return state


AGENT_SPECS = [
    "random",
    "greedy",
    "mcts:iterations=8",
    "mcts:iterations=6:rollout=greedy:rollout_sample=3",
    "mcts:iterations=8:rollout=policy:depth=3",
    "mcts:iterations=8:depth=3",
]


@pytest.mark.parametrize("spec", AGENT_SPECS)
@pytest.mark.parametrize(("label", "game"), GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), plies=st.integers(0, 150), rng_seed=st.integers(0, 1000))
def test_agents_only_return_legal_actions(
    label: str, game: Game[Any], spec: str, seed: int, plies: int, rng_seed: int
) -> None:
    """Whatever the position, an agent's choice is legal there and the state is left unchanged."""
    state = _random_state(game, seed, plies)
    if state.is_terminal():
        return
    before = (list(state.history), state.current_player, state.scores())
    agent = agent_from_spec(spec)
    action = agent.choose(state, random.Random(rng_seed))
    assert action in state.legal_actions()
    assert state.is_legal(action)
    assert (list(state.history), state.current_player, state.scores()) == before


@pytest.mark.parametrize(("label", "game"), GAMES, ids=[g[0] for g in GAMES])
def test_whole_games_with_mixed_agents(label: str, game: Game[Any]) -> None:
    """MCTS (with tree reuse) and greedy play whole games without an illegal action."""
    state = game.new_state(11)
    agents: list[Agent] = [MCTSAgent(iterations=4), GreedyAgent(), RandomAgent()]
    rng = random.Random(5)
    while True:
        state.advance(rng)
        if state.is_terminal():
            break
        state.apply(agents[state.current_player % 3].choose(state, rng))
    assert len(state.returns()) == state.num_players


def test_registry_names_and_levels() -> None:
    assert agent_names()[:3] == ["random", "greedy", "mcts"]
    assert {"expectimax", "openspiel:mcts", "openspiel:ismcts"} <= set(agent_names())
    assert agent_levels("mcts") == ["easy", "medium", "hard"]
    assert agent_levels("greedy") == []
    easy = make_agent("mcts", "easy")
    assert isinstance(easy, MCTSAgent)
    assert (easy.iterations, easy.seconds, easy.name) == (60, None, "mcts:easy")
    medium = make_agent("mcts", "medium")
    assert isinstance(medium, MCTSAgent) and medium.iterations == 300
    hard = make_agent("mcts", level="hard")
    assert isinstance(hard, MCTSAgent) and hard.seconds == 1.0 and hard.iterations is None
    assert hard.min_iterations >= medium.iterations
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), Agent)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: make_agent("alphazero"), ["unknown agent 'alphazero'", "random, greedy, mcts"]),
        (lambda: make_agent("mcts", "superb"), ["unknown level 'superb'", "easy, medium, hard"]),
        (lambda: make_agent("greedy", "hard"), ["no levels", "mcts"]),
        (lambda: make_agent("mcts", speed=3), ["unknown parameter(s) speed", "iterations"]),
        (lambda: make_agent("mcts", iterations=0), ["iterations"]),
        (lambda: make_agent("mcts", rollout="smart"), ["random, greedy, policy"]),
        (lambda: agent_from_spec("mcts:easy:hard"), ["two levels"]),
        (lambda: agent_from_spec(""), ["valid agents"]),
        (lambda: agent_from_spec("greedy:sample=0"), ["sample"]),
    ],
)
def test_bad_agents_raise_option_errors_listing_valid_ones(call: Any, words: list[str]) -> None:
    with pytest.raises(OptionError) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_spec_strings() -> None:
    assert parse_agent_spec("mcts") == ("mcts", None, {})
    assert parse_agent_spec(" mcts:hard:rollout=greedy ") == ("mcts", "hard", {"rollout": "greedy"})
    assert parse_agent_spec("mcts:iterations=500:c=0.7:reuse=false") == (
        "mcts",
        None,
        {"iterations": 500, "c": 0.7, "reuse": False},
    )
    agent = agent_from_spec("mcts:hard:iterations=50")
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.seconds, agent.name) == (50, None, "mcts:hard:iterations=50")


def test_greedy_takes_the_best_card() -> None:
    """One-ply lookahead on the score difference takes the highest market card."""
    state = dealt(ToyGame(), 3)
    best = max(range(3), key=lambda i: state.market[i])
    assert GreedyAgent().choose(state, random.Random(0)) == f"take {best}"


def test_greedy_uses_the_evaluation_hook() -> None:
    """A state's ``evaluate(seat)`` replaces the score difference."""
    state = dealt(EvalToyGame(), 3)
    seen: list[int] = []
    original = type(state).evaluate

    def spy(self: Any, seat: int) -> float:
        seen.append(seat)
        return float(original(self, seat))

    type(state).evaluate = spy  # type: ignore[method-assign]
    try:
        GreedyAgent().choose(state, random.Random(0))
    finally:
        type(state).evaluate = original  # type: ignore[method-assign]
    assert seen and set(seen) == {0}


def test_greedy_breaks_ties_with_the_rng() -> None:
    state = dealt(ToyGame(cards=3), 0)
    state.apply("take 0")
    assert state.current_player == 0  # the deck is empty: no draw
    # after one take: "end" or another take; each take gains, so never "end"
    choices = {GreedyAgent().choose(state, random.Random(s)) for s in range(20)}
    assert "end" not in choices


def test_mcts_is_reproducible_with_an_iteration_budget() -> None:
    state = dealt(ToyGame(cards=15), 4)
    picks = {MCTSAgent(iterations=60).choose(state, random.Random(9)) for _ in range(3)}
    assert len(picks) == 1


def test_mcts_does_not_peek_at_future_draws() -> None:
    """Two states with the same history but other seeds (so other future draws from their own
    chance source) get the same search: MCTS samples chance from its own generator."""
    a = dealt(ToyGame(cards=15), 4)
    b = replay(a.record(), seed=99, game=a.game)
    assert a.seed != b.seed and a.to_json() == b.to_json()
    agent_a, agent_b = MCTSAgent(iterations=80), MCTSAgent(iterations=80)
    root_a = agent_a.search(a, random.Random(2))
    root_b = agent_b.search(b, random.Random(2))
    stats_a = {k: (n.visits, n.total) for k, n in root_a.children.items()}
    stats_b = {k: (n.visits, n.total) for k, n in root_b.children.items()}
    assert stats_a == stats_b


def test_mcts_beats_random() -> None:
    wins = 0
    for i in range(6):
        state = dealt(ToyGame(cards=12), i)
        agents: list[Agent] = [MCTSAgent(iterations=60), RandomAgent()]
        if i % 2:
            agents.reverse()
        rng = random.Random(i)
        while True:
            state.advance(rng)
            if state.is_terminal():
                break
            state.apply(agents[state.current_player].choose(state, rng))
        wins += state.returns()[i % 2] > 0
    assert wins >= 5


def test_mcts_reuses_the_subtree_within_a_turn() -> None:
    """After the first step of a turn the kept subtree becomes the root of the next search."""
    state = dealt(ToyGame(cards=15), 2)
    agent = MCTSAgent(iterations=100)
    rng = random.Random(0)
    first = agent.choose(state, rng)
    kept = agent._next_root
    assert kept is not None and kept.action == first and kept.visits > 0
    state.apply(first)
    state.advance(random.Random(1))  # chance refills the market: the kept subtree survives it
    assert state.current_player == 0  # the same seat's second step
    root = agent._reused_root(state, 0)
    assert root is kept and root.parent is None
    # a different position (another seat, or another history) starts afresh
    agent.choose(state, rng)
    other = dealt(ToyGame(cards=15), 3)
    assert agent._reused_root(other, 0) is not kept


def test_mcts_without_reuse_and_reset() -> None:
    state = dealt(ToyGame(), 1)
    agent = MCTSAgent(iterations=20, reuse=False)
    agent.choose(state, random.Random(0))
    assert agent._next_root is None
    agent = MCTSAgent(iterations=20)
    agent.choose(state, random.Random(0))
    agent.reset()
    assert agent._next_root is None and agent._expect is None


def test_mcts_time_budget() -> None:
    state = dealt(ToyGame(cards=30), 1)
    agent = MCTSAgent(seconds=0.05)
    agent.choose(state, random.Random(0))
    assert agent.last_iterations > 0
    assert 0.04 <= agent.last_seconds < 0.5


def test_mcts_time_budget_with_a_floor() -> None:
    state = dealt(ToyGame(cards=30), 1)
    agent = MCTSAgent(seconds=0.001, min_iterations=300)
    agent.choose(state, random.Random(0))
    assert agent.last_iterations >= 300


def test_mcts_deadline_cuts_a_huge_search_and_plays_its_best_move_so_far() -> None:
    state = dealt(ToyGame(cards=30), 1)
    for budget in ({"iterations": 10**9}, {"seconds": 1e9}, {"seconds": 1e9, "min_iterations": 10**9}):
        agent = MCTSAgent(**budget, deadline_seconds=0.05)
        action = agent.choose(state, random.Random(0))
        assert state.is_legal(action)
        assert agent.last_cut and agent.last_iterations > 0, budget
        assert 0.04 <= agent.last_seconds < 0.5, budget


def test_mcts_iteration_budget_within_the_deadline_stays_reproducible() -> None:
    state = dealt(ToyGame(cards=15), 4)
    free = MCTSAgent(iterations=60).search(state, random.Random(9))
    agent = MCTSAgent(iterations=60, deadline_seconds=30.0)
    bounded = agent.search(state, random.Random(9))
    assert not agent.last_cut and agent.last_iterations == 60
    assert {k: (n.visits, n.total) for k, n in free.children.items()} == {
        k: (n.visits, n.total) for k, n in bounded.children.items()
    }


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:c=nan",
        "mcts:c=inf",
        "mcts:seconds=inf",
        "mcts:seconds=nan",
        "mcts:deadline_seconds=0",
        "mcts:margin=nan",
    ],
)
def test_mcts_refuses_parameters_that_are_not_finite_numbers_in_range(spec: str) -> None:
    with pytest.raises(OptionError, match=r"finite|between"):
        agent_from_spec(spec)


def test_mcts_single_legal_action_needs_no_search() -> None:
    state = dealt(ToyGame(), 1)
    state.apply("take 0")
    state.advance(random.Random(0))
    state.apply("take 0")
    state.advance(random.Random(0))
    agent = MCTSAgent(iterations=50)
    assert agent.choose(state, random.Random(0)) == "end"
    assert agent.last_iterations == 0


def test_depth_capped_rollouts_use_the_evaluation() -> None:
    state = dealt(EvalToyGame(cards=20), 1)
    agent = MCTSAgent(iterations=50, depth=2, eval_scale=5.0)
    root = agent.search(state, random.Random(0))
    assert sum(ch.visits for ch in root.children.values()) == 50
    assert all(-1.0 <= ch.total / ch.visits <= 1.0 for ch in root.children.values())


class _PolicyToy(EvalToyState):
    """The toy with an informed rollout policy that ends the turn whenever it may."""

    def policy_action(self, rng: random.Random) -> str:
        legal = self.legal_actions()
        return "end" if "end" in legal else legal[int(rng.random() * len(legal))]


class _PolicyToyGame(EvalToyGame):
    def initial_state(self) -> ToyState:
        return _PolicyToy(self)


def test_policy_rollouts_play_the_games_policy_and_random_rollouts_do_not() -> None:
    """``rollout=policy`` plays :meth:`State.policy_action` in its rollouts (here one that ends the
    turn where it may), random rollouts never call it, and the search's values differ from random
    rollouts' on the same draws; by default ``policy_action`` is the uniform pick."""
    state = dealt(_PolicyToyGame(cards=20), 1)
    calls: list[str] = []
    original = _PolicyToy.policy_action

    def counted(self: _PolicyToy, rng: random.Random) -> str:
        action = original(self, rng)
        calls.append(action)
        return action

    _PolicyToy.policy_action = counted  # type: ignore[method-assign]
    try:
        random_root = MCTSAgent(iterations=60, depth=4, rollout="random").search(state, random.Random(0))
        assert calls == []
        policy_root = MCTSAgent(iterations=60, depth=4, rollout="policy").search(state, random.Random(0))
    finally:
        _PolicyToy.policy_action = original  # type: ignore[method-assign]
    assert "end" in calls
    totals = {a: ch.total for a, ch in random_root.children.items()}
    assert totals != {a: ch.total for a, ch in policy_root.children.items()}
    plain = dealt(EvalToyGame(cards=20), 1)
    assert plain.policy_action(random.Random(7)) == plain.uniform_action(random.Random(7).random())


class _TellsCAndRollout(_PolicyToyGame):
    """A game whose search defaults name the exploration constant and the rollout policy."""

    def search_defaults(self) -> dict[str, Any]:
        return {**super().search_defaults(), "c": 0.3, "rollout": "policy"}


def test_c_and_rollout_left_to_the_game_are_what_its_search_defaults_say() -> None:
    """``c`` and ``rollout`` default to ``"game"`` (:meth:`Game.search_defaults`; docs/ai.md,
    "Agents"): a search leaving them to this game is the search given ``c=0.3`` and
    ``rollout=policy``; a value given overrides the game's, and a game that names none searches
    with ``c=1`` and random rollouts."""
    state = dealt(_TellsCAndRollout(cards=20), 1)

    def statistics(agent: MCTSAgent, at: Any = state) -> dict[Any, tuple[int, float]]:
        root = agent.search(at, random.Random(3))
        return {a: (ch.visits, ch.total) for a, ch in root.children.items()}

    by_game = statistics(MCTSAgent(iterations=80, depth=4))
    assert by_game == statistics(MCTSAgent(iterations=80, depth=4, c=0.3, rollout="policy"))
    assert by_game == statistics(agent_from_spec("mcts:iterations=80:depth=4:c=game:rollout=game"))
    assert by_game != statistics(MCTSAgent(iterations=80, depth=4, c=1.0, rollout="random"))
    plain = dealt(_PolicyToyGame(cards=20), 1)
    assert statistics(MCTSAgent(iterations=80, depth=4), plain) == statistics(
        MCTSAgent(iterations=80, depth=4, c=1.0, rollout="random"), plain
    )
    for bad, message in (("c", "c must be"), ("rollout", "unknown rollout")):
        with pytest.raises(OptionError, match=message):
            MCTSAgent(**{bad: "gam"})


class _ShortRollouts(EvalToyGame):
    rollout_depth = 0  # the game asks searches to value a state at once with evaluate()


def test_rollouts_stop_at_the_games_rollout_depth_unless_told() -> None:
    """``depth`` defaults to the game's ``rollout_depth``: here 0, so every leaf is valued by the
    evaluation (not 0); ``depth=None`` plays to the end, and every game of this toy is a draw (0)."""
    state = dealt(_ShortRollouts(cards=9, outcome="draw"), 1)
    by_game = MCTSAgent(iterations=40, margin=0.0).search(state, random.Random(0))
    assert any(ch.total != 0.0 for ch in by_game.children.values())
    to_end = MCTSAgent(iterations=40, margin=0.0, depth=None).search(state, random.Random(0))
    assert all(ch.total == 0.0 for ch in to_end.children.values())
    assert EvalToyGame.rollout_depth is None


class _CountingState(EvalToyState):
    """The toy with a second heuristic that counts its calls (the class keeps the count)."""

    calls: ClassVar[list[int]] = []

    def evaluate_counting(self, seat: int) -> float:
        _CountingState.calls.append(seat)
        return 0.0


class _TwoHeuristics(_ShortRollouts):
    """Rollouts valued at once; the heuristic ``counting`` beside ``evaluate`` and ``score``."""

    def initial_state(self) -> ToyState:
        return _CountingState(self)

    def heuristics(self) -> dict[str, str]:
        return {**super().heuristics(), "counting": "evaluate_counting"}


def test_the_named_heuristic_values_every_leaf_and_ranks_the_widened_actions() -> None:
    """``heuristic=NAME`` (Game.heuristics): the search values its cut rollouts and ranks its
    widened actions by that heuristic alone; the default stays the game's ``evaluate``."""
    state = dealt(_TwoHeuristics(cards=9, outcome="draw"), 1)
    _CountingState.calls.clear()
    counting = MCTSAgent(iterations=30, margin=0.0, widen=1.0, heuristic="counting")
    root = counting.search(state, random.Random(0))
    assert len(_CountingState.calls) >= 30  # every iteration's leaf, and the root's ranking
    assert all(ch.total == 0.0 for ch in root.children.values())  # the counting heuristic says 0
    _CountingState.calls.clear()
    default = MCTSAgent(iterations=30, margin=0.0).search(state, random.Random(0))
    assert not _CountingState.calls and any(ch.total != 0.0 for ch in default.children.values())
    assert MCTSAgent(heuristic="counting").parameters()["heuristic"] == "counting"


class _ZeroSumCounting(_TwoHeuristics):
    """The same, saying its heuristics are zero-sum with two seats."""

    def zero_sum_heuristics(self) -> bool:
        return True


def test_a_zero_sum_heuristic_is_computed_once_a_leaf_for_both_seats() -> None:
    """Game.zero_sum_heuristics: with two seats a cut rollout is valued with one call of the
    heuristic (for seat 0), seat 1's value its negation; a game that does not say so is asked for
    each seat."""
    for game, seats_asked in (
        (_TwoHeuristics(cards=9, outcome="draw"), [0, 1]),
        (_ZeroSumCounting(cards=9, outcome="draw"), [0]),
    ):
        state = dealt(game, 1)
        _CountingState.calls.clear()
        MCTSAgent(iterations=30, margin=0.0, heuristic="counting").search(state, random.Random(0))
        leaves = len(_CountingState.calls) // len(seats_asked)
        assert leaves >= 30
        assert _CountingState.calls == seats_asked * leaves


@pytest.mark.parametrize(
    "options",
    [
        {"game_id": "two-heirs", "solo": True, "level": 3},
        {"game_id": "carcassonne"},
        {"game_id": "royal-court"},
    ],
)
def test_heuristic_values_once_for_both_seats_equal_each_seats_own(options: dict[str, Any]) -> None:
    """The three games say their heuristics are zero-sum; valued once, the positions of a random
    game have the values of each seat's own call (the conformance kit checks the heuristics)."""
    options = dict(options)
    game = load_game(options.pop("game_id"), **options)
    assert game.zero_sum_heuristics()
    for state in random_positions(game.new_state(seed=4), 4, every=7):
        for method in game.heuristics().values():
            for zeros in (None, [1.5, -1.5]):
                once = heuristic_values(state, 10.0, zeros, method, zero_sum=True)
                assert once == heuristic_values(state, 10.0, zeros, method)


def test_an_unknown_heuristic_is_refused_with_the_games_heuristics() -> None:
    state = dealt(_TwoHeuristics(cards=9), 1)
    with pytest.raises(
        OptionError, match="has no heuristic 'luck'; its heuristics: evaluate, score, counting"
    ):
        MCTSAgent(iterations=5, heuristic="luck").search(state, random.Random(0))
    with pytest.raises(OptionError, match="heuristic must"):
        MCTSAgent(heuristic=3)


def test_each_game_declares_the_rollout_depth_docs_ai_md_gives() -> None:
    """docs/ai.md: rollouts play to the end in The Two Heirs and stop after 10 seat decisions in
    Carcassonne and Intrigue in the Royal Court."""
    depths = {gid: load_game(gid).rollout_depth for gid in ("two-heirs", "carcassonne", "royal-court")}
    assert depths == {"two-heirs": None, "carcassonne": 10, "royal-court": 10}


def test_an_explicit_depth_overrides_the_games() -> None:
    """``depth=0`` on a game that plays rollouts to the end values every leaf by the evaluation;
    ``depth="game"`` (also from a spec, ``mcts:depth=game``) is the game's own, here to the end."""
    state = dealt(EvalToyGame(cards=9, outcome="draw"), 1)
    cut = MCTSAgent(iterations=40, margin=0.0, depth=0).search(state, random.Random(0))
    assert any(ch.total != 0.0 for ch in cut.children.values())
    spec = agent_from_spec("mcts:iterations=40:margin=0:depth=game")
    for agent in (MCTSAgent(iterations=40, margin=0.0, depth="game"), spec):
        own = agent.search(state, random.Random(0))
        assert all(ch.total == 0.0 for ch in own.children.values())
    short = dealt(_ShortRollouts(cards=9, outcome="draw"), 1)
    told = agent_from_spec("mcts:iterations=40:margin=0:depth=none").search(short, random.Random(0))
    assert all(ch.total == 0.0 for ch in told.children.values())


def _root_statistics(agent: MCTSAgent, state: Any) -> dict[Any, tuple[int, float]]:
    root = agent.search(state, random.Random(5))
    return {a: (ch.visits, ch.total) for a, ch in root.children.items()}


def test_the_solo_game_cuts_rollouts_and_values_them_by_the_margin() -> None:
    """docs/ai.md, "Against Henry": in The Two Heirs' solo game a search that leaves ``depth``,
    ``margin``, ``c``, ``heuristic`` and ``rollout`` to the game cuts its rollouts after
    ``SOLO_ROLLOUT_DEPTH`` decisions, values finished ones by the margin alone and searches with
    ``c=0.3``, the heuristic ``treasures`` and the rollout policy (run 68's SPRT), the very search
    those parameters given make; the two-player game keeps whole rollouts and every other default,
    and a parameter given overrides the game."""
    from regalia.games.two_heirs.game import SOLO_ROLLOUT_DEPTH

    solo = load_game("two-heirs", solo=True)
    assert solo.search_defaults() == {
        "depth": SOLO_ROLLOUT_DEPTH,
        "widen": None,
        "margin": 1.0,
        "c": 0.3,
        "heuristic": "treasures",
        "rollout": "policy",
    }
    assert load_game("two-heirs").search_defaults() == {"depth": None, "widen": None}
    state = solo.new_state(seed=3)
    while state.current_player != 0 or len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    by_game = _root_statistics(MCTSAgent(iterations=60), state)
    solo_search = {"c": 0.3, "heuristic": "treasures", "rollout": "policy"}
    told = _root_statistics(
        MCTSAgent(iterations=60, depth=SOLO_ROLLOUT_DEPTH, margin=1.0, **solo_search), state
    )
    assert by_game == told
    before = {"c": 1.0, "heuristic": "evaluate", "rollout": "random"}  # the defaults before run 68
    assert by_game != _root_statistics(
        MCTSAgent(iterations=60, depth=SOLO_ROLLOUT_DEPTH, margin=1.0, **before), state
    )
    to_end = _root_statistics(MCTSAgent(iterations=60, depth=None), state)
    assert to_end != by_game
    # rollouts to the end finish: their values are the margin's alone unless a margin is given
    assert to_end == _root_statistics(MCTSAgent(iterations=60, depth=None, margin=1.0), state)
    assert to_end != _root_statistics(MCTSAgent(iterations=60, depth=None, margin=0.3), state)


def _solo_opening() -> Any:
    """The Two Heirs' solo game at its first choice: the player trails Henry by the 50 points of
    his ten treasures to come ("Solo scoring"), so every cut rollout is far behind."""
    state = load_game("two-heirs", solo=True, level=3).new_state(seed=1)
    state.advance(random.Random(1))
    assert state.current_player == 0 and len(state.legal_actions()) > 1
    assert score_difference(state, 0) <= -40
    return state


def test_centre_values_rollouts_from_the_roots_score() -> None:
    """docs/ai.md (``centre=true``; runs 20 to 22): far behind at the root, every rollout of an
    uncentred search is valued about -1 (``tanh`` is flat there), so the root's actions cannot be
    told apart; a centred search measures each from the root's evaluation and tells them apart."""
    state = _solo_opening()
    flat = MCTSAgent(iterations=200, centre=False).search(state, random.Random(0))
    means = [ch.total / ch.visits for ch in flat.children.values()]
    assert all(m < -0.99 for m in means)
    centred = MCTSAgent(iterations=200, centre=True).search(state, random.Random(0))
    means = [ch.total / ch.visits for ch in centred.children.values()]
    assert all(-0.99 < m < 0.99 for m in means)
    assert max(means) - min(means) > 0.1


def test_centre_changes_nothing_at_an_even_root() -> None:
    """At a root whose evaluation and score difference are 0 for every seat, centring subtracts 0:
    the same seeded search but for the determinization the centre is measured on (which draws
    from the generator first), so the same search seeded the same after it."""
    state = load_game("carcassonne").new_state(seed=4)
    state.advance(random.Random(4))
    assert all(score_difference(state, p) == 0 for p in range(state.num_players))
    centred = MCTSAgent(iterations=50, centre=True)
    rng = random.Random(7)
    root = centred.search(state, rng)
    assert centred._zeros == [0.0] * state.num_players
    assert centred._diffs == [0.0] * state.num_players
    plain = MCTSAgent(iterations=50, centre=False)
    again = random.Random(7)
    state.determinize(state.current_player, again)  # the draw the centred search made first
    other = plain.search(state, again)
    assert {a: (ch.visits, ch.total) for a, ch in root.children.items()} == {
        a: (ch.visits, ch.total) for a, ch in other.children.items()
    }


class _TurnState(EvalToyState):
    """The toy with a heuristic that notes how many takes of the turn had been made at each leaf
    it values (the class keeps them)."""

    takes_at_leaves: ClassVar[list[int]] = []

    def evaluate_noting(self, seat: int) -> float:
        _TurnState.takes_at_leaves.append(self.takes)
        return 0.0


class _TurnGame(EvalToyGame):
    def initial_state(self) -> ToyState:
        return _TurnState(self)

    def heuristics(self) -> dict[str, str]:
        return {**super().heuristics(), "noting": "evaluate_noting"}


@pytest.mark.parametrize(("cut", "mid_turn"), [("decision", True), ("turn", False)])
def test_cut_turn_values_a_cut_rollout_at_a_turns_start(cut: str, mid_turn: bool) -> None:
    """docs/ai.md (``cut``): a rollout cut right after its decision is often valued in the middle
    of a turn (the toy's turn: one or two takes, then ``end``); ``cut=turn`` plays the turn out,
    so every cut rollout is valued where the next seat begins its turn (no take made yet)."""
    state = dealt(_TurnGame(cards=30), 2)
    _TurnState.takes_at_leaves.clear()
    agent = MCTSAgent(iterations=60, depth=1, cut=cut, heuristic="noting", margin=0.0)
    agent.search(state, random.Random(0))
    leaves = _TurnState.takes_at_leaves
    assert len(leaves) >= 50
    assert any(leaves) is mid_turn, leaves
    assert agent.parameters()["cut"] == cut


@pytest.mark.parametrize("cut", ["later", 1, None])
def test_a_bad_cut_is_refused(cut: object) -> None:
    with pytest.raises(OptionError, match="cut"):
        MCTSAgent(cut=cut)


class _TurnCutGame(ToyGame):
    def search_defaults(self) -> dict[str, Any]:
        return {**super().search_defaults(), "cut": "turn"}


def test_the_games_say_where_a_cut_rollout_stops() -> None:
    """``cut`` is by default the game's (``search_defaults``): ``decision`` unless it names one,
    and what the agent is given overrides what the game names."""
    for game, told, turn in [
        (ToyGame(), BY_GAME, False),
        (_TurnCutGame(), BY_GAME, True),
        (_TurnCutGame(), "decision", False),
        (ToyGame(), "turn", True),
    ]:
        agent = MCTSAgent(iterations=1, cut=told)
        agent.search(dealt(game, 1), random.Random(0))
        assert agent._cut is turn, (type(game).__name__, told)
    for gid, real in _games():
        assert "cut" not in real.search_defaults(), gid  # none names one: each cuts at a decision


@pytest.mark.parametrize("centre", ["yes", 1, None])
def test_a_bad_centre_is_refused(centre: object) -> None:
    with pytest.raises(OptionError, match="centre"):
        MCTSAgent(centre=centre)


@pytest.mark.parametrize("margin", ["big", -0.1, 1.5, math.nan])
def test_a_bad_margin_is_refused(margin: object) -> None:
    with pytest.raises(OptionError, match="margin"):
        MCTSAgent(margin=margin)


@pytest.mark.parametrize("depth", ["deep", -1, True, 1.5])
def test_a_bad_depth_is_refused(depth: object) -> None:
    with pytest.raises(OptionError, match="depth"):
        MCTSAgent(depth=depth)  # type: ignore[arg-type]


def test_margin_mixes_the_score_difference_into_finished_rollouts() -> None:
    state = dealt(ToyGame(cards=9, outcome="draw"), 1)
    flat = MCTSAgent(iterations=40, margin=0.0).search(state, random.Random(0))
    assert all(ch.total == 0.0 for ch in flat.children.values())  # every game a draw
    shaped = MCTSAgent(iterations=40, margin=0.5).search(state, random.Random(0))
    assert any(ch.total != 0.0 for ch in shaped.children.values())
    with pytest.raises(OptionError, match="margin"):
        MCTSAgent(margin=2.0)


def _royal_court_placement() -> Any:
    """A Royal Court position where the seat to act places a tile: some 150 legal actions."""
    state = load_game("royal-court").new_state(3)
    state.advance(random.Random(3))
    assert len(state.legal_actions()) > 100
    return state


def test_progressive_widening_searches_only_the_best_actions_by_the_evaluation() -> None:
    """docs/ai.md, "Progressive widening": with ``widen=1`` a root of 150-odd actions searched 100
    times has tried at most ceil(sqrt(100)) = 10 of them, each among the 10 best by the evaluation
    one step ahead; without widening the same search spreads over far more actions."""
    state = _royal_court_placement()
    seat = state.current_player
    after = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(a)
        after[a] = evaluate_after(child, seat)
    tenth = sorted(after.values(), reverse=True)[9]
    widened = MCTSAgent(iterations=100, widen=1).search(state, random.Random(0))
    assert 2 <= len(widened.children) <= 10
    assert all(after[a] >= tenth for a in widened.children)
    flat = MCTSAgent(iterations=100, widen=None).search(state, random.Random(0))
    assert len(flat.children) > 50


def test_widening_defaults_to_the_games_and_a_spec_can_turn_it_off() -> None:
    """``widen`` defaults to the game's ``widening`` (docs/ai.md gives each game's); ``widen=none``
    in a spec turns it off, ``widen=0`` too; a bad factor is refused."""
    state = _royal_court_placement()
    factor = load_game("royal-court").widening
    assert factor is not None and factor > 0
    by_game = MCTSAgent(iterations=100).search(state, random.Random(0))
    assert len(by_game.children) <= math.ceil(factor * 10)
    for spec in ("mcts:iterations=100:widen=none", "mcts:iterations=100:widen=0"):
        off = agent_from_spec(spec).search(state, random.Random(0))
        assert len(off.children) > 50
    for bad in (-1, "wide", math.inf, True):
        with pytest.raises(OptionError, match="widen"):
            MCTSAgent(widen=bad)  # type: ignore[arg-type]
