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
>>> make_opponent("greedy", "hard")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
regalia.core.errors.OptionError: agent 'greedy' has no levels; agents with levels: mcts...
>>> clock_text(65.4), clock_text(3725), clock_text(2 * 86400 + 3600), clock_text(-3)
('1:05', '1:02:05', '2d 1:00', '0:00')
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from regalia.commands._common import DEFAULT_GAME, game_help, options_from, read_line, seat_index
from regalia.commands._common import console as make_console
from regalia.core.data import read_text_file
from regalia.core.errors import OptionError, RecordError, RegaliaError
from regalia.core.game import CHANCE, Game, State
from regalia.core.plugin import Plugin, ReferenceItem
from regalia.core.record import Record, initial_state
from regalia.core.registry import load_game
from regalia.core.text import plural
from regalia.match import (
    AUTOMATON,
    COMPUTER,
    HUMAN,
    ClockError,
    LogEntry,
    Match,
    Seat,
    StateChance,
    TimeControl,
)
from regalia.render.text import measure, pack

GENERIC_HELP = """\
Type the number of a move from the list, or the move in notation (Tab completes it).
Commands:
  help            this text
  rules [WORD]    the rulebook (or only its paragraphs that mention WORD)
  hint            what the computer would play here
  board           draw the board again (all of it)
  log             every move of the game so far, with what it did
  tiles           the tiles (cards) left to draw, with what each holds (also: rules letter)
  save FILE       save the game as a record (continue it with: regalia play --load FILE)
  undo            take back your last move (and whatever was played after it)
  resign          give up (asked again first): the game ends, lost by you
  quit            stop (the game is saved first when it has a save file)"""

COMMANDS = ("help", "rules", "hint", "board", "log", "tiles", "save", "undo", "resign", "quit")
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

    def summary_lines(self, width: int) -> list[Text]:
        """The turn in short: one line a seat, its plies' notation joined (chance's draws on the
        line before them), each cut to ``width`` columns; the whole turn is ``log``."""
        lines: list[Text] = []
        for line in self.turn_lines(detail=False):
            line.no_wrap = True
            line.truncate(width, overflow="ellipsis")
            lines.append(line)
        hint = " · log: the whole turn"
        if lines and len(lines[-1]) + len(hint) <= width:
            lines[-1].append(hint, style="dim")
        return lines

    def turn_lines(self, detail: bool = True) -> list[Text]:
        """The lines of the turn from the match's log: a new seat's first ply clears the lines of
        the turn before; chance's outcomes in a row share one line (without ``detail``: a seat's
        plies in a row share one line too, chance's after them)."""
        entries = self.match.log(self.viewer())
        start, last_seat = 0, CHANCE
        for entry in entries:
            if entry.seat != CHANCE and entry.seat != last_seat:
                start, last_seat = entry.ply, entry.seat
        lines: list[Text] = []
        open_line: Text | None = None
        open_seat: int | None = None
        for entry in entries[max(start, self.fresh_from) :]:
            if open_line is not None and (entry.seat == CHANCE or (not detail and entry.seat == open_seat)):
                open_line.append(" · ")
                open_line.append(entry.text, style="" if entry.seat == CHANCE else "bold yellow")
                continue
            lines.append(self.line(entry, detail=detail))
            if entry.seat == CHANCE or not detail:
                open_line, open_seat = lines[-1], entry.seat
            else:
                open_line, open_seat = None, None
        return lines

    def frame(self, whole: bool = False, menu: bool = True) -> RenderableType:
        """The screen: the position, the lines of the turn, a notice and the menu (``menu``), fitted
        to the terminal's height less the prompt's line (``whole``: the whole board, whatever its
        height). When it does not fit, the turn is summarised (the whole turn is ``log``), then the
        board is given fewer lines."""
        size = self.console.size
        width, height = size.width, size.height
        menu_text = self.menu_text() if menu else None
        turn: list[Text] = self.turn_lines()
        if not turn and self.state.ply:
            recent = Text("last moves: ", style="dim")
            recent.append(
                Text(" · ").join(self.line(e, detail=False) for e in self.match.log(self.viewer())[-6:])
            )
            turn = [recent]
        notice, self.notice = self.notice, None

        def screen(board: RenderableType, turn: list[Text]) -> RenderableType:
            parts: list[RenderableType] = [board]
            if turn:
                parts.append(Text("\n").join(turn))
            if notice is not None:
                parts.append(notice)
            if menu_text is not None and menu_text.plain:
                parts.append(menu_text)
            return Group(*parts)

        board_height = None if whole else height
        board = self.plugin.render_terminal(self.state, self.viewer(), width=width, height=board_height)
        if whole:
            return screen(board, turn)
        room = max(1, height - 1)  # the prompt's line
        out = screen(board, turn)
        over = measure(out, width)[0] - room
        if over > 0 and turn:
            turn = self.summary_lines(width) if self.turn_lines() else [_cut(turn[0], width)]
            out = screen(board, turn)
            over = measure(out, width)[0] - room
        tries = 0
        while over > 0 and tries < 6 and board_height is not None and board_height > 8:
            board_height = max(8, board_height - over)
            board = self.plugin.render_terminal(self.state, self.viewer(), width=width, height=board_height)
            out = screen(board, turn)
            over = measure(out, width)[0] - room
            tries += 1
        return out

    def draw(self, whole: bool = False) -> None:
        """Draw the position and the menu to fit the terminal (``whole``: the whole board, whatever
        its height)."""
        out = self.frame(whole)
        if self.interactive:
            self.console.clear()
        self.console.print(out)

    def menu_text(self) -> Text:
        """Number the legal actions, grouped: the menu (empty once the game is over)."""
        state = self.state
        self.menu = []
        out = Text()
        if state.is_terminal():
            return out
        actions = state.legal_actions()
        groups: list[tuple[Any, list[tuple[Any, str]]]]
        if state.current_player == CHANCE:
            outcomes = [a for a, _ in state.chance_outcomes()]
            groups = self.plugin.legal_groups(state, outcomes)  # the game's own (tiles with counts)
            if sorted(map(repr, (a for _, items in groups for a, _ in items))) != sorted(map(repr, outcomes)):
                groups = [(Text("what was drawn?", style="bold"), chance_menu(state))]
            if self.plugin.reference(state.game):
                groups = [
                    *groups,
                    (Text("or type its name, or describe it (cloister with road); tiles: the chart"), []),
                ]
        else:
            groups = self.plugin.legal_groups(state, actions)
        width = self.console.size.width
        for label, items in groups:
            head = Text()
            head.append_text(label if isinstance(label, Text) else Text(str(label), style="bold"))
            if items:
                head.append(":")
            parts = [head]
            for action, short in items:
                self.menu.append(action)
                item = Text(f"{len(self.menu)}", style="bold cyan")
                item.append(f" {short}")
                parts.append(item)
            # a move is never broken over two lines: lines break between moves
            line = head
            if len(parts) > 1 and len(head) + 1 + len(parts[1]) <= width:
                first = head.copy()
                first.append(" ")
                first.append_text(parts[1])
                line = pack([first, *parts[2:]], width, sep="  ", indent="  ")
            elif len(parts) > 1:  # a long label: the moves start on the next line
                line = head.copy()
                line.append("\n  ")
                line.append_text(pack(parts[1:], width - 2, sep="  ", indent="  "))
            out.append_text(line)
            out.append("\n")
        out.rstrip()
        return out

    def show_log(self) -> None:
        """The whole game so far, a ply a line with what it did (``log``)."""
        entries = self.match.log(self.viewer())
        if not entries:
            self.say("nothing has been played yet", "dim")
            return
        for entry in entries:
            line = Text(f"{entry.ply + 1:4d}. ", style="dim")
            line.append_text(self.line(entry))
            self.say(line)

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
        self.saved_ply = self.state.ply
        if not quiet:
            self.say(
                f"saved to {path} (continue with: regalia play --load {shlex.quote(str(path))})", "green"
            )

    def autosave(self) -> None:
        if self.save_path is not None:
            self.save(self.save_path, quiet=True)

    # -- what the match does ---------------------------------------------------------------------
    def on_ply(self, entry: LogEntry) -> None:
        """A ply the match played by itself: saved, and a computer's (or automaton's) move shown at
        once (at a terminal the next drawing clears it; the turn stays, in short, under the board)."""
        self.autosave()
        if entry.seat >= 0 and self.match.kind(entry.seat) in (COMPUTER, AUTOMATON):
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
        """The rulebook, or (``word``) its paragraphs that mention it, each under its heading; the
        tiles' chart too when the word asks for it (``rules letter``)."""
        text = self.plugin.rules()
        chart = word.lower() in CHART_WORDS and bool(self.plugin.reference(self.state.game))
        if not text and not chart:
            self.say("this game ships no rulebook", "red")
            return
        if word:
            found = rule_paragraphs(text, word)
            if not found and not chart:
                self.say(f"the rules do not mention {_short(word, ECHO)!r}", "red")
                return
            text = "\n\n".join(found)
        if chart:
            text = (text + "\n\n" if text else "") + "\n".join(self.chart_lines())
        if self.interactive:
            with self.console.pager():
                self.console.print(Text(text))
        else:
            self.console.print(Text(text))

    def chart_lines(self) -> list[str]:
        """The game's tiles (or cards) by name, with how many are left to draw (while chance is to
        act, from the menu of draws) or in the box, and what each holds."""
        items = self.plugin.reference(self.state.game)
        left = self.left_to_draw()
        head = "tiles left to draw" if left else "the tiles in the box"
        lines = [f"{head} (name ×count: what it holds); type its name, or describe it (cloister with road):"]
        for item in items:
            count = left.get(item.name.lower(), 0) if left else item.count
            if left and not count:
                continue
            lines.append(f"  {item.name} ×{count}: {item.text}")
        return lines

    def left_to_draw(self) -> dict[str, int]:
        """The outcomes chance may draw now, by lower-case name, with how many are left (the game's
        menu of draws writes them ``A ×2``); ``{}`` when chance is not to act."""
        state = self.state
        if state.current_player != CHANCE:
            return {}
        outcomes = [a for a, _ in state.chance_outcomes()]
        out: dict[str, int] = {}
        for _, items in self.plugin.legal_groups(state, outcomes):
            for _, short in items:
                name, _, count = str(short).partition(" ×")
                if count.isdigit():
                    out[name.lower()] = int(count)
        if not out:
            for _, short in chance_menu(state):
                out[short.lower()] = 1
        return out

    def show_tiles(self) -> None:
        items = self.plugin.reference(self.state.game)
        if not items:
            self.say("this game has no chart of tiles or cards", "red")
            return
        for line in self.chart_lines():
            self.say(line)
        left = self.left_to_draw()
        shown = [
            (item, left.get(item.name.lower(), 0) if left else item.count)
            for item in items
            if item.lines and (not left or left.get(item.name.lower()))
        ]
        for line in picture_rows(shown, self.console.width):
            self.say(line)

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
        if len(line) > LONGEST_INPUT:
            self.say(
                f"that line is {len(line)} characters long ({_short(line, ECHO)!r}); "
                "a move or a command is one short line",
                "bold red",
            )
            return
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if not line:
            return
        if word in ("quit", "exit", "q"):
            raise QuitGame
        if word in ("help", "?", "h"):
            self.say(wrap_help(self.help_text(), self.console.size.width))
        elif word == "rules":
            self.rules(rest)
        elif word == "hint":
            self.hint()
        elif word == "board":
            self.draw(whole=True)
        elif word == "log":
            self.show_log()
        elif word in ("tiles", "chart"):
            self.show_tiles()
        elif word == "save":
            path = _user_path(rest) if rest else self.save_path
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
            move = chance_outcome(state, line, self.plugin.reference(state.game))
        self.match.play(player, move)
        self.autosave()
        self.redraw = True

    def run(self) -> Match:
        match = self.match
        self.redraw = True
        try:
            while True:
                try:
                    if match.advance(self.on_ply, thinking=self.thinking):
                        self.redraw = True
                    if match.is_over():
                        break
                    if self.redraw:
                        self.draw()
                        self.redraw = False
                    self.human_input()
                except QuitGame:
                    if self.confirm_quit():
                        raise
                except KeyboardInterrupt:  # Ctrl-C: asked first; a second Ctrl-C quits
                    self.say("")
                    if self.confirm_quit(interrupted=True):
                        raise QuitGame from None
                except RegaliaError as exc:
                    word = "illegal" if _is_move(exc) else "error"
                    self.say(Text(f"{word}: {_short(str(exc))}", style="bold red"))
                    self.say("nothing was changed; type help for help", "dim")
        except QuitGame:
            self._stop("game stopped.")
            return match
        except KeyboardInterrupt:
            self._stop("interrupted.")
            raise typer.Exit(130) from None
        self.draw()
        if self.save_path is not None and not self.finished_before:
            self.autosave()
            self.say(f"the game is saved in {self.save_path}", "green")
        self.say(self.result_line())
        return match

    #: The game was over when it was loaded: its record is left as it is.
    finished_before = False
    #: The ply at which the game was last saved (``save FILE``).
    saved_ply: int | None = None

    def unsaved(self) -> bool:
        """Stopping now would lose moves: there is no save file and a seat played here since the
        last save (chance's draws alone are not asked about)."""
        state = self.state
        played = any(player >= 0 for player, _ in state.actors()[self.fresh_from :])
        return self.save_path is None and played and state.ply != self.saved_ply and not self.match.is_over()

    def confirm_quit(self, interrupted: bool = False) -> bool:
        """Whether to stop: at once when the game is saved (or nothing would be lost), else after
        asking (``yes``; ``save FILE`` saves first; no, or an empty line, goes on). The end of the
        input or a second Ctrl-C while asking stops."""
        if not self.unsaved():
            return True
        question = "quit without saving? the game is not saved (yes / no / save FILE)"
        if interrupted:
            question = "interrupted: " + question + " (Ctrl-C again quits)"
        try:
            answer = read_line(question)
        except KeyboardInterrupt:
            return True
        if answer is None:
            return True
        word, _, rest = answer.strip().partition(" ")
        if word.lower() in ("y", "yes", "quit", "q"):
            return True
        if word.lower() == "save" and rest.strip():
            try:
                self.save(_user_path(rest.strip()))
            except RegaliaError as exc:
                self.say(f"error: {_short(str(exc))}", "bold red")
                return False
            return True
        self.say("the game goes on", "green")
        return False

    def _stop(self, message: str) -> None:
        if self.save_path is not None and not self.finished_before:
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


def chance_outcome(state: State[Any], line: str, chart: Sequence[Any] = ()) -> Any:
    """The chance outcome typed by a player at the table (``--draws manual``): its notation, or its
    notation without the verb (``D`` for ``draw D``), or a description of it that fits one item
    of the game's ``chart`` (:func:`described`); raises naming what was wrong otherwise.

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
    if chart:
        fits = [
            i for i in described(chart, line) if any(short.lower() == i.name.lower() for _, short in menu)
        ]
        if len(fits) == 1:
            return next(a for a, short in menu if short.lower() == fits[0].name.lower())
        if fits:
            names = ", ".join(f"{i.name} ({i.text.split('.')[0]})" for i in fits)
            raise IllegalAction(
                f"{_short(line, ECHO)!r} fits {len(fits)} tiles: {names}; type its name", "Chance"
            )
    shown = ", ".join(short for _, short in menu[:4]) + (", ..." if len(menu) > 4 else "")
    hint = "; 'tiles' lists them with what each holds" if chart else ""
    raise IllegalAction(
        f"{_short(line, ECHO)!r} is not a possible outcome here; possible: {shown}{hint}", "Chance"
    )


def picture_rows(items: Sequence[tuple[ReferenceItem, int]], width: int) -> list[str]:
    """The terminal pictures of ``items`` (each with its count) side by side, as many to a row as
    ``width`` holds, each captioned ``name ×count``.

    >>> item = ReferenceItem("A", 2, "a cloister", "<svg/>", ("·····", "··⌂··", "··┃··"))
    >>> picture_rows([(item, 2), (item, 1)], 20)
    ['·····   ·····', '··⌂··   ··⌂··', '··┃··   ··┃··', 'A ×2    A ×1', '']
    """
    out: list[str] = []
    if not items:
        return out
    column = max(max(len(line) for line in item.lines) for item, _ in items)
    column = max(column, *(len(f"{item.name} ×{count}") for item, count in items)) + 3
    per_row = max(1, width // column)
    for start in range(0, len(items), per_row):
        row = items[start : start + per_row]
        height = max(len(item.lines) for item, _ in row)
        for k in range(height):
            out.append(
                "".join(
                    (item.lines[k] if k < len(item.lines) else "").ljust(column) for item, _ in row
                ).rstrip()
            )
        out.append("".join(f"{item.name} ×{count}".ljust(column) for item, count in row).rstrip())
        out.append("")
    return out


#: The words after ``rules`` that bring the chart of tiles (``rules letter``).
CHART_WORDS = ("letter", "letters", "tile", "tiles", "chart")


def wrap_help(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` columns between words, a wrapped line indented under its
    description (``  save FILE   save the game ...``: under ``save the``).

    >>> print(wrap_help("  save FILE   save the game as a record\\nplain words here", 28))
      save FILE   save the game
                  as a record
    plain words here
    """
    import re
    import textwrap

    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        columns = re.match(r"^(\s*\S(?:.*?\S)?\s{2,})\S", line)
        indent = " " * len(columns[1]) if columns else re.match(r"^\s*", line)[0]  # type: ignore[index]
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""])
    return "\n".join(out)


def rule_paragraphs(text: str, word: str) -> list[str]:
    """The paragraphs of ``text`` (blocks between blank lines) that mention ``word``, each under
    the heading of its section (``# ...`` lines), never a line out of its paragraph.

    >>> rules = "# Farmers\\n\\nA farmer lies\\nin a field.\\n\\n# Roads\\n\\nA thief; no farmer."
    >>> rule_paragraphs(rules, "farmer")
    ['# Farmers\\nA farmer lies\\nin a field.', '# Roads\\nA thief; no farmer.']
    """
    found: list[str] = []
    heading = ""
    for block in (b.strip("\n") for b in text.split("\n\n")):
        if not block.strip():
            continue
        lines = block.splitlines()
        if lines[0].lstrip().startswith("#"):
            heading = lines[0].strip()
            if len(lines) == 1:
                continue
        if word.lower() in block.lower():
            found.append(block if block.startswith(heading) or not heading else f"{heading}\n{block}")
    return found


#: The most of a typed line an error message repeats.
ECHO = 60
#: The longest line read as a move or a command (anything longer is refused unread).
LONGEST_INPUT = 200


def _short(message: str, limit: int = 300) -> str:
    """``message`` cut to ``limit`` characters (a message repeats what was typed, which may be long)."""
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _user_path(text: str) -> Path:
    """A path as typed: ``~`` is the home folder."""
    return Path(text).expanduser()


def _cut(line: Text, width: int) -> Text:
    """``line`` on one line of at most ``width`` columns (cut with an ellipsis)."""
    line = line.copy()
    line.no_wrap = True
    line.truncate(width, overflow="ellipsis")
    return line


#: Words a description of a tile may use for the words of the game's chart.
SYNONYMS = {
    "monastery": "cloister", "abbey": "cloister", "cities": "city", "castle": "city", "town": "city",
    "roads": "road", "path": "road", "shield": "pennant", "banner": "pennant", "coat": "pennant",
    "shrines": "shrine", "cloisters": "cloister", "pennants": "pennant", "caps": "cap",
}  # fmt: skip
#: What a description may say of a tile's shape, as a pattern of the chart's text.
SHAPES = {
    "cap": r"city on [nesw](?![-\w])",
    "straight": r"road (n-s|s-n|e-w|w-e)\b",
    "curve": r"road (n-e|e-n|e-s|s-e|s-w|w-s|w-n|n-w)\b",
    "bend": r"road (n-e|e-n|e-s|s-e|s-w|w-s|w-n|n-w)\b",
    "crossroads": r"(road ending.*){3}",
    "crossing": r"(road ending.*){3}",
    "junction": r"(road ending.*){3}",
}
#: The words of a chart whose presence a description must match (a tile with a road is not "a
#: cloister"); others (fields) are ignored.
FEATURES = ("city", "road", "cloister", "shrine")
_IGNORED = {
    "with",
    "and",
    "a",
    "an",
    "the",
    "on",
    "of",
    "tile",
    "one",
    "some",
    "field",
    "fields",
    "in",
    "its",
}


def described(items: Sequence[Any], text: str) -> list[Any]:
    """The reference items (:class:`~regalia.core.plugin.ReferenceItem`) a description fits:
    every feature it names and none it does not name (``cloister with road``: a road and a
    cloister, no city), its shapes (``cap``: a city on one side; ``straight``, ``curve``,
    ``crossroads``), a pennant only when named.

    >>> from regalia.core.plugin import ReferenceItem
    >>> chart = [ReferenceItem("A", 2, "Road ending S; cloister; a field.", ""),
    ...          ReferenceItem("B", 4, "Cloister; a field.", ""),
    ...          ReferenceItem("D", 4, "City on N; road W-E; fields.", ""),
    ...          ReferenceItem("O", 2, "City on N-W with a pennant; road E-S; fields.", "")]
    >>> said = ("cloister with road", "monastery", "city cap with road")
    >>> [[i.name for i in described(chart, t)] for t in said]
    [['A'], ['B'], ['D']]
    """
    import re

    words = [SYNONYMS.get(w, w) for w in re.findall(r"[a-z]+", text.lower())]
    words = [w for w in words if w not in _IGNORED]
    if not words:
        return []
    wanted = {w for w in words if w in FEATURES}
    if "cap" in words or "pennant" in words:
        wanted.add("city")
    if any(w in words for w in ("straight", "curve", "bend", "crossroads", "crossing", "junction")):
        wanted.add("road")
    found = []
    for item in items:
        body = item.text.lower()
        have = {f for f in FEATURES if f in body}
        if have != wanted or ("pennant" in body) != ("pennant" in words):
            continue
        if all(re.search(SHAPES[w], body) for w in words if w in SHAPES):
            unknown = [w for w in words if w not in SHAPES and w not in FEATURES and w != "pennant"]
            if all(w in body for w in unknown):
                found.append(item)
    return found


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


def _game_key(game_id: str) -> str:
    return game_id.strip().lower().replace("_", "-")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _load_record(path: Path) -> Record:
    """The record in ``path``; a position file (``*-position``) is pointed to ``regalia score``."""
    try:
        return Record.load(path)
    except RecordError as exc:
        kind = _file_format(path)
        if kind is not None and kind.endswith("-position"):
            raise RecordError(
                f"{exc}: {path} is a {kind} file, a position and not a game record; "
                f"score it with: regalia score {shlex.quote(str(path))}"
            ) from None
        raise


def _file_format(path: Path) -> str | None:
    """The ``format`` a JSON file names (``None``: unreadable, or none)."""
    import json

    try:
        doc = json.loads(read_text_file(path))
    except (RegaliaError, ValueError):
        return None
    kind = doc.get("format") if isinstance(doc, dict) else None
    return kind if isinstance(kind, str) else None


def _check_save_path(path: Path, overwrite: bool = False) -> None:
    """Refuse a ``--save`` file that cannot be written, or that holds something already (unless
    ``overwrite``: ``--force``, or the file the game was loaded from)."""
    if path.is_dir():
        raise RecordError(f"--save {path}: it is a folder; give a file name (e.g. {path / 'game.json'})")
    parent = path.parent
    if not parent.is_dir():
        raise RecordError(f"--save {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise RecordError(f"--save {path}: cannot write in {parent}")
    if path.exists() and not overwrite:
        try:
            held = plural(len(Record.load(path).actions), "ply", "plies")
            what = f"a game record ({held})"
        except RegaliaError:
            what = "a file"
        quoted = shlex.quote(str(path))
        raise RecordError(
            f"--save {path}: it holds {what} already; continue it with --load {quoted}, "
            "or overwrite it with --force"
        )


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
    game_id: Annotated[
        str | None, typer.Argument(metavar="GAME", help=game_help(), show_default=False)
    ] = None,
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
    force: Annotated[
        bool, typer.Option("--force", help="With --save: overwrite the record already in that file.")
    ] = False,
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
        record = _load_record(load)
        if game_id is not None and _game_key(game_id) != _game_key(record.game):
            raise OptionError(
                f"--load {load}: it is a {record.game} game, not {game_id}; "
                f"continue it with: regalia play --load {shlex.quote(str(load))}"
            )
        game = initial_state(record).game
        if save is None:
            save = load
    else:
        game = load_game(game_id or DEFAULT_GAME, **options_from(option))
    if save is not None:
        _check_save_path(save, overwrite=force or (load is not None and _same_file(save, load)))
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
    terminal.finished_before = record is not None and match.is_over()
    if manual:
        source = "draws typed in"
    elif record is not None:
        source = f"loaded from {load}" + (f" · seed {seed}" if seed is not None else "")
    else:
        source = f"seed {match.seed}"
    timed = f" · clock {time_control.text}" if time_control.timed else ""
    out.print(Text(f"{game.name} · {source}{timed}", style="bold"))
    terminal.run()


def register(app: typer.Typer) -> None:
    app.command("play")(play)


__all__: Sequence[str] = ("TerminalGame", "make_opponent", "play", "register")
