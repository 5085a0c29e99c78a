"""Who plays each seat of a match: a person, a computer (an agent spec) or the rules' automaton.

>>> Seat.computer("mcts:hard").label, Seat.human("Ada").label, Seat.automaton().label
('mcts:hard', 'human', 'automaton')
>>> Seat.from_json({"kind": "computer", "agent": "greedy", "name": "Grey"})
Seat(kind='computer', name='Grey', agent='greedy')
>>> Seat.from_json({"kind": "wizard"})
Traceback (most recent call last):
...
regalia.match.seats.SeatError: seat kind: expected human, computer or automaton, not 'wizard'
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from regalia.core.errors import OptionError

HUMAN: Final = "human"
COMPUTER: Final = "computer"
AUTOMATON: Final = "automaton"
KINDS: Final = (HUMAN, COMPUTER, AUTOMATON)


class SeatError(OptionError):
    """A seat described wrongly (an unknown kind, a computer without an agent...)."""


@dataclasses.dataclass(frozen=True)
class Seat:
    """One seat: ``kind`` (:data:`HUMAN`, :data:`COMPUTER` or :data:`AUTOMATON`), a display
    ``name`` (empty: the game's name for the seat) and, for a computer, its ``agent`` spec
    (``"mcts:hard"``, ``"greedy"``...: :func:`regalia.ai.agent_from_spec`)."""

    kind: str = HUMAN
    name: str = ""
    agent: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SeatError(f"seat kind: expected human, computer or automaton, not {self.kind!r}")
        if (self.kind == COMPUTER) != (self.agent is not None):
            raise SeatError("seat agent: a computer seat names its agent, and only a computer seat")

    @classmethod
    def human(cls, name: str = "") -> Seat:
        return cls(HUMAN, name)

    @classmethod
    def computer(cls, agent: str, name: str = "") -> Seat:
        return cls(COMPUTER, name, agent)

    @classmethod
    def automaton(cls, name: str = "") -> Seat:
        return cls(AUTOMATON, name)

    @property
    def is_person(self) -> bool:
        return self.kind == HUMAN

    @property
    def label(self) -> str:
        """What a record's ``players`` says of the seat: the agent spec, or the kind."""
        return self.agent if self.agent is not None else self.kind

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "agent": self.agent}

    @classmethod
    def from_json(cls, doc: Any) -> Seat:
        if not isinstance(doc, dict):
            raise SeatError("seat: expected an object with kind, name and agent")
        name = doc.get("name") or ""
        agent = doc.get("agent")
        if not isinstance(name, str) or (agent is not None and not isinstance(agent, str)):
            raise SeatError("seat name and agent: expected text")
        return cls(str(doc.get("kind", HUMAN)), name, agent)

    @classmethod
    def from_label(cls, label: str) -> Seat:
        """The seat a record's ``players`` entry describes (``human``, ``automaton``, an agent spec)."""
        if label in (HUMAN, AUTOMATON):
            return cls(label)
        return cls.computer(label)
