"""Faults found playing in a terminal (issue 20, items 1-9): each test failed before its fix."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import regalia
from regalia.cli import app
from regalia.commands.play import TerminalGame, make_opponent
from regalia.core.record import Record
from regalia.match import Match, Seat

runner = CliRunner()


def invoke(*args: str, input: str = "", columns: int = 120, lines: int = 40) -> Any:
    env = {"COLUMNS": str(columns), "LINES": str(lines), "NO_COLOR": "1"}
    return runner.invoke(app, list(args), input=input, env=env)


def terminal(game_id: str, width: int, height: int, seed: int = 1, colour: bool = False) -> TerminalGame:
    """A game against the greedy agent on a recording console of ``width`` x ``height``."""
    game = regalia.load_game(game_id)
    agents = {1: make_opponent("greedy", None)}
    match = Match(game, [Seat.human(), Seat.computer("greedy")], seed=seed, agents=agents)
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system="truecolor" if colour else None,
        no_color=not colour,
        legacy_windows=False,
    )
    return TerminalGame(match, game.plugin(), console)


def nth_screen(game: TerminalGame, n: int) -> list[str]:
    """The screen at the person's ``n``-th decision (the state is left there)."""
    for k, lines in enumerate(screens(game, n), start=1):
        if k == n:
            return lines
    raise AssertionError("the game ended first")


def screens(game: TerminalGame, turns: int) -> Iterator[list[str]]:
    """The screen (as lines) at each of the person's next ``turns`` decisions, the first move of
    the menu played after each."""
    match = game.match
    for _ in range(turns):
        match.advance()
        if match.is_over():
            return
        game.console.export_text()  # forget what came before
        game.draw()
        yield game.console.export_text().rstrip("\n").splitlines()
        match.play(match.to_act, game.menu[0])


HEADERS = {"carcassonne": "ply ", "two-heirs": "ply ", "royal-court": "turn "}


@pytest.mark.parametrize("game_id", sorted(HEADERS))
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_item1_the_header_board_turn_and_menu_fit_the_terminal(game_id: str, width: int, height: int) -> None:
    game = terminal(game_id, width, height)
    seen = 0
    for lines in screens(game, 40):
        seen += 1
        assert len(lines) <= height - 1, "\n".join(lines)  # the prompt's line is left
        assert any(line.startswith(HEADERS[game_id]) for line in lines), "\n".join(lines)
        assert max(len(line) for line in lines) <= width
        assert len(game.menu) >= 1 and f"{len(game.menu)} " in "\n".join(lines)  # the whole menu
    assert seen >= 10


def test_item1_the_computers_turn_is_summarised_and_log_shows_it_all() -> None:
    result = invoke(
        "play", "two-heirs", "--vs", "greedy", "--seed", "1", input="1\n" * 12 + "log\nquit\n",
        columns=80, lines=24,
    )  # fmt: skip
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out, out
    assert "log: the whole turn" in out
    assert "   1. chance: " in out and "(white takes" in out  # the log with what each ply did


def test_item1_the_carcassonne_window_holds_the_last_tile_laid() -> None:
    from regalia.games.carcassonne.render.board import focus_positions, last_placed

    game = terminal("carcassonne", 80, 24)
    for _ in screens(game, 12):
        pass
    state: Any = game.state
    last = last_placed(state)
    assert last is not None and last in focus_positions(state)


# -- item 2: saving --------------------------------------------------------------------------------


def test_item2_save_refuses_to_overwrite_a_record_unless_forced(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    first = invoke(
        "play", "two-heirs", "--vs", "random", "--seed", "1", "--save", str(save), input="1\nend\n1\nquit\n"
    )
    assert first.exit_code == 0, first.output
    kept = save.read_text()
    again = invoke("play", "two-heirs", "--vs", "random", "--seed", "2", "--save", str(save), input="quit\n")
    assert again.exit_code != 0 and "Traceback" not in again.output
    assert "holds a game record" in again.stderr and "--force" in again.stderr and "--load" in again.stderr
    assert save.read_text() == kept
    forced = invoke(
        "play", "two-heirs", "--vs", "random", "--seed", "2", "--save", str(save), "--force", input="quit\n"
    )
    assert forced.exit_code == 0, forced.output
    assert save.read_text() != kept
    loaded = invoke("play", "--load", str(save), "--save", str(save), input="quit\n")  # its own file
    assert loaded.exit_code == 0, loaded.output


def scripted(monkeypatch: pytest.MonkeyPatch, answers: list[Any]) -> list[str]:
    """``read_line`` answers from ``answers`` (a ``KeyboardInterrupt`` is raised, ``None`` is the
    end of the input); the prompts asked are returned."""
    import regalia.commands.play as play_module

    asked: list[str] = []

    def read_line(prompt: str) -> str | None:
        asked.append(prompt)
        answer = answers.pop(0) if answers else None
        if answer is KeyboardInterrupt:
            raise KeyboardInterrupt
        return answer

    monkeypatch.setattr(play_module, "read_line", read_line)
    return asked


def test_item2_quit_asks_before_losing_an_unsaved_game(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = scripted(monkeypatch, ["1", "quit", "no", "quit", "yes"])
    game = terminal("royal-court", 120, 40)
    match = game.run()
    assert [p for p in asked if p.startswith("quit without saving")] and len(asked) == 5
    assert not match.is_over() and match.state.ply > 0


def test_item2_ctrl_c_asks_and_a_second_ctrl_c_quits(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = scripted(monkeypatch, ["1", KeyboardInterrupt, "no", KeyboardInterrupt, KeyboardInterrupt])
    game = terminal("royal-court", 120, 40)
    game.run()
    questions = [p for p in asked if p.startswith("interrupted: quit without saving")]
    assert len(questions) == 2 and len(asked) == 5
    out = game.console.export_text()
    assert "the game goes on" in out and "game stopped." in out


def test_item2_ctrl_d_asks_too_and_save_file_saves_then_quits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "with space.json"
    asked = scripted(monkeypatch, ["1", None, f"save {target}"])
    game = terminal("royal-court", 120, 40)
    game.run()
    assert asked[-1].startswith("quit without saving") and target.exists()
    out = " ".join(game.console.export_text().split())
    assert f"regalia play --load '{target}'" in out  # item 9: a path with a space is quoted


def test_item2_a_saved_game_quits_at_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = scripted(monkeypatch, ["1", "quit"])
    game = terminal("royal-court", 120, 40)
    game.save_path = tmp_path / "g.json"
    game.run()
    assert len(asked) == 2 and (tmp_path / "g.json").exists()


# -- item 4: the last turn marked on the board --------------------------------------------------------


@pytest.mark.parametrize("colour", [False, True])
def test_item4_the_last_turns_tiles_are_marked_in_every_game(colour: bool) -> None:
    from regalia.games.carcassonne.render.board import last_placed
    from regalia.games.two_heirs.render.board import last_positions

    carcassonne = terminal("carcassonne", 120, 40, colour=colour)
    lines = nth_screen(carcassonne, 3)
    last = last_placed(carcassonne.state)  # type: ignore[arg-type]
    assert last is not None
    head = next(line for line in lines if line.startswith("y\\x"))
    assert f"▾{last[0]}" in head  # the column and the row of the last tile laid
    assert any(line.startswith(f"▸{last[1]}".rjust(3)) for line in lines), "\n".join(lines)

    royal = terminal("royal-court", 120, 40, colour=colour)
    lines = nth_screen(royal, 3)
    assert sum(line.count("◂") for line in lines[:16]) >= 1 and "◂ the last turn's tiles" in "\n".join(lines)

    heirs = terminal("two-heirs", 120, 40, colour=colour)
    lines = nth_screen(heirs, 3)
    assert last_positions(heirs.state)  # type: ignore[arg-type]
    board = [line for line in lines if "◂" in line and "last" not in line]
    assert board, "\n".join(lines)


# -- item 7 ------------------------------------------------------------------------------------------


def test_item7_follower_named_by_another_side_is_played_from_the_terminal(tmp_path: Path) -> None:

    save = tmp_path / "g.json"
    result = invoke(
        "play", "carcassonne", "--vs", "human", "--draws", "manual", "--save", str(save),
        input="V\nplace V 1,0 0\nfollower road W\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0 and "illegal" not in result.output, result.output
    assert Record.load(save).actions[-1] == "follower road S"


# -- item 5: Royal Court ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 120])
def test_item5_royal_court_menus_keep_moves_whole_and_speak_in_words(width: int) -> None:
    import re

    seen_target = False
    for seed in range(4):
        game = terminal("royal-court", width, 40, seed=seed)
        for lines in screens(game, 60):
            text = "\n".join(lines)
            assert "-in-play" not in text and "-in-zone" not in text and "active-consort" not in text, text
            for line in lines:  # a move's number never ends a line without its move
                assert not re.search(r"  \d+$", line), text
                assert not re.match(r"^-?\d+,-?\d+", line), text
            seen_target = seen_target or "(step 2):" in text
            assert "K:R+ the king, red's consort" in text
    assert seen_target


def test_item5_royal_court_shows_removed_tiles_and_the_scoring_at_the_end() -> None:
    from regalia.games.royal_court.render.terminal import render_terminal, seat_line

    state: Any = regalia.load_game("royal-court").new_state(seed=1)
    state.advance()
    piece = state.game.piece(0, 0)
    state.removed |= 1 << piece
    assert (
        "removed: " + state.game.archetypes.archetypes[state.game.arch[piece]].abbr
        in seat_line(state, 0).plain
    )
    while not state.is_terminal():
        state.apply(state.legal_actions()[0]) if state.current_player >= 0 else state.advance()
    console = Console(width=80, height=24, file=io.StringIO(), record=True, color_system=None)
    console.print(render_terminal(state, 0, width=80, height=24))
    out = console.export_text()
    assert "red (king): " in out and "blue (queen): " in out and " = " in out


# -- item 6: replay -----------------------------------------------------------------------------------


def finished_record(tmp_path: Path, game_id: str = "carcassonne", seed: int = 2) -> Path:
    state: Any = regalia.load_game(game_id).new_state(seed=seed)
    import random

    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player < 0:
            state.advance()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    path = tmp_path / f"{game_id}.json"
    state.record().save(path)
    return path


@pytest.mark.parametrize("game_id", ["carcassonne", "two-heirs"])
def test_item6_replay_shows_the_whole_final_board_when_piped_or_small(tmp_path: Path, game_id: str) -> None:
    path = finished_record(tmp_path, game_id)
    result = invoke("replay", str(path), columns=80, lines=24)
    assert result.exit_code == 0, result.output
    final = result.output[result.output.index("final position") :]
    assert "board cut to fit: y" not in final and "rows y" not in final, final  # every row
    if "board cut" in final:  # too wide for 80 columns: where to see the rest
        assert "the whole board is in --svg FILE or --png FILE" in final


def test_item6_replay_step_answers_every_input_under_the_board(tmp_path: Path) -> None:
    path = finished_record(tmp_path, "carcassonne")
    total = len(Record.load(path).actions)
    result = invoke(
        "replay",
        str(path),
        "--step",
        input="999\nxyz\n-5\nboard\n" + "x" * 5000 + "\nq\n",
        columns=80,
        lines=24,
    )
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out, out
    assert f"no ply 999: choose 0 to {total}" in out and f"no ply -5: choose 0 to {total}" in out
    assert "unknown key 'xyz'" in out and "unknown key '" + "x" * 39 + "…'" in out  # cut, not echoed whole
    for answer in (
        "no ply 999",
        "unknown key 'xyz'",
        "no ply -5",
    ):  # under the board, after the position line
        at = out.index(answer)
        assert out.rfind("position after ply 0 of", 0, at) > out.rfind("y\\x", 0, at)
    assert "board: all of it" in out


# -- item 9: small things -------------------------------------------------------------------------------


def test_item9_a_long_input_is_not_echoed_whole() -> None:
    result = invoke("play", "royal-court", "--vs", "human", "--seed", "1", input="x" * 5000 + "\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "that line is 5000 characters long" in result.output
    error = next(line for line in result.output.splitlines() if "characters long" in line)
    assert len(error) < 200 and result.output.count("x" * 5000) == 1  # the input's echo only


def test_item9_save_expands_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = invoke("play", "royal-court", "--vs", "human", "--seed", "1", input="save ~/x.json\nquit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "x.json").exists() and not Path("~").exists()


def test_item9_load_says_where_the_game_came_from_and_refuses_another_game(tmp_path: Path) -> None:
    save = tmp_path / "carc.json"
    first = invoke(
        "play", "carcassonne", "--vs", "random", "--seed", "4", "--save", str(save), input="1\nquit\n"
    )
    assert first.exit_code == 0, first.output
    loaded = invoke("play", "--load", str(save), input="quit\n")
    assert loaded.exit_code == 0 and "seed None" not in loaded.output
    assert f"loaded from {save}" in loaded.output
    other = invoke("play", "royal-court", "--load", str(save), input="quit\n")
    assert other.exit_code != 0 and "it is a carcassonne game, not royal-court" in other.stderr
    same = invoke("play", "carcassonne", "--load", str(save), input="quit\n")
    assert same.exit_code == 0, same.output


def test_item9_loading_a_finished_game_leaves_its_file_alone(tmp_path: Path) -> None:
    path = finished_record(tmp_path, "royal-court", seed=3)
    before = path.read_bytes()
    result = invoke("play", "--load", str(path), input="quit\n")
    assert result.exit_code == 0 and "game over" in result.output, result.output
    assert path.read_bytes() == before


def test_item9_loading_a_position_points_to_regalia_score(tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    position.write_text('{"format": "two-heirs-position", "version": 1}')
    result = invoke("play", "--load", str(position))
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"regalia score {position}" in result.stderr and "position" in result.stderr


# -- item 3: manual draws -------------------------------------------------------------------------------


def test_item3_manual_draws_show_counts_take_descriptions_and_rules_letter_finds_the_chart(
    tmp_path: Path,
) -> None:
    save = tmp_path / "g.json"
    typed = "tiles\nrules letter\ncloister with road\nundo\ncity cap with road\nmonastery\nquit\n"
    result = invoke(
        "play", "carcassonne", "--vs", "human", "--draws", "manual", "--save", str(save), input=typed
    )
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out, out
    assert "draw (tiles left in the bag): 1 A ×2  2 B ×4" in out  # letters with the counts left
    assert "tiles left to draw" in out and "  A ×2: Road ending S; cloister; a field." in out
    assert out.count("  D ×3: City on N; road W-E") == 2  # tiles, and rules letter
    assert "'city cap with road' fits 4 tiles: D (City on N; road W-E; fields), J (" in " ".join(out.split())
    assert Record.load(save).actions == ("draw B",)  # "cloister with road" was A, taken back; then B


def test_item3_tiles_are_pictured_with_their_letters_and_counts_left() -> None:
    """Issue 20, item 3: ``tiles`` pictures each tile as the board draws it (the cloister's roof,
    the road), captioned with its letter and how many are left to draw."""
    result = invoke(
        "play", "carcassonne", "--vs", "human", "--draws", "manual", input="tiles\nquit\n", columns=80
    )
    lines = result.output.splitlines()
    caption = next(k for k, line in enumerate(lines) if line.startswith("A ×2") and "B ×4" in line)
    assert lines[caption - 2].startswith("··⌂··") and lines[caption - 1].startswith("··┃··")
    assert all(len(line) <= 80 for line in lines[caption - 3 : caption + 1])


# -- item 8: text ---------------------------------------------------------------------------------------


def test_item8_help_wraps_between_words_under_its_column_at_80() -> None:
    result = invoke("play", "carcassonne", "--vs", "human", input="help\nquit\n", columns=80)
    lines = result.output.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("Commands:"))
    block = lines[start : start + 16]
    assert all(len(line) <= 80 for line in block), block
    assert "                  --load FILE)" in block  # the wrapped rest, under its description


def test_item8_rules_word_prints_whole_paragraphs() -> None:
    result = invoke("play", "carcassonne", "--vs", "human", input="rules farmer\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    rules = regalia.load_game("carcassonne").plugin().rules()
    paragraph = next(p for p in rules.split("\n\n") if "farmer" in p.lower() and p.count("\n") >= 2)
    assert paragraph.strip() in out  # the whole paragraph, not its lines that say "farmer"


def test_item8_the_carcassonne_rules_carry_no_notes_on_expansions_not_in_the_game() -> None:
    rules = regalia.load_game("carcassonne").plugin().rules()
    for word in ("dragon", "fairy", "portal", "wagon"):
        for paragraph in rules.split("\n\n"):
            if word in paragraph.lower():
                assert "Left out here" in paragraph and "not in this game" in " ".join(paragraph.split())


@pytest.mark.parametrize("width", [80, 120])
def test_item8_two_heirs_building_names_are_not_cut_mid_word(width: int) -> None:
    from regalia.games.two_heirs.render.board import fit_name

    assert fit_name("cathedral", 9) == "cathedral"
    cut = ("tradi", "marke", "sawmi", "cathedrl")
    for seed in range(3):
        game = terminal("two-heirs", width, 40, seed=seed)
        for lines in screens(game, 30):
            words = set(" ".join(lines).replace("│", " ").split())
            assert not words & set(cut), sorted(words & set(cut))


def test_item18_the_royal_court_status_line_counts_turns_against_the_cap() -> None:
    """Ruling RC-turn-cap (issue 20, item 18): the cap is an option, and the terminal's status line
    says how many turns the game has ("turn 1 of 12")."""
    from regalia.games.royal_court.render.terminal import render_terminal

    state = regalia.load_game("royal-court", turn_cap=12).new_state(seed=1)
    state.advance()
    console = Console(width=80, no_color=True, record=True)
    console.print(render_terminal(state, 0, width=80, height=24))
    assert "turn 1 of 12 · " in console.export_text()


def test_item8_the_rotation_legend_names_every_rotation() -> None:
    """Issue 20, item 8: the legend of the placement numbers says what each arrow means, not one
    rotation whatever the tile."""
    from regalia.games.carcassonne.render.panels import legend

    state = regalia.load_game("carcassonne").new_state(seed=1)
    state.advance()
    console = Console(width=120, no_color=True, record=True)
    console.print(legend(state, 120))
    text = console.export_text()
    assert "printed top" in text and all(f"{r}°" in text for r in (0, 90, 180, 270))
