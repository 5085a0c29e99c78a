"""The Two Heirs on the browser table: the plugin's table hooks (``render_board``, ``render_stage``,
``panels``, ``action_label``, ``default_action``, ``places``) keep the contract of docs/table.md on
positions of random games, two-player and solo."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import regalia
from regalia.core.game import CHANCE, Ply
from regalia.core.grid import format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.plugin import PLUGIN
from regalia.games.two_heirs.render.style import building_words
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.testing import random_positions

SVG = "{http://www.w3.org/2000/svg}"
OPTIONS = [{}, {"solo": True}, {"sets": "warfare,crafts,guard"}, {"solo": True, "level": 1}]


def board(state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> ET.Element:
    text = PLUGIN.render_board(state, viewer, clickable)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def offered(root: ET.Element) -> list[str]:
    return [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]


def clickable(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "data-action" in e.attrib or "data-select" in e.attrib]


def legal_texts(state: TwoHeirsState) -> list[str]:
    return sorted(state.notation(a) for a in state.legal_actions())


def acting(state: TwoHeirsState, viewer: int | None = None) -> bool:
    player = state.current_player
    return player >= 0 and player not in state.automaton_seats() and viewer in (None, player)


def new_state(seed: int, **options: Any) -> TwoHeirsState:
    state = regalia.load_game("two-heirs", **options).new_state(seed)
    assert isinstance(state, TwoHeirsState)
    return state


def states_of_a_game(options: Mapping[str, Any], seed: int, every: int = 1) -> Iterator[TwoHeirsState]:
    """The positions of a random game, every ``every`` plies and the last (one state, changed)."""
    state = new_state(seed, **options)
    yield from random_positions(state, seed, every)


def latest_turn(state: TwoHeirsState) -> tuple[list[Ply], list[Ply]]:
    """The plies of the latest turn (the last seat to act, chance passed over), newest first, and
    the seats' plies before it."""
    plies = [p for p in state.plies() if p.player != CHANCE]
    turn: list[Ply] = []
    for ply in reversed(plies):
        if turn and ply.player != turn[0].player:
            break
        turn.append(ply)
    return turn, plies[: len(plies) - len(turn)]


def classes(e: ET.Element) -> list[str]:
    return (e.attrib.get("class") or "").split()


def size_of(e: ET.Element) -> float:
    """The smallest side of the largest rectangle or circle of a clickable part."""
    best = 0.0
    for part in e.iter():
        tag = part.tag.removeprefix(SVG)
        if tag == "rect":
            best = max(best, min(float(part.attrib["width"]), float(part.attrib["height"])))
        elif tag == "circle":
            best = max(best, 2 * float(part.attrib["r"]))
    return best


@pytest.mark.parametrize("options", OPTIONS)
def test_every_legal_action_is_one_data_action_on_the_board(options: Mapping[str, Any]) -> None:
    """docs/table.md, "The board": clickable parts as in docs/rendering.md; every legal action
    appears exactly once as a ``data-action`` in the board and the stage (none here), every one
    parses and is legal, every ``data-select`` has its layer and every layer an opener."""
    for seed in (1, 2):
        for state in states_of_a_game(options, seed, every=3):
            root = board(state)
            assert PLUGIN.render_stage(state) is None
            actions = offered(root)
            if not acting(state):
                assert actions == [] and root.attrib["data-clickable"] == "false"
                continue
            legal = state.legal_actions()
            for text in actions:
                assert state.parse_action(text) in legal, text
            assert sorted(actions) == legal_texts(state)
            keys = {e.attrib["data-select"] for e in root.iter() if "data-select" in e.attrib}
            found = {e.attrib["data-layer"]: e for e in root.iter() if "data-layer" in e.attrib}
            assert keys == set(found)
            assert all(layer.attrib["display"] == "none" and offered(layer) for layer in found.values())


@pytest.mark.parametrize("options", [{}, {"solo": True}])
def test_every_clickable_part_has_words_and_a_44_unit_target(options: Mapping[str, Any]) -> None:
    """docs/table.md, "The board": every clickable part carries ``data-label`` in words; every
    target is at least 44 units across (a cell is 76); the labels of the legal actions differ."""
    seen: set[str] = set()
    for state in states_of_a_game(options, 5, every=2):
        root = board(state)
        for e in clickable(root):
            label = e.attrib.get("data-label", "")
            assert label and label[0].isupper() and " " in label, e.attrib
            assert size_of(e) >= 44, e.attrib
            seen.add(e.attrib.get("data-action", e.attrib.get("data-select", "")).split(" ")[0])
        if acting(state):
            labels = [PLUGIN.action_label(state, a) for a in state.legal_actions()]
            assert len(set(labels)) == len(labels)
            by_action = {
                e.attrib["data-action"]: e.attrib["data-label"]
                for e in clickable(root)
                if "data-action" in e.attrib
            }
            for a in state.legal_actions():
                assert by_action[state.notation(a)] == PLUGIN.action_label(state, a)
    assert {"take", "build", "unit", "end"} <= seen


def test_the_root_carries_the_cell_and_the_focus() -> None:
    """docs/table.md, "The board": the root's ``data-cell`` (76) and ``data-focus`` ("x y", inside
    the picture, on the last placement) beside the usual root attributes."""
    for state in states_of_a_game({}, 6, every=5):
        root = board(state)
        assert root.attrib["data-cell"] == "76" and root.attrib["data-game"] == "two-heirs"
        assert root.attrib["data-ply"] == str(state.ply)
        x, y = (float(v) for v in root.attrib["data-focus"].split())
        _, _, w, h = (float(v) for v in root.attrib["viewBox"].split())
        assert 0 <= x <= w and 0 <= y <= h
        marked = {
            e.attrib["data-pos"] for e in root.iter() if "data-last" in e.attrib and "data-pos" in e.attrib
        }
        if marked:  # the focus is on one of the cells the latest turn touched
            cells = [
                rect
                for e in root.iter(SVG + "g")
                if "tile" in classes(e) and e.attrib["data-pos"] in marked
                for rect in e.findall(SVG + "rect")[:1]
            ]
            assert any(
                float(r.attrib["x"]) <= x <= float(r.attrib["x"]) + 76
                and float(r.attrib["y"]) <= y <= float(r.attrib["y"]) + 76
                for r in cells
            )


def test_every_tile_and_unit_on_the_board_has_its_position() -> None:
    """docs/table.md, "Positions": every tile and unit carries ``data-pos``, the game's ``x,y``."""
    for state in states_of_a_game({"solo": True}, 7, every=6):
        root = board(state)
        tiles = {e.attrib["data-pos"] for e in root.iter(SVG + "g") if "tile" in classes(e)}
        assert tiles == {format_pos(p) for p in state.board}
        units = sorted(
            e.attrib["data-pos"]
            for e in root.iter(SVG + "g")
            if "unit" in classes(e) and "in-reserve" not in classes(e)
        )
        expected = sorted(format_pos(p) for s in (0, 1) for p in state.unit_positions(s))
        assert units == expected


@pytest.mark.parametrize("options", [{}, {"solo": True}])
def test_data_last_marks_the_last_ply(options: Mapping[str, Any]) -> None:
    """docs/table.md, "The last ply": what the latest turn laid, moved or took carries
    ``data-last``: the ``data-pos`` of the marked parts are exactly the places of its plies
    (``log[].places``; a step's unit and the tile it left), or of the last ply that had places when
    the turn had none (a take, an end); a take marks the shield (now where the tile was) and the
    tile in the hand shown at the board's edge."""
    kinds = set()
    for state in states_of_a_game(options, 8):
        root = board(state)
        marked = [e for e in root.iter() if "data-last" in e.attrib]
        turn, before = latest_turn(state)
        places = {p for ply in turn for p in PLUGIN.places(state, ply)}
        if not places:
            places = next(
                (set(PLUGIN.places(state, p)) for p in reversed(before) if PLUGIN.places(state, p)), set()
            )
        assert {e.attrib["data-pos"] for e in marked if "data-pos" in e.attrib} == places
        taken = [p.action.tile for p in turn if p.action.kind == act.TAKE]
        shield = [e for e in marked if "shield" in classes(e)]
        assert len(shield) == (1 if taken else 0)
        shown = {e.attrib["data-tile"] for e in marked if "hand-tile" in classes(e)}
        if acting(state) and turn and turn[0].player == state.current_player:
            assert shown == {state.tiles[t].id for t in taken if t in state.hands[state.current_player]}
        withdrawn = [e for e in marked if "in-reserve" in classes(e)]
        assert len(withdrawn) == len({p.player for p in turn if p.action.kind == act.WITHDRAW})
        kinds |= {p.action.kind for p in turn}
    assert {act.TAKE, act.BUILD, act.STEP} <= kinds


def test_points_scored_by_the_last_ply_pop_up_in_the_seat_colour() -> None:
    """docs/table.md, "Points scored": a tile laid or a unit moved that changes a seat's points is
    a ``g.scored`` group with ``data-points`` (the points gained) and ``data-seat``."""
    found = 0
    for seed in (1, 2, 3):
        state = new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            before = state.scores()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            root = board(state)
            groups = [e for e in root.iter(SVG + "g") if e.attrib.get("class") == "scored"]
            gains = {s: p - q for s, (p, q) in enumerate(zip(state.scores(), before, strict=True)) if p > q}
            if action.kind in (act.BUILD, act.TERRAIN, act.STEP):
                assert {
                    (("white", "blue").index(g.attrib["data-seat"]), int(g.attrib["data-points"]))
                    for g in groups
                } == set(gains.items())
                found += len(groups)
            else:
                assert groups == []
    assert found > 10


@pytest.mark.parametrize("options", [{}, {"solo": True}])
def test_panels_have_one_seat_per_player(options: Mapping[str, Any]) -> None:
    """docs/table.md, "Panels": one seat entry per seat in seat order with its name, colour,
    score and facts; the sections have CSS-safe ids; building names are whole in the pictures."""
    for state in states_of_a_game(options, 9, every=9):
        doc = PLUGIN.panels(state, None)
        json.dumps(doc)
        seats = doc["seats"]
        assert [s["seat"] for s in seats] == [0, 1]
        assert [s["score"] for s in seats] == state.scores()
        assert seats[0]["name"] == "white" and seats[1]["name"] in ("blue", "Henry (blue)")
        assert all(s["colour"].startswith("#") and s["facts"] for s in seats)
        if options.get("solo"):
            assert seats[1]["name"] == "Henry (blue)"
            assert any(f["label"] == "Treasures" for f in seats[1]["facts"])
        ids = [s["id"] for s in doc["sections"]]
        assert len(ids) == len(set(ids)) and all(i.replace("-", "").isalnum() for i in ids)
        assert ("result" in ids) == state.is_terminal()
        for seat in (0, 1):
            hand = next(s for s in doc["sections"] if s["id"] == f"hand-{('white', 'blue')[seat]}")
            captions = [p["caption"] for p in hand.get("pictures", [])]
            assert captions == [
                f"{state.tiles[t].id} {building_words(state.tiles[t])}" for t in state.hands[seat]
            ]
            for p in hand.get("pictures", []):
                ET.fromstring(p["svg"])


@pytest.mark.parametrize("options", [{}, {"solo": True}])
def test_panels_never_reveal_hidden_information(options: Mapping[str, Any]) -> None:
    """docs/table.md, "Panels": built only from what the viewer may see. Everything is open in The
    Two Heirs but the supply's order, which nobody knows: the panels are the same for every viewer
    and for every state consistent with what a seat sees (its hidden parts resampled)."""
    rng = random.Random(0)
    for state in states_of_a_game(options, 10, every=7):
        doc = PLUGIN.panels(state, None)
        assert PLUGIN.panels(state, 0) == doc == PLUGIN.panels(state, 1)
        for seat in (0, 1):
            assert PLUGIN.panels(state.determinize(seat, rng), seat) == doc


def test_building_names_are_never_cut_on_the_board() -> None:
    """Known faults ("tradi", "cathedrl"): every face-up tile on the board and in the reserve
    writes its building's name whole."""
    seen: set[str] = set()
    for state in states_of_a_game({"sets": "random"}, 11, every=4):
        root = board(state)
        for e in root.iter(SVG + "g"):
            cls = classes(e)[0] if classes(e) else ""
            if cls == "tile" and e.attrib["data-owner"] != "none":
                x, y = (int(v) for v in e.attrib["data-pos"].split(","))
                tile = state.tiles[tile_of(state.board[(x, y)])]
            elif cls in ("reserve-tile", "hand-tile"):
                tile = next(t for t in state.tiles if t.id == e.attrib["data-tile"])
            else:
                continue
            words = " ".join(t.text or "" for t in e.iter(SVG + "text"))
            assert building_words(tile) in words, (words, tile.building)
            seen.add(tile.building)
    assert len(seen) > 8


def test_action_labels_default_and_places() -> None:
    """docs/table.md, "What the server sends": ``labels`` in words, ``default`` (``spare`` in a
    siege, ``end`` when it is the only action, else none) and ``places`` (the ``data-pos`` of the
    positions a ply touched)."""
    state = new_state(1)
    rng = random.Random(1)
    places_seen = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        default = PLUGIN.default_action(state, legal)
        if any(a.kind == act.SPARE for a in legal):
            assert default is not None and default.kind == act.SPARE
        elif len(legal) == 1 and legal[0].kind == act.END:
            assert default == legal[0]
        else:
            assert default is None
        action = rng.choice(legal)
        state.apply(action)
        ply = state.plies()[-1]
        places = PLUGIN.places(state, ply)
        if action.kind in (act.BUILD, act.TERRAIN, act.CALL, act.DESTROY):
            assert action.dst is not None and places == (format_pos(action.dst),)
        elif action.kind == act.STEP:
            assert action.src is not None and action.dst is not None
            assert places == (format_pos(action.src), format_pos(action.dst))
        elif action.kind in (act.TAKE, act.END, act.DISCARD, act.SPARE):
            assert places == ()
        places_seen += len(places)
        code = state.board.get(action.dst) if action.dst is not None else None
        if action.kind == act.BUILD and code is not None and owner_of(code) >= 0:
            label = PLUGIN.action_label(state, action)
            assert label.startswith("Build ") and building_words(state.tiles[action.tile]) in label
    assert places_seen > 10


def test_nothing_is_clickable_for_another_seat_or_a_replay() -> None:
    """docs/table.md, "What the server sends": the replay's board is not clickable; the seat not
    to act gets no clickable part and no hand at the board's edge."""
    for state in states_of_a_game({}, 12, every=5):
        assert clickable(board(state, clickable=False)) == []
        for viewer in (0, 1):
            root = board(state, viewer)
            if not acting(state, viewer):
                assert clickable(root) == [] and root.attrib["data-clickable"] == "false"
                assert not [e for e in root.iter() if "hand-tile" in classes(e)]


def _box(e: ET.Element) -> tuple[float, float, float, float]:
    return tuple(float(e.attrib[k]) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def test_a_clickable_tile_under_a_clickable_unit_keeps_its_centre() -> None:
    """docs/table.md, "The board" (a click lands on one part): a camp or a siege under a unit of the
    seat to act stays clickable at the tile's centre, where a click on the tile lands; the unit's
    target starts clear of it (a browser test once clicked a camp and hit the unit on it)."""
    checked = 0
    for seed in range(1, 13):
        for state in states_of_a_game({}, seed):
            root = board(state)
            targets = [
                _box(rect)
                for e in root.iter()
                if "unit" in classes(e) and "data-select" in e.attrib
                for rect in e.iter(SVG + "rect")
            ]
            for e in root.iter():
                if "tile" not in classes(e) or "data-action" not in e.attrib:
                    continue
                x, y, w, h = _box(next(e.iter(SVG + "rect")))
                cx, cy = x + w / 2, y + h / 2
                for tx, ty, tw, th in targets:
                    inside_x = tx - 4 <= cx <= tx + tw + 4
                    assert not (inside_x and ty - 4 <= cy <= ty + th + 4), e.attrib["data-action"]
                    checked += inside_x and tx <= cx <= tx + tw and ty > y
    assert checked > 0, "no random position had a clickable tile under a clickable unit"
