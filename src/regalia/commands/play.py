"""``regalia play GAME``: play a game in the terminal against the computer or at one keyboard.

The command is game-agnostic: it loads the game through the registry, runs it as a
:class:`regalia.match.Match` (chance's draws, the automata's steps, the computer's moves, undo,
hints, resigning and the clocks are the match's) and draws it with the game's plugin
(:class:`regalia.core.plugin.Plugin`: ``render_terminal``, ``legal_groups``, ``describe``,
``notation_help``, ``rules``). :class:`TerminalGame` only reads the input and draws: the board,
the lines of the turn (from the match's log), the menu and the prompt.

Input is read line by line; at a terminal the line has editing and history (readline) and Tab
completes moves and commands. A game can be scripted through stdin. No input, file or key ends in
a traceback: errors are one line, and the state is unchanged.

>>> make_opponent("mcts", None).name  # the default level
'mcts:medium'
>>> make_opponent("greedy", "hard")
Traceback (most recent call last):
...
regalia.core.errors.OptionError: agent 'greedy' has no levels; agents with levels: mcts
>>> clock_text(65.4), clock_text(3725), clock_text(2 * 86400 + 3600), clock_text(-3)
('1:05', '1:02:05', '2d 1:00', '0:00')
"""

from __future__ import annotations

import contextlib
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
from regalia.core.game import CHANCE, Game, State
from regalia.core.plugin import Plugin
from regalia.core.record import Record, initial_state
from regalia.core.registry import load_game
from regalia.core.text import plural
from regalia.match import COMPUTER, HUMAN, ClockError, LogEntry, Match, Seat, StateChance, TimeControl

GENERIC_HELP = """\
Type the number of a move from the list, or the move in notation (Tab completes it).
Commands:
  help            this text
  rules [WORD]    the rulebook (or only its paragraphs that mention WORD)
  hint            what the computer would play here
  board           draw the board again
  save FILE       save the game as a record (continue it with: regalia play --load FILE)
  undo            take back your last move (and whatever was played after it)
  resign          give up (asked again first): the game ends, lost by you
  quit            stop (the game is saved first when it has a save file)"""

COMMANDS = ("help", "rules", "hint", "board", "save", "undo", "resign", "quit")
#: Sources of chance's outcomes (``--draws``).
DRAWS = ("seed", "manual")

MANUAL_HELP = """\
Draws are typed in (--draws manual): when chance is to act, type what was drawn from the real box,
by its number in the list, its notation (draw D) or its name alone (D); undo takes back a draw too."""

#: How a game the rules did not end is told (``Match.ending.reason``).
ENDED = {"resign": "resigned", "time": "ran out of time", "abandon": "abandoned the match"}


def make_opponent(vs: str, level: str | None) -> Any:
    """The agent ``vs`` (a name or an agent spec such as ``mcts:easy``) from :mod:`regalia.ai`, at
    ``level`` when given (default: medium for an agent with levels)."""
    import regalia.ai

    if ":" in vs:
        return regalia.ai.agent_from_spec(vs if level is None else f"{vs.split(':')[0]}:{level}")
    if level is None and "medium" in regalia.ai.agent_levels(vs):
        level = "medium"
    return regalia.ai.make_agent(vs, level)


def clock_text(seconds: float) -> str:
    """Time left on a clock: ``M:SS``, ``H:MM:SS``, or ``Nd H:MM`` over a day (none left: ``0:00``)."""
    whole = max(0, int(seconds))
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}:{minutes:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


class QuitGame(Exception):
    """The player asked to stop."""


class TerminalGame:
    """One match in the terminal: the people's input and the drawing; the match plays the rest.

    ``fresh_from``: the ply from which the lines of the turn are shown (a loaded game shows its
    last moves instead of the lines of a turn played before it was saved).
    """

    def __init__(
        self,
        match: Match,
        plugin: Plugin[Any],
        console: Console,
        save_path: Path | None = None,
        fresh_from: int = 0,
    ) -> None:
        self.match = match
        self.plugin = plugin
        self.console = console
        self.save_path = save_path
        self.fresh_from = fresh_from
        self.menu: list[Any] = []
        self.redraw = True
        #: A message shown under the next drawing (at a terminal the drawing clears the screen).
        self.notice: Text | None = None
        self.interactive = sys.stdin.isatty() and console.is_terminal
        if self.interactive:
            _enable_line_editing(self)

    @property
    def state(self) -> State[Any]:
        return self.match.state

    # -- seats -----------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return self.match.people()

    def viewer(self) -> int | None:
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        player = self.state.current_player
        return player if player >= 0 else None

    def seat_name(self, seat: int) -> str:
        if seat == CHANCE:
            return "chance"
        names = self.match.names()
        name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
        if seat in self.humans and len(self.humans) == 1:
            name += " (you)"
        return name

    def last_person(self) -> int | None:
        """The person who moved last (``None`` before any person's move)."""
        for player, _ in reversed(self.state.actors()):
            if player >= 0 and self.match.seats[player].is_person:
                return int(player)
        return None

    def person(self) -> int | None:
        """The person the input speaks for: the one to act, or the only one (chance to act)."""
        player = self.state.current_player
        if player >= 0:
            return player if self.match.seats[player].is_person else None
        return self.humans[0] if len(self.humans) == 1 else None

    # -- drawing ---------------------------------------------------------------------------------
    def line(self, entry: LogEntry, detail: bool = True) -> Text:
        """One line for a ply: who, the notation and (``detail``) what it did."""
        player = entry.seat
        who = self.seat_name(player)
        if 0 <= player < len(self.match.seats) and self.match.seats[player].agent is not None:
            who += f" ({self.match.seats[player].label})"
        line = Text(f"{who}: ", style="bold")
        line.append(entry.text, style="bold yellow" if player != CHANCE else "")
        if detail and entry.description and entry.description != entry.text:
            line.append(f" ({entry.description})", style="dim")
        return line

    def turn_lines(self) -> list[Text]:
        """The lines of the turn from the match's log: a new seat's first ply clears the lines of
        the turn before; chance's outcomes in a row share one line."""
        entries = self.match.log(self.viewer())
        start, last_seat = 0, CHANCE
        for entry in entries:
            if entry.seat != CHANCE and entry.seat != last_seat:
                start, last_seat = entry.ply, entry.seat
        lines: list[Text] = []
        chance_line: Text | None = None
        for entry in entries[max(start, self.fresh_from) :]:
            if entry.seat == CHANCE and chance_line is not None:
                chance_line.append(f" · {entry.text}")
            else:
                lines.append(self.line(entry))
                chance_line = lines[-1] if entry.seat == CHANCE else None
        return lines

    def draw(self, whole: bool = False) -> None:
        """Draw the position to fit the terminal (``whole``: the whole board, whatever its height)."""
        parts: list[RenderableType] = []
        size = self.console.size
        height = None if whole else size.height
        parts.append(self.plugin.render_terminal(self.state, self.viewer(), width=size.width, height=height))
        lines = self.turn_lines()
        if lines:
            parts.append(Text("\n").join(lines))
        elif self.state.ply:
            recent = Text("last moves: ", style="dim")
            recent.append(
                Text(" · ").join(self.line(e, detail=False) for e in self.match.log(self.viewer())[-6:])
            )
            parts.append(recent)
        if self.notice is not None:
            parts.append(self.notice)
            self.notice = None
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

    def prompt(self) -> str:
        """The prompt: who is to act, with the time left on a timed game's clock."""
        player = self.state.current_player
        if player == CHANCE:
            return "chance: what was drawn (number, outcome, help)"
        left = ""
        if self.match.time_control.timed:
            left = f" · {clock_text(self.match.remaining(player))} left"
        return f"{self.seat_name(player)}{left} (number, move, help)"

    # -- saving ----------------------------------------------------------------------------------
    def save(self, path: Path, quiet: bool = False) -> None:
        self.match.record().save(path)
        if not quiet:
            self.say(f"saved to {path} (continue with: regalia play --load {path})", "green")

    def autosave(self) -> None:
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)

    # -- what the match does ---------------------------------------------------------------------
    def on_ply(self, entry: LogEntry) -> None:
        """A ply the match played by itself: saved, and a computer's move shown at once."""
        self.autosave()
        if entry.seat >= 0 and self.match.kind(entry.seat) == COMPUTER:
            self.say(self.line(entry))

    @contextlib.contextmanager
    def thinking(self, seat: int) -> Iterator[None]:
        """The spinner while the computer thinks (at a terminal only)."""
        with self.status(f"{self.seat_name(seat)} ({self.match.seats[seat].label}) is thinking..."):
            yield

    @contextlib.contextmanager
    def status(self, message: str) -> Iterator[None]:
        if self.interactive:
            with self.console.status(message):
                yield
        else:
            yield

    def undo(self) -> None:
        """Take back the last move of the person who moved last (at one screen, whoever that was)
        and whatever was played after it: the match's one takeback policy."""
        seat = self.last_person()
        if seat is None:  # only chance has acted (draws typed in): the draws are taken back
            seat = self.person()
        if seat is None:
            seat = self.humans[0]
        count = self.match.takeback(seat)
        taken = self.match.log(self.viewer(), start=self.state.ply - count)[0].text
        self.match.undo(seat)
        self.fresh_from = self.state.ply
        extra = f" and {plural(count - 1, 'ply', 'plies')} after it" if count > 1 else ""
        self.notice = Text(f"took back: {taken}{extra}", style="green")
        self.redraw = True
        self.autosave()

    def hint(self) -> None:
        seat = self.state.current_player
        if seat == CHANCE:
            self.say("chance is to act: type what was drawn; a hint comes once a seat is to play", "red")
            return
        with self.status("thinking about a hint..."):
            action = self.match.hint(seat)
        self.say(Text("hint: ", style="bold").append(self.state.action_text(action), style="bold yellow"))

    def resign(self) -> None:
        """Resign for the person to act, once they confirm."""
        seat = self.person()
        if seat is None:
            self.say("chance is to act: type what was drawn; resign on your turn", "red")
            return
        name = self.seat_name(seat)
        answer = read_line(f"resign: {name} loses the game. Sure? (yes/no)")
        if answer is None:
            raise QuitGame
        if answer.strip().lower() not in ("y", "yes"):
            self.say("not resigned: the game goes on", "green")
            return
        self.match.resign(seat)
        self.autosave()

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
        manual = "\n" + MANUAL_HELP if self.match.manual_chance else ""
        return GENERIC_HELP + manual + ("\n\n" + extra if extra else "")

    def completions(self) -> list[str]:
        """What Tab completes: the legal moves in notation and the commands."""
        state = self.state
        moves = [state.action_text(a) for a in state.legal_actions()] if state.current_player >= 0 else []
        return [*moves, *COMMANDS]

    # -- input -----------------------------------------------------------------------------------
    def human_input(self) -> None:
        """Read one line and act on it; illegal or unreadable input changes nothing."""
        answer = read_line(self.prompt())
        if answer is None:
            raise QuitGame
        if self.match.check_time():
            return  # the flag fell while the person thought: the game is over
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
        elif word == "rules":
            self.rules(rest)
        elif word == "hint":
            self.hint()
        elif word == "board":
            self.draw(whole=True)
            self.draw_menu()
        elif word == "save":
            path = Path(rest) if rest else self.save_path
            if path is None:
                self.say("save where? write: save FILE", "red")
                return
            self.save(path)
        elif word == "undo":
            self.undo()
        elif word == "resign":
            self.resign()
        else:
            self.play(line)

    def play(self, line: str) -> None:
        """A move by number or in notation (chance's outcome with manual draws)."""
        state = self.state
        player = state.current_player
        move: Any = line
        if line.isascii() and line.isdigit():  # ASCII digits only: "²".isdigit() too
            n = int(line)
            if not 1 <= n <= len(self.menu):
                self.say(f"no move number {n}: choose 1 to {len(self.menu)}", "red")
                return
            move = self.menu[n - 1]
        elif player == CHANCE:
            move = chance_outcome(state, line)
        self.match.play(player, move)
        self.autosave()
        self.redraw = True

    def run(self) -> Match:
        match = self.match
        self.redraw = True
        try:
            while True:
                if match.advance(self.on_ply, thinking=self.thinking):
                    self.redraw = True
                if match.is_over():
                    break
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
            return match
        except KeyboardInterrupt:
            self._stop("interrupted.")
            raise typer.Exit(130) from None
        self.draw()
        self.autosave()
        if self.save_path is not None:
            self.say(f"the game is saved in {self.save_path}", "green")
        self.say(self.result_line())
        return match

    def _stop(self, message: str) -> None:
        if self.save_path is not None:
            try:
                self.save(self.save_path)
            except RegaliaError as exc:
                self.say(f"error: {exc}", "bold red")
        self.say(message)

    def result_line(self) -> Text:
        """The result with the seats' names: ``white (you) wins (white 42, blue 39)``; a game the
        rules did not end says how: ``blue resigned; white (you) wins (white 3, blue 5)``."""
        match = self.match
        scores = match.scores()
        names = [self.seat_name(s) for s in range(len(scores))]
        winner = match.winner()
        ending = match.ending
        if ending is None:
            head = "draw" if winner is None else f"{names[winner]} wins"
        else:
            who = "no single winner" if winner is None else f"{names[winner]} wins"
            head = f"{names[ending.seat]} {ENDED.get(ending.reason, ending.reason)}; {who}"
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
    game: Game[Any], vs: str | None, level: str | None, seat: str | None, recorded: Sequence[str]
) -> tuple[list[Seat], dict[int, Any]]:
    """Who plays each seat (the automata, the person or people, the computer opponents) and the
    computers' agents, by seat."""
    state = game.initial_state()
    n = game.num_players
    automata = set(game.automaton_seats())
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
    seats: list[Seat] = []
    agents: dict[int, Any] = {}

    def computer(p: int, spec: str) -> Seat:
        agent = agents[p] = make_opponent(spec, level)
        return Seat.computer(str(agent.name))

    if vs is None and recorded:
        for p in range(n):
            label = recorded[p] if p < len(recorded) else HUMAN
            if p in automata:
                seats.append(Seat.automaton())
            elif label == HUMAN:
                seats.append(Seat.human())
            else:  # --level with a loaded game sets the recorded opponent's level
                seats.append(computer(p, label))
        if level is not None and not agents:
            raise OptionError("--level: the loaded game has no computer opponent")
        return seats, agents
    if vs is None:
        vs = "mcts"
    if vs == HUMAN:
        if level is not None:
            raise OptionError("--level applies to a computer opponent, not to --vs human")
        if seat is not None:
            raise OptionError("--seat applies when you play the computer, not to --vs human")
        return [Seat.automaton() if p in automata else Seat.human() for p in range(n)], agents
    for p in range(n):
        seats.append(Seat.automaton() if p in automata else Seat.human() if p == human else computer(p, vs))
    return seats, agents


def _time_control(text: str) -> TimeControl:
    try:
        return TimeControl.parse(text)
    except ClockError as exc:
        raise OptionError(f"--clock {text}: {exc}") from None


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
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            help="Time control: none, move:SECONDS (each turn), fischer:SECONDS+INCREMENT (the whole "
            "game, plus the increment after each turn) or days:N (N days a turn). A fallen flag loses.",
        ),
    ] = "none",
) -> None:
    """Play a game in the terminal: pick moves by number or type them in notation (help, rules,
    hint, undo, resign)."""
    if draws not in DRAWS:
        raise OptionError(f"--draws {draws}: choose one of {', '.join(DRAWS)}")
    time_control = _time_control(clock)
    manual = draws == "manual"
    out = make_console()
    record: Record | None = None
    if load is not None:
        if option:
            raise OptionError("-o: a loaded game keeps the options of its record")
        record = Record.load(load)
        game = initial_state(record).game
        if save is None:
            save = load
    else:
        game = load_game(game_id, **options_from(option))
    if save is not None:
        _check_save_path(save)
    seats, agents = _seats_for(game, vs, level, seat, record.players if record is not None else ())
    settings: dict[str, Any] = {
        "seed": seed,
        "chance": StateChance(),
        "manual_chance": manual,
        "time_control": time_control,
        "agents": agents,
    }
    if record is not None:
        match = Match.from_record(record, seats, game=game, **settings)
        out.print(
            Text(f"loaded {load}: {plural(len(record.actions), 'ply', 'plies')} replayed", style="green")
        )
    else:
        match = Match(game, seats, **settings)
    terminal = TerminalGame(match, game.plugin(), out, save_path=save, fresh_from=match.state.ply)
    source = "draws typed in" if manual else f"seed {match.seed}"
    timed = f" · clock {time_control.text}" if time_control.timed else ""
    out.print(Text(f"{game.name} · {source}{timed}", style="bold"))
    terminal.run()


def register(app: typer.Typer) -> None:
    app.command("play")(play)


__all__: Sequence[str] = ("TerminalGame", "make_opponent", "play", "register")
