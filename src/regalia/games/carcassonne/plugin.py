"""Carcassonne's plugin surface: renderers (the whole picture, and the browser table's board,
stage, panels and words: docs/table.md), score calculator, benchmarks, encoding.

>>> PLUGIN.calculator.format
'carcassonne-position'
>>> "place D 1,0 90" in PLUGIN.notation_help
True
>>> len(PLUGIN.check_options)
7
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from regalia.core.data import read_package_text
from regalia.core.game import Game, Ply
from regalia.core.plugin import Calculator, Menu, Plugin, ReferenceItem, position_calculator
from regalia.games.carcassonne import calculator
from regalia.games.carcassonne.state import CarcassonneState

if TYPE_CHECKING:
    from rich.console import RenderableType

    from regalia.core.encoding import Encoding

NOTATION_HELP = """\
Carcassonne notation (tiles by letter, positions as x,y: east is +x, north is +y; the start
tile lies at 0,0; rotations are clockwise):
  place D 1,0 90        lay the drawn tile D at 1,0 turned 90 degrees
  follower city N       a knight on the tile's city that reaches its north side
  follower road E       a thief on its road that reaches the east side
  follower field Nw     a farmer on its field at the west half of the north side
                        (halves: Nw Ne En Es Se Sw Ws Wn)
  follower cloister     a monk; follower shrine: a heretic (Heretics and Shrines)
  pass                  no follower this turn
A feature is named by its first side (or half) clockwise from north, as the tile lies.
Chance's outcomes (entered when you play with a real box, --draws manual): draw D."""


def _render_score(result: Any) -> RenderableType:
    from regalia.games.carcassonne.calculator_render import render_position_score

    return render_position_score(result)


class CarcassonnePlugin(Plugin[CarcassonneState]):
    """Carcassonne: the renderers of :mod:`regalia.games.carcassonne.render`, the rulebook (with
    Heretics and Shrines), the position calculator, the cost of ``legal_actions()`` for ``regalia
    bench`` and :class:`CarcassonneEncoding`. Its balance statistics are the default (each seat's
    score)."""

    notation_help: ClassVar[str] = NOTATION_HELP
    calculator: ClassVar[Calculator | None] = position_calculator(
        calculator, _render_score, "tiles=FILE: your own tile catalogue"
    )
    check_options: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"players": 3},
        {"players": 5},
        {"shrines": "5"},
        {"players": 3, "shrines": "6"},
        {"players": 5, "shrines": "6", "challenge_house_rule": True},
        {"farmers": False, "small_city": 2},
    )

    def render_terminal(
        self,
        state: CarcassonneState,
        viewer: int | None = None,
        *,
        width: int | None = None,
        height: int | None = None,
    ) -> RenderableType:
        from regalia.games.carcassonne.render import render_terminal

        return render_terminal(state, viewer, width=width, height=height)

    def render_svg(self, state: CarcassonneState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.carcassonne.render import render_svg

        return render_svg(state, viewer, clickable)

    def render_board(self, state: CarcassonneState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.carcassonne.render.table import render_board

        return render_board(state, viewer, clickable)

    def render_stage(
        self, state: CarcassonneState, viewer: int | None = None, clickable: bool = True
    ) -> str | None:
        from regalia.games.carcassonne.render.stage import render_stage

        return render_stage(state, viewer, clickable)

    def panels(self, state: CarcassonneState, viewer: int | None = None) -> dict[str, Any]:
        from regalia.games.carcassonne.render.table_panels import panels

        return panels(state, viewer)

    def action_label(self, state: CarcassonneState, action: Any) -> str:
        from regalia.games.carcassonne.render.words import action_label

        return action_label(state, action)

    def default_action(self, state: CarcassonneState, actions: Sequence[Any]) -> Any | None:
        from regalia.games.carcassonne.render.words import default_action

        return default_action(state, actions)

    def places(self, state: CarcassonneState, ply: Ply) -> tuple[str, ...]:
        from regalia.games.carcassonne.render.words import places

        return places(state, ply)

    def render_result(self, state: CarcassonneState) -> RenderableType:
        from regalia.games.carcassonne.render import render_result

        return render_result(state)

    def legal_groups(self, state: CarcassonneState, actions: Sequence[Any]) -> Menu:
        from regalia.games.carcassonne.render import legal_groups

        return list(legal_groups(state, actions))

    def describe(self, state: CarcassonneState, ply: Ply) -> str:
        from regalia.games.carcassonne.render import describe_ply

        return describe_ply(state, ply)

    def rules(self) -> str:
        return read_package_text("regalia.games.carcassonne", "data/rules.md")

    def reference(self, game: Game[Any]) -> list[ReferenceItem]:
        from regalia.games.carcassonne.render.reference import reference_items

        return reference_items(game)

    def encoding(self, game: Game[Any], **variant: Any) -> Encoding:
        from regalia.games.carcassonne.encoding import CarcassonneEncoding

        return CarcassonneEncoding(game, **variant)

    def benchmarks(self, game: Game[Any], seed: int) -> Mapping[str, Any]:
        from regalia.games.carcassonne.bench import benchmarks

        return benchmarks(game, seed)


#: Carcassonne's plugin (:meth:`Carcassonne.plugin <regalia.games.carcassonne.game.Carcassonne.plugin>`).
PLUGIN = CarcassonnePlugin()
