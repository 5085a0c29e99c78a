"""``regalia play GAME``: play a game in the terminal against the computer or at one keyboard.

The command is game-agnostic: it loads the game through the registry and draws it with the game
package's ``render.render_terminal(state, seat)``. A game's ``render`` module may also offer
``legal_groups(state, actions)`` (a grouped menu), ``NOTATION_HELP`` (a help text) and
``render_result(state)``.

Input is read line by line (``typer.prompt``), so a game can be scripted through stdin.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from regalia.commands._common import console as make_console
from regalia.commands._common import game_module, read_line, seat_index
from regalia.core.errors import OptionError, RegaliaError
from regalia.core.game import State, parse_option_pairs
from regalia.core.record import Record, replay
from regalia.core.registry import load_game

GENERIC_HELP = """\
Type the number of a move from the list, or the move in notation.
Commands:
  help            this text
  board           draw the board again
  save FILE       save the game as a record (continue it with: regalia play --load FILE)
  undo            take back the last move (only when two humans play)
  quit            stop (the game is saved first when --save was given)"""


def make_opponent(vs: str, level: str | None) -> Any:
    """The agent named ``vs`` from :mod:`regalia.ai` (``level`` passed through when given)."""
    import regalia.ai

    if level is None:
        levels = regalia.ai.agent_levels(vs)
        if "medium" in levels:
            return regalia.ai.make_agent(vs, "medium")
        return regalia.ai.make_agent(vs)
    return regalia.ai.make_agent(vs, level)


class QuitGame(Exception):
    """The player asked to stop."""


class TerminalGame:
    """One game in the terminal: human seats answer prompts, the others are agents."""

    def __init__(
        self,
        state: State[Any],
        agents: dict[int, Any],
        render: ModuleType | None,
        console: Console,
        save_path: Path | None = None,
        seed: int | None = None,
    ) -> None:
        self.state = state
        self.agents = agents
        self.render = render
        self.console = console
        self.save_path = save_path
        self.rng = random.Random(seed if seed is not None else state.seed)
        self.log: list[Text] = []
        self.menu: list[Any] = []
        self.redraw = True
        self.interactive = sys.stdin.isatty() and console.is_terminal

    # -- drawing -------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [p for p in range(self.state.num_players) if p not in self.agents]

    def viewer(self) -> int | None:
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        return self.state.current_player if self.state.current_player >= 0 else None

    def seat_name(self, seat: int) -> str:
        names = self.state.seat_names()
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def draw(self) -> None:
        state = self.state
        parts: list[RenderableType] = []
        if self.render is not None and hasattr(self.render, "render_terminal"):
            parts.append(self.render.render_terminal(state, self.viewer()))
        else:
            parts.append(Text(str(state)))
            parts.append(Text(f"scores: {state.scores()}"))
        if self.log:
            recent = Text("last moves: ", style="dim")
            recent.append(Text(" · ").join(self.log[-8:]))
            parts.append(recent)
        if self.interactive:
            self.console.clear()
        self.console.print(Group(*parts))

    def draw_menu(self) -> None:
        """Number the legal actions, grouped, and print the menu."""
        state = self.state
        actions = state.legal_actions()
        groups: list[tuple[Text, list[tuple[Any, str]]]]
        if self.render is not None and hasattr(self.render, "legal_groups"):
            groups = self.render.legal_groups(state, actions)
        else:
            by_kind: dict[str, tuple[Text, list[tuple[Any, str]]]] = {}
            for a in actions:
                text = state.action_text(a)
                kind = text.split(" ", 1)[0]
                by_kind.setdefault(kind, (Text(kind, style="bold"), []))[1].append((a, text))
            groups = list(by_kind.values())
        self.menu = []
        out = Text()
        for label, items in groups:
            line = Text()
            line.append_text(label)
            line.append(": ")
            for k, (action, short) in enumerate(items):
                self.menu.append(action)
                if k:
                    line.append("  ")
                line.append(f"{len(self.menu)}", style="bold cyan")
                line.append(f" {short}")
            out.append_text(line)
            out.append("\n")
        self.console.print(out, end="")

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def save(self, path: Path) -> None:
        self.state.record().save(path)
        self.say(f"saved to {path} (continue with: regalia play --load {path})", "green")

    # -- playing -------------------------------------------------------------------------------
    def apply(self, action: Any, by_agent: bool = False) -> None:
        state = self.state
        player = state.current_player
        text = state.action_text(action)
        state.apply(action)
        entry = Text(f"{self.seat_name(player)}: ", style="bold")
        entry.append(text)
        self.log.append(entry)
        if by_agent:
            self.console.print(
                Text(f"{self.seat_name(player)} ({self.agents[player].name}) plays: ", style="bold").append(
                    text, style="bold yellow"
                )
            )
        if self.save_path is not None:
            state.record().save(self.save_path)

    def agent_move(self) -> None:
        state = self.state
        agent = self.agents[state.current_player]
        if self.interactive:
            with self.console.status(f"{self.seat_name(state.current_player)} ({agent.name}) is thinking..."):
                action = agent.choose(state, self.rng)
        else:
            action = agent.choose(state, self.rng)
        self.apply(action, by_agent=True)

    def undo(self) -> None:
        if self.agents:
            raise OptionError("undo is only available when two humans play (--vs human)")
        record: Record = self.state.record()
        if not record.actions:
            raise OptionError("there is no move to take back")
        self.state = replay(dataclasses.replace(record, actions=record.actions[:-1], result=None))
        if self.log:
            self.log.pop()
        self.say(f"took back: {record.actions[-1]}", "green")

    def help_text(self) -> str:
        extra = getattr(self.render, "NOTATION_HELP", "") if self.render is not None else ""
        return GENERIC_HELP + ("\n\n" + extra if extra else "")

    def human_input(self) -> None:
        """Read one line and act on it; illegal or unreadable input changes nothing."""
        state = self.state
        name = self.seat_name(state.current_player)
        answer = read_line(f"{name} (number, move, help)")
        if answer is None:
            raise QuitGame
        line = answer.strip()
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return
        if word in ("quit", "exit", "q"):
            raise QuitGame
        if word in ("help", "?", "h"):
            self.say(self.help_text())
            return
        if word == "board":
            self.draw()
            self.draw_menu()
            return
        if word == "save":
            path = Path(rest.strip()) if rest.strip() else self.save_path
            if path is None:
                self.say("save where? write: save FILE", "red")
                return
            self.save(path)
            return
        if word == "undo":
            self.undo()
            self.redraw = True
            return
        if line.isdigit():
            n = int(line)
            if not 1 <= n <= len(self.menu):
                self.say(f"no move number {n}: choose 1 to {len(self.menu)}", "red")
                return
            self.apply(self.menu[n - 1])
            self.redraw = True
            return
        action = state.parse_or_raise(line)
        self.apply(action)
        self.redraw = True

    def run(self) -> State[Any]:
        self.redraw = True
        try:
            while not self.state.is_terminal():
                if self.state.current_player in self.agents:
                    self.agent_move()
                    self.redraw = True
                    continue
                if self.redraw:
                    self.draw()
                    self.draw_menu()
                    self.redraw = False
                try:
                    self.human_input()
                except QuitGame:
                    raise
                except RegaliaError as exc:
                    self.console.print(Text(f"illegal: {exc}", style="bold red"))
                    self.console.print(Text("nothing was changed; type help for help", style="dim"))
        except QuitGame:
            if self.save_path is not None:
                self.save(self.save_path)
            self.say("game stopped.")
            return self.state
        self.draw()
        if self.save_path is not None:
            self.save(self.save_path)
        if self.render is None or not hasattr(self.render, "render_result"):
            self.say(f"game over: scores {self.state.scores()}", "bold")
        return self.state


def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id, e.g. two-heirs.")] = "two-heirs",
    vs: Annotated[
        str,
        typer.Option(
            "--vs",
            help="Opponent: mcts (default, at --level medium), greedy, random, or human "
            "(two players at one keyboard).",
        ),
    ] = "mcts",
    level: Annotated[
        str | None,
        typer.Option(
            "--level", help="Strength of the opponent: easy, medium, hard (--solo: Henry's level 1, 2 or 3)."
        ),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--seat", help="Your seat (white or blue; a number also works; default: the first)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the game (default: random).")] = None,
    sets: Annotated[
        str | None, typer.Option("--sets", help="Two Heirs: three sets a,b,c, or random.")
    ] = None,
    no_roads: Annotated[bool, typer.Option("--no-roads", help="Two Heirs: do not score roads.")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="Two Heirs: the solo game against Henry.")] = False,
    tiles: Annotated[
        Path | None, typer.Option("--tiles", help="Two Heirs: your own tile catalogue file.")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Any game option NAME=VALUE.")
    ] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Continue the game saved in this record.")
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Save the game to this record after every move.")
    ] = None,
) -> None:
    """Play a game in the terminal: pick moves by number or type them in notation."""
    out = make_console()
    header = ""
    if load is not None:
        record = Record.load(load)
        if sets or no_roads or solo or tiles or option or seed is not None:
            out.print(Text("note: the game's options and seed come from the loaded record", style="dim"))
        state = replay(record)
        game_id = record.game
        out.print(Text(f"loaded {load}: {len(record.actions)} moves replayed", style="green"))
    else:
        options = parse_option_pairs(option)
        if sets is not None:
            options["sets"] = sets
        if no_roads:
            options["roads"] = False
        if solo:
            options["solo"] = True
            if level is not None:
                options["level"] = level  # Henry's level (Solo setup)
        if tiles is not None:
            options["tiles"] = str(tiles)
        game = load_game(game_id, **options)
        state = game.new_state(seed)
        header = f"{game.name if hasattr(game, 'name') else game_id} · seed {state.seed}"
    agents: dict[int, Any] = {}
    automata = state.automaton_seats()
    if automata:
        pass  # the engine plays the automaton (Henry) inside the end of each of your turns
    elif vs != "human":
        human = 0 if seat is None else seat_index(state, seat)
        opponent = make_opponent(vs, level)
        agents = {p: opponent for p in range(state.num_players) if p != human}
    elif level is not None:
        raise OptionError("--level applies to a computer opponent, not to --vs human")
    if header:
        out.print(Text(header, style="bold"))
    render = game_module(game_id, "render")
    TerminalGame(state, agents, render, out, save_path=save).run()


def register(app: typer.Typer) -> None:
    app.command("play")(play)


__all__: Sequence[str] = ("TerminalGame", "make_opponent", "play", "register")
