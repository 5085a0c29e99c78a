"""The archetypes of Intrigue in the Royal Court, as data: ``data/archetypes.json``.

Each archetype has a name, a two-letter abbreviation, a word for its ability, an influence value
and a list of *effects*, each a verb (``do``) with a target selector (``target``). The designer
changes an archetype (or all ten) by writing another file and playing with ``-o archetypes=FILE``;
the file is validated on load and errors name the entry and the field.

Effects (``do``) and the targets each accepts:

=================  ===================================================  ==========================
``remove``         the target leaves the game                           a tile in play
``return``         the target goes back to its owner's zone (``side``:  a tile in play
                   ``inactive``, the default, or ``active``)
``swap``           the played tile and the target swap squares          a tile in play
``flip``           the target turns to its inactive side                a tile in play or in zone
``move-consort``   the target consort moves one square                  ``active-consort``
``force-next``     the opponent must play the target next turn          a tile in the opponent's zone
``extra-move``     one more move (step 3) this turn, optional           none
``extra-play``     play another tile from your zone now, no ability     none
``block-next``     the opponent's next tile played does not activate    none
=================  ===================================================  ==========================

Targets: ``opponent-active-in-play``, ``own-active-in-play`` (never the played tile itself),
``opponent-active-in-zone``, ``opponent-in-zone`` (either side), ``active-consort``.

>>> catalogue = default_archetypes()
>>> [a.name for a in catalogue.archetypes][:3]
['Assassin', 'Joker', 'Spy']
>>> catalogue.by_name["thief"].effects[1]
Effect(do='return', target='opponent-active-in-play', side='inactive')
>>> parse_archetypes({"format": "royal-court-archetypes", "version": 1,
...     "archetypes": [{"name": "X", "abbr": "X", "word": "x", "influence": 1,
...                     "ability": "x", "effects": [{"do": "fly"}]}]}, "mine.json")
Traceback (most recent call last):
...
regalia.core.errors.DataError: mine.json: archetype X: field 'effects[0].do': unknown effect 'fly'; ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from regalia.core.data import DataFiles, frozen_reduce
from regalia.core.errors import DataError
from regalia.core.fields import (
    check_entry_fields,
    data_document,
    entry_error,
    entry_object,
    is_int,
    nonempty_list,
)

FORMAT: Final = "royal-court-archetypes"

# effects
REMOVE: Final = "remove"
RETURN: Final = "return"
SWAP: Final = "swap"
FLIP: Final = "flip"
MOVE_CONSORT: Final = "move-consort"
FORCE_NEXT: Final = "force-next"
EXTRA_MOVE: Final = "extra-move"
EXTRA_PLAY: Final = "extra-play"
BLOCK_NEXT: Final = "block-next"

# targets
OPP_PLAY: Final = "opponent-active-in-play"
OWN_PLAY: Final = "own-active-in-play"
OPP_ZONE_ACTIVE: Final = "opponent-active-in-zone"
OPP_ZONE: Final = "opponent-in-zone"
CONSORT: Final = "active-consort"

IN_PLAY_TARGETS: Final[tuple[str, ...]] = (OPP_PLAY, OWN_PLAY)
ZONE_TARGETS: Final[tuple[str, ...]] = (OPP_ZONE_ACTIVE, OPP_ZONE)

#: effect -> the targets it accepts (empty: it takes none).
EFFECT_TARGETS: dict[str, tuple[str, ...]] = {
    REMOVE: IN_PLAY_TARGETS,
    RETURN: IN_PLAY_TARGETS,
    SWAP: IN_PLAY_TARGETS,
    FLIP: (*IN_PLAY_TARGETS, OPP_ZONE_ACTIVE),
    MOVE_CONSORT: (CONSORT,),
    FORCE_NEXT: ZONE_TARGETS,
    EXTRA_MOVE: (),
    EXTRA_PLAY: (),
    BLOCK_NEXT: (),
}
SIDES = ("inactive", "active")
_FIELDS = ("name", "abbr", "word", "influence", "ability", "effects", "requires_all")
_EFFECT_FIELDS = ("do", "target", "side")
#: The most archetypes a file may have (tiles per player).
MAX_ARCHETYPES: Final = 20


class Effect(NamedTuple):
    """One step of an ability: the verb, its target selector (``""``: none) and, for ``return``,
    the side the tile shows in its zone."""

    do: str
    target: str = ""
    side: str = "inactive"


class Archetype(NamedTuple):
    """An archetype: each player has one tile of it (``number``: its place in the file)."""

    number: int
    name: str
    abbr: str
    word: str
    influence: int
    ability: str
    effects: tuple[Effect, ...]
    requires_all: bool = False


@dataclasses.dataclass(frozen=True)
class Archetypes:
    """A validated archetype file: the archetypes in order and a lookup by lower-case name."""

    source: str
    archetypes: tuple[Archetype, ...]
    by_name: Mapping[str, Archetype]

    @property
    def count(self) -> int:
        """Tiles per player."""
        return len(self.archetypes)

    def with_effect(self, do: str) -> list[str]:
        """The names of the archetypes that have an effect ``do`` (messages name them from the
        data, not from the shipped file: an archetype file may have no Joker)."""
        return [a.name for a in self.archetypes if any(e.do == do for e in a.effects)]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return frozen_reduce(self)  # the compiled build unpickles it so (regalia.core.data)


def _text(entry: Mapping[str, Any], field: str, where: str, limit: int = 80) -> str:
    value = entry.get(field)
    if not isinstance(value, str) or not value.strip():
        raise entry_error(where, field, f"expected a non-empty string, got {value!r}")
    if len(value) > limit:
        raise entry_error(where, field, f"at most {limit} characters")
    return value.strip()


def _effect(raw: Any, where: str, field: str) -> Effect:
    if not isinstance(raw, Mapping):
        raise entry_error(where, field, f"expected an object with 'do', got {raw!r}")
    extra = sorted(set(raw) - set(_EFFECT_FIELDS))
    if extra:
        raise entry_error(
            where, f"{field}.{extra[0]}", f"unknown field; valid fields: {', '.join(_EFFECT_FIELDS)}"
        )
    do = raw.get("do")
    if do not in EFFECT_TARGETS:
        raise entry_error(
            where, f"{field}.do", f"unknown effect {do!r}; valid: {', '.join(sorted(EFFECT_TARGETS))}"
        )
    valid = EFFECT_TARGETS[do]
    target = raw.get("target", "")
    if not valid:
        if target:
            raise entry_error(where, f"{field}.target", f"effect {do!r} takes no target")
    elif target not in valid:
        raise entry_error(
            where, f"{field}.target", f"effect {do!r} needs a target of: {', '.join(valid)}; got {target!r}"
        )
    side = raw.get("side", "inactive")
    if side not in SIDES:
        raise entry_error(where, f"{field}.side", f"expected inactive or active, got {side!r}")
    if side != "inactive" and do != RETURN:
        raise entry_error(where, f"{field}.side", "only a 'return' effect names a side")
    return Effect(do, target, side)


def parse_archetypes(doc: Any, source: str) -> Archetypes:
    """Validate an archetype document read from ``source``; errors name the entry and field."""
    doc = data_document(doc, source, "an archetype file", FORMAT)
    extra = sorted(set(doc) - {"format", "version", "note", "archetypes"})
    if extra:
        raise DataError(
            f"{source}: field {extra[0]!r}: unknown field; valid fields: format, version, note, archetypes"
        )
    raw = nonempty_list(doc, "archetypes", source)
    if len(raw) > MAX_ARCHETYPES:
        raise DataError(f"{source}: field 'archetypes': at most {MAX_ARCHETYPES} archetypes, got {len(raw)}")
    found: list[Archetype] = []
    names: dict[str, Archetype] = {}
    abbrs: set[str] = set()
    for i, item in enumerate(raw):
        label = item.get("name") if isinstance(item, Mapping) else None
        where = f"{source}: archetype {label}" if isinstance(label, str) else f"{source}: archetypes[{i}]"
        entry = entry_object(item, where, "an archetype")
        check_entry_fields(entry, _FIELDS, where)
        name = _text(entry, "name", where, 20)
        if not name.isalpha():
            raise entry_error(where, "name", "letters only (the notation names tiles by it)")
        if name.lower() in names:
            raise entry_error(where, "name", f"{name!r} is used twice")
        abbr = _text(entry, "abbr", where, 2)
        if abbr.lower() in abbrs:
            raise entry_error(where, "abbr", f"{abbr!r} is used twice")
        word = _text(entry, "word", where, 10)
        ability = _text(entry, "ability", where, 200)
        influence = entry.get("influence")
        if not is_int(influence) or not 0 <= influence <= 20:
            raise entry_error(where, "influence", f"expected an integer from 0 to 20, got {influence!r}")
        effects_raw = entry.get("effects")
        if not isinstance(effects_raw, list) or len(effects_raw) > 4:
            raise entry_error(where, "effects", "expected a list of at most 4 effects")
        effects = tuple(_effect(e, where, f"effects[{k}]") for k, e in enumerate(effects_raw))
        requires_all = entry.get("requires_all", False)
        if not isinstance(requires_all, bool):
            raise entry_error(where, "requires_all", f"expected true or false, got {requires_all!r}")
        arch = Archetype(len(found), name, abbr, word, influence, ability, effects, requires_all)
        found.append(arch)
        names[name.lower()] = arch
        abbrs.add(abbr.lower())
    return Archetypes(source, tuple(found), names)


FILES: DataFiles[Archetypes] = DataFiles(
    parse_archetypes, "regalia.games.royal_court", "data/archetypes.json", "archetype file"
)


def default_archetypes() -> Archetypes:
    """The archetypes shipped with regalia (values and adaptations are ours)."""
    return FILES.default()


def archetypes_for(path: str | None) -> Archetypes:
    """The shipped archetypes (``None``) or a designer's file, parsed once per path."""
    return FILES.get(path)
