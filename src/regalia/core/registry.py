"""Games registered by id. The core names no game: games are found through the ``regalia.games``
entry-point group of the installed packages (``[project.entry-points."regalia.games"]`` in a
package's ``pyproject.toml``, ``id = "module:Class"``), the way pytest finds its plugins, so a game
in another installed package is found the same way as the three shipped ones.
:func:`register_game` adds one by hand (tests, a game not installed as a package); those take
precedence over the entry points.

>>> "two-heirs" in game_ids()
True
>>> load_game("two-heirs").num_players
2
>>> game_plugin("royal-court").rules().startswith("#")
True
"""

from __future__ import annotations

import importlib
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from regalia.core.errors import RegistryError, UnknownGame
from regalia.core.game import Game
from regalia.core.plugin import Plugin

#: The entry-point group games register in.
ENTRY_POINT_GROUP = "regalia.games"

#: Games registered with :func:`register_game`: id -> ``"module:Class"`` or the class itself.
GAMES: dict[str, str | type[Game[Any]]] = {}

_found: dict[str, EntryPoint] | None = None  # the entry points, read once
_conflicts: dict[str, list[EntryPoint]] = {}  # ids claimed by entry points that disagree


def _where(ep: EntryPoint) -> str:
    dist = ep.dist.name if ep.dist is not None else "an unknown distribution"
    return f"{ep.name} = {ep.value!r} ({ENTRY_POINT_GROUP}, from {dist})"


def entry_point_games() -> dict[str, EntryPoint]:
    """The games the installed packages declare in the ``regalia.games`` group, by id (read once;
    nothing is imported). Two entry points claiming one id with different targets leave the id
    unusable: looking it up raises :class:`RegistryError` naming both."""
    global _found
    if _found is None:
        found: dict[str, EntryPoint] = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            seen = found.get(ep.name)
            if seen is not None and seen.value != ep.value:
                _conflicts.setdefault(ep.name, [seen]).append(ep)
            found.setdefault(ep.name, ep)
        _found = found
    return _found


def game_ids() -> list[str]:
    """The ids of every registered game (entry points and :func:`register_game`)."""
    return sorted({*entry_point_games(), *GAMES})


def register_game(game_id: str, target: str | type[Game[Any]], replace: bool = False) -> None:
    """Register a game class (or its ``"module:Class"``) as ``game_id``, for tests and games outside
    an installed package. An id already registered with another target raises
    :class:`RegistryError` unless ``replace``; the same target again is accepted."""
    current = GAMES.get(game_id)
    if current is not None and current != target and not replace:
        raise RegistryError(f"game {game_id!r} is already registered as {current!r}; not {target!r}")
    GAMES[game_id] = target


def _checked(loaded: Any, where: str) -> type[Game[Any]]:
    if not (isinstance(loaded, type) and issubclass(loaded, Game)):
        raise RegistryError(f"the game {where} is not a Game subclass but {loaded!r}")
    return loaded


def _load_target(game_id: str, target: str | type[Game[Any]]) -> type[Game[Any]]:
    if isinstance(target, type):
        return _checked(target, f"{game_id!r} ({target.__qualname__})")
    where = f"{game_id!r} ({target})"
    module_name, _, attr = target.partition(":")
    try:
        loaded = getattr(importlib.import_module(module_name), attr)
    except Exception as exc:
        raise RegistryError(f"the game {where} failed to load: {type(exc).__name__}: {exc}") from exc
    return _checked(loaded, where)


def _load_entry_point(ep: EntryPoint) -> type[Game[Any]]:
    if ep.name in _conflicts:
        claims = "; ".join(_where(e) for e in _conflicts[ep.name])
        raise RegistryError(f"game {ep.name!r} is declared by more than one entry point: {claims}")
    try:
        loaded = ep.load()
    except Exception as exc:
        raise RegistryError(
            f"the game entry point {_where(ep)} failed to load: {type(exc).__name__}: {exc}"
        ) from exc
    cls = _checked(loaded, f"entry point {_where(ep)}")
    if getattr(cls, "id", ep.name) != ep.name:  # records name the id: it must be the entry point's
        raise RegistryError(f"the game entry point {_where(ep)} names a game whose id is {cls.id!r}")
    return cls


def game_class(game_id: str) -> type[Game[Any]]:
    """The :class:`Game` subclass registered as ``game_id`` (a registration that cannot be loaded
    raises :class:`RegistryError` naming it)."""
    target = GAMES.get(game_id)
    if target is not None:
        return _load_target(game_id, target)
    ep = entry_point_games().get(game_id)
    if ep is None:
        raise UnknownGame(f"unknown game {game_id!r}; valid games: {', '.join(game_ids())}")
    return _load_entry_point(ep)


def load_game(game_id: str, **options: Any) -> Game[Any]:
    """The game ``game_id`` with ``options`` (unknown ids and options raise, listing valid ones)."""
    return game_class(game_id)(**options)


def game_plugin(game_id: str) -> Plugin[Any]:
    """The :class:`~regalia.core.plugin.Plugin` of the game ``game_id`` (its
    :meth:`Game.plugin <regalia.core.game.Game.plugin>`)."""
    return game_class(game_id).plugin()
