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
    """A record of random play (chance with its probabilities) of ``plies`` plies or a whole game."""
    state = regalia.load_game("two-heirs").new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (plies is None or state.ply < plies):
        if state.current_player == regalia.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    path = tmp_path / "game.json"
    state.record().save(path)
    return path


def human_plies(record: Record, seat: int = 0) -> list[str]:
    """The plies of ``seat`` in a record."""
    state = regalia.replay(record)
    plies = state.plies()
    return [p.text for p in plies if p.player == seat]


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
        "play", "two-heirs", "--vs", "random", "--seed", "1", "--save", str(save), input="1\nend\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "take a tile (A)" in result.output
    assert "blue (random): " in result.output
    record = Record.load(save)
    assert record.players == ("human", "random")
    assert record.actions[0] in ("first white", "first blue")  # setup's chance is in the record
    mine = human_plies(record)
    assert mine[0].startswith("take ") and mine[1] == "end"


def test_illegal_input_shows_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke(
        "play", "--seed", "2", "--vs", "human", "--save", str(save), input="end\n99\nfly away\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "illegal: you must first take a tile from the royal reserve [Action A]" in result.output
    assert "no move number 99" in result.output
    assert "unknown action 'fly'" in result.output
    assert human_plies(Record.load(save)) == human_plies(Record.load(save), 1) == []


def test_play_as_blue_against_random(tmp_path: Path) -> None:
    """--seat takes a seat's name or its number counted from 1."""
    for seat in ("blue", "2"):
        save = tmp_path / f"rec-{seat}.json"
        result = invoke(
            "play", "--vs", "random", "--seed", "2", "--seat", seat, "--save", str(save), input="1\nquit\n"
        )
        assert result.exit_code == 0, result.output
        record = Record.load(save)
        assert record.players == ("random", "human")
        assert human_plies(record, 1)[0].startswith("take ")
    result = invoke("play", "--seat", "0", "--seed", "1")
    assert result.exit_code == ERROR_EXIT_CODE
    assert "unknown seat '0'" in result.stderr and "1 to 2" in result.stderr


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """--load replays the record and goes on saving into it; the opponent comes from the record."""
    saved = tmp_path / "saved.json"
    result = invoke("play", "--seed", "5", "--vs", "human", input=f"1\n1\nsave {saved}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"saved to {saved}" in result.output
    actions = Record.load(saved).actions
    result = invoke("play", "--load", str(saved), input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"{len(actions)} plies replayed" in result.output
    again = Record.load(saved)  # no --save: the loaded file goes on being saved
    assert again.actions[: len(actions)] == actions and len(again.actions) == len(actions) + 1
    assert again.players == ("human", "human")


def test_a_loaded_game_keeps_its_opponent_and_level(tmp_path: Path) -> None:
    """Item 10: the opponent and its level are kept in the record and come back on --load."""
    save = tmp_path / "g.json"
    result = invoke(
        "play", "--seed", "3", "--vs", "mcts", "--level", "easy", "--save", str(save), input="1\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert Record.load(save).players == ("human", "mcts:easy")
    result = invoke("play", "--load", str(save), input="1\nend\nquit\n")
    assert result.exit_code == 0, result.output
    assert "blue (mcts:easy): " in result.output
    result = invoke("play", "--load", str(save), "--level", "hard", input="quit\n")
    assert result.exit_code == 0, result.output
    assert Record.load(save).players == ("human", "mcts:hard")


def test_undo_takes_back_the_last_own_move_also_against_the_computer(tmp_path: Path) -> None:
    """Item 10: undo works against the computer: it takes back your last move and everything after."""
    save = tmp_path / "rec.json"
    result = invoke("play", "--seed", "1", "--vs", "human", "--save", str(save), input="1\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "took back: take " in result.output
    assert human_plies(Record.load(save)) == [] and human_plies(Record.load(save), 1) == []
    save2 = tmp_path / "rec2.json"
    result = invoke(
        "play", "--seed", "1", "--vs", "random", "--save", str(save2), input="1\nend\nundo\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "took back: end" in result.output
    record = Record.load(save2)
    assert human_plies(record) == human_plies(record)[:1] and len(human_plies(record)) == 1
    assert regalia.replay(record).current_player == 0  # your turn again, after the take


def test_help_rules_and_hint() -> None:
    result = invoke("play", "--seed", "1", "--vs", "human", input="help\nrules camp\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "build W3 1,-2" in result.output and "save FILE" in result.output and "hint" in result.output
    assert "Camp (Ležení)" in result.output  # the rulebook's paragraph on camps
    hint = next(line for line in result.output.splitlines() if line.startswith("hint: "))
    state = regalia.load_game("two-heirs").new_state(1)
    state.advance()
    assert state.is_legal(state.parse_action(hint[len("hint: ") :]))


def test_default_opponent_is_mcts_medium() -> None:
    """Quick start: ``regalia play two-heirs`` plays the computer at MCTS level medium."""
    result = invoke("play", "--seed", "1", input="1\nend\nquit\n")
    assert result.exit_code == 0, result.output
    assert "blue (mcts:medium): " in result.output


def test_end_of_input_stops_the_game() -> None:
    result = invoke("play", "--seed", "1", "--vs", "human", input="1\n")
    assert result.exit_code == 0
    assert "game stopped" in result.output


def test_bad_options_exit_2_before_the_game(tmp_path: Path) -> None:
    """Options are checked before the game starts; none is silently ignored."""
    cases = [
        (["-o", "sets=wandering,dominion"], "option sets"),
        (["--seat", "green"], "unknown seat 'green'"),
        (["-o", "solo=true", "--vs", "greedy"], "there is no other opponent"),
        (["-o", "solo=true", "--seat", "2"], "played by the rules"),
        (["-o", "solo=true", "--seat", "blue"], "unknown seat 'blue'; valid seats: player, henry"),
        (["-o", "solo=true", "--level", "hard"], "set its level as a game option"),
        (["--vs", "human", "--level", "hard"], "not to --vs human"),
        (["--save", str(tmp_path)], "it is a folder"),
        (["--save", str(tmp_path / "no" / "such" / "x.json")], "does not exist"),
    ]
    for args, words in cases:
        result = invoke("play", *args, "--seed", "1", input="quit\n")
        assert result.exit_code == ERROR_EXIT_CODE, (args, result.output)
        assert words in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output


def test_saving_to_a_bad_place_inside_a_game_keeps_the_game(tmp_path: Path) -> None:
    """Item 10: ``save /no/such/dir/x.json`` used to end the game with a traceback."""
    result = invoke(
        "play",
        "--seed",
        "1",
        "--vs",
        "human",
        input=f"save {tmp_path}/no/such/x.json\nsave {tmp_path}\n1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "error: cannot save to" in result.output and "it is a folder" in result.output
    assert "Traceback" not in result.output


def test_finishing_a_loaded_game_shows_the_result(tmp_path: Path) -> None:
    state = regalia.load_game("two-heirs", roads=False).new_state(4)
    rng = random.Random(4)
    while not state.final:  # play randomly into the final turns
        if state.current_player == regalia.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    start = tmp_path / "start.json"
    state.record().with_players(("human", "human")).save(start)
    save = tmp_path / "rec.json"
    result = invoke("play", "--load", str(start), "--save", str(save), input="1\n" * 300)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Totals" in result.output
    line = next(x for x in result.output.splitlines() if x.startswith("game over: "))
    assert ("white" in line and "blue" in line) and ("wins" in line or "draw" in line)
    record = Record.load(save)
    assert record.result is not None
    assert regalia.replay(record).is_terminal()


def test_play_solo_against_henry_step_by_step(tmp_path: Path) -> None:
    save = tmp_path / "rec.json"
    result = invoke("play", "-o", "solo=true", "--seed", "1", "--save", str(save), input="1\nend\nquit\n")
    assert result.exit_code == 0, result.output
    assert "henry: take " in result.output and "henry: build " in result.output
    record = Record.load(save)
    assert record.options["solo"] is True and record.players == ("human", "automaton")


# -- replay -----------------------------------------------------------------------------------------


def test_replay_lists_the_plies_and_shows_the_final_board(tmp_path: Path) -> None:
    path = random_record(tmp_path)
    record = Record.load(path)
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert f"{len(record.actions):4d}. " in result.output
    assert f"   1. chance: {record.actions[0]}" in result.output
    assert record.actions[-1] in result.output
    assert "final position" in result.output
    assert "Totals" in result.output  # the game is over: the score sheet is shown


def test_replay_at_a_ply(tmp_path: Path) -> None:
    path = random_record(tmp_path, plies=12)
    result = invoke("replay", str(path), "--ply", "3")
    assert result.exit_code == 0, result.output
    assert "position after ply 3" in result.output
    assert "   4. " not in result.output


def test_replay_step_by_step_forward_back_and_unknown_keys(tmp_path: Path) -> None:
    """Item 10: the ply's description is printed under the board, b steps back, unknown keys are
    named and do not advance."""
    path = random_record(tmp_path, plies=12)
    actions = Record.load(path).actions
    result = invoke("replay", str(path), "--step", input="\n\nzz\nb\n5\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"   1. chance: {actions[0]}" in out and "   2. " in out and "   3. " not in out
    assert "unknown key 'zz'" in out
    assert "back to ply 1" in out and "jumped to ply 5" in out
    first = out.index("   1. chance")
    assert out.rfind("position after ply 1 of 12", 0, first) != -1  # the board, then the ply's line


def test_replay_divergence_names_the_ply(tmp_path: Path) -> None:
    path = random_record(tmp_path, plies=15)
    doc = json.loads(path.read_text())
    doc["actions"][11] = "build W9 7,7"
    path.write_text(json.dumps(doc))
    result = invoke("replay", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "ply 12" in result.stderr


def test_replay_of_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "regalia-record", "version": 2, "game": "two-heirs"}')
    result = invoke("replay", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "options" in result.stderr
    path.write_text('{"format": "regalia-record", "version": 1, "game": "two-heirs"}')
    result = invoke("replay", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "version 1 records" in result.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-32"])
def test_input_files_saved_with_a_byte_order_mark_are_read(tmp_path: Path, encoding: str) -> None:
    """Item 10: a UTF-16 file with a byte-order mark (as some editors save) used to end in a traceback."""
    record = tmp_path / "rec.json"
    record.write_text(random_record(tmp_path, plies=12).read_text(), encoding=encoding)
    result = invoke("replay", str(record))
    assert result.exit_code == 0, result.output
    position = tmp_path / "position.json"
    position.write_text(EXAMPLE.read_text(), encoding=encoding)
    result = invoke("score", str(position))
    assert result.exit_code == 0, result.output
    solo = tmp_path / "solo.json"
    solo.write_text((EXAMPLE.parent / "solo-position.json").read_text(), encoding=encoding)
    result = invoke("henry", str(solo))
    assert result.exit_code == 0, result.output
    assert "Henry's turn" in result.output


def test_a_binary_or_folder_input_is_one_clear_line(tmp_path: Path) -> None:
    binary = tmp_path / "x.json"
    binary.write_bytes(b"\xff\xfe\x00\xd8 \x80\x81 not text")
    commands = (
        ["replay", str(binary)],
        ["score", str(binary)],
        ["play", "--load", str(binary)],
        ["henry", str(binary)],
    )
    for command in commands:
        result = invoke(*command)
        assert result.exit_code == ERROR_EXIT_CODE, command
        assert "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1
    result = invoke("replay", str(tmp_path))
    assert result.exit_code == ERROR_EXIT_CODE and "it is a folder" in result.stderr


def test_an_endless_or_huge_input_is_refused_by_its_size(tmp_path: Path) -> None:
    """``/dev/zero`` given as a record was read until memory ran out; a file larger than
    ``MAX_FILE_BYTES`` is now one clear line, whatever command reads it."""
    from regalia.core.data import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    inputs = [str(huge)] + (["/dev/zero"] if Path("/dev/zero").exists() else [])
    for path in inputs:
        for command in (
            ["replay", path],
            ["score", path],
            ["play", "--load", path],
            ["analyse", path],
            ["combine", path, path],
        ):
            result = invoke(*command)
            assert result.exit_code == ERROR_EXIT_CODE, command
            assert "Traceback" not in result.output
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and "larger than 16 MiB" in lines[0], (command, result.stderr)


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
        ("[]", "not a JSON list"),
        ("null", "not null"),
        ('"carcassonne-position"', "not a string"),
    ],
)
def test_score_rejects_other_documents(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert expected in result.stderr


def test_score_a_bad_format_lists_every_calculators_format(tmp_path: Path) -> None:
    """A ``format`` that is no string is refused with every registered calculator's format, in
    order (whatever games are installed)."""
    from regalia.commands.score import calculators

    path = tmp_path / "bad.json"
    path.write_text('{"format": ["two-heirs-position"]}')
    result = invoke("score", str(path))
    assert result.exit_code == ERROR_EXIT_CODE
    assert f"format: expected one of {', '.join(sorted(calculators()))}" in result.stderr


def test_score_a_missing_file(tmp_path: Path) -> None:
    result = invoke("score", str(tmp_path / "nope.json"))
    assert result.exit_code == ERROR_EXIT_CODE
    assert "cannot read" in result.stderr


# -- bench ------------------------------------------------------------------------------------------


def test_bench_json_keys() -> None:
    result = invoke("bench", "two-heirs", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert {"games_per_s", "legal_actions_us", "games", "plies_per_game", "chance_per_game"} <= set(doc)
    assert doc["games"] == 3
    assert doc["games_per_s"] > 0 and doc["chance_per_game"] > 0


def test_bench_table_with_game_options() -> None:
    result = invoke("bench", "--games", "2", "-o", "roads=false")
    assert result.exit_code == 0, result.output
    assert "random games per second" in result.output
    assert "legal_actions() median" in result.output
    assert '"roads": false' in result.output


def test_bench_mcts_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    import regalia.ai.bench

    calls = []

    def fake(game: object, seconds: float, seed: int) -> float:
        calls.append((getattr(game, "id", None), seconds, seed, getattr(game, "options", None)))
        return 123.0

    monkeypatch.setattr(regalia.ai.bench, "bench_mcts", fake)
    result = invoke("bench", "--games", "1", "--mcts", "--seconds", "0.5", "--json", "-o", "solo=true")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["mcts_iterations_per_s"] == 123.0
    # the solo game's search cuts its rollouts (Game.search_defaults; docs/ai.md, "Against Henry")
    assert json.loads(result.output)["mcts_rollout_depth"] == 4
    assert calls == [("two-heirs", 0.5, 0, regalia.load_game("two-heirs", solo=True).options)]
    table = invoke("bench", "--games", "1", "--mcts", "--seconds", "0.5", "-o", "solo=true")
    assert "MCTS iterations per second (rollouts cut at 4 decisions)" in table.output
    two = invoke("bench", "--games", "1", "--mcts", "--seconds", "0.5")
    assert "MCTS iterations per second (rollouts to the end)" in two.output


def test_the_generic_commands_name_no_game() -> None:
    """Item 6: commands/ names no game (no string, import or name of a game outside docstrings);
    games are found through the registry and bring their own commands (regalia henry). The one
    exception is the setting ``DEFAULT_GAME`` (what ``regalia play`` alone plays), which lives here
    rather than in the core's registry."""
    import ast

    root = Path(regalia.__file__).parent
    words = {"two-heirs", "two_heirs", "henry", "solo"}
    for path in [*(root / "commands").glob("*.py"), root / "cli.py", root / "bench.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        settings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["DEFAULT_GAME"]
            and path.name == "_common.py"
        }
        for node in ast.walk(tree):
            text = ""
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = "" if id(node) in settings else node.value
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                text = " ".join([getattr(node, "module", "") or "", *(a.name for a in node.names)])
            elif isinstance(node, ast.Name):
                text = node.id
            assert not any(w in text.lower() for w in words), f"{path.name}: {text!r}"
    result = invoke("henry", "--help")
    assert result.exit_code == 0 and "Henry" in result.output


def test_games_lists_every_option() -> None:
    result = invoke("games", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    th = next(g for g in doc if g["id"] == "two-heirs")
    assert th["players"] == [2, 2] and th["seats"] == ["white", "blue"]
    assert {o["name"] for o in th["options"]} == {"sets", "roads", "solo", "level", "tiles", "treasures"}
    assert all(o["help"] for o in th["options"])
    result = invoke("games", "chess")
    assert result.exit_code == ERROR_EXIT_CODE and "valid games" in result.stderr


def test_replay_exports_the_position_as_svg_and_png(tmp_path: Path) -> None:
    """The same SVG the game renders serves reports and PNG export."""
    import xml.etree.ElementTree as ET

    path = random_record(tmp_path, plies=30)
    svg, png = tmp_path / "pos.svg", tmp_path / "pos.png"
    result = invoke("replay", str(path), "--ply", "20", "--svg", str(svg), "--png", str(png))
    assert result.exit_code == 0, result.output
    assert ET.fromstring(svg.read_text()).tag.endswith("svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = invoke("replay", str(path), "--svg", str(tmp_path / "no" / "x.svg"))
    assert result.exit_code == ERROR_EXIT_CODE and "existing folder" in result.stderr
