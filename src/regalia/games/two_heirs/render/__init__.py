"""Drawing The Two Heirs: the terminal (rich), the SVG (browser, reports, PNG), menus and descriptions.

The package is split by concern:

======================  =====================================================================
:mod:`.layout`          :func:`render_terminal`: the whole position fitted to a terminal's size
:mod:`.board`           the play area: full and compact cells, a window around the action
:mod:`.reserve`         the royal reserve: a table, a paragraph, a column
:mod:`.players`         the seats (score, reach, resources, hand) and the status line
:mod:`.solo`            Henry's score explained, the treasures, Henry's last turn step by step
:mod:`.scoresheet`      score tables, the final result, the score calculator's output
:mod:`.menu`            :func:`legal_groups`: the numbered move menu (take previews)
:mod:`.describe`        :func:`describe_ply`: one sentence per ply, in the words of the rules
:mod:`.svg`             :func:`render_svg` (clickable ``data-action`` parts) and :func:`render_png`
:mod:`.parts`           the pictures' sizes, colours, :class:`~.parts.Choices` and selection layers
:mod:`.cells`           the board's SVG parts (tiles, units, treasures, playable positions)
:mod:`.circle`          the royal reserve circle and the supply pile in SVG
:mod:`.labels`          actions in words, places, the last ply's parts, the points it scored
:mod:`.table`           the browser table's board (:func:`~.table.render_board`) and stage
:mod:`.panels`          the browser table's panels (seats and sections)
:mod:`.style`           names, markers, colour letters and small texts shared by all of them
======================  =====================================================================

Colour is always readable as text: a tile's colour is written as the letter of its resource
(``w`` green wood, ``s`` grey stone, ``g`` yellow grain), the letters costs are written in.
docs/rendering.md describes the layouts and the SVG's selection scheme.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> render_svg(state).startswith("<?xml")
True
>>> describe_ply(state, state.plies()[0])
"The royal shield shows white's crown: white starts (Setup)."
"""

from __future__ import annotations

from regalia.games.two_heirs.render.board import render_board
from regalia.games.two_heirs.render.describe import describe_ply
from regalia.games.two_heirs.render.layout import render_terminal
from regalia.games.two_heirs.render.menu import legal_groups, take_preview
from regalia.games.two_heirs.render.players import render_players, status_line
from regalia.games.two_heirs.render.reserve import render_reserve
from regalia.games.two_heirs.render.scoresheet import render_position_score, render_result, score_tables
from regalia.games.two_heirs.render.style import MARKERS, SEAT_LETTERS, SEAT_NAMES, plural, seat_label
from regalia.games.two_heirs.render.svg import render_png, render_svg

__all__ = [
    "MARKERS",
    "SEAT_LETTERS",
    "SEAT_NAMES",
    "describe_ply",
    "legal_groups",
    "plural",
    "render_board",
    "render_players",
    "render_png",
    "render_position_score",
    "render_reserve",
    "render_result",
    "render_svg",
    "render_terminal",
    "score_tables",
    "seat_label",
    "status_line",
    "take_preview",
]
