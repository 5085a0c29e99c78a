"""Matches in memory and their sync with the store: the live cache, commits, conflicts.

A :class:`Live` is a stored match's row and its :class:`~regalia.match.Match` (rebuilt from the
stored plies, their times, the stored ending and the time control; the running clock goes on from
the wall-clock second it started, stored with every change, so a restart costs no seat its time).
:class:`Lives` keeps the most recently used in memory and reads a match again when another process
moved it on. :meth:`Lives.commit` writes one change (the plies from ``keep`` on, the match's
status, who is to act, the result with its ending, when the running clock started) only if the
stored version is still the one in memory; when another writer came first nothing is written, the
match is dropped from memory and :class:`~regalia.server.errors.Conflict` (409) says to reload.
:meth:`Lives.settle_time` commits the end of a match whose flag has fallen through the same path,
so of two processes that find it fallen only one ends it. A change after which a computer seat is to
act also takes the lease of that computer move for this process (:attr:`Lives.owner`, for
:data:`LEASE_SECONDS`, renewed while it thinks: see :mod:`regalia.server.computers`), and only the
lease holder commits the computer's move (``holder``). :meth:`Lives.store_new` writes a new match,
its tokens and its opening plies in one transaction.

>>> import os, tempfile
>>> store = Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.db"))
>>> lives = Lives(store)
>>> live = lives.new("royal-court", {}, [{"kind": "human", "name": "red", "agent": None}] * 2, "online")
>>> _ = live.match.advance(computers=False)
>>> lives.store_new(live, [])
>>> again = lives.read(live.id)
>>> again.version, [e.text for e in again.match.log()] == [e.text for e in live.match.log()]
(1, True)
"""

from __future__ import annotations

import collections
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from regalia.core.game import OMNISCIENT
from regalia.core.record import Record
from regalia.core.registry import load_game
from regalia.match import Match, TimeControl
from regalia.server.errors import ApiError, Conflict
from regalia.server.seats import match_seats
from regalia.server.store import Change, MatchRow, Store, now

#: Matches kept in memory (the least recently used are dropped and replayed when asked again).
CACHE_SIZE: Final = 512
#: Seconds a computer move's lease lasts unless renewed (a process renews the leases of the moves it
#: thinks about every second or so; another process takes over a move whose lease ran out).
LEASE_SECONDS: Final = 3.0


def process_owner() -> str:
    """A name for this server process (and store) in the leases: host, process id, random part."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"


class Live:
    """A match in memory: its stored row's fields, its :class:`Match`, the version it is at, the
    seat waiting for an answer to its undo request, and the version a computer seat is thinking
    about (``None``: none). Read and changed under ``lock``."""

    def __init__(self, row: MatchRow, match: Match) -> None:
        self.row = row
        self.match = match
        self.version = row.version
        self.undo_by = row.undo_by
        self.lock = threading.RLock()
        self.thinking: int | None = None
        #: The version whose computer move's lease this process took with its commit (``None``: none).
        self.leased: int | None = None
        #: The match is over as stored (a flag found fallen in memory is not, until committed).
        self.finished = row.status == "finished"

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.row.seats

    @property
    def screen(self) -> str:
        return self.row.screen

    @property
    def is_thinking(self) -> bool:
        """A computer seat is choosing its move in the position of this version."""
        return self.thinking == self.version


def new_match(
    game_id: str,
    options: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    screen: str,
    seed: int,
    time_control: str | None = None,
    now: Callable[[], float] = time.time,
) -> Match:
    """The match layer's match of a server's match (online: a takeback needs the other side's
    consent; ``time_control`` its notation, ``None`` for none; ``now`` wall-clock time, so that the
    clocks mean the same in every process and after a restart). Computer seats are not played
    here: they think in the pool."""
    game = load_game(game_id, **options)
    control = TimeControl.parse(time_control) if time_control else None
    return Match(
        game, match_seats(seats), seed=seed, consent=screen == "online", time_control=control, now=now
    )


def result_of(match: Match) -> dict[str, Any] | None:
    """What the store keeps of a finished match's result (with its ending: a resignation, a fallen
    flag)."""
    if not match.is_over():
        return None
    result: dict[str, Any] = {"scores": match.scores(), "returns": match.returns(), "winner": match.winner()}
    if match.ending is not None:
        result["ending"] = match.ending.to_json()
    return result


class Lives:
    """The live matches of one store (thread-safe); ``now`` is the clocks' wall-clock time; leases
    are ``owner``'s (this process) for ``lease_seconds`` of ``lease_clock`` (wall-clock time, the same
    in every process)."""

    def __init__(
        self,
        store: Store,
        size: int = CACHE_SIZE,
        now: Callable[[], float] = time.time,
        lease_seconds: float = LEASE_SECONDS,
        lease_clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.size = size
        self.now = now
        self.owner = process_owner()
        self.lease_seconds = lease_seconds
        self.lease_clock = lease_clock
        self._cache: collections.OrderedDict[str, Live] = collections.OrderedDict()
        self._lock = threading.Lock()

    # -- a new match -------------------------------------------------------------------------
    def new(
        self,
        game_id: str,
        options: Mapping[str, Any],
        seats: list[dict[str, Any]],
        screen: str,
        time_control: str | None = None,
        public: bool = False,
    ) -> Live:
        """A new match, not yet stored (:meth:`store_new` writes it); ``time_control`` its
        notation (``None``: none); ``public``: listed to everyone."""
        seed = secrets.randbits(62)
        match = new_match(game_id, options, seats, screen, seed, time_control, self.now)
        stamp = now()
        row = MatchRow(
            id=secrets.token_urlsafe(16),
            game=game_id,
            options=match.game.options.to_json(),
            seats=seats,
            screen=screen,
            seed=seed,
            version=0,
            status="active",
            to_act=None,
            result=None,
            undo_by=None,
            created=stamp,
            updated=stamp,
            plies=0,
            time_control=match.time_control.text if match.time_control.timed else None,
            public=public,
        )
        return Live(row, match)

    def store_new(self, live: Live, digests: Sequence[tuple[str, int]]) -> None:
        """Write a new match, its seats' token digests and, as its first change, what was played in
        memory (the opening draws), in one transaction: all of it or, on a failure, nothing. The match
        is then at version 1."""
        fields = {name: getattr(live.row, name) for name in live.row.__dataclass_fields__}
        with live.lock:
            change = self._change(live, keep=0, undo_by=None, trim=False)
            self.store.create(fields, digests, change)
            self._committed(live, change, None)

    def lease_until(self) -> float:
        """When a lease taken now runs out."""
        return self.lease_clock() + self.lease_seconds

    # -- the cache -----------------------------------------------------------------------------
    def remember(self, live: Live) -> None:
        with self._lock:
            self._cache[live.id] = live
            self._cache.move_to_end(live.id)
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)

    def forget(self, match_id: str) -> None:
        """Drop a match from memory (another process changed it; it is read again when asked)."""
        with self._lock:
            self._cache.pop(match_id, None)

    def cached(self, match_id: str) -> Live | None:
        with self._lock:
            return self._cache.get(match_id)

    def clocked(self) -> list[Live]:
        """The timed matches in memory not over as stored (those whose flag can fall)."""
        with self._lock:
            lives = list(self._cache.values())
        return [live for live in lives if live.match.time_control.timed and not live.finished]

    def live(self, match_id: str, trust_cache: bool = False) -> Live:
        """The match, current with the store (read again if another process changed it). With
        ``trust_cache`` a match held in memory is returned without asking the store: for a change,
        whose commit is refused anyway if another process moved the match on."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise ApiError(404, "no such match")
        live = self.cached(match_id)
        if trust_cache and live is not None:
            return live
        version = self.store.version(match_id)
        if version is None:
            raise ApiError(404, f"no match {match_id!r}")
        if live is not None and live.version == version:
            return live
        live = self.read(match_id)
        self.remember(live)
        return live

    def read(self, match_id: str) -> Live:
        """The match as stored: its plies replayed (trusted: the server wrote them) with their
        times, and its ending."""
        row = self.store.match(match_id)
        if row is None:
            raise ApiError(404, f"no match {match_id!r}")
        plies = self.store.timed_plies(match_id)
        if self.store.version(match_id) != row.version:  # changed between the two reads: again
            return self.read(match_id)
        match = new_match(row.game, row.options, row.seats, row.screen, row.seed, row.time_control, self.now)
        times = tuple(seconds for _seat, _text, seconds in plies)
        record = Record(
            game=row.game,
            options=row.options,
            seats=tuple(match.names()),
            actions=tuple(text for _seat, text, _seconds in plies),
            times=times if any(t is not None for t in times) else (),
            ending=(row.result or {}).get("ending"),
        )
        match.restore(record, trusted=True)
        if row.clock_since is not None:
            match.resume_clock(row.clock_since)
        return Live(row, match)

    def changed_elsewhere(self, match_id: str) -> bool:
        """Another process changed a match: True if this one held an older version of it."""
        live = self.cached(match_id)
        if live is None:
            return True
        if self.store.version(match_id) == live.version:
            return False
        self.forget(match_id)
        return True

    # -- writing -------------------------------------------------------------------------------
    def commit(
        self,
        live: Live,
        keep: int,
        undo_by: int | None = None,
        trim: bool = False,
        holder: str | None = None,
    ) -> None:
        """Write the change of ``live`` (held under its lock): its plies from ``keep`` on (``trim``:
        those stored after ``keep`` were taken back); with ``holder``, only if the lease of the
        computer move is still that owner's. If another process moved the match on first (or took
        the move over), or the database fails, nothing is written and the match is read again when
        next asked."""
        change = self._change(live, keep, undo_by, trim)
        try:
            done = self.store.commit_change(live.id, live.version, change, holder)
        except Exception:
            self.forget(live.id)
            raise
        if not done:
            self.forget(live.id)
            raise Conflict(409, "the match was changed meanwhile by another server: reload it")
        self._committed(live, change, undo_by)

    def _change(self, live: Live, keep: int, undo_by: int | None, trim: bool) -> Change:
        """The change of ``live`` from ply ``keep`` on, with the lease of the computer move that
        follows it (if a computer seat is to act)."""
        match = live.match
        added = match.log(OMNISCIENT, keep)
        over = match.is_over()
        computer = not over and match.kind(match.state.current_player) == "computer"
        return Change(
            keep=keep,
            trim=trim,
            added=[(e.seat, e.text) for e in added],
            seconds=[e.seconds for e in added],
            status="finished" if over else "active",
            to_act=None if over else match.state.current_player,
            result=result_of(match),
            undo_by=undo_by,
            clock_since=match.clock_since(),
            lease_owner=self.owner if computer else None,
            lease_until=self.lease_until() if computer else None,
        )

    def _committed(self, live: Live, change: Change, undo_by: int | None) -> None:
        live.version += 1
        live.undo_by = undo_by
        live.finished = change.status == "finished"
        live.leased = live.version if change.lease_owner is not None else None

    def settle_time(self, live: Live) -> bool:
        """End ``live`` (held under its lock) if the flag of the seat to act has fallen: the ending
        is committed (version-checked: :class:`Conflict` when another process came first). True
        when it was committed now."""
        match = live.match
        if live.finished or not match.time_control.timed or not match.check_time():
            return False
        self.commit(live, keep=match.state.ply, undo_by=None)
        return True


__all__ = ["CACHE_SIZE", "LEASE_SECONDS", "Live", "Lives", "new_match", "process_owner", "result_of"]
