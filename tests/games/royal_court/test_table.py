"""The browser table's hooks for Intrigue in the Royal Court (docs/table.md): the board alone
(``render_board``), no stage, the panels, the actions in words, the default action and the places
of a ply, checked over whole seeded random games that reach every verb of the notation."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

import pytest

import regalia
from regalia.core.registry import game_plugin
from regalia.games.royal_court import actions as act
from regalia.games.royal_court import archetypes as ar
from regalia.games.royal_court.render.art import SEAT_FILL
from regalia.games.royal_court.state import PHASES, RoyalCourtState
from regalia.testing import random_positions

from .builders import EVERY_STEP_SEEDS, build, run, texts

PLUGIN = game_plugin("royal-court")
SVG = "{http://www.w3.org/2000/svg}"
SEEDS = EVERY_STEP_SEEDS
#: The data file's internal names, which words must never show.
INTERNAL = {
    ar.OPP_PLAY,
    ar.OWN_PLAY,
    ar.OPP_ZONE_ACTIVE,
    ar.OPP_ZONE,
    ar.CONSORT,
    ar.MOVE_CONSORT,
    ar.FORCE_NEXT,
    ar.EXTRA_MOVE,
    ar.EXTRA_PLAY,
    ar.BLOCK_NEXT,
}
HYPHENATED = re.compile(r"[A-Za-z]-[A-Za-z]")


def random_game(seed: int) -> Iterator[RoyalCourtState]:
    """Every state of a seeded random game (half of them give red the queen), the last included."""
    options = {"consort": "queen"} if seed % 2 else {}
    state: RoyalCourtState = regalia.load_game("royal-court", **options).new_state(seed)
    yield from random_positions(state, seed)


def board(state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> ET.Element:
    text = PLUGIN.render_board(state, viewer, clickable)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def clickable(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "data-action" in e.attrib or "data-select" in e.attrib]


def in_words(label: str) -> bool:
    return bool(label) and not HYPHENATED.search(label) and not any(name in label for name in INTERNAL)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_is_exactly_one_data_action_on_the_board(seed: int) -> None:
    """docs/table.md, "The board": every legal action of the seat to act appears exactly once as a
    data-action of the board (there is never a stage), each parses and is legal; every data-select
    opens its layer; for the other seat, and with clickable false, nothing is clickable. The games
    go through every step."""
    steps: set[str] = set()
    for state in random_game(seed):
        steps.add(PHASES[state.phase])
        assert PLUGIN.render_stage(state, None) is None
        for viewer in (None, 0, 1):
            root = board(state, viewer)
            offered = [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]
            selects = {e.attrib["data-select"] for e in root.iter() if "data-select" in e.attrib}
            layers = {e.attrib["data-layer"] for e in root.iter() if "data-layer" in e.attrib}
            player = state.current_player
            if player < 0 or viewer not in (None, player):
                assert offered == [] and selects == set() and layers == set()
                assert root.attrib["data-clickable"] == "false"
                continue
            counts = Counter(offered)
            assert sorted(counts) == sorted(texts(state))
            assert max(counts.values()) == 1
            assert selects == layers
            for text in offered:
                state.check(state.parse_action(text))
        assert clickable(board(state, None, clickable=False)) == []
    assert steps == set(PHASES)


def test_the_random_games_reach_every_verb() -> None:
    """The games above offer every verb of the notation, so their check covers each way an
    action is offered (a target on the board or in a zone strip, a layer, the pass button)."""
    kinds = {t.split()[0] for seed in SEEDS for state in random_game(seed) for t in texts(state)}
    assert kinds == set(act.SIGNATURES)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_every_clickable_part_and_every_action_has_a_label_in_words(seed: int) -> None:
    """docs/table.md, "Clickable parts": every clickable part carries data-label; the labels and
    action_label say what the action does in words, never the data file's hyphenated names
    ("opponent-active-in-play"), and no two legal actions share a label."""
    for state in random_game(seed):
        for part in clickable(board(state)):
            assert in_words(part.attrib.get("data-label", "")), part.attrib
        labels = [PLUGIN.action_label(state, a) for a in state.legal_actions()]
        assert all(in_words(label) for label in labels), labels
        assert len(set(labels)) == len(labels)


def test_labels_say_what_the_tile_does() -> None:
    """A tile's label names it, its square and whether its ability activates; a target names the
    tile it hits and the ability that hits it."""
    state = build({"1,0": "blue Spy"}, started=(1,))
    first = PLUGIN.action_label(state, state.parse_action("play Assassin 1,1"))
    assert first.startswith("Play the Assassin at 1,1") and "does not activate" in first
    state = build({"1,0": "blue Spy"})
    label = PLUGIN.action_label(state, state.parse_action("play Assassin 1,1"))
    assert label == "Play the Assassin at 1,1 - kill: remove one opponent's active tile in play from the game"
    run(state, "play Assassin 1,1")
    assert PLUGIN.action_label(state, state.parse_action("remove 1,0")) == (
        "Remove blue's Spy at 1,0 from the game (the Assassin's kill)"
    )


def test_the_root_carries_the_cell_and_the_focus() -> None:
    """docs/table.md, "The board": the root has data-cell (at least 56 units) and data-focus inside
    the viewBox, besides data-game, data-ply, data-to-act, data-viewer and data-clickable; a
    square keeps its world coordinates as the court grows."""
    for state in random_game(3):
        root = board(state, 0)
        for name in ("data-game", "data-ply", "data-to-act", "data-viewer", "data-clickable"):
            assert name in root.attrib
        assert int(root.attrib["data-cell"]) >= 56
        x, y, w, h = (float(v) for v in root.attrib["viewBox"].split())
        fx, fy = (float(v) for v in root.attrib["data-focus"].split())
        assert x <= fx <= x + w and y <= fy <= y + h
        cell = int(root.attrib["data-cell"])
        king = next(e for e in root.iter() if e.attrib.get("data-piece") == "king")
        kx, ky = (int(v) for v in king.attrib["data-pos"].split(","))
        disc = next(king.iter(SVG + "circle"))
        cx, cy = float(disc.attrib["cx"]), float(disc.attrib["cy"])
        assert kx * cell < cx < (kx + 1) * cell and -ky * cell < cy < (1 - ky) * cell


def test_every_clickable_target_is_at_least_44_units() -> None:
    """docs/table.md: every target is at least 44 units across (its box)."""
    for state in random_game(5):
        for part in clickable(board(state)):
            box = next(part.iter(SVG + "rect"))
            assert float(box.attrib["width"]) >= 44 and float(box.attrib["height"]) >= 44


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_every_piece_has_its_position_and_the_last_ply_is_marked(seed: int) -> None:
    """docs/table.md, "Positions" and "The last ply": every tile, the king and the queen carry
    data-pos in the notation's x,y, once each; the parts with data-last are exactly the squares
    places() gives for the last ply (a square it emptied as a g.vacated mark), and every place of
    every ply is a data-pos of the board right after it."""
    for state in random_game(seed):
        root = board(state)
        pieces = [e for e in root.iter() if e.attrib.get("class", "").split()[:1] in (["tile"], ["royal"])]
        assert sorted(e.attrib["data-pos"] for e in pieces) == sorted(f"{x},{y}" for x, y in state.board)
        last = [e.attrib["data-pos"] for e in root.iter() if "data-last" in e.attrib]
        expected = PLUGIN.places(state, state.last_ply()) if state.ply else ()
        assert sorted(last) == sorted(expected)
        assert set(expected) <= {e.attrib["data-pos"] for e in root.iter() if "data-pos" in e.attrib}


def test_places_of_each_kind_of_ply() -> None:
    """places(): a play its square, a move both squares, a target its square; pass, a zone target
    and chance nothing."""
    state = build({"1,0": "blue Spy"})
    run(state, "play Joker 1,1")
    assert PLUGIN.places(state, state.last_ply()) == ("1,1",)
    run(state, "move 1,1 2,1")
    assert PLUGIN.places(state, state.last_ply()) == ("1,1", "2,1")
    run(state, "pass")
    assert PLUGIN.places(state, state.last_ply()) == ()
    state = build({"1,0": "blue Spy"})
    run(state, "play Spy 1,1", "swap 1,0")
    assert set(PLUGIN.places(state, state.last_ply())) == {"1,0", "1,1"}


def test_a_score_changed_by_the_last_ply_is_a_scored_group() -> None:
    """docs/table.md, "Points scored": when the last ply changes a consort's score, the board has a
    g.scored group with data-points (the change) and data-seat over that consort."""
    seen = 0
    for seed in SEEDS[:4]:
        previous: list[int] | None = None
        for state in random_game(seed):
            scores = [state.consort_score(s) for s in (0, 1)]
            root = board(state)
            groups = {
                e.attrib["data-seat"]: int(e.attrib["data-points"])
                for e in root.iter(SVG + "g")
                if e.attrib.get("class") == "scored"
            }
            if previous is not None:
                expected = {
                    ("red", "blue")[s]: scores[s] - previous[s] for s in (0, 1) if scores[s] != previous[s]
                }
                assert groups == expected
                seen += bool(expected)
            previous = scores
    assert seen


def test_the_zone_strip_offers_the_tiles_to_play_and_the_zone_targets() -> None:
    """docs/table.md, "Clickable parts": the zones are panels, so the board draws the seat's zone
    at its edge, each tile opening the layer of its squares; a Bishop's targets are the tiles of
    the opponent's zone drawn there; the Joker's pass is a button, the default action."""
    state = build({"1,0": "blue Spy"})
    root = board(state, 0)
    strip = next(e for e in root.iter() if e.attrib.get("class") == "zone-strip")
    opens = {e.attrib["data-select"] for e in strip.iter() if "data-select" in e.attrib}
    assert opens == {key for key in (f"play {a.name}" for a in state.game.archetypes.archetypes)}
    layer = next(e for e in root.iter() if e.attrib.get("data-layer") == "play Spy")
    assert all(
        e.attrib["data-label"].startswith("Play the Spy at ") for e in layer if "data-action" in e.attrib
    )
    run(state, "play Bishop 1,1")
    targets = [e for e in board(state, 0).iter() if "data-action" in e.attrib]
    assert {e.attrib["data-seat"] for e in targets} == {"blue"} and len(targets) == len(texts(state))
    state = build({"1,0": "blue Spy"})
    run(state, "play Joker 1,1", "move 1,1 2,1")
    assert PLUGIN.default_action(state, state.legal_actions()) == act.PASS_ACTION
    assert any(e.attrib.get("data-action") == "pass" for e in board(state, 0).iter())
    run(state, "pass")
    assert PLUGIN.default_action(state, state.legal_actions()) is None


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_panels_one_seat_per_player_and_the_same_for_every_viewer(seed: int) -> None:
    """docs/table.md, "Panels": one seat per player in seat order, with the colour of its tiles on
    the board, its consort's score and facts; sections with ids, pictures well-formed SVG. Nothing
    is hidden in this game (both zones lie open, Setup; the observation is the same for every
    viewer), so the panels are the same for every viewer and a zone section lists exactly the
    tiles the observation shows in that zone."""
    for state in random_game(seed):
        doc = PLUGIN.panels(state, 0)
        json.dumps(doc)
        assert [s["seat"] for s in doc["seats"]] == [0, 1]
        assert [s["name"] for s in doc["seats"]] == ["red", "blue"]
        assert [s["colour"] for s in doc["seats"]] == list(SEAT_FILL)
        assert [s["score"] for s in doc["seats"]] == [state.consort_score(s) for s in (0, 1)]
        assert doc == PLUGIN.panels(state, 1) == PLUGIN.panels(state, None)
        observation = state.observation(0)
        sections = {s["id"]: s for s in doc["sections"]}
        for seat, name in enumerate(("red", "blue")):
            shown = [p["caption"] for p in sections[f"zone-{name}"].get("pictures", [])]
            assert shown == [t["tile"] for t in observation["zones"][seat]]
        for section in doc["sections"]:
            assert re.fullmatch(r"[a-z][a-z-]*", section["id"]) and section["title"]
            for picture in section.get("pictures", []):
                ET.fromstring(picture["svg"])
