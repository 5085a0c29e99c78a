"""One sentence per ply of Carcassonne: :func:`describe_ply`.

It is called on the state right after the ply and tells what the notation does not: where a drawn
tile fits (or that it fits nowhere and is discarded), what a laid tile completes, and the scoring
the ply caused, from the events the engine logged for that ply
(:meth:`~regalia.games.carcassonne.base.Base.events`):

* ``red's city of 3 tiles and 1 pennant is complete: red scores 8``
* ``red and blue share the road of 4 tiles: each scores 4``
* ``challenge: blue's monk at 2,1 goes home with 0 points``
* ``the drawn tile fits nowhere: discarded, another is drawn``
* ``final scoring: red 12 (roads 3, cities 4, fields 5), blue 7 (...)``

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state()
>>> for text in ("draw E", "place E 0,1 180", "follower city S"):
...     _ = state.apply_text(text)
>>> describe_ply(state, state.plies()[-1])
"red's knight: red's city of 2 tiles is complete: red scores 4; the knight goes home"
"""

from __future__ import annotations

from typing import Any

from regalia.core.game import CHANCE, Ply
from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.actions import DRAW, FOLLOWER, PASS, PLACE, Action
from regalia.games.carcassonne.base import AROUND
from regalia.games.carcassonne.render.board import last_placed
from regalia.games.carcassonne.render.style import (
    KIND_ORDER,
    KIND_PLURALS,
    follower_word,
    plural,
    seat_name,
    seats_words,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, CITY, FIELD, ROAD

Event = tuple[Any, ...]


def events_of_ply(state: CarcassonneState, ply: int | None = None) -> list[Event]:
    """The scoring and discard events of ply number ``ply`` (default: the last one applied)."""
    number = state.ply if ply is None else ply
    return [e for e in state.events() if e and e[0] == number]


def _pennants(state: CarcassonneState, tiles: list[Pos]) -> int:
    """The pennants of the city made of exactly ``tiles``."""
    wanted = frozenset(tiles)
    first = tiles[0]
    if first not in state.board:
        return 0
    for i, seg in enumerate(state.turned(first).segments):
        if seg.kind == CITY:
            record = state.feature(first, i)
            if record.tiles == wanted:
                return record.pennants
    return 0


def _feature_words(state: CarcassonneState, kind: str, tiles: list[Pos]) -> str:
    """``city of 3 tiles and 1 pennant``, ``road of 4 tiles``, ``cloister at 2,1``."""
    if kind in ABBEYS:
        return f"{kind} at {format_pos(tiles[0])}"
    text = f"{kind} of {plural(len(tiles), 'tile')}"
    if kind == CITY:
        pennants = _pennants(state, tiles)
        if pennants:
            text += f" and {plural(pennants, 'pennant')}"
    return text


def score_text(state: CarcassonneState, event: Event) -> str:
    """One completed feature scored during play."""
    _, _, kind, points, tiles = event[:5]
    winners = [s for s, p in enumerate(points) if p]
    value = max(points) if points else 0
    what = _feature_words(state, kind, list(tiles))
    if len(winners) == 1:
        who = seat_name(state, winners[0])
        return f"{who}'s {what} is complete: {who} scores {value}"
    return f"{seats_words(state, winners)} share the {what}: each scores {value}"


def challenge_text(state: CarcassonneState, event: Event) -> str:
    """A follower sent home by a challenge (Heretics and Shrines)."""
    _, _, kind, seats, tiles = event[:5]
    where = format_pos(tiles[0]) if tiles else "?"
    who = seats_words(state, list(seats))
    return f"challenge: {who}'s {follower_word(kind)} at {where} goes home with 0 points"


def final_text(state: CarcassonneState, events: list[Event]) -> str:
    """The final scoring, summed per seat and kind of feature."""
    totals: dict[int, dict[str, int]] = {}
    for event in events:
        for seat, value in enumerate(event[3]):
            if value:
                kinds = totals.setdefault(seat, {})
                kinds[event[2]] = kinds.get(event[2], 0) + value
    if not totals:
        return "final scoring: no follower scores"
    parts = []
    for seat in sorted(totals):
        kinds = totals[seat]
        detail = ", ".join(f"{KIND_PLURALS[k]} {kinds[k]}" for k in KIND_ORDER if kinds.get(k))
        parts.append(f"{seat_name(state, seat)} {sum(kinds.values())} ({detail})")
    return "final scoring: " + ", ".join(parts)


def events_text(state: CarcassonneState, events: list[Event]) -> list[str]:
    """The events of a ply in words, in the order they happened (the final scoring summed)."""
    out = []
    finals = [e for e in events if len(e) >= 5 and e[1] == "final"]
    for event in events:
        what = event[1] if len(event) > 1 else ""
        if what == "score" and len(event) >= 5:
            out.append(score_text(state, event))
        elif what == "challenge" and len(event) >= 5:
            out.append(challenge_text(state, event))
        elif what == "discard":
            out.append("the drawn tile fits nowhere: discarded, another is drawn")
    if state.terminal:
        if any(len(e) > 1 and e[1] == "discard" for e in events) and out:
            out[-1] = "the drawn tile fits nowhere: discarded; the bag is empty"
        out.append(final_text(state, finals))
    return out


def _completes(state: CarcassonneState, pos: Pos) -> list[str]:
    """The features the tile at ``pos`` completes (scored once the follower step is over)."""
    out = []
    turned = state.turned(pos)
    seen = set()
    for i, seg in enumerate(turned.segments):
        if seg.kind not in (CITY, ROAD):
            continue
        root = state.feature_root(pos, i)
        record = state.feature(pos, i)
        if record.open == 0 and root not in seen:
            seen.add(root)
            out.append(f"a {_feature_words(state, seg.kind, sorted(record.tiles))}")
    x, y = pos
    for dx, dy in ((0, 0), *AROUND):
        q = (x + dx, y + dy)
        if q in state.abbeys and state.abbey_neighbours(q) == 8:
            out.append(f"the {state.abbeys[q]} at {format_pos(q)}")
    return out


def _place(state: CarcassonneState, action: Action) -> str:
    pos = action.pos
    if pos is None or pos not in state.board:
        return ""
    parts = []
    done = _completes(state, pos)
    if done:
        parts.append(f"it completes {_join(done)}")
    if state.placed == pos and not state.terminal:
        options = len(state.follower_options())
        if options:
            parts.append(f"{plural(options, 'follower option')} on it, or pass")
        elif state.followers[state.player] == 0:
            parts.append("no follower left: pass")
        else:
            parts.append("no free feature for a follower: pass")
    return "; ".join(parts)


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _draw(state: CarcassonneState, action: Action, events: list[Event]) -> str:
    said = events_text(state, events)
    if said:
        return "; ".join(said)
    if state.drawn != action.tile or state.terminal:
        return ""
    places = {pos for pos, _ in state.placements(state.drawn)}
    who = seat_name(state, state.player)
    return (
        f"{who} draws {state.cat.types[action.tile].id}: it fits in {plural(len(places), 'place')}; "
        f"{plural(state.bag_left, 'tile')} left in the bag"
    )


def describe_ply(state: CarcassonneState, ply: Ply) -> str:
    """One sentence telling what ``ply`` did (``state``: right after it); ``""`` when the notation
    says it all."""
    action = ply.action
    if not isinstance(action, Action):
        return ""
    try:
        events = events_of_ply(state)
        if ply.player == CHANCE or action.kind == DRAW:
            return _draw(state, action, events)
        if action.kind == PLACE:
            return _place(state, action)
        if action.kind == FOLLOWER:
            return _follower(state, ply.player, action, events)
        if action.kind == PASS:
            said = events_text(state, events)
            return "; ".join(said) if said else f"{seat_name(state, ply.player)} deploys no follower"
    except (IndexError, KeyError, ValueError, AssertionError, TypeError):
        return ""
    return ""


def _follower(state: CarcassonneState, seat: int, action: Action, events: list[Event]) -> str:
    who = seat_name(state, seat)
    word = follower_word(action.feature)
    parts = events_text(state, events)
    pos = last_placed(state)
    if pos is not None and pos not in state.meeples and not state.terminal:
        parts.append(f"the {word} goes home")
    if parts:
        return f"{who}'s {word}: " + "; ".join(parts)
    if pos is None or pos not in state.meeples:
        return ""
    _, segment = state.meeples[pos]
    record = state.feature(pos, segment)
    if action.feature in ABBEYS:
        return (
            f"{who}'s {word} on the {action.feature}: {state.abbey_neighbours(pos) + 1} of its 9 tiles laid"
        )
    if action.feature == FIELD:
        cities = len(state.completed_cities(record))
        touching = plural(cities, "completed city", "completed cities") if cities else "no completed city yet"
        return f"{who}'s {word} in a field touching {touching}"
    what = _feature_words(state, action.feature, sorted(record.tiles))
    return f"{who}'s {word} on the {what}, {plural(record.open, 'open edge')}"


__all__ = ["challenge_text", "describe_ply", "events_of_ply", "events_text", "final_text", "score_text"]
