"""One sentence per ply, in the words of the rules (logs, replays, terminal play); called on the
state right after the ply.

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> for text in ("first red", "play Spy 1,1"):
...     _ = state.apply_text(text)
>>> describe_ply(state, state.plies()[-1])
"red plays the Spy onto 1,1; a player's first tile does not activate its ability (Gameplay 1)."
"""

from __future__ import annotations

from regalia.core.game import CHANCE, Ply
from regalia.core.grid import format_pos
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES
from regalia.games.royal_court.state import (
    KING,
    NO_ABILITY,
    NO_BLOCKED,
    NO_FIRST,
    NO_INACTIVE,
    NO_TARGET,
    RoyalCourtState,
)

_DONE = {
    act.REMOVE: "The tile at {dst} leaves the game (Gameplay 2).",
    act.RETURN: "The tile at {dst} returns to its owner's zone (Gameplay 2).",
    act.SWAP: "The played tile swaps squares with the tile at {dst}, which turns inactive (Gameplay 2).",
    act.FLIP: "{tile} turns to its inactive side (Gameplay 2).",
    act.CONSORT: "The {royal} moves from {src} to {dst} and turns inactive (Gameplay 2).",
    act.FORCE: "{opp} must play their {tile} next turn (ruling RC-diplomat-courtisan).",
    act.MOVE: "{who} moves a tile from {src} to {dst} (Gameplay 3).",
    act.PASS: "{who} declines the extra move (ruling RC-joker-optional).",
}


def describe_ply(state: RoyalCourtState, ply: Ply) -> str:
    """What ``ply`` (the last applied to ``state``) did."""
    action = ply.action
    if ply.player == CHANCE:
        return f"Chance chooses {SEAT_NAMES[action.arg]} to play first (Gameplay)."
    who = SEAT_NAMES[ply.player]
    kind = action.kind
    if kind in (act.PLAY, act.PLACE):
        name = state.game.archetypes.archetypes[action.arg].name
        where = format_pos(action.dst)
        if kind == act.PLACE:
            return f"{who} plays the {name} onto {where} too, without its ability (ruling RC-captain)."
        text = f"{who} plays the {name} onto {where}"
        why = state.last_play
        if why == NO_FIRST:
            return text + "; a player's first tile does not activate its ability (Gameplay 1)."
        if why == NO_INACTIVE:
            return text + "; it entered inactive, so its ability does not activate (Gameplay 1)."
        if why == NO_BLOCKED:
            return text + "; an ability of the opponent's blocks its ability (ruling RC-diplomat-courtisan)."
        if why == NO_TARGET:
            return text + "; its ability has no target (ruling RC-ability-mandatory)."
        if why == NO_ABILITY:
            return text + "; it has no ability (its archetype file gives it none)."
        return text + "; its ability activates (Gameplay 2)."
    src = format_pos(action.src) if action.src is not None else ""
    dst = format_pos(action.dst) if action.dst is not None else ""
    names = state.game.archetypes.archetypes
    tile = names[action.arg].name if 0 <= action.arg < len(names) else "tile"
    if kind == act.FLIP:  # a tile in play by its square, or a tile of the opponent's zone by name
        tile = f"The tile at {dst}" if action.dst is not None else f"{SEAT_NAMES[1 - ply.player]}'s {tile}"
    royal = "king" if action.dst is not None and state.board.get(action.dst) == KING else "queen"
    return _DONE[kind].format(
        who=who, opp=SEAT_NAMES[1 - ply.player], src=src, dst=dst, tile=tile, royal=royal
    )
