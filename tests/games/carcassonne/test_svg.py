"""The SVG of Carcassonne (``render_svg``): a well-formed, deterministic standalone document whose
clickable parts are exactly the legal actions of the seat to act, with every tile, feature and
follower drawn so that colour is not needed to tell them apart (docs/rendering.md)."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.grid import format_pos
from regalia.games.carcassonne.base import PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.render import render_svg
from regalia.games.carcassonne.render.geometry import inside, tile_shape
from regalia.games.carcassonne.render.svg import CLOISTER_ROOF, PENNANT_FILL, SHRINE_DOME, tile_art
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import CITY, default_catalogue
from regalia.testing import random_positions

from .builders import bag_game, new, turn

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[3]

OPTION_SETS: tuple[Mapping[str, Any], ...] = (
    {},
    {"players": 3, "shrines": "5"},
    {"players": 4, "shrines": "6", "challenge_house_rule": True},
    {"players": 5, "shrines": "6"},
    {"players": 2, "farmers": False, "small_city": 2},
)


def parse(state: CarcassonneState, viewer: int | None = None) -> ET.Element:
    text = render_svg(state, viewer)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def actions_in(root: ET.Element) -> list[str]:
    return [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]


def legal_texts(state: CarcassonneState) -> list[str]:
    return sorted(state.action_text(a) for a in state.legal_actions())


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int) -> Iterator[CarcassonneState]:
    """Every ``every``-th state of a random game (chance's too) and the last one."""
    state: CarcassonneState = regalia.load_game("carcassonne", **options).new_state(seed)
    yield from random_positions(state, seed, every)


def check_document(state: CarcassonneState, root: ET.Element, viewer: int | None) -> None:
    """Every legal action of the seat to act is exactly one data-action, each parses to a legal
    action; nothing is clickable at a chance node, after the game, or for another seat's viewer."""
    player = state.current_player
    offered = actions_in(root)
    acting = player >= 0 and viewer in (None, player)
    if not acting:
        assert offered == []
        assert root.attrib["data-clickable"] == "false"
        return
    assert root.attrib["data-clickable"] == "true"
    counts = Counter(offered)
    assert all(n == 1 for n in counts.values()), [t for t, n in counts.items() if n > 1]
    assert sorted(offered) == legal_texts(state)
    legal = state.legal_actions()
    for text in offered:
        assert state.parse_action(text) in legal, text


@pytest.mark.parametrize("options", OPTION_SETS)
def test_clickable_parts_are_exactly_the_legal_actions(options: Mapping[str, Any]) -> None:
    phases = Counter()
    for seed in (1, 2):
        for state in states_of_a_game(options, seed, every=11):
            check_document(state, parse(state), None)
            phases[state.phase if not state.is_terminal() else "over"] += 1
    assert phases[PH_PLACE] and phases[PH_FOLLOWER] and phases["over"]


def test_every_phase_of_a_few_turns_offers_its_actions() -> None:
    """Every ply of the first turns of a three-player game with shrines: placements, then the
    follower spots of the tile just laid and pass."""
    for state in states_of_a_game({"players": 3, "shrines": "5"}, 4, every=1):
        if state.ply > 40:
            break
        root = parse(state)
        check_document(state, root, None)
        offered = actions_in(root)
        if state.phase == PH_FOLLOWER and state.current_player >= 0:
            assert "pass" in offered
            assert all(t == "pass" or t.startswith("follower ") for t in offered)
        elif state.phase == PH_PLACE:
            assert offered and all(t.startswith("place ") for t in offered)


def test_only_the_seat_to_act_gets_clickable_parts() -> None:
    for state in states_of_a_game({"players": 3}, 3, every=9):
        player = state.current_player
        for viewer in (0, 1, 2):
            root = parse(state, viewer)
            check_document(state, root, viewer)
            assert root.attrib["data-viewer"] == state.seat_names()[viewer]
            if player != viewer:
                assert actions_in(root) == []


def test_the_root_says_whose_turn_it_is() -> None:
    state = new()
    assert parse(state).attrib["data-to-act"] == "chance"
    state.apply_text("draw V")
    root = parse(state)
    assert root.attrib["data-to-act"] == "red" and root.attrib["data-game"] == "carcassonne"
    assert root.attrib["data-ply"] == "1" and root.attrib["data-viewer"] == "spectator"
    final = list(states_of_a_game({}, 5, every=1000))[-1]
    assert parse(final).attrib["data-to-act"] == "over"


def test_the_document_is_deterministic_and_does_not_change_the_state() -> None:
    state = list(states_of_a_game({"players": 4, "shrines": "6"}, 6, every=97))[1]
    before = state.to_json()
    first = render_svg(state)
    assert render_svg(state.clone()) == first
    assert render_svg(state.game.state_from_json(state.to_json())) == first
    assert state.to_json() == before


def test_tiles_and_followers_are_marked_with_their_positions_and_seats() -> None:
    state = next(
        s for s in states_of_a_game({"players": 5, "shrines": "6"}, 8, every=10) if len(s.meeples) >= 6
    )
    root = parse(state)
    tiles = {e.attrib["data-pos"]: e for e in root.iter() if e.attrib.get("class") == "tile"}
    assert set(tiles) == {format_pos(p) for p in state.board}
    for pos, code in state.board.items():
        assert tiles[format_pos(pos)].attrib["data-tile"] == state.cat.types[code >> 2].id
    followers = [e for e in root.iter() if e.attrib.get("class") == "follower"]
    assert len(followers) == len(state.meeples) > 0
    names = state.seat_names()
    letters = "RBGYK"
    for e in followers:
        x, y = (int(v) for v in e.attrib["data-pos"].split(","))
        seat, segment = state.meeples[(x, y)]
        assert e.attrib["data-seat"] == names[seat]
        assert e.attrib["data-feature"] == state.turned((x, y)).segments[segment].kind
        # the seat's letter is written on the meeple: colour is not needed
        assert [t.text for t in e.iter(SVG + "text")] == [letters[seat]]


def test_shrines_and_cloisters_look_different_and_pennants_show() -> None:
    cat = default_catalogue()
    cloister = tile_art(cat.turned(cat.by_id["B"].index, 0), 0, 0, 72)
    shrine = tile_art(cat.turned(cat.by_id["SH"].index, 0), 0, 0, 72)
    assert CLOISTER_ROOF in cloister and SHRINE_DOME not in cloister
    assert SHRINE_DOME in shrine and CLOISTER_ROOF not in shrine
    for tile in cat.types:
        for rotation in tile.rotations:
            art = tile_art(cat.turned(tile.index, rotation), 0, 0, 72)
            ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{art}</g>')
            assert art.count(PENNANT_FILL) == tile.pennants, tile.id


def test_every_city_anchor_lies_in_its_city() -> None:
    """A knight is drawn inside the city it stands on (every tile and rotation of the catalogue)."""
    cat = default_catalogue()
    for tile in cat.types:
        for rotation in tile.rotations:
            turned = cat.turned(tile.index, rotation)
            shape = tile_shape(turned)
            polygons = [poly for _, poly in shape.cities]
            cities = [i for i, s in enumerate(turned.segments) if s.kind == CITY]
            for k, i in enumerate(cities):
                assert inside(shape.anchors[i], polygons[k]), (tile.id, rotation)
            assert len(set(shape.anchors)) == len(shape.anchors), (tile.id, rotation)


def test_follower_spots_are_on_the_tile_just_laid() -> None:
    state = new(shrines="5")
    turn(state, "U -1,0 0")
    state.apply_text("draw SHRR")
    state.apply_text("place SHRR 1,0 90")
    root = parse(state)
    spots = sorted(actions_in(root))
    assert spots == legal_texts(state)
    assert "follower shrine" in spots and "pass" in spots


def test_a_finished_game_shows_the_followers_of_the_final_scoring() -> None:
    """The final scoring sends every follower home; the picture keeps those it scored: a farmer
    and a thief stand when the game ends on the last tile (a bag of one U and one V)."""
    state = bag_game({"U": 1, "V": 1})
    turn(state, "U 1,0 0 road E")
    turn(state, "V -1,0 180 field Nw")
    assert state.is_terminal() and state.meeples == {}
    followers = [e for e in parse(state).iter() if "follower" in e.attrib.get("class", "").split()]
    assert sorted((e.attrib["data-pos"], e.attrib["data-feature"], e.attrib["class"]) for e in followers) == [
        ("-1,0", "field", "follower final"),
        ("1,0", "road", "follower final"),
    ]
    assert [e.attrib["data-seat"] for e in followers] == ["blue", "red"]


def test_the_svg_converts_to_png() -> None:
    """cairosvg comes with the dev extra (an ImportError fails the test); the cairo C library it
    loads is a system library, which may be missing (cairocffi raises OSError): then skipped."""
    try:
        cairosvg = importlib.import_module("cairosvg")
    except OSError:
        pytest.skip("the cairo C library (needed by cairosvg) is not installed")
    state = list(states_of_a_game({"players": 3, "shrines": "5"}, 9, every=1000))[-1]
    png = cairosvg.svg2png(bytestring=render_svg(state).encode("utf-8"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_documented_picture_of_a_finished_game_exists() -> None:
    picture = ROOT / "docs" / "images" / "carcassonne-final.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
