"""DataFiles: a game's shipped data file, or a user's own, parsed once per version of the file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from regalia.core.data import DataFiles
from regalia.core.errors import RegaliaError


def _files(calls: list[str]) -> DataFiles[Any]:
    def parse(doc: Any, source: str) -> Any:
        calls.append(source)
        return doc

    return DataFiles(parse, "regalia.games.carcassonne", "data/tiles.json", "test file")


def test_a_user_file_is_parsed_once_until_it_changes(tmp_path: Path) -> None:
    calls: list[str] = []
    files = _files(calls)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"v": 1}), encoding="utf-8")
    assert files.get(str(path)) == {"v": 1}
    assert files.get(str(path)) == {"v": 1} and len(calls) == 1
    path.write_text(json.dumps({"v": 22}), encoding="utf-8")
    os.utime(path, ns=(1, 10**18))  # a different time of change, whatever the clock's resolution
    assert files.get(str(path)) == {"v": 22} and len(calls) == 2


def test_one_name_in_two_folders_is_two_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same relative name in two working folders reads each folder's file."""
    files = _files([])
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "data.json").write_text(json.dumps({"folder": name}), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "a")
    assert files.get("data.json") == {"folder": "a"}
    monkeypatch.chdir(tmp_path / "b")
    assert files.get("data.json") == {"folder": "b"}


def test_a_missing_user_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(RegaliaError, match=r"nope\.json"):
        _files([]).get(str(tmp_path / "nope.json"))
