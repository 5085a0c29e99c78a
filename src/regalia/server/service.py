"""The matches a server plays: the only authority over them.

:class:`MatchService` holds each live match's state in memory, checks every action with the same
engine as everything else, writes every accepted change to the :class:`~regalia.server.store.Store`
before answering, draws chance's outcomes itself (from the match's secret seed), applies the forced
steps of automaton seats, asks computer seats for their moves off the request path, and builds each
viewer's view. It knows no game: only the core contract and the game's plugin surface.

>>> import tempfile, os
>>> store = Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.db"))
>>> service = MatchService(store)
>>> made = service.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
>>> red, blue = (seat["token"] for seat in made["seats"])
>>> view = service.view(made["id"], red)
>>> view["to_act"] in (0, 1), view["log"][0]["text"] in ("first red", "first blue")
(True, True)
>>> service.act(made["id"], blue if view["to_act"] == 0 else red, "pass")
Traceback (most recent call last):
...
regalia.server.service.ApiError: it is not your turn: seat ... is to act
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import hashlib
import logging
import random
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from regalia.ai.registry import agent_from_spec, agent_levels, agent_names
from regalia.core.errors import IllegalAction, NotationError, OptionError, RegaliaError, UnknownGame
from regalia.core.game import CHANCE, OMNISCIENT, SPECTATOR, Game, Ply, State
from regalia.core.plugin import Plugin
from regalia.core.record import Record
from regalia.core.registry import game_class, game_ids, load_game, plugin_for
from regalia.render.text import plain_text
from regalia.server.store import Change, MatchRow, Store, now

log = logging.getLogger("regalia.server")

SCREENS = ("online", "shared")
KINDS = ("human", "computer", "automaton")
#: The agent a hint asks.
HINT_AGENT = "mcts:easy"
#: Matches kept in memory (the least recently used are dropped and replayed when asked again).
CACHE_SIZE = 512


class ApiError(Exception):
    """A refused request: the HTTP status, what is wrong, and the rule when the engine names one."""

    def __init__(self, status: int, detail: str, rule: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.rule = rule


class Conflict(ApiError):
    """A change refused because another writer moved the match on first."""


def digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclasses.dataclass
class Entry:
    """One ply of a live match, with its description (written right after it)."""

    player: int
    action: Any
    text: str
    description: str


class Live:
    """A match in memory: its stored row's fields, its game, its state and its log."""

    def __init__(self, row: MatchRow, game: Game[Any], state: State[Any], entries: list[Entry]) -> None:
        self.row = row
        self.game = game
        self.plugin: Plugin = plugin_for(game)
        self.state = state
        self.entries = entries
        self.version = row.version
        self.undo_by = row.undo_by
        self.lock = threading.RLock()
        self.thinking = False
        self.result_text: str | None = None

    @property
    def id(self) -> str:
        return self.row.id

    def kind(self, seat: int) -> str:
        return str(self.row.seats[seat]["kind"])

    def humans(self) -> list[int]:
        return [s for s in range(len(self.row.seats)) if self.kind(s) == "human"]


def _describe(plugin: Plugin, state: State[Any], ply: Ply) -> str:
    if plugin.describe is None:
        return ""
    return plugin.describe(state, ply)


def _apply(live_plugin: Plugin, state: State[Any], action: Any, entries: list[Entry], checked: bool) -> None:
    """Apply ``action`` and log it with its description."""
    player = state.current_player
    text = state.notation(action)
    if checked:
        state.apply(action)
    else:
        state.apply_unchecked(action)
    entries.append(Entry(player, action, text, _describe(live_plugin, state, Ply(player, action, text))))


def chance_rng(seed: int, ply: int) -> random.Random:
    """The generator of the draw at ``ply`` of a match with secret ``seed`` (the same after a
    restart, so a replayed match draws what it would have drawn)."""
    return random.Random(f"{seed}:{ply}")


def think(game_id: str, options: Mapping[str, Any], texts: Sequence[str], spec: str, seed: int) -> str:
    """A computer seat's move (run in a worker process): the position is rebuilt from the record."""
    state = load_game(game_id, **options).initial_state()
    for text in texts:
        state.apply_unchecked(state.parse_action(text))
    agent = agent_from_spec(spec)
    return state.notation(agent.choose(state, random.Random(seed)))


def warm() -> bool:
    """Nothing: submitted once to a new process pool so that its worker imports the games before
    the first computer seat needs it."""
    import regalia.ai.registry  # noqa: F401

    for game_id in game_ids():
        game_class(game_id)
    return True


class MatchService:
    """Every match of one store (thread-safe). ``on_change(match_id)`` is called after each
    committed change (pushes); ``pool`` runs computer seats' :func:`think` (a process pool; without
    one they think in a thread)."""

    def __init__(
        self,
        store: Store,
        pool: concurrent.futures.Executor | None = None,
        on_change: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.pool = pool or concurrent.futures.ThreadPoolExecutor(max_workers=2)
        self.on_change = on_change or (lambda _id: None)
        self._cache: collections.OrderedDict[str, Live] = collections.OrderedDict()
        self._cache_lock = threading.Lock()
        self._tokens: dict[str, tuple[str, int]] = {}

    # -- games --------------------------------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        """The registered games, their options schemas and the agents."""
        agents = [{"name": name, "levels": agent_levels(name)} for name in agent_names()]
        out = []
        for gid in game_ids():
            cls = game_class(gid)
            out.append(
                {
                    "id": gid,
                    "name": cls.name,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": cls.options_schema(),
                    "agents": agents,
                }
            )
        return out

    def load(self, game_id: str, options: Mapping[str, Any]) -> Game[Any]:
        """The game with options sent by a client: a path on this machine is never accepted."""
        try:
            cls = game_class(game_id)
        except UnknownGame as exc:
            raise ApiError(404, str(exc)) from None
        if not isinstance(options, Mapping):
            raise ApiError(422, "options: expected an object of option names and values")
        files = {o["name"] for o in cls.options_schema() if o.get("file")}
        for name in options:
            if name in files:
                raise ApiError(
                    422, f"option {name} names a file on the server; it cannot be set from a client"
                )
        try:
            return cls(**options)
        except (OptionError, TypeError, ValueError) as exc:
            raise ApiError(422, str(exc)) from None

    def seats_for(self, game_id: str, options: Mapping[str, Any]) -> list[dict[str, Any]]:
        game = self.load(game_id, options)
        automata = game.automaton_seats()
        return [
            {"seat": s, "name": name, "automaton": s in automata} for s, name in enumerate(game.seat_names())
        ]

    def rules(self, game_id: str) -> str:
        try:
            plugin = plugin_for(game_class(game_id))
        except UnknownGame as exc:
            raise ApiError(404, str(exc)) from None
        return plugin.rules() if plugin.rules is not None else ""

    # -- creating and listing -----------------------------------------------------------------
    def create(
        self, game_id: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], screen: str
    ) -> dict[str, Any]:
        """Create a match; returns its id, each seat (with its token and link if human) and the
        spectator link."""
        game = self.load(game_id, options)
        if screen not in SCREENS:
            raise ApiError(422, f"screen: expected one of {', '.join(SCREENS)}, not {screen!r}")
        specs = self._seat_specs(game, seats)
        if not any(s["kind"] == "human" for s in specs):
            raise ApiError(422, "seats: at least one seat must be human")
        match_id = secrets.token_urlsafe(16)
        tokens: dict[int, str] = {
            s: secrets.token_urlsafe(24) for s, spec in enumerate(specs) if spec["kind"] == "human"
        }
        state = game.initial_state()
        seed = secrets.randbits(62)
        entries: list[Entry] = []
        plugin = plugin_for(game)
        self._advance(plugin, state, seed, entries)
        stamp = now()
        row: dict[str, Any] = {
            "id": match_id,
            "game": game_id,
            "options": game.options.to_json(),
            "seats": specs,
            "screen": screen,
            "seed": seed,
            "version": 0,
            "plies": 0,
            "status": "active",
            "to_act": None,
            "result": None,
            "undo_by": None,
            "created": stamp,
            "updated": stamp,
        }
        self.store.create(row, [(digest(t), s) for s, t in tokens.items()])
        # The opening draws are the match's first change, written like every other.
        live = Live(MatchRow(**row), game, state, entries)
        with live.lock:
            self._commit(live, keep=0, added=entries, undo_by=None)
        self._remember(live)
        for s, t in tokens.items():
            self._tokens[digest(t)] = (match_id, s)
        self._after_change(live)
        return {
            "id": match_id,
            "seats": [
                {
                    "seat": s,
                    "name": spec["name"],
                    "kind": spec["kind"],
                    **(
                        {"token": tokens[s], "link": f"/match/{match_id}#token={tokens[s]}"}
                        if s in tokens
                        else {}
                    ),
                }
                for s, spec in enumerate(specs)
            ],
            "spectator": f"/match/{match_id}",
        }

    def _seat_specs(self, game: Game[Any], seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        names = game.seat_names()
        automata = game.automaton_seats()
        if not isinstance(seats, Sequence) or len(seats) != len(names):
            raise ApiError(422, f"seats: expected {len(names)} seats ({', '.join(names)}) for these options")
        out = []
        for s, seat in enumerate(seats):
            where = f"seats[{s}]"
            if not isinstance(seat, Mapping):
                raise ApiError(422, f"{where}: expected an object")
            kind = seat.get("kind", "automaton" if s in automata else "human")
            if s in automata and kind != "automaton":
                raise ApiError(422, f"{where}: {names[s]} is played by the rules (kind 'automaton')")
            if kind not in KINDS or (kind == "automaton" and s not in automata):
                raise ApiError(422, f"{where}.kind: expected human or computer, not {kind!r}")
            name = seat.get("name") or names[s]
            if not isinstance(name, str) or len(name) > 40:
                raise ApiError(422, f"{where}.name: expected a text of at most 40 characters")
            spec: dict[str, Any] = {"kind": kind, "name": name, "agent": None}
            if kind == "computer":
                agent, level = seat.get("agent", "mcts"), seat.get("level")
                text = f"{agent}:{level}" if level else str(agent)
                try:
                    agent_from_spec(text)
                except (OptionError, TypeError, ValueError) as exc:
                    raise ApiError(422, f"{where}: {exc}") from None
                spec["agent"] = text
                if not seat.get("name"):
                    spec["name"] = f"{names[s]} ({text})"
            out.append(spec)
        return out

    def listing(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        if status not in (None, "active", "finished"):
            raise ApiError(422, f"status: expected active or finished, not {status!r}")
        if not 1 <= limit <= 500:
            raise ApiError(422, "limit: expected 1 to 500")
        out = []
        for row in self.store.listing(status, limit):
            try:
                name = game_class(row.game).name
            except UnknownGame:
                name = row.game
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "game_name": name,
                    "options": row.options,
                    "seats": [self._seat_public(s, spec) for s, spec in enumerate(row.seats)],
                    "screen": row.screen,
                    "status": row.status,
                    "version": row.version,
                    "plies": row.plies,
                    "to_act": row.to_act,
                    "created": row.created.isoformat(),
                    "updated": row.updated.isoformat(),
                    "result": row.result,
                }
            )
        return out

    @staticmethod
    def _seat_public(seat: int, spec: Mapping[str, Any], viewer: int | None = None) -> dict[str, Any]:
        return {
            "seat": seat,
            "name": spec["name"],
            "kind": spec["kind"],
            "agent": spec["agent"],
            "you": seat == viewer,
        }

    # -- the live matches -----------------------------------------------------------------------
    def _remember(self, live: Live) -> None:
        with self._cache_lock:
            self._cache[live.id] = live
            self._cache.move_to_end(live.id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def forget(self, match_id: str) -> None:
        """Drop a match from memory (another process changed it; it is read again when asked)."""
        with self._cache_lock:
            self._cache.pop(match_id, None)

    def live(self, match_id: str, trust_cache: bool = False) -> Live:
        """The match, current with the store (read again if another process changed it). With
        ``trust_cache`` a match held in memory is returned without asking the store: for a change,
        whose commit is refused anyway if another process moved the match on."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise ApiError(404, "no such match")
        with self._cache_lock:
            live = self._cache.get(match_id)
        if trust_cache and live is not None:
            return live
        version = self.store.version(match_id)
        if version is None:
            raise ApiError(404, f"no match {match_id!r}")
        if live is not None and live.version == version:
            return live
        live = self._read(match_id)
        self._remember(live)
        return live

    def _read(self, match_id: str) -> Live:
        row = self.store.match(match_id)
        if row is None:
            raise ApiError(404, f"no match {match_id!r}")
        game = load_game(row.game, **row.options)
        state = game.initial_state()
        entries: list[Entry] = []
        plugin = plugin_for(game)
        texts = self.store.plies(match_id)
        if self.store.version(match_id) != row.version:  # changed between the two reads: again
            return self._read(match_id)
        for _seat, text in texts:
            _apply(plugin, state, state.parse_action(text), entries, checked=False)
        return Live(row, game, state, entries)

    def seat_of(self, match_id: str, token: str | None) -> int | None:
        """The seat ``token`` acts for in this match (``None``: no token, a spectator); a token
        of another match, or no match's, is refused."""
        if token is None:
            return None
        key = digest(token)
        found = self._tokens.get(key) or self.store.seat_of(key)
        if found is None or found[0] != match_id:
            raise ApiError(403, "this token does not act for a seat of this match")
        self._tokens[key] = found
        return found[1]

    def _acting_seat(self, live: Live, seat: int | None) -> int:
        """The seat a request acts for: the token's, or on a shared screen the human seat to act."""
        if seat is None:
            raise ApiError(401, "a seat's token is needed to act (send Authorization: Bearer TOKEN)")
        player = live.state.current_player
        if live.row.screen == "shared" and player in live.humans():
            return player
        return seat

    # -- acting -------------------------------------------------------------------------------
    def act(self, match_id: str, token: str | None, text: str, version: int | None = None) -> dict[str, Any]:
        """Check and apply a seat's action; commit it (with the draws and forced steps that follow).
        The match in memory is trusted (no read of the store on the way to the commit); when the
        action is refused and another process had moved the match on meanwhile, it is judged again
        on the match as stored."""
        cached = self.live(match_id, trust_cache=True)
        seen = cached.version
        try:
            return self._act(cached, token, text, version)
        except ApiError:
            stored = self.live(match_id)
            if stored is cached and stored.version == seen:
                raise
            return self._act(stored, token, text, version)

    def _act(self, live: Live, token: str | None, text: str, version: int | None) -> dict[str, Any]:
        match_id = live.id
        seat = self.seat_of(match_id, token)
        with live.lock:
            seat = self._acting_seat(live, seat)
            self._check_turn(live, seat, version)
            state = live.state
            keep = len(live.entries)
            try:
                _apply(live.plugin, state, state.parse_or_raise(text), live.entries, checked=True)
            except NotationError as exc:
                raise ApiError(422, str(exc)) from None
            except IllegalAction as exc:
                raise ApiError(422, str(exc), getattr(exc, "rule", None)) from None
            except RegaliaError as exc:
                raise ApiError(422, str(exc)) from None
            self._advance(live.plugin, state, live.row.seed, live.entries)
            self._commit(live, keep=keep, added=live.entries[keep:], undo_by=None)
        self._after_change(live)
        return self.ack(live)

    def _check_turn(self, live: Live, seat: int, version: int | None) -> None:
        if version is not None and version != live.version:
            raise ApiError(409, f"the match is at version {live.version}, not {version}: reload it")
        state = live.state
        if state.is_terminal():
            raise ApiError(409, "the match is over")
        player = state.current_player
        if player != seat:
            names = live.game.seat_names()
            who = f"seat {player + 1} ({names[player]})" if player >= 0 else "chance"
            raise ApiError(409, f"it is not your turn: {who} is to act")

    def _advance(self, plugin: Plugin, state: State[Any], seed: int, entries: list[Entry]) -> None:
        """Draw chance's outcomes and apply automaton seats' forced steps until a seat chooses."""
        automata = state.automaton_seats()
        while not state.is_terminal():
            player = state.current_player
            if player == CHANCE:
                action = state.sample_chance(chance_rng(seed, len(entries)))
            elif player in automata:
                action = state.forced_action()
            else:
                return
            _apply(plugin, state, action, entries, checked=True)

    def _commit(
        self, live: Live, keep: int, added: Sequence[Entry], undo_by: int | None, trim: bool = False
    ) -> None:
        """Write the change (``trim``: plies from ``keep`` on were taken back); if another process
        moved the match on first, or the database fails, nothing is written and the match is read
        again when next asked."""
        state = live.state
        terminal = state.is_terminal()
        result = None
        if terminal:
            result = {"scores": state.scores(), "returns": state.returns(), "winner": state.winner()}
        change = Change(
            keep=keep,
            trim=trim,
            added=[(e.player, e.text) for e in added],
            status="finished" if terminal else "active",
            to_act=None if terminal else state.current_player,
            result=result,
            undo_by=undo_by,
        )
        try:
            done = self.store.commit_change(live.id, live.version, change)
        except Exception:
            self.forget(live.id)
            raise
        if not done:
            self.forget(live.id)
            raise Conflict(409, "the match was changed meanwhile by another server: reload it")
        live.version += 1
        live.undo_by = undo_by

    def _after_change(self, live: Live) -> None:
        self._schedule_computer(live)
        self.on_change(live.id)

    # -- computer seats -----------------------------------------------------------------------
    def _schedule_computer(self, live: Live) -> None:
        with live.lock:
            state = live.state
            player = state.current_player
            if state.is_terminal() or player < 0 or live.kind(player) != "computer" or live.thinking:
                return
            live.thinking = True
            version = live.version
            job = (
                live.row.game,
                live.row.options,
                [e.text for e in live.entries],
                live.row.seats[player]["agent"],
                random.Random(f"{live.row.seed}:{len(live.entries)}:ai").getrandbits(62),
            )
        future = self.pool.submit(think, *job)
        future.add_done_callback(lambda f: self._computer_moved(live.id, version, f))

    def _computer_moved(self, match_id: str, version: int, future: concurrent.futures.Future[str]) -> None:
        try:
            text = future.result()
            live = self.live(match_id)
            with live.lock:
                live.thinking = False
                if live.version != version:
                    return
                keep = len(live.entries)
                _apply(live.plugin, live.state, live.state.parse_action(text), live.entries, checked=True)
                self._advance(live.plugin, live.state, live.row.seed, live.entries)
                self._commit(live, keep=keep, added=live.entries[keep:], undo_by=None)
            self._after_change(live)
        except Exception:  # a worker's failure must not take the server down; it is logged
            log.exception("computer move of match %s failed", match_id)
            self.forget(match_id)

    def resume(self) -> int:
        """Ask the computer seats to move in every match waiting for one (after a start)."""
        waiting = self.store.waiting_on(
            lambda row: (
                row.to_act is not None and row.to_act >= 0 and row.seats[row.to_act]["kind"] == "computer"
            )
        )
        for match_id in waiting:
            self._schedule_computer(self.live(match_id))
        return len(waiting)

    def changed_elsewhere(self, match_id: str) -> bool:
        """Another process changed a match: True if this one held an older version of it."""
        with self._cache_lock:
            live = self._cache.get(match_id)
        if live is None:
            return True
        version = self.store.version(match_id)
        if version == live.version:
            return False
        self.forget(match_id)
        return True

    # -- undo and hints -----------------------------------------------------------------------
    def _undo_allowed(self, live: Live, seat: int) -> bool:
        state = live.state
        return (
            not state.is_terminal()
            and bool(live.entries)
            and live.entries[-1].player == seat
            and state.current_player == seat
            and live.kind(seat) == "human"
        )

    def _needs_consent(self, live: Live, seat: int) -> bool:
        return live.row.screen == "online" and any(s != seat for s in live.humans())

    def undo(self, match_id: str, token: str | None) -> dict[str, Any]:
        """Take back the seat's last action of its turn, or ask the opponent to allow it."""
        live = self.live(match_id)
        seat = self.seat_of(match_id, token)
        with live.lock:
            seat = self._acting_seat(live, seat)
            if not self._undo_allowed(live, seat):
                raise ApiError(409, "nothing to take back: only your own last action of this turn can be")
            if self._needs_consent(live, seat):
                if live.undo_by == seat:
                    raise ApiError(409, "your request to take back is already waiting for an answer")
                self._commit(live, keep=len(live.entries), added=[], undo_by=seat)
            else:
                self._take_back(live)
        self._after_change(live)
        return self.ack(live)

    def answer_undo(self, match_id: str, token: str | None, accept: bool) -> dict[str, Any]:
        """The opponent's answer to a request to take back."""
        live = self.live(match_id)
        seat = self.seat_of(match_id, token)
        if seat is None:
            raise ApiError(401, "a seat's token is needed to answer")
        with live.lock:
            asker = live.undo_by
            if asker is None:
                raise ApiError(409, "no request to take back is waiting")
            if asker == seat:
                raise ApiError(403, "the seat that asked cannot answer its own request")
            if accept and self._undo_allowed(live, asker):
                self._take_back(live)
            else:
                self._commit(live, keep=len(live.entries), added=[], undo_by=None)
        self._after_change(live)
        return self.ack(live)

    def _take_back(self, live: Live) -> None:
        keep = len(live.entries) - 1
        state = live.game.initial_state()
        entries: list[Entry] = []
        for e in live.entries[:keep]:
            state.apply_unchecked(e.action)
            entries.append(e)
        old_state, old_entries = live.state, live.entries
        live.state, live.entries = state, entries
        try:
            self._commit(live, keep=keep, added=[], undo_by=None, trim=True)
        except ApiError:
            live.state, live.entries = old_state, old_entries
            raise

    def hint(self, match_id: str, token: str | None) -> dict[str, Any]:
        """What the hint agent would play for the seat to act (against the computer, or on a shared
        screen)."""
        live = self.live(match_id)
        seat = self.seat_of(match_id, token)
        with live.lock:
            seat = self._acting_seat(live, seat)
            if not self._hint_allowed(live):
                raise ApiError(
                    403, "hints are given only in matches against the computer or on a shared screen"
                )
            self._check_turn(live, seat, None)
            job = (
                live.row.game,
                live.row.options,
                [e.text for e in live.entries],
                HINT_AGENT,
                len(live.entries),
            )
        text = self.pool.submit(think, *job).result(timeout=60)
        return {"action": text, "agent": HINT_AGENT}

    @staticmethod
    def _hint_allowed(live: Live) -> bool:
        return live.row.screen == "shared" or any(
            live.kind(s) == "computer" for s in range(len(live.row.seats))
        )

    # -- views --------------------------------------------------------------------------------
    def ack(self, live: Live) -> dict[str, Any]:
        """The short answer to an accepted request: where the match stands, and the legal actions
        of the seat to act as a spectator sees them."""
        with live.lock:
            state = live.state
            return {
                "version": live.version,
                "plies": len(live.entries),
                "status": "finished" if state.is_terminal() else "active",
                "to_act": self._to_act(state),
                "legal": state.legal_for(SPECTATOR),
            }

    @staticmethod
    def _to_act(state: State[Any]) -> int | None:
        player = state.current_player
        return None if state.is_terminal() or player < 0 else player

    def viewer(self, live: Live, seat: int | None) -> int | None:
        """Whose view a request gets: on a shared screen the human seat to act (else the first)."""
        if seat is None or live.row.screen != "shared":
            return seat
        player = live.state.current_player
        humans = live.humans()
        return player if player in humans else humans[0]

    def view(self, match_id: str, token: str | None) -> dict[str, Any]:
        live = self.live(match_id)
        seat = self.seat_of(match_id, token)
        return self.view_of(live, seat)

    def view_of(self, live: Live, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: a spectator); see docs/server.md."""
        with live.lock:
            viewer = self.viewer(live, seat)
            state = live.state
            terminal = state.is_terminal()
            svg = ""
            if live.plugin.render_svg is not None:
                svg = live.plugin.render_svg(state, viewer, clickable=viewer is not None)
            log_items = []
            for n, e in enumerate(live.entries):
                text = e.text if viewer == OMNISCIENT else state.redact(e.player, e.action, e.text, viewer)
                log_items.append(
                    {
                        "ply": n,
                        "seat": e.player,
                        "text": text,
                        "description": e.description if text == e.text else "",
                    }
                )
            player = state.current_player
            return {
                "id": live.id,
                "game": live.row.game,
                "game_name": live.game.name,
                "options": live.row.options,
                "screen": live.row.screen,
                "status": "finished" if terminal else "active",
                "version": live.version,
                "plies": len(live.entries),
                "viewer": viewer,
                "seats": [self._seat_public(s, spec, viewer) for s, spec in enumerate(live.row.seats)],
                "to_act": self._to_act(state),
                "thinking": live.thinking,
                "legal": state.legal_for(viewer),
                "svg": svg,
                "observation": state.observation(viewer),
                "scores": state.scores(),
                "log": log_items,
                "undo": {
                    "allowed": viewer is not None
                    and viewer == player
                    and not terminal
                    and self._undo_allowed(live, player),
                    "pending": live.undo_by,
                },
                "hint": viewer is not None and not terminal and player == viewer and self._hint_allowed(live),
                "result": self._result(live) if terminal else None,
            }

    def _result(self, live: Live) -> dict[str, Any]:
        state = live.state
        if live.result_text is None:
            render = live.plugin.render_result
            live.result_text = plain_text(render(state), 100).rstrip() + "\n" if render is not None else ""
        return {
            "scores": state.scores(),
            "returns": state.returns(),
            "winner": state.winner(),
            "text": live.result_text,
        }

    def record(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The record: complete once the match is over, the viewer's while it is in progress."""
        live = self.live(match_id)
        seat = self.seat_of(match_id, token)
        with live.lock:
            state = live.state
            viewer = OMNISCIENT if state.is_terminal() else self.viewer(live, seat)
            record: Record = state.record(viewer)
            players = tuple(spec["agent"] or spec["kind"] for spec in live.row.seats)
            doc: dict[str, Any] = record.with_players(players).to_json()
            return doc

    def svg_at(self, match_id: str, ply: int) -> str:
        """A finished match's position after ``ply`` plies (the replay viewer)."""
        live = self.live(match_id)
        with live.lock:
            if not live.state.is_terminal():
                raise ApiError(409, "positions of a match are replayed once it is over")
            if not 0 <= ply <= len(live.entries):
                raise ApiError(422, f"ply: expected 0 to {len(live.entries)}, not {ply}")
            if live.plugin.render_svg is None:
                raise ApiError(404, "this game has no pictures")
            state = live.game.initial_state()
            for e in live.entries[:ply]:
                state.apply_unchecked(e.action)
            return live.plugin.render_svg(state, None, clickable=False)


__all__ = ["ApiError", "MatchService", "think"]
