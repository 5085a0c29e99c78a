"""The project's errors. Every error regalia raises on purpose derives from :class:`RegaliaError`.

>>> error = IllegalAction("you must first take a tile", "Action A")
>>> str(error), error.rule, isinstance(error, RegaliaError)
('you must first take a tile [Action A]', 'Action A', True)
"""

from __future__ import annotations


class RegaliaError(Exception):
    """Base class of every error raised by regalia."""


class IllegalAction(RegaliaError):
    """An action that the rules forbid in this state.

    ``rule`` names the rule section that forbids it (e.g. ``"Action A"``); the state is unchanged.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        self.rule = rule
        super().__init__(f"{message} [{rule}]" if rule else message)


class NotationError(RegaliaError):
    """Text that is not a valid action notation for this game."""


class OptionError(RegaliaError):
    """An unknown option, or an option with a bad value."""


class UnknownGame(RegaliaError):
    """A game id that is not registered."""


class RegistryError(RegaliaError):
    """A game registration that cannot be used: an entry point of the ``regalia.games`` group that
    fails to load or names no game class, or one id claimed by two entry points; the message names
    the entry point."""


class Unsupported(RegaliaError):
    """A part of the plugin surface a game does not offer (no encoding, no SVG picture)."""


class DataError(RegaliaError):
    """A malformed data file (tile catalogue, treasure tokens, ...): the message names the entry and field."""


class PositionError(RegaliaError):
    """A malformed position or state document: the message names the field."""


class RecordError(RegaliaError):
    """A malformed game record."""


class ReplayDivergence(RecordError):
    """A record whose actions do not replay: ``ply`` is the 1-based index of the first failing action."""

    def __init__(self, ply: int, action: str, reason: str) -> None:
        self.ply = ply
        self.action = action
        super().__init__(f"record diverges at ply {ply} ({action!r}): {reason}")
