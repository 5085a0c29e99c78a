"""A game's plugin surface: everything it offers beyond the engine, declared in one place.

Each game subclasses :class:`Plugin` in ``regalia/games/<game>/plugin.py`` and returns its
instance from :meth:`Game.plugin() <regalia.core.game.Game.plugin>` (which imports the plugin
module on first use). The commands, the lab, the server and the research adapters call the
plugin's methods, never probe modules and never check for ``None``: every hook has a default, so
a game that declares no plugin (a test's toy game) still plays in the terminal, logs, replays and
balances.

The methods import heavy parts (rich, numpy, a game's renderers) inside their bodies, so importing
the core or loading a game imports nothing outside the standard library.

>>> from regalia.core.registry import game_plugin, load_game
>>> plugin = game_plugin("two-heirs")
>>> plugin.has_svg, plugin.has_encoding, plugin.calculator is not None, plugin.rules().startswith("#")
(True, True, True, True)
>>> state = load_game("royal-court").new_state(seed=1)
>>> _ = state.advance()
>>> [label for label, _ in Plugin().legal_groups(state, state.legal_actions())]
['play']
>>> Plugin().describe(state, state.plies()[-1]), Plugin().rules(), Plugin().has_svg
('', '', False)
>>> Plugin().reference(state.game)
[]
>>> Plugin().encoding(state.game)
Traceback (most recent call last):
...
regalia.core.errors.Unsupported: Intrigue in the Royal Court has no encoding
>>> calculator_options({"tiles": "my.json", "colour": "red"}, ("tiles",))
Traceback (most recent call last):
...
regalia.core.errors.OptionError: unknown calculator option(s) colour; valid: tiles
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from regalia.core.errors import OptionError, Unsupported

if TYPE_CHECKING:
    from rich.console import RenderableType

    from regalia.core.encoding import Encoding
    from regalia.core.game import Game, Ply, State

#: A menu of legal actions: ``[(group label, [(action, short text), ...]), ...]``; a label is a
#: string or a rich ``Text``.
Menu = list[tuple[Any, list[tuple[Any, str]]]]

#: The colour of a seat in the panels of a game that names none.
NEUTRAL_COLOUR = "#495057"

#: The state class a game's plugin draws and describes.
S = TypeVar("S", bound="State[Any]")


@dataclasses.dataclass(frozen=True)
class Calculator:
    """A game's score calculator (``regalia score``): a position document in, a scoring out.

    ``format`` is the ``format`` string of the position documents it reads; ``schema()`` returns
    their JSON Schema; ``score(doc, options)`` reads and scores a document (options: the
    calculator's own ``-o NAME=VALUE`` settings, e.g. a tile catalogue) and returns an object with
    ``to_json()``; ``render(result)`` draws it for a terminal (a rich renderable).
    ``score_state(state)``, where the calculator has it, scores a game state as if the game ended
    there (the same kind of result, whose ``totals`` are the points per seat); it backs
    :meth:`regalia.core.game.State.score_now`.
    """

    format: str
    schema: Callable[[], Mapping[str, Any]]
    score: Callable[[Any, Mapping[str, str]], Any]
    render: Callable[[Any], Any] | None = None
    options_help: str = ""
    score_state: Callable[[Any], Any] | None = None


@dataclasses.dataclass(frozen=True)
class ReferenceItem:
    """One entry of a game's reference beside its rules: a tile, card or archetype as pictured in
    the game.

    ``name``: what the game calls it; ``count``: how many copies a game holds; ``text``: what it is
    and does, in plain words (no markup); ``svg``: its picture, an ``<svg>`` element (no XML
    declaration, no scripts) with its own ``viewBox``; ``lines``: its picture for a terminal, a few
    lines of plain text of one width (``()``: none).
    """

    name: str
    count: int
    text: str
    svg: str
    lines: tuple[str, ...] = ()


class Plugin(Generic[S]):
    """What a game offers beyond its engine, with a default for every hook.

    A game subclasses it (``class TwoHeirsPlugin(Plugin[TwoHeirsState])``) and overrides what it
    offers; the base class alone is the plugin of a game that declares none.

    Attributes (class attributes, overridden by assignment in the subclass):

    ``notation_help``
        the notation, for the terminal's ``help`` (default ``""``).
    ``check_options``
        the option sets the conformance kit and the test suite check the game with (default
        ``({},)``: the default options).
    ``calculator``
        the score calculator (:class:`Calculator`), or ``None``: the game has none (``regalia
        score`` does not list it). Absence is a real answer here, so it is typed as one.
    ``commands``
        functions ``register(app)`` adding game-specific sub-commands to the ``regalia`` command
        (default none).
    ``analysis_thresholds``
        the losses in expected result (0 to 1) from which ``regalia analyse`` marks a move an
        inaccuracy, a mistake and a blunder (docs/analysis.md; default ``(0.05, 0.10, 0.20)``).

    Methods, each with what the base class does:

    ``render_terminal(state, viewer, width=, height=)``
        the position for a terminal as a rich renderable (``width``, ``height``: the size it may
        use). Default: one plain line, the state and the scores.
    ``render_svg(state, viewer, clickable=True)``
        the position as an SVG document; clickable parts carry ``data-action`` with the notation of
        the legal action they stand for (only for the seat to act, or ``viewer`` ``None``: one who
        may act for it); with ``clickable`` false nothing is clickable (a spectator who may not
        act, a replay). Default: raises :class:`~regalia.core.errors.Unsupported` ("X draws no
        SVG"); :attr:`has_svg` tells beforehand.
    ``render_board(state, viewer, clickable=True)``
        the board alone for the browser table (docs/table.md): an SVG in world units, one unit a
        CSS pixel at zoom 1, a cell of the fixed size the root's ``data-cell`` says, every tile and
        piece with ``data-pos``, the last ply's parts with ``data-last``, the points the last ply
        scored as ``.scored`` groups; clickable parts as in :meth:`render_svg`, each with words in
        ``data-label``. Default: :meth:`render_svg` (the whole picture).
    ``render_stage(state, viewer, clickable=True)``
        a close-up to choose from when the choices are too close together on the board (an
        enlarged copy of the tile just laid with its follower spots apart), or ``None``: none now
        (the default).
    ``panels(state, viewer)``
        the HTML panels beside the board as data (docs/table.md, "Panels"): each seat's name,
        colour, score and facts, and sections (the drawn tile, the bag, hands, zones), built only
        from what ``viewer`` may see. Default: each seat's score in a neutral colour, no section.
    ``action_label(state, action)``
        the action in words for a button ("Knight on the city", "No follower"). Default: its
        notation.
    ``default_action(state, actions)``
        the action a button offers as the default among the legal ``actions`` ("No follower"), or
        ``None`` (the default: none).
    ``places(state, ply)``
        where on the board ``ply`` happened, as ``data-pos`` values (called on the state right
        after the ply, like :meth:`describe`); the log links to them. Default: ``()``.
    ``render_result(state)``
        the final scoring of a finished game (rich renderable). Default: the final scores in one
        line.
    ``legal_groups(state, actions)``
        the legal actions grouped for a numbered menu (:data:`Menu`). Default: grouped by the first
        word of their notation, the whole notation as the short text.
    ``describe(state, ply)``
        one sentence telling what a ply did, in the words of the rules (called on the state right
        after the ply; used by logs and replays). Default: ``""`` (the notation says it all).
    ``rules()``
        the rulebook text shipped with the game (Markdown). Default: ``""``.
    ``reference(game)``
        every tile, card or archetype of ``game`` as pictured in it, with its count and what it
        does (:class:`ReferenceItem`), shown beside the rules. Default: ``[]``, none.
    ``statistics(state)``
        what a designer wants counted in a finished game, one ``{name: number}`` dict per seat
        (``regalia balance``). Default: each seat's score, ``{"score": points}``.
    ``encoding(game, **variant)``
        the game's :class:`~regalia.core.encoding.Encoding` (needs numpy); ``variant`` are the
        encoding's own settings (a window size...), the defaults when none is given. Default:
        raises :class:`~regalia.core.errors.Unsupported` ("X has no encoding");
        :attr:`has_encoding` tells beforehand.
    ``benchmarks(game, seed)``
        the game's own figures for ``regalia bench`` (name -> number), measured beside the
        game-agnostic ones (e.g. the cost of a costly step on a typical board). Default: none.
    """

    notation_help: ClassVar[str] = ""
    check_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    calculator: ClassVar[Calculator | None] = None
    commands: ClassVar[tuple[Callable[[Any], None], ...]] = ()
    analysis_thresholds: ClassVar[tuple[float, float, float]] = (0.05, 0.10, 0.20)

    # -- capabilities that may be absent -----------------------------------------------------------
    @property
    def has_svg(self) -> bool:
        """True when the game draws its positions as SVG (its plugin overrides :meth:`render_svg`)."""
        return type(self).render_svg is not Plugin.render_svg

    @property
    def has_encoding(self) -> bool:
        """True when the game declares an encoding (its plugin overrides :meth:`encoding`)."""
        return type(self).encoding is not Plugin.encoding

    # -- drawing -----------------------------------------------------------------------------------
    def render_terminal(
        self, state: S, viewer: int | None = None, *, width: int | None = None, height: int | None = None
    ) -> RenderableType:
        """The position for a terminal (default: one plain line, the state and the scores)."""
        from rich.text import Text

        return Text(f"{state}  scores {state.scores()}")

    def render_svg(self, state: S, viewer: int | None = None, clickable: bool = True) -> str:
        """The position as an SVG document (default: :class:`Unsupported`, see :attr:`has_svg`)."""
        raise Unsupported(f"{state.game.name} draws no SVG")

    def render_board(self, state: S, viewer: int | None = None, clickable: bool = True) -> str:
        """The board alone for the browser table (default: :meth:`render_svg`, the whole picture)."""
        return self.render_svg(state, viewer, clickable)

    def render_stage(self, state: S, viewer: int | None = None, clickable: bool = True) -> str | None:
        """A close-up of the choices too close together on the board (default: ``None``, none)."""
        return None

    def panels(self, state: S, viewer: int | None = None) -> dict[str, Any]:
        """The panels beside the board as data (default: each seat's score, no section)."""
        scores = state.scores()
        names = state.game.seat_names()
        return {
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "colour": NEUTRAL_COLOUR,
                    "score": scores[seat],
                    "facts": [],
                }
                for seat in range(state.num_players)
            ],
            "sections": [],
        }

    def action_label(self, state: S, action: Any) -> str:
        """The action in words for a button (default: its notation)."""
        return state.action_text(action)

    def default_action(self, state: S, actions: Sequence[Any]) -> Any | None:
        """The action offered as the default among ``actions`` (default: ``None``, none)."""
        return None

    def places(self, state: S, ply: Ply) -> tuple[str, ...]:
        """Where ``ply`` happened on the board, as ``data-pos`` values (default: ``()``)."""
        return ()

    def render_result(self, state: S) -> RenderableType:
        """The final scoring of a finished game (default: the scores in one line)."""
        from rich.text import Text

        return Text(f"final scores: {', '.join(str(s) for s in state.scores())}")

    def legal_groups(self, state: S, actions: Sequence[Any]) -> Menu:
        """The legal actions grouped for a menu (default: by the first word of their notation)."""
        groups: dict[str, list[tuple[Any, str]]] = {}
        for action in actions:
            text = state.action_text(action)
            groups.setdefault(text.split(" ", 1)[0], []).append((action, text))
        return list(groups.items())

    def describe(self, state: S, ply: Ply) -> str:
        """What ``ply`` did, in one sentence (default: ``""``)."""
        return ""

    # -- texts -------------------------------------------------------------------------------------
    def rules(self) -> str:
        """The rulebook shipped with the game (default: ``""``, none)."""
        return ""

    def reference(self, game: Game[Any]) -> list[ReferenceItem]:
        """Every tile or archetype of ``game`` as pictured, with counts (default: ``[]``, none)."""
        return []

    # -- the lab, the research adapters, the benchmarks --------------------------------------------
    def statistics(self, state: S) -> list[dict[str, float]]:
        """Per seat, what a finished game counts for ``regalia balance`` (default: the score)."""
        return [{"score": float(points)} for points in state.scores()]

    def encoding(self, game: Game[Any], **variant: Any) -> Encoding:
        """The game's encoding with ``variant`` (default: :class:`Unsupported`, see :attr:`has_encoding`)."""
        raise Unsupported(f"{game.name} has no encoding")

    def benchmarks(self, game: Game[Any], seed: int) -> Mapping[str, Any]:
        """The game's own figures for ``regalia bench`` (default: none)."""
        return {}


def position_calculator(
    module: Any, render: Callable[[Any], Any] | None, options_help: str = ""
) -> Calculator:
    """The :class:`Calculator` of a calculator module: its ``FORMAT``, ``schema()`` and
    ``score_document(doc, options)``, and ``score_state(state)`` where it has one; ``render`` draws
    a result."""
    return Calculator(
        format=module.FORMAT,
        schema=module.schema,
        score=module.score_document,
        render=render,
        options_help=options_help,
        score_state=getattr(module, "score_state", None),
    )


def calculator_options(options: Mapping[str, str] | None, valid: Sequence[str]) -> dict[str, str]:
    """A calculator's own ``-o NAME=VALUE`` settings; a name not in ``valid`` is refused."""
    values = dict(options or {})
    unknown = sorted(set(values) - set(valid))
    if unknown:
        raise OptionError(f"unknown calculator option(s) {', '.join(unknown)}; valid: {', '.join(valid)}")
    return values
