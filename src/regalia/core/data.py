"""Reading the files users give regalia: JSON data files (tile catalogues, treasure tokens,
positions, records) and text files.

Errors are a :class:`RegaliaError` subclass naming the file; validation of the contents is the
caller's job (:mod:`regalia.core.fields` helps). Text may be UTF-8 (with or without a byte-order
mark) or UTF-16/UTF-32 with a byte-order mark, as some editors save it; anything else is refused
with a message, never a traceback. :class:`DataFiles` is a kind of data file a game ships and
users may replace (a tile catalogue): the shipped one and users' files, each parsed once.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "doc.json"
>>> _ = path.write_bytes('{"a": 1}'.encode("utf-16"))
>>> read_json_file(path)
{'a': 1}
>>> files = DataFiles(lambda doc, source: (source, doc["a"]), "regalia.core", "data/x.json", "toy file")
>>> files.load(path), files.get(str(path)) is files.get(str(path))
(('...doc.json', 1), True)
"""

from __future__ import annotations

import codecs
import dataclasses
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any, Generic, TypeVar

from regalia.core.errors import DataError, RegaliaError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def frozen_reduce(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass of a game's data (tiles, tokens, score sheets): its class
    and the values of its ``__init__`` fields, so pickling builds it anew through ``__init__``. The
    compiled build needs it: unpickled by setting its fields, a compiled frozen dataclass raises
    ``FrozenInstanceError``.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> frozen_reduce(Point(1, 2))[1]
    (1, 2)
    """
    return (type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init))


def decode_text(data: bytes, name: str, error: type[RegaliaError] = DataError) -> str:
    """Bytes of a text file as a string: UTF-8, or the encoding its byte-order mark names."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                break
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{name}: not a UTF-8 text file (byte {exc.start} cannot be read); save it as UTF-8"
        ) from None


#: The largest file regalia reads (16 MiB). Its records, positions, catalogues and run summaries
#: are kilobytes; a bigger file is a wrong path, and an endless one (``/dev/zero``) would otherwise
#: be read until memory ran out.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_text_file(path: str | Path, what: str = "", error: type[RegaliaError] = DataError) -> str:
    """The text of a user's file; ``what`` names it in errors (e.g. ``"record"``). A folder, an
    unreadable file, one larger than :data:`MAX_FILE_BYTES` and text that cannot be decoded raise
    ``error`` naming the file."""
    label = f"{what + ' ' if what else ''}{path}"
    target = Path(path)
    if target.is_dir():
        raise error(f"cannot read {label}: it is a folder, not a file")
    try:
        with target.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {label}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(
            f"cannot read {label}: it is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, "
            "far more than any file of regalia's (a record, a position, a catalogue)"
        )
    return decode_text(data, str(path), error)


def read_json_file(path: str | Path, what: str = "", error: type[RegaliaError] = DataError) -> Any:
    """The JSON document in a user's file; ``what`` names it in errors (e.g. ``"tile catalogue"``).

    An unreadable file, text that is not UTF-8 (or UTF-16/32 with a byte-order mark) and malformed
    JSON raise ``error`` naming the file (and the line).
    """
    text = read_text_file(path, what, error)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def read_package_json(package: str, name: str) -> Any:
    """A JSON data file shipped inside ``package`` (e.g. ``"data/tiles.json"``)."""
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def read_package_text(package: str, name: str) -> str:
    """A text file shipped inside ``package`` (e.g. ``"data/rules.md"``)."""
    return resources.files(package).joinpath(name).read_text("utf-8")


T = TypeVar("T")


class DataFiles(Generic[T]):
    """A kind of data file a game ships and users may replace with their own (a tile catalogue,
    treasure tokens): ``parse(doc, source)`` validates a document read from ``source``; the shipped
    file is ``name`` inside ``package`` (its source the file's name, e.g. ``tiles.json``), ``what``
    names users' files in errors (``tile catalogue``)."""

    def __init__(self, parse: Callable[[Any, str], T], package: str, name: str, what: str) -> None:
        self.parse = parse
        self.package = package
        self.name = name
        self.what = what
        self._parsed: dict[tuple[str, int, int] | None, T] = {}

    def load(self, path: str | Path) -> T:
        """Read and validate a user's file (every call reads it again)."""
        return self.parse(read_json_file(path, self.what), str(path))

    def default(self) -> T:
        """The file shipped with the game, parsed once."""
        return self.get(None)

    def get(self, path: str | None) -> T:
        """The shipped file (``None``) or a user's file, parsed once per version of the file: a
        user's file is known by its absolute path, time of change and size, so the same name in
        another folder, or the file edited, is read again."""
        key: tuple[str, int, int] | None = None
        if path is not None:
            try:
                stat = Path(path).stat()
                key = (str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
            except OSError:
                return self.load(path)  # names what is wrong with the path
        if key in self._parsed:
            return self._parsed[key]
        if path is None:
            found = self.parse(read_package_json(self.package, self.name), PurePosixPath(self.name).name)
        else:
            found = self.load(path)
        self._parsed[key] = found
        return found
