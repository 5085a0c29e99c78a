"""The game-agnostic contract: :class:`Game`, :class:`State` and :class:`Options`.

Every algorithm (AI, arena, server, research adapters) uses only these names. A game is a
:class:`Game` subclass registered by id in :mod:`regalia.core.registry`; its positions are
:class:`State` objects that are mutated by :meth:`State.apply` and copied by :meth:`State.clone`.

Randomness: a state is created from a seed and afterwards is deterministic; hidden chance (shuffled
piles) is fixed at setup and resampled for a seat's point of view by :meth:`State.determinize`.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

from regalia.core.errors import IllegalAction, NotationError, OptionError

A = TypeVar("A", bound=Hashable)
JSON = dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """Base class of a game's options: a frozen dataclass whose fields all have defaults.

    Subclasses add fields and may override :meth:`validate` to check values.
    """

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Build options from a mapping, refusing unknown names and values of the wrong type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise OptionError(
                f"unknown option(s) {', '.join(unknown)}; valid options: {', '.join(sorted(fields))}"
            )
        hints = typing.get_type_hints(cls)
        converted: dict[str, Any] = {}
        for name, value in values.items():
            converted[name] = _coerce(name, value, hints[name])
        options = cls(**converted)
        options.validate()
        return options

    def validate(self) -> None:
        """Raise :class:`OptionError` when a combination of values is invalid."""

    def to_json(self) -> JSON:
        """The options as a JSON-able dict (tuples become lists)."""
        out: JSON = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


def parse_option_pairs(pairs: Sequence[str] | None) -> dict[str, str]:
    """Command-line options ``NAME=VALUE`` as a mapping (the game converts and checks the values).

    >>> parse_option_pairs(["roads=false", "sets=warfare,crafts,guard"])
    {'roads': 'false', 'sets': 'warfare,crafts,guard'}
    """
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r}: write it as NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Check (and gently convert) one option value against its type hint."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        errors = []
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(name, value, arg)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(f"option {name}: {value!r} is not valid ({'; '.join(errors)})")
    if origin is tuple:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, (list, tuple)):
            raise OptionError(f"option {name}: expected a list, got {value!r}")
        item = args[0] if args else Any
        return tuple(_coerce(name, v, item) for v in value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in (
            "true",
            "yes",
            "on",
            "1",
            "false",
            "no",
            "off",
            "0",
        ):
            return value.lower() in ("true", "yes", "on", "1")
        raise OptionError(f"option {name}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, bool):
            raise OptionError(f"option {name}: expected an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise OptionError(f"option {name}: expected an integer, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise OptionError(f"option {name}: expected a string, got {value!r}")
    return value


class Game(ABC, Generic[A]):
    """A game with fixed options: a factory of initial states.

    >>> import regalia
    >>> game = regalia.load_game("two-heirs")
    >>> state = game.new_state(seed=7)
    >>> state.is_terminal()
    False
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_class: ClassVar[type[Options]]

    def __init__(self, options: Options | None = None, **values: Any) -> None:
        if options is None:
            options = self.options_class.from_mapping(values)
        elif values:
            raise OptionError("give either an Options object or option values, not both")
        self.options = options

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State[A]:
        """A new game; ``seed`` fixes every random choice of the setup (``None``: a random seed)."""

    @abstractmethod
    def state_from_json(self, doc: JSON) -> State[A]:
        """The inverse of :meth:`State.to_json`; raises :class:`PositionError` naming a bad field."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.options}>"


def fresh_seed() -> int:
    """A random seed for games created without one."""
    return random.SystemRandom().randrange(2**31)


class State(ABC, Generic[A]):
    """A position of a game, with its history. Mutable: :meth:`apply` changes it in place."""

    game: Game[A]
    seed: int

    # -- the contract ---------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or -1 when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every action the current player may take (empty when terminal)."""

    @abstractmethod
    def check(self, action: A) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is illegal here."""

    @abstractmethod
    def _apply(self, action: A) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat (final scoring when terminal, the current standing otherwise)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """+1 win, -1 loss, 0 draw per seat when terminal; zeros before."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (cheap: shares immutable parts)."""

    @abstractmethod
    def observation(self, seat: int | None = None) -> JSON:
        """A JSON-able view of what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with ``seat``'s view, hidden information resampled with ``rng``."""

    @abstractmethod
    def action_text(self, action: A) -> str:
        """The notation of an action; :meth:`parse_action` reads it back."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written ``text``; raises :class:`NotationError` on malformed text."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The complete state as a JSON-able dict (``Game.state_from_json`` reads it back)."""

    @property
    @abstractmethod
    def history(self) -> Sequence[A]:
        """Every action applied since the start, in order."""

    # -- shared behaviour -----------------------------------------------------------------
    def apply(self, action: A) -> None:
        """Apply ``action``; an illegal one raises :class:`IllegalAction` and changes nothing."""
        self.check(action)
        self._apply(action)

    def apply_text(self, text: str) -> A:
        """Parse and apply an action written in notation; returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def is_legal(self, action: A) -> bool:
        """True if :meth:`apply` would accept ``action``."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def winner(self) -> int | None:
        """The winning seat of a finished game, ``None`` for a draw or an unfinished game."""
        if not self.is_terminal():
            return None
        rets = self.returns()
        best = max(rets)
        if best <= 0:
            return None
        return rets.index(best)

    def automaton_seats(self) -> tuple[int, ...]:
        """Seats the engine plays itself (a solo automaton); no agent ever moves for them."""
        return ()

    def evaluate(self, seat: int) -> float:
        """A search heuristic: how good the position looks for ``seat`` (higher is better).

        The default is the score lead over the best other seat; games may override it.
        """
        scores = self.scores()
        others = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(others) if others else 0))

    def seat_names(self) -> list[str]:
        """Display names of the seats (colours by default)."""
        return [f"seat {i}" for i in range(self.num_players)]

    def record(self) -> Any:
        """The game so far as a :class:`regalia.core.record.Record`."""
        from regalia.core.record import Record

        return Record.of_state(self)

    def parse_or_raise(self, text: str) -> A:
        """Like :meth:`parse_action`, but also checks legality (for user input)."""
        action = self.parse_action(text)
        self.check(action)
        return action

    def __str__(self) -> str:
        return f"<{self.game.id} state, ply {len(self.history)}, to move: {self.current_player}>"


def notation_error(text: str, expected: str) -> NotationError:
    """A :class:`NotationError` for ``text`` that says what was expected."""
    return NotationError(f"cannot read action {text!r}: expected {expected}")
