"""The Two Heirs: game options and the :class:`TwoHeirs` game (registered as ``two-heirs``).

>>> import regalia
>>> game = regalia.load_game("two-heirs", sets="warfare,crafts,guard", roads=False)
>>> game.options.sets
('warfare', 'crafts', 'guard')
>>> state = regalia.load_game("two-heirs", sets="random").new_state(seed=3)
>>> state.action_text(state.advance()[0])  # chance picks the sets
'sets wandering,warfare,crafts'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from regalia.core.errors import OptionError
from regalia.core.game import JSON, Game
from regalia.core.options import Options, option
from regalia.core.plugin import Plugin
from regalia.games.two_heirs.actions import SEAT_COLOURS, SET_CHOICES, Action
from regalia.games.two_heirs.henry import HENRY, TreasureSet, treasures_for
from regalia.games.two_heirs.tiles import RECOMMENDED_SETS, SETS, Catalogue, catalogue_for

#: How many seat decisions a search's rollout makes in the solo game before the evaluation (the
#: score margin over Henry) values it: measured against Henry level 3 at 1 s a move (docs/ai.md).
SOLO_ROLLOUT_DEPTH = 4
#: The solo game's search: the UCB1 constant, the heuristic and the rollout policy it leaves to the
#: game, accepted together by an SPRT against ``c=1``, the score lead and random rollouts (run 68,
#: docs/ai.md).
SOLO_SEARCH: Final[Mapping[str, Any]] = MappingProxyType(
    {"c": 0.3, "heuristic": "treasures", "rollout": "policy"}
)
#: Henry's level when the solo game does not name one ("Level 3: Relentless Henry").
DEFAULT_LEVEL = 3


@dataclasses.dataclass(frozen=True, slots=True)
class TwoHeirsOptions(Options):
    """Options of The Two Heirs."""

    sets: tuple[str, ...] = option(
        RECOMMENDED_SETS,
        "three sets of tiles (Setup), or 'random' for three chosen by chance",
        choices=(*SETS, "random"),
    )
    roads: bool = option(True, "score roads (the rulebook suggests leaving them out of a first game)")
    solo: bool = option(False, "the solo game against the automaton Henry")
    level: int | None = option(
        None, "solo: Henry's level, 1 (Poor), 2 (Brave) or 3 (Relentless, the default)", minimum=1, maximum=3
    )
    tiles: str | None = option(
        None, "path of your own tile catalogue (the shipped one is reconstructed)", file=True
    )
    treasures: str | None = option(
        None, "solo: path of your own treasure tokens (the shipped ones are reconstructed)", file=True
    )

    def validate(self) -> None:
        if self.sets != ("random",):
            if "random" in self.sets:
                raise OptionError("option sets: 'random' replaces the three sets; give it alone")
            if len(self.sets) != 3 or len(set(self.sets)) != 3:
                raise OptionError(f"option sets: choose 3 different sets, got {', '.join(self.sets)}")
        if self.level is not None and not self.solo:
            raise OptionError("option level: only used by the solo game (solo=true)")
        if self.treasures is not None and not self.solo:
            raise OptionError("option treasures: only used by the solo game (solo=true)")
        catalogue_for(self.tiles)
        if self.solo:
            treasures_for(self.treasures)

    @property
    def henry_level(self) -> int:
        """Henry's level in the solo game."""
        return DEFAULT_LEVEL if self.level is None else self.level


class TwoHeirs(Game[Action, TwoHeirsOptions]):
    """The Two Heirs, for two players (and solo against Henry)."""

    id: ClassVar[str] = "two-heirs"
    name: ClassVar[str] = "The Two Heirs"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_class: ClassVar[type[Options]] = TwoHeirsOptions

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        """The game's plugin (:mod:`regalia.games.two_heirs.plugin`, imported on first use)."""
        from regalia.games.two_heirs.plugin import PLUGIN

        return PLUGIN

    def __init__(self, options: TwoHeirsOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        self.catalogue: Catalogue = catalogue_for(self.options.tiles)
        self.treasure_set: TreasureSet | None = (
            treasures_for(self.options.treasures) if self.options.solo else None
        )
        # Computed here, not as cached properties: a compiled class (mypyc) caches none.
        tiles = self.catalogue.tiles
        #: The ids of the treasure tokens (solo), for the notation of their draws.
        self.token_ids: tuple[str, ...] = (
            () if self.treasure_set is None else tuple(t.id for t in self.treasure_set.tokens)
        )
        #: The colour of each tile of the catalogue, by tile index (the hot paths read it).
        self.colours: tuple[int, ...] = tuple(t.colour for t in tiles)
        #: Per seat, the board cells of that seat's unused camps (for the camp's legal actions).
        camps = [t.index for t in tiles if t.building == "camp"]
        self.camp_codes: tuple[frozenset[int], frozenset[int]] = (
            frozenset(t * 4 + 1 for t in camps),
            frozenset(t * 4 + 2 for t in camps),
        )
        #: The sets chance may pick for ``sets=random``: every three sets the catalogue holds.
        present = {t.set for t in tiles}
        self.set_choices: tuple[tuple[str, ...], ...] = tuple(
            c for c in SET_CHOICES if all(s in present for s in c)
        )

    def search_defaults(self) -> dict[str, Any]:
        """In the solo game, rollouts cut after :data:`SOLO_ROLLOUT_DEPTH` decisions and valued by
        the score margin alone: nearly every random rollout to the end loses to Henry, so whole
        rollouts hardly tell one move from another; and :data:`SOLO_SEARCH`: ``c=0.3``, the
        heuristic ``treasures`` and the rollout policy (docs/ai.md, "Against Henry")."""
        told = super().search_defaults()
        if self.options.solo:
            told.update(depth=SOLO_ROLLOUT_DEPTH, margin=1.0, **SOLO_SEARCH)
        return told

    def heuristics(self) -> dict[str, str]:
        """The solo game adds ``treasures`` (:meth:`SoloState.evaluate_treasures`): the score lead
        with the treasures' conditions begun counted in part; and ``ahead``
        (:meth:`SoloState.evaluate_treasures_ahead`): the same with Henry's next treasure valued
        where he would build now."""
        named = super().heuristics()
        if self.options.solo:
            named["treasures"] = "evaluate_treasures"
            named["ahead"] = "evaluate_treasures_ahead"
        return named

    def zero_sum_heuristics(self) -> bool:
        """Every heuristic is a score lead, the solo ones counted for the player and against Henry
        alike: zero-sum."""
        return True

    def automaton_seats(self) -> tuple[int, ...]:
        """Henry's seat in the solo game ("Solo course of the game")."""
        return (HENRY,) if self.options.solo else ()

    def seat_names(self) -> list[str]:
        return ["player", "henry"] if self.options.solo else list(SEAT_COLOURS)

    @property
    def state_class(self) -> type[TwoHeirsState]:
        """:class:`SoloState` for the solo game, :class:`TwoHeirsState` otherwise."""
        return SoloState if self.options.solo else TwoHeirsState

    def initial_state(self) -> TwoHeirsState:
        return self.state_class.new(self)

    def state_from_json(self, doc: JSON) -> TwoHeirsState:
        return self.state_class.from_json(self, doc)


from regalia.games.two_heirs.solo import SoloState  # noqa: E402
from regalia.games.two_heirs.state import TwoHeirsState  # noqa: E402
