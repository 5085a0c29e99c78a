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

import random
import sys
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


def policy_choice(state: State[Any], rng: random.Random) -> Any:
    """The game's informed rollout policy (:meth:`State.policy_action`; uniformly random unless
    the game says otherwise)."""
    return state.policy_action(rng)


def playout(
    state: S,
    rng: random.Random,
    choose: Choose = random_choice,
    *,
    decisions: int | None = None,
    to_turn_end: bool = False,
    checked: bool = False,
    on_ply: Callable[[State[Any]], None] | None = None,
) -> S:
    """Play ``state`` on in place, trusted: chance from ``rng``, automata's forced steps, every
    other seat's action from ``choose(state, rng)``; stop at the end of the game or right after
    the ``decisions``-th seat decision (``None``: no limit; nothing of chance's or an automaton's
    that follows it is applied). With ``to_turn_end`` the stop waits for a turn's end instead:
    the seat that made the ``decisions``-th decision plays on while it is to act, chance's and
    the automata's plies that follow are applied, and play stops when another seat with a choice
    is to act, or the same seat again after an automaton has acted (a search's cut rollout is
    then valued where the turn's consequences are on the board: in The Two Heirs' solo game,
    after Henry's reply). Returns ``state``.

    With ``checked`` false the actions go through the engine's fast path
    (:meth:`State.apply_unchecked`): ``choose`` must return an action of ``legal_actions()``.
    ``on_ply(state)`` is called after every ply.

    >>> import regalia
    >>> state = regalia.load_game("two-heirs", solo=True).new_state(seed=4)
    >>> rng = random.Random(4)
    >>> _ = playout(state, rng, decisions=1)
    >>> _ = playout(state, rng, decisions=1, to_turn_end=True)
    >>> state.current_player, state.is_terminal()  # the player again, after Henry's turn
    (0, False)
    """
    automata = state.automaton_seats()
    limit = sys.maxsize if decisions is None else decisions  # an int: compared natively when compiled
    uniform = choose is random_choice  # the searches' hot path: no call per decision
    draw = rng.random
    made = 0
    last = CHANCE  # the seat of the last decision
    crossed = False  # an automaton has acted since the last decision
    while not state.is_terminal():
        player = state.current_player
        if made >= limit and (
            not to_turn_end
            or (player != CHANCE and not (automata and player in automata) and (crossed or player != last))
        ):
            break
        if player == CHANCE:
            action = state.sample_chance(rng)
        elif automata and player in automata:
            action = state.forced_action()
            crossed = True
        else:
            action = state.uniform_action(draw()) if uniform else choose(state, rng)
            made += 1
            last = player
            crossed = False
        if checked:  # a method called by name, not a bound method kept: the compiled build calls it directly
            state.apply(action)
        else:
            state.apply_unchecked(action)
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


__all__ = ["Choose", "advance", "forced_step", "playout", "policy_choice", "random_choice"]
