"""What both adapters derive from the core contract alone (regalia.rl.common): agent names, the
encoding a game declares, and the traits OpenSpiel's game type declares, measured on a toy game
without hidden information and on variants that hide something."""

from __future__ import annotations

from typing import Any

import pytest

from ai.toygame import ToyGame, ToyState
from regalia.core.errors import RegaliaError
from regalia.core.game import JSON, SPECTATOR
from regalia.core.registry import load_game
from regalia.rl.common import agent_names, decision_seats, game_traits, make_encoding


class Redacting(ToyState):
    """Takes are private: other seats read ``take ?``."""

    def redact(self, actor: int, action: Any, text: str, viewer: int | None) -> str:
        return text if viewer == actor else text.split()[0] + " ?"


class PrivateScores(ToyState):
    """Each seat sees only its own points."""

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        view = super().observation(viewer)
        view["points"] = [p if viewer == i else None for i, p in enumerate(view["points"])]
        return view


def toy(state_class: type[ToyState]) -> ToyGame:
    class Game(ToyGame):
        def initial_state(self) -> ToyState:
            return state_class(self)

    Game.__qualname__ = f"Toy{state_class.__name__}"
    return Game()


def test_a_game_that_hides_nothing() -> None:
    traits = game_traits(ToyGame())
    assert not traits.hidden_information and traits.zero_sum and traits.longest > 10


@pytest.mark.parametrize("state_class", [Redacting, PrivateScores])
def test_a_game_that_hides_something(state_class: type[ToyState]) -> None:
    assert game_traits(toy(state_class)).hidden_information


@pytest.mark.parametrize("game_id", ["two-heirs", "carcassonne", "royal-court"])
def test_the_shipped_games_hide_nothing_but_the_future(game_id: str) -> None:
    traits = game_traits(load_game(game_id))
    assert not traits.hidden_information and traits.zero_sum


def test_agent_names() -> None:
    assert agent_names(ToyGame()) == ["player_0", "player_1"]  # seats named "seat 1", "seat 2"
    assert agent_names(load_game("carcassonne", players=5))[-1] == "black_4"
    solo = load_game("two-heirs", solo=True)
    assert decision_seats(solo) == [0] and agent_names(solo) == ["player_0"]


def test_a_game_without_an_encoding_is_refused() -> None:
    with pytest.raises(RegaliaError, match="declares no encoding"):
        make_encoding(ToyGame())
