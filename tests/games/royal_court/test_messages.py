"""Royal Court messages and documents (issue 20, item 14): they name what the archetype data says,
not the shipped file's archetypes, and a removed tile is written with its side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalAction, PositionError
from regalia.games.royal_court.state import P_MOVE, RoyalCourtState

from .builders import build, piece_of, run

DATA = (
    Path(__file__).resolve().parents[3]
    / "src"
    / "regalia"
    / "games"
    / "royal_court"
    / "data"
    / "archetypes.json"
)


def _archetypes(tmp_path: Path, change: dict[str, dict[str, Any]]) -> str:
    """The shipped archetype file with some archetypes' fields changed, written to ``tmp_path``."""
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    for entry in doc["archetypes"]:
        entry.update(change.get(entry["name"], {}))
    path = tmp_path / "archetypes.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _pass_message(state: RoyalCourtState) -> str:
    with pytest.raises(IllegalAction, match=r"ruling RC-joker-optional") as caught:
        state.apply_text("pass")
    return str(caught.value)


def test_pass_names_the_archetype_that_grants_an_extra_move() -> None:
    """Ruling RC-joker-optional: only an extra move may be declined; the message names the
    archetype the data gives the extra move (the shipped file: the Joker)."""
    state = build({})
    assert "only an extra move may be declined (the Joker's ability)" in _pass_message(state)


def test_pass_with_an_archetype_file_without_a_joker_does_not_cite_the_joker(tmp_path: Path) -> None:
    renamed = _archetypes(tmp_path, {"Joker": {"name": "Jester", "abbr": "Je"}})
    message = _pass_message(build({}, archetypes=renamed))
    assert "the Jester's ability" in message and "Joker" not in message
    none = _archetypes(
        tmp_path,
        {"Joker": {"effects": [{"do": "block-next"}], "ability": "the opponent's next tile is blocked"}},
    )
    message = _pass_message(build({}, archetypes=none))
    assert "no archetype of this game grants one" in message and "Joker" not in message


def test_a_tile_without_an_ability_reports_no_ability_not_no_target(tmp_path: Path) -> None:
    """Gameplay 2 ("ACTIVE its ability (if possible)"): an archetype file may give a tile no
    effect; playing it reports ``last_play`` "no ability", not "no target"."""
    path = _archetypes(tmp_path, {"Joker": {"effects": [], "ability": "none"}})
    state = build({"1,1": "red Spy"}, archetypes=path)
    run(state, "play Joker 2,1")
    assert state.phase == P_MOVE
    assert state.to_json()["last_play"] == "no ability"
    described = state.game.plugin().describe(state, state.plies()[-1])
    assert "has no ability" in described and "activates" not in described
    shipped = build({"1,1": "red Spy"})  # the Assassin with no opponent tile in play: no target
    run(shipped, "play Assassin 2,1")
    assert shipped.to_json()["last_play"] == "no target"


def test_moving_the_king_says_that_the_royals_move_only_by_an_ability() -> None:
    """Gameplay 3 and ruling RC-royals-move: step 3 moves one of your tiles; the king and queen
    move only by an ability (the Wizard's, in the shipped file)."""
    state = build({"1,0": "blue Spy"}, started=(1,))
    run(state, "play Joker 2,1")
    with pytest.raises(IllegalAction) as caught:
        state.apply_text("move 0,0 -1,0")
    message = str(caught.value)
    assert "the king at 0,0 is not one of your tiles" in message
    assert "the king and queen move only by an ability (the Wizard's), never in step 3" in message
    with pytest.raises(IllegalAction, match=r"the queen at 3,0 .* only by an ability"):
        state.apply_text("move 3,0 3,1")
    with pytest.raises(IllegalAction, match=r"the tile at 1,0 is blue's: you move one of your own tiles"):
        state.apply_text("move 1,0 1,-1")
    with pytest.raises(IllegalAction, match=r"there is none of your tiles at 5,5"):
        state.apply_text("move 5,5 5,6")


def _removed_game() -> RoyalCourtState:
    """A game in which the Assassin removes an opponent tile (a state reached by actions, so its
    document replays)."""
    state = regalia.load_game("royal-court").new_state(seed=0)
    assert isinstance(state, RoyalCourtState)
    run(state, "first red", "play Spy 1,0", "move 1,0 1,1", "play Spy 2,0", "move 2,0 2,1")
    run(state, "play Assassin 1,0", "remove 2,1")
    return state


def test_a_removed_tile_is_written_with_its_side() -> None:
    state = _removed_game()
    blue_spy = piece_of(state.game, "blue Spy")
    assert state.removed >> blue_spy & 1
    doc = state.to_json()
    assert doc["removed"] == [[], [{"tile": "Spy", "active": state.is_active(blue_spy)}]]
    assert RoyalCourtState.from_json(state.game, doc).to_json() == doc


def test_a_document_with_removed_tiles_by_name_only_is_still_read() -> None:
    state = _removed_game()
    doc = state.to_json()
    old = {**doc, "removed": [[], ["Spy"]]}
    assert RoyalCourtState.from_json(state.game, old).to_json() == doc
    with pytest.raises(PositionError, match="field 'removed' disagrees"):
        RoyalCourtState.from_json(state.game, {**doc, "removed": [["Spy"], []]})
