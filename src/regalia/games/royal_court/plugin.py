"""The plugin surface of Intrigue in the Royal Court: terminal and SVG renderers, the browser
table's board, panels and action labels (docs/table.md), menu, descriptions, notation help,
rulebook, balance statistics, encoding and the option sets the conformance kit checks. It has no
score calculator.

>>> "play Assassin 1,1" in PLUGIN.notation_help, PLUGIN.rules().startswith("#")
(True, True)
>>> PLUGIN.calculator is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from regalia.core.data import read_package_text
from regalia.core.game import Game, Ply
from regalia.core.plugin import Menu, Plugin, ReferenceItem
from regalia.games.royal_court.state import RoyalCourtState

if TYPE_CHECKING:
    from rich.console import RenderableType

    from regalia.core.encoding import Encoding

NOTATION_HELP = """\
Intrigue in the Royal Court notation (tiles by archetype, squares as x,y; north is +y):
  play Assassin 1,1    step 1: play a tile from your zone next to any piece (even diagonally)
  remove 2,1           Assassin: remove that opponent's active tile from the game
  return 2,1           Thief / Healer: return that active tile to its owner's zone
  swap 2,1             Spy: swap squares with that opponent's active tile
  flip Spy             Bishop: flip the opponent's active Spy in their zone
  consort 0,0 0,1      Wizard: move the active king or queen at 0,0 one square
  force Spy            Diplomat: the opponent must play their Spy next turn
  place Spy 2,2        Captain: play a second tile (no ability)
  move 2,1 3,2         step 3: move one of your tiles one square (Joker: once more)
  pass                 decline the Joker's extra move
Chance's outcome (enter it when you flip a real coin): first red, first blue."""


class RoyalCourtPlugin(Plugin[RoyalCourtState]):
    """Intrigue in the Royal Court: the renderers of :mod:`regalia.games.royal_court.render`, the
    rulebook, the statistics of :mod:`~regalia.games.royal_court.stats` and
    :class:`RoyalCourtEncoding`; no calculator."""

    notation_help: ClassVar[str] = NOTATION_HELP
    check_options: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"consort": "queen"},
        {"turn_cap": 12},
    )

    def render_terminal(
        self,
        state: RoyalCourtState,
        viewer: int | None = None,
        *,
        width: int | None = None,
        height: int | None = None,
    ) -> RenderableType:
        from regalia.games.royal_court.render import render_terminal

        return render_terminal(state, viewer, width=width, height=height)

    def render_svg(self, state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.royal_court.render import render_svg

        return render_svg(state, viewer, clickable)

    def render_board(self, state: RoyalCourtState, viewer: int | None = None, clickable: bool = True) -> str:
        from regalia.games.royal_court.render.table import render_board

        return render_board(state, viewer, clickable)

    def render_stage(
        self, state: RoyalCourtState, viewer: int | None = None, clickable: bool = True
    ) -> str | None:
        from regalia.games.royal_court.render.table import render_stage

        return render_stage(state, viewer, clickable)

    def panels(self, state: RoyalCourtState, viewer: int | None = None) -> dict[str, Any]:
        from regalia.games.royal_court.render.panels import panels

        return panels(state, viewer)

    def action_label(self, state: RoyalCourtState, action: Any) -> str:
        from regalia.games.royal_court.render.labels import action_label

        return action_label(state, action)

    def default_action(self, state: RoyalCourtState, actions: Sequence[Any]) -> Any | None:
        from regalia.games.royal_court.render.labels import default_action

        return default_action(state, actions)

    def places(self, state: RoyalCourtState, ply: Ply) -> tuple[str, ...]:
        from regalia.games.royal_court.render.labels import places

        return places(state, ply)

    def render_result(self, state: RoyalCourtState) -> RenderableType:
        from regalia.games.royal_court.render import render_result

        return render_result(state)

    def legal_groups(self, state: RoyalCourtState, actions: Sequence[Any]) -> Menu:
        from regalia.games.royal_court.render import legal_groups

        return legal_groups(state, actions)

    def describe(self, state: RoyalCourtState, ply: Ply) -> str:
        from regalia.games.royal_court.render import describe_ply

        return describe_ply(state, ply)

    def rules(self) -> str:
        return read_package_text("regalia.games.royal_court", "data/rules.md")

    def reference(self, game: Game[Any]) -> list[ReferenceItem]:
        from regalia.games.royal_court.render.reference import reference_items

        return reference_items(game)

    def statistics(self, state: RoyalCourtState) -> list[dict[str, float]]:
        from regalia.games.royal_court.stats import game_statistics

        return game_statistics(state)

    def encoding(self, game: Game[Any], **variant: Any) -> Encoding:
        from regalia.games.royal_court.encoding import RoyalCourtEncoding

        return RoyalCourtEncoding(game, **variant)


#: The plugin of Intrigue in the Royal Court
#: (:meth:`RoyalCourt.plugin <regalia.games.royal_court.game.RoyalCourt.plugin>`).
PLUGIN = RoyalCourtPlugin()
