"""What a viewer of Carcassonne sees (:meth:`observation`) and the state document (:meth:`to_json`).

Everything on the table is open: the board, the followers, the scores, the tile just drawn, and how
many tiles of each type are still in the bag (players count them; JCloisterZone shows them). The
order of the bag is unknown to all, and it is not decided until chance draws: no view, no state
document and no record holds anything about it.

A state document holds the history of the game with the public view; reading it back replays the
history with every action checked, and refuses a document whose view disagrees with its history
(the field is named).

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=2)
>>> _ = state.advance()
>>> view = state.observation(0)
>>> view["phase"], view["bag_left"], view["board"][0]
('place', 70, {'pos': '0,0', 'tile': 'D', 'rotation': 0})
>>> doc = state.to_json()
>>> state.game.state_from_json(doc).to_json() == doc
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from regalia.core.errors import PositionError
from regalia.core.game import JSON, SPECTATOR
from regalia.core.grid import Pos, format_pos
from regalia.games.carcassonne.base import PH_DRAW, PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.effects import Effects

if TYPE_CHECKING:
    from regalia.games.carcassonne.game import Carcassonne

FORMAT = "carcassonne-state"
VERSION = 1
PHASES = {PH_DRAW: "draw", PH_PLACE: "place", PH_FOLLOWER: "follower"}


class Views(Effects):
    """Observations and the state document (on top of the effects and the rules: one line of
    classes, which a compiler lays out as one native class each)."""

    __slots__ = ()

    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        """Everything is open but the order of the bag, which nobody knows."""
        return {**self._public(), "viewer": viewer, "legal": self.legal_for(viewer)}

    def _public(self) -> JSON:
        types = self.cat.types
        return {
            "game": self.game.id,
            "options": self.game.options.to_json(),
            "current_player": self.current_player,
            "player": self.player,
            "phase": "over" if self.terminal else PHASES[self.phase],
            "board": [
                {"pos": format_pos(pos), "tile": types[code >> 2].id, "rotation": (code & 3) * 90}
                for pos, code in sorted(self.board.items())
            ],
            "followers": self._followers_json(self.meeples),
            "followers_at_end": self._followers_json(self.at_end),
            "followers_left": list(self.followers),
            "points": list(self.points),
            "bag": {types[t].id: n for t, n in enumerate(self.bag) if n},
            "bag_left": self.bag_left,
            "drawn": None if self.drawn < 0 else types[self.drawn].id,
            "placed": None if self.placed is None else format_pos(self.placed),
            "events": [_event_json(e) for e in self.log],
            "terminal": self.terminal,
            "scores": self.scores(),
        }

    def _followers_json(self, standing: dict[Pos, tuple[int, int]]) -> list[JSON]:
        out = []
        for pos, (seat, segment) in sorted(standing.items()):
            seg = self.turned(pos).segments[segment]
            out.append({"pos": format_pos(pos), "seat": seat, "feature": seg.kind, "name": seg.name})
        return out

    def to_json(self) -> JSON:
        """The complete state: the history, and the public view it leads to."""
        doc = self._public()
        doc.update({"format": FORMAT, "version": VERSION, "history": self.history_json()})
        return doc

    @classmethod
    def from_json(cls, game: Carcassonne, doc: Any) -> Any:
        """Replay a state document's history (every action checked) and check its view against it."""
        if not isinstance(doc, dict):
            raise PositionError("a state must be a JSON object")
        if doc.get("format") != FORMAT:
            raise PositionError(f"field 'format': expected {FORMAT!r}")
        if doc.get("version") != VERSION:
            raise PositionError(f"field 'version': expected {VERSION}, got {doc.get('version')!r}")
        options = doc.get("options", game.options.to_json())
        if options != game.options.to_json():
            raise PositionError(
                f"field 'options': the state was played with {options}, not {game.options.to_json()}"
            )
        return cls.replay_document(game.initial_state(), doc, complete=False)


def _event_json(event: tuple[Any, ...]) -> JSON:
    ply, what, *rest = event
    if what == "discard":
        return {"ply": ply, "event": what, "tile": rest[0]}
    kind, value, tiles = rest
    doc: JSON = {"ply": ply, "event": what, "feature": kind, "tiles": [format_pos(t) for t in tiles]}
    if what == "challenge":
        doc["sent_home"] = list(value)
    else:
        doc["points"] = list(value)
    return doc
