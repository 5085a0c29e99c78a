"""Seats and tokens: who plays each seat of a server's match, and which token acts for which seat.

A seat as stored is ``{"kind", "name", "agent"}`` (:func:`seat_specs` checks what a client sent);
:func:`match_seats` makes them the match layer's :class:`~regalia.match.Seat`. A human seat's token
is 192 random bits; the store keeps only its SHA-256 (:func:`digest`), and :class:`Tokens` finds
the match and seat a token acts for. On a shared screen any human token acts for the person to act
(:func:`acting_seat`).

>>> import regalia
>>> sent = [{"kind": "human"}, {"kind": "computer", "agent": "random"}]
>>> specs = seat_specs(regalia.load_game("royal-court"), sent)
>>> [(s["kind"], s["name"], s["agent"]) for s in specs]
[('human', 'red', None), ('computer', 'blue (random)', 'random')]
>>> [seat.label for seat in match_seats(specs)]
['human', 'random']
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Final

from regalia.core.errors import OptionError
from regalia.core.game import Game
from regalia.match import Seat
from regalia.server.budgets import Caps, checked_spec
from regalia.server.errors import ApiError

SCREENS: Final = ("online", "shared")
KINDS: Final = ("human", "computer", "automaton")


def digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    """A seat's token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def seat_specs(
    game: Game[Any], seats: Sequence[Mapping[str, Any]], caps: Caps | None = None
) -> list[dict[str, Any]]:
    """The stored seats of a new match from what a client sent (422 names what is wrong): a
    computer seat is an agent and a level, an explicit budget only within ``caps``
    (:func:`~regalia.server.budgets.checked_spec`)."""
    caps = caps or Caps()
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
            if not isinstance(agent, str) or (level is not None and not isinstance(level, str)):
                raise ApiError(422, f"{where}: agent and level: expected texts")
            text = f"{agent}:{level}" if level else agent
            try:
                text = checked_spec(text, caps)
            except (OptionError, TypeError, ValueError) as exc:
                raise ApiError(422, f"{where}: {exc}") from None
            spec["agent"] = text
            if not seat.get("name"):
                spec["name"] = f"{names[s]} ({text})"
        out.append(spec)
    if not any(s["kind"] == "human" for s in out):
        raise ApiError(422, "seats: at least one seat must be human")
    return out


def match_seats(specs: Sequence[Mapping[str, Any]]) -> list[Seat]:
    """The match layer's seats of stored seats."""
    return [Seat(str(spec["kind"]), str(spec["name"]), spec.get("agent")) for spec in specs]


def seat_public(seat: int, spec: Mapping[str, Any], viewer: int | None = None) -> dict[str, Any]:
    """A seat as views and listings show it."""
    return {
        "seat": seat,
        "name": spec["name"],
        "kind": spec["kind"],
        "agent": spec["agent"],
        "you": seat == viewer,
    }


def humans(specs: Sequence[Mapping[str, Any]]) -> list[int]:
    return [s for s, spec in enumerate(specs) if spec["kind"] == "human"]


def acting_seat(screen: str, specs: Sequence[Mapping[str, Any]], to_act: int, seat: int | None) -> int:
    """The seat a request acts for: the token's, or on a shared screen the human seat to act."""
    if seat is None:
        raise ApiError(401, "a seat's token is needed to act (send Authorization: Bearer TOKEN)")
    if screen == "shared" and to_act in humans(specs):
        return to_act
    return seat


class Tokens:
    """The seats tokens act for, remembered once looked up (thread-safe); ``lookup(digest)`` asks
    the store for a token not seen yet."""

    def __init__(self, lookup: Any) -> None:
        self._lookup = lookup
        self._known: dict[str, tuple[str, int]] = {}
        self._lock = threading.Lock()

    def remember(self, match_id: str, made: Mapping[int, str]) -> None:
        """The tokens of a new match's seats, once stored."""
        with self._lock:
            for s, token in made.items():
                self._known[digest(token)] = (match_id, s)

    def seat_of(self, match_id: str, token: str | None) -> int | None:
        """The seat ``token`` acts for in this match (``None``: no token, a spectator); a token
        of another match, or no match's, is refused (403)."""
        if token is None:
            return None
        key = digest(token)
        with self._lock:
            found = self._known.get(key)
        if found is None:
            found = self._lookup(key)
        if found is None or found[0] != match_id:
            raise ApiError(403, "this token does not act for a seat of this match")
        with self._lock:
            self._known[key] = found
        return int(found[1])


__all__ = [
    "KINDS",
    "SCREENS",
    "Tokens",
    "acting_seat",
    "digest",
    "humans",
    "match_seats",
    "new_token",
    "seat_public",
    "seat_specs",
]
