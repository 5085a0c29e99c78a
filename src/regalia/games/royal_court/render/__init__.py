"""Drawing Intrigue in the Royal Court for a terminal: the board, the zones, the legend, the
scores (:mod:`.terminal`), the numbered menu (:mod:`.menu`) and one sentence per ply
(:mod:`.describe`). Text stays readable without colour: a tile is written ``RAs+`` (red's Assassin,
active side up) or ``BSp-`` (blue's Spy, inactive), the king ``K:R+`` (red's consort, active).

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first blue")
>>> describe_ply(state, state.plies()[-1])
'Chance chooses blue to play first (Gameplay).'
"""

from __future__ import annotations

from regalia.games.royal_court.render.describe import describe_ply
from regalia.games.royal_court.render.menu import legal_groups
from regalia.games.royal_court.render.svg import render_png, render_svg
from regalia.games.royal_court.render.terminal import cell_text, render_result, render_terminal

__all__ = [
    "cell_text",
    "describe_ply",
    "legal_groups",
    "render_png",
    "render_result",
    "render_svg",
    "render_terminal",
]
