"""The server's store (regalia.server.store), the same tests on a SQLite file and on PostgreSQL (a
fresh database per test; skipped without REGALIA_TEST_POSTGRES, see conftest.py)."""

from __future__ import annotations

import datetime as dt
import functools
import queue
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory

from regalia.server.service import MatchService, digest
from regalia.server.store import Change, Listener, Store, metadata, migrate

from .conftest import at_once, wait_listening

T0 = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    store = Store(db_url)
    yield store
    store.close()


def row(match_id: str, *, status: str = "active", updated: dt.datetime = T0, **fields: Any) -> dict[str, Any]:
    """The values of a new match as MatchService.create writes them."""
    values: dict[str, Any] = {
        "id": match_id,
        "game": "royal-court",
        "options": {},
        "seats": [
            {"kind": "human", "name": "red", "agent": None},
            {"kind": "computer", "name": "blue (random)", "agent": "random"},
        ],
        "screen": "online",
        "seed": 12345,
        "version": 0,
        "plies": 0,
        "status": status,
        "to_act": None,
        "result": None,
        "undo_by": None,
        "created": T0,
        "updated": updated,
    }
    values.update(fields)
    return values


def change(keep: int, *added: tuple[int, str], **fields: Any) -> Change:
    """Plies ``added`` after the first ``keep`` (``trim=True``: those after ``keep`` removed)."""
    values: dict[str, Any] = {"trim": False, "status": "active", "to_act": 0, "result": None, "undo_by": None}
    values.update(fields)
    return Change(keep=keep, added=list(added), **values)


def utc(value: dt.datetime) -> dt.datetime:
    """A stored time as naive UTC (SQLite gives back naive times, PostgreSQL aware ones)."""
    return value.astimezone(dt.UTC).replace(tzinfo=None) if value.tzinfo else value


def head_revision() -> str:
    config = Config()
    config.set_main_option("script_location", str(resources.files("regalia.server") / "migrations"))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def schema(engine: sa.Engine) -> dict[str, set[str]]:
    inspector = sa.inspect(engine)
    return {t: {c["name"] for c in inspector.get_columns(t)} for t in inspector.get_table_names()}


def revisions(engine: sa.Engine) -> list[str]:
    with engine.connect() as c:
        return [r[0] for r in c.execute(sa.text("SELECT version_num FROM alembic_version"))]


def dump(engine: sa.Engine) -> str:
    """Every row of every table, as text."""
    out: list[str] = []
    with engine.connect() as c:
        for table in sa.inspect(engine).get_table_names():
            out.extend(repr(tuple(r)) for r in c.execute(sa.text(f"SELECT * FROM {table}")))
    return "\n".join(out)


# -- the schema ---------------------------------------------------------------------------------
def test_migrate_creates_the_schema(store: Store) -> None:
    found = schema(store.engine)
    assert set(found) == {"matches", "plies", "tokens", "analyses", "alembic_version"}
    for table in metadata.sorted_tables:  # the migrations make what store.py's tables describe
        assert found[table.name] == {c.name for c in table.columns}, table.name
    indexes = {i["name"] for i in sa.inspect(store.engine).get_indexes("matches")}
    assert "matches_status_updated" in indexes
    assert revisions(store.engine) == [head_revision()]


def test_migrate_is_idempotent(store: Store, db_url: str) -> None:
    store.create(row("m1"), [("d" * 64, 0)])
    before = schema(store.engine)
    migrate(store.engine)  # once more on the same engine
    again = Store(db_url)  # and as a second server would, at its start
    try:
        assert schema(again.engine) == before
        assert revisions(again.engine) == [head_revision()]
        found = again.match("m1")
        assert found is not None and found.game == "royal-court"
        assert again.seat_of("d" * 64) == ("m1", 0)
    finally:
        again.close()


# -- matches ------------------------------------------------------------------------------------
def test_create_and_read(store: Store) -> None:
    options = {"variant": "x", "nested": {"list": [1, 2, "three"]}, "flag": True}
    seed = 2**62 - 1  # MatchService draws 62 bits
    store.create(row("m1", options=options, seed=seed, screen="shared"), [("a" * 64, 0), ("b" * 64, 1)])
    found = store.match("m1")
    assert found is not None
    assert (found.id, found.game, found.options, found.screen, found.seed) == (
        "m1",
        "royal-court",
        options,
        "shared",
        seed,
    )
    assert found.seats == row("m1")["seats"]
    assert (found.version, found.plies, found.status, found.to_act, found.result, found.undo_by) == (
        0,
        0,
        "active",
        None,
        None,
        None,
    )
    assert utc(found.created) == utc(T0) and utc(found.updated) == utc(T0)
    assert store.version("m1") == 0
    assert store.plies("m1") == []
    assert store.seat_of("a" * 64) == ("m1", 0)
    assert store.seat_of("b" * 64) == ("m1", 1)
    assert store.seat_of("c" * 64) is None
    assert store.match("nope") is None
    assert store.version("nope") is None


def test_a_token_digest_belongs_to_one_match(store: Store) -> None:
    store.create(row("m1"), [("a" * 64, 0)])
    with pytest.raises(sa.exc.IntegrityError):
        store.create(row("m2"), [("a" * 64, 1)])
    assert store.match("m2") is None  # the whole creation was rolled back
    assert store.seat_of("a" * 64) == ("m1", 0)


def test_commit_change_with_the_right_version(store: Store) -> None:
    store.create(row("m1"), [])
    assert store.commit_change("m1", 0, change(0, (-1, "first red"), (0, "play Assassin 0,1"), to_act=0))
    found = store.match("m1")
    assert found is not None
    assert (found.version, found.plies, found.status, found.to_act) == (1, 2, "active", 0)
    assert utc(found.updated) > utc(T0)
    assert store.plies("m1") == [(-1, "first red"), (0, "play Assassin 0,1")]

    result = {"scores": [3, 1], "returns": [1.0, -1.0], "winner": 0}
    assert store.commit_change("m1", 1, change(2, (0, "end"), status="finished", to_act=None, result=result))
    found = store.match("m1")
    assert found is not None
    assert (found.version, found.plies, found.status, found.to_act, found.result) == (
        2,
        3,
        "finished",
        None,
        result,
    )
    assert store.plies("m1")[-1] == (0, "end")


def test_commit_change_with_a_stale_version_writes_nothing(store: Store) -> None:
    store.create(row("m1"), [])
    assert store.commit_change("m1", 0, change(0, (-1, "first red"), to_act=0))
    before = store.match("m1")
    assert not store.commit_change("m1", 0, change(1, (0, "pass"), status="finished", to_act=None))
    assert not store.commit_change("m1", 5, change(0, undo_by=0))  # a version from the future
    assert not store.commit_change("nope", 0, change(0, (0, "pass")))  # no such match
    assert store.match("m1") == before
    assert store.plies("m1") == [(-1, "first red")]
    assert store.plies("nope") == []


def test_undo_change_deletes_plies(store: Store) -> None:
    store.create(row("m1"), [])
    assert store.commit_change("m1", 0, change(0, (-1, "first red"), (0, "play A 0,1"), (0, "move 0,1 1,1")))
    assert store.commit_change("m1", 1, change(3, undo_by=0))  # a request to take back: no ply
    found = store.match("m1")
    assert found is not None and (found.plies, found.undo_by) == (3, 0)
    assert store.commit_change("m1", 2, change(2, trim=True))  # taken back: the last ply goes
    found = store.match("m1")
    assert found is not None and (found.version, found.plies, found.undo_by) == (3, 2, None)
    assert store.plies("m1") == [(-1, "first red"), (0, "play A 0,1")]
    assert store.commit_change("m1", 3, change(2, (0, "move 0,1 1,0")))  # another action instead
    assert store.plies("m1") == [(-1, "first red"), (0, "play A 0,1"), (0, "move 0,1 1,0")]
    assert store.commit_change("m1", 4, change(1, (0, "play B 1,1"), trim=True))  # two back, one on
    assert store.plies("m1") == [(-1, "first red"), (0, "play B 1,1")]
    with store.engine.connect() as c:
        numbers = c.execute(sa.text("SELECT number FROM plies WHERE match_id = 'm1' ORDER BY number"))
        assert [n for (n,) in numbers] == [0, 1]
    found = store.match("m1")
    assert found is not None and (found.version, found.plies) == (5, 2)


def test_concurrent_commits_for_one_version(store: Store) -> None:
    """Two writers with the same version (two server processes): exactly one wins each time."""
    store.create(row("m1"), [])
    for version in range(5):
        results = at_once(
            {
                seat: functools.partial(
                    store.commit_change, "m1", version, change(version, (int(seat), f"by {seat}"))
                )
                for seat in ("0", "1")
            }
        )
        assert sorted(results.values()) == [False, True], results
        winner = next(seat for seat, won in results.items() if won)
        assert store.plies("m1")[-1] == (int(winner), f"by {winner}")
        assert store.version("m1") == version + 1
    assert len(store.plies("m1")) == 5


def test_tokens_are_stored_only_as_digests(store: Store, db_url: str) -> None:
    service = MatchService(store)
    try:
        made = service.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    finally:
        service.pool.shutdown()
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    assert len(tokens) == 2
    text = dump(store.engine)
    for seat, token in tokens.items():
        assert len(token) >= 22  # 128 bits or more, URL-safe base64
        assert token not in text
        assert digest(token) in text
        assert store.seat_of(digest(token)) == (made["id"], seat)
    if db_url.startswith("sqlite"):  # nor in the database's files
        path = Path(sa.engine.make_url(db_url).database or "")
        raw = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
        assert made["id"].encode() in raw
        for token in tokens.values():
            assert token.encode() not in raw


def test_the_time_control_and_the_running_clock_survive_a_reload(store: Store, db_url: str) -> None:
    """A second service on the same database (a restart) goes on with the stored time control, the
    plies' seconds and the turn in progress counted from when it began."""
    clock = [1_700_000_000.0]
    service = MatchService(store, now=lambda: clock[0])
    humans = [{"kind": "human"}, {"kind": "human"}]
    try:
        made = service.create("royal-court", {}, humans, "online", "fischer:60+5")
        seat_tokens = {s["seat"]: s["token"] for s in made["seats"]}
        first = service.view(made["id"], None)["to_act"]
        clock[0] += 10
        while (current := service.view(made["id"], None))["to_act"] == first:
            service.act(made["id"], seat_tokens[first], current["legal"][0])
        second = current["to_act"]
        clock[0] += 20  # the second seat thinks; the server restarts meanwhile
    finally:
        service.pool.shutdown()
    assert store.match(made["id"]).time_control == "fischer:60+5"  # type: ignore[union-attr]
    again = MatchService(Store(db_url), now=lambda: clock[0])
    try:
        restored = again.view(made["id"], None)
        assert restored["clock"]["control"] == "fischer:60+5" and restored["clock"]["running"] == second
        assert restored["clock"]["remaining"][first] == pytest.approx(55.0)
        assert restored["clock"]["remaining"][second] == pytest.approx(40.0)
        clock[0] += 41
        assert again.check_clocks() == 1
        over = again.view(made["id"], None)
        assert over["status"] == "finished" and over["result"]["ending"] == {"reason": "time", "seat": second}
    finally:
        again.pool.shutdown()
        again.store.close()


def test_listing_by_status_newest_first(store: Store) -> None:
    hour = dt.timedelta(hours=1)
    store.create(row("old", updated=T0), [])
    store.create(row("mid", updated=T0 + hour, to_act=1), [])
    store.create(row("new", updated=T0 + 2 * hour), [])
    store.create(row("done", status="finished", updated=T0 + 3 * hour), [])
    ids = [r.id for r in store.listing(None, 10)]
    assert ids == ["done", "new", "mid", "old"]
    assert [r.id for r in store.listing("active", 10)] == ["new", "mid", "old"]
    assert [r.id for r in store.listing("finished", 10)] == ["done"]
    assert [r.id for r in store.listing(None, 2)] == ["done", "new"]
    # A change moves a match to the top (updated is now); finishing it moves it between lists.
    assert store.commit_change("old", 0, change(0, (0, "end"), status="finished", to_act=None))
    assert [r.id for r in store.listing(None, 10)] == ["old", "done", "new", "mid"]
    assert [r.id for r in store.listing("active", 10)] == ["new", "mid"]
    assert [r.id for r in store.listing("finished", 10)] == ["old", "done"]
    assert store.listing("active", 10)[1].to_act == 1
    assert store.waiting_on(lambda r: r.to_act == 1) == ["mid"]


# -- PostgreSQL's change notices ------------------------------------------------------------------
@pytest.mark.postgres
def test_listener_hears_committed_changes_only(postgres_url: str) -> None:
    store = Store(postgres_url)
    heard: queue.Queue[str] = queue.Queue()
    listener = Listener(postgres_url, heard.put)
    try:
        assert store.is_postgres
        store.create(row("m1"), [])
        store.create(row("m2"), [])
        listener.start()
        wait_listening(postgres_url, 1)
        assert store.commit_change("m1", 0, change(0, (0, "play A 0,1")))
        assert heard.get(timeout=10) == "m1"
        assert not store.commit_change("m1", 0, change(0, (0, "play B 0,1")))  # refused: no notice
        assert store.commit_change("m2", 0, change(0, (0, "play C 0,1")))
        assert heard.get(timeout=10) == "m2"  # the next notice is m2's, none came for the refusal
        with pytest.raises(queue.Empty):
            heard.get(timeout=1.0)
    finally:
        listener.stop()
        store.close()


def test_sqlite_store_is_not_postgres(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        assert not store.is_postgres
        with store.engine.connect() as c:
            assert c.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            assert c.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        store.close()
