"""Game records: one JSON document per game that replays to the same state, without any seed.

A record holds the format version, the game id, the options, the seat names, the actions in
notation (chance outcomes included, as ordinary entries) and, once the game is over, the result.
A record made for one viewer (:meth:`regalia.core.game.State.record`) holds only what that viewer
may see; nothing in any record tells what chance will do next.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> _ = state.advance()
>>> record = state.record()
>>> record.actions[0].startswith("first"), "seed" in record.to_json()
(True, False)
>>> replay(record).to_json() == state.to_json()
True
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from regalia.core.data import frozen_reduce, read_text_file
from regalia.core.errors import RecordError, RegaliaError, ReplayDivergence
from regalia.core.game import JSON, OMNISCIENT, SPECTATOR, Game, State
from regalia.core.registry import load_game

FORMAT = "regalia-record"
VERSION = 2


def view_name(viewer: int | None) -> str | int:
    """How a record names its viewer: ``"all"``, ``"spectator"`` or a seat number."""
    if viewer == OMNISCIENT:
        return "all"
    if viewer is SPECTATOR:
        return "spectator"
    return viewer


@dataclasses.dataclass(frozen=True)
class Record:
    """A game record: the actions in notation, replayable from the game's options alone.

    ``players`` optionally says who played each seat (``"human"``, an agent spec such as
    ``"mcts:hard"``, ``"automaton"``); ``view`` is whose view the record shows (``"all"``,
    ``"spectator"`` or a seat). A game played through :class:`regalia.match.Match` may also carry
    ``times`` (the seconds each ply's seat used, ``None`` for chance's and automata's plies) and
    ``ending``: how a game ended that the rules did not end (``{"reason": "resign" | "time" |
    "abandon", "seat": n}``), its ``result`` then ranking that seat last, and the ``time_control``
    it was played under (:class:`regalia.match.TimeControl`'s JSON).
    """

    game: str
    options: JSON
    seats: tuple[str, ...]
    actions: tuple[str, ...]
    result: JSON | None = None
    players: tuple[str, ...] = ()
    view: str | int = "all"
    times: tuple[float | None, ...] = ()
    ending: JSON | None = None
    time_control: JSON | None = None

    @classmethod
    def of_state(cls, state: State[Any], viewer: int | None = OMNISCIENT) -> Record:
        """The record of ``state``'s game so far, as ``viewer`` may see it."""
        result = None
        if state.is_terminal():
            result = {
                "scores": state.scores(),
                "returns": state.returns(),
                "winner": state.winner(),
            }
        plies = state.plies()
        if viewer == OMNISCIENT:
            texts = [p.text for p in plies]
        else:
            texts = [state.redact(p.player, p.action, p.text, viewer) for p in plies]
        return cls(
            game=state.game.id,
            options=state.game.options.to_json(),
            seats=tuple(state.seat_names()),
            actions=tuple(texts),
            result=result,
            view=view_name(viewer),
        )

    def with_players(self, players: tuple[str, ...]) -> Record:
        """The same record saying who played each seat."""
        return dataclasses.replace(self, players=tuple(players))

    def to_json(self) -> JSON:
        doc: JSON = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": list(self.seats),
        }
        if self.players:
            doc["players"] = list(self.players)
        if self.view != "all":
            doc["view"] = self.view
        doc["actions"] = list(self.actions)
        if self.times:
            doc["times"] = list(self.times)
        if self.ending is not None:
            doc["ending"] = self.ending
        if self.time_control is not None:
            doc["time_control"] = self.time_control
        doc["result"] = self.result
        return doc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` (errors name the file: a folder, a missing directory...)."""
        target = Path(path)
        if target.is_dir():
            raise RecordError(f"cannot save to {path}: it is a folder; give a file name")
        try:
            target.write_text(self.dumps() + "\n", encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot save to {path}: {exc.strerror or exc}") from None

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        """Read a record document, naming the first bad field."""
        if not isinstance(doc, dict):
            raise RecordError("a record must be a JSON object")
        if doc.get("format") != FORMAT:
            raise RecordError(f"field 'format': expected {FORMAT!r}, got {doc.get('format')!r}")
        if doc.get("version") == 1:
            raise RecordError(
                "field 'version': version 1 records drew everything from a seed at setup and cannot "
                "be replayed by this version of regalia (records are version 2)"
            )
        if doc.get("version") != VERSION:
            raise RecordError(f"field 'version': unsupported version {doc.get('version')!r}")
        checks: list[tuple[str, type | tuple[type, ...]]] = [
            ("game", str),
            ("options", dict),
            ("seats", list),
            ("actions", list),
        ]
        for name, typ in checks:
            if name not in doc:
                raise RecordError(f"field {name!r} is missing")
            if not isinstance(doc[name], typ) or isinstance(doc[name], bool):
                raise RecordError(f"field {name!r} has the wrong type ({type(doc[name]).__name__})")
        for i, a in enumerate(doc["actions"]):
            if not isinstance(a, str):
                raise RecordError(f"field 'actions[{i}]' must be a string")
        players = doc.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("field 'players' must be a list of strings")
        result = doc.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("field 'result' must be an object or null")
        view = doc.get("view", "all")
        if not (view in ("all", "spectator") or (isinstance(view, int) and not isinstance(view, bool))):
            raise RecordError("field 'view' must be 'all', 'spectator' or a seat number")
        times = doc.get("times", [])
        if not isinstance(times, list) or len(times) not in (0, len(doc["actions"])):
            raise RecordError("field 'times' must be a list with one entry per action")
        for i, t in enumerate(times):
            if t is not None and not _seconds(t):
                raise RecordError(f"field 'times[{i}]' must be a number of seconds (at least 0) or null")
        ending = doc.get("ending")
        if ending is not None:
            check_ending(ending, len(doc["seats"]))
        time_control = doc.get("time_control")
        if time_control is not None:
            check_time_control(time_control)
        return cls(
            game=doc["game"],
            options=doc["options"],
            seats=tuple(str(s) for s in doc["seats"]),
            actions=tuple(doc["actions"]),
            result=result,
            players=tuple(players),
            view=view,
            times=tuple(None if t is None else float(t) for t in times),
            ending=ending,
            time_control=time_control,
        )

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        return cls.from_json(doc)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return cls.loads(read_text_file(path, "record", RecordError))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


#: How a game can end that its rules did not end (``Record.ending["reason"]``).
ENDINGS = ("resign", "time", "abandon")


def check_ending(ending: Any, seats: int) -> None:
    """Raise :class:`RecordError` naming what is wrong with a record's ``ending``."""
    if not isinstance(ending, dict) or set(ending) != {"reason", "seat"}:
        raise RecordError("field 'ending' must be an object with 'reason' and 'seat'")
    if ending["reason"] not in ENDINGS:
        raise RecordError(f"field 'ending.reason': expected one of {', '.join(ENDINGS)}")
    seat = ending["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise RecordError(f"field 'ending.seat': expected a seat from 0 to {seats - 1}")


#: The fields of a record's ``time_control`` (:class:`regalia.match.TimeControl`'s JSON).
TIME_CONTROL_KINDS = ("none", "move", "fischer")
TIME_CONTROL_FLAGS = ("loss", "continue")


def _seconds(value: Any) -> bool:
    """True for a finite number of seconds, at least 0."""
    return (
        not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value) and value >= 0
    )


def check_time_control(doc: Any) -> None:
    """Raise :class:`RecordError` naming what is wrong with a record's ``time_control``."""
    fields = {"kind", "seconds", "increment", "flag"}
    if not isinstance(doc, dict) or not set(doc) <= fields:
        raise RecordError("field 'time_control' must be an object with kind, seconds, increment and flag")
    if doc.get("kind", "none") not in TIME_CONTROL_KINDS:
        raise RecordError(f"field 'time_control.kind': expected one of {', '.join(TIME_CONTROL_KINDS)}")
    if doc.get("flag", "loss") not in TIME_CONTROL_FLAGS:
        raise RecordError(f"field 'time_control.flag': expected one of {', '.join(TIME_CONTROL_FLAGS)}")
    for name in ("seconds", "increment"):
        if name in doc and not _seconds(doc[name]):
            raise RecordError(f"field 'time_control.{name}' must be a number of seconds (at least 0)")


def initial_state(record: Record, seed: int | None = None, game: Game[Any] | None = None) -> State[Any]:
    """The starting state of a record's game (``seed``: the default source of later chance;
    ``game``: the game itself, for a game that is not registered)."""
    if game is None:
        game = load_game(record.game, **record.options)
    elif game.id != record.game:
        raise RecordError(f"field 'game': the record is of {record.game!r}, not {game.id!r}")
    state = game.initial_state()
    state.seed = seed
    return state


def replay(
    record: Record | JSON, upto: int | None = None, seed: int | None = None, game: Game[Any] | None = None
) -> State[Any]:
    """Replay ``record`` (or its JSON) and return the final state (or the state after ``upto`` plies).

    Raises :class:`ReplayDivergence` naming the ply of the first action that cannot be applied, and
    when the record's result disagrees with the replayed one. ``seed`` becomes the state's default
    source of chance for whatever comes after the record; ``game`` is the game itself when it is
    not registered.
    """
    if not isinstance(record, Record):
        record = Record.from_json(record)
    state = initial_state(record, seed, game)
    actions = record.actions if upto is None else record.actions[:upto]
    for ply, text in enumerate(actions, start=1):
        apply_ply(state, ply, text)
    if upto is None:
        check_result(record, state)
    return state


def apply_ply(state: State[Any], ply: int, text: str) -> None:
    """Apply the record's action ``text`` (ply ``ply``), as :class:`ReplayDivergence` if it fails."""
    try:
        state.apply_text(text)
    except RegaliaError as exc:
        raise ReplayDivergence(ply, text, str(exc)) from None


def check_result(record: Record, state: State[Any]) -> None:
    """Raise :class:`ReplayDivergence` if the record's result disagrees with the replayed state, or
    the record has an ending (a resignation, a fallen flag) but the game is over by its rules."""
    last = record.actions[-1] if record.actions else ""
    if record.ending is not None:
        if state.is_terminal():
            raise ReplayDivergence(
                len(record.actions),
                last,
                f"the record ends by {record.ending['reason']}, but the game is over",
            )
    elif record.result is None:
        return
    elif not state.is_terminal():
        raise ReplayDivergence(len(record.actions), last, "record has a result but the game is not over")
    recorded = None if record.result is None else record.result.get("scores")
    if recorded is not None and list(recorded) != state.scores():
        raise ReplayDivergence(
            len(record.actions), last, f"recorded scores {recorded} but replay gives {state.scores()}"
        )
