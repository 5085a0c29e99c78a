"""A game's plugin surface: everything it offers beyond the engine, declared in one place.

Each game declares one :class:`Plugin` (``regalia/games/<game>/plugin.py``) and names it in its
:class:`~regalia.core.game.Game` class (``plugin = "regalia.games.<game>.plugin:PLUGIN"``). The
commands, the lab, the server and the research adapters find it through
:func:`regalia.core.registry.game_plugin`, never by probing modules; a fourth game touches only its
own folder and one line of the registry.

The fields are plain callables, so a game may import heavy parts (rich, numpy) lazily inside them;
the core itself imports nothing outside the standard library. A game laid out the usual way (a
``render`` package, ``data/rules.md``, a calculator module) declares its plugin with
:func:`package_plugin` and :func:`position_calculator`.

>>> from regalia.core.registry import game_plugin
>>> plugin = game_plugin("two-heirs")
>>> plugin.render_svg is not None and plugin.calculator is not None
True
>>> plugin.render_svg.__doc__, plugin.rules().startswith("#")
('regalia.games.two_heirs.render.render_svg', True)
>>> calculator_options({"tiles": "my.json", "colour": "red"}, ("tiles",))
Traceback (most recent call last):
...
regalia.core.errors.OptionError: unknown calculator option(s) colour; valid: tiles
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from regalia.core.data import read_package_text
from regalia.core.errors import OptionError

#: A menu of legal actions: ``[(group label, [(action, short text), ...]), ...]``.
Menu = list[tuple[Any, list[tuple[Any, str]]]]


@dataclasses.dataclass(frozen=True)
class Calculator:
    """A game's score calculator (``regalia score``): a position document in, a scoring out.

    ``format`` is the ``format`` string of the position documents it reads; ``schema()`` returns
    their JSON Schema; ``score(doc, options)`` reads and scores a document (options: the
    calculator's own ``-o NAME=VALUE`` settings, e.g. a tile catalogue) and returns an object with
    ``to_json()``; ``render(result)`` draws it for a terminal (a rich renderable).
    """

    format: str
    schema: Callable[[], Mapping[str, Any]]
    score: Callable[[Any, Mapping[str, str]], Any]
    render: Callable[[Any], Any] | None = None
    options_help: str = ""


@dataclasses.dataclass(frozen=True)
class Plugin:
    """What a game offers beyond its engine.

    ``render_terminal(state, viewer)``
        the position for a terminal as a rich renderable; ``width`` and ``height`` (keyword
        arguments) are the size it may use.
    ``render_svg(state, viewer, clickable=True)``
        the position as an SVG document; clickable parts carry ``data-action`` with the notation of
        the legal action they stand for (only for the seat to act, or ``viewer`` ``None``: one who
        may act for it); with ``clickable`` false nothing is clickable (a spectator who may not
        act, a replay).
    ``render_result(state)``
        the final scoring of a finished game (rich renderable).
    ``menu(state, actions)``
        the legal actions grouped for a numbered menu.
    ``describe(state, ply)``
        one sentence telling what a ply did, in the words of the rules (called on the state right
        after the ply; used by logs and replays).
    ``notation_help``, ``rules()``
        the notation, and the rulebook text shipped with the game.
    ``calculator``
        the score calculator (:class:`Calculator`).
    ``commands``
        functions ``register(app)`` adding game-specific sub-commands to the ``regalia`` command.
    ``statistics(state)``
        what a designer wants counted in a finished game, per seat (``regalia balance``).
    ``encoding(game, **variant)``
        the game's :class:`~regalia.core.encoding.Encoding` (needs numpy); ``variant`` are the
        encoding's own settings (a window size...), the defaults when none is given.
    ``check_options``
        the option sets the conformance kit and the test suite check the game with.
    ``benchmarks(game, seed)``
        the game's own figures for ``regalia bench`` (a dict of name -> number), measured beside
        the game-agnostic ones (e.g. the cost of a costly step on a typical board).
    """

    render_terminal: Callable[..., Any] | None = None
    render_svg: Callable[..., str] | None = None
    render_result: Callable[[Any], Any] | None = None
    menu: Callable[[Any, Sequence[Any]], Menu] | None = None
    describe: Callable[[Any, Any], str] | None = None
    notation_help: str = ""
    rules: Callable[[], str] | None = None
    calculator: Calculator | None = None
    commands: tuple[Callable[[Any], None], ...] = ()
    statistics: Callable[[Any], list[dict[str, float]]] | None = None
    encoding: Callable[..., Any] | None = None
    check_options: tuple[Mapping[str, Any], ...] = ({},)
    benchmarks: Callable[[Any, int], Mapping[str, Any]] | None = None


#: The plugin of a game that declares none.
EMPTY = Plugin()


def lazy(package: str, target: str) -> Callable[..., Any]:
    """A function ``module:name`` of ``package``, imported on its first call, so a plugin can name
    parts that load heavy libraries (rich, numpy) without importing them with the game.

    >>> make = lazy("regalia.core", "options:Options")
    >>> make.__name__, make.__doc__
    ('Options', 'regalia.core.options.Options')
    """
    module_name, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(f"{package}.{module_name}"), name)(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"{package}.{module_name}.{name}"
    return call


def rulebook(package: str) -> Callable[[], str]:
    """A function returning the rulebook shipped in ``package`` (its ``data/rules.md``)."""

    def rules_text() -> str:
        return read_package_text(package, "data/rules.md")

    rules_text.__doc__ = f"The rulebook shipped in {package} (data/rules.md)."
    return rules_text


def package_plugin(package: str, **fields: Any) -> Plugin:
    """The :class:`Plugin` of a game package laid out the usual way: ``render_terminal``,
    ``render_svg``, ``render_result``, the menu (``legal_groups``) and ``describe_ply`` are the
    functions of its ``render`` package (imported on first use), ``rules`` its ``data/rules.md``;
    ``fields`` give the others (and may replace these)."""
    standard: dict[str, Any] = {
        "render_terminal": lazy(package, "render:render_terminal"),
        "render_svg": lazy(package, "render:render_svg"),
        "render_result": lazy(package, "render:render_result"),
        "menu": lazy(package, "render:legal_groups"),
        "describe": lazy(package, "render:describe_ply"),
        "rules": rulebook(package),
    }
    return Plugin(**{**standard, **fields})


def position_calculator(
    module: Any, render: Callable[[Any], Any] | None, options_help: str = ""
) -> Calculator:
    """The :class:`Calculator` of a calculator module: its ``FORMAT``, ``schema()`` and
    ``score_document(doc, options)``; ``render`` draws a result."""
    return Calculator(
        format=module.FORMAT,
        schema=module.schema,
        score=module.score_document,
        render=render,
        options_help=options_help,
    )


def calculator_options(options: Mapping[str, str] | None, valid: Sequence[str]) -> dict[str, str]:
    """A calculator's own ``-o NAME=VALUE`` settings; a name not in ``valid`` is refused."""
    values = dict(options or {})
    unknown = sorted(set(values) - set(valid))
    if unknown:
        raise OptionError(f"unknown calculator option(s) {', '.join(unknown)}; valid: {', '.join(valid)}")
    return values
