"""Reading the typed fields of JSON documents users write, with errors that name the field.

Two kinds of document, two ways of naming a field:

- data files (tile catalogues, treasure tokens) raise :class:`DataError` naming the entry, then the
  field: ``tile D: field 'roads': expected a list, got 5`` (:func:`entry_error`, :func:`data_document`,
  :func:`entry_object`, :func:`check_entry_fields`);
- positions (the score calculators, the solo companion) raise :class:`PositionError` naming the
  field's path first: ``board[3].rotation: ...`` (:func:`field_error`, :func:`position_document`,
  :func:`field_object`, :func:`check_fields`, :func:`parse_pos_field`, :func:`distinct_pos`); an
  error from a data entry read inside a position names the entry's field under its path
  (:func:`nested_error`).

The messages are the games' own (tests pin them); only the code is shared.

>>> data_document({"format": "toy-tiles", "version": 2}, "toy.json", "a tile catalogue", "toy-tiles")
Traceback (most recent call last):
...
regalia.core.errors.DataError: toy.json: field 'version' must be 1
>>> cell = field_object({"pos": "1,0", "colour": "red"}, "board[2]", {"pos", "tile"}, ("pos",), "a cell")
Traceback (most recent call last):
...
regalia.core.errors.PositionError: board[2].colour: unknown field; valid fields: pos, tile
>>> parse_pos_field("1,-2", "board[0].pos"), is_int(True)
((1, -2), False)
>>> str(nested_error(entry_error("tile inline", "edges", "4 letters"), "board[3].tile"))
'board[3].tile.edges: 4 letters'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeGuard

from regalia.core.errors import DataError, PositionError
from regalia.core.grid import REACH, Pos, format_pos, parse_pos, within_reach

# -- data files: DataError naming the entry and the field --------------------------------------------


def entry_error(where: str, field: str, message: str) -> DataError:
    """A data error naming the entry and the field: ``tile D: field 'roads': message``."""
    return DataError(f"{where}: field {field!r}: {message}")


def data_document(doc: Any, source: str, what: str, format: str, version: int = 1) -> Mapping[str, Any]:
    """``doc`` (read from ``source``) checked as a data file: a JSON object (``what`` names it: ``a
    tile catalogue``) whose fields ``format`` and ``version`` are those given."""
    if not isinstance(doc, Mapping):
        raise DataError(f"{source}: {what} must be a JSON object")
    if doc.get("format") != format:
        raise DataError(f"{source}: field 'format' must be {format!r}")
    if doc.get("version") != version:
        raise DataError(f"{source}: field 'version' must be {version}")
    return doc


def nonempty_list(doc: Mapping[str, Any], field: str, source: str) -> list[Any]:
    """The field ``field`` of a data document, a non-empty list."""
    raw = doc.get(field)
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{source}: field {field!r} must be a non-empty list")
    return raw


def entry_object(entry: Any, where: str, what: str) -> Mapping[str, Any]:
    """An entry of a data file, a JSON object (``what`` names it: ``a tile``)."""
    if not isinstance(entry, Mapping):
        raise DataError(f"{where}: {what} must be an object, got {type(entry).__name__}")
    return entry


def check_entry_fields(entry: Mapping[str, Any], known: Collection[str], where: str) -> None:
    """Refuse an entry with a field not in ``known``, naming the first (in sorted order)."""
    extra = sorted(set(entry) - set(known))
    if extra:
        raise entry_error(where, extra[0], f"unknown field; valid fields: {', '.join(sorted(known))}")


# -- positions: PositionError naming the field's path ------------------------------------------------


def field_error(field: str, message: str) -> PositionError:
    """A position error naming ``field`` first (``board[3].rotation: ...``)."""
    return PositionError(f"{field}: {message}")


def is_int(value: Any) -> TypeGuard[int]:
    """``value`` is a JSON integer (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_fields(
    obj: Mapping[str, Any], known: Collection[str], field: str = "", listed: Collection[str] | None = None
) -> None:
    """Refuse an object at ``field`` (``""``: the document) with a field not in ``known``, naming the
    first (in sorted order); the message lists ``listed`` (default: ``known``)."""
    extra = sorted(set(obj) - set(known))
    if extra:
        valid = ", ".join(sorted(known if listed is None else listed))
        raise field_error(
            f"{field}.{extra[0]}" if field else extra[0], f"unknown field; valid fields: {valid}"
        )


def position_document(
    doc: Any,
    format: str,
    version: int,
    known: Collection[str],
    what: str = "a position",
    listed: Collection[str] | None = None,
) -> Mapping[str, Any]:
    """``doc`` checked as a position document: a JSON object of ``format`` and ``version`` with only
    the fields ``known`` (the message of an unknown one lists ``listed``, default ``known``)."""
    if not isinstance(doc, Mapping):
        raise field_error("(document)", f"{what} must be a JSON object")
    if doc.get("format") != format:
        raise field_error("format", f"expected {format!r}, got {doc.get('format')!r}")
    if doc.get("version") != version:
        raise field_error(
            "version", f"unsupported version {doc.get('version')!r}; this reader knows {version}"
        )
    check_fields(doc, known, listed=listed)
    return doc


def field_object(
    value: Any,
    field: str,
    known: Collection[str],
    required: Sequence[str],
    expected: str,
    notes: Mapping[str, str] | None = None,
) -> Mapping[str, Any]:
    """The object at ``field`` (``expected`` describes it: ``an object with pos and tile``), with only
    the fields ``known`` and every field ``required`` (``notes`` add a hint to a missing one)."""
    if not isinstance(value, Mapping):
        raise field_error(field, f"expected {expected}")
    check_fields(value, known, field)
    for name in required:
        if name not in value:
            raise field_error(f"{field}.{name}", "missing" + (notes or {}).get(name, ""))
    return value


def parse_pos_field(value: Any, field: str, error: Callable[[str, str], PositionError] = field_error) -> Pos:
    """A position ``"x,y"`` of a position document; errors name the field (``error(field,
    message)`` writes them: the default names the field first)."""
    if not isinstance(value, str):
        raise error(field, f"expected a position 'x,y', got {value!r}")
    try:
        pos = parse_pos(value)
    except ValueError:
        raise error(field, f"{value!r} is not a position 'x,y'") from None
    if not within_reach(pos):
        raise error(
            field,
            f"{value!r} lies further than {REACH} squares from 0,0: a board's positions run from "
            f"{-REACH} to {REACH} in each coordinate",
        )
    return pos


def distinct_pos(value: Any, field: str, seen: dict[Pos, int], index: int, items: str = "board") -> Pos:
    """The position ``value`` of ``items[index]``, not one an earlier item used (``seen``: position ->
    index, updated)."""
    pos = parse_pos_field(value, field)
    if pos in seen:
        raise field_error(field, f"{format_pos(pos)} is already used by {items}[{seen[pos]}]")
    seen[pos] = index
    return pos


_ENTRY_FIELD = re.compile(r"field '([^']+)': (.*)", re.DOTALL)


def nested_error(exc: DataError, field: str) -> PositionError:
    """A data entry's error (:func:`entry_error`) raised while reading the entry at ``field`` of a
    position, as a position error naming the entry's field under ``field``."""
    match = _ENTRY_FIELD.search(str(exc))
    if match:
        return field_error(f"{field}.{match.group(1)}", match.group(2))
    return field_error(field, str(exc))


__all__ = [
    "check_entry_fields",
    "check_fields",
    "data_document",
    "distinct_pos",
    "entry_error",
    "entry_object",
    "field_error",
    "field_object",
    "is_int",
    "nested_error",
    "nonempty_list",
    "parse_pos_field",
    "position_document",
]
