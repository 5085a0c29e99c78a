"""Rulings read again (issue 20, items 17 and 18): RC-joker-purpose with the archetype list as first
posted, and RC-turn-cap as an option that a capped game's result names."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.core.errors import IllegalAction
from regalia.games.royal_court.state import P_MOVE, RoyalCourtState

from .builders import at, build, piece_of, run, texts

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "src" / "regalia" / "games" / "royal_court" / "data" / "archetypes.json"


def _ruling(slug: str) -> str:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    return " ".join(text.split(f"## {slug}:", 1)[1].split("\n## ", 1)[0].split())


# -- RC-joker-purpose ------------------------------------------------------------------------------
def test_the_joker_sends_no_tile_back_under_the_rules_text() -> None:
    """Ruling RC-joker-purpose (Gameplay 3): "...or when you want to remove an opponent tile as
    well" is the first-posted Joker's send-back, which the rules text replaced by the extra move:
    the clause does not apply. After the Joker no remove and no return is legal; every opponent
    tile in play stays on its square, active, and no tile goes back to a zone."""
    state = build({"1,1": "red Spy", "1,0": "blue Spy", "4,0": "blue Assassin"})
    zones_before = state.zone
    run(state, "play Joker 2,1")
    assert state.phase == P_MOVE
    for words in ("remove 1,0", "return 1,0", "return 4,0"):
        with pytest.raises(IllegalAction, match=r"\[Gameplay 3\]"):
            state.apply_text(words)
    run(state, "move 1,1 0,1")
    assert {t.split()[0] for t in texts(state)} == {"move", "pass"}
    run(state, "pass")
    for square, name in (("1,0", "blue Spy"), ("4,0", "blue Assassin")):
        assert at(state, square) == name and state.is_active(piece_of(state.game, name))
    joker = piece_of(state.game, "red Joker")
    assert state.zone == zones_before & ~(1 << joker) and state.removed == 0
    ruling = _ruling("RC-joker-purpose")
    assert "send one opponent tile in play back to its owner's activation zone" in ruling
    assert "the clause does not apply" in ruling and "rules text wins" in ruling


def test_the_first_posted_joker_can_be_played_as_an_archetype_file(tmp_path: Path) -> None:
    """Ruling RC-joker-purpose: the first-posted Joker (an extra move and a send-back) is data, not
    a reading of the rules text: an archetype file gives it to whoever wants it."""
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    joker = next(a for a in doc["archetypes"] if a["name"] == "Joker")
    joker["ability"] = "send one opponent's active tile in play back to its zone, then move one more time"
    joker["effects"] = [{"do": "return", "target": "opponent-active-in-play"}, {"do": "extra-move"}]
    path = tmp_path / "first-posted.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    state = build({"1,1": "red Spy", "1,0": "blue Spy"}, archetypes=str(path))
    run(state, "play Joker 2,1")
    assert texts(state) == ["return 1,0"]
    run(state, "return 1,0")
    blue_spy = piece_of(state.game, "blue Spy")
    assert state.at[blue_spy] is None and state.zone >> blue_spy & 1
    assert state.phase == P_MOVE


# -- RC-turn-cap -----------------------------------------------------------------------------------
def _play_out(state: RoyalCourtState, seed: int) -> RoyalCourtState:
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_turn_cap_is_an_option_shown_with_its_type(tmp_path: Path) -> None:
    """Ruling RC-turn-cap: the cap is the option ``turn_cap`` (an integer, 10 to 1000, default 60),
    listed by ``regalia games`` with its type and bounds and by ``GET /api/games`` (the lobby's form
    is built from it), and set as text or as a number."""
    result = CliRunner().invoke(app, ["games", "royal-court", "--json"])
    assert result.exit_code == 0, result.output
    (doc,) = json.loads(result.output)
    (cap,) = [o for o in doc["options"] if o["name"] == "turn_cap"]
    assert (cap["type"], cap["default"], cap["minimum"], cap["maximum"]) == ("int", 60, 10, 1000)
    shown = CliRunner().invoke(app, ["games", "royal-court"], env={"COLUMNS": "160"}).output
    row = next(line for line in shown.splitlines() if "turn_cap" in line)
    assert [c.strip() for c in row.split("│")[1:5]] == ["turn_cap", "int", "60", "10 to 1000"]
    for value in (12, "12"):
        assert regalia.load_game("royal-court", turn_cap=value).options.turn_cap == 12
    ruling = _ruling("RC-turn-cap")
    assert "option `turn_cap`" in ruling and "regalia games royal-court" in ruling
    server = pytest.importorskip("regalia.server.app")
    testclient = pytest.importorskip("fastapi.testclient")
    with testclient.TestClient(server.create_app(f"sqlite:///{tmp_path / 'cap.db'}")) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
    assert any(o["name"] == "turn_cap" and o["type"] == "int" for o in games["royal-court"]["options"])


def test_a_game_ended_by_the_cap_says_so() -> None:
    """Ruling RC-turn-cap: a capped game's ``ending`` is ``cap`` and its result says "the turn cap
    is reached", in the terminal, the browser's Result panel and the SVG; a game whose tiles were
    all played says "every tile is played" instead."""
    game = regalia.load_game("royal-court", turn_cap=10)
    plugin = game.plugin()
    capped = _play_out(game.new_state(seed=1), seed=1)
    assert isinstance(capped, RoyalCourtState)
    assert capped.ending == "cap" and capped.turn == 10 and capped.zone
    assert capped.observation()["ending"] == "cap"
    result_text = _plain(plugin.render_result(capped))
    assert "the turn cap is reached (ruling RC-turn-cap)" in result_text
    panel = next(s for s in plugin.panels(capped, None)["sections"] if s["id"] == "result")
    assert "the turn cap is reached" in panel["text"]
    assert "the turn cap is reached" in plugin.render_svg(capped, None)
    long = regalia.load_game("royal-court", turn_cap=1000)
    for seed in range(20):
        state = _play_out(long.new_state(seed=seed), seed=seed)
        assert isinstance(state, RoyalCourtState)
        if state.ending == "scored":
            text = _plain(long.plugin().render_result(state))
            assert "every tile is played" in text and "cap" not in text
            break
    else:
        pytest.fail("no random game played every tile")


def _plain(renderable: Any) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return re.sub(r"\s+", " ", console.export_text())
