"""The Two Heirs' actions in words, where a ply happened, and what the last ply touched.

:func:`action_label` words an action for a button and for the ``data-label`` of the part that
stands for it (docs/table.md); building names are written whole, never shortened.
:func:`places` gives the board positions a ply touched (the log links to them); :func:`last_marks`
the parts of the position the latest turn laid, moved or took (``data-last``), and :func:`scored`
the points a ply laying or moving something on the board just changed.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> [action_label(state, a) for a in state.legal_actions()][0]
'Take T5, the grey quarry, from the royal reserve'
>>> action_label(state, state.parse_action("step 0,0 1,0"))
'Step the elite unit from 0,0 to 1,0'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from regalia.core.game import CHANCE, Ply
from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import SET_CHOICES, Action
from regalia.games.two_heirs.board import tile_of
from regalia.games.two_heirs.render.describe import tile_words
from regalia.games.two_heirs.render.style import is_henry, seat_name
from regalia.games.two_heirs.scoring import score_board
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import UNITS_PER_SEAT, TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS


def _tile(state: TwoHeirsState, tile: int) -> str:
    """``W3, the grey inn``."""
    t = state.tiles[tile]
    return f"{t.id}, {tile_words(t)}"


def _unit_words(state: TwoHeirsState, pos: Pos | None) -> str:
    """``the elite unit`` or ``the unit`` at ``pos``."""
    k = state.unit_at.get(pos) if pos is not None else None
    return "the elite unit" if k is not None and k % UNITS_PER_SEAT == 0 else "the unit"


def _building_at(state: TwoHeirsState, pos: Pos | None) -> str:
    code = state.board.get(pos) if pos is not None else None
    return "the building" if code is None else tile_words(state.tiles[tile_of(code)])


def action_label(state: TwoHeirsState, action: Action) -> str:
    """``action`` in words for a button (``Build W3, the grey inn, at 1,0``)."""
    k = action.kind
    at = format_pos(action.dst) if action.dst is not None else ""
    src = format_pos(action.src) if action.src is not None else ""
    if k == act.TAKE:
        return f"Take {_tile(state, action.tile)}, from the royal reserve"
    if k == act.BUILD:
        return f"Build {_tile(state, action.tile)}, at {at}"
    if k == act.TERRAIN:
        return f"Play {_tile(state, action.tile)}, face down at {at} as free terrain"
    if k == act.STEP:
        return f"Step {_unit_words(state, action.src)} from {src} to {at}"
    if k == act.CALL:
        return f"Call a unit from the royal reserve to {at}"
    if k == act.WITHDRAW:
        return f"Withdraw the unit at {src} into the royal reserve"
    if k == act.CAMP:
        return f"Flip the camp {state.tiles[action.tile].id} face down to take another tile"
    if k == act.DESTROY:
        return f"Destroy {_building_at(state, action.dst)} at {at}"
    if k == act.SPARE:
        return "Spare the besieged buildings"
    if k == act.DISCARD:
        return f"Discard {_tile(state, action.tile)}, to the box"
    if k == act.END:
        return "End the turn"
    if k == act.DRAW:
        return f"Draw {_tile(state, action.tile)}, from the supply"
    if k == act.TOP:
        return f"The supply's next tile shows a {COLOURS[action.tile]} back"
    if k == act.FIRST:
        return f"The royal shield shows {seat_name(action.tile)}'s crown"
    if k == act.SETS_DRAWN and 0 <= action.tile < len(SET_CHOICES):
        return "The sets " + ", ".join(SET_CHOICES[action.tile])
    if k == act.TREASURE and isinstance(state, SoloState):
        return f"Treasure {state.tset.tokens[action.tile].id} onto Henry's new building"
    return state.notation(action)


def select_label(state: TwoHeirsState, key: str) -> str:
    """The words of a part opening the selection layer ``key`` (docs/rendering.md)."""
    kind, _, rest = key.partition(" ")
    if kind in (act.BUILD, act.TERRAIN):
        tile = next((t for t in state.tiles if t.id == rest), None)
        name = f"{rest}, {tile_words(tile)}" if tile is not None else rest
        if kind == act.BUILD:
            return f"Build {name}: choose where"
        return f"Play {name} face down: choose where"
    if kind == "unit":
        pos = tuple(int(v) for v in rest.split(","))
        return f"Move {_unit_words(state, (pos[0], pos[1]))} at {rest}: choose where"
    if kind == "call":
        return "Call a unit from the royal reserve: choose where"
    return key


def default_action(state: TwoHeirsState, actions: Sequence[Action]) -> Action | None:
    """``spare`` when a siege offers it (the "destroy nothing" of the decision); ``end`` when it is
    the only legal action; otherwise none."""
    for a in actions:
        if a.kind == act.SPARE:
            return a
    if len(actions) == 1 and actions[0].kind == act.END:
        return actions[0]
    return None


def _camp_pos(state: TwoHeirsState, tile: int) -> Pos | None:
    return next((p for p, c in state.board.items() if tile_of(c) == tile), None)


def places(state: TwoHeirsState, ply: Ply) -> tuple[str, ...]:
    """The board positions ``ply`` touched, as ``data-pos`` values (a take or an end: none)."""
    a = ply.action
    if not isinstance(a, Action):
        return ()
    out: list[Pos] = []
    if a.kind in (act.STEP, act.WITHDRAW) and a.src is not None:
        out.append(a.src)
    if a.kind in (act.BUILD, act.TERRAIN, act.STEP, act.CALL, act.DESTROY) and a.dst is not None:
        out.append(a.dst)
    if a.kind == act.CAMP:
        pos = _camp_pos(state, a.tile)
        if pos is not None:
            out.append(pos)
    return tuple(format_pos(p) for p in out)


@dataclasses.dataclass(frozen=True)
class Last:
    """What the latest turn touched (``data-last``): ``tiles`` and ``units`` (seat, position) on the
    board, the ``shield`` (it stands where a tile was taken), the tiles taken into a ``hand``, the
    seats whose unit was withdrawn into the royal reserve (``reserve_units``); ``focus`` the newest
    of those positions; ``ply`` the latest ply of a seat (only chance's after it: the points
    scored are its)."""

    ply: Ply | None = None
    tiles: frozenset[Pos] = frozenset()
    units: frozenset[tuple[int, Pos]] = frozenset()
    shield: bool = False
    hand: frozenset[int] = frozenset()
    reserve_units: frozenset[int] = frozenset()
    focus: Pos | None = None


NOTHING = Last()


def _touched(state: TwoHeirsState, ply: Ply) -> tuple[set[Pos], set[tuple[int, Pos]]]:
    """The tiles and units ``ply`` laid, moved or took on the board (the unit a step moved, the tile
    it left)."""
    a = ply.action
    tiles: set[Pos] = set()
    units: set[tuple[int, Pos]] = set()
    if a.kind in (act.BUILD, act.TERRAIN, act.DESTROY) and a.dst is not None:
        tiles.add(a.dst)
    elif a.kind in (act.STEP, act.CALL) and a.dst is not None:
        units.add((ply.player, a.dst))
        if a.src is not None:
            tiles.add(a.src)
    elif a.kind == act.WITHDRAW and a.src is not None:
        tiles.add(a.src)
    elif a.kind == act.CAMP:
        pos = _camp_pos(state, a.tile)
        if pos is not None:
            tiles.add(pos)
    return tiles, units


def last_marks(state: TwoHeirsState) -> Last:
    """The parts the latest turn (the plies of the last seat to act, Henry's too; chance's passed
    over) laid, moved or took; when it touched nothing on the board (a take, an end), also those of
    the last ply that did, so the board always shows where play last happened."""
    plies = [p for p in state.plies() if p.player != CHANCE and isinstance(p.action, Action)]
    if not plies:
        return NOTHING
    newest = plies[-1]
    turn: list[Ply] = []
    for ply in reversed(plies):
        if ply.player != newest.player:
            break
        turn.append(ply)
    tiles: set[Pos] = set()
    units: set[tuple[int, Pos]] = set()
    focus: Pos | None = None
    for ply in turn:  # newest first
        t, u = _touched(state, ply)
        if focus is None and (t or u):
            focus = min(p for _, p in u) if u else min(t)
        tiles |= t
        units |= u
    if not tiles and not units:
        for ply in reversed(plies[: len(plies) - len(turn)]):
            t, u = _touched(state, ply)
            if t or u:
                tiles, units = t, u
                focus = min(p for _, p in u) if u else min(t)
                break
    kinds = {p.action.kind for p in turn}
    return Last(
        ply=newest,
        tiles=frozenset(tiles),
        units=frozenset(units),
        shield=act.TAKE in kinds,
        hand=frozenset(p.action.tile for p in turn if p.action.kind == act.TAKE)
        & frozenset(state.hands[newest.player]),
        reserve_units=frozenset(p.player for p in turn if p.action.kind == act.WITHDRAW),
        focus=focus,
    )


def _totals(state: TwoHeirsState, board: dict[Pos, int], units: Sequence[list[Pos]]) -> tuple[int, int]:
    solo = isinstance(state, SoloState)
    sheet = score_board(
        board,
        state.tiles,
        [units[0], [] if solo else units[1]],
        roads=state.game.options.roads,
        automaton=1 if solo else None,
    )
    return sheet.totals


def scored(state: TwoHeirsState, last: Last) -> list[tuple[int, int, Pos]]:
    """The points the last ply changed on the board, as (seat, points, position) for each seat that
    gained some: a tile laid or a unit moved (doubling a building) by the latest ply but chance's."""
    ply = last.ply
    if ply is None or not isinstance(ply.action, Action):
        return []
    a = ply.action
    units = [state.unit_positions(0), state.unit_positions(1)]
    before = dict(state.board)
    if a.kind in (act.BUILD, act.TERRAIN) and a.dst is not None and a.dst in before:
        del before[a.dst]
        old = _totals(state, before, units)
    elif a.kind == act.STEP and a.src is not None and a.dst is not None and not is_henry(state, ply.player):
        moved = [p if p != a.dst else a.src for p in units[ply.player]]
        prev = [moved, units[1]] if ply.player == 0 else [units[0], moved]
        old = _totals(state, before, prev)
    else:
        return []
    new = _totals(state, state.board, units)
    where = a.dst
    return [(seat, new[seat] - old[seat], where) for seat in (0, 1) if new[seat] > old[seat]]


__all__ = [
    "NOTHING",
    "Last",
    "action_label",
    "default_action",
    "last_marks",
    "places",
    "scored",
    "select_label",
]
