"""Reading Two Heirs states back from JSON (``to_json`` documents), naming the bad field.

>>> import json, regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> _ = state.advance()
>>> doc = json.loads(json.dumps(state.to_json()))
>>> state.game.state_from_json(doc).to_json() == state.to_json()
True
>>> parse_pos_field("x", "board[0].pos")
Traceback (most recent call last):
...
regalia.core.errors.PositionError: field 'board[0].pos': 'x' is not a position 'x,y'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from regalia.core import fields
from regalia.core.errors import PositionError
from regalia.core.game import JSON
from regalia.core.grid import Pos
from regalia.games.two_heirs.base import START
from regalia.games.two_heirs.tiles import COLOURS, SETS

if TYPE_CHECKING:
    from regalia.games.two_heirs.game import TwoHeirs
    from regalia.games.two_heirs.state import TwoHeirsState

S = TypeVar("S", bound="TwoHeirsState")


def _field_error(field: str, message: str) -> PositionError:
    return PositionError(f"field {field!r}: {message}")


def parse_pos_field(value: Any, field: str) -> Pos:
    """A position field ``"x,y"`` of a state document; errors name the field (``field 'pos': ...``)."""
    return fields.parse_pos_field(value, field, _field_error)


def _get(doc: JSON, name: str, typ: type | tuple[type, ...]) -> Any:
    if name not in doc:
        raise PositionError(f"field {name!r} is missing")
    value = doc[name]
    if not isinstance(value, typ) or (isinstance(value, bool) and typ is int):
        raise PositionError(f"field {name!r} has the wrong type ({type(value).__name__})")
    return value


def state_from_doc(cls: type[S], game: TwoHeirs, doc: Any) -> S:
    """Build a state of class ``cls`` from a ``two-heirs-state`` document (version 2)."""
    if not isinstance(doc, dict):
        raise PositionError("a state must be a JSON object")
    if doc.get("format") != "two-heirs-state":
        raise PositionError("field 'format': expected 'two-heirs-state'")
    if doc.get("version") != 2:
        raise PositionError(f"field 'version': expected 2, got {doc.get('version')!r}")
    cat = game.catalogue

    def tile(value: Any, field: str) -> int:
        if not isinstance(value, str) or value not in cat.by_id:
            raise PositionError(f"field {field!r}: {value!r} is not a tile of the catalogue")
        idx: int = cat.by_id[value].index
        return idx

    s: Any = cls(game, None)
    s.tiles = cat.tiles
    sets = _get(doc, "sets", list)
    if any(x not in SETS for x in sets) or len(sets) not in (0, 3):
        raise PositionError(f"field 'sets': three sets of {', '.join(SETS)} (or none yet), got {sets}")
    s.sets = tuple(sets)
    s.first = _get(doc, "first", int)
    s.player = _get(doc, "player", int)
    if s.player not in (0, 1) or s.first not in (-1, 0, 1):
        raise PositionError("fields 'player' and 'first' must be 0 or 1 ('first': -1 before the coin flip)")
    s.shield = _get(doc, "shield", int)
    reserve = _get(doc, "reserve", list)
    if len(reserve) != 7:
        raise PositionError("field 'reserve': must list 7 positions")
    s.reserve = [-1 if t is None else tile(t, f"reserve[{i}]") for i, t in enumerate(reserve)]
    if not 0 <= s.shield < 7 or s.reserve[s.shield] != -1:
        raise PositionError("field 'shield': must be an empty reserve position 0..6")
    s.board = {}
    for i, c in enumerate(_get(doc, "board", list)):
        if not isinstance(c, dict):
            raise PositionError(f"field 'board[{i}]': expected an object")
        pos = parse_pos_field(c.get("pos"), f"board[{i}].pos")
        owner = c.get("owner")
        if owner not in (None, 0, 1):
            raise PositionError(f"field 'board[{i}].owner': must be 0, 1 or null")
        s.board[pos] = tile(c.get("tile"), f"board[{i}].tile") * 4 + (0 if owner is None else owner + 1)
    units = _get(doc, "units", list)
    if len(units) != 6:
        raise PositionError("field 'units': must list 6 units")
    s.units = []
    s.moved = 0
    for i, u in enumerate(units):
        if not isinstance(u, dict):
            raise PositionError(f"field 'units[{i}]': expected an object")
        upos = None if u.get("pos") is None else parse_pos_field(u.get("pos"), f"units[{i}].pos")
        if upos is not None and upos not in s.board:
            raise PositionError(f"field 'units[{i}].pos': no tile at {u.get('pos')}")
        if upos is not None and upos != START and upos in s.units:
            raise PositionError(
                f"field 'units[{i}].pos': units[{s.units.index(upos)}] stands at {u.get('pos')} already; "
                "only the starting landscape holds two units (R-start-share)"
            )
        s.units.append(upos)
        if u.get("moved"):
            s.moved |= 1 << i
    s.supply = sorted(tile(t, f"supply[{i}]") for i, t in enumerate(_get(doc, "supply", list)))
    top = doc.get("supply_top")
    if top is not None and top not in COLOURS:
        raise PositionError(f"field 'supply_top': {top!r} is not one of {', '.join(COLOURS)} or null")
    s.top = -1 if top is None else COLOURS.index(top)
    if s.top >= 0 and all(s.tiles[t].colour != s.top for t in s.supply):
        raise PositionError(f"field 'supply_top': no {top} tile is left in the supply")
    s.chance = _get(doc, "chance", int)
    if not 0 <= s.chance <= 7:
        raise PositionError("field 'chance': a chance step 0..7 is required")
    s.refill = _get(doc, "refill", int)
    if not -1 <= s.refill < 7:
        raise PositionError("field 'refill': a reserve position 0..6 or -1 is required")
    hands = _get(doc, "hands", list)
    if len(hands) != 2:
        raise PositionError("field 'hands': must hold 2 hands")
    s.hands = [[tile(t, f"hands[{p}][{i}]") for i, t in enumerate(h)] for p, h in enumerate(hands)]
    s.box = [tile(t, f"box[{i}]") for i, t in enumerate(_get(doc, "box", list))]
    s.took = bool(_get(doc, "took", bool))
    s.shield_mine = bool(_get(doc, "shield_mine", bool))
    s.discounts = _get(doc, "discounts", int)
    s.pending = tuple(parse_pos_field(q, "pending_destroy") for q in _get(doc, "pending_destroy", list))
    s.discarding = bool(_get(doc, "discarding", bool))
    s.final = bool(_get(doc, "final", bool))
    s.trigger = bool(_get(doc, "trigger", bool))
    s.finals_left = _get(doc, "finals_left", int)
    s.terminal = bool(_get(doc, "terminal", bool))
    s.last_built = [
        None if q is None else parse_pos_field(q, "last_built") for q in _get(doc, "last_built", list)
    ]
    if len(s.last_built) != 2:
        raise PositionError("field 'last_built': must hold 2 positions or nulls")
    s.recount()
    s._legal = None
    s._score_cache = None
    s._tally = None
    s._dirty = ()
    s._reindex_units()
    extra_init = getattr(s, "_init_extra_from_json", None)
    if extra_init is not None:
        extra_init(doc)
    s._restore_history(doc.get("history"))
    result: S = s
    return result
