"""What a viewer sees of a match: pure functions of the live match and the viewer.

:func:`view_of` builds the view of docs/server.md ("The view"): the picture, the legal actions, the
observation, the scores, the log (:meth:`Match.log <regalia.match.Match.log>` as the viewer may
read it), the clock, the undo and hint offers and the result. Nothing here reads the store or takes a lock:
the caller holds the match's lock. :func:`delta` is what a push sends a client that holds an
earlier view: the log items from the first that changed, and the view's other fields.

>>> old = {"version": 1, "log": [{"ply": 0, "text": "a"}], "plies": 1}
>>> new = {"version": 2, "log": [{"ply": 0, "text": "a"}, {"ply": 1, "text": "b"}], "plies": 2}
>>> delta(old["log"], new)
{'keep': 1, 'log': [{'ply': 1, 'text': 'b'}], 'view': {'version': 2, 'plies': 2}}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from regalia.core.errors import UnknownGame
from regalia.core.game import OMNISCIENT, SPECTATOR
from regalia.core.registry import game_class
from regalia.match import Match, MatchError
from regalia.render.text import plain_text
from regalia.server.clocks import clock_view
from regalia.server.errors import ApiError
from regalia.server.live import Live
from regalia.server.seats import humans, seat_public


def status(match: Match) -> str:
    return "finished" if match.is_over() else "active"


def to_act(match: Match) -> int | None:
    """The seat to act (``None``: chance, or the match is over)."""
    player = match.to_act
    return player if player >= 0 else None


def viewer_for(live: Live, seat: int | None) -> int | None:
    """Whose view a request gets: on a shared screen the human seat to act (else the first)."""
    if seat is None or live.screen != "shared":
        return seat
    player = live.match.state.current_player
    people = humans(live.seats)
    return player if player in people else people[0]


def undo_seat(live: Live, seat: int) -> int:
    """Whose move an undo by ``seat`` takes back: its own; on a shared screen the last person's."""
    if live.screen != "shared":
        return seat
    people = set(humans(live.seats))
    for player, _action in reversed(live.match.state.actors()):
        if player in people:
            return int(player)
    return seat


def may_undo(live: Live, seat: int | None) -> bool:
    """True if ``seat`` may take back now (:meth:`Match.takeback`, the one policy)."""
    if seat is None:
        return False
    try:
        live.match.takeback(undo_seat(live, seat))
    except MatchError:
        return False
    return True


def hints_given(live: Live) -> bool:
    """Hints are given against the computer and on a shared screen."""
    return live.screen == "shared" or any(spec["kind"] == "computer" for spec in live.seats)


def ack(live: Live) -> dict[str, Any]:
    """The short answer to an accepted request: where the match stands, and the legal actions of
    the seat to act as a spectator sees them."""
    match = live.match
    return {
        "version": live.version,
        "plies": match.state.ply,
        "status": status(match),
        "to_act": to_act(match),
        "legal": [] if match.is_over() else match.state.legal_for(SPECTATOR),
    }


def view_of(live: Live, viewer: int | None) -> dict[str, Any]:
    """The view of ``viewer`` (a seat, already :func:`viewer_for`; ``None``: a spectator)."""
    match = live.match
    state = match.state
    over = match.is_over()
    plugin = match.game.plugin()
    clickable = viewer is not None
    board = plugin.render_board(state, viewer, clickable) if plugin.has_svg else ""
    stage = plugin.render_stage(state, viewer, clickable) if plugin.has_svg else None
    legal = [] if over else state.legal_for(viewer)
    player = state.current_player
    return {
        "id": live.id,
        "game": live.row.game,
        "game_name": match.game.name,
        "options": live.row.options,
        "screen": live.screen,
        "status": status(match),
        "version": live.version,
        "plies": state.ply,
        "viewer": viewer,
        "seats": [seat_public(s, spec, viewer) for s, spec in enumerate(live.seats)],
        "to_act": to_act(match),
        "thinking": live.is_thinking and not over,
        "legal": legal,
        **table_of(match, viewer, legal),
        "board": board,
        "stage": stage,
        "observation": state.observation(viewer),
        "scores": match.scores(),
        "time_control": match.time_control.text,
        "clock": clock_view(match),
        "log": [
            {
                "ply": e.ply,
                "seat": e.seat,
                "text": e.text,
                "description": e.description,
                "places": list(e.places),
            }
            for e in match.log(viewer)
        ],
        "undo": {"allowed": not over and may_undo(live, viewer), "pending": live.undo_by},
        "hint": viewer is not None and not over and player == viewer and hints_given(live),
        "result": result_view(match) if over else None,
    }


def table_of(match: Match, viewer: int | None, legal: Sequence[str]) -> dict[str, Any]:
    """The table's data beside the board (docs/table.md): the panels, the legal actions in words
    (``labels``, aligned with ``legal``) and the default action's notation (or ``None``)."""
    state = match.state
    plugin = match.game.plugin()
    actions = state.legal_actions() if legal else []  # legal_for lists them in this order
    labels = [plugin.action_label(state, a) for a in actions]
    default = plugin.default_action(state, actions) if actions else None
    return {
        "panels": plugin.panels(state, viewer),
        "labels": labels,
        "default": None if default is None else state.action_text(default),
    }


def result_view(match: Match) -> dict[str, Any]:
    """A finished match's result: scores, returns, the winner, how it ended (a resignation, a
    fallen flag) and the final breakdown as text."""
    names = match.names()
    if match.ending is not None:
        scores = ", ".join(f"{name} {score}" for name, score in zip(names, match.scores(), strict=True))
        reason = match.ending.reason
        how = {"resign": "resigned", "abandon": "abandoned the match"}.get(reason, "lost on time")
        text = f"{names[match.ending.seat]} {how}. Scores: {scores}.\n"
    else:
        text = plain_text(match.game.plugin().render_result(match.state), 100).rstrip() + "\n"
    return {
        "scores": match.scores(),
        "returns": match.returns(),
        "winner": match.winner(),
        "ending": None if match.ending is None else match.ending.to_json(),
        "text": text,
    }


def delta(sent: Sequence[Any], view: dict[str, Any]) -> dict[str, Any]:
    """What a client holding the log ``sent`` needs of ``view``: ``keep`` (how many of its log items
    stay: fewer than it holds after an undo), the items after them, and the other fields."""
    log = view["log"]
    keep = 0
    for old, new in zip(sent, log, strict=False):
        if old != new:
            break
        keep += 1
    return {"keep": keep, "log": log[keep:], "view": {k: v for k, v in view.items() if k != "log"}}


def record_of(live: Live, viewer: int | None) -> dict[str, Any]:
    """The record: complete once the match is over, the viewer's while it is in progress."""
    match = live.match
    doc: dict[str, Any] = match.record(OMNISCIENT if match.is_over() else viewer_for(live, viewer)).to_json()
    return doc


def position_at(live: Live, ply: int) -> Any:
    """A finished match's position after ``ply`` plies (the replay viewer)."""
    match = live.match
    if not match.is_over():
        raise ApiError(409, "positions of a match are replayed once it is over")
    if not 0 <= ply <= match.state.ply:
        raise ApiError(422, f"ply: expected 0 to {match.state.ply}, not {ply}")
    plugin = match.game.plugin()
    if not plugin.has_svg:
        raise ApiError(404, "this game has no pictures")
    state = match.game.initial_state()
    for _player, action in match.state.actors()[:ply]:
        state.apply_unchecked(action)
    return state


def svg_at(live: Live, ply: int) -> str:
    """The whole picture of a finished match after ``ply`` plies."""
    return str(live.match.game.plugin().render_svg(position_at(live, ply), None, clickable=False))


def table_at(live: Live, ply: int) -> dict[str, Any]:
    """The replay's board and panels of a finished match after ``ply`` plies (docs/table.md)."""
    state = position_at(live, ply)
    plugin = live.match.game.plugin()
    return {
        "ply": ply,
        "board": plugin.render_board(state, None, False),
        "panels": plugin.panels(state, None),
    }


def listed(row: Any) -> dict[str, Any]:
    """A stored match as the list of matches shows it."""
    try:
        name = game_class(row.game).name
    except UnknownGame:  # a game no longer registered: its id
        name = row.game
    return {
        "id": row.id,
        "game": row.game,
        "game_name": name,
        "options": row.options,
        "seats": [seat_public(s, spec) for s, spec in enumerate(row.seats)],
        "screen": row.screen,
        "time_control": row.time_control or "none",
        "public": bool(row.public),
        "status": row.status,
        "version": row.version,
        "plies": row.plies,
        "to_act": row.to_act,
        "created": row.created.isoformat(),
        "updated": row.updated.isoformat(),
        "result": row.result,
    }


__all__ = [
    "ack",
    "delta",
    "hints_given",
    "listed",
    "may_undo",
    "record_of",
    "result_view",
    "svg_at",
    "table_at",
    "table_of",
    "to_act",
    "undo_seat",
    "view_of",
    "viewer_for",
]
