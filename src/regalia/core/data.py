"""Reading the JSON data files of games (tile catalogues, treasure tokens, ...).

Errors are :class:`DataError` naming the file; validation of the contents is the game's job.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from regalia.core.errors import DataError


def read_json_file(path: str | Path, what: str) -> Any:
    """The JSON document in a user's file; ``what`` names it in errors (e.g. ``"tile catalogue"``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not JSON: {exc}") from None


def read_package_json(package: str, name: str) -> Any:
    """A JSON data file shipped inside ``package`` (e.g. ``"data/tiles.json"``)."""
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))
