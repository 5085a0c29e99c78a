"""What a designer wants counted in a finished game of The Two Heirs: the statistics hook of the
plugin (``regalia balance two-heirs``).

:func:`game_statistics` reads a finished game's history (:meth:`~regalia.core.game.State.actors`:
who took, built, played as terrain, discarded, destroyed what) and its final score sheet, and
returns one dict per seat. No replay is needed: a destroyed building stays on its position, face
down, so the final board names it.

Keys per building kind ``K`` (``inn``, ``trading-post``, ...), for every kind of the three sets in
play, zeros included (a key absent from a seat's dict means the kind was not in that game):

==================  =================================================================================
``held:K``          tiles of K the seat took into its hand (action A, a camp's extra take; Henry's take)
``built:K``         buildings of K the seat constructed (B.1; Henry's placements), whatever became of
                    them later
``points:K``        final points of the seat's face-up buildings of K (unit doubling and Henry's three
                    doubled buildings included; a destroyed building or a used camp scores 0)
``cost:K``          total printed cost (resources) of the buildings of K the seat constructed; not for
                    Henry, who builds for free
``terrain:K``       tiles of K the seat played face down as free terrain (B.2)
``discarded:K``     tiles of K the seat returned to the box (hand limit; Henry's rule D)
``lost:K``          the seat's buildings of K destroyed by the opponent's siege towers (Warfare in play)
==================  =================================================================================

Other keys:

=====================  ==============================================================================
``score``              the seat's final score
``points:roads``       the seat's road points (with road scoring)
``points:treasures``   solo, Henry: 5 per treasure left on the board or in the pile
``terrain``            free terrain played, every kind
``discarded``          tiles returned to the box, every kind
``doubled``            the seat's buildings scored double at the end
``reserve-units``      the seat's units in the royal reserve at the end (the tie-breaker; not Henry)
``camps-used``         camps the seat flipped to take another tile (Dominion in play)
``destroyed``          the opponent's buildings the seat destroyed (Warfare in play)
``treasures-removed``  solo, the player: Henry's treasures removed because their condition was met
``treasures-left``     solo, Henry: treasures left on the board or in the pile
=====================  ==============================================================================

Every point of the score sheet is in exactly one ``points:`` key, so they add up to ``score``; and
``built:K - lost:K`` (minus ``camps-used`` for camps) is the number of the seat's face-up buildings
of K on the final board. The lab reads the families ``held``, ``built``, ``points`` and ``cost``
to derive built rates, points per building and points per cost (:mod:`regalia.lab.balance`).

>>> import random, regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> rng = random.Random(2)
>>> while not state.is_terminal():
...     _ = state.advance(rng)
...     if not state.is_terminal():
...         state.apply(rng.choice(state.legal_actions()))
>>> white, blue = game_statistics(state)
>>> sum(v for k, v in white.items() if k.startswith("points:")) == white["score"] == state.scores()[0]
True
>>> [k.split(":")[0] for k in white if k.endswith(":cathedral")]
['held', 'built', 'points', 'cost', 'terrain', 'discarded']
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from regalia.core.errors import RegaliaError
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.board import tile_of
from regalia.games.two_heirs.henry import HENRY
from regalia.games.two_heirs.tiles import SET_BUILDINGS, SETS

__all__ = ["KIND_FAMILIES", "game_statistics", "kinds_in_play"]

#: The per-kind families, in the order each seat's dict lists them.
KIND_FAMILIES: tuple[str, ...] = ("held", "built", "points", "cost", "terrain", "discarded", "lost")


def kinds_in_play(state: Any) -> list[str]:
    """The building kinds of the game's three sets that its catalogue holds, in rulebook order."""
    present = {t.building for t in state.tiles if t.set in state.sets}
    return [b for s in SETS if s in state.sets for b in SET_BUILDINGS[s] if b in present]


def game_statistics(state: Any) -> list[dict[str, float]]:
    """Per seat, the counts of a finished game (see the module docstring for the keys)."""
    if not state.is_terminal():
        raise RegaliaError("statistics are counted on a finished game")
    from regalia.games.two_heirs.solo import SoloState

    solo = isinstance(state, SoloState)
    automaton = HENRY if solo else None
    tiles = state.tiles
    board = state.board
    kinds = kinds_in_play(state)
    sieges = "siege-tower" in kinds
    camps = "camp" in kinds
    counts: list[Counter[str]] = [Counter(), Counter()]
    for player, action in state.actors():
        if player not in (0, 1):
            continue  # chance
        seat = counts[player]
        kind = action.kind
        if kind == act.TAKE:
            seat["held:" + tiles[action.tile].building] += 1
        elif kind == act.BUILD:
            tile = tiles[action.tile]
            seat["built:" + tile.building] += 1
            if player != automaton:
                seat["cost:" + tile.building] += sum(tile.cost)
        elif kind == act.TERRAIN:
            seat["terrain:" + tiles[action.tile].building] += 1
            seat["terrain"] += 1
        elif kind == act.DISCARD:
            seat["discarded:" + tiles[action.tile].building] += 1
            seat["discarded"] += 1
        elif kind == act.CAMP:
            seat["camps-used"] += 1
        elif kind == act.DESTROY:
            seat["destroyed"] += 1
            victim = tiles[tile_of(board[action.dst])].building
            counts[1 - player]["lost:" + victim] += 1
    sheet = state.score_sheet()
    for line in sheet.buildings:
        counts[line.owner]["points:" + line.building] += line.points
        counts[line.owner]["doubled"] += line.doubled
    out: list[dict[str, float]] = []
    for seat in (0, 1):
        c = counts[seat]
        doc: dict[str, float] = {"score": float(sheet.totals[seat])}
        for family in KIND_FAMILIES:
            if (family == "cost" and seat == automaton) or (family == "lost" and not sieges):
                continue
            for kind in kinds:
                doc[f"{family}:{kind}"] = float(c[f"{family}:{kind}"])
        if state.game.options.roads:
            doc["points:roads"] = float(sheet.road_points(seat))
        extra = sum(points for owner, _, points in sheet.extra if owner == seat)
        if extra or (solo and seat == automaton):
            doc["points:treasures" if solo else "points:other"] = float(extra)
        doc["terrain"] = float(c["terrain"])
        doc["discarded"] = float(c["discarded"])
        doc["doubled"] = float(c["doubled"])
        if seat != automaton:
            doc["reserve-units"] = float(state.units_in_reserve(seat))
        if camps:
            doc["camps-used"] = float(c["camps-used"])
        if sieges:
            doc["destroyed"] = float(c["destroyed"])
        if solo:
            if seat == automaton:
                doc["treasures-left"] = float(len(state.treasures) + state.pile_left)
            else:
                doc["treasures-removed"] = float(len(state.taken))
        out.append(doc)
    return out
