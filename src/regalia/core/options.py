"""Game options: a frozen dataclass per game, with a schema that forms and commands are built from.

Each field of an :class:`Options` subclass is declared with :func:`option`, which records its help
text and, where it has them, its choices and bounds. :meth:`Options.schema` lists every option
(name, type, default, choices, bounds, help) as JSON, so a lobby can build a form and every command
accepts ``-o NAME=VALUE`` for any option of any game (:func:`parse_option_pairs`).

>>> import dataclasses
>>> @dataclasses.dataclass(frozen=True, slots=True)
... class Demo(Options):
...     rounds: int = option(3, "rounds to play", minimum=1, maximum=9)
...     colour: str = option("red", "first colour", choices=("red", "blue"))
>>> Demo.from_mapping({"rounds": "5"}).rounds
5
>>> [o["name"] for o in Demo.schema()]
['rounds', 'colour']
>>> Demo.from_mapping({"colour": "green"})
Traceback (most recent call last):
...
regalia.core.errors.OptionError: option colour: unknown value 'green'; valid colour: red, blue
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Self

from regalia.core.errors import OptionError

JSON = dict[str, Any]

_META = "regalia"


def option(
    default: Any,
    help: str,
    *,
    choices: Sequence[Any] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    file: bool = False,
) -> Any:
    """A dataclass field of an :class:`Options` class, with its help text, choices and bounds.

    ``file`` marks an option whose value is a path on the machine running the game (a user's own
    data file): the server refuses such options from its clients."""
    meta = {
        _META: {
            "help": help,
            "choices": None if choices is None else tuple(choices),
            "minimum": minimum,
            "maximum": maximum,
            "file": file,
        }
    }
    return dataclasses.field(default=default, metadata=meta)


def _type_name(hint: Any) -> tuple[str, bool]:
    """The schema type of a field (``bool``, ``int``, ``str``, ``list``) and whether it may be null."""
    origin = typing.get_origin(hint)
    nullable = False
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        nullable = len(args) < len(typing.get_args(hint))
        hint = args[0] if len(args) == 1 else hint
        origin = typing.get_origin(hint)
    if origin is tuple:
        return "list", nullable
    names = {bool: "bool", int: "int", str: "str", float: "float"}
    return names.get(hint, "str"), nullable


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    """Base class of a game's options: a frozen dataclass whose fields all have defaults.

    Subclasses declare fields with :func:`option` and may override :meth:`validate` to check a
    combination of values. A field named ``players`` is the number of seats (checked by the game
    against its ``min_players..max_players``).
    """

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Build options from a mapping, refusing unknown names and values of the wrong type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            valid = ", ".join(sorted(fields)) or "(none)"
            raise OptionError(f"unknown option(s) {', '.join(unknown)}; valid options: {valid}")
        hints = typing.get_type_hints(cls)
        converted: dict[str, Any] = {}
        for name, value in values.items():
            value = _coerce(name, value, hints[name])
            meta = fields[name].metadata.get(_META, {})
            _check_bounds(name, value, meta)
            converted[name] = value
        options = cls(**converted)
        options.validate()
        return options

    def validate(self) -> None:
        """Raise :class:`OptionError` when a combination of values is invalid."""

    def to_json(self) -> JSON:
        """The options as a JSON-able dict: tuples become lists; unset options (``None``) are left out."""
        out: JSON = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def schema(cls) -> list[JSON]:
        """Every option: ``name``, ``type`` (bool, int, str, list), ``nullable``, ``default``,
        ``choices``, ``minimum``, ``maximum``, ``file`` (a path on this machine) and ``help``, in
        declaration order."""
        hints = typing.get_type_hints(cls)
        out: list[JSON] = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get(_META, {})
            kind, nullable = _type_name(hints[f.name])
            default = f.default
            out.append(
                {
                    "name": f.name,
                    "type": kind,
                    "nullable": nullable,
                    "default": list(default) if isinstance(default, tuple) else default,
                    "choices": None if meta.get("choices") is None else list(meta["choices"]),
                    "minimum": meta.get("minimum"),
                    "maximum": meta.get("maximum"),
                    "file": bool(meta.get("file", False)),
                    "help": meta.get("help", ""),
                }
            )
        return out

    @classmethod
    def names(cls) -> list[str]:
        """The option names, in declaration order."""
        return [f.name for f in dataclasses.fields(cls)]


def _check_bounds(name: str, value: Any, meta: Mapping[str, Any]) -> None:
    choices = meta.get("choices")
    if choices is not None and value is not None:
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if item not in choices:
                valid = ", ".join(str(c) for c in choices)
                raise OptionError(f"option {name}: unknown value {item!r}; valid {name}: {valid}")
    lo, hi = meta.get("minimum"), meta.get("maximum")
    if not isinstance(value, int) or isinstance(value, bool):
        return
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise OptionError(f"option {name}: must be between {lo} and {hi}, got {value}")


def parse_option_pairs(pairs: Sequence[str] | None) -> dict[str, str]:
    """Command-line options ``NAME=VALUE`` as a mapping (the game converts and checks the values).

    >>> parse_option_pairs(["roads=false", "sets=warfare,crafts,guard"])
    {'roads': 'false', 'sets': 'warfare,crafts,guard'}
    """
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r}: write it as NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Check (and gently convert) one option value against its type hint."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        errors = []
        if (value is None or (isinstance(value, str) and value.lower() in ("none", "null", ""))) and type(
            None
        ) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(name, value, arg)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(f"option {name}: {value!r} is not valid ({'; '.join(errors)})")
    if origin is tuple:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, (list, tuple)):
            raise OptionError(f"option {name}: expected a list, got {value!r}")
        item = args[0] if args else Any
        return tuple(_coerce(name, v, item) for v in value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in (*_TRUE, *_FALSE):
            return value.lower() in _TRUE
        raise OptionError(f"option {name}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, bool):
            raise OptionError(f"option {name}: expected an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise OptionError(f"option {name}: expected an integer, got {value!r}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise OptionError(f"option {name}: expected a string, got {value!r}")
    return value
