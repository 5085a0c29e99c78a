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

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from regalia._mypyc import mypyc_attr, own_abc_caches
from regalia.core.errors import RegaliaError
from regalia.core.game import CHANCE, Game, State
from regalia.core.grid import Pos


class EncodingError(RegaliaError):
    """An action or id that the encoding cannot represent (outside the window, out of range)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Encoding(ABC):
    """A game's actions and observations as integers and tensors, for fixed options.

    Subclasses set :attr:`num_actions`, :attr:`num_chance_outcomes` and :attr:`observation_shape`
    in ``__init__`` and implement the abstract methods. They pass their own settings (a window
    size...) on to ``Encoding.__init__`` as keywords: :attr:`settings` keeps them, and an encoding
    pickles as its class, game and settings (:meth:`__reduce__`), made anew when unpickled.
    """

    game: Game[Any]
    #: The encoding's own settings as its ``__init__`` took them (``{}``: the defaults).
    settings: dict[str, Any]
    num_actions: int
    num_chance_outcomes: int
    observation_shape: tuple[int, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # the compiled build's classes need their own ABC caches (regalia._mypyc.own_abc_caches)
        own_abc_caches(cls)
        super().__init_subclass__(**kwargs)

    def __init__(self, game: Game[Any], **settings: Any) -> None:
        self.game = game
        self.settings = settings

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # made anew from its class, game and settings: the compiled build's encodings (ABCs that
        # interpreted classes may subclass) cannot pickle their attributes, and the caches an
        # encoding keeps need not travel
        return (_make, (type(self), self.game, self.settings))

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

    def legal_actions_by_id(self, state: State[Any]) -> dict[int, Any]:
        """The legal actions that have an id, by id: what :meth:`legal_ids` lists, with the action
        each id names (an environment's step looks its action up here instead of decoding the id
        again; ids and legal actions are one-to-one, which the conformance kit checks)."""
        out = {}
        for a in state.legal_actions():
            try:
                out[self.action_id(state, a)] = a
            except EncodingError:
                continue
        return out

    def legal_ids(self, state: State[Any]) -> list[int]:
        """The ids of the legal actions that have one, sorted."""
        return sorted(self.legal_actions_by_id(state))

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

#: A block of an encoding's layout: its name, shape and meaning.
Block = tuple[str, tuple[int, ...], str]


class Frame(NamedTuple):
    """A window seen from a seat: its leftmost column ``x0`` and top row ``y1`` in the seat's own
    coordinates, which are the board's turned by 180 degrees (``(x, y) -> (-x, -y)``) when
    ``turned`` (a seat that sits on the far side of the board)."""

    x0: int
    y1: int
    turned: bool = False


@mypyc_attr(allow_interpreted_subclasses=True)
class WindowEncoding(Encoding, Generic[S]):
    """An encoding that sees an unbounded board through a window of :attr:`width` columns by
    :attr:`height` rows, one :class:`Frame` per seat: ids are made in the frame of the seat to act
    (seat 0's at chance and at the end), the observation of a seat is drawn in its own frame.

    The base holds what every window means the same way: the window cell of a board position
    (:meth:`cell`, row 0 at the top, ``row * width + column``) and back (:meth:`position`), the
    pieces the window leaves out (:meth:`clipped`), the observation's layout (board planes of
    ``(height, width)``, then flat blocks: :meth:`_lay_out`, :meth:`layout`, :meth:`board_planes`)
    and the drawing of an observation (:meth:`observation_tensor` checks the seat, makes the tensor
    and hands it to :meth:`_observe`).

    Subclasses call :meth:`_set_window` and :meth:`_lay_out` in ``__init__``, implement
    :meth:`frame` (where the window lies), :meth:`_id` (the id of an action in a given frame) and
    :meth:`_observe`, and may narrow :meth:`_state` (the game's own state, or
    :class:`EncodingError`) and :meth:`_pieces` (what :meth:`clipped` counts)."""

    width: int
    height: int
    cells: int
    #: The board planes, in order: (name, meaning); :attr:`plane_index` maps a name to its index.
    planes: list[tuple[str, str]]
    plane_index: dict[str, int]
    #: The flat blocks after the board planes, in order, and where each starts in the tensor.
    blocks: list[Block]
    offsets: dict[str, int]
    #: How the action texts of an error name a cell of the board (``position``, ``square``).
    cell_word = "position"

    # ------------------------------------------------------------------ set-up
    def _set_window(self, width: int, height: int) -> None:
        """The window's size: ``width`` columns by ``height`` rows."""
        self.width = width
        self.height = height
        self.cells = width * height

    def _lay_out(self, planes: Sequence[tuple[str, str]], blocks: Sequence[Block]) -> None:
        """The observation: one ``(height, width)`` plane per entry of ``planes``, then ``blocks``
        (sets :attr:`planes`, :attr:`plane_index`, :attr:`blocks`, :attr:`offsets` and
        :attr:`observation_shape`)."""
        self.planes = list(planes)
        self.plane_index = {name: i for i, (name, _) in enumerate(self.planes)}
        self.blocks = list(blocks)
        self.offsets = {}
        at = len(self.planes) * self.cells
        for name, shape, _ in self.blocks:
            self.offsets[name] = at
            at += math.prod(shape)
        self.observation_shape = (at,)

    def _state(self, state: State[Any]) -> S:
        """``state`` as the game's state type (raise :class:`EncodingError` for another game's)."""
        return state  # type: ignore[return-value]

    # ------------------------------------------------------------------ the window
    @abstractmethod
    def frame(self, state: State[Any], seat: int) -> Frame:
        """The window of ``state`` as ``seat`` sees it."""

    def cell(self, frame: Frame, pos: Pos) -> int:
        """The window cell (``row * width + column``, row 0 at the top: the far side from the
        seat) of a board position, or -1 outside the window."""
        x, y = pos
        if frame.turned:
            x, y = -x, -y
        col = x - frame.x0
        row = frame.y1 - y
        if 0 <= col < self.width and 0 <= row < self.height:
            return row * self.width + col
        return -1

    def cell_in(self, frame: Frame) -> Callable[[Pos], int]:
        """:meth:`cell` for one frame, as a function of the position alone: what an observation's
        loops call for every piece (the frame's fields read once)."""
        w, h = self.width, self.height
        x0, y1 = frame.x0, frame.y1
        sign = -1 if frame.turned else 1

        def cell(pos: Pos) -> int:
            col = sign * pos[0] - x0
            row = y1 - sign * pos[1]
            return row * w + col if 0 <= col < w and 0 <= row < h else -1

        return cell

    def position(self, frame: Frame, cell: int) -> Pos:
        """The board position of a window cell (the inverse of :meth:`cell`)."""
        row, col = divmod(cell, self.width)
        x, y = frame.x0 + col, frame.y1 - row
        return (-x, -y) if frame.turned else (x, y)

    def _pieces(self, state: S) -> Iterable[Pos]:
        """The occupied positions :meth:`clipped` counts (by default the keys of ``state.board``)."""
        game_state: Any = state  # a game's state with a ``board`` mapping positions to pieces
        board: Iterable[Pos] = game_state.board
        return board

    def clipped(self, state: State[Any], seat: int = 0) -> int:
        """How many pieces lie outside ``seat``'s window (0: the whole board is seen)."""
        s = self._state(state)
        fr = self.frame(s, seat)
        cell = self.cell
        return sum(1 for p in self._pieces(s) if cell(fr, p) < 0)

    def board_fits(self, state: State[Any]) -> bool:
        """Whether the whole board lies inside the window (the observation loses nothing)."""
        return self.clipped(state) == 0

    # ------------------------------------------------------------------ actions -> ids
    @abstractmethod
    def _id(self, state: S, frame: Frame, action: Any) -> int:
        """The id of ``action`` in ``frame``; raises :class:`EncodingError` when it has none."""

    def _seat(self, state: State[Any]) -> int:
        player = state.current_player
        return player if player >= 0 else 0

    def action_id(self, state: State[Any], action: Any) -> int:
        s = self._state(state)
        return self._id(s, self.frame(s, self._seat(s)), action)

    def legal_actions_by_id(self, state: State[Any]) -> dict[int, Any]:
        """The legal actions that have an id, by id (one frame for the state)."""
        s = self._state(state)
        fr = self.frame(s, self._seat(s))
        out = {}
        for a in s.legal_actions():
            try:
                out[self._id(s, fr, a)] = a
            except EncodingError:
                continue
        return out

    def _cell_of(self, state: S, frame: Frame, pos: Pos | None, action: Any) -> int:
        """The cell of ``pos`` (a position ``action`` names) in ``frame``; raises
        :class:`EncodingError` when there is none or it lies outside the window."""
        if pos is None:
            raise EncodingError(f"{action!r} names no {self.cell_word}")
        cell = self.cell(frame, pos)
        if cell < 0:
            raise EncodingError(
                f"{self._text(state, action)}: {self.cell_word} {pos[0]},{pos[1]} is outside the "
                f"{self.width}x{self.height} window"
            )
        return cell

    def _text(self, state: S, action: Any) -> str:
        """``action`` in notation, for an error (its ``repr`` when it has none)."""
        try:
            return state.notation(action)
        except Exception:  # a malformed action has no notation
            return repr(action)

    # ------------------------------------------------------------------ observation
    def layout(self) -> list[Block]:
        """The blocks in order: one ``board.NAME`` plane of ``(height, width)`` per board feature
        (row 0 is the top of the seat's window), then the flat blocks."""
        out: list[Block] = [(f"board.{name}", (self.height, self.width), m) for name, m in self.planes]
        return out + self.blocks

    def board_planes(self, tensor: Any) -> Any:
        """The board part of an observation as ``(planes, height, width)`` (a view, no copy)."""
        n = len(self.planes)
        return tensor[: n * self.cells].reshape(n, self.height, self.width)

    def observation_tensor(self, state: State[Any], seat: int) -> Any:
        s = self._state(state)
        n = s.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise EncodingError(f"seat {seat!r} is not a seat of {self.game.name} (0 to {n - 1})")
        import numpy as np

        out = np.zeros(self.observation_shape, dtype=np.float32)
        self._observe(s, seat, self.frame(s, seat), out)
        return out

    @abstractmethod
    def _observe(self, state: S, seat: int, frame: Frame, out: Any) -> None:
        """Draw what ``seat`` sees of ``state`` into ``out`` (zeros of :attr:`observation_shape`),
        the board planes in ``frame``."""


own_abc_caches(Encoding)


def _make(cls: type[Encoding], game: Game[Any], settings: dict[str, Any]) -> Encoding:
    """An encoding of class ``cls`` for ``game`` with ``settings`` (what :meth:`Encoding.__reduce__`
    pickles)."""
    return cls(game, **settings)


__all__ = ["Block", "Encoding", "EncodingError", "Frame", "WindowEncoding"]
