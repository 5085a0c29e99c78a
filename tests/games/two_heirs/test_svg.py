"""The SVG of The Two Heirs (``render_svg``, ``render_png``): a valid standalone document whose
clickable parts are exactly the legal actions of the seat to act (docs/rendering.md)."""

from __future__ import annotations

import importlib
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.errors import RegaliaError
from regalia.core.game import CHANCE
from regalia.core.grid import format_pos
from regalia.games.two_heirs import render
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS
from regalia.testing import random_positions

from .builders import basic

SVG = "{http://www.w3.org/2000/svg}"


def parse(state: TwoHeirsState, viewer: int | None = None) -> ET.Element:
    text = render.render_svg(state, viewer)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def actions_in(root: ET.Element) -> list[str]:
    return [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]


def legal_texts(state: TwoHeirsState) -> list[str]:
    return sorted(state.notation(a) for a in state.legal_actions())


def layers(root: ET.Element) -> dict[str, ET.Element]:
    return {e.attrib["data-layer"]: e for e in root.iter() if "data-layer" in e.attrib}


def selects(root: ET.Element) -> set[str]:
    return {e.attrib["data-select"] for e in root.iter() if "data-select" in e.attrib}


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int) -> Iterator[TwoHeirsState]:
    state = regalia.load_game("two-heirs", **options).new_state(seed)
    yield from random_positions(state, seed, every)


def check_document(state: TwoHeirsState, root: ET.Element, viewer: int | None) -> None:
    """Every data-action parses and is legal; every legal action is offered exactly once; the
    selection keys and layers match; layers hold exactly their legal choices."""
    player = state.current_player
    offered = actions_in(root)
    acting = player >= 0 and player not in state.automaton_seats() and viewer in (None, player)
    if not acting:
        assert offered == [] and selects(root) == set() and layers(root) == {}
        assert root.attrib["data-clickable"] == "false"
        return
    legal = state.legal_actions()
    for text in offered:
        action = state.parse_action(text)
        assert action in legal, text
    assert sorted(offered) == legal_texts(state)
    assert selects(root) == set(layers(root))
    for key, layer in layers(root).items():
        assert layer.attrib["display"] == "none"
        inside = sorted(actions_in(layer))
        kind, _, arg = key.partition(" ")
        if kind in ("build", "terrain"):
            expected = [t for t in legal_texts(state) if t.startswith(f"{kind} {arg} ")]
        elif kind == "unit":
            expected = [
                t for t in legal_texts(state) if t.startswith(f"step {arg} ") or t == f"withdraw {arg}"
            ]
        else:
            assert key == "call"
            expected = [t for t in legal_texts(state) if t.startswith("call ")]
        assert inside == sorted(expected), key
        assert inside, key


@pytest.mark.parametrize(
    "options", [{}, {"solo": True}, {"sets": "warfare,crafts,guard"}, {"solo": True, "level": 1}]
)
def test_clickable_parts_are_exactly_the_legal_actions(options: Mapping[str, Any]) -> None:
    for seed in (1, 2):
        for state in states_of_a_game(options, seed, every=4):
            check_document(state, parse(state), None)


def test_only_the_seat_to_act_gets_clickable_parts() -> None:
    for state in states_of_a_game({}, 3, every=7):
        player = state.current_player
        for viewer in (0, 1):
            root = parse(state, viewer)
            check_document(state, root, viewer)
            if player >= 0 and viewer != player:
                assert actions_in(root) == []


def test_chance_and_henry_have_no_clickable_parts() -> None:
    seen = set()
    for state in states_of_a_game({"solo": True}, 4, every=1):
        root = parse(state)
        to_act = root.attrib["data-to-act"]
        if state.current_player == CHANCE or state.current_player == 1 or state.is_terminal():
            assert actions_in(root) == [] and not selects(root)
            seen.add(to_act)
        if state.ply > 40:
            break
    assert {"chance", "automaton"} <= seen


def test_placement_layers_equal_the_legal_build_and_terrain_positions() -> None:
    state = basic(hands=(("W3", "T2"), ()))  # white: elite at 0,0, reach 3 with W1, D1, T3
    root = parse(state)
    found = layers(root)
    for tile in ("W3", "T2"):
        for kind in ("build", "terrain"):
            legal = {
                format_pos(a.dst)
                for a in state.legal_actions()
                if a.kind == kind and a.tile == state.parse_action(f"take {tile}").tile and a.dst is not None
            }
            key = f"{kind} {tile}"
            if not legal:
                assert key not in found
                continue
            targets = {
                e.attrib["data-action"].split()[-1] for e in found[key].iter() if "data-action" in e.attrib
            }
            assert targets == legal
    playable = {e.attrib["data-pos"] for e in root.iter() if e.attrib.get("class") == "playable"}
    assert playable == {format_pos(p) for p in state.placements(0)}


def test_units_calls_and_withdraws_use_selection_layers() -> None:
    state = basic(board={(1, 0): "T4", (0, 1): "T6"}, units=[(0, 0), (1, 0), None, (5, 5), None, None])
    state.apply_text("take W1")
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(random.Random(0)))
    root = parse(state)
    check_document(state, root, None)
    found = layers(root)
    assert "unit 1,0" in found and "withdraw 1,0" in actions_in(found["unit 1,0"])
    assert "step 1,0 0,0" not in actions_in(found["unit 1,0"])  # 0,0 holds a unit
    assert actions_in(found["call"]) == ["call 0,1"]
    assert sorted(actions_in(found["unit 0,0"])) == ["step 0,0 0,1"]  # the elite may not withdraw
    reserve_units = [e for e in root.iter() if e.attrib.get("data-select") == "call"]
    assert reserve_units and all("in-reserve" in e.attrib["class"] for e in reserve_units)


def test_end_spare_destroy_discard_and_camp_are_direct_actions() -> None:
    state = basic(board={(1, 0): "D7@0"}, hands=(("W3",), ()), took=True, shield_mine=False)
    root = parse(state)
    assert {"end", "camp D7"} <= set(actions_in(root))
    camp = next(e for e in root.iter() if e.attrib.get("data-action") == "camp D7")
    assert camp.attrib["data-pos"] == "1,0"

    besieged = basic(board={(1, 0): "W2@1"}, took=True)
    besieged.pending = ((1, 0),)
    besieged._legal = None
    root = parse(besieged)
    assert sorted(actions_in(root)) == ["destroy 1,0", "spare"]

    full = basic(hands=(("W3", "T2", "D9", "T4"), ()), took=True)
    full.discarding = True
    full._legal = None
    root = parse(full)
    assert sorted(actions_in(root)) == ["discard D9", "discard T2", "discard T4", "discard W3"]
    assert all(
        e.attrib["class"].startswith("hand-tile")
        for e in root.iter()
        if e.attrib.get("data-action", "").startswith("discard")
    )


def test_the_picture_holds_the_whole_position() -> None:
    state = next(
        s for s in states_of_a_game({"solo": True}, 7, every=1) if s.ply > 70 and s.current_player == 0
    )
    assert isinstance(state, SoloState)
    root = parse(state)
    tiles = {e.attrib["data-pos"]: e for e in root.iter() if e.attrib.get("class", "").startswith("tile")}
    assert set(tiles) == {format_pos(p) for p in state.board}
    for pos, code in state.board.items():
        e = tiles[format_pos(pos)]
        tile = state.tiles[tile_of(code)]
        assert e.attrib["data-tile"] == tile.id
        assert e.attrib["data-colour"] == COLOURS[tile.colour]
        assert e.attrib["data-owner"] == ("white", "blue", "none")[owner_of(code)]
    treasures = sorted(e.attrib["data-treasure"] for e in root.iter() if "data-treasure" in e.attrib)
    assert treasures == sorted(state.tset.tokens[t].id for _, t in state.treasures)
    units = [
        e for e in root.iter() if e.attrib.get("class", "").startswith("unit") and "data-pos" in e.attrib
    ]
    assert len(units) == sum(u is not None for u in state.units)
    reserve = {
        e.attrib["data-tile"] for e in root.iter() if e.attrib.get("class", "").startswith("reserve-tile")
    }
    assert reserve == {state.tiles[t].id for t in state.reserve if t >= 0}
    hands = {e.attrib["data-tile"] for e in root.iter() if e.attrib.get("class", "").startswith("hand-tile")}
    assert hands == {state.tiles[t].id for h in state.hands for t in h}
    words = " ".join(e.text or "" for e in root.iter(SVG + "text"))
    assert "Henry's last turn" in words and f"{state.scores()[1]} points" in words
    shield = next(e for e in root.iter() if e.attrib.get("class") == "shield")
    assert int(shield.attrib["data-reserve-pos"]) == state.shield


def test_standalone_no_scripts_no_external_resources() -> None:
    state = next(iter(states_of_a_game({}, 9, every=30)))
    text = render.render_svg(state)
    root = ET.fromstring(text)
    for e in root.iter():
        assert e.tag not in (SVG + "script", SVG + "image", SVG + "foreignObject")
        assert not any(k.endswith("href") for k in e.attrib)
        assert not any(k.startswith("on") for k in e.attrib)
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_png_export(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    state = next(iter(states_of_a_game({"solo": True}, 2, every=50)))
    out = render.render_png(state, tmp_path / "position.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(RegaliaError, match="cannot write"):
        render.render_png(state, tmp_path / "no" / "such" / "dir.png")


def test_png_export_without_cairosvg_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = importlib.import_module

    def no_cairo(name: str, package: str | None = None) -> Any:
        if name == "cairosvg":
            raise ImportError("no cairosvg")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_cairo)
    state = regalia.load_game("two-heirs").new_state(1)
    with pytest.raises(RegaliaError, match=r"pip install .regalia\[plots\]."):
        render.render_png(state, tmp_path / "x.png")
