"""Game records: one JSON document per game that replays to the same state.

A record holds the format version, the game id, the options, the seed, the seat names, the actions
in notation and (once the game is over) the result.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from regalia.core.errors import RecordError, RegaliaError, ReplayDivergence
from regalia.core.game import JSON, State
from regalia.core.registry import load_game

FORMAT = "regalia-record"
VERSION = 1


@dataclasses.dataclass(frozen=True)
class Record:
    """A seeded game record."""

    game: str
    options: JSON
    seed: int
    seats: tuple[str, ...]
    actions: tuple[str, ...]
    result: JSON | None = None
    events: tuple[JSON, ...] = ()

    @classmethod
    def of_state(cls, state: State[Any]) -> Record:
        """The record of ``state``'s game so far."""
        result = None
        if state.is_terminal():
            result = {
                "scores": state.scores(),
                "returns": state.returns(),
                "winner": state.winner(),
            }
        events = getattr(state, "events", None)
        return cls(
            game=state.game.id,
            options=state.game.options.to_json(),
            seed=state.seed,
            seats=tuple(state.seat_names()),
            actions=tuple(_texts(state)),
            result=result,
            events=tuple(events() if callable(events) else ()),
        )

    def to_json(self) -> JSON:
        doc: JSON = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": list(self.actions),
            "result": self.result,
        }
        if self.events:
            doc["events"] = list(self.events)
        return doc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        """Read a record document, naming the first bad field."""
        if not isinstance(doc, dict):
            raise RecordError("a record must be a JSON object")
        if doc.get("format") != FORMAT:
            raise RecordError(f"field 'format': expected {FORMAT!r}, got {doc.get('format')!r}")
        if doc.get("version") != VERSION:
            raise RecordError(f"field 'version': unsupported version {doc.get('version')!r}")
        checks: list[tuple[str, type | tuple[type, ...]]] = [
            ("game", str),
            ("options", dict),
            ("seed", int),
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
        result = doc.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("field 'result' must be an object or null")
        return cls(
            game=doc["game"],
            options=doc["options"],
            seed=doc["seed"],
            seats=tuple(str(s) for s in doc["seats"]),
            actions=tuple(doc["actions"]),
            result=result,
            events=tuple(doc.get("events", ())),
        )

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return cls.from_json(doc)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        return cls.loads(text)


def _texts(state: State[Any]) -> list[str]:
    """Action texts of a state's history, each written in the state where it was played."""
    texts = getattr(state, "history_texts", None)
    if callable(texts):
        result: list[str] = texts()
        return result
    return [state.action_text(a) for a in state.history]


def initial_state(record: Record) -> State[Any]:
    """The starting state of a record's game."""
    game = load_game(record.game, **record.options)
    return game.new_state(record.seed)


def replay(record: Record | JSON, upto: int | None = None) -> State[Any]:
    """Replay ``record`` (or its JSON) and return the final state.

    Raises :class:`ReplayDivergence` naming the ply of the first action that cannot be applied, and
    when the record's result disagrees with the replayed one.
    """
    if not isinstance(record, Record):
        record = Record.from_json(record)
    state = initial_state(record)
    actions = record.actions if upto is None else record.actions[:upto]
    for ply, text in enumerate(actions, start=1):
        try:
            state.apply_text(text)
        except RegaliaError as exc:
            raise ReplayDivergence(ply, text, str(exc)) from None
    if upto is None and record.result is not None:
        if not state.is_terminal():
            raise ReplayDivergence(
                len(actions),
                actions[-1] if actions else "",
                "record has a result but the game is not over",
            )
        if list(record.result.get("scores", [])) != state.scores():
            raise ReplayDivergence(
                len(actions),
                actions[-1] if actions else "",
                f"recorded scores {record.result.get('scores')} but replay gives {state.scores()}",
            )
    return state
