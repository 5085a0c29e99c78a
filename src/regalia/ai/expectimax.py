"""Expectimax with Star2.5 chance-node pruning: a baseline for the games with chance between decisions.

The search is *-minimax (Ballard 1983, "The *-minimax search procedure for trees containing chance
nodes", Artificial Intelligence 21): decision nodes are max nodes for the agent's seat and min
nodes for every other seat (the paranoid reduction of a game of three or more seats), chance nodes
take the probability-weighted mean of their outcomes. Heyden (2009, "Implementing a computer player
for Carcassonne") found the Star2.5 variant the best of its kind for Carcassonne.

* **Depth** counts seat decisions (``depth``, default 2: in Carcassonne one whole turn, the tile and
  the follower); chance outcomes, automaton steps and decisions with a single legal action are
  played through without using depth. A position at depth 0 is valued as the MCTS values a rollout
  cut off by its depth cap: ``tanh(State.evaluate(seat) / eval_scale)`` (the game's evaluation
  hook, :func:`regalia.ai.base.heuristic_values`); a finished game as the MCTS values a finished
  rollout, ``(1 - margin) * return + margin * tanh(score difference / eval_scale)``. Every value
  lies in [-1, 1], the bounds ``L`` and ``U`` the chance-node pruning needs.
* **Probing factor** (``probes``, default 5): a chance node with more distinct outcomes than that is
  searched on ``probes`` outcomes drawn with their probabilities (with replacement; an outcome drawn
  k times weighs k / probes), an unbiased sample of the expectation (Carcassonne's 24 tile kinds
  become at most 5 searched draws). With ``probes=None`` every outcome is searched with its
  probability: exact expectimax.
* **Pruning** (``prune``): ``"star2"`` (the default), ``"star1"`` or ``"none"`` (full expectimax).
  Decision nodes use fail-soft alpha-beta. *Star1* (Ballard; Hauk, Buro and Schaeffer 2004,
  "Rediscovering *-Minimax Search", Computers and Games) gives each outcome ``i`` of a chance node
  searched with window (alpha, beta) the window ``A_i = (alpha - sum_{j != i} P_j hi_j) / P_i``,
  ``B_i = (beta - sum_{j != i} P_j lo_j) / P_i`` (clipped to the outcome's own bounds), ``lo_j = hi_j``
  being the value of an outcome searched already and ``L``, ``U`` or a probe's bound otherwise; an
  outcome failing low (high) there proves the chance node below alpha (above beta). *Star2* first
  *probes*: each outcome whose next ply is a seat decision is searched on its first (best ordered)
  action only, a lower bound for a max node and an upper bound for a min node, and the chance node
  is cut as soon as the weighted bounds leave the window; the probe's value is reused when that
  outcome is searched in full. The probing-factor sampling plus Star2 is the Star2.5 of the
  literature's Carcassonne players. All three give the same value on the same (sampled) tree; the
  pruned ones visit fewer nodes.
* **Move ordering**: above depth 1 a node's actions are tried best first by the evaluation after
  each (ties in an order drawn from ``rng``); at the root, the previous iteration's best first.
* **Budget**: without ``seconds``, depths 1 to ``depth`` are searched (iterative deepening, for the
  ordering) and the search is reproducible from ``rng``. With ``seconds``, iterative deepening goes
  on (to ``depth`` if given, else without limit) until the time is up: an unfinished iteration
  keeps the best of the root actions it finished (the previous best is searched first). Depth 1
  always finishes; ``deadline_seconds`` is a hard wall-clock cap above every budget (a server's cap)
  that cuts even that, the best action so far being played. Deepening stops early when an iteration
  reached the end of the game everywhere.

The search plays on ``state.determinize(seat, rng)``: hidden information is resampled, never
peeked at. After each :meth:`ExpectimaxAgent.choose`, ``last_depth`` (deepest finished iteration),
``last_nodes``, ``last_seconds``, ``last_value`` and ``last_cut`` tell the work done.

>>> import random, regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=2)
>>> _ = state.advance(random.Random(2))
>>> agent = ExpectimaxAgent(depth=1)
>>> agent.choose(state, random.Random(0)) in state.legal_actions()
True
>>> agent.last_depth
1
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from regalia.ai.base import evaluate, score_difference
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE, State
from regalia.core.loop import forced_step

#: The bounds of every value of the search (the leaf values lie in [LOW, HIGH]).
LOW, HIGH = -1.0, 1.0
PRUNINGS = ("star2", "star1", "none")
#: Nodes between two looks at the clock.
_CLOCK_EVERY = 64


class _Timeout(Exception):
    """The search's time is up."""


def _whole(value: Any, minimum: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= minimum


def _positive(value: Any) -> bool:
    return (
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
    )


class ExpectimaxAgent:
    """Star2.5 expectimax (see the module docstring).

    Parameters: ``depth`` (seat decisions; default 2, or no limit with ``seconds``), ``probes``
    (the probing factor: chance outcomes searched per chance node; ``None``: all), ``seconds`` (a
    time budget per decision, with iterative deepening), ``prune`` (``star2``, ``star1``, ``none``),
    ``eval_scale`` and ``margin`` (the leaf values, as the MCTS's), ``deadline_seconds`` (a hard
    cap on each decision's search).
    """

    __slots__ = (
        "_cutoff",
        "_hard",
        "_leaf_cut",
        "_nodes",
        "_rng",
        "_seat",
        "deadline_seconds",
        "depth",
        "eval_scale",
        "last_cut",
        "last_depth",
        "last_nodes",
        "last_seconds",
        "last_value",
        "margin",
        "name",
        "probes",
        "prune",
        "seconds",
    )

    def __init__(
        self,
        depth: int | None = None,
        probes: int | None = 5,
        seconds: float | None = None,
        prune: str = "star2",
        eval_scale: float = 10.0,
        margin: float = 0.3,
        deadline_seconds: float | None = None,
        name: str = "expectimax",
    ) -> None:
        if depth is not None and not _whole(depth, 1):
            raise OptionError(f"depth must be a positive integer, got {depth!r}")
        if probes is not None and not _whole(probes, 1):
            raise OptionError(f"probes must be a positive integer or none, got {probes!r}")
        if seconds is not None and not _positive(seconds):
            raise OptionError(f"seconds must be a positive finite number, got {seconds!r}")
        if deadline_seconds is not None and not _positive(deadline_seconds):
            raise OptionError(f"deadline_seconds must be a positive finite number, got {deadline_seconds!r}")
        if prune not in PRUNINGS:
            raise OptionError(f"unknown prune {prune!r}; valid: {', '.join(PRUNINGS)}")
        if not _positive(eval_scale):
            raise OptionError(f"eval_scale must be a positive finite number, got {eval_scale!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 1:
            raise OptionError(f"margin must be between 0 and 1, got {margin!r}")
        self.depth = depth if depth is not None or seconds is not None else 2
        self.probes = probes
        self.seconds = None if seconds is None else float(seconds)
        self.prune = prune
        self.eval_scale = float(eval_scale)
        self.margin = float(margin)
        self.deadline_seconds = None if deadline_seconds is None else float(deadline_seconds)
        self.name = name
        self.last_depth = 0
        self.last_nodes = 0
        self.last_seconds = 0.0
        self.last_value = 0.0
        self.last_cut = False
        self._seat = 0
        self._rng = random.Random(0)
        self._nodes = 0
        self._cutoff = math.inf
        self._hard = math.inf
        self._leaf_cut = False

    def __repr__(self) -> str:
        return (
            f"ExpectimaxAgent(depth={self.depth!r}, probes={self.probes!r}, seconds={self.seconds!r}, "
            f"prune={self.prune!r}, name={self.name!r})"
        )

    # -- the agent interface ---------------------------------------------------------------
    def reset(self) -> None:
        """Nothing to forget."""

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        if len(legal) == 1:
            self.last_depth = self.last_nodes = 0
            self.last_seconds = 0.0
            self.last_cut = False
            return legal[0]
        action, _ = self.search(state, rng)
        return action

    # -- search ------------------------------------------------------------------------------
    def search(self, state: State[Any], rng: random.Random) -> tuple[Any, float]:
        """The best action for the seat to act in ``state`` and its value (in [-1, 1], for that
        seat), within the budget."""
        seat = state.current_player
        if seat < 0:
            raise ValueError("search needs a seat to act")
        clock = time.perf_counter
        start = clock()
        self._seat = seat
        self._rng = rng
        self._nodes = 0
        self._hard = math.inf if self.deadline_seconds is None else start + self.deadline_seconds
        soft = math.inf if self.seconds is None else start + self.seconds
        root = state.determinize(seat, rng)
        actions = self._ordered(root, 2)
        best, value = actions[0], LOW
        self.last_depth = 0
        self.last_cut = False
        limit = self.depth if self.depth is not None else 10**6
        depth = 1
        while depth <= limit:
            self._cutoff = self._hard if depth == 1 else min(soft, self._hard)
            self._leaf_cut = False
            done: list[tuple[Any, float]] = []
            try:
                self._root(root, actions, depth, done)
            except _Timeout:
                self.last_cut = True
            if done:
                top = max(v for _, v in done)
                best, value = next((a, v) for a, v in done if v == top)
                # the next iteration tries the best first
                actions = [best, *(a for a in actions if a != best)]
            if self.last_cut:
                break
            self.last_depth = depth
            if not self._leaf_cut:
                break  # the whole game was searched to its end
            depth += 1
        self.last_nodes = self._nodes
        self.last_seconds = clock() - start
        self.last_value = value
        return best, value

    def _root(
        self, root: State[Any], actions: Sequence[Any], depth: int, done: list[tuple[Any, float]]
    ) -> None:
        alpha = LOW
        pruned = self.prune != "none"
        for action in actions:
            child = root.clone()
            child.apply_unchecked(action)
            v = self._value(child, depth - 1, alpha if pruned else LOW, HIGH)
            done.append((action, v))
            if v > alpha:
                alpha = v

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes % _CLOCK_EVERY == 0 and time.perf_counter() >= self._cutoff:
            raise _Timeout

    def _settle(self, s: State[Any]) -> None:
        """Play on through automaton steps and decisions with one legal action (chance stays)."""
        while not s.is_terminal():
            player = s.current_player
            if player == CHANCE:
                return
            if player in s.automaton_seats():
                s.apply_unchecked(forced_step(s, None))
                continue
            legal = s.legal_actions()
            if len(legal) != 1:
                return
            s.apply_unchecked(legal[0])

    def _leaf(self, s: State[Any]) -> float:
        seat = self._seat
        scale = self.eval_scale
        if s.is_terminal():
            w = self.margin
            return (1.0 - w) * float(s.returns()[seat]) + w * math.tanh(score_difference(s, seat) / scale)
        return math.tanh(evaluate(s, seat) / scale)

    def _value(self, s: State[Any], depth: int, alpha: float, beta: float) -> float:
        """The value of ``s`` (fail-soft: at most ``alpha`` proves it at most that, at least
        ``beta`` at least that)."""
        self._tick()
        self._settle(s)
        if s.is_terminal():
            return self._leaf(s)
        if depth <= 0:
            self._leaf_cut = True
            return self._leaf(s)
        if s.current_player == CHANCE:
            return self._chance(s, depth, alpha, beta)
        return self._decision(s, depth, alpha, beta, None, None)

    def _ordered(self, s: State[Any], depth: int) -> list[Any]:
        """The legal actions, best first for the seat to act when ``depth`` is 2 or more."""
        legal = list(s.legal_actions())
        self._rng.shuffle(legal)
        if depth < 2 or len(legal) < 2:
            return legal
        scored = []
        for a in legal:
            child = s.clone()
            child.apply_unchecked(a)
            scored.append(self._leaf(child))
        sign = -1.0 if s.current_player == self._seat else 1.0
        order = sorted(range(len(legal)), key=lambda i: sign * scored[i])
        return [legal[i] for i in order]

    def _decision(
        self,
        s: State[Any],
        depth: int,
        alpha: float,
        beta: float,
        actions: list[Any] | None,
        first: float | None,
    ) -> float:
        """A seat's decision: max for the agent's seat, min for the others (alpha-beta, fail-soft;
        ``first`` the value of ``actions[0]`` when a probe has searched it)."""
        maximize = s.current_player == self._seat
        pruned = self.prune != "none"
        if actions is None:
            actions = self._ordered(s, depth)
        best = -math.inf if maximize else math.inf
        for i, action in enumerate(actions):
            if i == 0 and first is not None:
                v = first
            else:
                child = s.clone()
                child.apply_unchecked(action)
                v = (
                    self._value(child, depth - 1, alpha, beta)
                    if pruned
                    else self._value(child, depth - 1, LOW, HIGH)
                )
            if maximize:
                if v > best:
                    best = v
                if pruned:
                    if best >= beta:
                        return best
                    alpha = max(alpha, best)
            else:
                if v < best:
                    best = v
                if pruned:
                    if best <= alpha:
                        return best
                    beta = min(beta, best)
        return best

    def _outcomes(self, s: State[Any]) -> list[tuple[Any, float]]:
        """The chance outcomes searched, with weights summing to 1 (see ``probes``)."""
        outcomes = s.chance_outcomes()
        probes = self.probes
        if probes is None or len(outcomes) <= probes:
            total = sum(p for _, p in outcomes)
            return [(a, p / total) for a, p in outcomes if p > 0]
        actions = [a for a, _ in outcomes]
        weights = [p for _, p in outcomes]
        counts: dict[int, int] = {}
        for i in self._rng.choices(range(len(actions)), weights=weights, k=probes):
            counts[i] = counts.get(i, 0) + 1
        return [(actions[i], n / probes) for i, n in sorted(counts.items())]

    def _chance(self, s: State[Any], depth: int, alpha: float, beta: float) -> float:
        """A chance node: the weighted mean of its (sampled) outcomes, Star1/Star2 pruned."""
        outcomes = self._outcomes(s)
        children = []
        for outcome, _ in outcomes:
            child = s.clone()
            child.apply_unchecked(outcome)
            self._settle(child)
            children.append(child)
        weights = [w for _, w in outcomes]
        if self.prune == "none":
            return sum(w * self._value(c, depth, LOW, HIGH) for w, c in zip(weights, children, strict=True))
        n = len(children)
        lo = [LOW] * n
        hi = [HIGH] * n
        probed: list[tuple[list[Any], float] | None] = [None] * n
        if self.prune == "star2":
            for i, child in enumerate(children):
                if child.is_terminal() or child.current_player == CHANCE:
                    continue
                self._tick()
                actions = self._ordered(child, depth)
                first = child.clone()
                first.apply_unchecked(actions[0])
                v = self._value(first, depth - 1, LOW, HIGH)
                probed[i] = (actions, v)
                if child.current_player == self._seat:
                    lo[i] = v
                else:
                    hi[i] = v
                low_sum = sum(w * x for w, x in zip(weights, lo, strict=True))
                if low_sum >= beta:
                    return low_sum
                high_sum = sum(w * x for w, x in zip(weights, hi, strict=True))
                if high_sum <= alpha:
                    return high_sum
        for i, child in enumerate(children):
            low_sum = sum(w * x for w, x in zip(weights, lo, strict=True))
            high_sum = sum(w * x for w, x in zip(weights, hi, strict=True))
            if low_sum >= beta:
                return low_sum
            if high_sum <= alpha:
                return high_sum
            if lo[i] == hi[i]:
                continue
            wi = weights[i]
            a_i = (alpha - (high_sum - wi * hi[i])) / wi
            b_i = (beta - (low_sum - wi * lo[i])) / wi
            a, b = max(a_i, lo[i]), min(b_i, hi[i])
            probe = probed[i]
            if probe is not None and not child.is_terminal():
                self._tick()
                v = self._decision(child, depth, a, b, probe[0], probe[1])
            else:
                v = self._value(child, depth, a, b)
            if v <= a_i:
                return high_sum - wi * hi[i] + wi * v
            if v >= b_i:
                return low_sum - wi * lo[i] + wi * v
            v = min(max(v, lo[i]), hi[i])
            lo[i] = hi[i] = v
        return sum(w * x for w, x in zip(weights, lo, strict=True))
