"""One sentence per ply of The Two Heirs, in the words of the rules (logs, replays, terminal play).

:func:`describe_ply` is called on the state right after the ply. Chance's outcomes say what they
did (which reserve position a drawn tile filled, the colour now on the supply's top tile, the
treasure and its condition), Henry's steps say which rule decided them (from the solo events of
that ply), and a seat's own actions say what changed (resources after a take, reach after a call).

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> rng = random.Random(1)
>>> for _ in range(2):
...     state.apply(state.sample_chance(rng))
...     print(state.plies()[-1].text, "--", describe_ply(state, state.plies()[-1]))
first white -- The royal shield shows white's crown: white starts (Setup).
draw T5 -- The grey quarry is laid in the royal reserve, 1st clockwise from the shield (Setup).
"""

from __future__ import annotations

from typing import Any

from regalia.core.game import CHANCE, Ply
from regalia.core.grid import format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import SET_CHOICES, Action
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.render.style import building_words, is_henry, plural, resources_short, seat_name
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import START, TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return _ORDINAL.get(n, f"{n}th")


def tile_words(tile: Tile) -> str:
    """``the grey inn``: the words for a tile the notation already names by id."""
    return f"the {tile.colour_name} {building_words(tile)}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def events_of_ply(state: TwoHeirsState) -> list[dict[str, Any]]:
    """The solo events caused by the last ply applied to ``state`` (none in a two-player game)."""
    if not isinstance(state, SoloState):
        return []
    return [e for e in state.events() if e.get("ply") == state.ply]


def _removals(state: TwoHeirsState, events: list[dict[str, Any]]) -> str:
    if not isinstance(state, SoloState):
        return ""
    texts = [state.event_text(e) for e in events if e.get("step") == "treasure-removed"]
    return (" " + " ".join(texts)) if texts else ""


def describe_ply(state: TwoHeirsState, ply: Ply) -> str:
    """One sentence telling what ``ply`` did (``state``: right after it); ``""`` when the
    notation says it all."""
    action = ply.action
    if not isinstance(action, Action) or action.kind not in act.SIGNATURES:
        return ""
    events = events_of_ply(state)
    try:
        if ply.player == CHANCE:
            return _chance(state, action, events)
        if is_henry(state, ply.player):
            return _henry(state, action, events)
        return _seat(state, ply.player, action, events)
    except (IndexError, KeyError, ValueError):  # a state that is not the one right after the ply
        return ""


def _chance(state: TwoHeirsState, action: Action, events: list[dict[str, Any]]) -> str:
    kind = action.kind
    if kind == act.SETS_DRAWN:
        a, b, c = SET_CHOICES[action.tile]
        return f"Chance picks the sets {a}, {b} and {c} (Setup)."
    if kind == act.FIRST:
        who = seat_name(action.tile)
        return f"The royal shield shows {who}'s crown: {who} starts (Setup)."
    if kind == act.TOP:
        colour = action.tile
        n = len(state.supply)
        return (
            f"The supply's next tile shows a {COLOURS[colour]} back ({RESOURCES[colour]}); "
            f"{plural(n, 'tile')} left in the supply."
        )
    if kind == act.DRAW:
        return _draw(state, action)
    if kind == act.TREASURE and isinstance(state, SoloState):
        token = state.tset.tokens[action.tile]
        where = next((e["pos"] for e in events if e.get("step") == "treasure"), None)
        on = f"on Henry's new building at {where}" if where else "on Henry's new building"
        text = (
            f"Treasure {token.id} goes {on}; it leaves the board once its condition holds "
            f"({token.describe()})."
        )
        rest = [state.event_text(e) for e in events if e.get("step") not in ("treasure", "treasure-removed")]
        if rest:
            text += " " + " ".join(rest)
        return text + _removals(state, events)
    return ""


def _draw(state: TwoHeirsState, action: Action) -> str:
    tile = state.tiles[action.tile]
    code = state.board.get(START)
    if code is not None and tile_of(code) == action.tile and owner_of(code) < 0:
        who = "your elite stands" if isinstance(state, SoloState) else "both elites stand"
        return f"{_cap(tile_words(tile))} is the starting landscape, face down at 0,0; {who} on it (Setup)."
    if action.tile not in state.reserve:
        return f"{_cap(tile_words(tile))} is drawn from the supply."
    pos = state.reserve.index(action.tile)
    k = (pos - state.shield) % len(state.reserve)
    if START not in state.board:
        where = f"{ordinal(k)} clockwise from the shield"
        return f"{_cap(tile_words(tile))} is laid in the royal reserve, {where} (Setup)."
    reach = [s for s in (0, 1) if not is_henry(state, s) and pos in state.reach_positions(s)]
    within = (
        "within " + " and ".join(f"{seat_name(s)}'s" for s in reach) + " reach"
        if reach
        else "beyond every seat's reach for now"
    )
    text = (
        f"{_cap(tile_words(tile))} refills the royal reserve at the shield's old place, "
        f"{ordinal(k)} clockwise from the shield ({within})."
    )
    if not state.supply:
        text += " The supply is empty: after this turn both players play one final turn."
    return text


def _henry(state: TwoHeirsState, action: Action, events: list[dict[str, Any]]) -> str:
    if isinstance(state, SoloState) and events:
        return " ".join(state.event_text(e) for e in events)
    if action.kind == act.END:
        return "The royal reserve is empty: Henry takes nothing."
    return ""


def _seat(state: TwoHeirsState, seat: int, action: Action, events: list[dict[str, Any]]) -> str:
    who = state.seat_names()[seat]
    kind = action.kind
    tiles = state.tiles
    if kind == act.TAKE:
        tile = tiles[action.tile]
        res = resources_short(state.resources(seat)).plain
        return (
            f"{who} takes {tile_words(tile)} into the hand; the shield moves to its place and shows "
            f"{seat_name(1 - seat)}'s crown; resources now {res}."
        )
    if kind == act.BUILD and action.dst is not None:
        tile = tiles[action.tile]
        text = f"{who} builds {tile_words(tile)} at {format_pos(action.dst)} for {tile.cost_text()}."
        if state.pending:
            where = " and ".join(format_pos(q) for q in state.pending)
            text += f" Two siege towers besiege {where}: destroy or spare."
        return text + _removals(state, events)
    if kind == act.TERRAIN and action.dst is not None:
        tile = tiles[action.tile]
        return (
            f"{who} plays {tile_words(tile)} face down at {format_pos(action.dst)} as free terrain "
            f"({RESOURCES[tile.colour]}); a building this turn costs 1 resource less."
            + _removals(state, events)
        )
    if kind == act.STEP and action.src is not None and action.dst is not None:
        colour = tiles[tile_of(state.board[action.dst])].colour
        return (
            f"{who}'s unit moves from {format_pos(action.src)} to {format_pos(action.dst)} "
            f"({COLOURS[colour]}: 1 {RESOURCES[colour]} while it stays)."
        )
    if kind == act.CALL and action.dst is not None:
        return (
            f"{who} calls a unit from the royal reserve to {format_pos(action.dst)}; "
            f"reach now {plural(state.reach(seat), 'tile')}."
        )
    if kind == act.WITHDRAW and action.src is not None:
        return (
            f"{who} withdraws the unit at {format_pos(action.src)} into the royal reserve; "
            f"reach now {plural(state.reach(seat), 'tile')}."
        )
    if kind == act.CAMP:
        return (
            f"{who} flips the camp {tiles[action.tile].id} face down: the shield shows {seat_name(seat)}'s "
            "crown again, so another tile may be taken this turn."
        )
    if kind == act.DESTROY and action.dst is not None:
        return f"{who} destroys the building at {format_pos(action.dst)}: it is free terrain now."
    if kind == act.SPARE:
        return f"{who} spares the besieged buildings."
    if kind == act.DISCARD:
        return f"{who} returns {tile_words(tiles[action.tile])} to the box (hand limit: 3 tiles)."
    if kind == act.END:
        if state.discarding:
            return f"{who} holds {plural(len(state.hands[seat]), 'tile')}: discard down to 3 (hand limit)."
        if state.is_terminal():
            return "The last final turn is over: the game ends."
        if state.final:
            return f"Final turns: {plural(state.finals_left, 'turn')} left."
    return ""


__all__ = ["describe_ply", "events_of_ply", "ordinal", "tile_words"]
