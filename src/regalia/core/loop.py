"""The one place where a ply happens that no seat chooses: chance's draw or an automaton's step.

Everything that runs a game (the match layer :mod:`regalia.match` for people, the searches'
playouts, the benchmarks, the research adapters) takes those plies through :func:`forced_step`,
and a whole game of trusted players through :func:`playout`. No other module draws chance or
steps an automaton in a loop (``tests/core/test_one_loop.py`` checks it).

>>> import random, regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=3)
>>> rng = random.Random(3)
>>> first = forced_step(state, rng)        # the setup is chance's
>>> state.current_player == CHANCE and state.is_legal(first)
True
>>> end = playout(state, rng)              # random play to the end
>>> end.is_terminal() and forced_step(end, rng) is None
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, TypeVar

from regalia.core.game import CHANCE, State

S = TypeVar("S", bound=State[Any])

#: A policy of a trusted player: an action of ``state.legal_actions()`` for the seat to act.
Choose = Callable[[State[Any], random.Random], Any]


def forced_step(state: State[Any], rng: random.Random | None) -> Any | None:
    """The action of the ply no seat chooses, if the next ply is one: chance's outcome drawn from
    ``rng`` (``None``: the state's own seeded source) or the forced step of an automaton seat;
    ``None`` when a seat with a choice is to act or the game is over. Nothing is applied."""
    player = state.current_player
    if player == CHANCE:
        return state.sample_chance(rng)
    if player >= 0 and player in state.automaton_seats():
        return state.forced_action()
    return None


def random_choice(state: State[Any], rng: random.Random) -> Any:
    """A uniformly random legal action (the policy of random playouts): one ``rng.random()``."""
    return state.uniform_action(rng.random())


def playout(
    state: S,
    rng: random.Random,
    choose: Choose = random_choice,
    *,
    decisions: int | None = None,
    checked: bool = False,
    on_ply: Callable[[State[Any]], None] | None = None,
) -> S:
    """Play ``state`` on in place, trusted: chance from ``rng``, automata's forced steps, every
    other seat's action from ``choose(state, rng)``; stop at the end of the game or right after
    the ``decisions``-th seat decision (``None``: no limit; nothing of chance's or an automaton's
    that follows it is applied). Returns ``state``.

    With ``checked`` false the actions go through the engine's fast path
    (:meth:`State.apply_unchecked`): ``choose`` must return an action of ``legal_actions()``.
    ``on_ply(state)`` is called after every ply."""
    apply = state.apply if checked else state.apply_unchecked
    automata = state.automaton_seats()
    limit = math.inf if decisions is None else decisions
    uniform = choose is random_choice  # the searches' hot path: no call per decision
    draw = rng.random
    made = 0
    while made < limit and not state.is_terminal():
        player = state.current_player
        if player == CHANCE:
            action = state.sample_chance(rng)
        elif automata and player in automata:
            action = state.forced_action()
        elif uniform:
            action = state.uniform_action(draw())
            made += 1
        else:
            action = choose(state, rng)
            made += 1
        apply(action)
        if on_ply is not None:
            on_ply(state)
    return state


def advance(state: State[Any], rng: random.Random | None = None) -> list[Any]:
    """Apply :func:`forced_step` plies (checked) until a seat with a choice is to act or the game
    is over; returns what was applied (:meth:`State.advance`)."""
    done: list[Any] = []
    while True:
        action = forced_step(state, rng)
        if action is None:
            return done
        state.apply(action)
        done.append(action)


__all__ = ["Choose", "advance", "forced_step", "playout", "random_choice"]
