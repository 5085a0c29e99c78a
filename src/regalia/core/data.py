"""Reading the JSON data files of games (tile catalogues, treasure tokens, ...).

Errors are :class:`DataError` naming the file; validation of the contents is the game's job.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from regalia.core.errors import DataError, RegaliaError


def read_json_file(path: str | Path, what: str = "", error: type[RegaliaError] = DataError) -> Any:
    """The JSON document in a user's file; ``what`` names it in errors (e.g. ``"tile catalogue"``).

    An unreadable file or malformed JSON raises ``error`` naming the file (and the line).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {what + ' ' if what else ''}{path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def read_package_json(package: str, name: str) -> Any:
    """A JSON data file shipped inside ``package`` (e.g. ``"data/tiles.json"``)."""
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))
