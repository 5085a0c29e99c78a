"""The analysis of a finished match on the server: queued, within the caps, cached in the store.

``POST /api/matches/{id}/analysis`` asks for it (a finished match only: 409 otherwise; anyone who may
read the finished record may ask), ``GET`` answers where it stands (docs/server.md, "Analysis"):

``{"status": "none"|"queued"|"running"|"done"|"failed", "progress": {"done", "total"},
"analysis": <Analysis JSON> | null, "best": [{"ply", "best", "label", "places"}], "budget",
"error"}``

The work is :func:`regalia.lab.analyse.analyse_record`'s, one decision at a time
(:func:`analyse_position`, run in the server's pool of worker processes, between the computer
seats' moves), at a budget within the caps (:func:`analysis_budget`: at most
:data:`DEFAULT_ITERATIONS` iterations a position, fewer under a small ``--max-think-seconds``, and
every search cut at ``--max-think-seconds``). :class:`Analyses` runs at most one analysis at a time
in a server process, in a thread of its own that only waits for the pool; at most
:data:`QUEUE_LIMIT` wait behind it (one more is 429). The result is kept in the store's
``analyses`` table (migration 0006), so it is computed once, survives a restart and is served by
every process sharing the database; a process that dies with an analysis queued or running stops
updating its row, and after :data:`STALE_SECONDS` a request in another process takes it over.

For every decision the answer also says where the best move would have been played: the best move
applied to a copy of the position before the ply, and ``Plugin.places`` of it (``data-pos``
values), with the move in words (``Plugin.action_label``), so the browser draws it knowing no game.

>>> from regalia.server.budgets import Caps
>>> analysis_budget(Caps()), analysis_budget(Caps(), 20)
('mcts:iterations=300:deadline_seconds=5', 'mcts:iterations=20:deadline_seconds=5')
>>> analysis_budget(Caps(think_seconds=0.1))
'mcts:iterations=100:deadline_seconds=0.1'
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from regalia.core.game import OMNISCIENT, Ply
from regalia.core.record import Record, apply_ply, initial_state
from regalia.core.registry import game_plugin
from regalia.lab.analyse import Analysis, PlyAnalysis, analyse_record
from regalia.server.budgets import Caps
from regalia.server.errors import ApiError
from regalia.server.live import Live, Lives, process_owner
from regalia.server.store import AnalysisRow, Store
from regalia.server.views import position_at

log = logging.getLogger("regalia.server")

#: Iterations a position is searched with by default (``mcts:medium``'s), fewer when the caps allow
#: fewer (``regalia serve --analysis-iterations``; ``create_app(analysis_iterations=)``).
DEFAULT_ITERATIONS: Final = 300
#: Analyses waiting behind the one running in a server process; one more is refused (429).
QUEUE_LIMIT: Final = 4
#: Seconds after which an analysis queued or running in a process that stopped updating it (it
#: died) is taken over by the next request.
STALE_SECONDS: Final = 120.0
#: The seed of the server's analyses (each position ``derive_seed(SEED, "analyse", ply)``).
SEED: Final = 0
#: The statuses of an analysis.
STATUSES: Final = ("none", "queued", "running", "done", "failed")


def analysis_budget(caps: Caps, iterations: int | None = None) -> str:
    """The agent spec a server analyses a position with: ``iterations`` (by default
    :data:`DEFAULT_ITERATIONS`) bounded by the caps, and every search cut at the caps' seconds."""
    wanted = DEFAULT_ITERATIONS if iterations is None else iterations
    n = max(1, min(int(wanted), caps.iterations))
    return f"mcts:iterations={n}:deadline_seconds={caps.think_seconds:g}"


def best_move(record: Record, ply: int, best: str) -> dict[str, Any]:
    """Where the best move of ply ``ply`` (from 1) would have been played: ``places`` (``data-pos``
    values of ``Plugin.places`` after it, applied to a copy of the position before the ply) and
    ``label`` (the move in words)."""
    state = initial_state(record)
    for k, text in enumerate(record.actions[: ply - 1], start=1):
        apply_ply(state, k, text)
    plugin = game_plugin(record.game)
    player = state.current_player
    action = state.parse_or_raise(best)
    label = str(plugin.action_label(state, action))
    after = state.clone()
    after.apply(action)
    places = [str(p) for p in plugin.places(after, Ply(player, action, after.action_text(action)))]
    return {"ply": ply, "best": best, "label": label, "places": places}


def analyse_position(record: dict[str, Any], budget: str, seed: int, ply: int) -> dict[str, Any]:
    """Analyse the decision at ply ``ply`` (from 1) of ``record`` (a worker's task): ``{"row": the
    analysed ply's JSON, "best": where its best move would have been played (or null)}``."""
    analysis = analyse_record(record, budget, seed=seed, plies={ply})
    row = next(p for p in analysis.plies if p.ply == ply)
    best = None if row.best is None else best_move(Record.from_json(record), ply, row.best)
    return {"row": row.to_json(), "best": best}


def plan(record: dict[str, Any], budget: str) -> tuple[Analysis, list[int]]:
    """The plies of ``record`` listed without a search, and the decisions to search."""
    listed = analyse_record(record, budget, seed=SEED, plies=())
    return listed, [p.ply for p in listed.plies if p.kind == "decision"]


def answer(row: AnalysisRow | None) -> dict[str, Any]:
    """The API's answer for a stored analysis (``None``: never asked for)."""
    if row is None:
        return {
            "status": "none",
            "progress": {"done": 0, "total": 0},
            "analysis": None,
            "best": [],
            "budget": None,
            "error": None,
        }
    result = row.result if row.status == "done" else None
    return {
        "status": row.status,
        "progress": {"done": row.done, "total": row.total},
        "analysis": None if result is None else result.get("analysis"),
        "best": [] if result is None else result.get("best", []),
        "budget": row.budget,
        "error": row.error,
    }


@dataclasses.dataclass
class _Job:
    match_id: str
    record: dict[str, Any]


class Analyses:
    """The analyses of one server process: a queue of at most ``limit`` waiting, one running at a
    time in a thread of its own, each position searched in ``pool``. ``record_of(match_id)`` gives a
    finished match's complete record (raising :class:`ApiError` 409 for a match in progress)."""

    def __init__(
        self,
        store: Store,
        pool: concurrent.futures.Executor,
        record_of: Callable[[str], dict[str, Any]],
        caps: Caps,
        iterations: int | None = None,
        limit: int = QUEUE_LIMIT,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.pool = pool
        self.record_of = record_of
        self.caps = caps
        self.budget = analysis_budget(caps, iterations)
        self.limit = limit
        self.now = now
        self.owner = process_owner()
        self._waiting: collections.deque[_Job] = collections.deque()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._stopped = False
        self._thread: threading.Thread | None = None
        #: The match being analysed now (``None``: none).
        self.running: str | None = None

    # -- the API ------------------------------------------------------------------------------
    def status(self, match_id: str) -> dict[str, Any]:
        """Where the analysis of a match stands."""
        return answer(self.store.analysis(match_id))

    def request(self, match_id: str) -> dict[str, Any]:
        """Queue the analysis of a finished match (409 for one in progress; 429 when
        :attr:`limit` analyses wait already); nothing new when it is queued, running or done."""
        record = self.record_of(match_id)
        row = self.store.analysis(match_id)
        if row is not None and row.status == "done":
            return answer(row)
        with self._lock:
            if self._stopped:
                raise ApiError(503, "the server is stopping: no analysis now")
            if any(job.match_id == match_id for job in self._waiting) or self.running == match_id:
                return answer(row)
            full = len(self._waiting) >= self.limit
        if row is not None and row.status in ("queued", "running") and row.updated >= self._stale():
            return answer(row)  # another process works on it
        if full:
            raise ApiError(
                429, f"the server has {self.limit} analyses waiting already: try again in a few minutes"
            )
        if self.store.claim_analysis(match_id, self.owner, self.budget, self.now(), self._stale()):
            with self._lock:
                self._waiting.append(_Job(match_id, record))
                self._start()
                self._wake.notify()
        return answer(self.store.analysis(match_id))

    def close(self) -> None:
        """Stop taking analyses (those waiting stay queued in the store, taken over later)."""
        with self._lock:
            self._stopped = True
            self._waiting.clear()
            self._wake.notify_all()

    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    # -- the work -----------------------------------------------------------------------------
    def _stale(self) -> float:
        return self.now() - STALE_SECONDS

    def _start(self) -> None:  # under the lock
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="regalia-analyses", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                job = self._waiting.popleft()
                self.running = job.match_id
            try:
                self._analyse(job)
            except Exception as exc:  # logged and stored; the next analysis goes on
                log.exception("the analysis of match %s failed", job.match_id)
                error = f"{type(exc).__name__}: {exc}"[:500]
                now = self.now()
                self.store.analysis_progress(job.match_id, self.owner, now, "failed", 0, 0, error=error)
            finally:
                with self._lock:
                    self.running = None

    def _analyse(self, job: _Job) -> None:
        store, owner = self.store, self.owner
        listed, decisions = plan(job.record, self.budget)
        total = len(decisions)
        store.analysis_progress(job.match_id, owner, self.now(), "running", 0, total)
        rows = {p.ply: p for p in listed.plies}
        best: list[dict[str, Any]] = []
        wait = 3 * self.caps.think_seconds + 30.0
        for done, ply in enumerate(decisions, start=1):
            with self._lock:
                if self._stopped:
                    return
            future = self.pool.submit(analyse_position, job.record, self.budget, SEED, ply)
            found = future.result(timeout=wait)
            rows[ply] = PlyAnalysis.from_json(found["row"])
            if found["best"] is not None:
                best.append(found["best"])
            now = self.now()
            if not store.analysis_progress(job.match_id, owner, now, "running", done, total):
                log.info("the analysis of match %s was taken over by another server", job.match_id)
                return
            store.touch_analyses(owner, now)  # those waiting are not stale
        analysis = dataclasses.replace(listed, plies=tuple(rows[k] for k in sorted(rows)))
        result = {"analysis": analysis.to_json(), "best": best}
        store.analysis_progress(job.match_id, owner, self.now(), "done", total, total, result=result)


def best_board(live: Live, ply: int, best: str) -> dict[str, Any]:
    """The board (``render_board``, nothing clickable) of a finished match had ply ``ply`` been its
    best move ``best``: the position before the ply with the best move applied (the replay's
    "show the best move")."""
    state = position_at(live, ply - 1)
    state.apply(state.parse_or_raise(best))
    plugin = live.match.game.plugin()
    return {"ply": ply, "best": best, "board": plugin.render_board(state, None, False)}


def finished_record(lives: Lives, match_id: str) -> dict[str, Any]:
    """The complete record of a finished match (409 while it is in progress)."""
    live = lives.live(match_id)
    with live.lock:
        if not live.match.is_over():
            raise ApiError(409, "a match is analysed once it is over")
        doc: dict[str, Any] = live.match.record(OMNISCIENT).to_json()
    return doc


__all__ = [
    "DEFAULT_ITERATIONS",
    "QUEUE_LIMIT",
    "STALE_SECONDS",
    "STATUSES",
    "Analyses",
    "analyse_position",
    "analysis_budget",
    "answer",
    "best_board",
    "best_move",
    "finished_record",
    "plan",
]
