"""What a designer wants counted in a finished game of Intrigue in the Royal Court: the statistics
hook of the plugin (``regalia balance royal-court``).

:func:`game_statistics` replays the finished game's history from the setup (a game is some 60
plies, so this costs about a millisecond) and notes, after every tile played, whether its ability
activated (:attr:`~regalia.games.royal_court.state.RoyalCourtState.last_play`). It returns one dict
per seat, names to numbers:

====================  ===========================================================================
``score``             the seat's consort score at the end (End game 2, also after an outright end)
``first``             1 if the seat played first (its win rate when present: the first seat's)
``outright``          1 if the game ended by an outright victory, whoever won it (End game 1)
``outright-win``      1 if the seat won outright
``capped``            1 if the game was scored at the turn cap (ruling RC-turn-cap)
``turns``             turns played in the game (both players' together)
``plies``             decisions and chance outcomes of the game
``tiles-played``      tiles the seat played (step 1 and the Captain's second tile; a returned tile
                      played again counts again)
``abilities``         abilities of the seat's tiles that activated
====================  ===========================================================================

Per archetype ``A`` (its name, e.g. ``Assassin``), for every archetype of the file in play, zeros
included:

====================  ===========================================================================
``held:A``            1: every seat holds each archetype once
``built:A``           times the seat played its tile ``A`` (so ``built`` over ``held`` is how often
                      it is played)
``points:A``          what the tile ``A`` adds to the seat's final score (its influence, plus 1 if
                      inactive, when it is beside the seat's own consort; else 0)
``fired:A``           times the ability of the seat's tile ``A`` activated
``early:A``           1 if ``A`` was among the first :data:`EARLY` tiles the seat played (its win rate
                      when present: the win rate of the side that played it early)
====================  ===========================================================================

>>> import random, regalia
>>> state = regalia.load_game("royal-court").new_state(seed=3)
>>> rng = random.Random(3)
>>> while not state.is_terminal():
...     state.apply(rng.choice(state.legal_actions()))
>>> red, blue = game_statistics(state)
>>> red["first"] + blue["first"], red["score"] == state.scores()[0]
(1.0, True)
>>> sum(red[k] for k in red if k.startswith("fired:")) == red["abilities"]
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from regalia.core.errors import RegaliaError
from regalia.core.grid import neighbours4
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.state import ACTIVATED

__all__ = ["EARLY", "game_statistics"]

#: A tile is played "early" when it is among the first this many tiles its owner plays.
EARLY = 3


def game_statistics(state: Any) -> list[dict[str, float]]:
    """Per seat, the counts of a finished game (see the module docstring for the keys)."""
    if not state.is_terminal():
        raise RegaliaError("statistics are counted on a finished game")
    game = state.game
    names = [a.name for a in game.archetypes.archetypes]
    played: list[Counter[int]] = [Counter(), Counter()]
    fired: list[Counter[int]] = [Counter(), Counter()]
    order: list[list[int]] = [[], []]
    replay = game.new_state(state.seed)
    for player, action in state.actors():
        replay.apply(action)
        if action.kind in (act.PLAY, act.PLACE):
            played[player][action.arg] += 1
            order[player].append(action.arg)
            if action.kind == act.PLAY and replay.last_play == ACTIVATED:
                fired[player][action.arg] += 1
    if replay.scores() != state.scores() or replay.ending != state.ending:
        raise RegaliaError("the game's history does not replay to its final position")
    scores = state.scores()
    board, inactive = state.board, state.inactive
    out: list[dict[str, float]] = []
    for seat in (0, 1):
        beside: dict[int, float] = {}
        for q in neighbours4(state.consort_at(seat)):
            piece = board.get(q)
            if piece is not None and piece >= 2 and game.owner[piece] == seat:
                beside[game.arch[piece]] = float(game.influence[piece] + (inactive >> piece & 1))
        early = set(order[seat][:EARLY])
        doc: dict[str, float] = {
            "score": float(scores[seat]),
            "first": float(state.first == seat),
            "outright": float(state.ending == "surround"),
            "outright-win": float(state.ending == "surround" and state.winner_seat == seat),
            "capped": float(state.ending == "cap"),
            "turns": float(state.turn),
            "plies": float(state.ply),
            "tiles-played": float(sum(played[seat].values())),
            "abilities": float(sum(fired[seat].values())),
        }
        for k, name in enumerate(names):
            doc[f"held:{name}"] = 1.0
            doc[f"built:{name}"] = float(played[seat][k])
            doc[f"points:{name}"] = beside.get(k, 0.0)
            doc[f"fired:{name}"] = float(fired[seat][k])
            doc[f"early:{name}"] = float(k in early)
        out.append(doc)
    return out
