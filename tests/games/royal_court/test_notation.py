"""Notation: every action reads back; malformed text and illegal actions are refused with the rule
named, and refusing changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

import regalia
from regalia.core.errors import IllegalAction, NotationError

from .builders import build, run

NAMES = regalia.load_game("royal-court").archetypes


@pytest.mark.parametrize(
    "text",
    [
        "first red",
        "first blue",
        "play Assassin 1,1",
        "remove 2,-1",
        "return 0,3",
        "swap 1,1",
        "flip Spy",
        "flip 2,1",
        "consort 0,0 0,1",
        "force Courtisan",
        "place Healer -3,2",
        "move 2,1 3,2",
        "pass",
    ],
)
def test_notation_round_trips(text: str) -> None:
    """Every kind of action is written as it is read."""
    state = regalia.load_game("royal-court").new_state(seed=1)
    assert state.notation(state.parse_action(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("jump 1,1", "unknown action 'jump'"),
        ("play Ninja 1,1", "no archetype 'Ninja'"),
        ("play Spy", "expected 'play ARCHETYPE X,Y'"),
        ("move 1 2", "'1' is not a square"),
        ("first green", "'green' is not a seat"),
    ],
)
def test_malformed_text_is_a_notation_error(text: str, message: str) -> None:
    """Malformed text raises NotationError saying what is wrong."""
    state = regalia.load_game("royal-court").new_state(seed=1)
    with pytest.raises(NotationError, match=message):
        state.parse_action(text)


@pytest.mark.parametrize(
    ("moves", "text", "rule"),
    [
        ((), "move 0,1 0,2", "Gameplay 1"),
        ((), "play Spy 7,7", "Gameplay 1"),
        ((), "first blue", "Gameplay"),
        ((), "pass", "ruling RC-joker-optional"),
        (("play Spy 1,1",), "remove 1,0", "Gameplay 2"),
        (("play Spy 1,1",), "swap 0,0", "Spy"),
        (("play Captain 1,1", "place Spy 1,2"), "move 5,5 5,6", "Gameplay 3"),
    ],
)
def test_illegal_actions_cite_the_rule_and_change_nothing(
    moves: tuple[str, ...], text: str, rule: str
) -> None:
    """An illegal action raises IllegalAction naming the rule in brackets; the state is unchanged."""
    state = build({"1,0": "blue Joker"})
    run(state, *moves)
    before = (state.to_json(), state.ply)
    with pytest.raises(IllegalAction) as info:
        state.apply_text(text)
    assert info.value.rule == rule and f"[{rule}]" in str(info.value)
    assert (state.to_json(), state.ply) == before


def test_actions_of_a_finished_game_are_refused() -> None:
    """End game: nothing is played after the end."""
    state = build({"0,1": "red Spy"})
    state._finish("scored")
    with pytest.raises(IllegalAction, match=r"the game is over \[End game\]"):
        state.apply_text("play Joker 1,1")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(colour="red"), "unknown field 'colour'"),
        (lambda d: d.update(turn=99), "field 'turn' disagrees with the history"),
        (lambda d: d.pop("turn"), "field 'turn' is missing"),
        (lambda d: d["history"].append([0, "move 9,9 9,8"]), r"field 'history\[\d+\]': "),
        (lambda d: d.pop("history"), "field 'history' is missing"),
    ],
)
def test_a_bad_state_document_names_its_field(change: Any, message: str) -> None:
    """A state document is its history plus the position it reaches: a field the state does not
    write, one that disagrees with the history, a missing one or an illegal ply is named, and the
    document is refused (PositionError)."""
    import copy

    from regalia.core.errors import PositionError

    state = regalia.load_game("royal-court").new_state(seed=3)
    for text in ("first red", "play Spy 1,1", "move 1,1 2,1"):
        state.apply_text(text)
    doc = copy.deepcopy(state.to_json())
    assert state.game.state_from_json(copy.deepcopy(doc)).to_json() == doc
    change(doc)
    with pytest.raises(PositionError, match=message):
        state.game.state_from_json(doc)
