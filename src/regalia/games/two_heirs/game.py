"""The Two Heirs: game options and the :class:`TwoHeirs` game (registered as ``two-heirs``).

>>> import regalia
>>> game = regalia.load_game("two-heirs", sets="warfare,crafts,guard", roads=False)
>>> game.options.sets
('warfare', 'crafts', 'guard')
>>> regalia.load_game("two-heirs", sets="random").new_state(seed=3).sets  # doctest: +ELLIPSIS
(...)
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from regalia.core.errors import OptionError
from regalia.core.game import JSON, Game, Options, fresh_seed
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.henry import TreasureSet, treasures_for
from regalia.games.two_heirs.tiles import RECOMMENDED_SETS, SETS, Catalogue, catalogue_for


@dataclasses.dataclass(frozen=True, slots=True)
class TwoHeirsOptions(Options):
    """Options of The Two Heirs.

    ``sets``: three set names, or ``("random",)`` for a seeded random choice (Setup).
    ``roads``: score roads (the rulebook suggests leaving them out of a first game).
    ``tiles``: path of a tile catalogue file to use instead of the reconstructed one.
    ``solo`` and ``level``: the solo game against Henry (levels 1 to 3).
    ``treasures``: path of a treasure-token file (solo) to use instead of the reconstructed one.
    """

    sets: tuple[str, ...] = RECOMMENDED_SETS
    roads: bool = True
    tiles: str | None = None
    solo: bool = False
    level: int = 3
    treasures: str | None = None

    def validate(self) -> None:
        if self.sets != ("random",):
            bad = [s for s in self.sets if s not in SETS]
            if bad:
                raise OptionError(
                    f"option sets: unknown set {bad[0]!r}; valid sets: {', '.join(SETS)} (or 'random')"
                )
            if len(self.sets) != 3 or len(set(self.sets)) != 3:
                raise OptionError(f"option sets: choose 3 different sets, got {', '.join(self.sets)}")
        if self.level not in (1, 2, 3):
            raise OptionError(f"option level: must be 1, 2 or 3, got {self.level}")
        if self.level != 3 and not self.solo:
            raise OptionError("option level: only used by the solo game (solo=true)")
        if self.treasures is not None and not self.solo:
            raise OptionError("option treasures: only used by the solo game (solo=true)")
        catalogue_for(self.tiles)
        if self.solo:
            treasures_for(self.treasures)


class TwoHeirs(Game[Action]):
    """The Two Heirs, for two players (and solo against Henry)."""

    id: ClassVar[str] = "two-heirs"
    name: ClassVar[str] = "The Two Heirs"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_class: ClassVar[type[Options]] = TwoHeirsOptions
    options: TwoHeirsOptions

    def __init__(self, options: TwoHeirsOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        self.catalogue: Catalogue = catalogue_for(self.options.tiles)
        self.treasure_set: TreasureSet | None = (
            treasures_for(self.options.treasures) if self.options.solo else None
        )

    @property
    def state_class(self) -> type[TwoHeirsState]:
        """:class:`SoloState` for the solo game, :class:`TwoHeirsState` otherwise."""
        return SoloState if self.options.solo else TwoHeirsState

    def new_state(self, seed: int | None = None) -> TwoHeirsState:
        return self.state_class.new(self, fresh_seed() if seed is None else seed)

    def state_from_json(self, doc: JSON) -> TwoHeirsState:
        return self.state_class.from_json(self, doc)


from regalia.games.two_heirs.solo import SoloState  # noqa: E402
from regalia.games.two_heirs.state import TwoHeirsState  # noqa: E402
