"""The browser client: the lobby and match pages and their static files (``regalia.web``).

>>> [route.path for route in router.routes], (web / "match.html").is_file()
(['/', '/match/{match_id}'], True)
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
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


@router.get("/match/{match_id}", include_in_schema=False)
def match_page(match_id: str) -> FileResponse:
    return page("match.html")


def mount(app: FastAPI) -> None:
    """The pages and ``/static`` (the client's files) on ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(web)), name="static")


__all__ = ["mount", "router"]
