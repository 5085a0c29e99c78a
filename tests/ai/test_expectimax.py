"""The expectimax agent (regalia.ai.expectimax): legal whole games of every shipped game, the known
best move in constructed Carcassonne positions, Star1 and Star2 pruning giving the values of full
expectimax on random trees with chance (a toy game built here), spec parsing, levels, budgets and
reproducibility."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Self

import pytest

import regalia
from games.carcassonne.builders import BLUE, RED, new, turn
from regalia.ai import agent_from_spec, agent_names, make_agent, parse_agent_spec
from regalia.ai.expectimax import ExpectimaxAgent
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE, JSON, SPECTATOR, TERMINAL, Game, State
from regalia.core.options import Options, option

from .toygame import EvalToyGame, dealt

# -- a toy game that is a random tree with chance -----------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TreeOptions(Options):
    tree: int = option(0, "the seed of the tree", minimum=0, maximum=10**6)
    height: int = option(5, "the longest path", minimum=1, maximum=8)


@dataclasses.dataclass
class TreeNode:
    kind: int  # 0 or 1: that seat decides; CHANCE; TERMINAL: a leaf
    children: list[tuple[str, float]]  # (action, probability: for chance nodes)
    value: float = 0.0  # a leaf's return for seat 0


def build_tree(seed: int, height: int) -> dict[str, TreeNode]:
    """Node path (actions joined by "/") -> node: the root is seat 0's, below it any mix of seat
    0, seat 1 and chance nodes (2 to 4 children, random probabilities), leaves of random value."""
    rng = random.Random(seed)
    nodes: dict[str, TreeNode] = {}

    def grow(path: str, level: int) -> None:
        if level == height or (level > 1 and rng.random() < 0.15):
            nodes[path] = TreeNode(TERMINAL, [], round(rng.uniform(-1, 1), 3))
            return
        kind = 0 if level == 0 else rng.choice([0, 1, 1, CHANCE, CHANCE])
        count = rng.randint(1 if level else 2, 4)
        weights = [rng.uniform(0.05, 1) for _ in range(count)]
        total = sum(weights)
        nodes[path] = TreeNode(kind, [(f"a{i}", w / total) for i, w in enumerate(weights)])
        for action, _ in nodes[path].children:
            grow(f"{path}/{action}", level + 1)

    grow("", 0)
    return nodes


class TreeGame(Game[str]):
    id: ClassVar[str] = "toy-tree"
    name: ClassVar[str] = "Toy tree"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_class: ClassVar[type[Options]] = TreeOptions
    options: TreeOptions

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.nodes = build_tree(self.options.tree, self.options.height)

    def initial_state(self) -> TreeState:
        return TreeState(self)

    def state_from_json(self, doc: JSON) -> TreeState:
        state = TreeState(self)
        state.path = str(doc["path"])
        return state


class TreeState(State[str]):
    def __init__(self, game: TreeGame) -> None:
        super().__init__(game)
        self.nodes = game.nodes
        self.path = ""

    @property
    def node(self) -> TreeNode:
        return self.nodes[self.path]

    @property
    def current_player(self) -> int:
        return self.node.kind

    def is_terminal(self) -> bool:
        return self.node.kind == TERMINAL

    def legal_actions(self) -> list[str]:
        return [a for a, _ in self.node.children]

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(self.node.children) if self.node.kind == CHANCE else []

    def check(self, action: str) -> None:
        assert action in self.legal_actions()

    def _apply(self, action: str) -> None:
        self.path = f"{self.path}/{action}"

    def scores(self) -> list[int]:
        return [0, 0]

    def returns(self) -> list[float]:
        v = self.node.value if self.is_terminal() else 0.0
        return [v, -v]

    def clone(self) -> Self:
        other = type(self).__new__(type(self))  # (object.__new__ refuses a compiled base class)
        for name, value in vars(self).items():  # (a compiled base: the new object has no __dict__ yet)
            setattr(other, name, value)
        self._copy_base(other)
        return other

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        return {"path": self.path}

    def notation(self, action: str) -> str:
        return action

    def parse_action(self, text: str) -> str:
        return text

    def to_json(self) -> JSON:
        return {"path": self.path}


def expectimax_value(nodes: dict[str, TreeNode], path: str) -> float:
    """Full expectimax, written plainly: max for seat 0, min for seat 1, the mean at chance."""
    node = nodes[path]
    if node.kind == TERMINAL:
        return node.value
    values = [expectimax_value(nodes, f"{path}/{a}") for a, _ in node.children]
    if node.kind == CHANCE:
        return sum(p * v for (_, p), v in zip(node.children, values, strict=True))
    return max(values) if node.kind == 0 else min(values)


@pytest.mark.parametrize("prune", ["none", "star1", "star2"])
def test_pruning_gives_the_values_of_full_expectimax(prune: str) -> None:
    nodes_visited = 0
    for seed in range(40):
        game = TreeGame(tree=seed, height=6)
        state = game.initial_state()
        agent = ExpectimaxAgent(depth=20, probes=None, prune=prune, margin=0.0)
        action, value = agent.search(state, random.Random(seed))
        exact = expectimax_value(game.nodes, "")
        assert value == pytest.approx(exact, abs=1e-9), seed
        best = max(expectimax_value(game.nodes, f"/{a}") for a in state.legal_actions())
        assert expectimax_value(game.nodes, f"/{action}") == pytest.approx(best, abs=1e-9)
        nodes_visited += agent.last_nodes
    if prune != "none":
        full = 0
        for seed in range(40):
            agent = ExpectimaxAgent(depth=20, probes=None, prune="none", margin=0.0)
            agent.search(TreeGame(tree=seed, height=6).initial_state(), random.Random(seed))
            full += agent.last_nodes
        assert nodes_visited < full


def test_pruning_agrees_at_every_depth_on_the_toy_market() -> None:
    game = EvalToyGame(cards=9)
    for seed in range(6):
        state = dealt(game, seed)
        for depth in (1, 2, 3, 4):
            values = {
                prune: ExpectimaxAgent(depth=depth, probes=None, prune=prune).search(state, random.Random(0))[
                    1
                ]
                for prune in ("none", "star1", "star2")
            }
            assert values["star1"] == pytest.approx(values["none"], abs=1e-9)
            assert values["star2"] == pytest.approx(values["none"], abs=1e-9)


# -- constructed positions ------------------------------------------------------------------------


def test_takes_the_completing_placement_worth_many_points() -> None:
    """Red's knight sits in the start city, lengthened by an F with a pennant; red draws the E
    that closes it (8 points): every depth places it there."""
    state = new()
    turn(state, "F 0,1 90 city N", RED)
    turn(state, "U 1,0 0", BLUE)
    state.apply_text("draw E")
    for depth in (1, 2, 3):
        action = ExpectimaxAgent(depth=depth).choose(state, random.Random(depth))
        assert state.notation(action) == "place E 0,2 180"


def test_depth_two_sees_the_follower_that_scores_a_completed_city() -> None:
    """Red draws an E: at 0,1 turned 180 it closes the start city, worth 4 to a knight placed on
    it in the same turn. Depth 2 (the tile, then the follower) plays both."""
    state = new()
    state.apply_text("draw E")
    agent = ExpectimaxAgent(depth=2)
    action = agent.choose(state, random.Random(0))
    assert state.notation(action) == "place E 0,1 180"
    state.apply(action)
    follower = agent.choose(state, random.Random(0))
    assert state.notation(follower) == "follower city S"


# -- whole games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["carcassonne", "two-heirs", "royal-court"])
def test_plays_legal_moves_for_a_whole_game(game_id: str) -> None:
    state = regalia.load_game(game_id).new_state(seed=4)
    rng = random.Random(4)
    agents = [ExpectimaxAgent(depth=1, probes=2), agent_from_spec("expectimax:depth=2:probes=2")]
    if game_id == "royal-court":  # some 150 actions a decision: depth 1 on both sides
        agents[1] = ExpectimaxAgent(depth=1)
    decisions = 0
    while True:
        state.advance(rng)
        if state.is_terminal():
            break
        action = agents[state.current_player % 2].choose(state, rng)
        state.apply(action)  # checked: raises if illegal
        decisions += 1
    assert decisions > 10
    assert len(state.returns()) == state.num_players


def test_a_time_budget_deepens_and_stays_in_time() -> None:
    state = dealt(EvalToyGame(cards=12), 1)
    agent = ExpectimaxAgent(seconds=0.2)
    action = agent.choose(state, random.Random(0))
    assert action in state.legal_actions()
    assert agent.last_depth >= 2
    # One deepening step past the budget is refused, not run; the slack is for a loaded machine.
    assert agent.last_seconds < 0.2 + 0.3


def test_the_deadline_cuts_even_depth_one() -> None:
    state = regalia.load_game("royal-court").new_state(seed=1)
    state.advance(random.Random(1))
    agent = ExpectimaxAgent(depth=4, deadline_seconds=0.05)
    action = agent.choose(state, random.Random(0))
    assert action in state.legal_actions()
    assert agent.last_cut and agent.last_seconds < 0.5


def test_reproducible_from_the_seed() -> None:
    state = regalia.load_game("carcassonne").new_state(seed=7)
    state.advance(random.Random(7))
    for _ in range(6):
        state.apply(random.Random(state.ply).choice(state.legal_actions()))
        state.advance(random.Random(7))
    picks = {
        state.notation(ExpectimaxAgent(depth=3, probes=3).choose(state, random.Random(11))) for _ in range(3)
    }
    assert len(picks) == 1


# -- the registry -------------------------------------------------------------------------------------


def test_registered_with_levels_and_parameters() -> None:
    assert "expectimax" in agent_names()
    assert parse_agent_spec("expectimax:hard:probes=3") == ("expectimax", "hard", {"probes": 3})
    easy = make_agent("expectimax", "easy")
    assert isinstance(easy, ExpectimaxAgent) and easy.depth == 1 and easy.name == "expectimax:easy"
    medium = agent_from_spec("expectimax:medium")
    assert isinstance(medium, ExpectimaxAgent) and (medium.depth, medium.seconds) == (2, None)
    hard = agent_from_spec("expectimax:hard")
    assert isinstance(hard, ExpectimaxAgent) and (hard.depth, hard.seconds) == (None, 1.0)
    plain = agent_from_spec("expectimax")
    assert isinstance(plain, ExpectimaxAgent) and (plain.depth, plain.probes, plain.prune) == (2, 5, "star2")
    with pytest.raises(OptionError, match="prune"):
        agent_from_spec("expectimax:prune=star9")
    with pytest.raises(OptionError, match="depth"):
        agent_from_spec("expectimax:depth=0")
    with pytest.raises(OptionError, match="unknown parameter"):
        agent_from_spec("expectimax:iterations=5")
