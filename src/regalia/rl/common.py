"""What the PettingZoo and OpenSpiel adapters share: the encoding of a game, agent names, and the
traits of a game the frameworks want declared (hidden information, zero sum, game length).

Everything here uses only the core contract and the :class:`~regalia.core.encoding.Encoding`
interface: no game id, no branch per game.

>>> from regalia.core.registry import load_game
>>> agent_names(load_game("two-heirs")), agent_names(load_game("two-heirs", solo=True))
(['white_0', 'blue_1'], ['player_0'])
>>> traits = game_traits(load_game("royal-court"))
>>> traits.hidden_information, traits.zero_sum
(False, True)
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regalia.core.encoding import Encoding
from regalia.core.errors import RegaliaError
from regalia.core.game import SPECTATOR, Game, State
from regalia.core.loop import playout

#: Keys of :meth:`State.observation` that differ between viewers without hiding anything: who looks,
#: and the legal actions listed for the seat to act.
VIEWER_KEYS = frozenset({"viewer", "legal"})

#: Why an episode stops early: the seat to act has legal actions, but none has an id in the
#: encoding's window (see :func:`decision_actions`).
NO_ID = "no legal action has an id in the encoding's window"


def make_encoding(game: Game[Any], variant: Mapping[str, Any] | None = None) -> Encoding:
    """The encoding ``game``'s plugin declares (``variant``: the encoding's own settings, a window
    size...); a game without one cannot be used by the adapters."""
    plugin = game.plugin()
    if not plugin.has_encoding:
        raise RegaliaError(f"{game.name} declares no encoding (Plugin.encoding): the adapters need one")
    return plugin.encoding(game, **dict(variant or {}))


def decision_seats(game: Game[Any]) -> list[int]:
    """The seats agents play: every seat but the automata (a solo game's automaton)."""
    automata = set(game.automaton_seats())
    return [seat for seat in range(game.num_players) if seat not in automata]


def agent_names(game: Game[Any]) -> list[str]:
    """PettingZoo names of the seats agents play: the seat's name made an identifier, with the
    seat's number (``white_0``, ``blue_1``); ``player_N`` for a name that gives none."""
    names = game.seat_names()
    out = []
    for seat in decision_seats(game):
        base = re.sub(r"[^a-z0-9]+", "_", names[seat].lower()).strip("_")
        if not base or base[0].isdigit() or re.fullmatch(r"seat_?\d*", base):
            base = "player"
        out.append(f"{base}_{seat}")
    return out


def decision_actions(encoding: Encoding, state: State[Any]) -> dict[int, Any]:
    """The legal actions of the seat to act that have an id, by id. Empty at a decision state
    means that none of its legal actions has an id in the encoding's window (:data:`NO_ID`): the
    adapters then end the episode early (PettingZoo: truncated; OpenSpiel: terminal with zero
    returns)."""
    return encoding.legal_actions_by_id(state)


@dataclass(frozen=True)
class Traits:
    """What OpenSpiel's game type declares, measured on a few random games of the options at hand.

    ``hidden_information``: a seat's view hides something (the game redacts actions, a
    determinization changes the state, or seats see different observations); False when nothing
    is hidden but future chance, which the frameworks model as explicit chance nodes.
    ``zero_sum``: every finished probe game's returns summed to 0.
    ``longest``: the most actions (chance included) in a probe game.
    """

    hidden_information: bool
    zero_sum: bool
    longest: int


_TRAITS: dict[tuple[str, str, str], Traits] = {}


def game_traits(game: Game[Any], games: int = 3, seed: int = 0, stride: int = 9) -> Traits:
    """The :class:`Traits` of ``game`` (cached per game id and options). ``games`` random games
    (chance with its probabilities, seats uniformly at random, seeded with ``seed``) are played;
    one state in ``stride`` and the last are probed for hidden information.

    A probe is evidence, not proof: a game that hides something only in rare positions should
    override :meth:`State.redact` or :meth:`State.determinize`, which are checked first."""
    key = (game.id, type(game).__qualname__, json.dumps(game.options.to_json(), sort_keys=True))
    cached = _TRAITS.get(key)
    if cached is not None:
        return cached
    hidden = type(game.initial_state()).redact is not State.redact
    zero_sum = True
    longest = 0
    rng = random.Random(seed)

    def probe(state: State[Any]) -> None:
        nonlocal hidden
        if not hidden and (state.ply % stride == 0 or state.is_terminal()):
            hidden = _hides(state, rng)

    for g in range(games):
        state = game.new_state(seed=seed + g)
        probe(state)
        playout(state, rng, lambda s, r: r.choice(s.legal_actions()), checked=True, on_ply=probe)
        longest = max(longest, state.ply)
        zero_sum = zero_sum and abs(sum(state.returns())) < 1e-9
    traits = Traits(hidden_information=hidden, zero_sum=zero_sum, longest=longest)
    _TRAITS[key] = traits
    return traits


def _hides(state: State[Any], rng: random.Random) -> bool:
    """Whether some seat's view of ``state`` hides something: its determinization differs from the
    state, or its observation differs from a spectator's beyond :data:`VIEWER_KEYS`."""
    doc = state.to_json()
    public = _strip(state.observation(SPECTATOR))
    for seat in range(state.num_players):
        if state.determinize(seat, random.Random(rng.random())).to_json() != doc:
            return True
        if _strip(state.observation(seat)) != public:
            return True
    return False


def _strip(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in VIEWER_KEYS}


__all__ = [
    "NO_ID",
    "Traits",
    "agent_names",
    "decision_actions",
    "decision_seats",
    "game_traits",
    "make_encoding",
]
