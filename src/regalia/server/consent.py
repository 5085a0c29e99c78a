"""Undo on the server: the match layer's one takeback policy, and the other side's consent.

What may be taken back is :meth:`Match.takeback <regalia.match.Match.takeback>`'s answer: a
person's last decision, with whatever chance, automata and computers played after it, as long as no
other person has acted since (so against the computer a person takes back their move together with
the computer's reply). On a shared screen the last person's move is taken back at once; online,
when another person plays, the request waits for their answer (``undo/accept``, ``undo/decline``),
and any new move cancels it (every other change is committed with no request pending).

>>> import os, tempfile
>>> from regalia.server.store import Store
>>> lives = Lives(Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.db")))
>>> live = lives.new("royal-court", {}, [{"kind": "human", "name": "red", "agent": None}] * 2, "online")
>>> lives.store_new(live, [])
>>> _ = live.match.advance(computers=False)
>>> request_undo(lives, live, live.match.to_act)
Traceback (most recent call last):
...
regalia.server.errors.ApiError: nothing to take back: there is no move of yours to take back
"""

from __future__ import annotations

from regalia.match import MatchError
from regalia.server.errors import ApiError, refusal
from regalia.server.live import Live, Lives
from regalia.server.views import undo_seat


def request_undo(lives: Lives, live: Live, seat: int) -> None:
    """``seat`` asks to take back (``live`` held under its lock): done at once, or the request
    stored for the other side's answer."""
    seat = undo_seat(live, seat)
    match = live.match
    try:
        match.takeback(seat)
    except MatchError as exc:
        raise ApiError(409, f"nothing to take back: {exc}") from None
    if match.needs_consent(seat):
        if live.undo_by == seat:
            raise ApiError(409, "your request to take back is already waiting for an answer")
        lives.commit(live, keep=match.state.ply, undo_by=seat)
    else:
        take_back(lives, live, seat)


def answer_undo(lives: Lives, live: Live, seat: int, accept: bool) -> None:
    """The other side's answer to the waiting request (``live`` held under its lock)."""
    asker = live.undo_by
    if asker is None:
        raise ApiError(409, "no request to take back is waiting")
    if asker == seat:
        raise ApiError(403, "the seat that asked cannot answer its own request")
    try:
        allowed = accept and live.match.takeback(asker) > 0
    except MatchError:
        allowed = False
    if allowed:
        take_back(lives, live, asker)
    else:
        lives.commit(live, keep=live.match.state.ply, undo_by=None)


def take_back(lives: Lives, live: Live, seat: int) -> None:
    """Take back ``seat``'s last decision (consent given where it is needed) and commit it."""
    try:
        live.match.undo(seat, consented=True)
    except MatchError as exc:
        raise refusal(exc) from None
    lives.commit(live, keep=live.match.state.ply, undo_by=None, trim=True)


__all__ = ["answer_undo", "request_undo", "take_back"]
