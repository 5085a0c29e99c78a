"""Names, markers, colours and small texts shared by the Two Heirs renderers.

A tile's colour decides the resource it gives and much of the scoring, so it is always written as
text too, not only as a background colour (``NO_COLOR=1`` shows no colour at all): the letter of
its resource, the same letters the costs use.

>>> [colour_letter(c) for c in range(3)]
['w', 's', 'g']
>>> plural(1, "tile"), plural(2, "tile"), plural(0, "treasure")
('1 tile', '2 tiles', '0 treasures')
>>> cost_short((1, 2, 0)).plain
'1w 2s'
>>> from regalia.games.two_heirs.tiles import default_catalogue
>>> tile_short(default_catalogue().by_id["W2"]).plain
'W2 s inn'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from regalia.core.text import plural
from regalia.games.two_heirs.henry import HENRY
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile
from regalia.render.text import pack

SEAT_NAMES: tuple[str, ...] = ("white", "blue")
SEAT_LETTERS: tuple[str, ...] = ("W", "B")
#: The owner's marker: a building faces its owner (white sits south, blue north).
MARKERS: tuple[str, ...] = ("▲", "▼")
#: The marker of a face-down tile (free terrain, the starting landscape, a destroyed building).
FACE_DOWN_MARK = "░"
#: A unit that moved this turn shows its cross ("Action C").
MOVED_MARK = "†"
ELITE_MARK = "★"
TREASURE_MARK = "◆"
MARKER_STYLES: tuple[str, ...] = ("bold black on white", "bold white on #1f4fbf")
SEAT_STYLES: tuple[str, ...] = ("bold white", "bold #5f8fff")
UNIT_STYLES: tuple[str, ...] = ("bold black on white", "bold white on #1f4fbf")
TREASURE_STYLE = "bold #3a2500 on #f0c419"

#: One letter per colour: the initial of the resource it gives (green wood, grey stone, yellow grain).
COLOUR_LETTERS: tuple[str, ...] = tuple(r[0] for r in RESOURCES)
#: Face-up backgrounds per colour (green, grey, yellow) and the shading of face-down tiles.
FACE_UP: tuple[str, ...] = ("black on #8cc97c", "black on #b8b8b8", "black on #ebd25e")
FACE_DOWN: tuple[str, ...] = ("#77b36a on #2c5427", "#8a8a8a on #4a4a4a", "#c9b04a on #655719")
FACE_DOWN_TEXT: tuple[str, ...] = (
    "bold #e8f5e4 on #2c5427",
    "bold #f0f0f0 on #4a4a4a",
    "bold #fff6cc on #655719",
)
CHIP: tuple[str, ...] = ("#5fb34f", "#a0a0a0", "#e0c030")

#: What the colour letters mean (every layout prints it once).
COLOUR_LEGEND = "colour = resource: w green wood, s grey stone, g yellow grain"

#: Short names that fit a board cell (8 characters at most).
SHORT_NAMES: dict[str, str] = {
    "inn": "inn",
    "marketplace": "market",
    "pilgrimage-site": "pilgrims",
    "bandit-stronghold": "bandits",
    "mill": "mill",
    "stonemason": "mason",
    "stable": "stable",
    "bakery": "bakery",
    "camp": "camp",
    "smithy": "smithy",
    "gamekeepers-lodge": "lodge",
    "farm": "farm",
    "sawmill": "sawmill",
    "quarry": "quarry",
    "trading-post": "trading",
    "cathedral": "cathedral",
    "siege-tower": "siege",
    "fortress": "fortress",
    "basket-makers-workshop": "basket",
    "potters-workshop": "potter",
    "coopers-workshop": "cooper",
    "guild-house": "guild",
    "lookout": "lookout",
    "guardhouse": "guardhse",
}


def short_name(building: str, width: int = 9) -> str:
    """The name of a building in at most ``width`` columns, never cut mid-word: its short name
    (``trading``), else that without its inner vowels (``trdng``).

    >>> short_name("trading-post"), short_name("trading-post", 5), short_name("sawmill", 5)
    ('trading', 'trdng', 'swmll')
    """
    short = SHORT_NAMES.get(building, building)
    if len(short) <= width:
        return short
    squeezed = short[0] + "".join(c for c in short[1:] if c not in "aeiou")
    return squeezed[:width]


def building_words(tile: Tile) -> str:
    """A building's name in words: ``gamekeeper's lodge``."""
    return tile.building.replace("-", " ").replace("makers", "maker's").replace("keepers", "keeper's")


def seat_name(seat: int) -> str:
    """``white`` / ``blue`` (``nobody`` for anything else)."""
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else "nobody"


def is_solo(state: TwoHeirsState) -> bool:
    """True for the solo game against Henry."""
    return bool(state.game.options.solo)


def is_henry(state: TwoHeirsState, seat: int) -> bool:
    """True for the solo automaton's seat."""
    return is_solo(state) and seat == HENRY


def seat_label(state: TwoHeirsState, seat: int) -> str:
    """The seat's colour, with the state's own name when it differs (solo: ``blue (henry)``)."""
    colour = seat_name(seat)
    names = state.seat_names()
    if 0 <= seat < len(names) and names[seat] != colour:
        return f"{colour} ({names[seat]})"
    return colour


def colour_letter(colour: int) -> str:
    """The letter of a tile colour: the resource it gives (``w`` wood, ``s`` stone, ``g`` grain)."""
    return COLOUR_LETTERS[colour] if 0 <= colour < len(COLOUR_LETTERS) else "?"


def colour_words(colour: int) -> str:
    """``grey (stone)``."""
    return f"{COLOURS[colour]} ({RESOURCES[colour]})"


def colour_chip(colour: int) -> Text:
    """The colour as a coloured letter (readable without colour)."""
    return Text(colour_letter(colour), style="bold " + CHIP[colour])


def cost_short(tile_or_cost: Tile | Sequence[int], sep: str = " ") -> Text:
    """A compact cost with the resource letters: ``2s 1g`` (``free`` for nothing)."""
    cost = tile_or_cost.cost if isinstance(tile_or_cost, Tile) else tile_or_cost
    text = Text()
    for r, n in enumerate(cost):
        if n:
            if text:
                text.append(sep)
            text.append(f"{n}{COLOUR_LETTERS[r]}", style=CHIP[r])
    return text if text else Text("free")


def resources_short(res: Sequence[int]) -> Text:
    """Resources as ``1w 0s 2g`` (every resource, zeros included)."""
    text = Text()
    for r, n in enumerate(res):
        if r:
            text.append(" ")
        text.append(f"{n}{COLOUR_LETTERS[r]}", style=CHIP[r])
    return text


def tile_label(tile: Tile, cost: bool = True) -> Text:
    """``W5 marketplace, grey (stone) [row] (2 grain + 1 wood)`` for menus and lists."""
    text = Text(tile.id, style="bold")
    text.append(f" {tile.building}, ")
    text.append(COLOURS[tile.colour], style="bold " + CHIP[tile.colour])
    text.append(f" ({RESOURCES[tile.colour]})")
    extra = []
    if tile.axis:
        extra.append(tile.axis)
    if tile.depicts:
        extra.append("depicts " + "/".join(tile.depicts))
    if extra:
        text.append(f" [{', '.join(extra)}]", style="dim")
    if cost:
        text.append(f"  costs {tile.cost_text()}", style="dim")
    return text


def tile_short(tile: Tile, width: int = 9) -> Text:
    """``W5 s market``: id, colour letter and short name, as the board writes a tile."""
    text = Text(tile.id, style="bold")
    text.append(" ")
    text.append_text(colour_chip(tile.colour))
    if width:
        text.append(f" {short_name(tile.building, width)}")
    return text


def affordable(state: TwoHeirsState, seat: int, tile: int, res: Sequence[int] | None = None) -> bool:
    """True if ``seat`` has the resources (and free-terrain discounts) to build ``tile`` now."""
    have = state.resources(seat) if res is None else res
    discounts = state.discounts if seat == state.player else 0
    cost = state.tiles[tile].cost
    deficit = sum(max(0, c - h) for c, h in zip(cost, have, strict=True))
    return deficit <= discounts


__all__ = [
    "CHIP",
    "COLOUR_LEGEND",
    "COLOUR_LETTERS",
    "ELITE_MARK",
    "FACE_DOWN",
    "FACE_DOWN_MARK",
    "FACE_DOWN_TEXT",
    "FACE_UP",
    "MARKERS",
    "MARKER_STYLES",
    "MOVED_MARK",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "SEAT_STYLES",
    "SHORT_NAMES",
    "TREASURE_MARK",
    "TREASURE_STYLE",
    "UNIT_STYLES",
    "affordable",
    "building_words",
    "colour_chip",
    "colour_letter",
    "colour_words",
    "cost_short",
    "is_henry",
    "is_solo",
    "pack",
    "plural",
    "resources_short",
    "seat_label",
    "seat_name",
    "short_name",
    "tile_label",
    "tile_short",
]
