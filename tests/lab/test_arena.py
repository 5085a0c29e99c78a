"""The arena: statistics on known cases, reproducibility whatever the workers, reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import regalia
from ai.toygame import ToyGame
from regalia.core.errors import OptionError, RegaliaError, UnknownGame
from regalia.core.record import Record
from regalia.core.registry import game_ids
from regalia.lab import ArenaResult, LabError, run_arena, run_ladder


def test_first_seat_always_wins() -> None:
    """A game whose first seat always wins: seats alternate, so each agent wins half."""
    result = run_arena(ToyGame(outcome="first"), ["random", "greedy"], games=10, progress=False)
    assert result.games == 10
    assert result.wins == {"random": 5, "greedy": 5}
    assert result.draws == 0
    assert result.first_seat_wins == 10 and result.first_seat_win_rate == 1.0
    lo, hi = result.first_seat_interval
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    for s in result.summaries():
        assert (s.wins, s.draws, s.losses, s.games) == (5, 0, 5, 10)
        assert s.win_interval == pytest.approx((0.2366, 0.7634), abs=1e-4)
        assert s.moves > 0
    doc = result.to_json()
    assert doc["games"] == 10
    assert doc["wins"] == {"random": 5, "greedy": 5}
    assert doc["draws"] == 0
    assert doc["first_seat_win_rate"] == 1.0
    json.dumps(doc)
    # seats alternate: game i gives seat 0 to agent i % 2
    assert [r.agents for r in result.results[:3]] == [(0, 1), (1, 0), (0, 1)]


def test_always_a_draw() -> None:
    result = run_arena(ToyGame(outcome="draw"), "greedy,greedy", games=4, progress=False)
    assert result.agents == ["greedy", "greedy#2"]
    assert result.draws == 4
    assert result.wins == {"greedy": 0, "greedy#2": 0}
    assert result.first_seat_win_rate == 0.0
    assert all(s.draws == 4 for s in result.summaries())


def test_greedy_beats_random_and_scores_are_summarised() -> None:
    result = run_arena(ToyGame(cards=15), ["greedy", "random"], games=12, seed=3, progress=False)
    greedy, rand = result.summaries()
    assert greedy.wins > rand.wins
    assert greedy.mean_score > rand.mean_score
    assert result.mean_length > 0
    assert len(result.seat_mean_scores()) == 2
    assert "greedy" in result.format()


def test_three_players_rotate_seats() -> None:
    result = run_arena(ToyGame(players=3), ["random", "greedy", "mcts:iterations=5"], games=3, progress=False)
    assert [r.agents for r in result.results] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_same_seed_same_results_whatever_the_workers() -> None:
    specs = ["mcts:iterations=10", "greedy"]
    game = ToyGame(cards=10)
    one = run_arena(game, specs, games=8, seed=42, workers=1, progress=False)
    two = run_arena(game, specs, games=8, seed=42, workers=2, progress=False)
    assert one.outcomes() == two.outcomes()
    assert one.to_json()["wins"] == two.to_json()["wins"]
    other = run_arena(game, specs, games=8, seed=43, workers=1, progress=False)
    assert other.outcomes() != one.outcomes()


@pytest.mark.skipif("two-heirs" not in game_ids(), reason="needs two-heirs")
def test_small_arena_on_two_heirs_with_workers(tmp_path: Path) -> None:
    """A small real run, two worker processes, with records, report and plots."""
    out = tmp_path / "run"
    result = run_arena("two-heirs", "greedy,random", games=6, seed=7, workers=2, progress=False, out_dir=out)
    again = run_arena("two-heirs", "greedy,random", games=6, seed=7, workers=1, progress=False)
    assert result.outcomes() == again.outcomes()
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 6
    rec = Record.load(records[0])
    assert rec.seats == ("white", "blue") and rec.result is not None
    assert rec.players == ("greedy", "random")
    assert regalia.replay(rec).scores() == rec.result["scores"]
    assert (out / "report.md").read_text().startswith("# Arena: two-heirs")
    for name in ("scores.png", "win_rates.png", "score_curves.png", "summary.json"):
        assert (out / name).stat().st_size > 0
    assert json.loads((out / "summary.json").read_text())["games"] == 6


@pytest.mark.skipif("two-heirs" not in game_ids(), reason="needs two-heirs")
def test_solo_game_with_one_agent() -> None:
    """One agent for the one seat agents play: it keeps seat 0, the rules play the automaton."""
    result = run_arena("two-heirs", ["random"], games=2, options={"solo": True}, progress=False)
    assert [r.agents for r in result.results] == [(0, -1), (0, -1)]
    assert sum(result.wins.values()) == result.first_seat_wins


def test_out_dir_on_toy_game(tmp_path: Path) -> None:
    result = run_arena(ToyGame(), "greedy,random", games=4, progress=False, out_dir=tmp_path)
    assert isinstance(result, ArenaResult)
    assert len(list((tmp_path / "records").glob("game-*.json"))) == 4
    assert all(r.curve and len(r.curve) == r.plies for r in result.results)
    assert "![Win rates" in (tmp_path / "report.md").read_text()


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"game_id": "chess"}, UnknownGame, ["valid games"]),
        ({"agent_specs": "random,nobody"}, OptionError, ["valid agents"]),
        ({"agent_specs": "mcts:impossible,random"}, OptionError, ["easy, medium, hard"]),
        ({"backend": "dask"}, LabError, ["local, ray"]),
        ({"agent_specs": "random,random,random"}, LabError, ["give 2 agent(s)", "got 3"]),
        ({"agent_specs": "greedy"}, LabError, ["give 2 agent(s)", "greedy,greedy"]),
        ({"options": {"colour": "red"}}, OptionError, ["valid options"]),
        ({"games": 0}, LabError, ["games"]),
    ],
)
def test_bad_requests(kwargs: dict[str, object], error: type[RegaliaError], words: list[str]) -> None:
    args: dict[str, object] = {
        "game_id": game_ids()[0],
        "agent_specs": "random,random",
        "games": 2,
        "progress": False,
    }
    args.update(kwargs)
    with pytest.raises(error) as info:
        run_arena(**args)  # type: ignore[arg-type]
    for word in words:
        assert word in str(info.value)


def test_one_agent_for_two_seats_fails_before_any_game() -> None:
    """Item 10: ``arena --agents greedy`` on a two-seat game is refused before it starts."""
    with pytest.raises(LabError, match=r"give 2 agent\(s\), one per seat \(e.g. random,random\), got 1"):
        run_arena(ToyGame(), ["random"], games=1, progress=False)


def test_out_dir_that_is_a_file_or_holds_old_records_is_refused(tmp_path: Path) -> None:
    """Item 10: ``--out`` naming a file, or a folder holding an earlier run's records, is refused
    before any game (the report would otherwise count other games than the records)."""
    a_file = tmp_path / "report.txt"
    a_file.write_text("x")
    with pytest.raises(LabError, match="it is a file"):
        run_arena(ToyGame(), "random,random", games=1, progress=False, out_dir=a_file)
    out = tmp_path / "run"
    run_arena(ToyGame(), "random,random", games=2, progress=False, out_dir=out)
    with pytest.raises(LabError, match="already holds the records"):
        run_arena(ToyGame(), "random,random", games=1, progress=False, out_dir=out)
    assert len(list((out / "records").glob("*.json"))) == 2


def test_ladder_orders_agents() -> None:
    result = run_ladder(
        ToyGame(cards=15), "random,greedy,mcts:iterations=30", games=6, seed=1, progress=False, bootstrap=50
    )
    doc = result.to_json()
    assert doc["games"] == 18
    assert list(doc["ratings"])[-1] == "random"
    assert result.ratings[1] > result.ratings[0]
    for r, (lo, hi) in zip(result.ratings, result.intervals, strict=True):
        assert lo - 1e-6 <= r <= hi + 1e-6
    assert sum(result.score_matrix()[0]) + sum(result.score_matrix()[1]) + sum(result.score_matrix()[2]) == 18


def test_ladder_needs_an_agent_per_seat() -> None:
    with pytest.raises(LabError, match="at least 3 agents"):
        run_ladder(ToyGame(players=3), "random,greedy", games=1, progress=False)


def test_ladder_of_a_three_seat_game_rates_rankings() -> None:
    """Ratings for more than two seats: each game's ranking is broken into pairwise comparisons
    (weighted 1/(n-1)); every group of three agents plays, seats rotated."""
    result = run_ladder(
        ToyGame(players=3, cards=15),
        "random,greedy,mcts:iterations=20,random",
        games=3,
        seed=2,
        progress=False,
        bootstrap=20,
    )
    assert len(result.results) == 4 * 3  # C(4, 3) groups, 3 games each
    assert [r.agents for r in result.results[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    # each game contributes one point per seat pair in all: n * (n - 1) / 2 comparisons of weight 1/2
    total = sum(sum(row) for row in result.score_matrix())
    assert total == pytest.approx(len(result.results) * 3 * 0.5)
    assert max(range(4), key=lambda k: result.ratings[k]) in (1, 2)


def test_ray_backend_without_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(LabError, match=r"regalia\[lab\]"):
        run_arena(ToyGame(), "random,random", games=1, backend="ray", progress=False)


def test_solo_automaton_seat_gets_no_agent_and_ladder_refuses_solo() -> None:
    """The engine plays Henry's seat (``automaton_seats``): one agent fills the solo game, two are
    too many, and a ladder (which needs two agent seats) refuses the solo game."""
    state = regalia.load_game("two-heirs", solo=True).new_state(1)
    assert state.automaton_seats() == (1,)
    assert regalia.load_game("two-heirs").new_state(1).automaton_seats() == ()
    with pytest.raises(RegaliaError, match=r"give 1 agent\(s\)"):
        run_arena("two-heirs", "random,random", games=1, options={"solo": True}, progress=False)
    with pytest.raises(RegaliaError, match="two or more seats for agents"):
        run_ladder("two-heirs", "random,random", games=1, options={"solo": True}, progress=False)


def test_score_histogram_counts_games_in_whole_numbers() -> None:
    """Item 10: the histogram's axis of games showed fractions (0.5 games) for small runs."""
    import matplotlib

    matplotlib.use("Agg")
    from regalia.lab.report import score_histogram

    result = run_arena(ToyGame(cards=9), "greedy,random", games=3, progress=False)
    fig = score_histogram(result)
    ticks = fig.axes[0].get_yticks()
    assert len(ticks) > 1 and all(float(t).is_integer() for t in ticks)


def test_three_seat_results_report_and_outcomes(tmp_path: Path) -> None:
    """Item 2: results, outcomes and reports for more than two seats: a win is the single best
    return, a shared first place is a draw, every other place a loss."""
    from regalia.lab.play import outcome_of

    assert [outcome_of([1.0, 0.0, -1.0], s) for s in range(3)] == [1, -1, -1]
    assert [outcome_of([0.5, 0.5, -1.0], s) for s in range(3)] == [0, 0, -1]
    result = run_arena(
        ToyGame(players=3, cards=15), "greedy,random,random", games=6, progress=False, out_dir=tmp_path
    )
    sums = result.summaries()
    assert sum(s.wins + s.draws + s.losses for s in sums) == 18
    assert sum(s.wins for s in sums) == sum(1 for r in result.results if r.returns.count(max(r.returns)) == 1)
    assert len(result.seat_mean_scores()) == 3
    report = (tmp_path / "report.md").read_text()
    assert "greedy" in report and "random#2" in report
    assert (tmp_path / "scores.png").stat().st_size > 0
