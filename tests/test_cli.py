"""The ``regalia`` command: play, replay, score and bench through typer's CliRunner (scripted stdin)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import regalia
from regalia.cli import ERROR_EXIT_CODE, SKIPPED, app, register_commands
from regalia.core.record import Record

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "position.json"


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "120"})


def random_record(tmp_path: Path, seed: int = 3, plies: int | None = None) -> Path:
    state = regalia.load_game("two-heirs").new_state(seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal() and (plies is None or n < plies):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        n += 1
    path = tmp_path / "game.json"
    state.record().save(path)
    return path


# -- the command itself -------------------------------------------------------------------------------


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for name in ("play", "replay", "score", "bench"):
        assert name in result.output


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert regalia.__version__ in result.output


def test_a_missing_optional_module_is_skipped() -> None:
    target = typer.Typer()
    done = register_commands(target, ("regalia.commands.score", "regalia.commands.no_such_module"))
    assert done == ["regalia.commands.score"]
    assert SKIPPED["regalia.commands.no_such_module"] == "not installed"


def test_a_regalia_error_is_one_red_line_and_exit_code_2() -> None:
    result = invoke("play", "no-such-game")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "unknown game 'no-such-game'" in result.stderr
    assert "two-heirs" in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


# -- play -------------------------------------------------------------------------------------------


def test_play_a_few_moves_by_number_and_by_notation(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke(
        "play",
        "two-heirs",
        "--vs",
        "random",
        "--seed",
        "1",
        "--save",
        str(save),
        input="1\nbuild W5 1,0\nend\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Royal reserve" in result.output
    assert "take a tile (A)" in result.output
    assert "blue (random) plays:" in result.output
    record = Record.load(save)
    assert record.actions[:3] == ("take W5", "build W5 1,0", "end")
    assert record.seed == 1


def test_illegal_input_shows_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke("play", "--seed", "1", "--save", str(save), input="end\n99\nfly away\nquit\n")
    assert result.exit_code == 0, result.output
    assert "illegal: you must first take a tile from the royal reserve [Action A]" in result.output
    assert "no move number 99" in result.output
    assert "unknown action 'fly'" in result.output
    assert Record.load(save).actions == ()


def test_play_as_blue_against_random(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke(
        "play", "--vs", "random", "--seed", "2", "--seat", "blue", "--save", str(save), input="1\nquit\n"
    )
    assert result.exit_code == 0, result.output
    state = regalia.replay(Record.load(save))
    # blue's first action is the one chosen by number; white moved first or not, blue took a tile
    assert any(a.startswith("take") for a in Record.load(save).actions)
    assert state.current_player in (0, 1)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    result = invoke("play", "--seed", "5", "--vs", "human", input=f"1\n1\nsave {saved}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"saved to {saved}" in result.output
    actions = Record.load(saved).actions
    assert len(actions) == 2
    again = tmp_path / "again.json"
    result = invoke("play", "--load", str(saved), "--vs", "human", "--save", str(again), input="quit\n")
    assert result.exit_code == 0, result.output
    assert "2 moves replayed" in result.output
    assert Record.load(again).actions == actions


def test_undo_for_two_humans_only(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke("play", "--seed", "1", "--vs", "human", "--save", str(save), input="1\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "took back: take W5" in result.output
    assert Record.load(save).actions == ()
    result = invoke("play", "--seed", "1", input="1\nundo\nquit\n")
    assert "undo is only available when two humans play" in result.output


def test_help_command_explains_the_notation() -> None:
    result = invoke("play", "--seed", "1", input="help\nquit\n")
    assert result.exit_code == 0
    assert "build W3 1,-2" in result.output
    assert "save FILE" in result.output


def test_default_opponent_is_mcts_medium() -> None:
    """Quick start: ``regalia play two-heirs`` plays the computer at MCTS level medium."""
    result = invoke("play", "--seed", "1", input="1\nend\nquit\n")
    assert result.exit_code == 0, result.output
    assert "blue (mcts:medium) plays:" in result.output


def test_end_of_input_stops_the_game() -> None:
    result = invoke("play", "--seed", "1", input="1\n")
    assert result.exit_code == 0
    assert "game stopped" in result.output


def test_bad_options_exit_2() -> None:
    result = invoke("play", "--sets", "wandering,dominion", "--seed", "1")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "option sets" in result.stderr
    result = invoke("play", "--seat", "green", "--seed", "1")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "unknown seat 'green'" in result.stderr


def test_finishing_a_loaded_game_shows_the_result(tmp_path: Path) -> None:
    state = regalia.load_game("two-heirs", roads=False).new_state(4)
    rng = random.Random(4)
    while not state.final:  # play randomly into the final turns
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    start = tmp_path / "start.json"
    state.record().save(start)
    save = tmp_path / "rec.json"
    result = invoke("play", "--load", str(start), "--vs", "human", "--save", str(save), input="1\n" * 300)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Totals" in result.output
    assert "wins" in result.output or "Draw" in result.output
    record = Record.load(save)
    assert record.result is not None
    assert regalia.replay(record).is_terminal()


# -- replay -----------------------------------------------------------------------------------------


def test_replay_lists_the_plies_and_shows_the_final_board(tmp_path: Path) -> None:
    path = random_record(tmp_path)
    record = Record.load(path)
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert f"{len(record.actions):4d}. " in result.output
    assert record.actions[-1] in result.output
    assert "final position" in result.output
    assert "Totals" in result.output  # the game is over: the score sheet is shown


def test_replay_at_a_ply(tmp_path: Path) -> None:
    path = random_record(tmp_path, plies=12)
    result = invoke("replay", str(path), "--ply", "3")
    assert result.exit_code == 0, result.output
    assert "position after ply 3" in result.output
    assert "   4. " not in result.output


def test_replay_step_by_step(tmp_path: Path) -> None:
    path = random_record(tmp_path, plies=10)
    actions = Record.load(path).actions
    result = invoke("replay", str(path), "--step", input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert f"   1. white: {actions[0]}" in result.output or f"   1. blue: {actions[0]}" in result.output
    assert "   2. " in result.output
    assert "   3. " not in result.output


def test_replay_divergence_names_the_ply(tmp_path: Path) -> None:
    path = random_record(tmp_path, plies=10)
    doc = json.loads(path.read_text())
    doc["actions"][4] = "build W9 7,7"
    path.write_text(json.dumps(doc))
    result = invoke("replay", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "ply 5" in result.stderr


def test_replay_of_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "regalia-record", "version": 1, "game": "two-heirs"}')
    result = invoke("replay", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "options" in result.stderr


# -- score ------------------------------------------------------------------------------------------


def test_score_the_example_file() -> None:
    result = invoke("score", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    for text in ("Buildings", "Roads", "Totals", "pilgrimage-site", "×2", "white wins"):
        assert text in result.output


def test_score_json() -> None:
    result = invoke("score", str(EXAMPLE), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format"] == "two-heirs-score"
    assert set(doc) >= {"buildings", "roads", "totals", "winner", "units_in_reserve", "decided_by"}
    assert doc["totals"] == {"white": 27, "blue": 22}
    assert doc["winner"] == "white"


def test_score_a_bad_file_names_the_field(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    doc["board"][3]["tile"]["cost"] = {"potatoes": 2}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "board[3].tile.cost" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "chess-position"}', "format"),
        ("[]", "format"),
    ],
)
def test_score_rejects_other_documents(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert expected in result.stderr


def test_score_a_missing_file(tmp_path: Path) -> None:
    result = invoke("score", str(tmp_path / "nope.json"))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "cannot read" in result.stderr


# -- bench ------------------------------------------------------------------------------------------


def test_bench_json_keys() -> None:
    result = invoke("bench", "two-heirs", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert {"games_per_s", "legal_actions_us", "games", "plies_per_game"} <= set(doc)
    assert doc["games"] == 3
    assert doc["games_per_s"] > 0


def test_bench_table() -> None:
    result = invoke("bench", "--games", "2", "--no-roads")
    assert result.exit_code == 0, result.output
    assert "random games per second" in result.output
    assert "legal_actions() median" in result.output


def test_bench_mcts_unavailable_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import regalia.ai

    monkeypatch.delattr(regalia.ai, "bench_mcts", raising=False)
    result = invoke("bench", "--games", "1", "--mcts")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "MCTS benchmarking is unavailable" in result.stderr


def test_bench_mcts_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    import regalia.ai

    calls = []

    def fake(game_id: str, seconds: float, seed: int, **options: object) -> float:
        calls.append((game_id, seconds, seed, options))
        return 123.0

    monkeypatch.setattr(regalia.ai, "bench_mcts", fake, raising=False)
    result = invoke("bench", "--games", "1", "--mcts", "--seconds", "0.5", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["mcts_iterations_per_s"] == 123.0
    assert calls == [("two-heirs", 0.5, 0, {})]


def test_play_solo_against_henry(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke(
        "play", "--solo", "--seed", "1", "--save", str(save), input="1\nbuild W5 1,0\nend\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Henry's last turn:" in result.output
    assert Record.load(save).options["solo"] is True
