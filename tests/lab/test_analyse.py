"""``regalia analyse``: marks pinned on positions whose best move is known, the JSON, the plot, chance
plies and errors (iteration budgets: deterministic and quick)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import regalia
from regalia.cli import ERROR_EXIT_CODE, app
from regalia.core.errors import OptionError, ReplayDivergence
from regalia.core.game import CHANCE, State
from regalia.core.loop import playout
from regalia.core.record import Record, replay
from regalia.core.registry import game_plugin
from regalia.lab.analyse import Analysis, analyse_record, budget_spec, mark_of, write_plot

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def _position(name: str) -> State[Any]:
    """The position before the decision a test pins (a record of seeded play, kept as data)."""
    return replay(Record.load(DATA / name))


def _play(state: State[Any], *texts: str) -> Record:
    """``state`` with ``texts`` applied, the mover's turn then finished with its first legal actions."""
    me = state.current_player
    for text in texts:
        state.apply_text(text)
    while not state.is_terminal() and state.current_player == me:
        state.apply(state.legal_actions()[0])
    record: Record = state.record()
    return record


# -- Carcassonne: a completing placement worth 18 points --------------------------------------------
CITY = "analyse-carcassonne-city.json"
CITY_PLY = 53  # blue to place tile K: "place K 3,2 180" closes blue's city for 18 points


def test_carcassonne_missed_city_is_marked_with_the_completing_move_best() -> None:
    state = _position(CITY)
    before = state.scores()
    done = state.clone()
    done.apply_text("place K 3,2 180")
    done.apply_text("pass")
    assert done.scores()[1] - before[1] == 18  # what the test is about
    analysis = analyse_record(_play(state, "place K -4,1 0", "pass"), "mcts:iterations=300", plies=[CITY_PLY])
    row = analysis.plies[CITY_PLY - 1]
    assert (row.kind, row.played, row.best) == ("decision", "place K -4,1 0", "place K 3,2 180")
    assert row.mark in ("mistake", "blunder")
    assert row.loss is not None and row.loss >= 0.10
    assert row.visits == row.best_visits  # the played move searched as much as the best


def test_carcassonne_completing_the_city_has_no_mark() -> None:
    record = _play(_position(CITY), "place K 3,2 180", "pass")
    row = analyse_record(record, "mcts:iterations=300", plies=[CITY_PLY]).plies[CITY_PLY - 1]
    assert (row.played, row.best, row.loss, row.mark) == ("place K 3,2 180", "place K 3,2 180", 0.0, None)


# -- The Royal Court: a surround that wins whatever the opponent does -----------------------------
SURROUND = "analyse-royal-court-surround.json"
SURROUND_PLY = 45  # red: "swap 1,2" then "move 2,0 3,0" surrounds red's consort for good


def _red_wins_by_surround(state: State[Any]) -> bool:
    """Every reply of blue's leaves red's consort surrounded (checked on the engine)."""
    ends: list[State[Any]] = []
    stack = [state]
    while stack:
        s = stack.pop()
        for action in s.legal_actions():
            c = s.clone()
            c.apply(action)
            (stack if not c.is_terminal() and c.current_player == 1 else ends).append(c)
    return all(e.winner() == 0 if e.is_terminal() else e.surrounded(0) for e in ends)  # type: ignore[attr-defined]


@pytest.mark.parametrize("played", ["swap 3,2", "swap 0,-1", "swap -2,-1"])
def test_royal_court_missed_winning_surround_is_a_blunder(played: str) -> None:
    won = _position(SURROUND)
    won.apply_text("swap 1,2")
    won.apply_text("move 2,0 3,0")
    assert won.current_player == 1 and _red_wins_by_surround(won)
    analysis = analyse_record(_play(_position(SURROUND), played), "mcts:iterations=300", plies=[SURROUND_PLY])
    row = analysis.plies[SURROUND_PLY - 1]
    assert (row.seat, row.played, row.best, row.mark) == (0, played, "swap 1,2", "blunder")


def test_royal_court_the_winning_surround_has_no_mark() -> None:
    record = _play(_position(SURROUND), "swap 1,2", "move 2,0 3,0")
    analysis = analyse_record(record, "mcts:iterations=300", plies=[SURROUND_PLY, SURROUND_PLY + 1])
    swap, move = analysis.plies[SURROUND_PLY - 1 :]
    assert (swap.played, swap.best, swap.mark, swap.loss) == ("swap 1,2", "swap 1,2", None, 0.0)
    assert (move.played, move.mark) == ("move 2,0 3,0", None)  # another move may win as surely
    assert move.value is not None and move.value > 0.9
    assert [p.ply for p in analysis.decisions()] == [SURROUND_PLY, SURROUND_PLY + 1]


# -- the analysis itself ------------------------------------------------------------------------------
def _short(game: str, decisions: int = 6, seed: int = 4) -> Record:
    state = regalia.load_game(game).new_state(seed=seed)
    playout(state, random.Random(seed), decisions=decisions)
    record: Record = state.record()
    return record


def test_marks_and_budgets() -> None:
    assert mark_of(0.049, (0.05, 0.1, 0.2)) is None
    assert [mark_of(x, (0.05, 0.1, 0.2)) for x in (0.05, 0.1, 0.2)] == ["inaccuracy", "mistake", "blunder"]
    assert budget_spec("hard", iterations=10) == "mcts:iterations=10"
    assert game_plugin("carcassonne").analysis_thresholds == (0.05, 0.10, 0.20)


def test_chance_plies_carry_the_probability_of_the_draw() -> None:
    record = _short("carcassonne")
    analysis = analyse_record(record, "mcts:iterations=20")
    chance = [p for p in analysis.plies if p.kind == "chance"]
    assert chance and all(p.seat == CHANCE and p.value is None for p in chance)
    state = regalia.load_game("carcassonne").initial_state()
    for p in analysis.plies:
        if p.kind == "chance":
            outcomes = dict(state.chance_outcomes())
            assert p.probability == pytest.approx(outcomes[state.parse_action(p.played)])
            assert p.outcomes == len(outcomes) and p.probability is not None and 0 < p.probability < 1
        state.apply_text(p.played)
    assert {p.kind for p in analysis.plies} <= {"chance", "decision", "forced"}
    assert all(0 <= (p.value or 0) <= 1 and (p.loss or 0) >= 0 for p in analysis.plies)


def test_iteration_budgets_repeat_whatever_the_workers() -> None:
    record = _short("two-heirs", decisions=4)
    one = analyse_record(record, "mcts:iterations=30", seed=3)
    two = analyse_record(record, "mcts:iterations=30", seed=3, workers=2)
    assert one == two
    assert len(one.plies) == len(record.actions)


def test_json_round_trip_and_shape() -> None:
    analysis = analyse_record(_short("royal-court"), "mcts:iterations=30")
    doc = json.loads(analysis.dumps())
    assert doc["format"] == "regalia-analysis" and doc["budget"] == "mcts:iterations=30"
    assert doc["thresholds"] == {"inaccuracy": 0.05, "mistake": 0.1, "blunder": 0.2}
    assert [s["name"] for s in doc["summary"]] == ["red", "blue"]
    assert set(doc["plies"][1]) >= {
        "ply",
        "seat",
        "kind",
        "played",
        "value",
        "best",
        "best_value",
        "loss",
        "mark",
    }
    assert Analysis.from_json(doc) == analysis
    assert Analysis.loads(analysis.dumps()).summary() == analysis.summary()


def test_plot_is_a_png(tmp_path: Path) -> None:
    analysis = analyse_record(_short("royal-court", decisions=10), "mcts:iterations=20", thresholds=(0, 0, 0))
    assert analysis.decisions() and all(p.mark == "blunder" for p in analysis.decisions())
    target = tmp_path / "curve.png"
    write_plot(analysis, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_budget_and_bad_record() -> None:
    record = _short("royal-court")
    with pytest.raises(OptionError, match="unknown level"):
        analyse_record(record, "mcts:superb")
    with pytest.raises(OptionError, match="searching agent"):
        analyse_record(record, "random")
    broken = Record.from_json({**record.to_json(), "actions": [*record.actions[:2], "fly away"]})
    with pytest.raises(ReplayDivergence, match="ply 3"):
        analyse_record(broken, "mcts:iterations=5")


# -- the command ------------------------------------------------------------------------------------
def test_command_table_fits_80_columns_and_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _play(_position(SURROUND), "swap 3,2").save(path)
    result = runner.invoke(
        app, ["analyse", str(path), "--iterations", "40", "-w", "1"], env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "blunder" in result.output and "summary" in result.output
    plot = tmp_path / "curve.png"
    result = runner.invoke(
        app, ["analyse", str(path), "--iterations", "10", "-w", "1", "--json", "--plot", str(plot)]
    )
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert len(doc["plies"]) == len(Record.load(path).actions)
    assert plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.json"], ["missing.json"]),
        (["BAD"], ["not JSON"]),
        (["GOOD", "--level", "superb"], ["unknown level", "easy, medium, hard"]),
        (["GOOD", "--backend", "dask"], ["unknown backend"]),
        (["GOOD", "--plot", "/no/such/folder/x.png"], ["--plot"]),
    ],
)
def test_command_errors_are_one_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    (tmp_path / "BAD").write_text("{not json", encoding="utf-8")
    _short("royal-court").save(tmp_path / "GOOD")
    args = [str(tmp_path / a) if a in ("BAD", "GOOD", "missing.json") else a for a in args]
    result = runner.invoke(app, ["analyse", *args, "--iterations", "5", "-w", "1"])
    assert result.exit_code == ERROR_EXIT_CODE
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


def test_command_unknown_option_is_a_usage_error() -> None:
    result = runner.invoke(app, ["analyse", "x.json", "--depth", "3"])
    assert result.exit_code == 2 and "No such option" in result.output


def test_automaton_steps_are_listed_not_searched() -> None:
    state = regalia.load_game("two-heirs", solo=True).new_state(seed=2)
    rng = random.Random(2)
    while not any(p.player in state.automaton_seats() for p in state.plies()):
        playout(state, rng, decisions=1)
    analysis = analyse_record(state.record(), "mcts:iterations=10")
    henry = [p for p in analysis.plies if p.seat in state.automaton_seats()]
    assert henry and all(p.kind == "automaton" and p.value is None for p in henry)
    assert all(p.seat not in state.automaton_seats() for p in analysis.decisions())
    assert [s.decisions for s in analysis.summary()][1] == 0
