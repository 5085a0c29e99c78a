"""Carcassonne on the browser table (docs/table.md): the board alone in world units
(``render_board``), the follower step's close-up (``render_stage``), the panels as data
(``panels``), the actions in words (``action_label``), the default (``default_action``) and where
each ply happened (``places``)."""

from __future__ import annotations

import itertools
import json
import math
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import regalia
from regalia.core.game import CHANCE
from regalia.core.grid import format_pos
from regalia.games.carcassonne.actions import PASS_ACTION
from regalia.games.carcassonne.base import PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.plugin import PLUGIN
from regalia.games.carcassonne.render.stage import GAP, TARGET, spread, target_spots
from regalia.games.carcassonne.render.style import SEAT_FILL
from regalia.games.carcassonne.render.table import CELL
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import default_catalogue
from regalia.testing import random_positions

SVG = "{http://www.w3.org/2000/svg}"

OPTION_SETS: tuple[Mapping[str, Any], ...] = (
    {},
    {"players": 3, "shrines": "5"},
    {"players": 5, "shrines": "6", "challenge_house_rule": True},
    {"players": 2, "farmers": False, "small_city": 2},
)


def new(seed: int = 3, **options: Any) -> CarcassonneState:
    """A game of Carcassonne through the game's seeded API."""
    state = regalia.load_game("carcassonne", **options).new_state(seed=seed)
    assert isinstance(state, CarcassonneState)
    return state


def option_id(options: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int) -> Iterator[CarcassonneState]:
    """Every ``every``-th state of a random game played with the game's seeded API, and the last."""
    state = new(seed, **options)
    yield from random_positions(state, seed, every)


def parse(svg: str | None) -> ET.Element | None:
    if svg is None:
        return None
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def clickable(root: ET.Element | None) -> list[ET.Element]:
    if root is None:
        return []
    return [e for e in root.iter() if "data-action" in e.attrib or "data-select" in e.attrib]


def actions_in(*roots: ET.Element | None) -> list[str]:
    return [e.attrib["data-action"] for root in roots for e in clickable(root) if "data-action" in e.attrib]


def turn(state: CarcassonneState, *texts: str) -> CarcassonneState:
    for text in texts:
        state.apply_text(text)
    return state


# -- the board and the stage offer every legal action once ---------------------------------------------


def check_table(state: CarcassonneState, viewer: int | None) -> None:
    """docs/table.md, "Clickable parts" and "The stage": the board and the stage together offer
    every legal action but the default exactly once, each notation parses to a legal action, each
    clickable part has words; a viewer who may not act gets nothing clickable and no stage."""
    board = parse(PLUGIN.render_board(state, viewer))
    stage = parse(PLUGIN.render_stage(state, viewer))
    assert board is not None
    for part in clickable(board) + clickable(stage):
        assert part.get("data-label"), part.attrib
    acting = state.current_player >= 0 and viewer in (None, state.current_player)
    if not acting:
        assert actions_in(board, stage) == [] and stage is None
        assert board.get("data-clickable") == "false"
        return
    legal = state.legal_actions()
    default = PLUGIN.default_action(state, legal)
    wanted = Counter(state.notation(a) for a in legal if a != default)
    offered = Counter(actions_in(board, stage))
    assert offered == wanted
    assert all(n == 1 for n in offered.values())
    for text in offered:
        assert state.parse_action(text) in legal
    if state.phase == PH_FOLLOWER:
        assert default == PASS_ACTION
        assert actions_in(board) == []  # the follower spots live on the stage
        assert (stage is None) == (len(legal) == 1)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_board_and_stage_offer_every_legal_action_once(options: Mapping[str, Any]) -> None:
    """docs/table.md, "Clickable parts", "A cycle" and "The stage", in random games."""
    for seed in (1, 2):
        for state in states_of_a_game(options, seed, every=3):
            check_table(state, None)
            if state.current_player >= 0:
                check_table(state, state.current_player)
                check_table(state, (state.current_player + 1) % state.num_players)


def test_board_root_is_in_world_units() -> None:
    """docs/table.md, "The board": data-cell 72, data-focus the last tile's centre, the usual
    attributes; a tile's corner is (72 x, -72 y) whatever the extent."""
    state = new()
    turn(state, "draw V", "place V 1,0 0")
    root = parse(PLUGIN.render_board(state))
    assert root is not None
    assert root.get("data-cell") == str(CELL) == "72"
    assert root.get("data-focus") == "108 36"
    for name in ("data-game", "data-ply", "data-to-act", "data-viewer", "data-clickable"):
        assert root.get(name)
    tiles = {e.get("data-pos"): e for e in root.iter(SVG + "g") if e.get("class") == "tile"}
    assert set(tiles) == {"0,0", "1,0"}
    first = tiles["1,0"].find(f"{SVG}rect")
    assert first is not None and (first.get("x"), first.get("y"), first.get("width")) == ("72", "0", "72")
    # nothing outside the board: no seats, bag, drawn tile or result
    assert not [e for e in root.iter() if e.get("class") in ("seat", "bag-tile", "drawn", "result")]


def test_every_tile_and_follower_has_a_position() -> None:
    """docs/table.md, "Positions": every tile and follower carries data-pos."""
    for state in states_of_a_game({}, 4, every=20):
        root = parse(PLUGIN.render_board(state))
        assert root is not None
        tiles = [e for e in root.iter() if e.get("class") == "tile"]
        assert sorted(e.attrib["data-pos"] for e in tiles) == sorted(format_pos(p) for p in state.board)
        followers = [e for e in root.iter() if str(e.get("class", "")).startswith("follower")]
        standing = state.at_end if state.terminal else state.meeples
        assert sorted(e.attrib["data-pos"] for e in followers) == sorted(format_pos(p) for p in standing)


def last_parts(state: CarcassonneState) -> list[tuple[str | None, str | None]]:
    root = parse(PLUGIN.render_board(state))
    assert root is not None
    return [(e.get("class"), e.get("data-pos")) for e in root.iter() if "data-last" in e.attrib]


def test_last_tile_and_follower_are_marked() -> None:
    """docs/table.md, "The last ply": the tile just laid carries data-last, its follower too once
    the last decision deployed one (and still after chance draws the next tile)."""
    state = new()
    assert last_parts(state) == []
    turn(state, "draw V", "place V 1,0 0")
    assert last_parts(state) == [("tile", "1,0")]
    turn(state, "follower road S")
    assert last_parts(state) == [("tile", "1,0"), ("follower", "1,0")]
    turn(state, "draw U")
    assert last_parts(state) == [("tile", "1,0"), ("follower", "1,0")]
    turn(state, "place U 0,-1 0")
    assert last_parts(state) == [("tile", "0,-1")]


def scored(state: CarcassonneState) -> list[tuple[str | None, str | None, list[str]]]:
    root = parse(PLUGIN.render_board(state))
    assert root is not None
    out = []
    for group in root.iter(SVG + "g"):
        if group.get("class") == "scored":
            squares = group.findall(f"{SVG}rect")
            spots = sorted(f"{r.get('x')},{r.get('y')}" for r in squares)
            out.append((group.get("data-points"), group.get("data-seat"), spots))
    return out


def test_a_completed_city_is_scored_on_the_board() -> None:
    """docs/table.md, "Points scored": the city the follower step completed is a .scored group
    with its points and seat over its tiles, still shown once chance draws the next tile, and gone
    after the next decision."""
    state = new()
    turn(state, "draw E", "place E 0,1 180")
    assert scored(state) == []
    turn(state, "follower city S")
    expected = [("4", "red", ["0,-72", "0,0"])]
    assert scored(state) == expected
    state.advance(random.Random(1))
    assert scored(state) == expected
    state.apply(state.legal_actions()[0])
    assert scored(state) == []


def test_cycles_are_full_size_rotations() -> None:
    """docs/table.md, "A cycle": each square where the drawn tile fits opens a layer of its own key
    with Turn left / Turn right, whose direct children are one [data-choice] per rotation that fits
    there, each the tile at full cell size on that square."""
    state = new()
    turn(state, "draw V")
    root = parse(PLUGIN.render_board(state))
    assert root is not None
    openers = {e.attrib["data-select"]: e for e in root.iter() if e.get("data-select")}
    layers = {e.attrib["data-layer"]: e for e in root.iter() if e.get("data-layer")}
    fits: dict[str, list[str]] = {}
    for action in state.legal_actions():
        assert action.pos is not None
        fits.setdefault(format_pos(action.pos), []).append(state.notation(action))
    assert set(openers) == set(layers) == set(fits)
    for key, layer in layers.items():
        assert openers[key].get("data-label") == f"Lay the tile at {key}"
        hit = openers[key].find(f"{SVG}rect")
        assert hit is not None and float(hit.get("width", 0)) >= CELL
        assert layer.get("display") == "none"
        assert (layer.get("data-prev-label"), layer.get("data-next-label")) == ("Turn left", "Turn right")
        choices = list(layer)
        assert all("data-choice" in c.attrib for c in choices)
        assert sorted(c.attrib["data-action"] for c in choices) == sorted(fits[key])
        x, y = (int(v) for v in key.split(","))
        for choice in choices:
            assert "its printed top pointing" in str(choice.get("data-label"))
            ground = next(r for r in choice.iter(SVG + "rect"))
            assert (ground.get("x"), ground.get("y"), ground.get("width")) == (
                str(CELL * x),
                str(-CELL * y),
                str(CELL),
            )


# -- the stage ------------------------------------------------------------------------------------------


def stage_targets(root: ET.Element) -> list[tuple[float, float, float]]:
    out = []
    for part in clickable(root):
        ring = next(c for c in part.iter(SVG + "circle") if c.get("class") == "hit")
        out.append((float(ring.get("cx", 0)), float(ring.get("cy", 0)), float(ring.get("r", 0))))
    return out


def check_targets(targets: list[tuple[float, float, float]]) -> None:
    for _, _, r in targets:
        assert 2 * r >= 44
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(targets, 2):
        assert math.hypot(x1 - x2, y1 - y2) >= r1 + r2


def test_stage_targets_are_large_and_apart_in_random_games() -> None:
    """docs/table.md, "The stage": an enlarged tile at least 240 units wide, each target at least 44
    units across and none overlapping another, words on each ("Knight on the city"...)."""
    seen = 0
    for options in OPTION_SETS:
        for state in states_of_a_game(options, 7, every=1):
            if state.phase != PH_FOLLOWER or state.terminal:
                continue
            root = parse(PLUGIN.render_stage(state))
            if root is None:
                assert state.legal_actions() == [PASS_ACTION]
                continue
            seen += 1
            assert float(root.get("width", 0)) >= 240
            art = next(e for e in root.iter(SVG + "g") if e.get("class") == "tile")
            ground = art.find(f"{SVG}rect")
            assert ground is not None and float(ground.get("width", 0)) >= 240
            assert art.get("data-pos") == format_pos(state.placed or (0, 0))
            check_targets(stage_targets(root))
            labels = [p.get("data-label") for p in clickable(root)]
            assert len(set(labels)) == len(labels)
    assert seen > 50


def test_every_tile_spreads_its_follower_spots() -> None:
    """Every tile of the catalogue in every rotation, all its features offered at once (the fields
    Ws and Wn and the road W included): targets at least TARGET + GAP apart."""
    catalogue = default_catalogue()
    for tile in catalogue.types:
        for rotation in (0, 90, 180, 270):
            turned = catalogue.turned(tile.index, rotation)
            _, spots = target_spots(turned, range(len(turned.segments)))
            check_targets([(x, y, (TARGET + GAP) / 2) for x, y in spots])


def test_spread_parts_points_on_the_same_spot() -> None:
    spots = spread([(10.0, 10.0)] * 4, 50, 0, 200)
    assert all(math.dist(a, b) >= 50 for a, b in itertools.combinations(spots, 2))


# -- words, the default, places -----------------------------------------------------------------------


def test_actions_in_words() -> None:
    """docs/table.md, "labels": each legal action in words, distinct from the others."""
    state = new()
    turn(state, "draw V")
    assert PLUGIN.action_label(state, state.parse_action("place V 1,0 90")) == "Lay V at 1,0 turned 90°"
    turn(state, "place V 1,0 0")
    labels = [PLUGIN.action_label(state, a) for a in state.legal_actions()]
    assert labels == ["Thief on the road", "Farmer on the field Nw", "Farmer on the field Sw", "No follower"]
    for state in states_of_a_game({"players": 3, "shrines": "6"}, 5, every=1):
        if state.current_player >= 0:
            legal = state.legal_actions()
            words = [PLUGIN.action_label(state, a) for a in legal]
            assert all(words) and len(set(words)) == len(words), words


def test_default_is_no_follower() -> None:
    """docs/table.md, "default": the pass in the follower step, none otherwise."""
    state = new()
    turn(state, "draw V")
    assert PLUGIN.default_action(state, state.legal_actions()) is None
    turn(state, "place V 1,0 0")
    assert PLUGIN.default_action(state, state.legal_actions()) == PASS_ACTION


def test_places_of_plies() -> None:
    """docs/table.md, "log[].places": a placement and its follower step at the tile's position, a
    draw nowhere."""
    state = new()
    found = []
    for text in ("draw V", "place V 1,0 0", "follower road S", "draw U", "place U 0,-1 0", "pass"):
        state.apply_text(text)
        found.append(PLUGIN.places(state, state.plies()[-1]))
    assert found == [(), ("1,0",), ("1,0",), (), ("0,-1",), ("0,-1",)]


# -- panels ---------------------------------------------------------------------------------------------


def test_panels_have_one_seat_per_player_and_hide_nothing_private() -> None:
    """docs/table.md, "Panels": one seat per player in seat order with its name, the SVG's colour,
    score and followers "5 of 7"; the sections drawn and bag; the bag gives counts only (they sum
    to the tiles left: no order), the drawn tile only once drawn; every viewer gets the same."""
    for options in OPTION_SETS:
        for state in states_of_a_game(options, 3, every=7):
            data = PLUGIN.panels(state, 0)
            json.dumps(data)
            assert data == PLUGIN.panels(state, None) == PLUGIN.panels(state, 1)
            seats = data["seats"]
            assert [s["seat"] for s in seats] == list(range(state.num_players))
            assert [s["name"] for s in seats] == state.seat_names()
            assert [s["colour"] for s in seats] == list(SEAT_FILL[: state.num_players])
            assert [s["score"] for s in seats] == state.scores()
            for seat, entry in enumerate(seats):
                assert entry["facts"][0]["value"] == f"{state.followers[seat]} of 7"
            sections = {s["id"]: s for s in data["sections"]}
            assert {"drawn", "bag"} <= set(sections)
            bag = sections["bag"]
            counts = [int(p["caption"].split("×")[1]) for p in bag["pictures"]]
            assert sum(counts) == state.bag_left
            drawn = sections["drawn"]
            if state.phase == PH_PLACE and not state.terminal:
                tile = state.cat.types[state.drawn].id
                assert drawn["pictures"][0]["caption"] == tile
                assert drawn["text"].startswith(f"{tile}: fits in ")
            elif state.current_player == CHANCE:
                assert "pictures" not in drawn
            if state.terminal:
                assert "result" in sections


def test_whole_picture_is_unchanged() -> None:
    """render_svg (exports, docs/rendering.md) still draws the seats, the bag and the pass button."""
    state = new()
    turn(state, "draw V", "place V 1,0 0")
    root = parse(PLUGIN.render_svg(state))
    assert root is not None
    assert "pass" in actions_in(root)
    assert [e for e in root.iter() if e.get("class") == "seat"]
