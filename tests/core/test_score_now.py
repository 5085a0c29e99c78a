"""``State.score_now()``: a game ended early and scored by its end-of-game scoring (issue 20,
item 13; docs/contract.md, "Seats, chance and the end")."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import regalia
from regalia.core.game import State
from regalia.games.carcassonne.base import PH_FOLLOWER
from regalia.games.carcassonne.calculator import (
    parse_position,
    position_of_state,
    score_position,
    score_state,
)


def _walk(state: State[Any], seed: int, plies: int | None = None) -> list[Any]:
    """The states of one random game from ``state`` (chance included), each a clone."""
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal() and (plies is None or len(out) <= plies):
        state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


def _without_follower(state: Any) -> Any:
    return next(a for a in state.legal_actions() if not a.feature)


def test_carcassonne_score_now_is_the_final_scoring_of_the_board_as_it_lies() -> None:
    """Final scoring: a road 1 per tile, a city 1 per tile and pennant, a cloister or shrine 1 per
    tile of its block, a field 3 per completed city; in the middle of a turn the features the tile
    just laid completed are scored as the turn would score them without a follower."""
    game = regalia.load_game("carcassonne", players=3, shrines=6)
    states = _walk(game.new_state(seed=3), seed=3)
    assert states[-1].is_terminal()
    mid_turn = 0
    for state in states[:-1]:
        before = json.dumps(state.to_json(), sort_keys=True)
        now = state.score_now()
        assert json.dumps(state.to_json(), sort_keys=True) == before, "score_now changed the state"
        if state.phase == PH_FOLLOWER:
            mid_turn += 1
            after = state.clone()
            after.apply(_without_follower(after))
            expected = after.scores() if after.is_terminal() else after.score_now()
            assert now == expected
        else:
            assert now == list(score_position(parse_position(position_of_state(state))).totals)
        assert all(n >= s for n, s in zip(now, state.scores(), strict=True))
    assert mid_turn > 50
    last = states[-1]
    assert last.score_now() == last.scores()


def test_carcassonne_score_now_before_the_last_tile_equals_the_game_end_without_it() -> None:
    game = regalia.load_game("carcassonne")
    states = _walk(game.new_state(seed=5), seed=5)
    penultimate = states[-2]
    assert penultimate.phase == PH_FOLLOWER  # the last tile is laid, its follower to choose
    final = penultimate.clone()
    final.apply(_without_follower(final))
    assert final.is_terminal() and penultimate.score_now() == final.scores()


def test_carcassonne_score_state_gives_the_breakdown() -> None:
    state: Any = regalia.load_game("carcassonne").new_state()
    for text in ("draw U", "place U 1,0 0", "follower road E"):
        state.apply_text(text)
    result = score_state(state)
    assert [(f.kind, f.points, f.detail) for f in result.features] == [("road", 2, "2 tiles × 1")]
    assert result.to_json()["players"][0]["total"] == 2
    assert regalia.load_game("carcassonne").plugin().calculator.score_state is score_state  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("game_id", "options"), [("royal-court", {}), ("two-heirs", {}), ("two-heirs", {"solo": True})]
)
def test_other_games_score_now_as_they_already_count_the_end(game_id: str, options: dict[str, Any]) -> None:
    """Royal Court: End game 2 (the consort scores), as the turn cap scores; The Two Heirs: the
    buildings on the board ("Scoring"), which ``scores()`` already counts at any time."""
    game = regalia.load_game(game_id, **options)
    for state in _walk(game.new_state(seed=2), seed=2)[::7]:
        before = json.dumps(state.to_json(), sort_keys=True)
        assert state.score_now() == state.scores()
        assert json.dumps(state.to_json(), sort_keys=True) == before


def test_royal_court_score_now_is_what_the_turn_cap_scores() -> None:
    """Ruling RC-turn-cap: the game capped is scored by End game 2, the score_now of any turn."""
    game = regalia.load_game("royal-court", turn_cap=10)
    states = _walk(game.new_state(seed=4), seed=4)
    last = states[-1]
    assert last.is_terminal() and last.ending == "cap"
    assert last.scores() == last.score_now() == [last.consort_score(0), last.consort_score(1)]
