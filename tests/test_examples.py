"""The example game of docs/contract.md (examples/pretenders): it passes the conformance kit, keeps
its own rules, survives random play, replays from its record, and the doc's excerpts are its code."""

from __future__ import annotations

import doctest
import importlib
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from regalia.cli import app
from regalia.core.errors import IllegalAction, NotationError
from regalia.core.game import CHANCE, SPECTATOR, TERMINAL
from regalia.core.record import Record, replay
from regalia.core.registry import GAMES, register_game
from regalia.testing import check_game, option_sets

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "pretenders"
SOURCE = FOLDER / "pretenders.py"
CONTRACT = ROOT / "docs" / "contract.md"

#: The option sets checked here: the defaults, a deck with ties, the largest deck and stake.
OPTION_SETS: list[dict[str, Any]] = [{}, {"copies": 2}, {"ranks": 5, "copies": 3, "stake": 3}]


@pytest.fixture
def pretenders(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The example module, importable as ``pretenders`` and registered by hand (the way a reader
    does without installing its package) for the duration of a test."""
    saved = dict(GAMES)
    monkeypatch.syspath_prepend(str(FOLDER))
    module = importlib.import_module("pretenders")
    register_game("pretenders", "pretenders:Pretenders")
    yield module
    GAMES.clear()
    GAMES.update(saved)


def played(module: ModuleType, texts: list[str], **options: Any) -> Any:
    state = module.Pretenders(**options).initial_state()
    for text in texts:
        state.apply_text(text)
    return state


# -- the conformance kit ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
def test_the_example_passes_the_conformance_kit(pretenders: ModuleType, options: dict[str, Any]) -> None:
    assert options in [*option_sets("pretenders"), OPTION_SETS[-1]]  # what `regalia check` runs, and more
    report = check_game("pretenders", games=20, seed=5, **options)
    report.raise_if_failed()
    for name in ("options", "termination", "notation", "chance", "json", "determinize", "records", "views"):
        assert name in report.passed, report.summary()


def test_regalia_check_takes_a_file_or_a_module_of_a_game_not_registered(
    pretenders: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the command adds the file's folder
    GAMES.pop("pretenders")
    result = CliRunner().invoke(app, ["check", str(SOURCE) + ":Pretenders", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "pretenders" in result.output and "checks passed" in result.output
    assert GAMES["pretenders"] == "pretenders:Pretenders"
    result = CliRunner().invoke(app, ["check", "pretenders:Pretenders", "-n", "1", "-o", "copies=2"])
    assert result.exit_code == 0, result.output
    for target, reason in [
        ("no/such/file.py:Pretenders", "no file"),
        ("pretenders:NoSuchClass", "NoSuchClass"),
        ("pretenders:Deal", "not a Game subclass"),
    ]:
        result = CliRunner().invoke(app, ["check", target])
        assert result.exit_code == 2 and reason in result.stderr, (target, result.stderr)


# -- the rules -------------------------------------------------------------------------------------


def test_two_passes_go_to_the_showdown_where_the_higher_title_takes_the_antes(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 D", "deal 2 K", "pass", "pass"])
    assert state.current_player == TERMINAL
    assert state.scores() == [-1, 1] and state.winner() == 1
    assert state.observation(SPECTATOR)["hands"] == ["D", "K"]  # shown at the showdown


def test_a_bet_answered_by_a_pass_gives_up_the_pot_unseen(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 D", "deal 2 K", "bet", "pass"])
    assert state.is_terminal() and state.folded() == 1
    assert state.scores() == [1, -1]  # the lower title wins: the king gave up
    assert state.observation(SPECTATOR)["hands"] == ["?", "?"]
    assert state.observation(0)["hands"] == ["D", "?"]


def test_a_called_bet_puts_the_stake_in_the_pot(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 K", "deal 2 P", "pass", "bet", "bet"], stake=3)
    assert state.paid() == [4, 4]
    assert state.scores() == [4, -4] and state.returns() == [1.0, -1.0]


def test_equal_titles_share_the_pot(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 K", "deal 2 K", "bet", "bet"], copies=2)
    assert state.scores() == [0, 0] and state.returns() == [0.0, 0.0] and state.winner() is None


def test_a_bet_must_be_answered_and_then_the_game_is_over(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 K", "deal 2 P", "pass", "bet"])
    assert state.current_player == 0 and state.legal_actions() == ["pass", "bet"]
    state.apply_text("pass")
    with pytest.raises(IllegalAction) as refused:
        state.apply_text("bet")
    assert refused.value.rule == "Showdown" and state.ply == 5


def test_the_deal_draws_from_what_is_left_in_the_deck(pretenders: ModuleType) -> None:
    Deal = pretenders.Deal
    state = played(pretenders, ["deal 1 K"], copies=2)
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(Deal(1, "D"), 0.4), (Deal(1, "P"), 0.4), (Deal(1, "K"), 0.2)]
    single = played(pretenders, ["deal 1 K"])
    assert [a for a, _ in single.chance_outcomes()] == [Deal(1, "D"), Deal(1, "P")]
    with pytest.raises(IllegalAction) as refused:
        single.apply(Deal(1, "K"))  # the only king is dealt
    assert refused.value.rule == "Deal" and single.ply == 1
    with pytest.raises(IllegalAction):
        played(pretenders, ["deal 1 K"], ranks=3).apply_text("deal 2 B")  # no baron in a 3-title deck


def test_a_deal_is_read_only_by_the_seat_it_is_dealt_to(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 K", "deal 2 D", "bet"])
    assert state.record(0).actions == ("deal 1 K", "deal 2 ?", "bet")
    assert state.record(1).actions == ("deal 1 ?", "deal 2 D", "bet")
    assert state.record(SPECTATOR).actions == ("deal 1 ?", "deal 2 ?", "bet")
    assert state.record().actions == ("deal 1 K", "deal 2 D", "bet")
    with pytest.raises(NotationError):
        state.parse_action("deal 2 ?")  # a redacted deal is not an action


def test_determinize_deals_again_only_the_titles_its_seat_cannot_see(pretenders: ModuleType) -> None:
    state = played(pretenders, ["deal 1 K", "deal 2 D", "pass", "bet"])
    rng = random.Random(4)
    seen: Counter[str] = Counter()
    for _ in range(200):
        det = state.determinize(0, rng)
        assert det.hands[0] == "K" and det.moves == state.moves
        assert det.history[1] == pretenders.Deal(1, det.hands[1])  # the history tells the same story
        seen[det.hands[1]] += 1
    assert set(seen) == {"D", "P"} and min(seen.values()) > 60  # never the king seat 0 holds
    assert state.hands == ("K", "D")


def test_notation_reads_back_and_refuses_what_it_does_not_know(pretenders: ModuleType) -> None:
    state = pretenders.Pretenders().initial_state()
    assert state.parse_action("deal 2 P") == pretenders.Deal(1, "P")
    assert state.notation(pretenders.Deal(1, "P")) == "deal 2 P"
    assert state.parse_action(" BET ") == "bet"
    for text in ["deal 3 K", "deal 1 Q", "deal 1", "raise", ""]:
        with pytest.raises(NotationError, match="expected pass, bet or deal"):
            state.parse_action(text)


def test_the_options_schema_lists_the_deck_and_the_stake(pretenders: ModuleType) -> None:
    schema = {o["name"]: o for o in pretenders.Pretenders.options_schema()}
    assert list(schema) == ["ranks", "copies", "stake"]
    assert (schema["ranks"]["minimum"], schema["ranks"]["maximum"], schema["ranks"]["default"]) == (3, 5, 3)
    assert pretenders.Pretenders(ranks=5, copies=2).options.deck() == dict.fromkeys("BEDPK", 2)


# -- random play and records -------------------------------------------------------------------------

#: Every way a game can go (the moves after the deal), as in Kuhn poker.
ENDINGS = {("pass", "pass"), ("pass", "bet", "pass"), ("pass", "bet", "bet"), ("bet", "pass"), ("bet", "bet")}


@pytest.mark.parametrize("options", OPTION_SETS, ids=[json.dumps(o) for o in OPTION_SETS])
def test_random_simulation(pretenders: ModuleType, options: dict[str, Any]) -> None:
    """OpenSpiel's random_sim_test: random games, chance by its probabilities, end well."""
    game = pretenders.Pretenders(**options)
    rng = random.Random(0)
    endings: Counter[tuple[str, ...]] = Counter()
    for seed in range(300):
        state = game.new_state(seed)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                action = state.sample_chance(rng)
            else:
                assert state.current_player == len(state.moves) % 2
                action = rng.choice(state.legal_actions())
            state.apply(action)
        assert sum(state.scores()) == 0 and all(-1 <= r <= 1 for r in state.returns())
        assert Counter(state.hands) - Counter(game.options.deck()) == Counter()  # dealt from the deck
        endings[state.moves] += 1
    assert set(endings) == ENDINGS


def test_a_record_replays_to_the_same_state_without_a_seed(pretenders: ModuleType) -> None:
    state = pretenders.Pretenders(copies=2).new_state(seed=12)
    rng = random.Random(12)
    state.advance()
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    doc = json.loads(state.record().dumps())
    assert "seed" not in json.dumps(doc) and doc["actions"][:2] == [
        f"deal {s + 1} {state.hands[s]}" for s in (0, 1)
    ]
    again = replay(Record.from_json(doc))
    assert again.to_json() == state.to_json() and again.scores() == state.scores()
    unregistered = replay(doc, game=pretenders.Pretenders(copies=2))  # no registry needed
    assert unregistered.to_json() == state.to_json()


def test_the_plugin_tells_the_log_what_happened_without_a_hidden_title(pretenders: ModuleType) -> None:
    plugin = pretenders.Pretenders.plugin()
    state = pretenders.Pretenders().initial_state()
    said = []
    for text in ["deal 1 K", "deal 2 D", "pass", "bet", "bet"]:
        state.apply_text(text)
        said.append(plugin.describe(state, state.plies()[-1]))
    assert said == [
        "The first pretender is dealt a secret title.",
        "The second pretender is dealt a secret title.",
        "The first pretender passes.",
        "The second pretender bets 1 gold.",
        "The first pretender calls: king and duke; the king takes the pot (4 gold).",
    ]
    folded = played(pretenders, ["deal 1 K", "deal 2 D", "bet", "pass"])
    assert (
        plugin.describe(folded, folded.plies()[-1])
        == "The second pretender gives up the claim; the pot goes unseen."
    )
    assert plugin.rules().startswith("The Pretenders:") and "higher title takes the pot" in plugin.rules()
    assert ">>>" not in plugin.rules()


def test_the_module_examples_run(pretenders: ModuleType) -> None:
    result = doctest.testmod(pretenders)
    assert result.attempted > 0 and result.failed == 0


# -- the walkthrough ---------------------------------------------------------------------------------


def adding_a_game() -> str:
    """The section "Adding a game" of docs/contract.md."""
    return CONTRACT.read_text(encoding="utf-8").split("## Adding a game", 1)[1].split("\n## ", 1)[0]


def test_the_walkthroughs_excerpts_are_the_examples_code() -> None:
    """docs/contract.md's "Adding a game" quotes examples/pretenders/pretenders.py: every Python
    excerpt is a part of the file as written, and the TOML excerpt is the example's pyproject.toml."""
    section = adding_a_game()
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, flags=re.S)
    source = SOURCE.read_text(encoding="utf-8")
    pyproject = (FOLDER / "pyproject.toml").read_text(encoding="utf-8")
    python = [body for lang, body in blocks if lang == "python"]
    assert len(python) >= 6
    for body in python:
        assert body in source, f"docs/contract.md quotes code the example does not have:\n{body}"
    for body in [body for lang, body in blocks if lang == "toml"]:
        assert body in pyproject, (
            f"docs/contract.md quotes a pyproject.toml the example does not have:\n{body}"
        )


def test_the_walkthroughs_example_runs_from_the_root_of_the_clone(
    pretenders: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))
    test = doctest.DocTestParser().get_doctest(adding_a_game(), {}, "Adding a game", str(CONTRACT), 0)
    assert test.examples
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
