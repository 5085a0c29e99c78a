"""Drawing Carcassonne: the terminal (rich), the SVG (browser, reports, PNG), menus and descriptions.

The plugin (:mod:`regalia.games.carcassonne.plugin`) names the five functions exported here; the
package is split by concern:

======================  =====================================================================
:mod:`.layout`          :func:`render_terminal`: the whole position fitted to a terminal's size
:mod:`.board`           the board: tiles as 5x3 cells, the menu's numbers where the tile fits
:mod:`.cells`           one tile as 5x3 characters: features, anchors of followers
:mod:`.panels`          the status line, the seats, the drawn tile's rotations, the bag, legend
:mod:`.menu`            :func:`legal_groups`: placements by position, followers by kind
:mod:`.describe`        :func:`describe_ply`: one sentence per ply, scoring included
:mod:`.result`          :func:`render_result`: the final scoring by kind of feature
:mod:`.geometry`        the shapes of a tile for the SVG and the anchors of followers
:mod:`.svg`             :func:`render_svg`, with a ``data-action`` for every legal action
:mod:`.table`           the browser table's board alone, in world units (docs/table.md)
:mod:`.stage`           the browser table's close-up of the follower step
:mod:`.table_panels`    the browser table's panels as data: seats, drawn tile, bag, result
:mod:`.words`           the actions in words, the default (no follower), where a ply happened
:mod:`.style`           letters, glyphs, names and colours shared by all of them
======================  =====================================================================

Meaning never rests on colour alone: followers carry their seat's letter (``R B G Y K``, farmers
lowercase), features their glyphs. docs/rendering.md describes the layouts and the SVG.

>>> import regalia
>>> state = regalia.load_game("carcassonne").new_state(seed=3)
>>> _ = state.apply_text("draw V")
>>> render_svg(state).startswith("<?xml")
True
>>> describe_ply(state, state.plies()[-1])
'red draws V: it fits in 3 places; 70 tiles left in the bag'
"""

from __future__ import annotations

from regalia.games.carcassonne.render.describe import describe_ply
from regalia.games.carcassonne.render.layout import render_terminal
from regalia.games.carcassonne.render.menu import legal_groups
from regalia.games.carcassonne.render.result import render_result
from regalia.games.carcassonne.render.svg import render_svg

__all__ = ["describe_ply", "legal_groups", "render_result", "render_svg", "render_terminal"]
