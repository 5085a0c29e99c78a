"""``--pairs``: each seed once per rotation of the seats (in a solo game: once per agent); pair and
deal outcomes; SPRT in the arena; the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ai.toygame import ToyGame
from regalia.core.registry import game_ids
from regalia.lab import LabError, run_arena
from regalia.lab.arena import ArenaResult, head_to_head
from regalia.lab.cli import app
from regalia.lab.play import GameResult
from regalia.lab.sprt import SprtSpec

runner = CliRunner()


def test_pairs_play_each_seed_with_seats_swapped() -> None:
    result = run_arena(ToyGame(cards=10), ["greedy", "random"], games=6, seed=3, pairs=True, progress=False)
    assert result.games == 6 and result.pentanomial
    assert [r.agents for r in result.results] == [(0, 1), (1, 0)] * 3
    seeds = [r.seed for r in result.results]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[4] == seeds[5]
    assert len(set(seeds)) == 3
    # the pair outcomes count pairs, and add up with the games
    counts = result.counts()
    assert sum(counts) == 3
    doc = result.to_json()
    h2h = doc["head_to_head"]
    assert h2h["model"] == "pentanomial" and sum(h2h["pairs"].values()) == 3
    assert set(h2h["pairs"]) == {"LL", "LD", "DD/WL", "WD", "WW"}
    assert h2h["wins"] + h2h["draws"] + h2h["losses"] == 6
    assert h2h["tested"] == "greedy" and h2h["baseline"] == "random"
    json.dumps(doc)


def test_pairs_round_games_up_to_whole_pairs() -> None:
    result = run_arena(ToyGame(), ["random", "random"], games=5, pairs=True, progress=False)
    assert result.games == 6


def test_a_seat_that_always_wins_gives_even_pairs() -> None:
    """Seat 0 always wins: every pair is one win and one loss, so Elo 0 with no spread."""
    result = run_arena(ToyGame(outcome="first"), ["greedy", "random"], games=10, pairs=True, progress=False)
    assert result.counts() == [0, 0, 5, 0, 0]
    est = result.estimate()
    assert est is not None and est.elo == 0.0 and est.stderr == 0.0 and est.los == 0.5
    # single games see 5 wins and 5 losses, with a wide interval
    single = run_arena(ToyGame(outcome="first"), ["greedy", "random"], games=10, progress=False)
    one = single.estimate()
    assert one is not None and one.elo == 0.0 and one.elo_low < -100


def test_three_seats_play_every_rotation() -> None:
    result = run_arena(
        ToyGame(players=3), ["random", "greedy", "random"], games=6, pairs=True, progress=False
    )
    assert [r.agents for r in result.results] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)] * 2
    assert len({r.seed for r in result.results[:3]}) == 1 and result.results[0].seed != result.results[3].seed
    assert not result.pentanomial and result.to_json()["head_to_head"]["model"] == "trinomial"


def test_pairs_reproducible_whatever_the_workers() -> None:
    game = ToyGame(cards=10)
    one = run_arena(game, ["mcts:iterations=5", "greedy"], games=8, seed=4, pairs=True, progress=False)
    two = run_arena(
        game, ["mcts:iterations=5", "greedy"], games=8, seed=4, pairs=True, workers=2, progress=False
    )
    assert one.outcomes() == two.outcomes() and one.counts() == two.counts()


def test_sprt_in_the_arena_stops_when_it_decides() -> None:
    game = ToyGame(cards=15)
    result = run_arena(
        game, ["greedy", "random"], games=400, pairs=True, sprt="elo0=0,elo1=100", progress=False
    )
    assert result.sprt is not None and result.sprt.decision == "H1"
    assert result.games < 400 and result.games == 2 * result.sprt.units
    assert result.played == result.games  # one worker: no game is played past the decision
    assert "H1 accepted: greedy is stronger than random by at least 100 Elo" in result.format()
    doc = result.to_json()["sprt"]
    assert doc["decision"] == "H1" and doc["llr"] >= doc["upper"] and doc["unit"] == "pair"
    # the other way round: H0
    back = run_arena(game, ["random", "greedy"], games=400, sprt=SprtSpec(0, 100), progress=False)
    assert back.sprt is not None and back.sprt.decision == "H0" and back.to_json()["sprt"]["unit"] == "game"
    # the same decision whatever the workers (the games past it are left out)
    two = run_arena(
        game, ["greedy", "random"], games=400, pairs=True, sprt="elo0=0,elo1=100", workers=2, progress=False
    )
    assert two.outcomes() == result.outcomes()


def test_sprt_inconclusive_at_the_cap() -> None:
    result = run_arena(
        ToyGame(outcome="draw"), ["greedy", "random"], games=6, sprt="elo0=0,elo1=10", progress=False
    )
    assert result.sprt is not None and result.sprt.decision == "" and result.games == 6
    assert "inconclusive at the cap of 6 games" in result.format()


def test_sprt_needs_two_agents() -> None:
    with pytest.raises(LabError, match="--sprt"):
        run_arena(
            "two-heirs", ["greedy"], games=2, sprt="elo0=0,elo1=10", options={"solo": True}, progress=False
        )


def _solo_game(index: int, agent: int, won: bool) -> GameResult:
    """A finished solo game of deal ``index // 2`` played by ``agent`` against an automaton (seat 1)."""
    result = 1.0 if won else -1.0
    return GameResult(
        index, 0, 100 + index // 2, (agent, -1), [0, 0], [result, -result], 10, [5, 0], [0.1, 0.0]
    )


def test_a_solo_deal_compares_each_agents_result_on_it() -> None:
    """In a solo game each agent plays the same deal: the first agent did better (2), the same
    (1) or worse (0) than the second; the head-to-head counts deals, not games."""
    assert head_to_head(_solo_game(0, 0, True), _solo_game(1, 1, False)) == 2
    assert head_to_head(_solo_game(0, 0, False), _solo_game(1, 1, False)) == 1
    assert head_to_head(_solo_game(0, 1, True), _solo_game(1, 0, False)) == 0
    wins = [(True, False), (True, True), (False, False), (True, False), (False, True)]
    games = [_solo_game(2 * k + i, i, won[i]) for k, won in enumerate(wins) for i in (0, 1)]
    result = ArenaResult("two-heirs", {}, ["a", "b"], ["a", "b"], 0, games, 2, pairs=True, deals=True)
    assert not result.pentanomial and result.counts() == [1, 2, 2]
    doc = result.to_json()
    assert doc["head_to_head"]["model"] == "trinomial"
    assert (doc["head_to_head"]["wins"], doc["head_to_head"]["draws"], doc["head_to_head"]["losses"]) == (
        2,
        2,
        1,
    )
    assert doc["wins"] == {"a": 3, "b": 2}  # each agent's games against the automaton
    assert "W/D/L 2/2/1, score 0.600 over 5 deals" in result.format()


@pytest.mark.skipif("two-heirs" not in game_ids(), reason="needs two-heirs")
def test_solo_pairs_play_each_deal_with_every_agent_and_test_deal_by_deal() -> None:
    """``--pairs`` in a solo game: each seed is played by each agent against Henry, and the SPRT
    counts deals; without ``--pairs`` two agents for the one seat are refused."""
    solo = {"solo": True, "level": 1}
    result = run_arena(
        "two-heirs",
        ["greedy", "random"],
        games=8,
        pairs=True,
        sprt="elo0=0,elo1=50",
        options=solo,
        progress=False,
    )
    assert result.deals and [r.agents for r in result.results[:2]] == [(0, -1), (1, -1)]
    seeds = [r.seed for r in result.results]
    assert (
        all(seeds[i] == seeds[i + 1] for i in range(0, len(seeds), 2)) and len(set(seeds)) == len(seeds) // 2
    )
    assert result.sprt is not None and result.games == 2 * result.sprt.units
    assert sum(result.counts()) == result.sprt.units
    assert result.to_json()["sprt"]["unit"] == "deal"
    with pytest.raises(LabError, match="several with --pairs"):
        run_arena("two-heirs", ["greedy", "random"], games=2, options=solo, progress=False)


@pytest.mark.skipif("two-heirs" not in game_ids(), reason="needs two-heirs")
def test_cli_pairs_and_sprt() -> None:
    args = ["arena", "two-heirs", "-a", "greedy,random", "-n", "40", "-w", "1", "--no-progress", "--pairs"]
    run = runner.invoke(app, [*args, "--sprt", "elo0=0,elo1=50", "--json"])
    assert run.exit_code == 0, run.output
    doc = json.loads(run.stdout)
    assert doc["pairs"] is True and doc["sprt"]["decision"] in {"H1", "inconclusive"}
    assert doc["head_to_head"]["model"] == "pentanomial"
    table = runner.invoke(app, [*args, "--sprt", "elo0=0,elo1=50"])
    assert table.exit_code == 0 and "LOS" in table.stdout and "SPRT elo0=0,elo1=50" in table.stdout
    assert "pairs (for greedy)" in table.stdout


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("elo0=x,elo1=10", "not a number"),
        ("elo0=10,elo1=5", "elo1 must be greater than elo0"),
        ("elo0=0,elo1=10,alpha=1", "alpha must be between 0 and 1"),
        ("elo0=0,elo1=10,beta=0", "beta must be between 0 and 1"),
        ("elo1=10", "give elo0"),
    ],
)
def test_cli_bad_sprt(value: str, words: str) -> None:
    run = runner.invoke(
        app, ["arena", game_ids()[0], "-a", "random,random", "--no-progress", "--sprt", value]
    )
    assert run.exit_code == 2
    assert "Traceback" not in run.output
    assert "--sprt" in run.stderr and words in run.stderr


@pytest.mark.ray
@pytest.mark.skipif("two-heirs" not in game_ids(), reason="needs two-heirs")
def test_pairs_and_sprt_on_ray_match_local_processes() -> None:
    """Both games of a pair may run in different Ray workers; they are paired by seed afterwards."""
    ray = pytest.importorskip("ray")
    specs = ["greedy", "random"]
    sprt = "elo0=0,elo1=100"
    local = run_arena("two-heirs", specs, games=60, seed=9, pairs=True, sprt=sprt, workers=2, progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_arena(
            "two-heirs", specs, games=60, seed=9, pairs=True, sprt=sprt, backend="ray", progress=False
        )
    finally:
        ray.shutdown()
    assert on_ray.outcomes() == local.outcomes()
    assert on_ray.counts() == local.counts() and on_ray.to_json()["sprt"] == local.to_json()["sprt"]
    assert on_ray.games <= on_ray.played < 60  # the Ray tasks are stopped at the decision
