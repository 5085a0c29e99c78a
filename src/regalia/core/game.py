"""The game-agnostic contract: :class:`Game` and :class:`State`.

Every algorithm (AI, lab, server, research adapters) uses only these names. A game is a
:class:`Game` subclass registered by id in :mod:`regalia.core.registry`; its positions are
:class:`State` objects, changed in place by :meth:`State.apply` and copied by :meth:`State.clone`.

Seats are numbered from 0. :data:`CHANCE` is the "seat" of chance and :data:`TERMINAL` the value of
:attr:`State.current_player` once the game is over (the ids OpenSpiel uses).

Chance is explicit: when the rules draw (a tile from a pile, a coin flip, a treasure token), chance
is to act; its legal actions are the outcomes, :meth:`State.chance_outcomes` gives them with their
probabilities, and :meth:`State.sample_chance` picks one. Nothing about future draws is decided
before they happen, so a record lists the outcomes that occurred as ordinary actions and replays
without any seed. The seed given to :meth:`Game.new_state` is only the default source of chance,
never written to a record or a state document.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=7)
>>> state.current_player == CHANCE   # the setup deals the royal reserve
True
>>> drawn = state.advance()           # chance acts, from the seed
>>> state.current_player in (0, 1), drawn[0].kind
(True, 'first')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Final, Generic, NamedTuple, Self, cast

from typing_extensions import TypeVar  # with defaults (PEP 696), which typing has from 3.13

from regalia._mypyc import mypyc_attr, own_abc_caches, pickle_own_attributes
from regalia.core.errors import IllegalAction, NotationError, OptionError, PositionError, RegaliaError
from regalia.core.options import JSON, Options, parse_option_pairs
from regalia.core.plugin import Plugin

A = TypeVar("A", bound=Hashable)
#: A game's options class (:class:`Game` is generic over it: ``Game[Action, MyOptions]``).
OptionsT = TypeVar("OptionsT", bound=Options, default=Options)

#: :attr:`State.current_player` while chance is to act.
CHANCE: Final[int] = -1
#: :attr:`State.current_player` once the game is over.
TERMINAL: Final[int] = -4
#: A viewer that sees everything (the engine itself; records of finished games, saves, replays).
OMNISCIENT: Final[int] = -2
#: A viewer with no seat (``observation(SPECTATOR)``): sees what every seat may see.
SPECTATOR: Final[None] = None
#: The plugin of a game that declares none: every hook's default.
_NO_PLUGIN: Final[Plugin[Any]] = Plugin()

__all__ = [
    "CHANCE",
    "JSON",
    "OMNISCIENT",
    "SPECTATOR",
    "TERMINAL",
    "CachedState",
    "Game",
    "Options",
    "Ply",
    "State",
    "fresh_seed",
    "notation_error",
    "parse_option_pairs",
    "ranked_returns",
    "single_best",
]


# Every game's class subclasses it, compiled or not (mypyc: a compiled class allows no interpreted
# subclass by default).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[A, OptionsT]):
    """A game with fixed options: a factory of states.

    Subclasses set ``id``, ``name``, ``min_players``, ``max_players`` and ``options_class``,
    override :meth:`plugin` to return the game's :class:`~regalia.core.plugin.Plugin` (the base
    class's defaults otherwise), and may set ``rollout_depth``: how many seat decisions a search's
    random playout should make before it values the state with ``State.evaluate`` (for a game
    whose playouts are long and noisy and whose evaluation is good); ``None`` (the default) plays
    them to the end; and ``widening``: the search's progressive widening factor for the game (a
    decision node considers only its ``ceil(widening * sqrt(visits + 1))`` best actions by the
    evaluation after each, for games whose decisions have many actions; ``None``, the default,
    considers every action). Where they depend on the options, :meth:`search_defaults` says so.

    A game is generic over its action type and its options class (``Game[Action, MyOptions]``), so
    ``game.options.name`` is typed.

    >>> import regalia
    >>> game = regalia.load_game("two-heirs")
    >>> game.num_players, game.initial_state().current_player == CHANCE
    (2, True)
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_class: ClassVar[type[Options]]
    rollout_depth: ClassVar[int | None] = None
    widening: ClassVar[float | None] = None

    @classmethod
    def __init_subclass__(cls, **kwargs: Any) -> None:
        # the compiled build's classes need their own ABC caches (regalia._mypyc.own_abc_caches)
        own_abc_caches(cls)
        super().__init_subclass__(**kwargs)

    def search_defaults(self) -> dict[str, Any]:
        """The search parameters that suit this game with its options, for the agents that leave
        them to the game (:class:`regalia.ai.MCTSAgent`'s ``depth``, ``widen`` and ``margin`` by
        default): ``depth`` (seat decisions a rollout makes before the evaluation values it;
        ``None``: to the end) and ``widen`` (progressive widening) from the class's
        ``rollout_depth`` and ``widening``; a game may add ``margin`` (the final score difference's
        share of a finished rollout's value), ``eval_scale`` (the score difference worth
        ``tanh(1)`` of a game) and ``cut`` (``"decision"`` or ``"turn"``: where a cut rollout
        stops) or tell them by its options (The Two Heirs' solo game).

        >>> import regalia
        >>> regalia.load_game("carcassonne").search_defaults()
        {'depth': 10, 'widen': None}
        """
        return {"depth": self.rollout_depth, "widen": self.widening}

    def heuristics(self) -> dict[str, str]:
        """The search heuristics a search may be told to use (:class:`regalia.ai.MCTSAgent`'s
        ``heuristic``), by name: the name of the :class:`State` method ``(seat) -> float`` that
        computes it. ``evaluate`` (:meth:`State.evaluate`, the game's own) and ``score``
        (:meth:`State.score_lead`) for every game; a game adds its own, so that a new heuristic
        can be tested head to head against the one in use before it replaces it.

        >>> import regalia
        >>> regalia.load_game("royal-court").heuristics()
        {'evaluate': 'evaluate', 'score': 'score_lead'}
        """
        return {"evaluate": "evaluate", "score": "score_lead"}

    def zero_sum_heuristics(self) -> bool:
        """Whether, with two seats, every heuristic of :meth:`heuristics` is zero-sum: its value
        for seat 1 is minus its value for seat 0, in every position. A search then computes it
        once for both seats (:func:`regalia.ai.base.heuristic_values`). The conformance kit
        checks the claim. Default: ``False`` (every seat's value is computed).

        >>> import regalia
        >>> regalia.load_game("royal-court").zero_sum_heuristics()
        True
        """
        return False

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        """What the game offers beyond its engine (renderers, rulebook, encoding...).

        A game overrides it and imports its plugin module inside the body, so loading the game
        does not import its renderers. The default is :class:`~regalia.core.plugin.Plugin` itself:
        every hook's default.
        """
        return _NO_PLUGIN

    options: OptionsT

    def __init__(self, options: OptionsT | None = None, **values: Any) -> None:
        if options is None:
            # options_class is OptionsT at run time (a class variable cannot name a type variable)
            options = cast(OptionsT, self.options_class.from_mapping(values))
        elif values:
            raise OptionError("give either an Options object or option values, not both")
        self.options = options
        players = getattr(options, "players", None)
        if players is not None and not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"option players: {self.name} is played by {self.min_players} to {self.max_players}, "
                f"got {players}"
            )
        # read once: a state asks at every turn (options are frozen)
        self._seats = self.min_players if players is None else int(players)

    @property
    def num_players(self) -> int:
        """The number of seats: the option ``players`` where the game has a choice."""
        return self._seats

    def automaton_seats(self) -> tuple[int, ...]:
        """Seats the rules play themselves with these options (a solo automaton); see
        :meth:`State.automaton_seats`."""
        return ()

    def seat_names(self) -> list[str]:
        """Display names of the seats (``seat 1``, ``seat 2``... by default)."""
        return [f"seat {i + 1}" for i in range(self.num_players)]

    @abstractmethod
    def initial_state(self) -> State[A]:
        """The start of a game, before any chance outcome (often a chance node)."""

    def new_state(self, seed: int | None = None) -> State[A]:
        """:meth:`initial_state` with ``seed`` as the default source of chance (``None``: a random one)."""
        state = self.initial_state()
        state.seed = fresh_seed() if seed is None else seed
        return state

    @abstractmethod
    def state_from_json(self, doc: JSON) -> State[A]:
        """The inverse of :meth:`State.to_json`; raises :class:`PositionError` naming a bad field."""

    @classmethod
    def options_schema(cls) -> list[JSON]:
        """The options (names, types, choices, defaults, help) a form or a command can offer."""
        return cls.options_class.schema()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.options}>"


own_abc_caches(Game)


def fresh_seed() -> int:
    """A random seed for games created without one."""
    return random.SystemRandom().randrange(2**31)


class Ply(NamedTuple):
    """One applied action: who acted (a seat or :data:`CHANCE`), the action, its notation."""

    player: int
    action: Any
    text: str


#: A state's game class (:class:`State` is generic over it: ``State[Action, MyGame]``).
#: Covariant: a ``State[Action, MyGame]`` is a ``State[Action, Game]`` (the default), whose ``game``
#: is read, and set only by the state itself.
G = TypeVar("G", bound=Game[Any, Any], default=Game[Any, Any], covariant=True)


# serializable: a compiled game's states pickle (their __new__ then does not run __init__)
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class State(ABC, Generic[A, G]):
    """A position of a game, with its history. Mutable: :meth:`apply` changes it in place.

    The core keeps the history: each applied action with the seat that acted and its notation
    written at apply time. Subclasses implement the abstract methods and copy the base slots in
    :meth:`clone` with :meth:`_copy_base`.
    """

    __slots__ = ("_hist", "_ply", "game", "seed")

    game: G
    #: The default source of chance (see :meth:`sample_chance`); never serialised.
    seed: int | None
    _hist: Any  # (previous node, player, action, text or None) or None
    _ply: int

    @classmethod
    def __init_subclass__(cls, **kwargs: Any) -> None:
        # the compiled build's classes need their own ABC caches, and a game's state class written
        # in Python its own attributes pickled (regalia._mypyc: own_abc_caches, pickle_own_attributes)
        own_abc_caches(cls)
        pickle_own_attributes(cls)
        super().__init_subclass__(**kwargs)

    def __init__(self, game: G, seed: int | None = None) -> None:
        """Set the base slots of a new state. A game's states are made through it (``cls(game,
        seed)``, also in :meth:`clone`), never ``cls.__new__(cls)``: the compiled build's
        ``__new__`` runs ``__init__``."""
        self.game = game
        self.seed = seed
        self._hist = None
        self._ply = 0

    def _copy_base(self, other: Self) -> None:
        """Copy the base slots of ``self`` into ``other`` (for :meth:`clone`)."""
        other.game = self.game
        other.seed = self.seed
        other._hist = self._hist
        other._ply = self._ply

    # -- the contract ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.game.num_players

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE`, or :data:`TERMINAL` once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every action the current player may take; chance's outcomes at a chance node; empty when over."""

    def uniform_action(self, u: float) -> A:
        """The legal action a uniform draw ``u`` in ``[0, 1)`` picks: ``legal_actions()[int(u * n)]``
        for the ``n`` legal actions (what random playouts and rollouts play). A game may find it
        without listing every action, but must pick that same one: records and searches stay the
        same for the same seed."""
        legal = self.legal_actions()
        return legal[int(u * float(len(legal)))]  # float(): the compiled build multiplies natively

    def policy_action(self, rng: random.Random) -> A:
        """The legal action a rollout's informed policy plays (``mcts:...:rollout=policy``),
        drawing only from ``rng``. By default uniformly random, as :meth:`uniform_action`; a game
        may prefer some actions to others. A guess for search, never a rule."""
        return self.uniform_action(rng.random())

    @abstractmethod
    def check(self, action: A) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is illegal here."""

    @abstractmethod
    def _apply(self, action: A) -> None:
        """The effect of an action already known to be legal (the history is kept by the core)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat (final scoring when terminal, the current standing otherwise)."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (cheap: shares immutable parts)."""

    @abstractmethod
    def observation(self, viewer: int | None = SPECTATOR) -> JSON:
        """A JSON-able view of what ``viewer`` (a seat, or :data:`SPECTATOR`) may see, nothing more."""

    @abstractmethod
    def notation(self, action: A) -> str:
        """The full notation of an action in this state; :meth:`parse_action` reads it back."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The action written ``text``; raises :class:`NotationError` on malformed text."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The complete state as a JSON-able dict (``Game.state_from_json`` reads it back).

        It never holds :attr:`seed`: only what has happened, nothing about future draws."""

    # -- results --------------------------------------------------------------------------
    def score_now(self) -> list[int]:
        """Points per seat if the game ended here, by the rules' end-of-game scoring (a game ended
        early: a resignation agreed on, a closing time, a study of a position); the state is not
        changed. A finished game's :meth:`scores`. A game whose calculator scores a state
        (``Calculator.score_state``) is scored by it (Carcassonne: the final scoring of the board as
        it lies); otherwise :meth:`scores`, which such a game counts now as its end would (docs/
        contract.md, "Seats, chance and the end")."""
        if self.is_terminal():
            return self.scores()
        calculator = self.game.plugin().calculator
        if calculator is not None and calculator.score_state is not None:
            return [int(t) for t in calculator.score_state(self).totals]
        return self.scores()

    def returns(self) -> list[float]:
        """Per seat, in [-1, 1] when terminal (rank by :meth:`scores`, see :func:`ranked_returns`);
        zeros before."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return ranked_returns(self.scores())

    def winner(self) -> int | None:
        """The seat with the single best return of a finished game; ``None`` for a shared first
        place, a draw or an unfinished game."""
        if not self.is_terminal():
            return None
        return single_best(self.returns())

    # -- chance -----------------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        """True while chance is to act."""
        return self.current_player == CHANCE

    def chance_outcomes(self) -> list[tuple[A, float]]:
        """The outcomes chance may produce now, with their probabilities (empty when chance is not
        to act). By default every legal action is equally likely; games override it."""
        if self.current_player != CHANCE:
            return []
        legal = self.legal_actions()
        p = 1.0 / len(legal)
        return [(a, p) for a in legal]

    def sample_chance(self, rng: random.Random | None = None) -> A:
        """A chance outcome drawn with its probability from ``rng``.

        Without ``rng`` the state's own source is used: derived from :attr:`seed` and the number of
        actions applied so far, so the same seed replays the same draws.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise RegaliaError("chance is not to act here")
        r = (rng or self._chance_rng()).random()
        total = 0.0
        for action, p in outcomes:
            total += p
            if r < total:
                return action
        return outcomes[-1][0]

    def _chance_rng(self) -> random.Random:
        if self.seed is None:
            return random.Random(random.SystemRandom().getrandbits(64))
        return random.Random(f"regalia-chance:{self.seed}:{self._ply}")

    def forced_action(self) -> A:
        """The only action of an automaton seat to act (see :meth:`automaton_seats`)."""
        legal = self.legal_actions()
        if len(legal) != 1:
            raise RegaliaError(f"expected one forced action, found {len(legal)}")
        return legal[0]

    def advance(self, rng: random.Random | None = None) -> list[A]:
        """Apply chance outcomes and automaton actions until a seat with a choice is to act (or the
        game is over); returns what was applied (:func:`regalia.core.loop.advance`)."""
        from regalia.core.loop import advance

        return advance(self, rng)

    # -- applying ---------------------------------------------------------------------------
    def apply(self, action: A) -> None:
        """Apply ``action``; an illegal one raises :class:`IllegalAction` and changes nothing."""
        self.check(action)
        self._hist = (self._hist, self.current_player, action, self.notation(action))
        self._ply += 1
        self._apply(action)

    def apply_unchecked(self, action: A) -> None:
        """The fast path for trusted callers (AI search, the lab): apply an action taken from
        :meth:`legal_actions` of this very state, without checking it or writing its notation.

        An action from anywhere else may corrupt the state. The notation of such plies is written
        when a record asks for it (by replaying the actions).
        """
        self._hist = (self._hist, self.current_player, action, None)
        self._ply += 1
        self._apply(action)

    def apply_text(self, text: str) -> A:
        """Parse and apply an action written in notation; returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def is_legal(self, action: A) -> bool:
        """True if :meth:`apply` would accept ``action``."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def parse_or_raise(self, text: str) -> A:
        """Like :meth:`parse_action`, but also checks legality (for user input)."""
        action = self.parse_action(text)
        self.check(action)
        return action

    # -- history and views --------------------------------------------------------------------
    @property
    def ply(self) -> int:
        """The number of actions applied since the start (chance outcomes included)."""
        return self._ply

    @property
    def history(self) -> list[A]:
        """Every action applied since the start, in order."""
        out: list[A] = []
        node = self._hist
        while node is not None:
            out.append(node[2])
            node = node[0]
        out.reverse()
        return out

    def actors(self) -> list[tuple[int, A]]:
        """Every applied action with the seat that acted (cheaper than :meth:`plies`: no notation)."""
        out: list[tuple[int, A]] = []
        node = self._hist
        while node is not None:
            out.append((node[1], node[2]))
            node = node[0]
        out.reverse()
        return out

    def plies(self, start: int = 0) -> list[Ply]:
        """Every applied action with the seat that acted and its notation, in order (from the
        ``start``-th on: only those are visited, so reading the newest plies is cheap)."""
        nodes = []
        node = self._hist
        for _ in range(max(0, self._ply - start)):
            nodes.append(node)
            node = node[0]
        nodes.reverse()
        if any(n[3] is None for n in nodes):
            return self._replayed_plies(self.history)[start:]
        return [Ply(n[1], n[2], n[3]) for n in nodes]

    def last_ply(self) -> Ply:
        """The last applied action with the seat that acted and its notation (cheaper than
        ``plies()[-1]``); raises :class:`RegaliaError` before the first ply."""
        node = self._hist
        if node is None:
            raise RegaliaError("no ply has been played yet")
        if node[3] is None:
            return self.plies()[-1]
        return Ply(node[1], node[2], node[3])

    def history_json(self) -> list[list[Any]]:
        """The history for a state document: ``[[player, notation], ...]``."""
        return [[p.player, p.text] for p in self.plies()]

    def _restore_history(self, items: Any, field: str = "history") -> None:
        """Rebuild the history from :meth:`history_json`'s list, naming a bad entry."""
        if not isinstance(items, list):
            raise PositionError(f"field {field!r}: expected a list of [player, notation]")
        node: Any = None
        for i, item in enumerate(items):
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not isinstance(item[0], int)
                or isinstance(item[0], bool)
                or not isinstance(item[1], str)
            ):
                raise PositionError(f"field '{field}[{i}]': expected [player, notation]")
            try:
                action = self.parse_action(item[1])
            except NotationError as exc:
                raise PositionError(f"field '{field}[{i}]': {exc}") from None
            node = (node, item[0], action, item[1])
        self._hist = node
        self._ply = len(items)

    @classmethod
    def replay_document(cls, start: Self, doc: JSON, complete: bool = True) -> Self:
        """The state a state document describes, for games whose document is their history plus
        the view it reaches: ``doc["history"]`` is replayed from ``start`` (a new game's first
        state), every action checked, and every other field of ``doc`` must be one the state
        writes, equal to it; with ``complete`` every field the state writes must be there too
        (without, a document may leave fields out). The first field that is wrong is named
        (``field 'history[3]': ...``, ``unknown field 'x'``)."""
        if "history" not in doc:
            raise PositionError("field 'history' is missing")
        probe = start.clone()
        probe._restore_history(doc["history"])
        state = start
        for i, (player, action) in enumerate(probe.actors()):
            if player != state.current_player:
                raise PositionError(
                    f"field 'history[{i}]': seat {player} acted, but {state.current_player} was to act"
                )
            try:
                state.apply(action)
            except RegaliaError as exc:
                raise PositionError(f"field 'history[{i}]': {exc}") from None
        mine = state.to_json()
        for key, value in doc.items():
            if key not in mine:
                raise PositionError(f"unknown field {key!r}")
            if mine[key] != value:
                raise PositionError(f"field {key!r} disagrees with the history")
        missing = sorted(set(mine) - set(doc)) if complete else []
        if missing:
            raise PositionError(f"field {missing[0]!r} is missing")
        return state

    def _replayed_plies(self, actions: Sequence[A]) -> list[Ply]:
        """The plies of ``actions`` replayed from the start, each written in its own state."""
        state = self.game.initial_state()
        out = []
        for a in actions:
            out.append(Ply(state.current_player, a, state.notation(a)))
            state.apply_unchecked(a)
        return out

    def legal_for(self, viewer: int | None) -> list[str]:
        """The notation of the legal actions as an observation lists them for ``viewer``: those of
        the seat to act, shown to that seat and to spectators; none while chance is to act, once the
        game is over, or to another seat."""
        player = self.current_player
        if player >= 0 and (viewer is SPECTATOR or viewer == player):
            return [self.notation(a) for a in self.legal_actions()]
        return []

    def action_text(self, action: A, viewer: int | None = OMNISCIENT) -> str:
        """The notation of ``action`` as ``viewer`` may read it (see :meth:`redact`)."""
        text = self.notation(action)
        if viewer == OMNISCIENT:
            return text
        return self.redact(self.current_player, action, text, viewer)

    def redact(self, actor: int, action: A, text: str, viewer: int | None) -> str:
        """The text of an action by ``actor`` as ``viewer`` may read it (games with private
        actions override this; it must depend on its arguments only). Default: unchanged."""
        return text

    def record(self, viewer: int | None = OMNISCIENT) -> Any:
        """The game so far as ``viewer`` may see it (a :class:`regalia.core.record.Record`)."""
        from regalia.core.record import Record

        return Record.of_state(self, viewer)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with what ``seat`` sees, hidden information resampled with ``rng``.

        The default (nothing hidden but future draws) is a clone whose chance source no longer
        follows the real game's seed.
        """
        state = self.clone()
        state.seed = rng.getrandbits(31)
        return state

    def automaton_seats(self) -> tuple[int, ...]:
        """Seats the rules play themselves (a solo automaton): when one is to act its legal actions
        hold exactly the action the rules dictate (:meth:`forced_action`); no agent or person
        chooses for it. By default the game's :meth:`Game.automaton_seats`."""
        return self.game.automaton_seats()

    def evaluate(self, seat: int) -> float:
        """A search heuristic: how good the position looks for ``seat`` (higher is better).

        The default is the score lead over the best other seat (:meth:`score_lead`); games may
        override it.
        """
        return self.score_lead(seat)

    def score_lead(self, seat: int) -> float:
        """The score lead of ``seat`` over the best other seat: the heuristic ``score``
        (:meth:`Game.heuristics`), and :meth:`evaluate` unless the game has its own."""
        scores = self.scores()
        others = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(others) if others else 0))

    def seat_names(self) -> list[str]:
        """Display names of the seats (by default the game's :meth:`Game.seat_names`)."""
        return self.game.seat_names()

    def __str__(self) -> str:
        return f"<{self.game.id} state, ply {self._ply}, to move: {self.current_player}>"


own_abc_caches(State)


@mypyc_attr(allow_interpreted_subclasses=True)
class CachedState(State[A, G]):
    """A state whose legal actions are generated once per position: :meth:`_generate` makes them,
    the slot ``_legal`` keeps them until the game sets it back to ``None`` (in its constructor, its
    clone when the position differs, and after every change of the position).

    :meth:`legal_actions` is the engines' hottest call: it reads the cache and copies it, nothing
    more. A game's ``check`` may test an action's membership in ``_legal`` once it is filled.
    """

    __slots__ = ("_legal",)

    _legal: tuple[A, ...] | None

    def legal_actions(self) -> list[A]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def uniform_action(self, u: float) -> A:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal[int(u * float(len(legal)))]  # the cached tuple, not a copy

    @abstractmethod
    def _generate(self) -> tuple[A, ...]:
        """Every legal action of the position (chance's outcomes at a chance node; none when over)."""


def ranked_returns(keys: Sequence[Any]) -> list[float]:
    """Returns in [-1, 1] from one sortable key per seat (higher is better): the first place gets
    1, the last -1, the others evenly between; tied seats share the mean of their places.

    >>> ranked_returns([10, 5])
    [1.0, -1.0]
    >>> ranked_returns([3, 3])
    [0.0, 0.0]
    >>> ranked_returns([7, 9, 1])
    [0.0, 1.0, -1.0]
    >>> ranked_returns([4, 4, 1])
    [0.5, 0.5, -1.0]
    """
    n = len(keys)
    if n < 2:
        return [0.0] * n
    order = sorted(range(n), key=lambda i: keys[i], reverse=True)
    out = [0.0] * n
    k = 0
    while k < n:
        j = k
        while j + 1 < n and keys[order[j + 1]] == keys[order[k]]:
            j += 1
        place = (k + j) / 2
        value = 1.0 - 2.0 * place / (n - 1)
        for m in range(k, j + 1):
            out[order[m]] = value
        k = j + 1
    return out


def single_best(returns: Sequence[float]) -> int | None:
    """The seat with the single best return, or ``None`` when the best is shared (a draw).

    >>> single_best([1.0, -1.0]), single_best([0.0, 0.0]), single_best([0.5, 0.5, -1.0])
    (0, None, None)
    """
    best = max(returns)
    return None if list(returns).count(best) != 1 else list(returns).index(best)


def notation_error(text: str, expected: str) -> NotationError:
    """A :class:`NotationError` for ``text`` that says what was expected."""
    return NotationError(f"cannot read action {text!r}: expected {expected}")
