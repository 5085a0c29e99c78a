"""Intrigue in the Royal Court: options and the :class:`RoyalCourt` game (registered as ``royal-court``).

>>> import regalia
>>> game = regalia.load_game("royal-court", consort="queen")
>>> game.consorts, game.seat_names()
(('queen', 'king'), ['red', 'blue'])
>>> regalia.load_game("royal-court", archetypes="/no/such/file.json")
Traceback (most recent call last):
...
regalia.core.errors.DataError: cannot read archetype file /no/such/file.json: No such file or directory
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from regalia.core.game import JSON, Game
from regalia.core.options import Options, option
from regalia.core.plugin import Plugin
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.archetypes import Archetypes, archetypes_for

#: Turns after which the game ends and is scored (ruling RC-turn-cap).
DEFAULT_TURN_CAP = 60


@dataclasses.dataclass(frozen=True, slots=True)
class RoyalCourtOptions(Options):
    """Options of Intrigue in the Royal Court."""

    consort: str = option(
        "king",
        "the royal consort red (seat 1) surrounds; blue has the other (ruling RC-consorts)",
        choices=("king", "queen"),
    )
    archetypes: str | None = option(
        None, "path of your own archetype file (the shipped values and adaptations are regalia's)", file=True
    )
    turn_cap: int = option(
        DEFAULT_TURN_CAP,
        "turns (both players' together) after which the game is scored (ruling RC-turn-cap)",
        minimum=10,
        maximum=1000,
    )

    def validate(self) -> None:
        archetypes_for(self.archetypes)


class RoyalCourt(Game[Action, RoyalCourtOptions]):
    """Intrigue in the Royal Court, for two players."""

    id: ClassVar[str] = "royal-court"
    name: ClassVar[str] = "Intrigue in the Royal Court"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_class: ClassVar[type[Options]] = RoyalCourtOptions

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        """The game's plugin (:mod:`regalia.games.royal_court.plugin`, imported on first use)."""
        from regalia.games.royal_court.plugin import PLUGIN

        return PLUGIN

    #: MCTS rollouts stop after 10 seat decisions and value the state with ``evaluate``: at equal
    #: time (600 cut iterations against 200 full ones) the cut search won 19 of 20 games. The
    #: influence values were balanced under this search; ``depth=4`` plays a little stronger
    #: against greedy but favours the first player more in self-play (docs/ai.md).
    rollout_depth: ClassVar[int | None] = 10
    #: A placement step offers some 150 actions: the search widens progressively (the best
    #: ``ceil(sqrt(visits + 1))`` by the evaluation one step ahead). Against greedy at 0.25 s a
    #: move, 40 paired games: 33/0/7 with it, 20/1/19 without (docs/ai.md).
    widening: ClassVar[float | None] = 1.0

    def __init__(self, options: RoyalCourtOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        self.archetypes: Archetypes = archetypes_for(self.options.archetypes)
        n = self.archetypes.count
        #: Tiles per player.
        self.count = n
        #: Per piece (0 the king, 1 the queen, then red's tiles and blue's): its influence, owner
        #: (-1 for the king and queen) and archetype index (-1).
        self.influence: tuple[int, ...] = (0, 0, *[a.influence for a in self.archetypes.archetypes] * 2)
        self.owner: tuple[int, ...] = (-1, -1, *([0] * n), *([1] * n))
        self.arch: tuple[int, ...] = (-1, -1, *range(n), *range(n))
        king_first = self.options.consort == "king"
        #: The consort piece of each seat (0 the king, 1 the queen).
        # one per seat (not typed as a pair: compiled, a pair is boxed anew when indexed by seat)
        self.consort_piece: tuple[int, ...] = (0, 1) if king_first else (1, 0)

    @property
    def consorts(self) -> tuple[str, str]:
        """The consort each seat surrounds: ``("king", "queen")`` by default."""
        return ("king", "queen") if self.consort_piece == (0, 1) else ("queen", "king")

    def piece(self, seat: int, arch: int) -> int:
        """The piece id of ``seat``'s tile of archetype ``arch``."""
        return 2 + seat * self.count + arch

    def seat_names(self) -> list[str]:
        return list(SEAT_NAMES)

    def zero_sum_heuristics(self) -> bool:
        """The evaluation is one side's standing minus the other's: zero-sum."""
        return True

    def initial_state(self) -> RoyalCourtState:
        return RoyalCourtState.new(self)

    def state_from_json(self, doc: JSON) -> RoyalCourtState:
        return RoyalCourtState.from_json(self, doc)


from regalia.games.royal_court.state import RoyalCourtState  # noqa: E402
