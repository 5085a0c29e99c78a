"""The matches a server plays: the only authority over them.

:class:`MatchService` is the front the HTTP API (:mod:`regalia.server.app`) uses. Every game step
goes through the match layer's :class:`~regalia.match.Match`: it checks every action with the same
engine as everything else, draws chance's outcomes (from the match's secret seed), applies the
automata's steps, takes back by its one policy and writes the described log. The service writes
every accepted change to the :class:`~regalia.server.store.Store` before answering. Its parts, each
one idea:

- :mod:`regalia.server.seats`: seats and tokens;
- :mod:`regalia.server.live`: the live matches and their sync with the store (commits, conflicts);
- :mod:`regalia.server.computers`: computer seats thinking in a process pool, resumed at start;
- :mod:`regalia.server.views`: what a viewer sees (pure functions of the match and the viewer);
- :mod:`regalia.server.consent`: undo, and the other side's consent to it.

- :mod:`regalia.server.clocks`: time controls, and fallen flags (on wall-clock time, ``now``).

It knows no game: only the core contract, the game's plugin and the match layer.

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
regalia.server.errors.ApiError: it is not your turn: seat ... is to act
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool

from regalia.ai.registry import agent_levels, agent_names
from regalia.core.errors import OptionError, RegaliaError, UnknownGame
from regalia.core.game import Game
from regalia.core.registry import game_class, game_ids
from regalia.match import HINT_AGENT, MatchError
from regalia.server import clocks, consent, views
from regalia.server.analysis import Analyses, best_board, finished_record
from regalia.server.budgets import Caps
from regalia.server.computers import Computers, think, warm
from regalia.server.errors import ApiError, refusal
from regalia.server.live import Live, Lives
from regalia.server.seats import SCREENS, Tokens, acting_seat, digest, humans, new_token, seat_specs
from regalia.server.store import Store

log = logging.getLogger("regalia.server")


class MatchService:
    """Every match of one store (thread-safe). ``on_change(match_id)`` is called after each
    committed change (pushes); ``pool`` runs computer seats' :func:`think` (a process pool; without
    one they think in a thread); ``now``: the clocks' wall-clock time; ``caps``: what a computer
    seat and a hint may think (:class:`~regalia.server.budgets.Caps`); ``abandon_after``: the
    seconds without a move after which a match ends as abandoned (``None``: never; see
    :mod:`regalia.server.clocks`)."""

    def __init__(
        self,
        store: Store,
        pool: concurrent.futures.Executor | None = None,
        on_change: Callable[[str], None] | None = None,
        now: Callable[[], float] = time.time,
        caps: Caps | None = None,
        abandon_after: float | None = clocks.ABANDON_AFTER,
        analysis_iterations: int | None = None,
    ) -> None:
        self.store = store
        self.abandon_after = abandon_after
        #: When the store was last asked for abandoned matches (a time of ``now``'s).
        self._abandon_looked: float | None = None
        self.caps = caps or Caps()
        self.pool = pool or concurrent.futures.ThreadPoolExecutor(max_workers=2)
        self.on_change = on_change or (lambda _id: None)
        self.lives = Lives(store, now=now)
        self.tokens = Tokens(store.seat_of)
        self.computers = Computers(self.pool, self.lives, self._after_change, self.caps)
        #: The analyses of finished matches (:mod:`regalia.server.analysis`): ``analysis_iterations``
        #: a position, within the caps.
        self.analyses = Analyses(
            store,
            self.pool,
            lambda match_id: finished_record(self.lives, match_id),
            self.caps,
            iterations=analysis_iterations,
            now=now,
        )

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
        try:  # the options' own names only (an option called "options" is not the keyword)
            return cls(options=cls.options_class.from_mapping(options))
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
            plugin = game_class(game_id).plugin()
        except UnknownGame as exc:
            raise ApiError(404, str(exc)) from None
        return plugin.rules()

    def rules_html(self, game_id: str) -> str:
        """The rules as an HTML page with the game's reference (:mod:`regalia.server.rules_page`)."""
        from regalia.server.rules_page import rules_page

        game = self.load(game_id, {})
        plugin = type(game).plugin()
        return rules_page(type(game).name, plugin.rules(), plugin.reference(game))

    # -- creating and listing -----------------------------------------------------------------
    def create(
        self,
        game_id: str,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        screen: str,
        time_control: str | None = None,
        public: bool = False,
    ) -> dict[str, Any]:
        """Create a match (``time_control`` in its notation: ``none``, ``move:S``, ``days:N``,
        ``fischer:M+I``; ``public``: listed to everyone, else only its links find it); returns its
        id, each seat (with its token and link if human), the spectator link, the time control and
        whether it is public."""
        game = self.load(game_id, options)
        if screen not in SCREENS:
            raise ApiError(422, f"screen: expected one of {', '.join(SCREENS)}, not {screen!r}")
        control = clocks.parse_time_control(time_control)
        specs = seat_specs(game, seats, self.caps)
        live = self.lives.new(game_id, game.options.to_json(), specs, screen, control, public=public)
        match_id = live.id
        made = {s: new_token() for s in humans(specs)}
        # The match, its tokens and its opening draws (its first change) in one transaction: a create
        # that fails or is killed halfway leaves nothing behind.
        with live.lock:
            live.match.advance(computers=False)
            self.lives.store_new(live, [(digest(t), s) for s, t in made.items()])
        self.lives.remember(live)
        self.tokens.remember(match_id, made)
        self._after_change(live)
        return {
            "id": match_id,
            "seats": [
                {
                    "seat": s,
                    "name": spec["name"],
                    "kind": spec["kind"],
                    **({"token": made[s], "link": f"/match/{match_id}#token={made[s]}"} if s in made else {}),
                }
                for s, spec in enumerate(specs)
            ],
            "spectator": f"/match/{match_id}",
            "time_control": live.match.time_control.text,
            "public": public,
        }

    def listing(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        if status not in (None, "active", "finished"):
            raise ApiError(422, f"status: expected active or finished, not {status!r}")
        if not 1 <= limit <= 500:
            raise ApiError(422, "limit: expected 1 to 500")
        return [views.listed(row) for row in self.store.listing(status, limit, public_only=True)]

    # -- the live matches -----------------------------------------------------------------------
    def live(self, match_id: str, trust_cache: bool = False) -> Live:
        """The match, current with the store (see :meth:`Lives.live`)."""
        return self.lives.live(match_id, trust_cache)

    def touch(self, match_id: str, trust_cache: bool = False) -> Live:
        """The match, ended first if its flag has fallen or it was abandoned (see
        :func:`clocks.touch`)."""
        return clocks.touch(self.lives, match_id, self._after_change, trust_cache, self.abandon_after)

    def check_clocks(self) -> int:
        """End every match in memory whose flag has fallen and, every
        :data:`~regalia.server.clocks.ABANDON_INTERVAL` seconds, the abandoned matches the store
        holds; how many ended (the application calls it every second, so a flag falls and an
        abandoned match ends with nobody asking)."""
        ended = clocks.check_clocks(self.lives, self._after_change)
        now = self.lives.now()
        looked = self._abandon_looked
        if self.abandon_after is not None and (looked is None or now - looked >= clocks.ABANDON_INTERVAL):
            self._abandon_looked = now
            ended += clocks.check_abandoned(self.lives, self._after_change, self.abandon_after)
        return ended

    def forget(self, match_id: str) -> None:
        self.lives.forget(match_id)

    def changed_elsewhere(self, match_id: str) -> bool:
        """Another process changed a match: True if this one held an older version of it."""
        return self.lives.changed_elsewhere(match_id)

    def seat_of(self, match_id: str, token: str | None) -> int | None:
        """The seat ``token`` acts for in this match (``None``: a spectator); 403 for another's."""
        return self.tokens.seat_of(match_id, token)

    def resume(self) -> int:
        """Ask the computer seats to move in every match waiting for one (after a start)."""
        return self.computers.resume()

    def tick_computers(self) -> int:
        """Renew the leases of the computer moves this process thinks about and take over those
        whose process died (the application calls it every second); how many were taken over."""
        return self.computers.tick()

    def _acting(self, live: Live, token: str | None) -> int:
        seat = self.seat_of(live.id, token)
        return acting_seat(live.screen, live.seats, live.match.state.current_player, seat)

    def _after_change(self, live: Live) -> None:
        self.computers.schedule(live)
        self.on_change(live.id)

    # -- acting -------------------------------------------------------------------------------
    def act(self, match_id: str, token: str | None, text: str, version: int | None = None) -> dict[str, Any]:
        """Check and apply a seat's action; commit it (with the draws and forced steps that follow).
        The match in memory is trusted (no read of the store on the way to the commit); when the
        action is refused and another process had moved the match on meanwhile, it is judged again
        on the match as stored.

        Without ``version`` the action is applied at most once (docs/server.md, "Moves without a
        version"): it is judged on the match as stored when it arrives and committed at that version
        only (a conflict is a 409, never a second try on the newer position), and it is refused as a
        repeat when it is the very action this seat played last with no other seat deciding since."""
        if version is None:
            stored = self.live(match_id)
            with stored.lock:
                seen = stored.version
            return self._act(stored, token, text, seen, repeat_check=True)
        cached = self.live(match_id, trust_cache=True)
        seen = cached.version
        try:
            return self._act(cached, token, text, version)
        except ApiError:
            stored = self.live(match_id)
            if stored is cached and stored.version == seen:
                raise
            return self._act(stored, token, text, version)

    def _act(
        self, live: Live, token: str | None, text: str, version: int | None, repeat_check: bool = False
    ) -> dict[str, Any]:
        ended = False  # the flag fell: the ending is committed and pushed, the move refused
        try:
            with live.lock:
                seat = self._acting(live, token)
                match = live.match
                ended = clocks.settle(self.lives, live, self.abandon_after)
                if match.ending is not None and match.ending.reason in ("time", "abandon"):
                    raise ApiError(409, clocks.time_up(match))
                if version is not None and version != live.version:
                    if repeat_check:
                        raise ApiError(409, "the match was changed meanwhile: reload it and send its version")
                    raise ApiError(409, f"the match is at version {live.version}, not {version}: reload it")
                if repeat_check and repeats_last(live, seat, text):
                    raise ApiError(
                        409,
                        f"{text!r} is what this seat played last: a move without a version is applied "
                        "once; send the match's version to play it again",
                    )
                keep = match.state.ply
                try:
                    match.play(seat, text)
                except RegaliaError as exc:
                    ended = self.lives.settle_time(live)  # the flag fell as the move came
                    raise refusal(exc) from None
                try:
                    match.advance(computers=False)
                except Exception:  # applied in memory, never stored: read the match again when asked
                    self.lives.forget(live.id)
                    raise
                self.lives.commit(live, keep=keep)
        except ApiError:
            if ended:
                self._after_change(live)
            raise
        self._after_change(live)
        return views.ack(live)

    def resign(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The seat resigns: the match is over, that seat ranks last (the record carries it)."""
        live = self.touch(match_id)
        with live.lock:
            seat = self._acting(live, token)
            try:
                live.match.resign(seat)
            except MatchError as exc:
                raise refusal(exc) from None
            self.lives.commit(live, keep=live.match.state.ply)
        self._after_change(live)
        return views.ack(live)

    # -- undo and hints -----------------------------------------------------------------------
    def undo(self, match_id: str, token: str | None) -> dict[str, Any]:
        """Take back the seat's last decision (the one policy), or ask the other side to allow it."""
        live = self.touch(match_id)
        with live.lock:
            consent.request_undo(self.lives, live, self._acting(live, token))
        self._after_change(live)
        return views.ack(live)

    def answer_undo(self, match_id: str, token: str | None, accept: bool) -> dict[str, Any]:
        """The other side's answer to a request to take back."""
        live = self.touch(match_id)
        seat = self.seat_of(match_id, token)
        if seat is None:
            raise ApiError(401, "a seat's token is needed to answer")
        with live.lock:
            consent.answer_undo(self.lives, live, seat, accept)
        self._after_change(live)
        return views.ack(live)

    def start_hint(self, match_id: str, token: str | None) -> concurrent.futures.Future[str]:
        """The hint agent's move for the seat to act (against the computer, or on a shared screen),
        submitted to the pool: its future. 429 while this match's hint is thought or while the
        server thinks as many hints as its caps allow."""
        live = self.touch(match_id)
        with live.lock:
            seat = self._acting(live, token)
            if not views.hints_given(live):
                raise ApiError(
                    403, "hints are given only in matches against the computer or on a shared screen"
                )
            if live.match.is_over():
                raise ApiError(409, "the match is over")
            if seat != live.match.state.current_player:
                raise ApiError(409, "it is not your turn: a hint is given to the seat to act")
        return self.computers.hint(live, seat)

    def hint(self, match_id: str, token: str | None) -> dict[str, Any]:
        """What the hint agent would play for the seat to act, waited for in the calling thread
        (the HTTP API waits with :meth:`hint_async`, off the request threads); 503 when it is not
        ready within ``caps.hint_wait`` seconds."""
        future = self.start_hint(match_id, token)
        try:
            action = future.result(timeout=self.caps.hint_wait)
        except TimeoutError:
            future.cancel()  # queued: dropped; thinking: its deadline ends it
            raise self._hint_late() from None
        except concurrent.futures.CancelledError:
            raise ApiError(503, "the hint was cancelled: the server is stopping") from None
        except Exception as exc:
            raise self._hint_failed(match_id, exc) from None
        return {"action": action, "agent": HINT_AGENT}

    async def hint_async(self, match_id: str, token: str | None) -> dict[str, Any]:
        """:meth:`hint` for the event loop: refused at once (429) when the match's or the
        server's hints are taken, the checks in a worker thread, the wait on the loop (no request
        thread is held while the search runs)."""
        refused = self.computers.hints.refusal(match_id)
        if refused is not None:
            raise refused
        future = await run_in_threadpool(self.start_hint, match_id, token)
        waited = asyncio.wrap_future(future)
        try:
            done, _ = await asyncio.wait({waited}, timeout=self.caps.hint_wait)
        except asyncio.CancelledError:  # the client went away: the search is not needed
            future.cancel()
            raise
        if not done:
            waited.cancel()  # and so the pool's job: queued, dropped; thinking, its deadline ends it
            raise self._hint_late()
        if waited.cancelled():
            raise ApiError(503, "the hint was cancelled: the server is stopping")
        failure = waited.exception()
        if failure is not None:
            raise self._hint_failed(match_id, failure)
        return {"action": waited.result(), "agent": HINT_AGENT}

    def _hint_late(self) -> ApiError:
        return ApiError(
            503, f"the hint was not ready within {self.caps.hint_wait:g} s: the server is busy, try again"
        )

    @staticmethod
    def _hint_failed(match_id: str, exc: BaseException) -> ApiError:
        log.error("the hint for match %s failed: %r", match_id, exc)
        return ApiError(503, f"the hint could not be thought ({type(exc).__name__}): try again")

    # -- views --------------------------------------------------------------------------------
    def ack(self, live: Live) -> dict[str, Any]:
        with live.lock:
            return views.ack(live)

    def viewer(self, live: Live, seat: int | None) -> int | None:
        return views.viewer_for(live, seat)

    def view(self, match_id: str, token: str | None) -> dict[str, Any]:
        live = self.touch(match_id)
        return self.view_of(live, self.seat_of(match_id, token))

    def view_of(self, live: Live, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: a spectator); see docs/server.md."""
        with live.lock:
            return views.view_of(live, views.viewer_for(live, seat))

    def record(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The record: complete once the match is over, the viewer's while it is in progress."""
        live = self.touch(match_id)
        seat = self.seat_of(match_id, token)
        with live.lock:
            return views.record_of(live, seat)

    def svg_at(self, match_id: str, ply: int) -> str:
        """A finished match's position after ``ply`` plies (the replay viewer)."""
        live = self.live(match_id)
        with live.lock:
            return views.svg_at(live, ply)

    def table_at(self, match_id: str, ply: int) -> dict[str, Any]:
        """A finished match's board and panels after ``ply`` plies (the replay viewer)."""
        live = self.live(match_id)
        with live.lock:
            return views.table_at(live, ply)

    # -- analysis -----------------------------------------------------------------------------
    def request_analysis(self, match_id: str) -> dict[str, Any]:
        """Queue the analysis of a finished match (409 in progress, 429 when the queue is full)."""
        self.touch(match_id)
        return self.analyses.request(match_id)

    def analysis(self, match_id: str) -> dict[str, Any]:
        """Where the analysis of a match stands (``status`` ``none`` until asked for)."""
        self.live(match_id)  # 404 for no such match
        return self.analyses.status(match_id)

    def analysis_board(self, match_id: str, ply: int) -> dict[str, Any]:
        """The board had ply ``ply`` been the analysis' best move (409 before the analysis is done,
        422 for a ply that is no searched decision)."""
        live = self.live(match_id)
        done = self.analyses.status(match_id)
        if done["status"] != "done":
            raise ApiError(409, "the match's analysis is not done: ask for it first")
        best = {b["ply"]: b["best"] for b in done["best"]}
        if ply not in best:
            raise ApiError(422, f"ply: {ply} is not a decision of the analysis with a best move")
        with live.lock:
            return best_board(live, ply, best[ply])


def repeats_last(live: Live, seat: int, text: str) -> bool:
    """``text`` is the last decision of the match (chance's draws aside) and ``seat`` made it: a
    move without a version that says so is taken as a repeat of the same request."""
    state = live.match.state
    ply = state.ply
    while ply > 0:
        start = max(0, ply - 8)
        for last in reversed(state.plies(start)[: ply - start]):
            if last.player >= 0:
                if last.player != seat:
                    return False
                try:  # the same action in another spelling is the same action
                    return bool(state.notation(state.parse_action(text)) == last.text)
                except Exception:  # not an action: refused as such by the engine, not as a repeat
                    return False
        ply = start
    return False


__all__ = ["ApiError", "MatchService", "digest", "repeats_last", "think", "warm"]
