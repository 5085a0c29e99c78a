"""The clocks of the server's matches: time controls sent by clients, fallen flags.

A match's clocks run on wall-clock time (the service's ``now``), so they mean the same in every
server process and after a restart (:class:`~regalia.server.live.Lives` stores when the running
clock started with every change). A flag that falls ends the match as a loss for that seat: found
whenever a request touches the match (:func:`touch`) and by :func:`check_clocks`, which the
application runs every second over the matches in memory; either way the ending is committed
through the one version-checked commit, so of two processes that find it fallen only one ends it.

>>> parse_time_control("fischer:300+5"), parse_time_control("days:1"), parse_time_control("none")
('fischer:300+5', 'move:86400', None)
>>> parse_time_control("fast")
Traceback (most recent call last):
...
regalia.server.errors.ApiError: time_control: time control 'fast': expected none, move:SECONDS, ...
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from regalia.core.errors import OptionError
from regalia.match import Match, TimeControl
from regalia.server.errors import ApiError, Conflict
from regalia.server.live import Live, Lives

log = logging.getLogger("regalia.server")


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
    """Why a move after the flag fell is refused."""
    seat = match.ending.seat if match.ending is not None else match.to_act
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


def touch(lives: Lives, match_id: str, changed: Callable[[Live], None], trust_cache: bool = False) -> Live:
    """The match (as :meth:`Lives.live`), ended first if the flag of the seat to act has fallen
    (committed, then ``changed(live)``: the push); when another process ended it first, as stored."""
    live = lives.live(match_id, trust_cache)
    try:
        with live.lock:
            ended = lives.settle_time(live)
    except Conflict:
        live = lives.live(match_id)
        with live.lock:
            ended = lives.settle_time(live)
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


__all__ = ["check_clocks", "clock_view", "parse_time_control", "time_up", "touch"]
