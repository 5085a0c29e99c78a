"""The numbered move menu: the legal actions grouped by step (and, for plays, by tile).

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first red")
>>> groups = legal_groups(state, state.legal_actions())
>>> groups[0][0].plain, groups[0][1][0][1]
('play Assassin (1, kill)', '0,1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import Action
from regalia.games.royal_court.state import RoyalCourtState

TITLES = {
    act.MOVE: "move a tile (step 3)",
    act.PASS: "decline the Joker's extra move",
    act.FIRST: "chance: the first player",
}


def legal_groups(
    state: RoyalCourtState, actions: Sequence[Action]
) -> list[tuple[Any, list[tuple[Any, str]]]]:
    """``[(label, [(action, short text), ...]), ...]``: plays grouped by tile, other steps by verb."""
    names = state.game.archetypes.archetypes
    groups: dict[tuple[str, int], tuple[Text, list[tuple[Any, str]]]] = {}
    for a in actions:
        text = state.notation(a)
        if a.kind in (act.PLAY, act.PLACE):
            arch = names[a.arg]
            key = (a.kind, a.arg)
            label = f"{a.kind} {arch.name} ({arch.influence}, {arch.word})"
            short = text.rsplit(" ", 1)[1]
        else:
            key = (a.kind, -1)
            label = TITLES.get(a.kind, f"{a.kind} (step 2)")
            short = text.split(" ", 1)[1] if " " in text else text
        groups.setdefault(key, (Text(label, style="bold"), []))[1].append((a, short))
    return list(groups.values())
