"""The AI hooks of Intrigue in the Royal Court: ``evaluate``, the statistics hook of
``regalia balance royal-court`` and the balance command's ``--archetypes FILE``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.games.royal_court.state import RoyalCourtState
from regalia.games.royal_court.stats import EARLY, game_statistics
from regalia.lab.balance import run_balance

from .builders import build

SHIPPED = Path(regalia.__file__).parent / "games" / "royal_court" / "data" / "archetypes.json"


# -- evaluate ------------------------------------------------------------------------------------


def test_evaluate_is_antisymmetric_and_zero_at_the_start() -> None:
    state = build({})
    assert state.evaluate(0) == pytest.approx(0.0)
    state = build({"0,1": "red Bishop", "4,0": "blue Spy"})
    assert state.evaluate(0) == pytest.approx(-state.evaluate(1))


def _influence(state: RoyalCourtState, name: str) -> int:
    return state.game.archetypes.by_name[name.lower()].influence


def test_evaluate_prefers_the_side_whose_consort_scores_more() -> None:
    # red's Bishop beside the king, blue's Thief beside the queen (shipped values: Bishop higher)
    state = build({"0,1": "red Bishop", "3,1": "blue Thief"})
    assert state.scores() == [_influence(state, "Bishop"), _influence(state, "Thief")]
    assert state.scores()[0] > state.scores()[1]
    assert state.evaluate(0) > 0 > state.evaluate(1)


def test_evaluate_counts_an_opponent_tile_beside_your_consort_against_you() -> None:
    alone = build({"0,1": "red Joker"})
    intruded = build({"0,1": "red Joker", "1,0": "blue Bishop"})
    assert intruded.scores()[0] == alone.scores()[0] - _influence(alone, "Bishop")
    assert intruded.evaluate(0) < alone.evaluate(0)


def test_evaluate_rewards_progress_towards_a_surround_beyond_the_score() -> None:
    # beyond the score lead, three tiles beside the king count more than one
    three = build({"0,1": "red Assassin", "1,0": "red Thief", "0,-1": "red Spy"}, player=1)
    one = build({"0,1": "red Bishop"}, player=1)

    def beyond_score(state: RoyalCourtState) -> float:
        a, b = state.scores()
        return state.evaluate(0) - (a - b)

    assert beyond_score(three) > beyond_score(one) > 0
    # and a blue tile beside the king spoils the surround's progress
    spoilt = build({"0,1": "red Assassin", "1,0": "red Thief", "0,-1": "blue Spy"}, player=1)
    assert beyond_score(spoilt) < beyond_score(three)


def test_evaluate_values_inactive_tiles_beside_the_consort_as_safe() -> None:
    board = {"0,1": "red Assassin", "1,0": "red Thief"}
    active = build(board)
    safe = build(board, inactive=["red Assassin"])
    assert safe.evaluate(0) > active.evaluate(0)


def test_evaluate_counts_a_pending_courtisan_block_against_the_blocked_player() -> None:
    state = build({"0,1": "red Joker"})
    before = state.evaluate(0)
    state.blocked = 1 << 0
    assert state.evaluate(0) < before


def test_evaluate_of_a_finished_game_is_its_result() -> None:
    state = build({"0,1": "red Joker", "1,0": "red Bishop", "-1,0": "red Spy", "0,-1": "red Thief"})
    state._start_turn()  # red starts a turn with the king surrounded: outright victory
    assert state.is_terminal() and state.ending == "surround"
    assert state.evaluate(0) == 100.0 and state.evaluate(1) == -100.0


def test_greedy_beats_random() -> None:
    from regalia.lab import run_arena

    result = run_arena("royal-court", "greedy,random", games=10, seed=2, progress=False)
    greedy = result.summaries()[0]
    assert greedy.wins >= 9


# -- the statistics hook -----------------------------------------------------------------------


def _random_game(seed: int) -> RoyalCourtState:
    state = regalia.load_game("royal-court").new_state(seed=seed)
    assert isinstance(state, RoyalCourtState)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(8))
def test_statistics_agree_with_the_game_played(seed: int) -> None:
    state = _random_game(seed)
    names = [a.name for a in state.game.archetypes.archetypes]
    stats = game_statistics(state)
    plays: list[list[str]] = [[], []]
    for player, action in state.actors():
        if action.kind in ("play", "place"):
            plays[player].append(names[action.arg])
    for seat, doc in enumerate(stats):
        assert doc["score"] == state.scores()[seat]
        assert doc["first"] == (state.first == seat)
        assert doc["outright"] == (state.ending == "surround")
        assert doc["outright-win"] == (state.ending == "surround" and state.winner_seat == seat)
        assert doc["turns"] == state.turn and doc["plies"] == state.ply
        assert doc["tiles-played"] == len(plays[seat])
        assert doc["abilities"] == sum(doc[f"fired:{n}"] for n in names)
        for n in names:
            assert doc[f"held:{n}"] == 1
            assert doc[f"built:{n}"] == plays[seat].count(n)
            assert doc[f"fired:{n}"] <= doc[f"built:{n}"]
            assert doc[f"early:{n}"] == (n in plays[seat][:EARLY])
        # the first tile of each player never activates (Gameplay 1)
        assert doc["abilities"] <= len(plays[seat]) - 1
        assert sum(doc[f"early:{n}"] for n in names) == min(EARLY, len(set(plays[seat][:EARLY])))
        if state.ending != "surround":
            assert sum(doc[f"points:{n}"] for n in names) >= doc["score"]


def test_statistics_count_an_ability_that_fired() -> None:
    state = regalia.load_game("royal-court").new_state(seed=1)
    for text in ("first red", "play Spy 1,1", "move 1,1 1,0", "play Joker 4,0", "move 4,0 4,1"):
        state.apply_text(text)
    state.apply_text("play Assassin 2,1")
    state.apply_text("remove 4,1")
    stats = _finish(state)
    # the Assassin's ability is the only one that removes: each time it fired there is one
    # remove in the record (it may fire again if returned and played later), for either seat
    removes = [0, 0]
    for player, action in state.actors():
        if action.kind == "remove":
            removes[player] += 1
    assert removes[0] >= 1
    assert [doc["fired:Assassin"] for doc in stats] == [float(n) for n in removes]
    assert stats[0]["built:Spy"] >= 1


def _finish(state: RoyalCourtState) -> list[dict[str, float]]:
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return game_statistics(state)


def test_balance_counts_the_first_seat_and_the_endings() -> None:
    result = run_balance("royal-court", "random", games=6, seed=4, progress=False)
    group = result.groups[0]
    assert group.seat_games == 12
    assert group.statistic("first").present == 6
    outright = sum(r.statistics[0]["outright"] for r in result.results if r.statistics)
    assert group.statistic("outright").present == 2 * outright


# -- --archetypes FILE --------------------------------------------------------------------------


def test_balance_archetypes_flag_reaches_the_game(tmp_path: Path) -> None:
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    for a in doc["archetypes"]:
        a["influence"] = 9
    mine = tmp_path / "nines.json"
    mine.write_text(json.dumps(doc), encoding="utf-8")
    report = tmp_path / "report"
    args = ["balance", "royal-court", "--archetypes", str(mine), "-n", "8", "-w", "1", "-a", "random"]
    run = CliRunner().invoke(app, [*args, "--json", "--no-progress", "--report", str(report)])
    assert run.exit_code == 0, run.output
    out = json.loads(run.stdout)
    assert out["options"]["archetypes"] == str(mine)
    stats = {s["key"]: s for s in out["groups"][0]["statistics"]}
    # every tile beside its own consort counts 9 (10 if inactive), not the shipped values
    points = [s["mean_present"] for k, s in stats.items() if k.startswith("points:") and s["present"]]
    assert points and all(9 <= p <= 10 for p in points)
    assert (report / "report.md").read_text(encoding="utf-8").startswith("# Balance: royal-court")
    assert (report / "lengths.png").exists()


def test_balance_archetypes_flag_rejects_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    run = CliRunner().invoke(
        app, ["balance", "royal-court", "--archetypes", str(bad), "-n", "2", "-w", "1", "--no-progress"]
    )
    assert run.exit_code == 2
    assert "error" in run.output
