"""The browser client: the lobby and match pages and their static files (``regalia.web``).

A page path that matches nothing, or a match that does not exist, answers the HTML page of
:func:`not_found` (404) with a link to the lobby; ``/api/...`` paths keep answering JSON.

>>> [route.path for route in router.routes], (web / "match.html").is_file()
(['/', '/match/{match_id}'], True)
>>> answer = not_found("the match <x>")
>>> answer.status_code, b"the match &lt;x&gt;" in answer.body, b'href="/"' in answer.body
(404, True, True)
"""

from __future__ import annotations

import html
import re
from importlib import resources

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from regalia.server.service import ApiError

router = APIRouter()
web = resources.files("regalia.web")


def page(name: str) -> FileResponse:
    path = web / name
    if not path.is_file():
        raise ApiError(404, f"the browser client's {name} is not installed")
    return FileResponse(str(path), media_type="text/html")


@router.get("/", include_in_schema=False)
def lobby() -> FileResponse:
    return page("index.html")


_NOT_FOUND = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>regalia · not found</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/app.css">
</head>
<body class="not-found-page" data-testid="not-found">
  <main class="panel not-found">
    <h1>Not found</h1>
    <p data-testid="not-found-what">There is no {what} on this server.</p>
    <p><a href="/" data-testid="lobby-link">Go to the lobby</a> to start a match or watch one.</p>
  </main>
</body>
</html>
"""

#: A match id as links carry it (the API's rule, :func:`regalia.server.routes.checked_id`).
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def not_found(what: str) -> HTMLResponse:
    """The HTML page (404) saying that ``what`` was not found, with a link to the lobby."""
    return HTMLResponse(_NOT_FOUND.format(what=html.escape(what)), status_code=404)


def is_page_path(path: str) -> bool:
    """Whether a path is a page's (answered in HTML when nothing matches) rather than the API's."""
    return not (path == "/api" or path.startswith("/api/"))


@router.get("/match/{match_id}", include_in_schema=False, response_model=None)
def match_page(match_id: str, request: Request) -> FileResponse | HTMLResponse:
    """The match page; the not-found page for a match the server does not hold."""
    if _MATCH_ID.fullmatch(match_id) is None or request.app.state.service.store.match(match_id) is None:
        return not_found(f"match {match_id[:64]!r}")
    return page("match.html")


def mount(app: FastAPI) -> None:
    """The pages and ``/static`` (the client's files) on ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(web)), name="static")


__all__ = ["is_page_path", "mount", "not_found", "router"]
