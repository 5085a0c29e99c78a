"""Computer seats: they think in a pool of worker processes, off the request path.

:func:`think` runs in a worker: it rebuilds the match from its record (the text the server stores)
and asks :meth:`Match.choose <regalia.match.Match.choose>` for the computer seat's move (or
:meth:`Match.hint <regalia.match.Match.hint>` for a person's hint), with the generators the match
layer derives from the secret seed. :class:`Computers` submits the job when a computer seat is to
act, plays the move it brings through :meth:`Match.play <regalia.match.Match.play>` (then chance
and automata) if the match has not moved on meanwhile (a computer's time counts as a person's: when
its flag fell while it thought, the match ends instead), and, after a start, resumes every stored
match waiting for a computer (:meth:`Computers.resume`).

Every search obeys the server's caps (:mod:`regalia.server.budgets`): the worker builds the agent
with its budget clamped and a hard deadline of ``think_seconds`` (a search still running then is cut
and its best move so far played), whatever spec was stored, so a resumed search is bounded too.
Hints are bounded (one per match, a few in all; more are refused at once with 429) and waited for off
the request threads (:meth:`Computers.hint` gives the future).

Several server processes may share a database: a computer move is thought about by the process that
holds its **lease** (``matches.lease_owner`` until ``lease_until``, taken with the commit that makes a
computer seat to act, or by :meth:`Computers.schedule`'s conditional UPDATE), renewed while it thinks
(:meth:`Computers.tick`, every second from the application), and committed only by that holder at the
version it thought about. When the thinking process dies its lease runs out, and the next
:meth:`Computers.tick` of any other process claims the move and thinks it again.

>>> import regalia
>>> from regalia.match import Match, Seat
>>> match = Match(regalia.load_game("royal-court"), [Seat.human(), Seat.computer("random")], seed=3)
>>> _ = match.advance(computers=False)
>>> think(match.record().to_json(), 3, None) in [match.state.notation(a) for a in match.state.legal_actions()]
True
"""

from __future__ import annotations

import concurrent.futures
import logging
import threading
from collections.abc import Callable
from typing import Any

from regalia.ai.base import Agent
from regalia.core.errors import OptionError
from regalia.core.game import OMNISCIENT
from regalia.core.record import Record
from regalia.core.registry import game_class, game_ids
from regalia.match import HINT_AGENT, Match, Seat
from regalia.server.budgets import Caps, HintQueue, capped_agent
from regalia.server.errors import ApiError, Conflict
from regalia.server.live import Live, Lives

log = logging.getLogger("regalia.server")


def think(record: dict[str, Any], seed: int, hint_for: int | None, think_seconds: float | None = None) -> str:
    """The move (notation) of the computer seat to act in the match ``record`` describes (run in a
    worker process), or with ``hint_for`` the hint for that seat; ``seed`` is the match's secret
    seed (the agents' generators come from it, as everywhere). With ``think_seconds`` every agent
    is capped (:func:`~regalia.server.budgets.capped_agent`): budgets clamped, each search cut then."""
    doc = Record.from_json(record)
    caps = None if think_seconds is None else Caps(think_seconds=think_seconds)
    agents: dict[int, Agent] = {}
    if caps is not None and hint_for is None:
        for s, label in enumerate(doc.players):
            try:
                seat = Seat.from_label(label)
            except OptionError:
                continue
            if seat.agent is not None:
                agents[s] = capped_agent(seat.agent, caps)
    match = Match.from_record(doc, seed=seed, describe=False, trusted=True, agents=agents)
    if hint_for is None:
        action = match.choose()
    else:
        spec = HINT_AGENT if caps is None else f"{HINT_AGENT}:deadline_seconds={caps.think_seconds!r}"
        action = match.hint(hint_for, spec)
    return match.state.notation(action)


def warm() -> bool:
    """Nothing: submitted once to a new process pool so that its worker imports the games before
    the first computer seat needs it."""
    import regalia.ai.registry  # noqa: F401

    for game_id in game_ids():
        game_class(game_id)
    return True


def job(live: Live, hint_for: int | None = None) -> tuple[dict[str, Any], int, int | None]:
    """What a worker needs to think about ``live`` (held under its lock)."""
    return live.match.record(OMNISCIENT).to_json(), live.row.seed, hint_for


class Computers:
    """Schedules the computer seats of the live matches on ``pool``; ``on_change(live)`` is called
    after each change a computer's move commits (it schedules the next one and pushes)."""

    def __init__(
        self,
        pool: concurrent.futures.Executor,
        lives: Lives,
        on_change: Callable[[Live], None],
        caps: Caps | None = None,
    ) -> None:
        self.pool = pool
        self.lives = lives
        self.on_change = on_change
        #: What any search may think (``think_seconds``), and how many hints at once.
        self.caps = caps or Caps()
        self.hints = HintQueue(self.caps.hints)
        #: The matches this process thinks about (id -> version): their leases are renewed.
        self._held: dict[str, int] = {}
        self._held_lock = threading.Lock()

    def schedule(self, live: Live) -> None:
        """Submit the computer seat to act in ``live`` to the pool, unless it is thinking already or
        another process holds the lease of that move."""
        with live.lock:
            match = live.match
            if match.is_over() or match.kind(match.state.current_player) != "computer" or live.is_thinking:
                return
            if live.leased != live.version:  # not taken with this process's commit: take it now
                lives = self.lives
                if not lives.store.take_lease(
                    live.id, live.version, lives.owner, lives.lease_clock(), lives.lease_until()
                ):
                    return  # another process thinks about it (or the match moved on)
                live.leased = live.version
            version = live.thinking = live.version
            work = job(live)
        with self._held_lock:
            self._held[live.id] = version
        future = self.pool.submit(think, *work, self.caps.think_seconds)
        future.add_done_callback(lambda f: self._moved(live.id, version, f))

    def _moved(self, match_id: str, version: int, future: concurrent.futures.Future[str]) -> None:
        with self._held_lock:
            if self._held.get(match_id) == version:
                del self._held[match_id]
        try:
            text = future.result()
            live = self.lives.live(match_id)
            with live.lock:
                if live.thinking == version:
                    live.thinking = None
                # Played unless taken back or moved on meanwhile, or its flag fell as it thought
                # (then the ending is committed instead).
                if live.version == version and not self.lives.settle_time(live):
                    match = live.match
                    keep = match.state.ply
                    match.play(match.state.current_player, text)
                    match.advance(computers=False)
                    self.lives.commit(live, keep=keep, holder=self.lives.owner)
            self.on_change(live)  # the next computer seat, and the push (thinking is over)
        except Conflict:  # moved on, or taken over by another process after this one's lease ran out
            log.info("computer move of match %s dropped: another server moved the match on", match_id)
        except Exception:  # a worker's failure must not take the server down; it is logged
            log.exception("computer move of match %s failed", match_id)
            self.lives.forget(match_id)

    def hint(self, live: Live, seat: int) -> concurrent.futures.Future[str]:
        """The hint agent's move for ``seat`` (to act), submitted to the pool: its future. At most
        one per match and ``caps.hints`` in all (:class:`~regalia.server.budgets.HintQueue`: 429
        beyond); the place is given back when the future is done or cancelled."""
        self.hints.enter(live.id)
        try:
            with live.lock:
                work = job(live, hint_for=seat)
            future = self.pool.submit(think, *work, self.caps.think_seconds)
        except RuntimeError:  # the pool is shut down: the server is stopping
            self.hints.leave(live.id)
            raise ApiError(503, "the server is stopping: no hint now") from None
        except BaseException:
            self.hints.leave(live.id)
            raise
        future.add_done_callback(lambda _f: self.hints.leave(live.id))
        return future

    def resume(self) -> int:
        """Ask the computer seats to move in every match waiting for one (after a start)."""
        waiting = self.lives.store.waiting_on(
            lambda row: (
                row.to_act is not None and row.to_act >= 0 and row.seats[row.to_act]["kind"] == "computer"
            )
        )
        for match_id in waiting:
            self.schedule(self.lives.live(match_id))
        return len(waiting)

    def tick(self) -> int:
        """Renew the leases of the moves this process thinks about, and take over the computer moves
        whose lease ran out (their process died); how many were taken over. The application calls
        it every second or so."""
        lives = self.lives
        with self._held_lock:
            held = list(self._held)
        lives.store.renew_leases(lives.owner, held, lives.lease_until())
        claimed = lives.store.claim_expired(lives.owner, lives.lease_clock(), lives.lease_until())
        for match_id in claimed:
            log.info("computer move of match %s taken over (its lease ran out)", match_id)
            try:
                live = lives.live(match_id)
                with live.lock:
                    live.leased = live.version
                self.schedule(live)
            except Exception:
                log.exception("taking over the computer move of match %s failed", match_id)
        return len(claimed)


__all__ = ["Computers", "think", "warm"]
