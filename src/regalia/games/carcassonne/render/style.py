"""Names, letters, glyphs and colours shared by the Carcassonne renderers.

Colour is never the only carrier of meaning (``NO_COLOR=1`` shows none): every seat has a letter
(``R`` red, ``B`` blue, ``G`` green, ``Y`` yellow, ``K`` black, as in CMYK, since blue took the
``B``), written on its followers, and every feature has its glyph (``█`` city, ``◆`` pennant,
``━ ┃`` roads, ``⌂`` cloister, ``☼`` shrine, ``·`` field).

>>> seat_letter(4), follower_word("field"), follower_word("shrine")
('K', 'farmer', 'heretic')
>>> rotation_label(90)
'→90°'
"""

from __future__ import annotations

from typing import Any

from regalia.core.text import plural
from regalia.games.carcassonne.tiles import CITY, CLOISTER, FIELD, ROAD, SHRINE

#: One letter per seat, in seat order (red, blue, green, yellow, black).
SEAT_LETTERS: tuple[str, ...] = ("R", "B", "G", "Y", "K")
#: The seats' colours in the SVG.
SEAT_FILL: tuple[str, ...] = ("#d62828", "#1f5fd6", "#2b9348", "#f2c500", "#262626")
#: Text on a seat's colour.
SEAT_INK: tuple[str, ...] = ("#ffffff", "#ffffff", "#ffffff", "#1b1b1b", "#ffffff")
#: A follower's letter in the terminal, on its seat's colour.
SEAT_STYLES: tuple[str, ...] = (
    "bold #ffffff on #c62828",
    "bold #ffffff on #1f5fd6",
    "bold #ffffff on #2b8a3e",
    "bold #1b1b1b on #f2c500",
    "bold #ffffff on #262626",
)
#: A seat's name in the terminal's text (panels, results).
NAME_STYLES: tuple[str, ...] = ("bold #ff6b6b", "bold #6b9bff", "bold #51cf66", "bold #fcc419", "bold")

#: What a follower is called on each kind of feature.
FOLLOWER_WORDS: dict[str, str] = {
    CITY: "knight",
    ROAD: "thief",
    FIELD: "farmer",
    CLOISTER: "monk",
    SHRINE: "heretic",
}
#: Plural names of the kinds of features (result tables).
KIND_PLURALS: dict[str, str] = {
    ROAD: "roads",
    CITY: "cities",
    CLOISTER: "cloisters",
    SHRINE: "shrines",
    FIELD: "fields",
}
#: The order features are listed in (results, menus).
KIND_ORDER: tuple[str, ...] = (ROAD, CITY, CLOISTER, SHRINE, FIELD)

#: Arrows for the rotations: where the tile's printed top points.
ROTATION_ARROWS: dict[int, str] = {0: "↑", 90: "→", 180: "↓", 270: "←"}

# -- terminal glyphs --------------------------------------------------------------------------------
CITY_GLYPH = "█"
PENNANT_GLYPH = "◆"
FIELD_GLYPH = "·"
CLOISTER_GLYPH = "⌂"
SHRINE_GLYPH = "☼"
ROAD_H = "━"
ROAD_V = "┃"
#: The road glyph at a tile's centre for the sides meeting there (N E S W as 0..3).
ROAD_CENTRE: dict[frozenset[int], str] = {
    frozenset(k): v
    for k, v in {
        (0,): "╹",
        (1,): "╺",
        (2,): "╻",
        (3,): "╸",
        (0, 2): "┃",
        (1, 3): "━",
        (0, 1): "┗",
        (1, 2): "┏",
        (2, 3): "┓",
        (0, 3): "┛",
        (0, 1, 2): "┣",
        (1, 2, 3): "┳",
        (0, 2, 3): "┫",
        (0, 1, 3): "┻",
        (0, 1, 2, 3): "╋",
    }.items()
}

# -- terminal styles ----------------------------------------------------------------------------------
#: Fields in a checkerboard of two greens, so that tiles stand apart when colour is on.
FIELD_BG: tuple[str, ...] = ("#8fc15a", "#7db04a")
CITY_FG = "#b86b2a"
CITY_BG = "#d99a55"
ROAD_FG = "#fff8e7"
PENNANT_FG = "#1f4fbf"
CLOISTER_FG = "#b71c1c"
SHRINE_FG = "#4a148c"
#: Free positions where the drawn tile fits, with the menu's numbers.
FIT_STYLE = "bold #1b1b1b on #ffd43b"
#: The follower options' numbers on the tile just laid.
OPTION_STYLE = "bold #1b1b1b on #ffd43b"
#: The tile just laid (its fields are lighter).
PLACED_BG: tuple[str, ...] = ("#c5e3a0", "#b9da92")

LEGEND_GLYPHS = (
    f"{CITY_GLYPH} city  {PENNANT_GLYPH} pennant  {ROAD_H}{ROAD_V} road  {CLOISTER_GLYPH} cloister  "
    f"{SHRINE_GLYPH} shrine  {FIELD_GLYPH} field"
)


def seat_letter(seat: int) -> str:
    """The seat's letter (``?`` for anything else)."""
    return SEAT_LETTERS[seat] if 0 <= seat < len(SEAT_LETTERS) else "?"


def seat_style(seat: int) -> str:
    """The terminal style of a seat's follower letter."""
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def name_style(seat: int) -> str:
    """The terminal style of a seat's name."""
    return NAME_STYLES[seat % len(NAME_STYLES)]


def seat_name(state: Any, seat: int) -> str:
    """The seat's name (``red``...), ``seat N`` when the state has no such seat."""
    names = state.seat_names()
    return str(names[seat]) if 0 <= seat < len(names) else f"seat {seat + 1}"


def follower_word(kind: str) -> str:
    """``knight``, ``thief``, ``farmer``, ``monk``, ``heretic``."""
    return FOLLOWER_WORDS.get(kind, "follower")


def rotation_label(rotation: int) -> str:
    """``↑0°``, ``→90°``: the arrow shows where the printed top of the tile points."""
    return f"{ROTATION_ARROWS.get(rotation, '?')}{rotation}°"


def seats_words(state: Any, seats: list[int]) -> str:
    """``red``, ``red and blue``, ``red, blue and green``."""
    names = [seat_name(state, s) for s in seats]
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


__all__ = [
    "CITY_BG",
    "CITY_FG",
    "CITY_GLYPH",
    "CLOISTER_FG",
    "CLOISTER_GLYPH",
    "FIELD_BG",
    "FIELD_GLYPH",
    "FIT_STYLE",
    "FOLLOWER_WORDS",
    "KIND_ORDER",
    "KIND_PLURALS",
    "LEGEND_GLYPHS",
    "NAME_STYLES",
    "OPTION_STYLE",
    "PENNANT_FG",
    "PENNANT_GLYPH",
    "PLACED_BG",
    "ROAD_CENTRE",
    "ROAD_FG",
    "ROAD_H",
    "ROAD_V",
    "ROTATION_ARROWS",
    "SEAT_FILL",
    "SEAT_INK",
    "SEAT_LETTERS",
    "SEAT_STYLES",
    "SHRINE_FG",
    "SHRINE_GLYPH",
    "follower_word",
    "name_style",
    "plural",
    "rotation_label",
    "seat_letter",
    "seat_name",
    "seat_style",
    "seats_words",
]
