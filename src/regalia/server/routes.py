"""The HTTP API of the game server: the games, and the matches (docs/server.md).

Each route is answered by the application's :class:`~regalia.server.service.MatchService`
(``app.state.service``); a refused request is a 4xx whose ``detail`` says what is wrong. The bodies
are checked by the models below (unknown fields refused).

>>> token_of("Bearer abc"), token_of(None)
('abc', None)
>>> CreateMatch(game="royal-court", seats=[], time_control="move:60").time_control
'move:60'
>>> token_of("Basic abc")
Traceback (most recent call last):
...
regalia.server.errors.ApiError: Authorization: expected 'Bearer TOKEN'
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool

from regalia.server.limits import CreateLimits, check_body
from regalia.server.service import ApiError, MatchService


# -- request bodies ------------------------------------------------------------------------------
class Body(BaseModel):
    """A request body: unknown fields refused, and no text with NUL or a lone surrogate, no number
    beyond 2**53 or not finite, no nesting deeper than 32 anywhere in it (:func:`check_body`)."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _sane(cls, data: Any) -> Any:
        check_body(data)
        return data


class SeatRequest(Body):
    """A seat of a new match."""

    kind: Literal["human", "computer", "automaton"] | None = None
    name: str | None = Field(None, max_length=40)
    agent: str | None = Field(None, max_length=64, description="computer seats: random, greedy or mcts")
    level: str | None = Field(None, max_length=32, description="computer seats: a level of the agent")


class CreateMatch(Body):
    """A new match: a registered game, its options, one entry per seat, the screen, and the time
    control (``none``, ``move:S``, ``days:N``, ``fischer:M+I``; none by default)."""

    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(max_length=16)
    screen: Literal["online", "shared"] = "online"
    time_control: str | None = Field(None, max_length=64, description="e.g. fischer:300+5, move:60, days:2")
    public: bool = Field(False, description="listed by GET /api/matches (else only its links find it)")


class SeatsRequest(Body):
    options: dict[str, Any] = Field(default_factory=dict)


class ActionRequest(Body):
    """An action in the game's notation; ``version``, when given, must be the match's."""

    action: str = Field(max_length=200)
    version: int | None = None


class Ack(BaseModel):
    """The answer to an accepted action: where the match stands, and the legal actions of the seat
    to act as a spectator reads them."""

    version: int
    plies: int
    status: Literal["active", "finished"]
    to_act: int | None
    legal: list[str]


def token_of(authorization: str | None) -> str | None:
    """The seat's token of an ``Authorization: Bearer TOKEN`` header (``None``: a spectator)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise ApiError(401, "Authorization: expected 'Bearer TOKEN'")
    return token.strip()


async def the_service(request: Request) -> MatchService:
    """The application's service (a coroutine: FastAPI runs it on the loop, with no thread hop)."""
    service: MatchService = request.app.state.service
    return service


_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def checked_id(match_id: str) -> str:
    """A match id as the path gives it: 404 for one no match could have (ids are 22 URL-safe
    characters), before any database sees it (PostgreSQL refuses NUL in a text). A coroutine, so
    FastAPI runs it on the loop (no thread hop on the action's hot path)."""
    if _MATCH_ID.fullmatch(match_id) is None:
        raise ApiError(404, "no such match: a match id is 22 letters, digits, - and _")
    return match_id


Auth = Annotated[str | None, Header(description="Bearer TOKEN: the seat's token")]
Service = Annotated[MatchService, Depends(the_service)]
MatchId = Annotated[str, Depends(checked_id)]

router = APIRouter(prefix="/api")


# -- games ----------------------------------------------------------------------------------------
@router.get("/games", tags=["games"])
def games(svc: Service) -> list[dict[str, Any]]:
    """The registered games: options schema, seat range, the agents and their levels."""
    return svc.catalog()


@router.post("/games/{game}/seats", tags=["games"])
def seats(game: str, body: SeatsRequest, svc: Service) -> list[dict[str, Any]]:
    """The seats a game has with these options (422 names a bad option)."""
    return svc.seats_for(game, body.options)


@router.get("/games/{game}/rules", tags=["games"], response_class=PlainTextResponse)
def rules(game: str, svc: Service) -> PlainTextResponse:
    """The rulebook shipped with the game (Markdown)."""
    return PlainTextResponse(svc.rules(game), media_type="text/markdown; charset=utf-8")


@router.get("/games/{game}/rules.html", tags=["games"], response_class=HTMLResponse)
def rules_html(game: str, svc: Service) -> HTMLResponse:
    """The rulebook as an HTML page (raw HTML in the Markdown escaped), with the game's reference:
    each tile or archetype pictured, with its count and what it does."""
    return HTMLResponse(svc.rules_html(game))


# -- matches --------------------------------------------------------------------------------------
@router.post("/matches", status_code=201, tags=["matches"])
def create(body: CreateMatch, svc: Service, request: Request) -> dict[str, Any]:
    """Create a match: the private link and token of each human seat, the spectator link and the
    time control (422 names a bad one; 429 beyond the creates a client address may make in a
    minute, or the matches in progress the server holds). A match is private unless ``public``."""
    limits: CreateLimits = request.app.state.limits
    limits.check(request.client.host if request.client else "")
    seat_list = [s.model_dump(exclude_none=True) for s in body.seats]
    return svc.create(body.game, body.options, seat_list, body.screen, body.time_control, body.public)


@router.get("/matches", tags=["matches"])
def matches(
    svc: Service,
    status: Annotated[Literal["active", "finished"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[dict[str, Any]]:
    """The public matches, the most recently changed first."""
    return svc.listing(status, limit)


@router.get("/matches/{match_id}", tags=["matches"])
def view(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """The view of the token's seat, or a spectator's without a token."""
    return svc.view(match_id, token_of(authorization))


@router.post("/matches/{match_id}/actions", tags=["matches"], response_model=Ack)
async def act(
    match_id: MatchId, body: ActionRequest, svc: Service, authorization: Auth = None
) -> JSONResponse:
    """Play an action in the game's notation (checked by the engine; 422 names the rule; 409 once
    the seat's time is up).

    The hot path: on SQLite checked, applied and committed on the event loop itself (a fraction of
    a millisecond; no thread hop; on PostgreSQL, whose commits cross the network, in a worker
    thread), the answer written without a response model."""
    token = token_of(authorization)
    if svc.store.is_postgres:
        ack = await run_in_threadpool(svc.act, match_id, token, body.action, body.version)
    else:
        ack = svc.act(match_id, token, body.action, body.version)
    return JSONResponse(ack)


@router.post("/matches/{match_id}/undo", tags=["matches"])
def undo(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Take back your last decision, with what the computer played after it (online against
    people: asks the opponent)."""
    return svc.undo(match_id, token_of(authorization))


@router.post("/matches/{match_id}/undo/accept", tags=["matches"])
def undo_accept(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Allow the opponent's request to take back."""
    return svc.answer_undo(match_id, token_of(authorization), True)


@router.post("/matches/{match_id}/undo/decline", tags=["matches"])
def undo_decline(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Refuse the opponent's request to take back."""
    return svc.answer_undo(match_id, token_of(authorization), False)


@router.post("/matches/{match_id}/resign", tags=["matches"], response_model=Ack)
def resign(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """Resign: the match is over and the seat ranks last (the record says so); 409 when over."""
    return svc.resign(match_id, token_of(authorization))


@router.post("/matches/{match_id}/hint", tags=["matches"])
async def hint(match_id: MatchId, svc: Service, authorization: Auth = None) -> dict[str, Any]:
    """What the hint agent would play (against the computer, or on a shared screen): 429 while
    this match's hint is thought or the server's hints are taken, 503 when it is not ready in
    time. A coroutine: the search is waited for on the loop, not in a request thread."""
    return await svc.hint_async(match_id, token_of(authorization))


@router.get("/matches/{match_id}/record", tags=["matches"])
def record(match_id: MatchId, svc: Service, authorization: Auth = None) -> JSONResponse:
    """The record: complete once the match is over; the viewer's while it is played."""
    doc = svc.record(match_id, token_of(authorization))
    headers = {"Content-Disposition": f'attachment; filename="regalia-{match_id}.json"'}
    return JSONResponse(doc, headers=headers)


@router.get("/matches/{match_id}/svg", tags=["matches"], response_class=Response)
def svg(match_id: MatchId, svc: Service, ply: Annotated[int, Query(ge=0, le=100_000)]) -> Response:
    """A finished match's position after ``ply`` plies (SVG)."""
    return Response(svc.svg_at(match_id, ply), media_type="image/svg+xml")


@router.get("/matches/{match_id}/table", tags=["matches"])
def table(match_id: MatchId, svc: Service, ply: Annotated[int, Query(ge=0, le=100_000)]) -> dict[str, Any]:
    """A finished match's board and panels after ``ply`` plies (docs/table.md)."""
    return svc.table_at(match_id, ply)


@router.post("/matches/{match_id}/analysis", tags=["matches"])
def request_analysis(match_id: MatchId, svc: Service) -> dict[str, Any]:
    """Queue the analysis of a finished match (409 while it is played; 429 when the server's queue
    of analyses is full); the answer is as ``GET``'s. Computed once and kept with the match."""
    return svc.request_analysis(match_id)


@router.get("/matches/{match_id}/analysis", tags=["matches"])
def analysis(match_id: MatchId, svc: Service) -> dict[str, Any]:
    """Where the match's analysis stands: ``{status, progress: {done, total}, analysis, best}``
    (docs/server.md, "Analysis")."""
    return svc.analysis(match_id)


@router.get("/matches/{match_id}/analysis/board", tags=["matches"])
def analysis_board(
    match_id: MatchId, svc: Service, ply: Annotated[int, Query(ge=1, le=100_000)]
) -> dict[str, Any]:
    """The board had ply ``ply`` been the analysis' best move: ``{ply, best, board}``."""
    return svc.analysis_board(match_id, ply)


__all__ = ["Ack", "ActionRequest", "CreateMatch", "SeatRequest", "SeatsRequest", "router", "token_of"]
