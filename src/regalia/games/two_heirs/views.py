"""What a viewer of The Two Heirs sees (:meth:`observation`) and the complete state document
(:meth:`to_json`, read back by :mod:`.position`).

Everything on the table is open: the board, the royal reserve, both hands, the box, the colour of
the supply's top tile, and which tiles are still in the supply (every tile of the sets in play is
known, so the supply is what is nowhere else). Only the order of the supply is unknown, and it is
not decided until chance draws: no view, no state document and no record holds anything about it.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> _ = state.advance()
>>> view = state.observation(0)
>>> view["supply_top"] in ("green", "grey", "yellow"), len(view["supply"]), "seed" in view
(True, 20, False)
"""

from __future__ import annotations

from regalia.core.game import JSON, SPECTATOR
from regalia.core.grid import format_pos
from regalia.games.two_heirs.base import UNITS_PER_SEAT
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.effects import Effects
from regalia.games.two_heirs.tiles import COLOURS

FORMAT = "two-heirs-state"
VERSION = 2


class Views(Effects):
    """Observations and the state document."""

    __slots__ = ()

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        """Everything is open but the order of the supply, which nobody knows."""
        return {**self._public(), "viewer": viewer, "legal": self.legal_for(viewer)}

    def _public(self) -> JSON:
        tid = self.tiles
        return {
            "game": self.game.id,
            "options": self.game.options.to_json(),
            "sets": list(self.sets),
            "first": self.first,
            "current_player": self.current_player,
            "chance": self.chance,
            "board": [
                {
                    "pos": format_pos(pos),
                    "tile": tid[tile_of(c)].id,
                    "owner": owner_of(c) if owner_of(c) >= 0 else None,
                }
                for pos, c in sorted(self.board.items())
            ],
            "units": [
                {
                    "seat": i // UNITS_PER_SEAT,
                    "elite": i % UNITS_PER_SEAT == 0,
                    "pos": None if u is None else format_pos(u),
                    "moved": bool(self.moved >> i & 1),
                }
                for i, u in enumerate(self.units)
            ],
            "reserve": [None if t < 0 else tid[t].id for t in self.reserve],
            "shield": self.shield,
            "shield_mine": self.shield_mine,
            "took": self.took,
            "supply": sorted(tid[t].id for t in self.supply),
            "supply_top": COLOURS[self.top] if self.top >= 0 else None,
            "refill": self.refill,
            "hands": [[tid[t].id for t in h] for h in self.hands],
            "box": [tid[t].id for t in self.box],
            "discounts": self.discounts,
            "pending_destroy": [format_pos(q) for q in self.pending],
            "discarding": self.discarding,
            "final": self.final,
            "finals_left": self.finals_left,
            "trigger": self.trigger,
            "terminal": self.terminal,
            "last_built": [None if q is None else format_pos(q) for q in self.last_built],
            "scores": self.scores(),
        }

    def to_json(self) -> JSON:
        """The complete state (nothing about future draws: there is nothing else to know)."""
        doc = self._public()
        doc.update(
            {
                "format": FORMAT,
                "version": VERSION,
                "player": self.player,
                "history": self.history_json(),
            }
        )
        return doc
