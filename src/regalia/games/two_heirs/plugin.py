"""The Two Heirs' plugin surface: renderers, score calculator, commands, statistics, encoding.

>>> PLUGIN.calculator.format
'two-heirs-position'
>>> "take W3" in PLUGIN.notation_help, PLUGIN.has_svg, PLUGIN.has_encoding
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from regalia.core.data import read_package_text
from regalia.core.game import Game, Ply
from regalia.core.plugin import Calculator, Menu, Plugin, ReferenceItem, position_calculator
from regalia.games.two_heirs import calculator
from regalia.games.two_heirs.state import TwoHeirsState

if TYPE_CHECKING:
    from rich.console import RenderableType

    from regalia.core.encoding import Encoding

NOTATION_HELP = """\
The Two Heirs notation (tiles by id, positions as x,y; north is +y):
  take W3            A: take W3 from the royal reserve into your hand
  build W3 1,-2      B.1: construct W3 at 1,-2 (touching a tile with your unit)
  terrain W3 1,-2    B.2: play W3 face down as free terrain (a discount of 1 resource)
  step 0,0 1,1       C: move your unit from 0,0 to 1,1
  call 1,1           C: call a unit from the royal reserve to 1,1
  withdraw 1,1       C: withdraw your unit at 1,1 into the royal reserve
  camp D7            use your camp D7 to take another tile
  destroy 1,0        siege towers: destroy the building at 1,0 (or: spare)
  discard W3         hand limit: return W3 to the box
  end                end your turn
Chance's outcomes (entered when you play with real tiles): first white, draw W3, top green,
sets wandering,dominion,guard, treasure H4."""


def _render_score(result: Any) -> RenderableType:
    from regalia.games.two_heirs.render import render_position_score

    return render_position_score(result)


def _register_commands(app: Any) -> None:
    from regalia.games.two_heirs.commands import register

    register(app)


class TwoHeirsPlugin(Plugin[TwoHeirsState]):
    """The Two Heirs: the renderers of :mod:`regalia.games.two_heirs.render` (the browser table's
    board, panels and words in :mod:`~.render.table`, :mod:`~.render.panels` and
    :mod:`~.render.labels`), the rulebook
    (two-player and solo rules), the position calculator, ``regalia henry``, the balance
    statistics of :mod:`~regalia.games.two_heirs.stats` and :class:`TwoHeirsEncoding`."""

    notation_help: ClassVar[str] = NOTATION_HELP
    calculator: ClassVar[Calculator | None] = position_calculator(
        calculator, _render_score, "tiles=FILE: your own tile catalogue"
    )
    commands: ClassVar[tuple[Callable[[Any], None], ...]] = (_register_commands,)
    check_options: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"roads": False, "sets": "warfare,crafts,guard"},
        {"sets": "random"},
        {"solo": True, "level": 1},
        {"solo": True},
    )

    def render_terminal(
        self,
        state: TwoHeirsState,
        viewer: int | None = None,
        *,
        width: int | None = None,
        height: int | None = None,
    ) -> RenderableType:
        from regalia.games.two_heirs.render import render_terminal

        return render_terminal(state, viewer, width=width, height=height)

    def render_svg(self, state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.two_heirs.render import render_svg

        return render_svg(state, viewer, clickable)

    def render_board(self, state: TwoHeirsState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.two_heirs.render.table import render_board

        return render_board(state, viewer, clickable)

    def render_stage(
        self, state: TwoHeirsState, viewer: int | None = None, clickable: bool = True
    ) -> str | None:
        from regalia.games.two_heirs.render.table import render_stage

        return render_stage(state, viewer, clickable)

    def panels(self, state: TwoHeirsState, viewer: int | None = None) -> dict[str, Any]:
        from regalia.games.two_heirs.render.panels import panels

        return panels(state, viewer)

    def action_label(self, state: TwoHeirsState, action: Any) -> str:
        from regalia.games.two_heirs.render.labels import action_label

        return action_label(state, action)

    def default_action(self, state: TwoHeirsState, actions: Sequence[Any]) -> Any | None:
        from regalia.games.two_heirs.render.labels import default_action

        return default_action(state, actions)

    def places(self, state: TwoHeirsState, ply: Ply) -> tuple[str, ...]:
        from regalia.games.two_heirs.render.labels import places

        return places(state, ply)

    def render_result(self, state: TwoHeirsState) -> RenderableType:
        from regalia.games.two_heirs.render import render_result

        return render_result(state)

    def legal_groups(self, state: TwoHeirsState, actions: Sequence[Any]) -> Menu:
        from regalia.games.two_heirs.render import legal_groups

        return legal_groups(state, actions)

    def describe(self, state: TwoHeirsState, ply: Ply) -> str:
        from regalia.games.two_heirs.render import describe_ply

        return describe_ply(state, ply)

    def rules(self) -> str:
        return read_package_text("regalia.games.two_heirs", "data/rules.md")

    def reference(self, game: Game[Any]) -> list[ReferenceItem]:
        from regalia.games.two_heirs.render.reference import reference_items

        return reference_items(game)

    def statistics(self, state: TwoHeirsState) -> list[dict[str, float]]:
        from regalia.games.two_heirs.stats import game_statistics

        return game_statistics(state)

    def encoding(self, game: Game[Any], **variant: Any) -> Encoding:
        from regalia.games.two_heirs.encoding import TwoHeirsEncoding

        return TwoHeirsEncoding(game, **variant)


#: The Two Heirs' plugin (:meth:`TwoHeirs.plugin <regalia.games.two_heirs.game.TwoHeirs.plugin>`).
PLUGIN = TwoHeirsPlugin()
