"""What a computer seat may think on a server: an agent and a level, explicit budgets only within
the server's caps, a hard deadline on every search, and a bounded queue of hints.

A client names a computer seat by agent and level (``mcts`` at ``easy``, ``medium`` or ``hard``;
``random``; ``greedy``). :func:`checked_spec` refuses (:class:`~regalia.core.errors.OptionError`,
a 422 for the client) a spec whose explicit budget is over the :class:`Caps` (``iterations``,
``min_iterations`` over :attr:`Caps.iterations`, ``seconds`` over :attr:`Caps.think_seconds`), a
parameter the server sets itself (``deadline_seconds``, ``name``, ``workers``) and whatever the agent refuses
(an unknown level or parameter, a number that is not finite or out of range: ``c=nan``).

Whatever is stored, :func:`capped_agent` builds the agent a worker thinks with: budgets clamped to
the caps and a hard wall-clock deadline of :attr:`Caps.think_seconds` on each search (MCTS's
``deadline_seconds``: a search still running then is cut and its best move so far is played), so a
spec stored before the caps existed (``mcts:iterations=1000000000``) is clamped, never re-run
unbounded after a restart; one the agent now refuses (``mcts:c=nan``) falls back to its level.

:class:`HintQueue` bounds the hints being thought: one per match and :attr:`Caps.hints` on the
server; more are refused at once (429, saying which), never queued.

>>> caps = Caps(think_seconds=2.0)
>>> caps.iterations, checked_spec(" mcts:hard ", caps), checked_spec("mcts:iterations=500", caps)
(2000, 'mcts:hard', 'mcts:iterations=500')
>>> checked_spec("mcts:iterations=1000000000", caps)
Traceback (most recent call last):
...
regalia.core.errors.OptionError: iterations=1000000000 is over this server's cap of 2000 iterations (...)
>>> agent = capped_agent("mcts:seconds=1e9:iterations=1000000000", caps)
>>> agent.seconds, agent.iterations, agent.deadline_seconds
(2.0, 2000, 2.0)
>>> agent = capped_agent("mcts:easy:c=nan", caps)
>>> agent.name, agent.c, agent.iterations, agent.deadline_seconds
('mcts:easy:c=nan', 'game', 60, 2.0)
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
from typing import Any, Final

from regalia.ai.base import Agent
from regalia.ai.registry import agent_parameters, make_agent, parse_agent_spec
from regalia.core.errors import OptionError
from regalia.server.errors import ApiError

log = logging.getLogger("regalia.server")

#: Seconds a search may think by default (``regalia serve --max-think-seconds``).
DEFAULT_THINK_SECONDS: Final = 5.0
#: Iterations allowed per second of the cap: MCTS runs some 300-600 a second on one core, so an
#: iteration budget within the cap normally ends before the deadline (which cuts it otherwise).
ITERATIONS_PER_SECOND: Final = 1000
#: Hints thought at once on one server by default (one per match).
DEFAULT_HINTS: Final = 4
#: Parameters the server sets, never a client: ``workers`` (MCTS's root parallelism) is always 1,
#: so that one computer seat's search is one process of the server's, whatever its level says.
SERVER_PARAMETERS: Final = ("deadline_seconds", "name", "workers")
#: The parameters that are budgets (clamped to the caps).
ITERATION_BUDGETS: Final = ("iterations", "min_iterations", "max_simulations")


@dataclasses.dataclass(frozen=True)
class Caps:
    """A server's caps on thinking: ``think_seconds`` for any search (a computer seat's move, a
    hint), and ``hints`` thought at once on the server."""

    think_seconds: float = DEFAULT_THINK_SECONDS
    hints: int = DEFAULT_HINTS

    def __post_init__(self) -> None:
        seconds = self.think_seconds
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
            raise OptionError(f"--max-think-seconds: expected a finite number, not {seconds!r}")
        if not 0 < seconds <= 3600:
            raise OptionError(f"--max-think-seconds: expected more than 0 and at most 3600, not {seconds}")
        if isinstance(self.hints, bool) or not isinstance(self.hints, int) or self.hints < 1:
            raise OptionError(f"hints: expected a positive integer, not {self.hints!r}")

    @property
    def iterations(self) -> int:
        """The largest iteration budget a spec may ask for."""
        return max(1, int(self.think_seconds * ITERATIONS_PER_SECOND))

    @property
    def hint_wait(self) -> float:
        """Seconds a hint request waits for its answer (the search, and a computer move or two
        ahead of it in the pool) before it is answered 503."""
        return 2 * self.think_seconds + 1.0

    def _flag(self) -> str:
        return f"regalia serve --max-think-seconds {self.think_seconds:g}"


def checked_spec(text: str, caps: Caps) -> str:
    """A client's agent spec, checked against the caps and by the agent (stripped); raises
    :class:`OptionError` naming what is wrong."""
    name, level, params = parse_agent_spec(text)
    for key in SERVER_PARAMETERS:
        if key in params:
            raise OptionError(f"{key} is set by the server, not by a client (the cap: {caps._flag()})")
    for key in ITERATION_BUDGETS:
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > caps.iterations:
            raise OptionError(
                f"{key}={value} is over this server's cap of {caps.iterations} iterations ({caps._flag()})"
            )
    seconds = params.get("seconds")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > caps.think_seconds:
        cap = caps.think_seconds
        raise OptionError(
            f"seconds={seconds:g} is over this server's cap of {cap:g} seconds ({caps._flag()})"
        )
    make_agent(name, level, **params)  # the agent's own checks: levels, parameters, finite numbers
    return text.strip()


def _clamped(params: dict[str, Any], caps: Caps) -> dict[str, Any]:
    out = {k: v for k, v in params.items() if k not in SERVER_PARAMETERS}
    for key in ITERATION_BUDGETS:
        value = out.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = max(0, min(int(value) if math.isfinite(value) else caps.iterations, caps.iterations))
    seconds = out.get("seconds")
    if (
        isinstance(seconds, (int, float))
        and not isinstance(seconds, bool)
        and not seconds <= caps.think_seconds
    ):
        out["seconds"] = caps.think_seconds  # over the cap, infinite or nan
    return out


def capped_agent(text: str, caps: Caps) -> Agent:
    """The agent a stored spec names, its budget clamped to the caps and every search cut at
    :attr:`Caps.think_seconds` (an agent with a ``deadline_seconds``); a stored parameter the
    agent refuses is dropped (the agent at its level, logged)."""
    name, level, params = parse_agent_spec(text)
    bound: dict[str, Any] = {"name": text.strip()}
    accepted = agent_parameters(name)
    if "deadline_seconds" in accepted:
        bound["deadline_seconds"] = caps.think_seconds
    if "workers" in accepted:
        bound["workers"] = 1  # one process a search: the server's threads think, never helpers
    try:
        return make_agent(name, level, **_clamped(params, caps), **bound)
    except OptionError as exc:
        log.warning("agent %r: %s; played at its level without its parameters", text, exc)
        return make_agent(name, level, **bound)


class HintQueue:
    """The hints being thought (thread-safe): at most one per match and ``limit`` in all; one more
    is refused at once with 429 (saying whether this match's or the server's are taken), never
    queued."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._matches: set[str] = set()
        self._lock = threading.Lock()

    def refusal(self, match_id: str) -> ApiError | None:
        """Why a hint for ``match_id`` would be refused now (``None``: it would be taken)."""
        with self._lock:
            return self._refusal(match_id)

    def _refusal(self, match_id: str) -> ApiError | None:
        if match_id in self._matches:
            return ApiError(429, "a hint for this match is being thought already: wait for it")
        if len(self._matches) >= self.limit:
            return ApiError(
                429, f"the server is thinking {len(self._matches)} hints already: try again in a few seconds"
            )
        return None

    def enter(self, match_id: str) -> None:
        """Take a place for a hint of ``match_id``, or raise the refusal."""
        with self._lock:
            refused = self._refusal(match_id)
            if refused is not None:
                raise refused
            self._matches.add(match_id)

    def leave(self, match_id: str) -> None:
        with self._lock:
            self._matches.discard(match_id)

    def __len__(self) -> int:
        with self._lock:
            return len(self._matches)


__all__ = [
    "DEFAULT_HINTS",
    "DEFAULT_THINK_SECONDS",
    "ITERATIONS_PER_SECOND",
    "Caps",
    "HintQueue",
    "capped_agent",
    "checked_spec",
]
