"""The conformance kit: every registered game passes it, and it catches games that break the contract."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from ai.toygame import ToyGame, ToyState
from ai.toygame import register as register_toy
from regalia.cli import app
from regalia.core.game import JSON, SPECTATOR
from regalia.core.registry import GAMES, game_ids
from regalia.testing import CHECKS, ConformanceError, check_game, option_sets

CASES = [(g, dict(opts)) for g in game_ids() for opts in option_sets(g)]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[f"{g}-{json.dumps(o)}" for g, o in CASES])
def test_every_registered_game_passes_the_kit(game_id: str, options: dict[str, Any]) -> None:
    """Core contract: a registered game passes the conformance kit with each option set its plugin
    lists, before anything else is claimed for it."""
    report = check_game(game_id, games=3, seed=17, **options)
    report.raise_if_failed()
    for name in ("termination", "notation", "chance", "json", "records", "views", "illegal"):
        assert name in report.passed, report.summary()


@pytest.fixture
def toy_registered() -> Any:
    """The toy game (and test variants) registered by id for the duration of a test."""
    saved = dict(GAMES)
    register_toy()
    yield
    GAMES.clear()
    GAMES.update(saved)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_toy_game_passes_with_any_number_of_seats(toy_registered: Any, players: int) -> None:
    report = check_game("toy-market", games=4, seed=1, players=players)
    report.raise_if_failed()
    assert set(report.passed) >= {"termination", "chance", "records", "views", "clone"}


# -- broken games: each breaks one promise, and the kit names it -------------------------------------


class BadNotation(ToyState):
    def notation(self, action: str) -> str:
        return action.upper()  # parse_action does not read it back


class BadChance(ToyState):
    def chance_outcomes(self) -> list[tuple[str, float]]:
        return [(a, p * 0.9) for a, p in super().chance_outcomes()]


class SharedClone(ToyState):
    def clone(self) -> Any:
        other = super().clone()
        other.points = self.points  # shared with the original
        return other


class LeakyView(ToyState):
    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        doc = super().observation(viewer)
        if self.current_player >= 0 and sum(self.deck):
            doc["next_draw"] = f"{self._chance_rng().random():.6f}"  # follows the seed
        return doc


class LaxChecks(ToyState):
    def check(self, action: str) -> None:
        if action != "end":
            super().check(action)  # "end" is accepted even where it is not legal


class ForgetfulJson(ToyState):
    def to_json(self) -> JSON:
        doc = super().to_json()
        doc["points"] = [0] * len(self.points)
        return doc


class SeedyEnd(ToyState):
    def _apply(self, action: str) -> None:
        super()._apply(action)
        if action == "end":  # a bonus drawn from the seed, which the record does not hold
            self.points[self.player] += self._chance_rng().randrange(1, 4)


class OffByOnePick(ToyState):
    def uniform_action(self, u: float) -> str:
        legal = self.legal_actions()
        return legal[(int(u * len(legal)) + 1) % len(legal)]  # not the action the draw names


class WildPolicy(ToyState):
    def policy_action(self, rng: Any) -> str:
        return "end"  # whether or not it is legal here


class SelfishHeuristic(ToyState):
    def evaluate(self, seat: int) -> float:
        return float(self.points[seat])  # one's own points: not zero-sum, which the game claims


BROKEN = [
    (SelfishHeuristic, "heuristics"),
    (OffByOnePick, "uniform"),
    (WildPolicy, "policy"),
    (BadNotation, "notation"),
    (SeedyEnd, "records"),
    (BadChance, "chance"),
    (SharedClone, "clone"),
    (LeakyView, "views"),
    (LaxChecks, "illegal"),
    (ForgetfulJson, "json"),
]


@pytest.mark.parametrize(("state_class", "check"), BROKEN, ids=[c.__name__ for c, _ in BROKEN])
def test_the_kit_catches_a_broken_game(toy_registered: Any, state_class: type[ToyState], check: str) -> None:
    class Broken(ToyGame):
        def zero_sum_heuristics(self) -> bool:
            return True  # true of the toy's own heuristics (score leads), not of SelfishHeuristic's

        def initial_state(self) -> ToyState:
            return state_class(self)

        def state_from_json(self, doc: JSON) -> ToyState:
            state = super().state_from_json(doc)
            broken = state_class(self)
            broken.__dict__.update(state.__dict__)
            return broken

    GAMES["toy-market"] = f"{__name__}:_Current"
    globals()["_Current"] = Broken
    report = check_game("toy-market", games=2, seed=3)
    assert check in report.failures, report.summary()
    with pytest.raises(ConformanceError, match=check):
        report.raise_if_failed()


def test_regalia_check_command(toy_registered: Any) -> None:
    result = CliRunner().invoke(app, ["check", "toy-market", "--games", "2", "-o", "players=3"])
    assert result.exit_code == 0, result.output
    assert "checks passed" in result.output
    result = CliRunner().invoke(app, ["check", "toy-market", "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.output)
    assert reports[0]["ok"] is True and set(reports[0]["passed"]) <= set(CHECKS)
    result = CliRunner().invoke(app, ["check", "no-such-game"])
    assert result.exit_code == 2 and "valid games" in result.stderr
