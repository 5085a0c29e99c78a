"""The SVG of Intrigue in the Royal Court (``render_svg`` through the plugin): a well-formed,
deterministic document whose clickable parts are exactly the legal actions of the seat to act,
each once, with the selection layers that hold the squares (docs/rendering.md)."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import regalia
from regalia.core.registry import game_plugin
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.render.svg import render_svg
from regalia.games.royal_court.state import PHASES, RoyalCourtState
from regalia.testing import random_positions

from .builders import EVERY_STEP_SEEDS, FIRST_GUESS, build, run, texts

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[3]


def parse(state: RoyalCourtState, viewer: int | None = None) -> ET.Element:
    text = game_plugin("royal-court").render_svg(state, viewer)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def actions_in(root: ET.Element) -> list[str]:
    return [e.attrib["data-action"] for e in root.iter() if "data-action" in e.attrib]


def random_game(seed: int, **options: object) -> Iterator[RoyalCourtState]:
    """Every state of a seeded random game, the last one included."""
    state: RoyalCourtState = regalia.load_game("royal-court", **options).new_state(seed)
    yield from random_positions(state, seed)


def last(seed: int) -> RoyalCourtState:
    """The final position of a seeded random game."""
    *_, state = random_game(seed)
    return state


def check_document(state: RoyalCourtState, root: ET.Element, viewer: int | None) -> None:
    """Every legal action of the seat to act is exactly one data-action, and nothing else is; each
    data-select names a layer and each layer is selected; nothing is clickable otherwise."""
    player = state.current_player
    offered = actions_in(root)
    acting = player >= 0 and viewer in (None, player)
    selects = [e.attrib["data-select"] for e in root.iter() if "data-select" in e.attrib]
    layers = [e.attrib["data-layer"] for e in root.iter() if "data-layer" in e.attrib]
    if not acting:
        assert offered == [] and selects == [] and layers == []
        assert root.attrib["data-clickable"] == "false"
        return
    counts = Counter(offered)
    assert sorted(counts) == sorted(texts(state)), state.to_json()
    assert max(counts.values()) == 1, [t for t, n in counts.items() if n > 1]
    assert sorted(set(selects)) == sorted(layers) and len(set(selects)) == len(selects)
    for action in offered:
        state.check(state.parse_action(action))
    # a layer holds only actions that start with its key
    for layer in root.iter(SVG + "g"):
        key = layer.attrib.get("data-layer")
        if key is not None:
            inside = actions_in(layer)
            assert inside and all(a.startswith(key + " ") for a in inside)
    assert root.attrib["data-clickable"] == "true"


#: The random games whose every position is checked for every viewer.
SEEDS = EVERY_STEP_SEEDS


def options_for(seed: int) -> dict[str, object]:
    """Half the games give red the queen (ruling RC-consorts)."""
    return {"consort": "queen"} if seed % 2 else {}


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_is_exactly_one_data_action_in_random_games(seed: int) -> None:
    """Over a whole random game, for the seat to act and a spectator the data-action values are
    exactly the legal actions; for the other seat nothing is clickable. Each game goes through
    every step (first, play, an ability's target, place, move, over); the next test shows that
    these games together offer every verb of the notation, pass included."""
    steps: set[str] = set()
    for state in random_game(seed, **options_for(seed)):
        steps.add(PHASES[state.phase])
        viewers: list[int | None] = [None, 0, 1]
        for viewer in viewers:
            check_document(state, parse(state, viewer), viewer)
    assert steps == set(PHASES)


def test_the_random_games_reach_every_kind_of_action() -> None:
    """The games above go through every verb of the notation (the Joker's ``pass`` too), so their
    check covers each way an action is offered; a few more games are checked for a spectator."""
    kinds: set[str] = set()
    for seed in SEEDS:
        for state in random_game(seed, **options_for(seed)):
            kinds.update(t.split()[0] for t in texts(state))
    verbs = {"first", "play", "remove", "return", "swap", "flip", "consort", "force", "place", "move", "pass"}
    assert kinds == set(act.SIGNATURES) == verbs
    for seed in range(13):
        for state in random_game(seed):
            if state.current_player >= 0:
                check_document(state, parse(state), None)


def test_each_zone_tile_opens_a_layer_with_its_squares() -> None:
    """Step 1: each tile of the zone carries data-select 'play Spy'; its layer holds one square per
    legal placement, 'play Spy x,y', hidden until selected."""
    state = build({"1,0": "blue Spy"})
    root = parse(state, 0)
    selects = {e.attrib["data-select"]: e for e in root.iter() if "data-select" in e.attrib}
    assert set(selects) == {f"play {n}" for n in ("Assassin", "Joker", "Spy", "Thief", "Bishop")} | {
        f"play {n}" for n in ("Captain", "Wizard", "Healer", "Diplomat", "Courtisan")
    }
    assert all(e.attrib["class"].startswith("zone-tile") for e in selects.values())
    layer = next(e for e in root.iter() if e.attrib.get("data-layer") == "play Spy")
    assert layer.attrib["display"] == "none"
    squares = {t.split()[-1] for t in texts(state) if t.startswith("play Spy ")}
    assert {a.split()[-1] for a in actions_in(layer)} == squares and len(squares) == 15


def test_a_forced_tile_shows_its_squares_at_once() -> None:
    """Under the Diplomat's force only one tile may be played: its layer is shown from the start."""
    state = build({"1,0": "blue Spy"})
    state.forced = (4, -1)  # red must play the Bishop
    state._legal = None
    root = parse(state, 0)
    layers = [e for e in root.iter() if "data-layer" in e.attrib]
    assert [e.attrib["data-layer"] for e in layers] == ["play Bishop"]
    assert layers[0].attrib["display"] == "inline"


def test_targets_are_clicked_directly_on_the_board_and_in_the_zone() -> None:
    """Step 2: the Assassin's targets are the opponent's active tiles in play (data-action on the
    tile); the Bishop's are the tiles of the opponent's zone."""
    state = build({"1,0": "blue Spy", "2,1": "blue Joker"}, inactive=["blue Joker"])
    run(state, "play Assassin 1,1")
    root = parse(state, 0)
    tiles = [e for e in root.iter() if e.attrib.get("data-action")]
    assert [(e.attrib["class"], e.attrib["data-action"]) for e in tiles] == [
        ("tile target clickable", "remove 1,0")
    ]
    state = build({"1,0": "blue Spy"})
    run(state, "play Bishop 1,1")
    root = parse(state, 0)
    zone = [e for e in root.iter() if "data-action" in e.attrib]
    assert {e.attrib["class"] for e in zone} == {"zone-tile target clickable"}
    assert all(e.attrib["data-seat"] == "blue" for e in zone)
    assert sorted(actions_in(root)) == sorted(texts(state))


def test_moves_and_pass() -> None:
    """Step 3: each tile that may move selects its layer 'move x,y'; after the Joker's first move
    the 'pass' button declines the second."""
    state = build({"1,0": "blue Spy"})
    run(state, "play Joker 1,1")
    root = parse(state, 0)
    assert {e.attrib["data-select"] for e in root.iter() if "data-select" in e.attrib} == {"move 1,1"}
    run(state, "move 1,1 2,1")
    root = parse(state, 0)
    assert "pass" in actions_in(root)
    check_document(state, root, 0)


def test_tiles_show_owner_archetype_and_side() -> None:
    """An active tile is solid with a banner, an inactive one pale with a token; each carries its
    owner, archetype and side; the king and queen are crowned and say whose consort they are."""
    state = build(
        {"0,1": "red Spy", "1,0": "blue Joker"},
        inactive=["blue Joker", "red Assassin"],
        removed=["blue Thief"],
        archetypes=FIRST_GUESS,
    )
    root = parse(state, 1)
    tiles = {e.attrib["data-pos"]: e for e in root.iter() if e.attrib.get("class", "").startswith("tile")}
    spy, joker = tiles["0,1"], tiles["1,0"]
    assert (spy.attrib["data-owner"], spy.attrib["data-archetype"], spy.attrib["data-side"]) == (
        "red",
        "Spy",
        "active",
    )
    assert (joker.attrib["data-owner"], joker.attrib["data-side"]) == ("blue", "inactive")

    def classes(e: ET.Element) -> set[str]:
        return {c.attrib.get("class", "") for c in e.iter()}

    assert "banner" in classes(spy) and "token" not in classes(spy)
    assert "token" in classes(joker) and "banner" not in classes(joker)
    assert "Sp" in "".join(spy.itertext()) and "2" in "".join(spy.itertext())
    royals = {e.attrib["data-piece"]: e for e in root.iter() if e.attrib.get("class", "").startswith("royal")}
    assert (
        royals["king"].attrib["data-consort-of"] == "red"
        and royals["queen"].attrib["data-consort-of"] == "blue"
    )
    assert all("crown" in classes(e) for e in royals.values())
    zone = [e for e in root.iter() if e.attrib.get("class", "").startswith("zone-tile")]
    assert {(e.attrib["data-seat"], e.attrib["data-archetype"], e.attrib["data-side"]) for e in zone} >= {
        ("red", "Assassin", "inactive"),
        ("blue", "Spy", "active"),
    }
    removed = [e for e in root.iter() if e.attrib.get("class") == "removed-tile"]
    assert [(e.attrib["data-seat"], e.attrib["data-archetype"]) for e in removed] == [("blue", "Thief")]
    seats = {
        e.attrib["data-seat"]: e.attrib["data-score"] for e in root.iter() if e.attrib.get("class") == "seat"
    }
    assert (
        seats
        == {"red": str(state.consort_score(0)), "blue": str(state.consort_score(1))}
        == {"red": "-1", "blue": "0"}
    )


def test_the_viewer_changes_the_labels_and_what_is_clickable() -> None:
    """Per viewer: '(you)' marks the viewer's seat; the other seat's picture offers nothing."""
    state = build({"1,0": "blue Spy"})
    red, blue, spectator = (render_svg(state, v) for v in (0, 1, None))
    assert "red (you)" in red and "blue (you)" not in red
    assert "blue (you)" in blue and 'data-viewer="blue"' in blue and "data-action" not in blue
    assert "(you)" not in spectator and 'data-viewer="spectator"' in spectator and "data-action" in spectator
    assert render_svg(state, 0) == red  # deterministic


def test_the_root_says_whose_turn_and_which_step() -> None:
    state = build({"1,0": "blue Spy"}, player=1)
    root = parse(state)
    assert (root.attrib["data-to-act"], root.attrib["data-step"], root.attrib["data-game"]) == (
        "blue",
        "play",
        "royal-court",
    )
    status = "".join(next(e for e in root.iter() if e.attrib.get("class") == "status").itertext())
    assert "blue to play a tile from the zone (step 1)" in status


def test_a_finished_game_shows_the_result_and_each_consorts_scoring() -> None:
    state = build({"0,1": "red Spy", "1,0": "blue Joker"}, inactive=["red Spy"], archetypes=FIRST_GUESS)
    state._finish("scored")
    root = parse(state, 0)
    assert root.attrib["data-to-act"] == "over" and root.attrib["data-clickable"] == "false"
    result = "".join(next(e for e in root.iter() if e.attrib.get("class") == "scoring").itertext())
    assert "a draw 0-0" in result and "red (king): +2+1 -3 = 0" in result
    state = last(5)
    assert state.is_terminal()
    text = render_svg(state)
    assert "End game" in text and "data-action" not in text


def test_png_export_of_a_finished_game(tmp_path: Path) -> None:
    """The project's PNG path (``regalia replay --png``) writes a picture of the last position."""
    try:
        importlib.import_module("cairosvg")  # a dev dependency: its absence fails the test
    except OSError:
        pytest.skip("the cairo C library is not installed")
    from typer.testing import CliRunner

    from regalia.cli import app

    state = last(2)
    record = tmp_path / "game.json"
    state.record().save(record)
    out = tmp_path / "final.png"
    result = CliRunner().invoke(app, ["replay", str(record), "--png", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_docs_picture_exists() -> None:
    assert (ROOT / "docs" / "images" / "royal-court-final.png").read_bytes()[:4] == b"\x89PNG"
