"""The plugin surface and the game registry: the defaults a game without a plugin gets, the three
games found through the ``regalia.games`` entry points, and clear errors for registrations that
cannot be used."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from ai.toygame import ToyGame, dealt
from regalia.cli import app, register_game_commands
from regalia.core import registry
from regalia.core.errors import RegistryError, Unsupported
from regalia.core.game import Game
from regalia.core.plugin import Plugin
from regalia.core.registry import GAMES, game_class, game_ids, game_plugin, load_game, register_game

SHIPPED = {
    "two-heirs": "regalia.games.two_heirs.game:TwoHeirs",
    "carcassonne": "regalia.games.carcassonne.game:Carcassonne",
    "royal-court": "regalia.games.royal_court.game:RoyalCourt",
}


def printed(renderable: Any) -> str:
    console = Console(width=100, no_color=True)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


# -- the defaults ------------------------------------------------------------------------------------


def test_a_game_without_a_plugin_gets_every_default() -> None:
    game = ToyGame()
    plugin = game.plugin()
    assert type(plugin) is Plugin
    state = dealt(game, 3)
    actions = state.legal_actions()
    groups = plugin.legal_groups(state, actions)
    # grouped by the first word of the notation, in the order of the legal actions
    assert [label for label, _ in groups] == list(
        dict.fromkeys(state.action_text(a).split()[0] for a in actions)
    )
    assert [a for _, items in groups for a, _ in items] == list(actions)
    assert all(short == state.action_text(a) for _, items in groups for a, short in items)
    assert printed(plugin.render_terminal(state, 0, width=80, height=24)).strip() == (
        f"{state}  scores {state.scores()}"
    )
    state.apply(actions[0])
    assert plugin.describe(state, state.plies()[-1]) == ""
    assert plugin.rules() == "" and plugin.notation_help == ""
    assert plugin.check_options == ({},) and plugin.commands == () and plugin.calculator is None
    assert plugin.statistics(state) == [{"score": float(s)} for s in state.scores()]
    assert plugin.benchmarks(game, 0) == {}
    assert plugin.reference(game) == []
    assert printed(plugin.render_result(state)).strip() == "final scores: " + ", ".join(
        str(s) for s in state.scores()
    )


def test_absent_capabilities_say_so() -> None:
    game = ToyGame()
    plugin = game.plugin()
    assert not plugin.has_svg and not plugin.has_encoding
    with pytest.raises(Unsupported, match=r"^Toy market draws no SVG$"):
        plugin.render_svg(game.new_state(1), None)
    with pytest.raises(Unsupported, match=r"^Toy market has no encoding$"):
        plugin.encoding(game)


def test_a_plugin_overrides_only_what_it_offers() -> None:
    class Pictured(Plugin[Any]):
        notation_help = "take I, end"

        def render_svg(self, state: Any, viewer: int | None = None, clickable: bool = True) -> str:
            return "<svg/>"

    plugin = Pictured()
    assert plugin.has_svg and not plugin.has_encoding
    assert plugin.render_svg(ToyGame().new_state(1)) == "<svg/>" and plugin.notation_help == "take I, end"
    assert plugin.rules() == ""


def test_each_shipped_game_declares_its_own_plugin() -> None:
    for game_id in SHIPPED:
        plugin = game_plugin(game_id)
        assert type(plugin) is not Plugin and isinstance(plugin, Plugin)
        assert plugin.has_svg and plugin.has_encoding
        assert plugin.rules().startswith("#") and plugin.notation_help
        assert plugin is game_class(game_id).plugin() is load_game(game_id).plugin()
    assert game_plugin("royal-court").calculator is None
    assert (
        game_plugin("two-heirs").calculator is not None and game_plugin("carcassonne").calculator is not None
    )


def test_loading_a_game_imports_no_heavy_library() -> None:
    code = (
        "import sys, regalia.core\n"
        "for g in regalia.core.game_ids(): regalia.core.load_game(g).new_state(1).advance()\n"
        "print([m for m in ('rich', 'numpy') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- entry points ------------------------------------------------------------------------------------


def test_the_shipped_games_are_found_through_entry_points() -> None:
    declared = {ep.name: ep.value for ep in entry_points(group="regalia.games")}
    assert {name: declared.get(name) for name in SHIPPED} == SHIPPED
    for name in SHIPPED:
        assert name not in GAMES  # not registered by hand: found through the entry point
        assert name in game_ids()
        assert game_class(name) is registry.entry_point_games()[name].load()
        assert load_game(name).id == name


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The registry reads these entry points (with the shipped ones) instead of the installed ones."""
    extra: list[EntryPoint] = []
    shipped = [EntryPoint(name, value, "regalia.games") for name, value in SHIPPED.items()]
    monkeypatch.setattr(registry, "entry_points", lambda group: [*shipped, *extra])
    monkeypatch.setattr(registry, "_found", None)
    monkeypatch.setattr(registry, "_conflicts", {})
    yield extra


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("regalia.games.nowhere:Game", ["failed to load", "ModuleNotFoundError", "regalia.games.nowhere"]),
        ("regalia.games.two_heirs.game:Nothing", ["failed to load", "AttributeError"]),
        ("regalia.core.game:CHANCE", ["is not a Game subclass"]),
        ("regalia.games.two_heirs.game:TwoHeirs", ["names a game whose id is 'two-heirs'"]),
    ],
)
def test_a_bad_entry_point_gives_a_clear_error(
    fake_entry_points: list[EntryPoint], value: str, words: list[str]
) -> None:
    fake_entry_points.append(EntryPoint("broken", value, "regalia.games"))
    assert "broken" in game_ids()
    with pytest.raises(RegistryError) as info:
        load_game("broken")
    message = str(info.value)
    assert f"broken = {value!r} (regalia.games" in message
    for word in words:
        assert word in message
    assert load_game("two-heirs").id == "two-heirs"  # the other games still load


def test_a_game_declared_twice_names_both_entry_points(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(EntryPoint("two-heirs", "elsewhere.game:TwoHeirs", "regalia.games"))
    with pytest.raises(RegistryError, match="declared by more than one entry point") as info:
        game_class("two-heirs")
    assert "regalia.games.two_heirs.game:TwoHeirs" in str(info.value)
    assert "elsewhere.game:TwoHeirs" in str(info.value)
    assert load_game("carcassonne").id == "carcassonne"


def test_the_same_entry_point_twice_is_one_game(fake_entry_points: list[EntryPoint]) -> None:
    """A distribution seen twice on the path declares the same target twice: no conflict."""
    fake_entry_points.append(EntryPoint("two-heirs", SHIPPED["two-heirs"], "regalia.games"))
    assert load_game("two-heirs").id == "two-heirs"


def test_the_command_names_a_broken_game_and_keeps_the_others(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(EntryPoint("broken", "regalia.games.nowhere:Game", "regalia.games"))
    target = typer.Typer()
    assert set(register_game_commands(target)) == {"two-heirs"}  # henry, from The Two Heirs' plugin
    result = CliRunner().invoke(app, ["play", "broken"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "the game entry point broken = 'regalia.games.nowhere:Game'" in result.stderr


# -- registering by hand -----------------------------------------------------------------------------


def test_register_game_refuses_to_replace_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", {})
    register_game("toy-market", ToyGame)
    register_game("toy-market", ToyGame)  # the same target again: fine
    assert game_class("toy-market") is ToyGame and "toy-market" in game_ids()
    with pytest.raises(RegistryError, match="already registered"):
        register_game("toy-market", "ai.toygame:ToyGame")
    register_game("toy-market", "ai.toygame:ToyGame", replace=True)
    assert game_class("toy-market") is ToyGame


def test_a_game_registered_by_hand_takes_precedence(monkeypatch: pytest.MonkeyPatch) -> None:
    class Other(ToyGame):
        id = "two-heirs"

    monkeypatch.setitem(GAMES, "two-heirs", Other)
    assert game_class("two-heirs") is Other
    monkeypatch.setitem(GAMES, "two-heirs", "ai.toygame:Nowhere")
    with pytest.raises(RegistryError, match=r"'two-heirs' \(ai.toygame:Nowhere\) failed to load"):
        game_class("two-heirs")


def test_the_core_names_no_game() -> None:
    core = Path(registry.__file__).parent
    for module in ("registry.py", "plugin.py"):
        code = (core / module).read_text(encoding="utf-8").split('"""', 2)[-1]  # after the docstring
        for game_id in SHIPPED:
            assert f'"{game_id}"' not in code, (module, game_id)
    assert not hasattr(registry, "DEFAULT_GAME")
    assert issubclass(game_class("royal-court"), Game)
