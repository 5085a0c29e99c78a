"""The balance check (regalia.games.two_heirs.balance): structure of its figures, not their values."""

from __future__ import annotations

import json

import pytest

from regalia.core.errors import RegaliaError
from regalia.games.two_heirs import balance
from regalia.games.two_heirs.tiles import SET_BUILDINGS, SETS

SETS3 = ("warfare", "crafts", "guard")
SHARES = ("built_rate", "tile_built_rate", "winner_share", "win_rate_built", "win_rate_not_built")


@pytest.mark.parametrize("policy", balance.POLICIES)
def test_every_building_of_the_chosen_sets_appears_with_shares_in_0_1(policy: str) -> None:
    stats = balance.building_stats(3, seed=5, sets=SETS3, policy=policy)
    expected = [b for s in SETS3 for b in SET_BUILDINGS[s]]
    assert [s.building for s in stats] == expected
    for s in stats:
        assert s.games == 3
        assert s.built == 0 or s.held > 0  # a building is built from a hand
        for field in SHARES:
            value = getattr(s, field)
            assert value is None or 0.0 <= value <= 1.0, (s.building, field, value)
        assert s.mean_points >= 0 and s.points_per_cost >= 0
        if s.building in balance.NON_SCORING:
            assert s.ppc_vs_set_median is None and s.ppc_vs_others is None


def test_the_figures_depend_only_on_the_arguments() -> None:
    a = balance.building_stats(2, seed=11, sets=SETS3)
    b = balance.building_stats(2, seed=11, sets=SETS3)
    assert a == b


def test_games_cycle_through_every_combination_of_three_sets() -> None:
    assert len(balance.set_combinations(SETS)) == 20
    stats = balance.building_stats(4, seed=2, sets=("wandering", "dominion", "warfare", "guard"))
    assert {s.set for s in stats} == {"wandering", "dominion", "warfare", "guard"}
    # four sets give four combinations, each set is in three of them
    assert {s.games for s in stats} == {3}


def test_bad_arguments_are_named() -> None:
    with pytest.raises(RegaliaError, match="unknown set 'nope'"):
        balance.building_stats(1, seed=1, sets=("nope", "crafts", "guard"))
    with pytest.raises(RegaliaError, match="at least 3"):
        balance.building_stats(1, seed=1, sets=("crafts", "guard"))
    with pytest.raises(RegaliaError, match="unknown policy"):
        balance.building_stats(1, seed=1, sets=SETS3, policy="clever")


def test_the_entry_point_prints_json_and_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert balance.main(["--games", "1", "--sets", ",".join(SETS3), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {b["building"] for b in doc["buildings"]} == {b for s in SETS3 for b in SET_BUILDINGS[s]}
    assert balance.main(["--games", "1", "--sets", ",".join(SETS3), "--policy", "random"]) == 0
    table = capsys.readouterr().out
    assert "guardhouse" in table and "built%" in table
