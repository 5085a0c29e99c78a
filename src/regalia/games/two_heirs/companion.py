"""The companion for the printed solo game: Henry's whole turn from a position you type in.

``regalia henry POSITION.json`` reads a ``two-heirs-solo-position`` document (docs/formats.md,
"Solo position (regalia henry)") and prints Henry's turn in your frame: the tile he takes, where
it goes ("above and to the right of your inn"), the rule that chose the spot, the treasure, the
unit that moves and the treasures that must now leave the board. The same texts describe the
engine's events in ``regalia play two-heirs --solo``.

Coordinates are ``x,y``: ``x`` grows to your right, ``y`` away from you (towards Henry).

>>> doc = {
...     "format": "two-heirs-solo-position", "version": 1,
...     "board": [
...         {"pos": "0,0", "owner": None, "tile": "D8"},
...         {"pos": "1,0", "owner": "player", "tile": "W6"},
...     ],
...     "reserve": ["D2", "W3", "V1", "D6", "T1", "T5"],
...     "supply_top": "green", "last_building": "1,0", "pile": 10,
... }
>>> plan = plan_document(doc)
>>> plan.turn.placement
Placement(pos=(1, 1), rule='A', slot=1, direction='N')
>>> print(turn_lines(plan)[1])
2. Build it upside down (facing Henry) directly above your pilgrimage site (W6 at 1,0): position 1,1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from regalia.core.errors import DataError
from regalia.core.fields import field_error, position_document
from regalia.core.fields import parse_pos_field as pos_field
from regalia.core.game import JSON
from regalia.core.grid import Pos, format_pos, parse_pos
from regalia.games.two_heirs import henry
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.calculator import parse_position
from regalia.games.two_heirs.henry import HenryTurn, TreasureSet
from regalia.games.two_heirs.tiles import BUILDINGS, COLOURS, Catalogue, Tile, catalogue_for, parse_tile

FORMAT = "two-heirs-solo-position"
VERSION = 1
_FIELDS = {
    "format",
    "version",
    "note",
    "$schema",
    "tiles",
    "treasure_file",
    "board",
    "reserve",
    "supply_top",
    "last_building",
    "start",
    "henry_units",
    "treasures",
    "pile",
    "next_treasure",
}
_OWNERS = {"player": "white", "you": "white", "henry": "blue", None: None}
_EDGE = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


@dataclasses.dataclass(frozen=True)
class SoloPosition:
    """A validated solo position: the board, the reserve (index 0 is the shield), Henry's things."""

    cells: dict[Pos, int]
    tiles: tuple[Tile, ...]
    reserve: tuple[int, ...]
    top_colour: int | None
    last: Pos
    last_is_building: bool
    henry_units: tuple[Pos | None, Pos | None, Pos | None]
    treasures: tuple[tuple[Pos, int], ...]
    pile: int
    next_token: int
    tset: TreasureSet


@dataclasses.dataclass(frozen=True)
class CompanionPlan:
    """A position and Henry's turn in it."""

    position: SoloPosition
    turn: HenryTurn


def _reserve_tile(raw: Any, index: int, field: str, cat: Catalogue) -> Tile:
    if isinstance(raw, str):
        found = cat.by_id.get(raw)
        if found is None:
            raise field_error(field, f"{raw!r} is not a tile of catalogue {cat.source}")
        return found
    if not isinstance(raw, Mapping):
        raise field_error(field, f"expected a catalogue id like 'W3', a tile object or null, got {raw!r}")
    entry = dict(raw)
    building = entry.get("building")
    if building not in BUILDINGS:
        raise field_error(
            f"{field}.building", f"{building!r} is not a building; valid: {', '.join(BUILDINGS)}"
        )
    entry.setdefault("id", f"reserve-{index}")
    entry.setdefault("set", BUILDINGS[building])
    try:
        return parse_tile(entry, index, where=field)
    except DataError as exc:
        raise field_error(field, str(exc)) from None


def parse_solo_position(doc: Any) -> SoloPosition:
    """Validate a ``two-heirs-solo-position`` document; errors name the field."""
    doc = position_document(doc, FORMAT, VERSION, _FIELDS, "a solo position", listed=_FIELDS - {"$schema"})
    tiles_path = doc.get("tiles")
    if tiles_path is not None and not isinstance(tiles_path, str):
        raise field_error("tiles", "expected the path of a tile catalogue file, or null")
    treasure_path = doc.get("treasure_file")
    if treasure_path is not None and not isinstance(treasure_path, str):
        raise field_error("treasure_file", "expected the path of a treasure file, or null")
    try:
        cat = catalogue_for(tiles_path)
        tset = henry.treasures_for(treasure_path)
    except DataError as exc:
        raise field_error("tiles" if "catalogue" in str(exc) else "treasure_file", str(exc)) from None

    board = doc.get("board")
    if not isinstance(board, list) or not board:
        raise field_error("board", "expected a non-empty list of cells")
    mapped = []
    for i, cell in enumerate(board):
        if isinstance(cell, Mapping) and "owner" in cell:
            owner = cell["owner"]
            if owner not in _OWNERS:
                raise field_error(
                    f"board[{i}].owner", f"{owner!r} is not an owner: use 'player', 'henry' or null"
                )
            cell = {**cell, "owner": _OWNERS[owner]}
        mapped.append(cell)
    scored = parse_position({"format": "two-heirs-position", "version": 1, "board": mapped}, cat)
    cells = scored.cells
    tiles = list(scored.tiles)
    on_board = {tile_of(c) for c in cells.values()}

    raw_reserve = doc.get("reserve")
    if not isinstance(raw_reserve, list) or len(raw_reserve) != 6:
        raise field_error(
            "reserve", "expected the 6 reserve positions clockwise from the shield (null: empty)"
        )
    reserve = [-1]
    for i, raw in enumerate(raw_reserve):
        field = f"reserve[{i}]"
        if raw is None:
            reserve.append(-1)
            continue
        tile = _reserve_tile(raw, len(tiles), field, cat)
        if tile.index == len(tiles):
            tiles.append(tile)
        elif tile.index in on_board or tile.index in reserve:
            raise field_error(field, f"{tile.id} is already on the board or in the reserve")
        reserve.append(tile.index)

    top = doc.get("supply_top")
    if top is not None and top not in COLOURS:
        raise field_error(
            "supply_top", f"{top!r} is not one of {', '.join(COLOURS)} (or null: the supply is empty)"
        )
    top_colour = None if top is None else COLOURS.index(top)

    last_raw = doc.get("last_building")
    if last_raw is None:
        last = pos_field(doc.get("start", "0,0"), "start")
        if last not in cells:
            raise field_error("start", f"no tile at {format_pos(last)}: where is the starting landscape?")
        last_is_building = False
    else:
        last = pos_field(last_raw, "last_building")
        if last not in cells or owner_of(cells[last]) != henry.PLAYER:
            raise field_error("last_building", f"there is none of your buildings at {format_pos(last)}")
        last_is_building = True

    units_doc = doc.get("henry_units", {})
    if not isinstance(units_doc, Mapping):
        raise field_error("henry_units", "expected an object: cross colour -> position or null")
    bad = sorted(set(units_doc) - set(COLOURS))
    if bad:
        raise field_error(f"henry_units.{bad[0]}", f"unknown cross colour; valid: {', '.join(COLOURS)}")
    units: list[Pos | None] = []
    for k in range(3):
        colour = COLOURS[tset.crosses[k]]
        value = units_doc.get(colour)
        field = f"henry_units.{colour}"
        if value is None:
            units.append(None)
            continue
        p = pos_field(value, field)
        if p not in cells or owner_of(cells[p]) != henry.HENRY:
            raise field_error(
                field, f"Henry's units stand only on his buildings; there is none at {format_pos(p)}"
            )
        if p in units:
            raise field_error(field, f"another of Henry's units is already at {format_pos(p)}")
        units.append(p)

    by_id = {t.id: t.index for t in tset.tokens}
    raw_treasures = doc.get("treasures", [])
    if not isinstance(raw_treasures, list):
        raise field_error("treasures", "expected a list of {pos, token}")
    treasures: list[tuple[Pos, int]] = []
    for i, t in enumerate(raw_treasures):
        field = f"treasures[{i}]"
        if not isinstance(t, Mapping):
            raise field_error(field, "expected an object with pos and token")
        p = pos_field(t.get("pos"), f"{field}.pos")
        if p not in cells or owner_of(cells[p]) != henry.HENRY:
            raise field_error(
                f"{field}.pos", f"treasures lie on Henry's buildings; there is none at {format_pos(p)}"
            )
        token = t.get("token")
        if token not in by_id:
            raise field_error(f"{field}.token", f"{token!r} is not a treasure token ({', '.join(by_id)})")
        if any(by_id[token] == u for _, u in treasures) or any(q == p for q, _ in treasures):
            raise field_error(field, f"{token} at {format_pos(p)} repeats a token or a position")
        treasures.append((p, by_id[token]))

    pile = doc.get("pile", 0)
    if (
        not isinstance(pile, int)
        or isinstance(pile, bool)
        or not 0 <= pile <= len(tset.tokens) - len(treasures)
    ):
        raise field_error("pile", f"expected the number of tokens left in the pile, got {pile!r}")
    nxt = doc.get("next_treasure")
    next_token = -1
    if nxt is not None:
        if nxt not in by_id:
            raise field_error("next_treasure", f"{nxt!r} is not a treasure token ({', '.join(by_id)})")
        if any(by_id[nxt] == u for _, u in treasures):
            raise field_error("next_treasure", f"{nxt} is already on the board")
        if pile == 0:
            raise field_error("next_treasure", "the pile is empty (pile: 0)")
        next_token = by_id[nxt]
    return SoloPosition(
        cells=cells,
        tiles=tuple(tiles),
        reserve=tuple(reserve),
        top_colour=top_colour,
        last=last,
        last_is_building=last_is_building,
        henry_units=(units[0], units[1], units[2]),
        treasures=tuple(treasures),
        pile=pile,
        next_token=next_token,
        tset=tset,
    )


def plan_position(position: SoloPosition) -> CompanionPlan:
    """Henry's turn in ``position``."""
    turn = henry.plan_turn(
        board=position.cells,
        tiles=position.tiles,
        reserve=position.reserve,
        shield=0,
        top_colour=position.top_colour,
        last=position.last,
        treasures=position.treasures,
        pile_size=position.pile,
        next_token=position.next_token,
        tset=position.tset,
        unit_positions=position.henry_units,
    )
    return CompanionPlan(position, turn)


def plan_document(doc: Any) -> CompanionPlan:
    return plan_position(parse_solo_position(doc))


# -- texts -----------------------------------------------------------------------------------------


def _name(tile: Tile) -> str:
    return tile.building.replace("-", " ").replace("makers", "maker's").replace("keepers", "keeper's")


def _ordinal(n: int) -> str:
    return _ORDINAL.get(n, f"{n}th")


def take_text(tile: Tile, rank: int, rule: str, top: str | None) -> str:
    what = f"{tile.id} ({_name(tile)}, {tile.colour_name})"
    where = f"the {_ordinal(rank)} tile clockwise from the shield"
    if rule == "a":
        why = f"rule a: the first {top} tile, the colour of the top tile of the supply"
    elif top is None:
        why = "rule b: the supply is empty, so the first tile clockwise"
    else:
        why = f"rule b: no {top} tile in the reserve, so the first tile clockwise"
    return f"Henry takes {what}, {where} ({why})."


_PLACE = {
    "N": "directly above {x}",
    "NE": "above {x}, to the right",
    "E": "to the right of {x}",
    "SE": "below {x}, to the right",
    "S": "directly below {x}",
    "SW": "below {x}, to the left",
    "W": "to the left of {x}",
    "NW": "above {x}, to the left",
}


def place_text(direction: str, pos: Pos, rule: str, slot: int, next_to: str) -> tuple[str, str]:
    """The placement sentence and the rule sentence, in the player's frame.

    >>> place_text("NE", (2, 1), "C", 2, "your inn (W2 at 1,0)")[0]
    'Build it upside down (facing Henry) above your inn (W2 at 1,0), to the right: position 2,1.'
    """
    where = _PLACE[direction].format(x=next_to)
    first = f"Build it upside down (facing Henry) {where}: position {format_pos(pos)}."
    edge = _EDGE.get(direction, "")
    if rule == "A":
        why = f"Rule A: it continues the road leaving the {edge} edge of that tile (position C{slot})."
    elif rule == "B":
        why = (
            "Rule B: no free position lets it continue a road of that tile, so it blocks the road "
            f"leaving the {edge} edge (position C{slot})."
        )
    else:
        why = (
            "Rule C: no road of that tile ends at a free position; the first free position clockwise "
            f"from the top is C{slot}."
        )
    return first, why


def turn_lines(plan: CompanionPlan) -> list[str]:
    """Henry's turn as numbered lines for a person playing the printed game."""
    p = plan.position
    turn = plan.turn
    tiles = p.tiles
    out: list[str] = []
    take = turn.take
    if take is None:
        return ["1. The royal reserve is empty: Henry takes no tile and his turn ends."]
    tile = tiles[take.tile]
    top = None if p.top_colour is None else COLOURS[p.top_colour]
    out.append(
        "1. "
        + take_text(tile, take.rank, take.rule, top)
        + " Move the shield to its place and flip it; refill the shield's old place from the supply."
    )
    last_tile = tiles[tile_of(p.cells[p.last])]
    next_to = f"your {_name(last_tile)} ({last_tile.id} at {format_pos(p.last)})"
    placement = turn.placement
    assert placement is not None
    if placement.pos is None:
        out.append(
            f"2. Rule D: all eight positions around {next_to if p.last_is_building else 'the starting tile'} "
            f"are taken: {tile.id} leaves the game (return it to the box). Henry's turn ends."
        )
        return out
    if not p.last_is_building:
        next_to = f"the starting tile ({format_pos(p.last)})"
    first, why = place_text(placement.direction, placement.pos, placement.rule, placement.slot, next_to)
    out.append(f"2. {first}")
    out.append(f"   {why}")
    tokens = p.tset.tokens
    if turn.placed_token:
        if turn.token >= 0:
            tok = tokens[turn.token]
            gone = any(t == turn.token for _, t in turn.removed)
            state = "its condition is already met: remove it at once" if gone else "it stays"
            out.append(f"3. Put treasure {tok.id} ({tok.describe()}) on it, turned towards you: {state}.")
        else:
            out.append(
                "3. Flip the top treasure token of the pile face up onto it, turned towards you; if its "
                "condition is already met, remove it at once."
            )
    else:
        out.append("3. The treasure pile is empty: no treasure.")
    k = turn.unit
    cross = COLOURS[p.tset.crosses[k]]
    kind = "elite unit" if k == 0 else "unit"
    src = "the edge of the play area" if turn.unit_from is None else format_pos(turn.unit_from)
    out.append(
        f"4. Move Henry's {kind} with the {cross} cross from {src} onto it ({format_pos(placement.pos)})."
    )
    older = [(q, t) for q, t in turn.removed if t != turn.token]
    if older:
        listed = "; ".join(f"{tokens[t].id} at {format_pos(q)} ({tokens[t].describe()})" for q, t in older)
        out.append(f"5. Treasures to remove now: {listed}.")
    else:
        out.append("5. No other treasure has its condition met now.")
    return out


def plan_json(plan: CompanionPlan) -> JSON:
    """Henry's turn as JSON (``regalia henry --json``)."""
    p, turn = plan.position, plan.turn
    tiles, tokens = p.tiles, p.tset.tokens
    take = turn.take
    placement = turn.placement
    return {
        "format": "two-heirs-henry-turn",
        "version": 1,
        "take": None if take is None else {"tile": tiles[take.tile].id, "rank": take.rank, "rule": take.rule},
        "place": None
        if placement is None
        else {
            "pos": None if placement.pos is None else format_pos(placement.pos),
            "rule": placement.rule,
            "slot": f"C{placement.slot}" if placement.slot else None,
            "direction": placement.direction or None,
            "next_to": format_pos(p.last),
        },
        "treasure": None
        if not turn.placed_token
        else {"token": tokens[turn.token].id if turn.token >= 0 else None},
        "unit": None
        if turn.unit < 0
        else {
            "cross": COLOURS[p.tset.crosses[turn.unit]],
            "elite": turn.unit == 0,
            "from": None if turn.unit_from is None else format_pos(turn.unit_from),
        },
        "remove": [{"pos": format_pos(q), "token": tokens[t].id} for q, t in turn.removed],
        "lines": turn_lines(plan),
    }


def event_text(event: Mapping[str, Any], catalogue: Catalogue) -> str:
    """One engine event of the solo game (``SoloState.events()``) as a sentence."""
    step = event.get("step")
    by_id = catalogue.by_id
    if step == "take":
        tile = by_id[event["tile"]]
        return take_text(tile, event["rank"], event["rule"], event.get("supply_top"))
    if step == "place":
        tile = by_id[event["tile"]]
        nxt = event.get("next_to_tile")
        if event.get("next_to_building") and nxt in by_id:
            next_to = f"your {_name(by_id[nxt])} ({nxt} at {event['next_to']})"
        else:
            next_to = f"the starting tile ({event['next_to']})"
        first, why = place_text(
            event["direction"], parse_pos(event["pos"]), event["rule"], int(event["slot"][1:]), next_to
        )
        return f"Henry builds {tile.id} ({_name(tile)}): " + first[len("Build it ") :] + " " + why
    if step == "discard":
        return f"Rule D: no free position next to {event['next_to']}: {event['tile']} leaves the game."
    if step == "no-tile":
        return "The royal reserve is empty: Henry takes nothing."
    if step == "treasure":
        return f"Henry puts treasure {event['token']} on his new building at {event['pos']}."
    if step == "unit":
        src = "the edge of the play area" if event.get("src") is None else event["src"]
        return f"Henry's {event['unit']} unit ({event['cross']} cross) moves from {src} to {event['dst']}."
    if step == "treasure-removed":
        who = "your tile" if event.get("by") == "player" else "Henry's turn"
        return (
            f"Treasure {event['token']} at {event['pos']} is removed ({event['condition']}: met after {who})."
        )
    return str(dict(event))


__all__ = [
    "FORMAT",
    "CompanionPlan",
    "SoloPosition",
    "event_text",
    "parse_solo_position",
    "plan_document",
    "plan_json",
    "plan_position",
    "turn_lines",
]
