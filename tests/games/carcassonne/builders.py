"""Helpers that build Carcassonne positions for tests, by applying notation.

A position is built the way a game is played: chance's draws are ordinary actions, so a test
chooses every tile. :func:`turn` plays one whole turn from a short spec::

    turn(state, "E 0,1 180 city S")     # draw E, place it at 0,1 turned 180, a knight on city S
    turn(state, "U -1,0 0")             # draw U, place it, no follower (pass)

The start tile is a D at 0,0: city north, road west-east, field south. Positions are x,y with y
to the north; rotations are clockwise; a feature is named by its first side (or half) clockwise
from north as the tile lies (halves ``Nw Ne En Es Se Sw Ws Wn``).

:func:`bag_game` makes a game whose bag holds exactly the tiles a test lists (the shipped tile
layouts with other counts, written to a catalogue file for the option ``tiles``): the game then
ends, with its final scoring, after the last of them, so final scoring is tested without playing
71 tiles.

:func:`reference_features` finds the board's features from scratch (a search over the laid tiles),
independently of the engine's union-find: the property tests and the calculator tests compare the
engine and the calculator with it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.data import read_package_json
from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE
from regalia.games.carcassonne.base import FOLLOWERS, SIDE_VECTORS, Event
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, CITY, ROAD, opposite_half

RED, BLUE, GREEN = 0, 1, 2


@cache
def game(**options: Any) -> Any:
    """The Carcassonne game with these options (shipped tiles unless ``tiles`` is given)."""
    return regalia.load_game("carcassonne", **options)


def new(**options: Any) -> CarcassonneState:
    """A new game: the start tile D at 0,0, seat 0 to play, chance to draw."""
    state: CarcassonneState = game(**options).initial_state()
    return state


def shipped_tiles() -> dict[str, Any]:
    """The shipped catalogue document (``data/tiles.json``)."""
    doc: dict[str, Any] = read_package_json("regalia.games.carcassonne", "data/tiles.json")
    return doc


def bag_file(bag: Mapping[str, int]) -> str:
    """A catalogue file with the shipped layouts whose bag holds exactly ``bag`` (tile id -> count)
    once the start tile D is laid; tiles not listed are left out (the start tile is always kept)."""
    doc = shipped_tiles()
    tiles = []
    for entry in doc["tiles"]:
        count = bag.get(entry["id"], 0) + entry.get("start", 0)
        if count:
            tiles.append({**entry, "count": count})
    unknown = set(bag) - {e["id"] for e in doc["tiles"]}
    assert not unknown, unknown
    out = {"format": doc["format"], "version": doc["version"], "tiles": tiles}
    text = json.dumps(out, sort_keys=True)
    folder = Path(tempfile.gettempdir()) / "regalia-carcassonne-tests"
    folder.mkdir(exist_ok=True)
    path = folder / f"bag-{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    return str(path)


def bag_game(bag: Mapping[str, int], **options: Any) -> CarcassonneState:
    """A new game whose bag holds exactly ``bag``: it ends after the last of these tiles."""
    state = new(tiles=bag_file(bag), **options)
    assert state.bag_left == sum(bag.values())
    return state


def turn(state: CarcassonneState, spec: str, seat: int | None = None) -> list[Event]:
    """Play one turn: ``"TILE X,Y ROTATION [FOLLOWER...]"`` (no follower: pass). ``seat``, when
    given, must be the seat to play. Returns the events of the turn (scoring, challenges)."""
    tile, pos, rotation, *follower = spec.split()
    before = len(state.events())
    assert state.current_player == CHANCE, "a turn starts with chance's draw"
    state.apply_text(f"draw {tile}")
    if seat is not None:
        assert state.current_player == seat, f"seat {state.current_player} is to play, not {seat}"
    state.apply_text(f"place {tile} {pos} {rotation}")
    state.apply_text(f"follower {' '.join(follower)}" if follower else "pass")
    return state.events()[before:]


def turns(state: CarcassonneState, *specs: str) -> list[Event]:
    """Play several turns (:func:`turn`); returns their events."""
    out: list[Event] = []
    for spec in specs:
        out.extend(turn(state, spec))
    return out


def texts(state: CarcassonneState, kind: str | None = None) -> list[str]:
    """The legal actions in notation (optionally only those of one kind)."""
    return [state.action_text(a) for a in state.legal_actions() if kind is None or a.kind == kind]


def legal(state: CarcassonneState, text: str) -> bool:
    """True if ``text`` is legal: in the legal actions and accepted by ``check`` with no cache."""
    action = state.parse_action(text)
    fresh = state.clone()
    fresh._legal = None
    fresh._places = None
    ok = fresh.is_legal(action)
    assert ok == (action in state.legal_actions()), text
    return ok


def refused(state: CarcassonneState, text: str, rule: str) -> IllegalAction:
    """Assert that ``text`` is illegal for ``rule`` and that trying it leaves the state unchanged."""
    before = state.to_json()
    action = state.parse_action(text)
    assert action not in state.legal_actions()
    fresh = state.clone()
    fresh._legal = None
    fresh._places = None
    with pytest.raises(IllegalAction) as info:
        fresh.apply(action)
    assert info.value.rule == rule, str(info.value)
    with pytest.raises(IllegalAction) as again:
        state.apply(action)
    assert again.value.rule == rule
    assert state.to_json() == before
    return info.value


def followers_on_board(state: CarcassonneState) -> list[int]:
    """Followers standing on the board, per seat."""
    out = [0] * state.num_players
    for seat, _ in state.meeples.values():
        out[seat] += 1
    return out


def supply_ok(state: CarcassonneState) -> bool:
    """Every seat's followers: on the board plus in the supply is 7."""
    board = followers_on_board(state)
    return all(b + s == FOLLOWERS for b, s in zip(board, state.followers, strict=True))


def scored(events: list[Event], what: str = "score") -> list[tuple[str, list[int]]]:
    """(feature kind, points per seat) of the events of one kind (``score`` or ``final``)."""
    return [(e[2], e[3]) for e in events if e[1] == what]


def reference_features(state: CarcassonneState) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The features of the board computed from scratch, independently of the engine's union-find:
    a search over the segments of the laid tiles, joined across every shared side (cities and
    roads) and half-edge (fields). Each segment ``(pos, i)`` maps to its feature's description."""
    board = state.board
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for start_pos in sorted(board):
        for start_i in range(len(state.turned(start_pos).segments)):
            if (start_pos, start_i) in seen:
                continue
            kind = state.turned(start_pos).segments[start_i].kind
            feature: dict[str, Any] = {"kind": kind, "tiles": set(), "open": 0, "pennants": 0, "members": []}
            todo = [(start_pos, start_i)]
            seen[(start_pos, start_i)] = feature
            while todo:
                pos, i = todo.pop()
                feature["members"].append((pos, i))
                feature["tiles"].add(pos)
                turned = state.turned(pos)
                seg = turned.segments[i]
                feature["pennants"] += int(seg.pennant)
                if kind in ABBEYS:
                    continue
                x, y = pos
                links = []
                if kind in (CITY, ROAD):
                    for side in seg.sides:
                        dx, dy = SIDE_VECTORS[side]
                        q = (x + dx, y + dy)
                        if q in board:
                            links.append((q, state.turned(q).side_segment[(side + 2) % 4]))
                        else:
                            feature["open"] += 1
                else:
                    for h in seg.sides:
                        dx, dy = SIDE_VECTORS[h // 2]
                        q = (x + dx, y + dy)
                        if q in board:
                            links.append((q, state.turned(q).half_segment[opposite_half(h)]))
                for link in links:
                    if link not in seen:
                        seen[link] = feature
                        todo.append(link)
    return seen


__all__ = [
    "BLUE",
    "GREEN",
    "RED",
    "bag_file",
    "bag_game",
    "followers_on_board",
    "game",
    "legal",
    "new",
    "reference_features",
    "refused",
    "scored",
    "shipped_tiles",
    "supply_ok",
    "texts",
    "turn",
    "turns",
]
