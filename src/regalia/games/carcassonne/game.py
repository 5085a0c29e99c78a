"""Carcassonne: game options and the :class:`Carcassonne` game (registered as ``carcassonne``).

The options follow JCloisterZone's: ``farmers`` (on by default), ``small_city`` (4 points for a
completed city of two tiles, or the early rule's 2), ``shrines`` (Heretics and Shrines: ``off``,
``5`` for the tiles of Count, King & Robber, ``6`` with the extra tile of Cult, Siege & Creativity)
and ``challenge_house_rule`` (the winner of a challenge also scores the loser's building).

>>> import regalia
>>> game = regalia.load_game("carcassonne", players=3, shrines="5")
>>> game.num_players, game.options.shrines, sum(game.bag_counts())
(3, '5', 76)
>>> sum(regalia.load_game("carcassonne").bag_counts())  # 72 tiles, the start tile laid
71
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from regalia.core.errors import OptionError
from regalia.core.game import JSON, Game
from regalia.core.options import Options, option
from regalia.core.plugin import Plugin
from regalia.games.carcassonne.actions import Action
from regalia.games.carcassonne.tiles import Catalogue, catalogue_for

#: The sets of tiles in the bag for each value of the option ``shrines``.
SHRINE_SETS: dict[str, tuple[str, ...]] = {
    "off": ("base",),
    "5": ("base", "shrines5"),
    "6": ("base", "shrines5", "shrines6"),
}
#: Seat colours, in seat order.
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "black")


@dataclasses.dataclass(frozen=True, slots=True)
class CarcassonneOptions(Options):
    """Options of Carcassonne."""

    players: int = option(2, "number of players", minimum=2, maximum=5)
    farmers: bool = option(True, "followers may be laid in fields as farmers (scored at the end)")
    small_city: int = option(
        4, "points for a completed city of two tiles: 4 (current rules) or 2 (the early rule)", choices=(4, 2)
    )
    shrines: str = option(
        "off",
        "Heretics and Shrines: off, 5 (the tiles of Count, King & Robber) or 6 (with the tile of "
        "Cult, Siege & Creativity)",
        choices=("off", "5", "6"),
    )
    challenge_house_rule: bool = option(
        False, "house rule: the winner of a shrine/cloister challenge also scores the loser's building"
    )
    tiles: str | None = option(
        None, "path of your own tile catalogue (format: docs/carcassonne.md)", file=True
    )

    def validate(self) -> None:
        if self.challenge_house_rule and self.shrines == "off":
            raise OptionError(
                "option challenge_house_rule: only used with Heretics and Shrines (shrines=5 or 6)"
            )
        cat = catalogue_for(self.tiles)
        present = {t.set for t in cat.types}
        missing = [s for s in SHRINE_SETS[self.shrines] if s not in present]
        if missing:
            raise OptionError(
                f"option shrines={self.shrines}: the tile catalogue has no tiles of set {missing[0]}"
            )


class Carcassonne(Game[Action, CarcassonneOptions]):
    """Carcassonne for 2 to 5 players, with Heretics and Shrines as an option."""

    id: ClassVar[str] = "carcassonne"
    name: ClassVar[str] = "Carcassonne"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_class: ClassVar[type[Options]] = CarcassonneOptions
    #: Random playouts of a whole game (some 140 placements) hardly tell moves apart; 10 decisions
    #: valued by ``evaluate`` (points, prospects, followers in hand) play much better (docs/ai.md).
    rollout_depth: ClassVar[int | None] = 10
    #: No progressive widening by default: ``widen=1`` scored 48/1/31 against the search without
    #: it (0.25 s a move, 80 paired games, Elo +75, -3 to +162) but its SPRT (0 vs 50) did not
    #: decide, and a change to the search is kept only when it does (docs/ai.md).
    widening: ClassVar[float | None] = None

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        """The game's plugin (:mod:`regalia.games.carcassonne.plugin`, imported on first use)."""
        from regalia.games.carcassonne.plugin import PLUGIN

        return PLUGIN

    def __init__(self, options: CarcassonneOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        self.catalogue: Catalogue = catalogue_for(self.options.tiles)
        # Computed here, not as cached properties: a compiled class (mypyc) caches none.
        #: The index of the start tile's type (a D in the shipped catalogue).
        self.start_tile: int = next(t.index for t in self.catalogue.types if t.start)
        #: The number of tiles in the bag at the start.
        self.bag_size: int = sum(self.bag_counts())

    def bag_counts(self) -> list[int]:
        """Tiles in the bag at the start, per tile type: the sets in play, minus the start tile."""
        sets = SHRINE_SETS[self.options.shrines]
        counts = [t.count if t.set in sets else 0 for t in self.catalogue.types]
        counts[self.start_tile] -= 1
        return counts

    def seat_names(self) -> list[str]:
        return list(SEAT_COLOURS[: self.num_players])

    def zero_sum_heuristics(self) -> bool:
        """With two seats the heuristics are each seat's total minus the other's: zero-sum."""
        return True

    def initial_state(self) -> CarcassonneState:
        return CarcassonneState.new(self)

    def state_from_json(self, doc: JSON) -> CarcassonneState:
        state: CarcassonneState = CarcassonneState.from_json(self, doc)
        return state


from regalia.games.carcassonne.state import CarcassonneState  # noqa: E402
