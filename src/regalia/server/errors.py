"""What a refused request is: an HTTP status, what is wrong, and the rule when the engine names one.

:func:`refusal` turns the errors of the match layer and the engine into the answer a client gets:
not your turn and requests the match cannot grant (over, nothing to take back) are 409, notation
and illegal actions 422 (with the rule), anything else the engine refuses 422.

>>> from regalia.match import NotYourTurn
>>> refused = refusal(NotYourTurn("it is not your turn: seat 2 (blue) is to act"))
>>> refused.status, refused.detail
(409, 'it is not your turn: seat 2 (blue) is to act')
"""

from __future__ import annotations

from regalia.core.errors import IllegalAction, RegaliaError
from regalia.match import MatchError


class ApiError(Exception):
    """A refused request: the HTTP status, what is wrong, and the rule when the engine names one."""

    def __init__(self, status: int, detail: str, rule: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.rule = rule


class Conflict(ApiError):
    """A change refused because another writer moved the match on first."""


def refusal(exc: RegaliaError) -> ApiError:
    """The answer to a request the match or the engine refused (nothing changed)."""
    if isinstance(exc, MatchError):
        return ApiError(409, str(exc))
    if isinstance(exc, IllegalAction):
        return ApiError(422, str(exc), getattr(exc, "rule", None))
    return ApiError(422, str(exc))


__all__ = ["ApiError", "Conflict", "refusal"]
