"""Carcassonne's own figures for ``regalia bench``: the cost of listing where a drawn tile fits.

:func:`benchmarks` plays random games (seeded) until 50 tiles lie on the board and a tile has just
been drawn, then times ``legal_actions()`` there from nothing: the cached placements of the drawn
tile are dropped before each call, so every timed call reads the free positions and matches the
tile's rotations against them (the memo of rotations per pattern of neighbours stays warm, as it is
in any game after the first turns). Figures are reported, never asserted.

>>> import regalia
>>> figures = benchmarks(regalia.load_game("carcassonne"), seed=1, boards=3, repeat=5)
>>> figures["boards"], figures["tiles_on_board"]
(3, 50)
>>> figures["legal_actions_50_tiles_us"] > 0
True
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from regalia.core.loop import forced_step
from regalia.games.carcassonne.base import PH_PLACE
from regalia.games.carcassonne.state import CarcassonneState

#: The board size the issue asks about.
TILES = 50


def board_with_drawn_tile(game: Any, seed: int, tiles: int = TILES) -> CarcassonneState | None:
    """A random game's state when ``tiles`` tiles lie on the board and the next one is drawn
    (``None`` if the game ended first)."""
    state: CarcassonneState = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        action = forced_step(state, rng)  # the draw, by the one loop's step
        if action is None:
            if state.phase == PH_PLACE and len(state.board) >= tiles:
                return state
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_unchecked(action)
    return None


def benchmarks(game: Any, seed: int, boards: int = 100, repeat: int = 20) -> dict[str, Any]:
    """Median microseconds of a cold ``legal_actions()`` for the drawn tile on 50-tile boards, with
    the mean number of placements and of free positions next to the board."""
    timer = time.perf_counter_ns
    times: list[int] = []
    placements: list[int] = []
    frontier: list[int] = []
    measured = 0
    k = 0
    while measured < boards and k < 4 * boards:
        state = board_with_drawn_tile(game, seed + k)
        k += 1
        if state is None:
            continue
        measured += 1
        for _ in range(repeat):
            state._places = None
            state._legal = None
            t0 = timer()
            legal = state.legal_actions()
            times.append(timer() - t0)
        placements.append(len(legal))
        frontier.append(len(state.need_sorted))
    return {
        "boards": measured,
        "tiles_on_board": TILES,
        "legal_actions_50_tiles_us": round(statistics.median(times) / 1000, 2) if times else 0.0,
        "placements_50_tiles_mean": round(statistics.fmean(placements), 1) if placements else 0.0,
        "free_positions_50_tiles_mean": round(statistics.fmean(frontier), 1) if frontier else 0.0,
    }
