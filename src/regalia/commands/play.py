"""``regalia play GAME``: play a game in the terminal against the computer or at one keyboard.

The command is game-agnostic: it loads the game through the registry and draws it with the game's
plugin (:class:`regalia.core.plugin.Plugin`: ``render_terminal``, ``legal_groups``, ``describe``,
``notation_help``, ``rules``). Chance's draws come from the game's seed; the seats the rules play
themselves (a solo automaton) take their steps on their own, each shown on its own line.

Input is read line by line; at a terminal the line has editing and history (readline) and Tab
completes moves and commands. A game can be scripted through stdin. No input, file or key ends in
a traceback: errors are one line, and the state is unchanged.

>>> make_opponent("mcts", None).name  # the default level
'mcts:medium'
>>> make_opponent("greedy", "hard")
Traceback (most recent call last):
...
regalia.core.errors.OptionError: agent 'greedy' has no levels; agents with levels: mcts
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from regalia.commands._common import DEFAULT_GAME, game_help, options_from, read_line, seat_index
from regalia.commands._common import console as make_console
from regalia.core.errors import OptionError, RecordError, RegaliaError
from regalia.core.game import CHANCE, State
from regalia.core.plugin import Plugin
from regalia.core.record import Record, replay
from regalia.core.registry import load_game
from regalia.core.text import plural

HUMAN = "human"
AUTOMATON = "automaton"

GENERIC_HELP = """\
Type the number of a move from the list, or the move in notation (Tab completes it).
Commands:
  help            this text
  rules [WORD]    the rulebook (or only its paragraphs that mention WORD)
  hint            what the computer would play here
  board           draw the board again
  save FILE       save the game as a record (continue it with: regalia play --load FILE)
  undo            take back your last move (and whatever was played after it)
  quit            stop (the game is saved first when it has a save file)"""

COMMANDS = ("help", "rules", "hint", "board", "save", "undo", "quit")
#: Sources of chance's outcomes (``--draws``).
DRAWS = ("seed", "manual")

MANUAL_HELP = """\
Draws are typed in (--draws manual): when chance is to act, type what was drawn from the real box,
by its number in the list, its notation (draw D) or its name alone (D); undo takes back a draw too."""


def make_opponent(vs: str, level: str | None) -> Any:
    """The agent ``vs`` (a name or an agent spec such as ``mcts:easy``) from :mod:`regalia.ai`, at
    ``level`` when given (default: medium for an agent with levels)."""
    import regalia.ai

    if ":" in vs:
        return regalia.ai.agent_from_spec(vs if level is None else f"{vs.split(':')[0]}:{level}")
    if level is None and "medium" in regalia.ai.agent_levels(vs):
        level = "medium"
    return regalia.ai.make_agent(vs, level)


class QuitGame(Exception):
    """The player asked to stop."""


@dataclasses.dataclass
class Seat:
    """Who plays a seat: ``human``, ``automaton`` or an agent (its spec)."""

    kind: str
    agent: Any = None

    @property
    def label(self) -> str:
        return str(self.agent.name) if self.agent is not None else self.kind


class TerminalGame:
    """One game in the terminal: human seats answer prompts, agents and automata play on their own."""

    def __init__(
        self,
        state: State[Any],
        seats: list[Seat],
        plugin: Plugin[Any],
        console: Console,
        save_path: Path | None = None,
        log: Sequence[Text] = (),
        manual_chance: bool = False,
    ) -> None:
        self.state = state
        self.manual_chance = manual_chance
        self.seats = seats
        self.plugin = plugin
        self.console = console
        self.save_path = save_path
        self.log: list[Text] = list(log)
        self.turn_lines: list[Text] = []
        self._chance_line: Text | None = None
        self.menu: list[Any] = []
        self.redraw = True
        self.interactive = sys.stdin.isatty() and console.is_terminal
        if self.interactive:
            _enable_line_editing(self)

    # -- seats -----------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s.kind == HUMAN]

    def viewer(self) -> int | None:
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        player = self.state.current_player
        return player if player >= 0 else None

    def seat_name(self, seat: int) -> str:
        if seat == CHANCE:
            return "chance"
        names = self.state.seat_names()
        name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
        if seat in self.humans and len(self.humans) == 1:
            name += " (you)"
        return name

    def players(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.seats)

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self, whole: bool = False) -> None:
        """Draw the position to fit the terminal (``whole``: the whole board, whatever its height)."""
        state = self.state
        parts: list[RenderableType] = []
        size = self.console.size
        height = None if whole else size.height
        parts.append(self.plugin.render_terminal(state, self.viewer(), width=size.width, height=height))
        if self.turn_lines:
            parts.append(Text("\n").join(self.turn_lines))
        elif self.log:
            recent = Text("last moves: ", style="dim")
            recent.append(Text(" · ").join(self.log[-6:]))
            parts.append(recent)
        if self.interactive:
            self.console.clear()
        self.console.print(Group(*parts))

    def draw_menu(self) -> None:
        """Number the legal actions, grouped, and print the menu."""
        state = self.state
        actions = state.legal_actions()
        groups: list[tuple[Any, list[tuple[Any, str]]]]
        if state.current_player == CHANCE:
            groups = [(Text("what was drawn?", style="bold"), chance_menu(state))]
        else:
            groups = self.plugin.legal_groups(state, actions)
        self.menu = []
        out = Text()
        for label, items in groups:
            line = Text()
            line.append_text(label if isinstance(label, Text) else Text(str(label), style="bold"))
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

    def say(self, message: str | Text, style: str = "") -> None:
        self.console.print(message if isinstance(message, Text) else Text(message, style=style))

    # -- saving ----------------------------------------------------------------------------------
    def record(self) -> Record:
        record: Record = self.state.record()
        return record.with_players(self.players())

    def save(self, path: Path, quiet: bool = False) -> None:
        self.record().save(path)
        if not quiet:
            self.say(f"saved to {path} (continue with: regalia play --load {path})", "green")

    def autosave(self) -> None:
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)

    # -- playing ---------------------------------------------------------------------------------
    def describe(self, player: int, text: str, latest: bool = True) -> Text:
        """One line for a ply: who, the notation and (for the ply just applied) what it did."""
        who = self.seat_name(player)
        if 0 <= player < len(self.seats) and self.seats[player].agent is not None:
            who += f" ({self.seats[player].label})"
        line = Text(f"{who}: ", style="bold")
        line.append(text, style="bold yellow" if player != CHANCE else "")
        if latest:
            detail = self.plugin.describe(self.state, self.state.plies()[-1])
            if detail and detail != text:
                line.append(f" ({detail})", style="dim")
        return line

    def apply(self, action: Any) -> None:
        """Apply an action and show its line: a new seat's first ply clears the lines of the turn
        before; chance's outcomes in a row share one line."""
        state = self.state
        player = state.current_player
        if player != CHANCE and player != self._last_player():
            self.turn_lines = []
            self._chance_line = None
        text = state.action_text(action)
        state.apply(action)
        if player == CHANCE and self._chance_line is not None and self.turn_lines:
            self._chance_line.append(" · ")
            self._chance_line.append(text)
        else:
            line = self.describe(player, text)
            self.turn_lines.append(line)
            self.log.append(line)
            self._chance_line = line if player == CHANCE else None
        self.autosave()

    def play_automatic(self) -> None:
        """Chance's draws and the automata's steps, one line each."""
        state = self.state
        while not state.is_terminal():
            player = state.current_player
            if player == CHANCE:
                if self.manual_chance:
                    return
                self.apply(state.sample_chance())
            elif 0 <= player < len(self.seats) and self.seats[player].kind == AUTOMATON:
                self.apply(state.forced_action())
            else:
                return

    def _last_player(self) -> int:
        plies = self.state.actors()
        for player, _ in reversed(plies):
            if player != CHANCE:
                return int(player)
        return CHANCE

    def agent_move(self) -> None:
        state = self.state
        seat = state.current_player
        agent = self.seats[seat].agent
        import random

        rng = random.Random(f"{state.seed}:{state.ply}")
        if self.interactive:
            with self.console.status(f"{self.seat_name(seat)} ({agent.name}) is thinking..."):
                action = agent.choose(state, rng)
        else:
            action = agent.choose(state, rng)
        self.apply(action)
        self.say(self.turn_lines[-1])

    def undo(self) -> None:
        """Take back the last move of a human seat and everything played after it."""
        actors = self.state.actors()
        humans = set(self.humans)
        if self.manual_chance:
            humans.add(CHANCE)  # a draw typed in by mistake can be taken back too
        cut = next((k for k in range(len(actors) - 1, -1, -1) if actors[k][0] in humans), None)
        if cut is None:
            raise OptionError("there is no move of yours to take back")
        record = self.state.record()
        taken = record.actions[cut]
        self.state = replay(
            dataclasses.replace(record, actions=record.actions[:cut], result=None), seed=self.state.seed
        )
        self.log = self.log[: max(0, len(self.log) - (len(actors) - cut))]
        self.turn_lines = []
        self._chance_line = None
        later = len(actors) - cut - 1
        extra = f" and {plural(later, 'ply', 'plies')} after it" if later else ""
        self.say(f"took back: {taken}{extra}", "green")
        self.autosave()

    def hint(self) -> None:
        import random

        from regalia.ai import make_agent

        agent = make_agent("mcts", "medium")
        state = self.state
        if state.current_player == CHANCE:
            self.say("chance is to act: type what was drawn; a hint comes once a seat is to play", "red")
            return
        with self.thinking("thinking about a hint..."):
            action = agent.choose(state, random.Random(state.ply))
        self.say(Text("hint: ", style="bold").append(state.action_text(action), style="bold yellow"))

    @contextlib.contextmanager
    def thinking(self, message: str) -> Iterator[None]:
        if self.interactive:
            with self.console.status(message):
                yield
        else:
            yield

    def rules(self, word: str) -> None:
        text = self.plugin.rules()
        if not text:
            self.say("this game ships no rulebook", "red")
            return
        if word:
            paragraphs = [p for p in text.split("\n") if word.lower() in p.lower()]
            if not paragraphs:
                self.say(f"the rules do not mention {word!r}", "red")
                return
            text = "\n".join(paragraphs)
        if self.interactive:
            with self.console.pager():
                self.console.print(Text(text))
        else:
            self.console.print(Text(text))

    def help_text(self) -> str:
        extra = self.plugin.notation_help
        manual = "\n" + MANUAL_HELP if self.manual_chance else ""
        return GENERIC_HELP + manual + ("\n\n" + extra if extra else "")

    def completions(self) -> list[str]:
        """What Tab completes: the legal moves in notation and the commands."""
        state = self.state
        moves = [state.action_text(a) for a in state.legal_actions()] if state.current_player >= 0 else []
        return [*moves, *COMMANDS]

    def human_input(self) -> None:
        """Read one line and act on it; illegal or unreadable input changes nothing."""
        state = self.state
        name = self.seat_name(state.current_player)
        if state.current_player == CHANCE:
            answer = read_line("chance: what was drawn (number, outcome, help)")
        else:
            answer = read_line(f"{name} (number, move, help)")
        if answer is None:
            raise QuitGame
        line = answer.strip()
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if not line:
            return
        if word in ("quit", "exit", "q"):
            raise QuitGame
        if word in ("help", "?", "h"):
            self.say(self.help_text())
            return
        if word == "rules":
            self.rules(rest)
            return
        if word == "hint":
            self.hint()
            return
        if word == "board":
            self.draw(whole=True)
            self.draw_menu()
            return
        if word == "save":
            path = Path(rest) if rest else self.save_path
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
        chance = state.current_player == CHANCE
        self.apply(chance_outcome(state, line) if chance else state.parse_or_raise(line))
        self.redraw = True

    def run(self) -> State[Any]:
        self.redraw = True
        try:
            while True:
                self.play_automatic()
                if self.state.is_terminal():
                    break
                player = self.state.current_player
                seat = Seat(HUMAN) if player == CHANCE else self.seats[player]
                if seat.kind != HUMAN:
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
                    word = "illegal" if _is_move(exc) else "error"
                    self.say(Text(f"{word}: {exc}", style="bold red"))
                    self.say("nothing was changed; type help for help", "dim")
        except QuitGame:
            self._stop("game stopped.")
            return self.state
        except KeyboardInterrupt:
            self._stop("interrupted.")
            raise typer.Exit(130) from None
        self.draw()
        self.autosave()
        if self.save_path is not None:
            self.say(f"the game is saved in {self.save_path}", "green")
        self.say(self.result_line())
        return self.state

    def _stop(self, message: str) -> None:
        if self.save_path is not None:
            try:
                self.save(self.save_path)
            except RegaliaError as exc:
                self.say(f"error: {exc}", "bold red")
        self.say(message)

    def result_line(self) -> Text:
        """The result with the seats' names: ``white (you) wins, 42 : 39 (white 42, blue 39)``."""
        state = self.state
        scores = state.scores()
        names = [self.seat_name(s) for s in range(state.num_players)]
        winner = state.winner()
        head = "draw" if winner is None else f"{names[winner]} wins"
        detail = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
        return Text(f"game over: {head} ({detail})", style="bold")


def chance_menu(state: State[Any]) -> list[tuple[Any, str]]:
    """Chance's outcomes for a menu, each as its notation without the verb shared by all of them
    (``draw D`` -> ``D``), in the order of :meth:`State.chance_outcomes`."""
    texts = [(a, state.action_text(a)) for a, _ in state.chance_outcomes()]
    verbs = {t.split(" ", 1)[0] for _, t in texts}
    if len(verbs) == 1 and all(" " in t for _, t in texts):
        return [(a, t.split(" ", 1)[1]) for a, t in texts]
    return texts


def chance_outcome(state: State[Any], line: str) -> Any:
    """The chance outcome typed by a player at the table (``--draws manual``): its notation, or its
    notation without the verb (``D`` for ``draw D``); raises naming what was wrong otherwise.

    >>> import regalia
    >>> state = regalia.load_game("carcassonne").initial_state()
    >>> state.action_text(chance_outcome(state, "d"))
    'draw D'
    >>> chance_outcome(state, "Z")
    Traceback (most recent call last):
    ...
    regalia.core.errors.IllegalAction: 'Z' is not a possible outcome here; possible: A, B, C, D, ... [Chance]
    """
    from regalia.core.errors import IllegalAction, NotationError

    try:
        return state.parse_or_raise(line)
    except NotationError:
        pass
    menu = chance_menu(state)
    found = [a for a, short in menu if short.lower() == line.lower()]
    if len(found) == 1:
        return found[0]
    shown = ", ".join(short for _, short in menu[:4]) + (", ..." if len(menu) > 4 else "")
    raise IllegalAction(f"{line!r} is not a possible outcome here; possible: {shown}", "Chance")


def _is_move(exc: RegaliaError) -> bool:
    from regalia.core.errors import IllegalAction, NotationError

    return isinstance(exc, (IllegalAction, NotationError))


def _enable_line_editing(game: TerminalGame) -> None:
    """Line editing, history and Tab completion at the prompt (readline, where the platform has it)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        return

    def complete(text: str, index: int) -> str | None:
        buffer = readline.get_line_buffer()
        matches = [c for c in game.completions() if c.startswith(buffer)]
        # readline completes the current word; offer the rest of each matching line
        start = len(buffer) - len(text)
        options = sorted({m[start:] for m in matches})
        return options[index] if index < len(options) else None

    readline.set_completer_delims(" ")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def _check_save_path(path: Path) -> None:
    if path.is_dir():
        raise RecordError(f"--save {path}: it is a folder; give a file name (e.g. {path / 'game.json'})")
    parent = path.parent
    if not parent.is_dir():
        raise RecordError(f"--save {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise RecordError(f"--save {path}: cannot write in {parent}")


def _seats_for(
    state: State[Any], vs: str | None, level: str | None, seat: str | None, recorded: Sequence[str]
) -> list[Seat]:
    """Who plays each seat: the automata, the human(s) and the computer opponent(s)."""
    n = state.num_players
    automata = set(state.automaton_seats())
    free = [p for p in range(n) if p not in automata]
    if automata:
        if vs is not None:
            raise OptionError(
                "--vs: in this game the rules play the other seat"
                f" ({', '.join(state.seat_names()[p] for p in sorted(automata))}); there is no other opponent"
            )
        if level is not None:
            raise OptionError("--level: the opponent is played by the rules; set its level as a game option")
    human = free[0] if seat is None else seat_index(state, seat)
    if human in automata:
        you = state.seat_names()[free[0]]
        raise OptionError(f"--seat {seat}: that seat is played by the rules; you play {you}")
    if vs is None and recorded:
        out = []
        for p in range(n):
            label = recorded[p] if p < len(recorded) else HUMAN
            if p in automata:
                out.append(Seat(AUTOMATON))
            elif label == HUMAN:
                out.append(Seat(HUMAN))
            else:
                # --level with a loaded game sets the recorded opponent's level
                out.append(Seat("agent", make_opponent(label, level)))
        if level is not None and all(s.agent is None for s in out):
            raise OptionError("--level: the loaded game has no computer opponent")
        return out
    if vs is None:
        vs = "mcts"
    if vs == HUMAN:
        if level is not None:
            raise OptionError("--level applies to a computer opponent, not to --vs human")
        if seat is not None:
            raise OptionError("--seat applies when you play the computer, not to --vs human")
        return [Seat(AUTOMATON) if p in automata else Seat(HUMAN) for p in range(n)]
    opponent = make_opponent(vs, level)
    return [
        Seat(AUTOMATON) if p in automata else Seat(HUMAN) if p == human else Seat("agent", opponent)
        for p in range(n)
    ]


def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=game_help())] = DEFAULT_GAME,
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help="Opponent: mcts (default, at --level medium), greedy, random, an agent spec "
            "(mcts:seconds=2), or human (players at one keyboard).",
            show_default=False,
        ),
    ] = None,
    level: Annotated[
        str | None, typer.Option("--level", help="Strength of the computer opponent: easy, medium, hard.")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--seat", help="Your seat: its name (white, blue) or number (1, 2; default: 1)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of chance's draws (default: random).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="A game option NAME=VALUE (repeatable; see: regalia games GAME)."
        ),
    ] = None,
    load: Annotated[
        Path | None,
        typer.Option("--load", help="Continue the game saved in this record (and keep saving it)."),
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Save the game to this record after every move.")
    ] = None,
    draws: Annotated[
        str,
        typer.Option(
            "--draws",
            help="Where chance's outcomes come from: seed (drawn by regalia) or manual (typed in, to follow "
            "a real box at the table).",
        ),
    ] = "seed",
) -> None:
    """Play a game in the terminal: pick moves by number or type them in notation (help, rules, hint)."""
    if draws not in DRAWS:
        raise OptionError(f"--draws {draws}: choose one of {', '.join(DRAWS)}")
    out = make_console()
    log: list[Text] = []
    recorded: tuple[str, ...] = ()
    if load is not None:
        if option:
            raise OptionError("-o: a loaded game keeps the options of its record")
        record = Record.load(load)
        state = replay(record, seed=seed)
        game_id = record.game
        recorded = record.players
        if save is None:
            save = load
        replayed = plural(len(record.actions), "ply", "plies")
        out.print(Text(f"loaded {load}: {replayed} replayed", style="green"))
    else:
        game = load_game(game_id, **options_from(option))
        state = game.new_state(seed)
    if save is not None:
        _check_save_path(save)
    seats = _seats_for(state, vs, level, seat, recorded)
    plugin = state.game.plugin()
    manual = draws == "manual"
    terminal = TerminalGame(state, seats, plugin, out, save_path=save, log=log, manual_chance=manual)
    if load is not None:
        for player, action in state.actors()[-8:]:
            terminal.log.append(terminal.describe(player, state.action_text(action), latest=False))
    source = "draws typed in" if manual else f"seed {state.seed}"
    out.print(Text(f"{state.game.name} · {source}", style="bold"))
    terminal.run()


def register(app: typer.Typer) -> None:
    app.command("play")(play)


__all__: Sequence[str] = ("TerminalGame", "make_opponent", "play", "register")
