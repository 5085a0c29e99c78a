"""The server's storage: matches, their plies and their seat tokens, through SQLAlchemy.

A SQLite file by default, PostgreSQL by URL; the schema is created and migrated by Alembic
(:func:`migrate`, run when a :class:`Store` opens). Every change of a match is one transaction that
moves its ``version`` on only if nobody else did first (:meth:`Store.commit_change`), so several
server processes may share one database: the loser of a race is told, and nothing is half written.
On PostgreSQL the same transaction sends ``NOTIFY regalia_matches, '<match id>'`` so that the other
processes push the change to their own clients (:class:`Listener`).

>>> import os, tempfile
>>> store = Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.db"))
>>> store.version("no-such-match") is None, store.listing(None, 10)
(True, [])
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

#: One row per match: what it is, how far it is, and the seed of its draws (never sent out); its
#: ``time_control`` (the notation; null: none) and ``clock_since``, the wall-clock second the running
#: clock of the seat to act started (null: no clock runs); the lease of its computer move,
#: ``lease_owner`` (the server process thinking about it) and ``lease_until`` (wall-clock seconds:
#: another process takes the move over after that), both null unless a computer seat is to act
#: (migration 0004); ``public``: listed to everyone (migration 0005; false: only its links find it).
matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("screen", sa.String(16), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("plies", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("to_act", sa.Integer, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("undo_by", sa.Integer, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    sa.Column("time_control", sa.String(64), nullable=True),
    sa.Column("clock_since", sa.Float, nullable=True),
    sa.Column("lease_owner", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
)
sa.Index("matches_status_updated", matches.c.status, matches.c.updated)
sa.Index("matches_lease_until", matches.c.lease_until)

#: The record of a match: ply ``number`` (from 0) by ``seat`` (a seat, or -1 for chance), and the
#: ``seconds`` its seat used (null for chance and automata).
plies = sa.Table(
    "plies",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(200), nullable=False),
    sa.Column("seconds", sa.Float, nullable=True),
)

#: The SHA-256 of each seat's token (the token itself is never stored).
tokens = sa.Table(
    "tokens",
    metadata,
    sa.Column("digest", sa.String(64), primary_key=True),
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
)

#: The analysis of a finished match (migration 0006; :mod:`regalia.server.analysis`): ``status``
#: ``queued``, ``running``, ``done`` or ``failed``; ``done`` of ``total`` decisions searched; the
#: ``result`` (``{"analysis": ..., "best": [...]}``) or the ``error``; the server process working on
#: it (``owner``) and when it last said so (``updated``, wall-clock seconds).
analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("budget", sa.String(128), nullable=False),
    sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    sa.Column("total", sa.Integer, nullable=False, server_default="0"),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("error", sa.String(500), nullable=True),
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("updated", sa.Float, nullable=False),
)

#: The statements of the hot path, built once (bound parameters; SQLAlchemy caches their compiled
#: form), so a move costs no statement construction.
_VERSION = sa.select(matches.c.version).where(matches.c.id == sa.bindparam("match_id"))
_MOVE_ON = (
    sa.update(matches)
    .where(matches.c.id == sa.bindparam("match_id"), matches.c.version == sa.bindparam("expected"))
    .values(
        version=sa.bindparam("new_version"),
        plies=sa.bindparam("new_plies"),
        status=sa.bindparam("new_status"),
        to_act=sa.bindparam("new_to_act"),
        result=sa.bindparam("new_result", type_=sa.JSON),
        undo_by=sa.bindparam("new_undo_by"),
        updated=sa.bindparam("new_updated"),
        clock_since=sa.bindparam("new_clock_since"),
        lease_owner=sa.bindparam("new_lease_owner"),
        lease_until=sa.bindparam("new_lease_until"),
    )
)
#: The same, for the holder of the computer move's lease only (a computer's move is committed by
#: the process whose lease it is, at the version it thought about).
_MOVE_ON_HELD = _MOVE_ON.where(matches.c.lease_owner == sa.bindparam("holder"))
#: Take the lease of a match's computer move at a version: free, run out, or already this owner's.
_TAKE = (
    sa.update(matches)
    .where(
        matches.c.id == sa.bindparam("match_id"),
        matches.c.version == sa.bindparam("expected"),
        matches.c.status == "active",
        sa.or_(
            matches.c.lease_owner.is_(None),
            matches.c.lease_owner == sa.bindparam("owner"),
            matches.c.lease_until.is_(None),
            matches.c.lease_until < sa.bindparam("now"),
        ),
    )
    .values(lease_owner=sa.bindparam("owner"), lease_until=sa.bindparam("until"))
)
#: The leases whose time ran out: matches waiting for a computer whose process stopped renewing.
_EXPIRED = (
    sa.select(matches.c.id)
    .where(
        matches.c.status == "active",
        matches.c.lease_until.is_not(None),
        matches.c.lease_until < sa.bindparam("now"),
    )
    .order_by(matches.c.lease_until)
    .limit(sa.bindparam("limit"))
)
_CLAIM = (
    sa.update(matches)
    .where(
        matches.c.id == sa.bindparam("match_id"),
        matches.c.status == "active",
        matches.c.lease_until < sa.bindparam("now"),
    )
    .values(lease_owner=sa.bindparam("owner"), lease_until=sa.bindparam("until"))
)
_RENEW = (
    sa.update(matches)
    .where(
        matches.c.lease_owner == sa.bindparam("owner"),
        matches.c.id.in_(sa.bindparam("ids", expanding=True)),
        matches.c.status == "active",
    )
    .values(lease_until=sa.bindparam("until"))
)
_TRIM = sa.delete(plies).where(
    plies.c.match_id == sa.bindparam("match_id"), plies.c.number >= sa.bindparam("keep")
)
_ADD = sa.insert(plies)

#: The PostgreSQL channel of change notices.
CHANNEL = "regalia_matches"
#: The PostgreSQL advisory lock held while the schema is migrated.
MIGRATION_LOCK = 0x7265_6761_6C69_61


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest migration (Alembic, scripts shipped in
    ``regalia.server.migrations``)."""
    from alembic import command
    from alembic.config import Config

    script_location = str(resources.files("regalia.server") / "migrations")
    config = Config()
    config.set_main_option("script_location", script_location)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":  # servers starting together migrate one at a time
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@dataclasses.dataclass(frozen=True)
class MatchRow:
    """A match as stored (``plies``: how many; ``time_control``: its notation, ``None`` for none;
    ``clock_since``: when the running clock started, in wall-clock seconds)."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    screen: str
    seed: int
    version: int
    status: str
    to_act: int | None
    result: dict[str, Any] | None
    undo_by: int | None
    created: dt.datetime
    updated: dt.datetime
    plies: int
    time_control: str | None = None
    clock_since: float | None = None
    lease_owner: str | None = None
    lease_until: float | None = None
    public: bool = False

    @classmethod
    def of(cls, row: Any) -> MatchRow:
        return cls(**{f.name: getattr(row, f.name) for f in dataclasses.fields(cls)})


@dataclasses.dataclass(frozen=True)
class Change:
    """One change of a match: the first ``keep`` plies kept (those after removed if ``trim``: an
    undo), plies added after them (``(seat, text)``, with ``seconds`` the time each one's seat
    used, when known), the match's new fields (``result`` carries an ``ending`` such as a
    resignation), ``clock_since``, when the running clock started (``None``: none runs), and the
    lease of the computer move that follows (``lease_owner`` thinks about it until ``lease_until``;
    ``None``: no computer seat is to act)."""

    keep: int
    trim: bool
    added: Sequence[tuple[int, str]]
    status: str
    to_act: int | None
    result: dict[str, Any] | None
    undo_by: int | None
    seconds: Sequence[float | None] = ()
    clock_since: float | None = None
    lease_owner: str | None = None
    lease_until: float | None = None


@dataclasses.dataclass(frozen=True)
class AnalysisRow:
    """A match's analysis as stored (see :data:`analyses`)."""

    match_id: str
    status: str
    budget: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    owner: str | None
    updated: float

    @classmethod
    def of(cls, row: Any) -> AnalysisRow:
        return cls(**{f.name: getattr(row, f.name) for f in dataclasses.fields(cls)})


def default_url() -> tuple[str, Path]:
    """The SQLite database in the user's data directory (created if missing)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("regalia"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "regalia.db"
    return f"sqlite:///{path}", path


class Store:
    """The matches of one database (thread-safe: each call is its own transaction)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        # SQLite has one writer at a time, and a writer that finds the file locked sleeps in its
        # busy handler (1 to 100 ms at a time): this process's writes take turns on a lock instead,
        # so a write waits only as long as the one before it takes.
        self._writing: contextlib.AbstractContextManager[Any] = (
            contextlib.nullcontext() if self.is_postgres else threading.Lock()
        )
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- reading ------------------------------------------------------------------------
    def match(self, match_id: str) -> MatchRow | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(matches).where(matches.c.id == match_id)).first()
        return None if row is None else MatchRow.of(row)

    def version(self, match_id: str) -> int | None:
        with self.engine.connect() as c:
            value = c.execute(_VERSION, {"match_id": match_id}).scalar()
        return None if value is None else int(value)

    def plies(self, match_id: str) -> list[tuple[int, str]]:
        """``[(seat, text), ...]`` in order."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(plies.c.seat, plies.c.text)
                .where(plies.c.match_id == match_id)
                .order_by(plies.c.number)
            ).all()
        return [(int(r.seat), str(r.text)) for r in rows]

    def timed_plies(self, match_id: str) -> list[tuple[int, str, float | None]]:
        """``[(seat, text, seconds), ...]`` in order (``seconds`` null where not known)."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(plies.c.seat, plies.c.text, plies.c.seconds)
                .where(plies.c.match_id == match_id)
                .order_by(plies.c.number)
            ).all()
        return [(int(r.seat), str(r.text), None if r.seconds is None else float(r.seconds)) for r in rows]

    def seat_of(self, digest: str) -> tuple[str, int] | None:
        """The match and seat a token's digest acts for."""
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(tokens.c.match_id, tokens.c.seat).where(tokens.c.digest == digest)
            ).first()
        return None if row is None else (str(row.match_id), int(row.seat))

    def listing(self, status: str | None, limit: int, public_only: bool = False) -> list[MatchRow]:
        """The matches most recently changed first (``public_only``: the public ones only)."""
        query = sa.select(matches).order_by(matches.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(matches.c.status == status)
        if public_only:
            query = query.where(matches.c.public.is_(True))
        with self.engine.connect() as c:
            return [MatchRow.of(r) for r in c.execute(query).all()]

    def idle_matches(self, since: float, updated: dt.datetime, limit: int) -> list[str]:
        """Ids of the active matches in which nobody has moved since ``since`` (wall-clock seconds:
        their running clock started before it) or, with no running clock stored (a match stored
        before migration 0003), not changed since ``updated``; the longest idle first, at most
        ``limit``."""
        query = (
            sa.select(matches.c.id)
            .where(
                matches.c.status == "active",
                sa.or_(
                    matches.c.clock_since < since,
                    sa.and_(matches.c.clock_since.is_(None), matches.c.updated < updated),
                ),
            )
            .order_by(matches.c.clock_since.is_(None), matches.c.clock_since, matches.c.updated)
            .limit(limit)
        )
        with self.engine.connect() as c:
            return [str(r.id) for r in c.execute(query).all()]

    def waiting_on(self, seats: Callable[[MatchRow], bool]) -> list[str]:
        """Ids of the active matches for which ``seats(row)`` is true (e.g. a computer to move)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(matches).where(matches.c.status == "active")).all()
        return [r.id for r in rows if seats(MatchRow.of(r))]

    # -- writing ------------------------------------------------------------------------
    def create(
        self, row: dict[str, Any], digests: Iterable[tuple[str, int]], change: Change | None = None
    ) -> None:
        """Write a new match (``row``, at its version), its seats' token digests and, with
        ``change``, its first change (the opening plies: the match is then at version + 1), all in
        one transaction: a failure leaves nothing of the match."""
        with self._writing, self.engine.begin() as c:
            c.execute(sa.insert(matches).values(**row))
            for digest, seat in digests:
                c.execute(sa.insert(tokens).values(digest=digest, match_id=row["id"], seat=seat))
            if change is not None and not self._write_change(c, row["id"], row["version"], change, None):
                raise RuntimeError(f"match {row['id']} changed while it was created")

    def commit_change(self, match_id: str, version: int, change: Change, holder: str | None = None) -> bool:
        """Apply ``change`` if the match is still at ``version`` (then at ``version + 1``) and, with
        ``holder``, its computer move's lease is still ``holder``'s; ``False``, writing nothing, if
        another writer moved it on (or took the lease over) first."""
        with self._writing, self.engine.begin() as c:
            return self._write_change(c, match_id, version, change, holder)

    def _write_change(
        self, c: Connection, match_id: str, version: int, change: Change, holder: str | None
    ) -> bool:
        params = {
            "match_id": match_id,
            "expected": version,
            "new_version": version + 1,
            "new_plies": change.keep + len(change.added),
            "new_status": change.status,
            "new_to_act": change.to_act,
            "new_result": change.result,
            "new_undo_by": change.undo_by,
            "new_updated": now(),
            "new_clock_since": change.clock_since,
            "new_lease_owner": change.lease_owner,
            "new_lease_until": change.lease_until,
        }
        if holder is None:
            done = c.execute(_MOVE_ON, params)
        else:
            done = c.execute(_MOVE_ON_HELD, {**params, "holder": holder})
        if done.rowcount != 1:
            return False
        if change.trim:
            c.execute(_TRIM, {"match_id": match_id, "keep": change.keep})
        if change.added:
            c.execute(
                _ADD,
                [
                    {
                        "match_id": match_id,
                        "number": change.keep + i,
                        "seat": seat,
                        "text": text,
                        "seconds": change.seconds[i] if i < len(change.seconds) else None,
                    }
                    for i, (seat, text) in enumerate(change.added)
                ],
            )
        if self.is_postgres:
            c.execute(sa.text("SELECT pg_notify(:channel, :id)"), {"channel": CHANNEL, "id": match_id})
        return True

    # -- the leases of computer moves ---------------------------------------------------------
    def take_lease(self, match_id: str, version: int, owner: str, now: float, until: float) -> bool:
        """Take (or renew) the lease of the computer move of a match at ``version`` for ``owner``
        until ``until``, if nobody else holds one that runs at ``now``; whether it was taken. One
        conditional UPDATE: of two processes asking at once, one gets it."""
        params = {"match_id": match_id, "expected": version, "owner": owner, "now": now, "until": until}
        with self._writing, self.engine.begin() as c:
            return c.execute(_TAKE, params).rowcount == 1

    def renew_leases(self, owner: str, match_ids: Collection[str], until: float) -> int:
        """Renew ``owner``'s leases of these matches until ``until``; how many it still held."""
        if not match_ids:
            return 0
        with self._writing, self.engine.begin() as c:
            return int(c.execute(_RENEW, {"owner": owner, "ids": list(match_ids), "until": until}).rowcount)

    def claim_expired(self, owner: str, now: float, until: float, limit: int = 20) -> list[str]:
        """Take for ``owner`` (until ``until``) the leases that ran out by ``now``: the computer moves
        of matches whose thinking process stopped renewing them (it died). On PostgreSQL the rows are
        locked with ``FOR UPDATE SKIP LOCKED`` (processes claiming at once take different matches,
        and none waits for another); on SQLite the claim is a conditional UPDATE under the one
        writer's lock. The ids of the matches taken."""
        with self._writing, self.engine.begin() as c:
            query = _EXPIRED.with_for_update(skip_locked=True) if self.is_postgres else _EXPIRED
            ids = [str(r.id) for r in c.execute(query, {"now": now, "limit": limit})]
            return [
                match_id
                for match_id in ids
                if c.execute(
                    _CLAIM, {"match_id": match_id, "now": now, "owner": owner, "until": until}
                ).rowcount
                == 1
            ]

    # -- analyses -------------------------------------------------------------------------------
    def analysis(self, match_id: str) -> AnalysisRow | None:
        """The stored analysis of a match (``None``: never asked for)."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(analyses).where(analyses.c.match_id == match_id)).first()
        return None if row is None else AnalysisRow.of(row)

    def claim_analysis(self, match_id: str, owner: str, budget: str, now: float, stale: float) -> bool:
        """Queue the analysis of a match for ``owner``: a new row, or one that ``failed`` or whose
        process stopped updating it before ``stale`` (wall-clock seconds); whether it was taken
        (``False``: it is done, or queued or running in a live process). Of two processes asking at
        once one takes it (the primary key, or the conditional UPDATE)."""
        values = {"status": "queued", "budget": budget, "done": 0, "total": 0, "result": None}
        try:
            return self._claim_analysis(match_id, owner, values, now, stale)
        except sa.exc.IntegrityError:  # another process inserted it meanwhile (all rolled back)
            return False

    def _claim_analysis(
        self, match_id: str, owner: str, values: dict[str, Any], now: float, stale: float
    ) -> bool:
        with self._writing, self.engine.begin() as c:
            taken = c.execute(
                sa.update(analyses)
                .where(
                    analyses.c.match_id == match_id,
                    sa.or_(
                        analyses.c.status == "failed",
                        sa.and_(analyses.c.status.in_(("queued", "running")), analyses.c.updated < stale),
                    ),
                )
                .values(**values, error=None, owner=owner, updated=now)
            ).rowcount
            if taken == 1:
                return True
            exists = c.execute(sa.select(analyses.c.match_id).where(analyses.c.match_id == match_id)).first()
            if exists is not None:
                return False
            c.execute(sa.insert(analyses).values(match_id=match_id, **values, owner=owner, updated=now))
            return True

    def analysis_progress(
        self,
        match_id: str,
        owner: str,
        now: float,
        status: str,
        done: int,
        total: int,
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> bool:
        """Write an analysis' status and progress (with its ``result`` or ``error`` at the end) if
        ``owner`` still holds it; whether it did."""
        with self._writing, self.engine.begin() as c:
            return (
                c.execute(
                    sa.update(analyses)
                    .where(analyses.c.match_id == match_id, analyses.c.owner == owner)
                    .values(status=status, done=done, total=total, result=result, error=error, updated=now)
                ).rowcount
                == 1
            )

    def touch_analyses(self, owner: str, now: float) -> int:
        """Say that ``owner`` still works on its queued and running analyses (``updated``)."""
        with self._writing, self.engine.begin() as c:
            return int(
                c.execute(
                    sa.update(analyses)
                    .where(analyses.c.owner == owner, analyses.c.status.in_(("queued", "running")))
                    .values(updated=now)
                ).rowcount
            )


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite in WAL mode (readers never wait for the writer) with
    foreign keys on."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def libpq_dsn(url: str) -> str:
    """The libpq form (``postgresql://...``, what psycopg connects with) of a SQLAlchemy URL."""
    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """Calls ``on_change(match_id)`` for every change notice on PostgreSQL (a thread with its own
    connection, listening on :data:`CHANNEL`; reconnects after a lost connection)."""

    def __init__(self, url: str, on_change: Callable[[str], None]) -> None:
        self.url = url
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="regalia-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        import psycopg

        dsn = libpq_dsn(self.url)
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            self.on_change(notice.payload)
            except psycopg.Error:
                self._stop.wait(1.0)


def connection_for_alembic(config: Any) -> Connection:
    connection: Connection = config.attributes["connection"]
    return connection
