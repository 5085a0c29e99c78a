"""The encoding interface: integer actions, legal masks and observation tensors for learning.

Research frameworks (PettingZoo, OpenSpiel) need a fixed number of actions, dense integer action
ids, a legal-action mask and a fixed-shape observation tensor per seat. Each game implements one
:class:`Encoding` beside its engine (``games/<game>/encoding.py``) and declares it in its plugin
(``Plugin.encoding(game)``); adapters use only this interface, so a new game needs no adapter code.

* Seat actions have ids ``0 .. num_actions - 1``; chance's outcomes have their own ids
  ``0 .. num_chance_outcomes - 1`` (as in OpenSpiel, where chance nodes list their outcomes).
* An id is meaningful in the state it is asked for: :meth:`Encoding.action_id` and
  :meth:`Encoding.action_from_id` take the state.
* Unbounded boards are seen through a documented bounded window. :meth:`Encoding.fits` says whether
  every legal action of a state has an id; for a state that does not fit, the mask holds the legal
  actions that do (and a learner may not choose the others).
* :meth:`Encoding.observation_tensor` holds only what its seat may see; its layout is documented by
  :meth:`Encoding.layout` (name, shape and meaning of each block).

numpy is imported by the encodings themselves (an extra: ``pip install 'regalia[rl]'``), never by
the engine.

>>> from regalia.core.registry import game_plugin, load_game
>>> game = load_game("two-heirs")
>>> encoding = game_plugin("two-heirs").encoding(game)
>>> encoding.num_actions > 0 and len(encoding.observation_shape) == 1
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from regalia.core.errors import RegaliaError
from regalia.core.game import CHANCE, Game, State


class EncodingError(RegaliaError):
    """An action or id that the encoding cannot represent (outside the window, out of range)."""


class Encoding(ABC):
    """A game's actions and observations as integers and tensors, for fixed options.

    Subclasses set :attr:`num_actions`, :attr:`num_chance_outcomes` and :attr:`observation_shape`
    in ``__init__`` and implement the abstract methods.
    """

    game: Game[Any]
    num_actions: int
    num_chance_outcomes: int
    observation_shape: tuple[int, ...]

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    @abstractmethod
    def action_id(self, state: State[Any], action: Any) -> int:
        """The id of ``action`` in ``state`` (a chance outcome's id at a chance node); raises
        :class:`EncodingError` when the action has none (outside the window)."""

    @abstractmethod
    def action_from_id(self, state: State[Any], action_id: int) -> Any:
        """The action with id ``action_id`` in ``state``; raises :class:`EncodingError` for an id
        that names no action of the kind to act there."""

    @abstractmethod
    def observation_tensor(self, state: State[Any], seat: int) -> Any:
        """A float32 numpy array of shape :attr:`observation_shape`: what ``seat`` sees of ``state``."""

    @abstractmethod
    def layout(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The blocks of the observation tensor, in order: (name, shape, meaning)."""

    def size(self, state: State[Any]) -> int:
        """The number of ids of the kind to act in ``state`` (chance outcomes at a chance node)."""
        return self.num_chance_outcomes if state.current_player == CHANCE else self.num_actions

    def representable(self, state: State[Any], action: Any) -> bool:
        """Whether ``action`` has an id in ``state``."""
        try:
            self.action_id(state, action)
        except EncodingError:
            return False
        return True

    def fits(self, state: State[Any]) -> bool:
        """Whether every legal action of ``state`` has an id (the position fits the window)."""
        return all(self.representable(state, a) for a in state.legal_actions())

    def legal_ids(self, state: State[Any]) -> list[int]:
        """The ids of the legal actions that have one, sorted."""
        out = []
        for a in state.legal_actions():
            try:
                out.append(self.action_id(state, a))
            except EncodingError:
                continue
        return sorted(out)

    def legal_mask(self, state: State[Any]) -> Any:
        """An int8 numpy array of :meth:`size` entries: 1 for the ids of legal actions."""
        import numpy as np

        mask = np.zeros(self.size(state), dtype=np.int8)
        mask[self.legal_ids(state)] = 1
        return mask

    def chance_ids(self, state: State[Any]) -> list[tuple[int, float]]:
        """Chance's outcomes as (id, probability) pairs (empty when chance is not to act)."""
        return [(self.action_id(state, a), p) for a, p in state.chance_outcomes()]


S = TypeVar("S", bound=State[Any])  # the game's state type
F = TypeVar("F")  # a window as one seat sees it


class WindowEncoding(Encoding, Generic[S, F]):
    """An encoding that sees an unbounded board through a window, one frame per seat: ids are made
    in the frame of the seat to act (seat 0's at chance and at the end).

    Subclasses implement :meth:`frame`, :meth:`_id` (the id of an action in a given frame) and
    :meth:`clipped`, and may narrow :meth:`_state` (the game's own state, or
    :class:`EncodingError`)."""

    def _state(self, state: State[Any]) -> S:
        """``state`` as the game's state type (raise :class:`EncodingError` for another game's)."""
        return state  # type: ignore[return-value]

    @abstractmethod
    def frame(self, state: State[Any], seat: int) -> F:
        """The window of ``state`` as ``seat`` sees it."""

    @abstractmethod
    def _id(self, state: S, frame: F, action: Any) -> int:
        """The id of ``action`` in ``frame``; raises :class:`EncodingError` when it has none."""

    @abstractmethod
    def clipped(self, state: State[Any], seat: int = 0) -> int:
        """How many pieces lie outside ``seat``'s window (0: the whole board is seen)."""

    def board_fits(self, state: State[Any]) -> bool:
        """Whether the whole board lies inside the window (the observation loses nothing)."""
        return self.clipped(state) == 0

    def _seat(self, state: State[Any]) -> int:
        player = state.current_player
        return player if player >= 0 else 0

    def action_id(self, state: State[Any], action: Any) -> int:
        s = self._state(state)
        return self._id(s, self.frame(s, self._seat(s)), action)

    def legal_ids(self, state: State[Any]) -> list[int]:
        """The ids of the legal actions that have one, sorted (one frame for the state)."""
        s = self._state(state)
        fr = self.frame(s, self._seat(s))
        out = []
        for a in s.legal_actions():
            try:
                out.append(self._id(s, fr, a))
            except EncodingError:
                continue
        return sorted(out)


__all__ = ["Encoding", "EncodingError", "WindowEncoding"]
