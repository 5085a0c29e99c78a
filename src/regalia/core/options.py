"""Game options: a frozen dataclass per game, with a schema that forms and commands are built from.

Each field of an :class:`Options` subclass is declared with :func:`option`, which records its help
text and, where it has them, its choices and bounds. :meth:`Options.schema` lists every option
(name, type, default, choices, bounds, help) as JSON, so a lobby can build a form and every command
accepts ``-o NAME=VALUE`` for any option of any game (:func:`parse_option_pairs`). A value may be
given as its text (from a command line or a form) or in its natural type (from Python or JSON): an
``int``, a ``bool``, a ``float``, a list, or a number for a choice written as text (``shrines=5``).

>>> import dataclasses
>>> @dataclasses.dataclass(frozen=True, slots=True)
... class Demo(Options):
...     rounds: int = option(3, "rounds to play", minimum=1, maximum=9)
...     colour: str = option("red", "first colour", choices=("red", "blue"))
>>> Demo.from_mapping({"rounds": "5"}).rounds, Demo.from_mapping({"rounds": 5}).rounds
(5, 5)
>>> [o["name"] for o in Demo.schema()]
['rounds', 'colour']
>>> Demo.from_mapping({"colour": "green"})
Traceback (most recent call last):
...
regalia.core.errors.OptionError: option colour: unknown value 'green'; valid colour: red, blue
"""

from __future__ import annotations

import dataclasses
import enum
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
            out[f.name] = _plain(value)
        return out

    @classmethod
    def schema(cls) -> list[JSON]:
        """Every option: ``name``, ``type`` (bool, int, float, str, list), ``nullable``, ``default``,
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
                    "default": _plain(default),
                    "choices": None if meta.get("choices") is None else [_plain(c) for c in meta["choices"]],
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


def _plain(value: Any) -> Any:
    """A value as JSON: tuples become lists, enum members their values."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


def type_label(entry: Mapping[str, Any]) -> str:
    """The type of one :meth:`Options.schema` entry in a few words, as ``regalia games`` shows it:
    what a Python caller passes (``load_game(GAME, NAME=value)``); ``-o NAME=VALUE`` takes its text.

    >>> type_label({"type": "int", "nullable": False, "choices": None, "file": False})
    'int'
    >>> type_label({"type": "str", "nullable": False, "choices": ["off", "5", "6"], "file": False})
    'str (5 or "5")'
    >>> type_label({"type": "str", "nullable": True, "choices": None, "file": True})
    'path or None'
    >>> type_label({"type": "list", "nullable": False, "choices": ["a", "b"], "file": False})
    'list of str'
    """
    kind = str(entry["type"])
    choices = entry.get("choices") or []
    if entry.get("file"):
        label = "path"
    elif kind == "list":
        label = "list of str" if all(isinstance(c, str) for c in choices) else "list"
    else:
        label = kind
        numeric = [str(c) for c in choices if kind == "str" and str(c).lstrip("-").isdigit()]
        if numeric:
            label += f' ({numeric[0]} or "{numeric[0]}")'
    return f"{label} or None" if entry.get("nullable") else label


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
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
            return value.strip().lower() in _TRUE
        raise OptionError(f"option {name}: expected true or false, got {value!r}")
    if hint is int:
        if isinstance(value, bool):
            raise OptionError(f"option {name}: expected an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise OptionError(f"option {name}: expected an integer, got {value!r}")
    if hint is float:
        if isinstance(value, bool):
            raise OptionError(f"option {name}: expected a number, got {value!r}")
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                pass
        raise OptionError(f"option {name}: expected a number, got {value!r}")
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _coerce_enum(name, value, hint)
    if hint is str:
        if isinstance(value, str):
            return value
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # a choice written as a number (shrines=5 for "5"), as a Python caller passes it
            return str(value)
        raise OptionError(f"option {name}: expected a string, got {value!r}")
    return value


def _coerce_enum(name: str, value: Any, hint: type[enum.Enum]) -> enum.Enum:
    """An enum option: a member, its value, or its value or name as text."""
    if isinstance(value, hint):
        return value
    for member in hint:
        if value == member.value or (
            isinstance(value, str | int | float)
            and not isinstance(value, bool)
            and str(value).strip().lower() in (str(member.value).lower(), member.name.lower())
        ):
            return member
    valid = ", ".join(str(m.value) for m in hint)
    raise OptionError(f"option {name}: unknown value {value!r}; valid {name}: {valid}")
