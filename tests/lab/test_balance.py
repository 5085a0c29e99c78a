"""The balance tool (regalia.lab.balance, ``regalia balance``): aggregation on known cases, the
statistics flag of a game job, reproducibility, automaton seats, the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ai.toygame import ToyGame, ToyState
from regalia.core.plugin import Plugin
from regalia.core.registry import GAMES
from regalia.lab import BalanceResult, GameResult, LabError, run_balance
from regalia.lab.balance import merged_order, summarise
from regalia.lab.cli import app
from regalia.lab.play import GameJob, finished_statistics, play_game
from regalia.lab.stats import wilson_interval

runner = CliRunner()


# -- a toy game with a statistics hook ----------------------------------------------------------------


def toy_statistics(state: ToyState) -> list[dict[str, float]]:
    """Per seat: cards taken (held and built, cost 1 each), their points, and whether it is seat 0."""
    takes = [0] * state.num_players
    for player, action in state.actors():
        if player >= 0 and action.startswith("take"):
            takes[player] += 1
    return [
        {
            "seat-zero": float(seat == 0),
            "held:card": float(takes[seat]),
            "built:card": float(takes[seat]),
            "points:card": float(state.points[seat]),
            "cost:card": float(takes[seat]),
        }
        for seat in range(state.num_players)
    ]


class StatPlugin(Plugin[ToyState]):
    def statistics(self, state: ToyState) -> list[dict[str, float]]:
        return toy_statistics(state)


class BrokenPlugin(Plugin[ToyState]):
    def statistics(self, state: ToyState) -> list[dict[str, float]]:
        return [{"a": 1.0}]  # one dict for two seats


class StatToy(ToyGame):
    """The toy market with :func:`toy_statistics` as its plugin's hook."""

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        return StatPlugin()


class BrokenToy(ToyGame):
    @classmethod
    def plugin(cls) -> Plugin[Any]:
        return BrokenPlugin()


def test_seat_zero_always_wins_and_the_hook_says_so() -> None:
    """outcome=first: seat 0 wins every game; seats rotate between the agents."""
    games = 10
    result = run_balance(StatToy(outcome="first"), ["greedy", "random"], games=games, seed=2, progress=False)
    assert isinstance(result, BalanceResult)
    assert result.games == games and [g.name for g in result.groups] == ["agent seats"]
    group = result.groups[0]
    assert group.seats == (0, 1) and group.seat_games == 2 * games
    zero = group.statistic("seat-zero")
    assert (zero.seat_games, zero.present, zero.rate, zero.mean, zero.mean_present) == (20, 10, 0.5, 0.5, 1.0)
    assert (zero.win_present.seat_games, zero.win_present.rate) == (10, 1.0)
    assert (zero.win_absent.seat_games, zero.win_absent.rate) == (10, 0.0)
    assert zero.win_present.interval == wilson_interval(10, 10)
    # the derived figures of the subject "card" against the games themselves
    card = group.subject("card")
    points = sum(sum(r.scores) for r in result.results)
    taken = sum(sum(s["built:card"] for s in r.statistics or []) for r in result.results)
    assert card.seat_games == 20 and card.held == 20
    assert card.built_rate_when_held == 1.0 and card.tile_built_rate == 1.0
    assert card.points_per_building == pytest.approx(points / taken)
    assert card.points_per_cost == pytest.approx(points / taken)
    assert card.ppc_vs_median == pytest.approx(1.0)  # the only subject with points
    assert card.winner_share == 1.0  # every point of the toy comes from cards
    assert card.win_built is not None and card.win_built.rate == 0.5
    assert card.win_not_built is not None and card.win_not_built.seat_games == 0


def test_always_a_draw_counts_half() -> None:
    result = run_balance(StatToy(outcome="draw"), "random", games=4, progress=False)
    zero = result.groups[0].statistic("seat-zero")
    assert zero.win_present.rate == 0.5 and zero.win_absent.rate == 0.5
    assert result.groups[0].subject("card").winner_share is None  # nobody won


def test_same_seed_same_figures_whatever_the_workers() -> None:
    game = StatToy(cards=10)
    one = run_balance(game, "greedy,random", games=6, seed=4, workers=1, progress=False)
    two = run_balance(game, "greedy,random", games=6, seed=4, workers=2, progress=False)
    assert one.to_json()["groups"] == two.to_json()["groups"]
    assert [r.statistics for r in one.results] == [r.statistics for r in two.results]


def test_three_seats_one_agent_spec_for_all() -> None:
    result = run_balance(StatToy(players=3), "greedy", games=3, progress=False)
    assert result.specs == ["greedy", "greedy", "greedy"]
    assert result.groups[0].seat_games == 9


def _result(index: int, returns: list[float], scores: list[int], stats: list[dict[str, float]]) -> GameResult:
    n = len(returns)
    return GameResult(
        index, 0, index, tuple(range(n)), scores, returns, 10, [1] * n, [0.0] * n, statistics=stats
    )


def test_summarise_known_values() -> None:
    """Hand-computed figures: presence, means, win rates, derived figures, names missing or zero."""
    results = [
        # seat 0 held 2 towers, built 1 (cost 3, 4 points) and won; seat 1 held 1 and built none
        _result(
            0,
            [1.0, -1.0],
            [10, 6],
            [
                {"held:tower": 2, "built:tower": 1, "cost:tower": 3, "points:tower": 4, "moats": 1},
                {"held:tower": 1, "built:tower": 0, "cost:tower": 0, "points:tower": 0, "moats": 0},
            ],
        ),
        # a draw: seat 0 did not have towers in play; seat 1 built 2 of 2 (cost 6, 9 points)
        _result(
            1,
            [0.0, 0.0],
            [9, 9],
            [
                {"moats": 2},
                {"held:tower": 2, "built:tower": 2, "cost:tower": 6, "points:tower": 9, "moats": 0},
            ],
        ),
    ]
    group = summarise(results, (0, 1), "agent seats")
    assert [s.key for s in group.statistics] == [
        "held:tower",
        "built:tower",
        "cost:tower",
        "points:tower",
        "moats",
    ]
    moats = group.statistic("moats")
    assert (moats.seat_games, moats.present, moats.mean, moats.mean_present) == (4, 2, 0.75, 1.5)
    assert (moats.win_present.seat_games, moats.win_present.points) == (2, 1.5)  # a win and a draw
    assert (moats.win_absent.seat_games, moats.win_absent.points) == (2, 0.5)  # a loss and a draw
    tower = group.subject("tower")
    assert tower.seat_games == 3 and tower.held == 3
    assert tower.built_rate_when_held == pytest.approx(2 / 3)
    assert tower.tile_built_rate == pytest.approx(3 / 5)
    assert tower.built_per_game == pytest.approx(1.0)
    assert tower.points_per_game == pytest.approx(13 / 3)
    assert tower.points_per_building == pytest.approx(13 / 3)
    assert tower.points_per_cost == pytest.approx(13 / 9)
    assert tower.winner_share == pytest.approx(4 / 10)  # the only win
    assert tower.win_built is not None and (tower.win_built.seat_games, tower.win_built.points) == (2, 1.5)
    assert tower.win_not_built is not None
    assert (tower.win_not_built.seat_games, tower.win_not_built.points) == (1, 0.0)
    only_one = summarise(results, (1,), "seat 2")
    assert only_one.seat_games == 2 and only_one.statistic("moats").present == 0


def test_subjects_without_some_families_give_none() -> None:
    results = [_result(0, [1.0, -1.0], [3, 1], [{"points:roads": 3}, {"points:roads": 1}])]
    roads = summarise(results, (0, 1)).subject("roads")
    assert roads.held is None and roads.built_rate_when_held is None and roads.points_per_building is None
    assert roads.points_per_game == 2.0 and roads.winner_share == 1.0
    assert roads.win_built is None and roads.ppc_vs_median is None


def test_merged_order_keeps_each_dicts_order() -> None:
    assert merged_order([["a", "c"], ["b", "c"], ["a", "b"]]) == ["a", "b", "c"]
    assert merged_order([["x", "y"], ["y", "x"]]) == ["x", "y"]  # disagreement: first seen first
    assert merged_order([]) == []


def test_results_without_statistics_are_refused() -> None:
    plain = GameResult(0, 0, 0, (0, 1), [1, 0], [1.0, -1.0], 4, [1, 1], [0.0, 0.0])
    with pytest.raises(LabError, match="no statistics"):
        summarise([plain], (0, 1))


# -- the statistics flag of a game job ----------------------------------------------------------------


def test_a_job_returns_statistics_only_when_asked() -> None:
    job = GameJob(0, StatToy(), {}, ("random", "random"), (0, 1), 5, (1, 2))
    assert play_game(job).statistics is None
    with_stats = play_game(
        GameJob(0, StatToy(), {}, ("random", "random"), (0, 1), 5, (1, 2), statistics=True)
    )
    assert with_stats.statistics is not None and len(with_stats.statistics) == 2
    assert [s["points:card"] for s in with_stats.statistics] == with_stats.scores


def test_a_game_without_a_hook_counts_each_seats_score() -> None:
    """The plugin's default statistics: the toy market declares no plugin, so each seat-game
    lists its score and nothing else."""
    result = run_balance(ToyGame(), "random", games=3, seed=4, progress=False)
    group = result.groups[0]
    assert [s.key for s in group.statistics] == ["score"] and group.subjects == []
    scores = [float(s) for r in result.results for s in r.scores]
    assert group.statistic("score").mean == pytest.approx(sum(scores) / len(scores))
    assert [doc for r in result.results for doc in r.statistics or []] == [{"score": s} for s in scores]


def test_a_bad_hook_is_named() -> None:
    state = BrokenToy().new_state(1)
    with pytest.raises(LabError, match="a list of 2 dicts"):
        finished_statistics(BrokenToy(), state)
    with pytest.raises(LabError, match="2 seat"):
        run_balance(StatToy(), "random,random,random", games=1, progress=False)
    with pytest.raises(LabError, match="games must be at least 1"):
        run_balance(StatToy(), "random", games=0, progress=False)


# -- The Two Heirs ------------------------------------------------------------------------------------


def test_two_heirs_two_players() -> None:
    result = run_balance("two-heirs", "greedy,random", games=4, seed=3, progress=False)
    group = result.groups[0]
    assert group.seat_games == 8
    subjects = [s.subject for s in group.subjects]
    assert subjects[:4] == ["inn", "marketplace", "pilgrimage-site", "bandit-stronghold"]
    assert "roads" in subjects and "trading-post" in subjects
    assert group.subject("farm").points_per_cost == 0.0  # builds that score nothing of their own
    score = group.statistic("score")
    assert score.mean == pytest.approx(sum(sum(r.scores) for r in result.results) / 8)
    json.dumps(result.to_json())


def test_two_heirs_solo_agents_only_on_the_players_seat() -> None:
    """Solo: one agent for the player's seat; Henry's seat is counted apart."""
    result = run_balance("two-heirs", "greedy", games=3, seed=1, options={"solo": True}, progress=False)
    agents, henry = result.groups
    assert (agents.name, agents.seats, agents.seat_games) == ("agent seats", (0,), 3)
    assert (henry.name, henry.seats, henry.seat_games) == ("automaton seats", (1,), 3)
    assert henry.statistic("treasures-left").seat_games == 3
    assert agents.statistic("treasures-removed").seat_games == 3
    assert henry.subject("inn").points_per_cost is None  # Henry builds for free: no cost
    assert all(r.agents == (0, -1) for r in result.results)
    with pytest.raises(LabError, match="1 seat"):
        run_balance("two-heirs", "greedy,greedy", games=1, options={"solo": True}, progress=False)


def test_tables_markdown_and_json() -> None:
    result = run_balance("two-heirs", "greedy", games=2, seed=5, options={"solo": True}, progress=False)
    text = result.format()
    assert "trading-post" in text and "automaton seats" in text and "treasures-left" in text
    assert "held:inn" not in text and "held:inn" in result.format(all_statistics=True)
    md = result.markdown()
    assert "| subject | games | held |" in md and "| trading-post |" in md
    doc = json.loads(json.dumps(result.to_json()))
    assert doc["games"] == 2 and doc["options"]["solo"] is True
    assert [g["name"] for g in doc["groups"]] == ["agent seats", "automaton seats"]
    inn = next(s for s in doc["groups"][0]["subjects"] if s["subject"] == "inn")
    assert {"built_rate_when_held", "points_per_cost", "win_built"} <= set(inn)
    stat = doc["groups"][0]["statistics"][0]
    assert {"key", "seat_games", "present", "mean", "win_present", "win_absent"} <= set(stat)


# -- the command --------------------------------------------------------------------------------------


def test_command_json_and_out(tmp_path: Path) -> None:
    out = tmp_path / "balance.json"
    args = ["balance", "two-heirs", "-n", "2", "-w", "1", "--json", "--no-progress", "--out", str(out)]
    result = runner.invoke(app, [*args, "-o", "sets=warfare,crafts,guard"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 2 and doc["specs"] == ["greedy", "greedy"]
    subjects = [s["subject"] for s in doc["groups"][0]["subjects"]]
    assert subjects[:3] == ["siege-tower", "fortress", "basket-makers-workshop"]
    assert json.loads(out.read_text(encoding="utf-8")) == doc


def test_command_table_and_markdown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "toy-stats", f"{__name__}:StatToy")
    table = runner.invoke(app, ["balance", "toy-stats", "-n", "2", "-w", "1", "--no-progress"])
    assert table.exit_code == 0, table.output
    assert "seat-zero" in table.stdout and "card" in table.stdout
    md = runner.invoke(
        app, ["balance", "toy-stats", "-a", "random", "-n", "2", "-w", "1", "--markdown", "--no-progress"]
    )
    assert md.exit_code == 0 and "| card |" in md.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["balance", "nope"], ["unknown game", "two-heirs"]),
        (["balance", "two-heirs", "-a", "random,robot"], ["unknown agent"]),
        (["balance", "two-heirs", "-a", "greedy,greedy,greedy"], ["2 seat(s) for agents"]),
        (["balance", "two-heirs", "-o", "solo=true", "-a", "greedy,greedy"], ["1 seat(s) for agents"]),
        (["balance", "two-heirs", "--backend", "mpi"], ["unknown backend", "local, ray"]),
        (["balance", "two-heirs", "-o", "nonsense"], ["NAME=VALUE"]),
        (["balance", "two-heirs", "-o", "colour=red"], ["colour"]),
    ],
)
def test_command_errors_exit_2(args: list[str], words: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "toy-market", "ai.toygame:ToyGame")
    result = runner.invoke(app, [*args, "-n", "1", "-w", "1", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr


def test_command_refuses_a_folder_for_out(tmp_path: Path) -> None:
    result = runner.invoke(app, ["balance", "two-heirs", "-n", "1", "--out", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2 and "give a file" in result.stderr


def test_balance_cli_takes_game_options_as_flags_and_writes_a_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    args = ["balance", "two-heirs", "--roads", "false", "-n", "2", "-w", "1", "--json", "--no-progress"]
    run = runner.invoke(app, [*args, "--report", str(out)])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["options"]["roads"] is False
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Balance: two-heirs") and "per subject and family" in report
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["games"] == 2
    assert {"lengths.png", "statistics-1.png", "subjects-1.png"} <= {p.name for p in out.iterdir()}
    assert "](lengths.png)" in report and "](subjects-1.png)" in report


def test_balance_cli_takes_name_equals_value_flags_and_all_reaches_the_report(tmp_path: Path) -> None:
    """``--NAME=VALUE`` is an option too, and ``--all`` lists every statistic in report.md as on
    the screen (the ``held:`` counts have a colon, so only ``--all`` shows them)."""
    out = tmp_path / "report"
    args = ["balance", "two-heirs", "--roads=false", "-n", "2", "-w", "1", "--json", "--no-progress", "--all"]
    run = runner.invoke(app, [*args, "--report", str(out)])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["options"]["roads"] is False
    assert "held:" in (out / "report.md").read_text(encoding="utf-8")
    run = runner.invoke(app, [*args[:-1], "--report", str(tmp_path / "plain")])
    assert "held:" not in (tmp_path / "plain" / "report.md").read_text(encoding="utf-8")


def test_balance_cli_refuses_a_stray_argument_and_an_unknown_option() -> None:
    run = runner.invoke(app, ["balance", "two-heirs", "stray", "-n", "1", "--no-progress"])
    assert run.exit_code == 2 and "unexpected argument" in run.output
    run = runner.invoke(app, ["balance", "two-heirs", "--no-such-option", "1", "-n", "1", "--no-progress"])
    assert run.exit_code == 2 and "unknown option" in run.output and "no_such_option" in run.output


def test_balance_cli_refuses_misplaced_or_empty_flags_and_a_file_as_report(tmp_path: Path) -> None:
    """Before any game is played: a flag before GAME, a flag whose value is missing (the next
    word is another flag), and a --report path that is a file each get a one-line error, exit 2."""
    run = runner.invoke(app, ["balance", "--roads=false", "two-heirs", "-n", "1", "--no-progress"])
    assert run.exit_code == 2 and "give GAME first" in run.output
    args = ["balance", "two-heirs", "--roads", "--solo", "true", "-n", "1", "--no-progress"]
    run = runner.invoke(app, args)
    assert run.exit_code == 2 and "--roads: give a value" in run.output
    taken = tmp_path / "taken"
    taken.write_text("x", encoding="utf-8")
    out = tmp_path / "out.json"
    run = runner.invoke(app, ["balance", "two-heirs", "-n", "1", "--report", str(taken), "--out", str(out)])
    assert run.exit_code == 2 and "it is a file" in run.output
    assert taken.read_text(encoding="utf-8") == "x" and not out.exists()
    assert "Traceback" not in run.output
