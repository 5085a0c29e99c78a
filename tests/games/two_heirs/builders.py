"""Helpers that build The Two Heirs positions for tests.

Two kinds of positions:

* :func:`position` builds a full :class:`TwoHeirsState` (default catalogue) from a short
  description: board cells, units, hands, royal reserve, supply, whose turn. Board cells are
  written ``"D4"`` (tile D4 face down: free terrain) or ``"D4@0"`` / ``"D4@1"`` (a building of
  seat 0 / seat 1).
* :class:`Board` builds a board for scoring only; it also accepts inline tiles (JSON entries
  validated by :func:`regalia.games.two_heirs.tiles.parse_tile`), for roads or patterns that the
  default catalogue does not print.

Seat 0 is white (looks north), seat 1 is blue (looks south).

Tiles come from ``tiles_fixture.json``, a frozen copy of the reconstructed catalogue, so that the
rule tests do not change when ``data/tiles.json`` is rebalanced.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE
from regalia.core.grid import Pos
from regalia.games.two_heirs.actions import DRAW, TOP, Action, make
from regalia.games.two_heirs.base import CH_TOP
from regalia.games.two_heirs.scoring import ScoreSheet, building_base, score_board
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import Tile, load_catalogue, parse_tile

TILES_FILE = str(Path(__file__).with_name("tiles_fixture.json"))
CAT = load_catalogue(TILES_FILE)
ALL_SETS = ("wandering", "dominion", "trade-and-church")

#: Face-down filler tiles of each colour (their fronts do not matter once face down).
GREEN = "T4"
GREY = "T6"
YELLOW = "T2"

WHITE, BLUE = 0, 1


def game(roads: bool = True, sets: Sequence[str] = ALL_SETS) -> Any:
    return regalia.load_game("two-heirs", roads=roads, sets=",".join(sets), tiles=TILES_FILE)


def tid(tile_id: str) -> int:
    """The catalogue index of a tile id."""
    return CAT.by_id[tile_id].index


def cell_code(spec: str) -> int:
    """``"D4"`` -> face-down code, ``"D4@1"`` -> building of seat 1."""
    name, _, owner = spec.partition("@")
    return tid(name) * 4 + (0 if owner == "" else int(owner) + 1)


def position(
    *,
    board: Mapping[Pos, str] | None = None,
    units: Sequence[Pos | None] | None = None,
    hands: Sequence[Sequence[str]] = ((), ()),
    reserve: Sequence[str | None] | None = None,
    shield: int = 0,
    supply: Sequence[str] = ("T1", "T3", "T5", "T7"),
    player: int = WHITE,
    took: bool = False,
    shield_mine: bool | None = None,
    moved: Iterable[int] = (),
    discounts: int = 0,
    final: bool = False,
    finals_left: int = -1,
    trigger: bool = False,
    terminal: bool = False,
    roads: bool = True,
) -> TwoHeirsState:
    """A :class:`TwoHeirsState` built from a description (see the module docstring).

    ``units`` lists the 6 unit positions: white elite, white regular, white regular, blue elite,
    blue regular, blue regular (``None``: in the royal reserve). ``reserve`` lists the 7 reserve
    positions (``None`` for the shield's position and empty positions). ``supply``'s last tile is
    the top of the pile: its colour shows, and :func:`act` / :func:`acts` draw the supply in that
    order when chance refills the reserve.
    """
    s = TwoHeirsState.new(game(roads=roads), seed=0)
    s.board = {pos: cell_code(spec) for pos, spec in (board or {(0, 0): GREY}).items()}
    s.units = list(units) if units is not None else [(0, 0), None, None, (0, 0), None, None]
    assert len(s.units) == 6
    s.hands = [[tid(t) for t in hands[0]], [tid(t) for t in hands[1]]]
    if reserve is None:
        reserve = [None, "W1", "D1", "T3", "W8", "D2", "T9"]
    s.reserve = [-1 if t is None else tid(t) for t in reserve]
    s.shield = shield
    assert s.reserve[shield] == -1
    s.supply = [tid(t) for t in supply]
    s.top = CAT.tiles[s.supply[-1]].colour if s.supply else -1
    s.chance = 0
    s.refill = -1
    s.player = player
    s.first = player
    s.took = took
    s.shield_mine = (not took) if shield_mine is None else shield_mine
    s.moved = 0
    for i in moved:
        s.moved |= 1 << i
    s.discounts = discounts
    s.final = final
    s.finals_left = finals_left
    s.trigger = trigger
    s.box = []
    s.pending = ()
    s.discarding = False
    s.terminal = terminal
    s.recount()
    s._reindex_units()
    s._legal = None
    s._score_cache = None
    return s


def basic(**kw: Any) -> TwoHeirsState:
    """A position after the start: white elite on grey terrain at 0,0, blue elite at 5,5.

    Regular units are in the royal reserve; keyword arguments override :func:`position`'s.
    """
    board = {(0, 0): GREY, (5, 5): GREY}
    board.update(kw.pop("board", {}))
    kw.setdefault("units", [(0, 0), None, None, (5, 5), None, None])
    return position(board=board, **kw)


def draw_in_order(state: TwoHeirsState) -> list[str]:
    """Let chance refill the reserve as the test's supply lists it (its last tile is the top);
    returns the outcomes in notation."""
    done = []
    while state.current_player == CHANCE:
        if state.chance == CH_TOP:
            outcome = make(TOP, CAT.tiles[state.supply[-1]].colour)
        else:
            outcome = make(DRAW, state.supply[-1])
        done.append(state.action_text(outcome))
        state.apply(outcome)
    return done


def act(state: TwoHeirsState, text: str) -> Action:
    """Apply an action written in notation, then chance's refills (:func:`draw_in_order`)."""
    action = state.apply_text(text)
    draw_in_order(state)
    return action


def acts(state: TwoHeirsState, *texts: str) -> None:
    for t in texts:
        act(state, t)


def refused(state: TwoHeirsState, text: str, rule: str) -> IllegalAction:
    """Assert that ``text`` is illegal for ``rule`` and that the state is left unchanged."""
    before = state.to_json()
    action = state.parse_action(text)
    assert action not in state.legal_actions()
    fresh = state.clone()
    fresh._legal = None  # check the rules themselves, not the cached legal list
    with pytest.raises(IllegalAction) as info:
        fresh.apply(action)
    assert info.value.rule == rule, str(info.value)
    with pytest.raises(IllegalAction) as info2:
        state.apply(action)
    assert info2.value.rule == rule
    assert state.to_json() == before
    return info.value


def legal(state: TwoHeirsState, text: str) -> bool:
    """True if ``text`` is in the legal actions and accepted by ``check`` (with no cache)."""
    action = state.parse_action(text)
    fresh = state.clone()
    fresh._legal = None
    ok = fresh.is_legal(action)
    assert ok == (action in state.legal_actions()), text
    return ok


def texts(state: TwoHeirsState, kind: str | None = None) -> list[str]:
    """The legal actions in notation (optionally only those of one kind)."""
    return [state.action_text(a) for a in state.legal_actions() if kind is None or a.kind == kind]


# -- scoring boards ------------------------------------------------------------------------------


@dataclasses.dataclass
class Board:
    """A board for scoring tests; tiles may be catalogue ids or inline entries."""

    tiles: list[Tile] = dataclasses.field(default_factory=lambda: list(CAT.tiles))
    cells: dict[Pos, int] = dataclasses.field(default_factory=dict)
    units: tuple[list[Pos], list[Pos]] = dataclasses.field(default_factory=lambda: ([], []))

    def tile(self, entry: Mapping[str, Any]) -> int:
        """Add an inline tile and return its index."""
        doc = {"colour": "green", **entry}
        doc.setdefault("id", f"X{len(self.tiles)}")
        t = parse_tile(doc, len(self.tiles))
        self.tiles.append(t)
        return t.index

    def put(self, pos: Pos, tile: str | Mapping[str, Any], owner: int | None = None) -> Board:
        index = tid(tile) if isinstance(tile, str) else self.tile(tile)
        self.cells[pos] = index * 4 + (0 if owner is None else owner + 1)
        return self

    def fill(self, positions: Iterable[Pos], tile: str = GREY) -> Board:
        for p in positions:
            self.put(p, tile)
        return self

    def unit(self, seat: int, pos: Pos) -> Board:
        self.units[seat].append(pos)
        return self

    def sheet(self, roads: bool = True) -> ScoreSheet:
        return score_board(self.cells, self.tiles, [self.units[0], self.units[1]], roads=roads)

    def base(self, pos: Pos) -> int:
        return building_base(pos, self.cells, self.tiles)[0]

    def points(self, pos: Pos) -> int:
        """The scored points (doubling included) of the building at ``pos``."""
        for line in self.sheet(roads=False).buildings:
            if line.pos == pos:
                return line.points
        raise AssertionError(f"no building at {pos}")


def road(sides: str, colour: str = "grey") -> dict[str, Any]:
    """An inline building tile worth no points itself (a farm) with the given road sections.

    ``sides`` like ``"E-W"`` or ``"N,E,S"`` (comma-separated sections).
    """
    return {
        "set": "trade-and-church",
        "building": "farm",
        "colour": colour,
        "cost": {},
        "roads": [s for s in sides.split(",") if s],
    }
