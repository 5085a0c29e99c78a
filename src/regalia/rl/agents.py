"""OpenSpiel's own search bots as regalia agents: outside baselines for the lab.

``openspiel:mcts`` is ``open_spiel.python.algorithms.mcts.MCTSBot`` with a
``RandomRolloutEvaluator``; ``openspiel:ismcts`` is ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
with the same evaluator. Both play through the research adapter (:mod:`regalia.rl.openspiel`): for
each decision the regalia state is wrapped as a state of the registered OpenSpiel game
(``pyspiel.load_game("python_regalia_<game>", <the game's options>)``, the same options), the bot
chooses an OpenSpiel action id, and the id is decoded back into the regalia action by the game's
encoding in that state. They are registered under those names through the ``regalia.agents``
entry points, so ``regalia arena royal-court --agents mcts:seconds=0.5,openspiel:mcts:seconds=0.5``
is one command.

* ``openspiel:mcts`` searches a determinization for the acting seat
  (``state.determinize(seat, rng)``); ``openspiel:ismcts`` searches the real position, the bot
  itself resampling it from the seat's information state (the adapter's
  ``resample_from_infostate``, the core's ``determinize``), on the game declared with
  ``information=imperfect`` (``ISMCTSBot`` insists on it).
* Settings (spec parameters): ``max_simulations`` (default 1000, OpenSpiel's own example's
  default), ``uct_c`` (default 2, ditto), ``rollouts`` (random rollouts per leaf, default 1),
  ``solve`` (MCTS-Solver backups, ``openspiel:mcts`` only, default on), ``seconds``.
* **Time budget**: neither bot has a time option, and a search cannot be resumed (each call builds
  its tree anew), so ``seconds`` is met by calibrating the simulation count: each decision runs
  ``rate * seconds`` simulations, ``rate`` being the simulations per second the agent measured on
  its previous decision of the same game (the first decision first runs a probe of
  :data:`PROBE_SIMULATIONS` simulations to measure it, and spends the rest of its time on the
  real search). A decision thus takes about ``seconds`` (more or less as the rollouts get shorter
  through the game); with ``max_simulations`` too, the smaller count wins.
  ``deadline_seconds`` (a server's cap) bounds the count the same way: approximately.
* **Reproducible** with a simulation budget: each decision seeds the bot's and the evaluator's
  ``numpy`` generator from the agent's ``rng``.
* A position where no legal action has an id in the encoding's window (rare, docs/encodings.md) is
  terminal for OpenSpiel: the agent then plays a random legal action (``last_fallback`` says so).
  ``MCTSBot`` expands its root on its second simulation, so it always runs at least
  :data:`MIN_MCTS_SIMULATIONS` (a tight time budget may ask for fewer).

OpenSpiel is an optional dependency (the extra ``regalia[rl]``; wheels for x86_64 only): building
either agent without it raises :class:`~regalia.core.errors.OptionError` saying so. This module
imports neither ``pyspiel`` nor ``open_spiel`` until an agent is built.
"""

from __future__ import annotations

import importlib
import json
import random
import time
from typing import Any, ClassVar

from regalia.core.errors import OptionError
from regalia.core.game import Game, State

#: Simulations of the probe that measures the rate of a time budget's first decision.
PROBE_SIMULATIONS = 16
#: The fewest simulations ``MCTSBot`` is run with (its root is expanded on the second).
MIN_MCTS_SIMULATIONS = 2
#: ``max_simulations`` when no budget is given (OpenSpiel's ``examples/mcts.py`` default).
DEFAULT_SIMULATIONS = 1000

_GAMES: dict[tuple[str, str, str], Any] = {}


def require_open_spiel(agent: str) -> None:
    """Raise :class:`OptionError` naming what to install if OpenSpiel cannot be imported."""
    try:
        importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.algorithms.mcts")
        importlib.import_module("open_spiel.python.algorithms.ismcts")
    except ImportError as exc:
        raise OptionError(
            f"agent {agent!r} needs OpenSpiel, which is not importable here ({exc}); install the "
            "extra regalia[rl] (pip install 'regalia[rl]'; OpenSpiel's wheels exist for x86_64 only)"
        ) from None


def openspiel_game(game: Game[Any], information: str = "auto") -> Any:
    """The registered OpenSpiel game of a regalia game, with the same options (cached)."""
    from regalia.rl.openspiel import parameters_from_options, register

    params = {**parameters_from_options(game), "information": information}
    key = (game.id, json.dumps(params, sort_keys=True, default=str), information)
    cached = _GAMES.get(key)
    if cached is None:
        import pyspiel  # type: ignore[import-not-found]

        cached = _GAMES[key] = pyspiel.load_game(register(game.id), params)
    return cached


def _module(name: str) -> Any:
    """``open_spiel.python.algorithms.<name>`` (imported by name: no stubs, optional)."""
    return importlib.import_module(f"open_spiel.python.algorithms.{name}")


def _whole(value: Any, minimum: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= minimum


def _positive(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < float("inf")


class _OpenSpielAgent:
    """What both bots share: settings, the budget, the conversion of states and actions."""

    kind: ClassVar[str] = ""
    information: ClassVar[str] = "auto"

    def __init__(
        self,
        max_simulations: int | None = None,
        seconds: float | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
        deadline_seconds: float | None = None,
        name: str | None = None,
    ) -> None:
        require_open_spiel(self.kind)
        if max_simulations is None and seconds is None:
            max_simulations = DEFAULT_SIMULATIONS
        if max_simulations is not None and not _whole(max_simulations, 1):
            raise OptionError(f"max_simulations must be a positive integer, got {max_simulations!r}")
        if seconds is not None and not _positive(seconds):
            raise OptionError(f"seconds must be a positive finite number, got {seconds!r}")
        if deadline_seconds is not None and not _positive(deadline_seconds):
            raise OptionError(f"deadline_seconds must be a positive finite number, got {deadline_seconds!r}")
        if not _positive(uct_c):
            raise OptionError(f"uct_c must be a positive finite number, got {uct_c!r}")
        if not _whole(rollouts, 1):
            raise OptionError(f"rollouts must be a positive integer, got {rollouts!r}")
        self.max_simulations = max_simulations
        self.seconds = None if seconds is None else float(seconds)
        self.deadline_seconds = None if deadline_seconds is None else float(deadline_seconds)
        self.uct_c = float(uct_c)
        self.rollouts = rollouts
        self.name = name or self.kind
        self.last_simulations = 0
        self.last_seconds = 0.0
        self.last_fallback = False
        self._rates: dict[str, float] = {}

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(max_simulations={self.max_simulations!r}, seconds={self.seconds!r}, "
            f"uct_c={self.uct_c}, rollouts={self.rollouts}, name={self.name!r})"
        )

    def reset(self) -> None:
        """Nothing to forget (each decision builds its own tree; the measured rate is kept)."""

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over")
        self.last_fallback = False
        if len(legal) == 1:
            self.last_simulations = 0
            self.last_seconds = 0.0
            return legal[0]
        import numpy as np

        seat = state.current_player
        game = openspiel_game(state.game, self.information)
        core = self._position(state, seat, rng)
        start = time.perf_counter()
        limit = self.max_simulations
        budget = self.seconds
        if self.deadline_seconds is not None:
            budget = self.deadline_seconds if budget is None else min(budget, self.deadline_seconds)
        done = 0
        seed = rng.getrandbits(32)
        if budget is not None:
            rate = self._rates.get(state.game.id)
            if rate is None:  # the probe that measures the rate
                probe = PROBE_SIMULATIONS if limit is None else min(PROBE_SIMULATIONS, limit)
                done, _ = self._run(game, core, probe, np.random.RandomState(seed))
                rate = done / max(time.perf_counter() - start, 1e-6)
            left = budget - (time.perf_counter() - start)
            count = max(1, int(rate * left))
            limit = count if limit is None else min(limit, count)
        assert limit is not None
        began = time.perf_counter()
        ran, action_id = self._run(game, core, limit, np.random.RandomState(seed + 1))
        elapsed = time.perf_counter() - began
        if elapsed > 0 and ran:
            self._rates[state.game.id] = ran / elapsed
        self.last_simulations = done + ran
        self.last_seconds = time.perf_counter() - start
        if action_id is None:
            self.last_fallback = True
            return legal[rng.randrange(len(legal))]
        action = game.encoding.action_from_id(core, int(action_id))
        if action not in legal:
            raise RuntimeError(f"{self.name}: OpenSpiel chose id {action_id} ({action!r}), not legal here")
        return action

    def _position(self, state: State[Any], seat: int, rng: random.Random) -> State[Any]:
        """The regalia state the bot searches (a copy)."""
        return state.determinize(seat, rng)

    def _run(self, game: Any, core: State[Any], simulations: int, rs: Any) -> tuple[int, int | None]:
        """Search ``core`` with ``simulations`` simulations: (simulations run, the chosen id, or
        ``None`` when the OpenSpiel state has no legal id)."""
        from regalia.rl.openspiel import RegaliaState

        ps = RegaliaState(game, core.clone())
        if self.information == "imperfect":
            # the information state is the history: give the wrapped state the plies so far
            link: Any = None
            for ply in core.plies():
                link = (link, ply.player, ply.action, ply.text)
            ps._node.plies = link
        if ps.is_terminal() or not ps.legal_actions():
            return 0, None
        return self._search(game, ps, simulations, rs)

    def _search(self, game: Any, ps: Any, simulations: int, rs: Any) -> tuple[int, int | None]:
        raise NotImplementedError


class OpenSpielMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's ``MCTSBot`` (UCT, random rollouts, MCTS-Solver backups with ``solve``) on a
    determinization for the acting seat (see the module docstring).

    >>> agent = OpenSpielMCTSAgent(max_simulations=20)
    >>> agent.name, agent.max_simulations, agent.uct_c
    ('openspiel:mcts', 20, 2.0)
    """

    kind = "openspiel:mcts"

    def __init__(
        self,
        max_simulations: int | None = None,
        seconds: float | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
        solve: bool = True,
        deadline_seconds: float | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(max_simulations, seconds, uct_c, rollouts, deadline_seconds, name)
        self.solve = bool(solve)

    def _search(self, game: Any, ps: Any, simulations: int, rs: Any) -> tuple[int, int | None]:
        mcts = _module("mcts")

        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=rs)
        # the bot expands its root on the second simulation: fewer leave no move to choose
        simulations = max(simulations, MIN_MCTS_SIMULATIONS)
        bot = mcts.MCTSBot(game, self.uct_c, simulations, evaluator, solve=self.solve, random_state=rs)
        root = bot.mcts_search(ps)
        if not root.children:
            return int(root.explore_count), None
        best = root.best_child()
        return int(root.explore_count), int(best.action)


class OpenSpielISMCTSAgent(_OpenSpielAgent):
    """OpenSpiel's ``ISMCTSBot`` (information-set MCTS, the move of most visits) on the game
    declared imperfect-information (see the module docstring).

    >>> OpenSpielISMCTSAgent(seconds=0.5).seconds
    0.5
    """

    kind = "openspiel:ismcts"
    information = "imperfect"

    def _position(self, state: State[Any], seat: int, rng: random.Random) -> State[Any]:
        return state.clone()  # the bot resamples it from the seat's information state

    def _search(self, game: Any, ps: Any, simulations: int, rs: Any) -> tuple[int, int | None]:
        mcts, ismcts = _module("mcts"), _module("ismcts")

        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=rs)
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, simulations, random_state=rs)
        policy = bot.run_search(ps)
        best = max(policy, key=lambda pair: pair[1])[0]
        root = getattr(bot, "_root_node", None)
        visits = int(getattr(root, "total_visits", simulations)) if root is not None else simulations
        return visits, int(best)


__all__ = [
    "DEFAULT_SIMULATIONS",
    "MIN_MCTS_SIMULATIONS",
    "PROBE_SIMULATIONS",
    "OpenSpielISMCTSAgent",
    "OpenSpielMCTSAgent",
    "openspiel_game",
    "require_open_spiel",
]
