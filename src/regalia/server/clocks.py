"""The clocks of the server's matches: time controls sent by clients, fallen flags.

A match's clocks run on wall-clock time (the service's ``now``), so they mean the same in every
server process and after a restart (:class:`~regalia.server.live.Lives` stores when the running
clock started with every change). A flag that falls ends the match as a loss for that seat: found
whenever a request touches the match (:func:`touch`) and by :func:`check_clocks`, which the
application runs every second over the matches in memory; either way the ending is committed
through the one version-checked commit, so of two processes that find it fallen only one ends it.

An abandoned match ends the same way: one that is not over and in which nobody has moved for
``abandon_after`` seconds (``regalia serve --abandon-after``, :data:`ABANDON_AFTER` by default;
:func:`parse_duration`) ends with the seat to act marked as having abandoned it (the match layer's
``abandon`` ending: it ranks last, as after a resignation). "Nobody has moved" is counted from the
running clock's start (the seat to act's last ply, or when its turn began, or the creation), which
every change stores (``matches.clock_since``): :func:`touch` finds it, and
:func:`check_abandoned` asks the store for the active matches idle since the cut-off, in memory or
not.

>>> parse_time_control("fischer:300+5"), parse_time_control("days:1"), parse_time_control("none")
('fischer:300+5', 'move:86400', None)
>>> parse_time_control("fast")
Traceback (most recent call last):
...
regalia.server.errors.ApiError: time_control: time control 'fast': expected none, move:SECONDS, ...
>>> parse_duration("30d"), parse_duration("12h"), parse_duration("90m"), parse_duration("off")
(2592000.0, 43200.0, 5400.0, None)
>>> parse_duration("soon")
Traceback (most recent call last):
...
regalia.core.errors.OptionError: duration 'soon': expected a number and a unit (30d, 12h, 90m, 3600s) or off
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import re
from collections.abc import Callable
from typing import Any, Final

from regalia.core.errors import OptionError
from regalia.match import Match, TimeControl
from regalia.server.errors import ApiError, Conflict
from regalia.server.live import Live, Lives

log = logging.getLogger("regalia.server")

#: Seconds without a move after which a match not over ends as abandoned (``--abandon-after``).
ABANDON_AFTER: Final = 30 * 86400.0
#: Seconds between two looks in the store for abandoned matches (the background check).
ABANDON_INTERVAL: Final = 60.0
#: Abandoned matches ended by one look at most (the next look ends the rest).
ABANDON_BATCH: Final = 100
#: The units of a duration, in seconds.
UNITS: Final = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([dhms])")


def parse_duration(text: str) -> float | None:
    """The seconds of a duration written ``30d``, ``12h``, ``90m`` or ``3600s`` (``None`` for
    ``off``); :class:`OptionError` saying what is expected."""
    word = text.strip().lower()
    if word == "off":
        return None
    found = _DURATION.fullmatch(word)
    seconds = float(found.group(1)) * UNITS[found.group(2)] if found else math.nan
    if not math.isfinite(seconds) or seconds <= 0:
        raise OptionError(f"duration {text!r}: expected a number and a unit (30d, 12h, 90m, 3600s) or off")
    return seconds


def parse_time_control(text: str | None) -> str | None:
    """The notation of a client's time control, checked and written the one way (``None``: none);
    422 naming what is wrong."""
    if text is None:
        return None
    try:
        control = TimeControl.parse(text)
    except OptionError as exc:
        raise ApiError(422, f"time_control: {exc}") from None
    return control.text if control.timed else None


def time_up(match: Match) -> str:
    """Why a move after the flag fell (or after the match was abandoned) is refused."""
    seat = match.ending.seat if match.ending is not None else match.to_act
    if match.ending is not None and match.ending.reason == "abandon":
        return f"nobody moved for too long: {match.names()[seat]} abandoned the match, the match is over"
    return f"time is up: {match.names()[seat]} lost on time, the match is over"


def clock_view(match: Match) -> dict[str, Any] | None:
    """The view's ``clock``: the control, each seat's seconds left now (0 for a fallen flag), the
    seat whose clock runs (``None`` for an untimed match)."""
    control = match.time_control
    if not control.timed:
        return None
    remaining = [round(max(0.0, match.remaining(s)), 3) for s in range(len(match.seats))]
    if match.ending is not None and match.ending.reason == "time":
        remaining[match.ending.seat] = 0.0  # its clock stopped when its flag was found fallen
    return {
        "control": control.text,
        "remaining": remaining,
        "running": None if match.is_over() else match.clock.running,
    }


def idle_since(match: Match) -> float | None:
    """Since when nobody has moved in ``match`` (a time of its ``now``: its running clock's start,
    the seat to act's last ply or the start of its turn); ``None`` once over or with no clock
    running (chance or an automaton to act)."""
    return None if match.is_over() else match.clock_since()


def stored_seconds(stamp: dt.datetime) -> float:
    """A stored time in wall-clock seconds (SQLite gives it back without its zone: UTC)."""
    return (stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)).timestamp()


def settle_abandoned(lives: Lives, live: Live, abandon_after: float | None) -> bool:
    """End ``live`` (held under its lock) as abandoned by the seat to act if nobody has moved in it
    for ``abandon_after`` seconds (``None``: never): committed, version-checked (:class:`Conflict`
    when another process came first). True when it was committed now."""
    match = live.match
    if abandon_after is None or live.finished:
        return False
    since = idle_since(match)
    row = live.row
    if since is not None and row.clock_since is None and live.version == row.version:
        since = min(since, stored_seconds(row.updated))  # stored before its clock was: when changed
    if since is None or lives.now() - since < abandon_after or match.state.current_player < 0:
        return False
    match.abandon()
    log.info("match %s ended: abandoned by seat %d", live.id, match.state.current_player)
    lives.commit(live, keep=match.state.ply, undo_by=None)
    return True


def settle(lives: Lives, live: Live, abandon_after: float | None = None) -> bool:
    """End ``live`` (under its lock) if its flag has fallen or it was abandoned; True when now."""
    return lives.settle_time(live) or settle_abandoned(lives, live, abandon_after)


def touch(
    lives: Lives,
    match_id: str,
    changed: Callable[[Live], None],
    trust_cache: bool = False,
    abandon_after: float | None = None,
) -> Live:
    """The match (as :meth:`Lives.live`), ended first if the flag of the seat to act has fallen or
    nobody has moved in it for ``abandon_after`` seconds (committed, then ``changed(live)``: the
    push); when another process ended it first, as stored."""
    live = lives.live(match_id, trust_cache)
    try:
        with live.lock:
            ended = settle(lives, live, abandon_after)
    except Conflict:
        live = lives.live(match_id)
        with live.lock:
            ended = settle(lives, live, abandon_after)
    if ended:
        changed(live)
    return live


def check_clocks(lives: Lives, changed: Callable[[Live], None]) -> int:
    """End every timed match in memory whose flag has fallen (committed, then ``changed(live)``);
    returns how many ended."""
    ended = 0
    for live in lives.clocked():
        try:
            with live.lock:
                done = lives.settle_time(live)
        except Conflict:  # another process changed it first: read again when next asked
            continue
        except Exception:  # a database failure must not stop the clocks of the other matches
            log.exception("ending match %s on time failed", live.id)
            continue
        if done:
            ended += 1
            changed(live)
    return ended


def check_abandoned(
    lives: Lives, changed: Callable[[Live], None], abandon_after: float | None, limit: int = ABANDON_BATCH
) -> int:
    """End the matches, in memory or only in the store, in which nobody has moved for
    ``abandon_after`` seconds (``None``: none): the store names the active ones idle since the
    cut-off, each is read (current with the store) and ended as :func:`touch` ends it (committed,
    then ``changed(live)``); returns how many ended."""
    if abandon_after is None:
        return 0
    cutoff = lives.now() - abandon_after
    ended = 0
    for match_id in lives.store.idle_matches(cutoff, dt.datetime.fromtimestamp(cutoff, dt.UTC), limit):
        try:
            live = lives.live(match_id)
            with live.lock:
                done = settle(lives, live, abandon_after)
        except (Conflict, ApiError):  # changed or gone meanwhile: looked at again next time
            continue
        except Exception:  # a failure must not stop the others
            log.exception("ending abandoned match %s failed", match_id)
            continue
        if done:
            ended += 1
            changed(live)
    return ended


__all__ = [
    "ABANDON_AFTER",
    "check_abandoned",
    "check_clocks",
    "clock_view",
    "idle_since",
    "parse_duration",
    "parse_time_control",
    "settle",
    "settle_abandoned",
    "time_up",
    "touch",
]
