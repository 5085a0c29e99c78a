"""Monte Carlo tree search over determinized states (single-observer ISMCTS with UCT).

Every iteration draws a determinization of the root state for the acting seat
(``state.determinize(seat, rng)``: hidden information resampled, nothing peeked at), walks down the
one shared tree choosing among the actions legal in *that* determinization by UCB1 with
availability counts, expands one new node, plays a rollout (random, epsilon-greedy on the
evaluation hook, or the game's own policy) to the end of the game or to a depth cap, and backs
``returns()`` up the path.
Each node's statistics are from the point of view of the seat that chose the action leading to it.

Chance is searched open loop: at a chance node the iteration samples an outcome with its
probability (:func:`regalia.core.loop.forced_step`) and goes on without a tree node, so the tree holds the
seats' decisions only and its statistics average over chance. Steps with a single legal action (an
automaton's forced step) are applied the same way. Every action is applied with the state's
trusted fast path (``apply_unchecked``): it comes from ``legal_actions()`` of that very state.

Progressive widening (``widen``; by default the game's ``widening``, off for most games): a
decision node with more legal actions than ``ceil(widen * sqrt(visits + 1))`` searches only that
many, the best by the evaluation one step ahead (:func:`regalia.ai.base.evaluate_after`, computed
for the node's set of legal actions, at the root at once and elsewhere the first time the node is
visited again, and again whenever a visit finds another set: after a chance outcome the open-loop
node is shared by every outcome); the best untried of them is expanded first. The node widens as
its visits grow (Chaslot et al. 2008, "Progressive strategies for Monte-Carlo tree search":
progressive unpruning), so a Royal Court placement step's 150-odd actions are not each searched a
few times at random.

Multi-step turns are searched action by action: one action is one step. Between successive steps
of the same seat's turn the subtree below the chosen action is kept (tree reuse), also across the
chance outcomes and forced steps that come between them.

>>> import random, regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=5)
>>> _ = state.advance(random.Random(5))
>>> agent = MCTSAgent(iterations=30)
>>> root = agent.search(state, random.Random(0))
>>> sum(child.visits for child in root.children.values())
30
"""

from __future__ import annotations

import inspect
import math
import random
import time
from typing import Any, Final

from regalia.ai.base import (
    evaluate,
    evaluate_after,
    heuristic_method,
    heuristic_values,
    pick_best,
    score_difference,
)
from regalia.ai.parallel import GRACE_SECONDS, STARTUP_SECONDS, STUCK_SECONDS, RootHelpers
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE, State
from regalia.core.loop import forced_step, playout, policy_choice, random_choice

ROLLOUTS: Final = ("random", "greedy", "policy")
#: Where a rollout cut by ``depth`` stops: right after its last decision, or at the end of that
#: decision's turn (:func:`regalia.core.loop.playout`'s ``to_turn_end``).
CUTS: Final = ("decision", "turn")
#: ``c``, ``rollout``, ``depth``, ``widen``, ``margin`` and ``eval_scale`` by default: what the game says
#: (:meth:`regalia.core.game.Game.search_defaults`: its ``rollout_depth``, ``None``, to the end,
#: for most games; its ``widening``, ``None``, off, for most games; :data:`MARGIN` and
#: :data:`EVAL_SCALE` unless it names others). Final: the compiled build writes a default that is
#: a literal or a Final constant into the signature the agent registry reads
#: (``inspect.signature(MCTSAgent)``), and no other.
BY_GAME: Final = "game"
#: ``margin`` and ``eval_scale`` where the game names none.
MARGIN: Final = 0.3
EVAL_SCALE: Final = 10.0
#: ``centre`` where the game names none: values are not centred on the root's.
CENTRE: Final = False
#: ``cut`` where the game names none.
CUT: Final = "decision"
#: ``c`` (the UCB1 exploration constant) and ``rollout`` where the game names none.
C: Final = 1.0
ROLLOUT: Final = "random"
#: The most processes one agent searches with (``workers``).
MAX_WORKERS: Final = 64


def _number(value: Any) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive(value: Any) -> bool:
    return _number(value) and value > 0


class Node:
    """A node of the search tree: reached by ``action``, chosen by seat ``player``."""

    __slots__ = ("action", "avail", "children", "parent", "player", "ranked", "ranked_for", "total", "visits")

    def __init__(self, parent: Node | None, action: Any, player: int) -> None:
        self.ranked: list[Any] | None = None  # progressive widening: the actions, best first
        self.ranked_for: tuple[Any, ...] = ()  # the legal actions ``ranked`` ranks
        self.parent = parent
        self.action = action
        self.player = player
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0

    def __repr__(self) -> str:
        mean = self.total / self.visits if self.visits else 0.0
        return f"<Node {self.action!r} by {self.player}: {self.visits} visits, mean {mean:+.3f}>"


def _tallies(root: Node) -> dict[Any, list[float]]:
    """Root action -> ``[visits, total value]`` of ``root``'s children."""
    return {a: [child.visits, child.total] for a, child in root.children.items()}


def _widened(node: Node, s: State[Any], legal: list[Any], k: int, method: str) -> list[Any]:
    """The ``k`` best of ``legal`` for the seat to act in ``s`` by the heuristic ``method`` after
    each (best first, ties in ``legal``'s order). ``node.ranked`` keeps the whole ranking of the
    set of actions ``node.ranked_for``: a later visit that finds the same set only slices it."""
    key = tuple(legal)
    if node.ranked is None or node.ranked_for != key:
        # first visit, or another set of actions (a determinization or a chance outcome before
        # the node changed the position: Carcassonne's next tile): rank this set
        player = s.current_player
        values: dict[Any, float] = {}
        for a in legal:
            child = s.clone()
            child.apply_unchecked(a)
            values[a] = evaluate_after(child, player, method)
        node.ranked = sorted(legal, key=values.__getitem__, reverse=True)
        node.ranked_for = key
    return node.ranked[:k]


class MCTSAgent:
    """ISMCTS/UCT agent.

    Budget: ``iterations`` per decision, or ``seconds`` per decision, or both (whichever ends first;
    with neither, 1000 iterations); a time budget never stops before ``min_iterations``. Only an
    iteration budget makes the agent reproducible from its ``rng``. ``deadline_seconds`` is a hard
    wall-clock limit on each decision's search above every budget (``min_iterations`` included):
    a search still running then is cut and the best move found so far is chosen (a server's cap on
    what a computer seat may think; an iteration budget that ends in time stays reproducible).

    Parameters: ``c`` the UCB1 exploration constant (returns are in [-1, 1]); ``rollout``
    ``"random"``, ``"greedy"`` (epsilon-greedy over ``rollout_sample`` sampled actions on the
    evaluation hook) or ``"policy"`` (the game's own cheap rollout policy,
    :meth:`~regalia.core.game.State.policy_action`, uniformly random unless the game has one);
    ``depth`` caps the rollout length (seat decisions; ``None``: to the end), a cut-off state
    being valued ``tanh(evaluate(state, seat) / eval_scale)`` per seat; ``reuse``
    keeps the subtree of the chosen action between steps of one seat's turn; ``margin`` mixes the
    final score difference into a finished rollout's value
    (``(1 - margin) * return + margin * tanh(difference / eval_scale)``), which guides the search
    when nearly every rollout ends the same way (a strong automaton); ``centre`` (Go programs'
    *dynamic komi*) measures every score difference and evaluation from the root's: a rollout is
    valued ``tanh((evaluate - evaluate at the root) / eval_scale)``, so a position far behind (or
    ahead) from the start, where ``tanh`` is flat, still tells better from worse; ``widen`` the
    progressive widening factor (``None`` or 0: off); ``cut`` where a rollout cut by ``depth``
    stops: ``"decision"`` right after its ``depth``-th decision, ``"turn"`` at the end of that
    decision's turn, after the chance and automata's plies that follow it (so the cut is valued
    where the turn's consequences are on the board: Henry's reply in The Two Heirs' solo game);
    ``heuristic`` the name of the evaluation
    every ``evaluate`` above is (one of :meth:`~regalia.core.game.Game.heuristics`: ``evaluate``,
    the game's own, ``score``, the score lead alone, or one a game adds), so that a new heuristic
    can be tested head to head. ``c``, ``rollout``, ``depth``, ``widen``, ``margin``,
    ``eval_scale``, ``centre``, ``cut`` and ``heuristic`` are by default ``"game"``: what the game
    searched says (:meth:`~regalia.core.game.Game.search_defaults`; :data:`C`, :data:`ROLLOUT`,
    :data:`MARGIN`, :data:`EVAL_SCALE`, :data:`CENTRE`, :data:`CUT` and ``evaluate`` for a game
    that names none).

    After each :meth:`choose`, ``last_iterations`` and ``last_seconds`` tell the work done, and
    ``last_cut`` whether the deadline cut the search.
    """

    __slots__ = (
        "_c",
        "_centre",
        "_cut",
        "_depth",
        "_diffs",
        "_eval_scale",
        "_expect",
        "_helpers",
        "_margin",
        "_method",
        "_next_root",
        "_rollout_kind",
        "_widen",
        "_zero_sum",
        "_zeros",
        "c",
        "centre",
        "cut",
        "deadline_seconds",
        "depth",
        "epsilon",
        "eval_scale",
        "heuristic",
        "iterations",
        "last_cut",
        "last_iterations",
        "last_seconds",
        "margin",
        "min_iterations",
        "name",
        "reuse",
        "rollout",
        "rollout_sample",
        "seconds",
        "widen",
        "workers",
    )

    iterations: int | None
    seconds: float | None
    deadline_seconds: float | None
    c: float | str
    rollout: str
    depth: int | str | None
    eval_scale: float | str
    reuse: bool
    rollout_sample: int
    epsilon: float
    min_iterations: int
    margin: float | str
    centre: bool | str
    name: str
    widen: float | str | None
    workers: int
    heuristic: str
    cut: str
    last_iterations: int
    last_seconds: float
    last_cut: bool
    _expect: tuple[str, tuple[tuple[int, Any], ...]] | None
    _c: float
    #: ``rollout`` settled: one of :data:`ROLLOUTS`.
    _rollout_kind: str
    _depth: int | None
    _widen: float | None
    _margin: float
    _eval_scale: float
    _centre: bool
    #: ``cut`` settled: whether a cut rollout plays to the end of the turn.
    _cut: bool
    #: The :class:`State` method of the heuristic in use (:func:`regalia.ai.base.heuristic_method`).
    _method: str
    #: Whether the game's heuristics are zero-sum with two seats (computed once for both).
    _zero_sum: bool
    #: Per seat, the root's evaluation when ``centre`` (``None`` otherwise) and score difference
    #: (zeros otherwise): what a rollout's values are measured from.
    _zeros: list[float] | None
    _diffs: list[float]
    _next_root: Node | None
    #: Root parallelism: the helper processes (``workers - 1``), started at the first search.
    _helpers: RootHelpers | None

    # The parameters are checked below, so typed Any (documented by the attributes above): they
    # come from agent specs and option files, and the compiled build (ai.mcts is compiled) would
    # otherwise refuse a value of another type at the call with a TypeError, or take True for 1,
    # where the checks name the parameter (OptionError).
    def __init__(
        self,
        iterations: Any = None,
        seconds: Any = None,
        c: Any = BY_GAME,
        rollout: Any = BY_GAME,
        depth: Any = BY_GAME,
        eval_scale: Any = BY_GAME,
        reuse: Any = True,
        rollout_sample: Any = 8,
        epsilon: Any = 0.1,
        min_iterations: Any = 0,
        margin: Any = BY_GAME,
        deadline_seconds: Any = None,
        name: str = "mcts",
        widen: Any = BY_GAME,
        centre: Any = BY_GAME,
        workers: Any = 1,
        heuristic: Any = BY_GAME,
        cut: Any = BY_GAME,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise OptionError(f"iterations must be a positive integer, got {iterations!r}")
        if seconds is not None and not _positive(seconds):
            raise OptionError(f"seconds must be a positive finite number, got {seconds!r}")
        if deadline_seconds is not None and not _positive(deadline_seconds):
            raise OptionError(f"deadline_seconds must be a positive finite number, got {deadline_seconds!r}")
        if rollout != BY_GAME and rollout not in ROLLOUTS:
            raise OptionError(
                f"unknown rollout {rollout!r}; valid rollouts: {', '.join(ROLLOUTS)} or {BY_GAME!r}"
            )
        if (
            depth is not None
            and depth != BY_GAME
            and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0)
        ):
            raise OptionError(f"depth must be a non-negative integer, none or {BY_GAME!r}, got {depth!r}")
        if c != BY_GAME and (isinstance(c, str) or not _number(c) or c < 0):
            raise OptionError(f"c must be a non-negative finite number or {BY_GAME!r}, got {c!r}")
        if eval_scale != BY_GAME and (isinstance(eval_scale, str) or not _positive(eval_scale)):
            raise OptionError(
                f"eval_scale must be a positive finite number or {BY_GAME!r}, got {eval_scale!r}"
            )
        if isinstance(rollout_sample, bool) or not isinstance(rollout_sample, int) or rollout_sample < 1:
            raise OptionError(f"rollout_sample must be a positive integer, got {rollout_sample!r}")
        if isinstance(min_iterations, bool) or not isinstance(min_iterations, int) or min_iterations < 0:
            raise OptionError(f"min_iterations must be a non-negative integer, got {min_iterations!r}")
        if margin != BY_GAME and (isinstance(margin, str) or not _number(margin) or not 0 <= margin <= 1):
            raise OptionError(f"margin must be between 0 and 1 or {BY_GAME!r}, got {margin!r}")
        if not _number(epsilon) or not 0 <= epsilon <= 1:
            raise OptionError(f"epsilon must be between 0 and 1, got {epsilon!r}")
        if (
            widen is not None
            and widen != BY_GAME
            and (isinstance(widen, str) or not _number(widen) or widen < 0)
        ):
            raise OptionError(
                f"widen must be a non-negative finite number, none or {BY_GAME!r}, got {widen!r}"
            )
        if centre != BY_GAME and not isinstance(centre, bool):
            raise OptionError(f"centre must be true, false or {BY_GAME!r}, got {centre!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
            raise OptionError(f"workers must be an integer from 1 to {MAX_WORKERS}, got {workers!r}")
        if not isinstance(heuristic, str) or not heuristic:
            raise OptionError(
                f"heuristic must be the name of one of the game's heuristics, got {heuristic!r}"
            )
        if cut != BY_GAME and cut not in CUTS:
            raise OptionError(f"unknown cut {cut!r}; valid cuts: {', '.join(CUTS)} or {BY_GAME!r}")
        self.iterations = iterations
        self.seconds = None if seconds is None else float(seconds)
        self.deadline_seconds = None if deadline_seconds is None else float(deadline_seconds)
        self.c = c if isinstance(c, str) else float(c)
        self.rollout = rollout
        self.depth = depth
        self.eval_scale = eval_scale if isinstance(eval_scale, str) else float(eval_scale)
        self.reuse = bool(reuse)
        self.rollout_sample = rollout_sample
        self.epsilon = float(epsilon)
        self.min_iterations = min_iterations
        self.margin = margin if isinstance(margin, str) else float(margin)
        self.name = name
        self.widen = widen if widen is None or isinstance(widen, str) else float(widen)
        self.centre = centre
        self.heuristic = heuristic
        self.cut = cut
        self.workers = workers
        self._helpers = None
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.last_cut = False
        self._expect = None
        self._next_root = None
        self._c = C
        self._rollout_kind = ROLLOUT
        self._depth = None
        self._widen = None
        self._margin = MARGIN
        self._eval_scale = EVAL_SCALE
        self._centre = CENTRE
        self._cut = False
        self._zeros = None
        self._diffs = []

    def __repr__(self) -> str:
        budget = (
            f"iterations={self.iterations!r}, seconds={self.seconds!r}"
            if self.seconds is not None
            else f"iterations={self.iterations!r}"
        )
        return f"MCTSAgent({budget}, c={self.c}, rollout={self.rollout!r}, name={self.name!r})"

    # -- the agent interface ---------------------------------------------------------------
    def reset(self) -> None:
        """Forget the kept subtree."""
        self._expect = None
        self._next_root = None

    def observe(self, state: State[Any]) -> None:
        """Nothing to do: the kept subtree is checked against the next state itself."""

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        seat = state.current_player
        root = self._reused_root(state, seat)
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_seconds = 0.0
            self.last_cut = False
            action = legal[0]
        elif self.workers > 1:
            action = self._choose_in_parallel(state, rng, root, legal)
        else:
            self.search(state, rng, root)
            action = self._best(_tallies(root), legal, rng)
        self._remember(state, seat, root, action)
        return action

    def _choose_in_parallel(self, state: State[Any], rng: random.Random, root: Node, legal: list[Any]) -> Any:
        """Root parallelism: the helpers search ``state`` while this agent does, and the most
        visited action over all the roots is chosen. The helpers' seeds come from ``rng``, and
        with an iteration budget every helper is waited for, so the choice is reproducible."""
        helpers = self._helpers
        if helpers is None:
            helpers = self._helpers = RootHelpers(self.workers - 1, self.parameters())
        start = time.monotonic()
        began = time.perf_counter()
        stop_at = None if self.seconds is None else start + self.seconds
        cut_at = None if self.deadline_seconds is None else start + self.deadline_seconds
        seeds = [rng.getrandbits(63) for _ in range(helpers.size)]
        helpers.send(state, seeds, root.player < 0, stop_at, cut_at)  # player < 0: a new root
        self.search(state, rng, root, began)
        now = time.monotonic()
        if stop_at is not None:  # the helpers answer at about the same time as this search ends
            # a new helper imports the engine before it searches: the first wait allows for that
            until = max(now, stop_at) + (GRACE_SECONDS if helpers.waited else STARTUP_SECONDS)
        else:  # an iteration budget: every helper is waited for, within a bound for a stuck one
            until = now + max(STUCK_SECONDS, 10 * (now - start))
        if cut_at is not None:
            until = min(until, cut_at)
        tallies = _tallies(root)
        for rows, iterations in helpers.collect(until):
            self.last_iterations += iterations
            for action, visits, total in rows:
                tally = tallies.get(action)
                if tally is None:
                    tallies[action] = [visits, total]
                else:
                    tally[0] += visits
                    tally[1] += total
        self.last_seconds = time.monotonic() - start
        action = self._best(tallies, legal, rng)
        helpers.chose(action)
        return action

    def parameters(self) -> dict[str, Any]:
        """The parameters this agent was built with, as keyword arguments of :class:`MCTSAgent`
        (each one is kept as the attribute of its name)."""
        return {name: getattr(self, name) for name in inspect.signature(MCTSAgent).parameters}

    def close(self) -> None:
        """Stop the helper processes, if any (they start again at the next search)."""
        helpers, self._helpers = self._helpers, None
        if helpers is not None:
            helpers.close()

    # -- search ------------------------------------------------------------------------------
    def _settle(self, game: Any) -> None:
        """The parameters this search uses: those given, and for those left to the game
        (:data:`BY_GAME`) what ``game.search_defaults()`` says."""
        told = game.search_defaults()
        c = self.c
        self._c = float(told.get("c", C)) if isinstance(c, str) else c
        self._rollout_kind = str(told.get("rollout", ROLLOUT)) if self.rollout == BY_GAME else self.rollout
        depth = self.depth
        self._depth = told.get("depth") if isinstance(depth, str) else depth
        widen = self.widen
        self._widen = told.get("widen") if isinstance(widen, str) else widen
        margin = self.margin
        self._margin = float(told.get("margin", MARGIN)) if isinstance(margin, str) else margin
        scale = self.eval_scale
        self._eval_scale = float(told.get("eval_scale", EVAL_SCALE)) if isinstance(scale, str) else scale
        centre = self.centre
        self._centre = bool(told.get("centre", CENTRE)) if isinstance(centre, str) else centre
        cut = str(told.get("cut", CUT)) if self.cut == BY_GAME else self.cut
        self._cut = cut == "turn"
        name = str(told.get("heuristic", "evaluate")) if self.heuristic == BY_GAME else self.heuristic
        self._method = heuristic_method(game, name)
        self._zero_sum = bool(game.zero_sum_heuristics())

    def _centre_on(self, state: State[Any], seat: int, rng: random.Random) -> None:
        """The values' zero for each seat: the root's evaluation and score difference when
        ``centre`` (measured on a determinization: no hidden information is read), else 0."""
        if not self._centre:
            self._zeros = None
            self._diffs = [0.0] * state.num_players
            return
        s = state.determinize(seat, rng)
        self._zeros = [evaluate(s, p, self._method) for p in range(s.num_players)]
        self._diffs = [score_difference(s, p) for p in range(s.num_players)]

    def search(
        self, state: State[Any], rng: random.Random, root: Node | None = None, started: float | None = None
    ) -> Node:
        """Run the budgeted search from ``state`` and return the root node (at least one iteration;
        cut at ``deadline_seconds`` whatever the budget). The budget's time counts from
        ``started`` (``time.perf_counter()``; by default now)."""
        if root is None:
            root = Node(None, None, -1)
        self._settle(state.game)
        seat = state.current_player
        self._centre_on(state, seat, rng)
        limit = self.iterations
        floor = self.min_iterations
        clock = time.perf_counter
        start = clock() if started is None else started
        deadline = None if self.seconds is None else start + self.seconds
        cutoff = math.inf if self.deadline_seconds is None else start + self.deadline_seconds
        done = 0
        cut = False
        iterate = self._iterate
        while True:
            iterate(root, state, seat, rng)
            done += 1
            if limit is not None and done >= limit:
                break
            now = clock()
            if deadline is not None and done >= floor and now >= deadline:
                break
            if now >= cutoff:
                cut = True
                break
        self.last_iterations = done
        self.last_seconds = clock() - start
        self.last_cut = cut
        return root

    def analyse(
        self, state: State[Any], rng: random.Random, played: Any = None, verify: float = 0.0
    ) -> list[tuple[Any, float, int]]:
        """Search ``state`` with the budget and return the root actions legal in ``state`` that the
        search tried, as ``(action, mean value, visits)``, most visited first (ties: the better
        mean): the first is the best move found. A mean is from the point of view of the seat to
        act, in [-1, 1] like ``returns()``.

        The search then verifies: the most visited action and ``played`` (a legal action, if given)
        are searched on, by iterations whose first step is that action, until each has as many
        visits as the most visited one had, and at least ``verify`` times the iterations the search
        made; so both values rest on equal searches, and the best's on more than a lucky few
        rollouts (``last_iterations`` counts every iteration).
        """
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        seat = state.current_player
        root = self.search(state, rng)
        children = root.children
        tried = [children[a] for a in legal if a in children]
        most = max((ch.visits for ch in tried), default=0)
        target = max(most, math.ceil(verify * self.last_iterations))
        forced: list[Any] = []
        if tried:
            forced.append(max(tried, key=lambda ch: (ch.visits, ch.total / ch.visits)).action)
        if played is not None and played not in forced:
            forced.append(played)
        extra = 0
        for action in forced:
            child = children.get(action)
            if child is None:
                child = children[action] = Node(root, action, seat)
            while child.visits < target:
                self._iterate(root, state, seat, rng, child)
                extra += 1
        self.last_iterations += extra
        rows = [
            (a, children[a].total / children[a].visits, children[a].visits) for a in legal if a in children
        ]
        rows.sort(key=lambda row: (-row[2], -row[1]))
        return rows

    def _iterate(
        self, root: Node, state: State[Any], seat: int, rng: random.Random, first: Node | None = None
    ) -> None:
        s = state.determinize(seat, rng)
        node = root
        if first is not None:  # analyse(): the first step is given
            s.apply_unchecked(first.action)
            node = first
        c = self._c
        # math.log and math.sqrt called by name on floats: the compiled build calls them natively
        random = rng.random
        widen = self._widen
        # selection and expansion
        while True:
            if s.current_player == CHANCE:
                s.apply_unchecked(forced_step(s, rng))
                continue
            legal = s.legal_actions()
            if not legal:
                break
            if len(legal) == 1 and node is not root:
                s.apply_unchecked(legal[0])
                continue
            widened = False
            if widen and (node.visits or node is root):
                width = widen * math.sqrt(float(node.visits + 1))
                if len(legal) > width:
                    legal = _widened(node, s, legal, math.ceil(width), self._method)
                    widened = True
            children = node.children
            untried = [a for a in legal if a not in children] if children else legal
            if untried:
                for a in legal:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                if widened:  # the best by the evaluation first
                    action = untried[0]
                else:
                    action = untried[int(random() * float(len(untried)))] if len(untried) > 1 else untried[0]
                child = Node(node, action, s.current_player)
                children[action] = child
                s.apply_unchecked(action)
                node = child
                break
            best: Node | None = None
            best_value = -math.inf
            for a in legal:
                child = children[a]
                child.avail += 1
                n = child.visits
                value = child.total / n + c * math.sqrt(math.log(float(child.avail)) / n)
                if value > best_value:
                    best_value = value
                    best = child
            assert best is not None
            s.apply_unchecked(best.action)
            node = best
        # rollout
        values = self._rollout(s, rng)
        # backpropagation
        cur: Node | None = node
        while cur is not None:
            cur.visits += 1
            if cur.player >= 0:
                cur.total += values[cur.player]
            cur = cur.parent

    def _rollout(self, s: State[Any], rng: random.Random) -> list[float]:
        depth = self._depth
        kind = self._rollout_kind
        if kind == "greedy":
            playout(s, rng, self._greedy_step, decisions=depth, to_turn_end=self._cut)
        elif kind == "policy":
            playout(s, rng, policy_choice, decisions=depth, to_turn_end=self._cut)
        else:
            playout(s, rng, random_choice, decisions=depth, to_turn_end=self._cut)
        if s.is_terminal():
            returns = s.returns()
            w = self._margin
            if not w:
                return [float(r) for r in returns]
            scale = self._eval_scale
            diffs = self._diffs
            return [
                (1.0 - w) * r + w * math.tanh((score_difference(s, seat) - diffs[seat]) / scale)
                for seat, r in enumerate(returns)
            ]
        return heuristic_values(s, self._eval_scale, self._zeros, self._method, self._zero_sum)

    def _greedy_step(self, s: State[Any], rng: random.Random) -> Any:
        """A greedy rollout's choice: at random with probability ``epsilon`` (or when there is no
        choice), else the best evaluated of ``rollout_sample`` candidates."""
        legal = s.legal_actions()
        if len(legal) == 1 or rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        player = s.current_player
        sample = self.rollout_sample
        candidates = rng.sample(legal, sample) if len(legal) > sample else legal
        scored = []
        for a in candidates:
            child = s.clone()
            child.apply_unchecked(a)
            scored.append(evaluate_after(child, player, self._method))
        return pick_best(candidates, scored, rng)

    @staticmethod
    def _best(tallies: dict[Any, list[float]], legal: list[Any], rng: random.Random) -> Any:
        """The most visited root action legal in the real state (ties: best mean, then rng), by
        ``tallies``: root action -> ``[visits, total value]``."""
        candidates = [(a, tallies[a]) for a in legal if a in tallies]
        if not candidates:
            return legal[rng.randrange(len(legal))]
        most = max(tally[0] for _, tally in candidates)
        top = [(a, tally) for a, tally in candidates if tally[0] == most]
        means = [tally[1] / tally[0] if tally[0] else 0.0 for _, tally in top]
        return pick_best([a for a, _ in top], means, rng)

    # -- tree reuse -----------------------------------------------------------------------
    def _reused_root(self, state: State[Any], seat: int) -> Node:
        """The kept subtree if ``state`` is the previous decision's state plus its action, followed
        only by chance outcomes and forced steps of other seats."""
        expect, kept = self._expect, self._next_root
        self._expect = self._next_root = None
        if not self.reuse or kept is None or expect is None:
            return Node(None, None, -1)
        game_id, before = expect
        actors = state.actors()
        if game_id != state.game.id or len(actors) < len(before) or tuple(actors[: len(before)]) != before:
            return Node(None, None, -1)
        automata = state.automaton_seats()
        if any(p != CHANCE and p not in automata for p, _ in actors[len(before) :]):
            return Node(None, None, -1)
        kept.parent = None
        return kept

    def _remember(self, state: State[Any], seat: int, root: Node, action: Any) -> None:
        if not self.reuse:
            return
        child = root.children.get(action)
        if child is None:
            child = Node(None, action, seat)
        self._expect = (state.game.id, (*state.actors(), (seat, action)))
        self._next_root = child
