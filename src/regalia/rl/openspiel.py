"""Every registered game as an OpenSpiel game: ``pyspiel.load_game("python_regalia_two_heirs")``.

>>> import pyspiel
>>> from regalia.rl.openspiel import register_all
>>> names = register_all()
>>> names["royal-court"]
'python_regalia_royal_court'
>>> game = pyspiel.load_game("python_regalia_royal_court")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions() > 0
(True, True)

:func:`register_all` registers each game of :func:`regalia.core.registry.game_ids` under
``python_regalia_<id with _>`` (:func:`register` registers one; both may be called again). What
the adapter declares, for any game, from the core contract and the game's encoding alone:

* **Game type**: sequential; explicit stochastic chance (the core's chance nodes, outcomes with the
  encoding's chance ids and the core's probabilities); terminal rewards (``returns()``, in [-1, 1]).
  *Information* is measured per option set (:func:`regalia.rl.common.game_traits`):
  ``IMPERFECT_INFORMATION`` when a seat's view hides something (the game redacts actions, a
  determinization differs from the state, or seats see different observations), else
  ``PERFECT_INFORMATION`` (nothing hidden but future chance, which OpenSpiel models as chance
  nodes, as for backgammon). The three shipped games hide nothing, so they are perfect-information
  games by default. The parameter ``information`` (``auto``, ``perfect``, ``imperfect``) overrides
  the measure: ``imperfect`` lets algorithms that insist on it (``ISMCTSBot`` asserts it) run on a
  perfect-information game. That is a compatibility switch, not a different game: the information
  state is still the whole history, so every information set is one state, a resample is that
  state again, and ``ISMCTSBot`` searches as an MCTS keyed by histories would. Searching a game
  that does hide something needs no switch: the measure declares it imperfect.
  *Utility*: ``ZERO_SUM`` when every probe game's returns summed to 0, else ``GENERAL_SUM``.
* **Game info**: ``num_distinct_actions`` and ``max_chance_outcomes`` from the encoding;
  ``num_players`` is the game's seat count; utilities in [-1, 1]. The core declares no bound on a
  game's length, so ``max_game_length`` is 4 times the longest probe game (chance and automaton
  steps included), or the parameter ``max_game_length`` when it is above 0. The adapter *enforces*
  it (OpenSpiel's Go, too, ends a game at its ``max_game_length``): a game that has applied that
  many actions is terminal with zero returns (``stopped()`` says so), so no game is longer than
  declared (algorithms size buffers by it: AlphaZero's histogram of game lengths would overflow).
  Random play, and play that avoids ending turns, stay far below the margin in the shipped games.
* **Parameters** are the game's options (``Options.schema()``), with their defaults. Lists are
  written with ``+`` (``sets=warfare+crafts+guard``: OpenSpiel splits parameters at commas); an
  option whose default is unset is ``""`` for a string and ``minimum - 1`` (or -1) for an integer.
  OpenSpiel reads ``5`` as a number: quote a string option's numeric value
  (``python_regalia_carcassonne(shrines="5")``), or pass a dict
  (``pyspiel.load_game("python_regalia_carcassonne", {"shrines": "5"})``). Two parameters are the
  adapter's own (:data:`ADAPTER_PARAMETERS`): ``information`` and ``max_game_length``, below.
* **Automaton seats** (the solo game's Henry) are played inside the state, right after the action
  that hands them the turn: ``current_player()`` is never an automaton. Henry stays a seat of the
  game (``num_players`` 2, his returns the opposite of the player's).
* **Actions** are the encoding's ids in the state they are chosen in, and are decoded in that
  same state; ``legal_actions()`` are the ids of the legal actions that have one. When none has
  (a position too wide for the window; rare, docs/encodings.md), the state is *terminal* with zero
  returns (``stopped()`` says so). Chance outcomes are the encoding's chance ids, one per outcome.
* **Observations**: ``observation_tensor(player)`` is the encoding's tensor (``observation_dict``
  names its blocks as ``Encoding.layout`` does); ``observation_string(player)`` the game's JSON view
  for that seat; ``information_state_string(player)`` the plies so far as that seat may read them
  (perfect recall). No information-state tensor is provided.
* ``resample_from_infostate(player, sampler)`` is the core's ``determinize(player, rng)``, its
  generator seeded from ``sampler``. When ``player`` is to act, the sample must give the same legal
  ids as the state (``ISMCTSBot`` applies an id chosen in samples to the real state): an encoding
  whose ids depend on what that seat cannot see raises ``ValueError`` there.
* ``clone()`` copies the engine state with ``State.clone()`` (cheap), never a deep copy.

Needs the ``open_spiel`` wheel (x86_64 only).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from regalia.core.encoding import Encoding, EncodingError
from regalia.core.errors import OptionError
from regalia.core.game import CHANCE, TERMINAL, Game, State
from regalia.core.loop import forced_step
from regalia.core.registry import game_class, game_ids, load_game
from regalia.rl.common import game_traits, make_encoding

#: The adapter's own parameter: ``auto`` (measured), ``perfect`` or ``imperfect``.
INFORMATION = "information"
#: The adapter's own parameter: the longest game, in actions (0: 4 times the longest probe game).
MAX_GAME_LENGTH = "max_game_length"
#: The adapter's parameters (not game options), with their defaults.
ADAPTER_PARAMETERS: dict[str, Any] = {INFORMATION: "auto", MAX_GAME_LENGTH: 0}
#: ``max_game_length`` when the parameter is 0: this many times the longest probe game.
LENGTH_MARGIN = 4
_INFORMATION = {
    "perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
    "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}


def game_name(game_id: str) -> str:
    """The OpenSpiel name of a regalia game: ``python_regalia_`` and the id with ``_`` for ``-``."""
    return "python_regalia_" + game_id.replace("-", "_")


def register_all() -> dict[str, str]:
    """Register every registered game (again: nothing happens); returns game id -> OpenSpiel name."""
    return {game_id: register(game_id) for game_id in game_ids()}


def register(game_id: str, name: str | None = None) -> str:
    """Register the game ``game_id`` with ``pyspiel`` as ``name`` (default :func:`game_name`);
    returns the name. Registering a name twice does nothing."""
    name = name or game_name(game_id)
    if name in pyspiel.registered_names():
        return name
    factory: Any = _factory(game_id, name)
    pyspiel.register_game(factory().get_type(), factory)
    _FACTORIES[name] = factory
    return name


#: OpenSpiel name -> the class ``pyspiel`` makes games of (a subclass of :class:`RegaliaGame`).
_FACTORIES: dict[str, type[RegaliaGame]] = {}


def _factory(game_id: str, name: str) -> type[RegaliaGame]:
    """A subclass of :class:`RegaliaGame` for one game, made from OpenSpiel parameters alone.

    ``pyspiel`` keeps the factory until the process ends and releases it after the interpreter
    has shut down; a class (which refers to itself, so it is never freed then) is safe there,
    while a plain function or closure aborts the process at exit."""

    def __init__(self: RegaliaGame, params: Mapping[str, Any] | None = None) -> None:
        RegaliaGame.__init__(self, game_id, params, name=name)

    cls = type(f"RegaliaGame_{name}", (RegaliaGame,), {"__init__": __init__, "__module__": __name__})
    return cls


def parameter_specification(game: type[Game[Any]]) -> dict[str, Any]:
    """OpenSpiel parameters for the options of a game class, with their defaults (see the module
    docstring), and the adapter's own (:data:`ADAPTER_PARAMETERS`)."""
    spec: dict[str, Any] = {}
    for field in game.options_schema():
        name, kind, default = field["name"], field["type"], field["default"]
        if name in ADAPTER_PARAMETERS:
            raise OptionError(f"option {name!r} of {game.name} clashes with the OpenSpiel adapter's own")
        if kind == "list":
            spec[name] = "+".join(str(v) for v in default or [])
        elif default is not None:
            spec[name] = default
        elif kind == "int":
            spec[name] = _unset_int(field)
        elif kind == "float":
            spec[name] = float("nan")
        else:
            spec[name] = ""
    spec.update(ADAPTER_PARAMETERS)
    return spec


def _is_unset(field: Mapping[str, Any], value: Any) -> bool:
    """Whether ``value`` is the parameter of an option left unset (see the module docstring)."""
    kind = field["type"]
    if kind == "int":
        return bool(value == _unset_int(field))
    if kind == "float":
        return bool(value != value)  # NaN
    return bool(value == "")


def _unset_int(field: Mapping[str, Any]) -> int:
    minimum = field.get("minimum")
    return int(minimum) - 1 if minimum is not None else -1


def options_from_parameters(game: type[Game[Any]], params: Mapping[str, Any]) -> dict[str, Any]:
    """The game options OpenSpiel parameters stand for (the inverse of
    :func:`parameter_specification`)."""
    fields = {f["name"]: f for f in game.options_schema()}
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name in ADAPTER_PARAMETERS:
            continue
        field = fields.get(name)
        if field is None:
            raise OptionError(f"unknown parameter {name!r} of {game.name}")
        kind = field["type"]
        if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # shrines="5": a string OpenSpiel would read as a number
        if kind == "list":
            value = str(value).replace("+", ",")
        elif field["default"] is None and _is_unset(field, value):
            value = None
        options[name] = value
    return options


def parameters_from_options(game: Game[Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of a game's options (the inverse of :func:`options_from_parameters`).

    A string OpenSpiel would read as another type (``5``, ``True``) is quoted, so that the game's
    name (``str(game)``, what OpenSpiel serializes) loads the same game again."""
    params: dict[str, Any] = {}
    for field in game.options_schema():
        name, kind = field["name"], field["type"]
        value = getattr(game.options, name)
        if kind == "list":
            value = "+".join(str(v) for v in value or [])
        elif value is None:
            value = {"int": _unset_int(field), "float": float("nan")}.get(kind, "")
        elif isinstance(value, str) and _read_as_other(value):
            value = f'"{value}"'
        params[name] = value
    return params


def _read_as_other(text: str) -> bool:
    """Whether OpenSpiel reads the parameter ``text`` as a bool or a number, not a string."""
    if text in ("True", "False"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Shared:
    """What every state of one OpenSpiel game shares (never copied with a state)."""

    def __init__(self, game: Game[Any], encoding: Encoding, max_length: int) -> None:
        self.game = game
        self.encoding = encoding
        self.max_length = max_length
        self.automata = frozenset(game.automaton_seats())
        self.zeros = [0.0] * game.num_players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __copy__(self) -> _Shared:
        return self


class _Node:
    """The mutable part of an OpenSpiel state: the engine's state, the plies so far as
    ``(previous, player, action, text)`` links, and the legal actions by id once asked (``ids``
    their sorted ids). OpenSpiel clones a
    Python state by deep-copying its attributes: this one copies itself with ``State.clone()``."""

    __slots__ = ("by_id", "ids", "plies", "state")

    def __init__(self, state: State[Any], plies: Any = None) -> None:
        self.state = state
        self.plies = plies
        self.by_id: dict[int, Any] | None = None
        self.ids: list[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        node = _Node(self.state.clone(), self.plies)
        node.by_id = self.by_id
        node.ids = self.ids
        return node

    def legal(self, encoding: Encoding) -> dict[int, Any]:
        """The legal actions that have an id, by id (computed once a position)."""
        if self.by_id is None:
            self.by_id = encoding.legal_actions_by_id(self.state)
            self.ids = sorted(self.by_id)
        return self.by_id

    def apply(self, action: Any) -> None:
        state = self.state
        self.plies = (self.plies, state.current_player, action, state.notation(action))
        state.apply_unchecked(action)
        self.by_id = None
        self.ids = None

    def texts(self) -> list[tuple[int, Any, str]]:
        out = []
        link = self.plies
        while link is not None:
            out.append((link[1], link[2], link[3]))
            link = link[0]
        out.reverse()
        return out


class RegaliaGame(pyspiel.Game):  # type: ignore[misc]
    """A regalia game as an OpenSpiel game (see the module docstring). ``params`` are OpenSpiel
    parameters (:func:`parameter_specification`); ``options`` game options given directly (not
    both), with the adapter's parameters among them if wanted; ``encoding`` the encoding's own
    settings (a window size; not an OpenSpiel parameter)."""

    def __init__(
        self,
        game_id: str,
        params: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        encoding: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        cls = game_class(game_id)
        spec = parameter_specification(cls)
        params = dict(params or {})
        if options:
            if params:
                raise OptionError("give either OpenSpiel parameters or game options, not both")
            own = {name: options.pop(name) for name in ADAPTER_PARAMETERS if name in options}
            params = {**parameters_from_options(load_game(game_id, **options)), **own}
        game = load_game(game_id, **options_from_parameters(cls, params))
        information = str(params.get(INFORMATION, "auto"))
        if information not in ("auto", *_INFORMATION):
            raise OptionError(f"parameter information: auto, perfect or imperfect, got {information!r}")
        max_length = params.get(MAX_GAME_LENGTH, 0)
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 0:
            raise OptionError(f"parameter max_game_length: a whole number, 0 or more, got {max_length!r}")
        enc = make_encoding(game, encoding)
        traits = game_traits(game)
        if information == "auto":
            information = "imperfect" if traits.hidden_information else "perfect"
        max_length = max_length or LENGTH_MARGIN * max(traits.longest, 1)
        self.regalia_game = game
        self.traits = traits
        self._shared = _Shared(game, enc, max_length)
        name = name or game_name(game_id)
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"Python regalia {cls.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=_INFORMATION[information],
            utility=(
                pyspiel.GameType.Utility.ZERO_SUM if traits.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=cls.max_players,
            min_num_players=cls.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=spec,
        )
        game_info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=enc.num_chance_outcomes,
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if traits.zero_sum else None,
            max_game_length=max_length,
        )
        own = {name: params.get(name, default) for name, default in ADAPTER_PARAMETERS.items()}
        super().__init__(game_type, game_info, {**parameters_from_options(game), **own})

    @property
    def encoding(self) -> Encoding:
        """The game's encoding (its ids are OpenSpiel's actions)."""
        return self._shared.encoding

    def new_initial_state(self) -> RegaliaState:
        """The start of a game (a chance node in the shipped games)."""
        return RegaliaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RegaliaObserver:
        """The observer of a seat's observation (``perfect_recall`` False, the default) or its
        information state (``perfect_recall`` True: strings only)."""
        if params:
            raise ValueError(f"regalia observers take no parameters, got {dict(params)}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("regalia observers show what one seat sees (private_info=SINGLE_PLAYER)")
        return RegaliaObserver(self._shared, perfect_recall)


class RegaliaState(pyspiel.State):  # type: ignore[misc]
    """A position of a regalia game for OpenSpiel (see the module docstring)."""

    def __init__(self, game: RegaliaGame, state: State[Any] | None = None) -> None:
        super().__init__(game)
        self._shared = game._shared
        self._node = _Node(self._shared.game.new_state(seed=0) if state is None else state)
        self._settle()

    # -- the engine's state ---------------------------------------------------------------------
    @property
    def core(self) -> State[Any]:
        """The engine's state."""
        return self._node.state

    def stopped(self) -> bool:
        """Whether the game stopped before its end (the state is then terminal, with zero returns):
        it has applied ``max_game_length`` actions, or a seat is to act and none of its legal
        actions has an id in the encoding's window."""
        state = self._node.state
        if state.current_player == TERMINAL:
            return False
        if state.ply >= self._shared.max_length:
            return True
        return state.current_player >= 0 and not self._ids()

    def _ids(self) -> list[int]:
        node = self._node
        if node.ids is None:
            node.legal(self._shared.encoding)
        assert node.ids is not None
        return node.ids

    def _settle(self) -> None:
        """Play the automaton seats' forced steps (chance stays explicit)."""
        automata = self._shared.automata
        if not automata:
            return
        node = self._node
        while node.state.current_player in automata:
            node.apply(forced_step(node.state, None))

    # -- OpenSpiel's API ----------------------------------------------------------------------
    def current_player(self) -> int:
        player = self._node.state.current_player
        if player == TERMINAL or self.stopped():
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._node.state.current_player or self.stopped():
            return []
        return list(self._ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stopped():
            return []
        return sorted(self._shared.encoding.chance_ids(self._node.state))

    def _apply_action(self, action_id: int) -> None:
        node = self._node
        state = node.state
        if self.is_terminal():
            raise ValueError(f"action id {action_id}: the game is over")
        if state.current_player >= 0:  # a seat's: looked up among the legal actions kept
            found = node.legal(self._shared.encoding).get(int(action_id))
            if found is not None:
                node.apply(found)
                self._settle()
                return
        try:  # a chance outcome, or an id that is not legal (decoded to say why)
            action = self._shared.encoding.action_from_id(state, int(action_id))
        except EncodingError as exc:
            raise ValueError(f"action id {action_id}: {exc}") from None
        if action not in state.legal_actions():
            raise ValueError(f"action id {action_id} ({action!r}) is not legal here")
        node.apply(action)
        self._settle()

    def _action_to_string(self, player: int, action_id: int) -> str:
        state = self._node.state
        try:
            return state.notation(self._shared.encoding.action_from_id(state, int(action_id)))
        except Exception:  # an id of another kind of state: OpenSpiel may ask anywhere
            return f"id {action_id}"

    def is_terminal(self) -> bool:
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        state = self._node.state
        if state.is_terminal():
            return [float(r) for r in state.returns()]
        return list(self._shared.zeros)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RegaliaState:
        """A state consistent with what ``player_id`` knows: the core's ``determinize``, with a
        generator seeded from ``probability_sampler`` (a callable returning floats in [0, 1)).

        When ``player_id`` is to act, the sample's legal ids must be the state's (they are kept,
        so the sample's ``legal_actions()`` costs nothing more); ``ValueError`` otherwise."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        node = self._node
        player = int(player_id)
        det = node.state.determinize(player, rng)
        sample = _Node(det, _relinked(node, det))
        if player == node.state.current_player and player >= 0:
            sample.legal(self._shared.encoding)
            if sample.ids != self._ids():
                raise ValueError(
                    f"a determinization for seat {player} has other legal ids than the state: the "
                    "encoding's ids depend on what that seat cannot see, so an id chosen in a "
                    "sample would name another action in the real state"
                )
        copy = self.clone()  # OpenSpiel's history and move number come with the clone
        copy._node = sample
        return copy  # type: ignore[no-any-return]

    def __str__(self) -> str:
        node = self._node
        head = f"{node.state.game.id} ply {node.state.ply}, to act: {self.current_player()}"
        return "\n".join([head, *(f"{p}: {text}" for p, _, text in node.texts())])


def _relinked(node: _Node, det: State[Any]) -> Any:
    """The plies of a determinization: the node's own when its history is the same, else the
    determinization's, written anew."""
    actors = det.actors()
    texts = node.texts()
    if len(actors) == len(texts) and all(a == (p, x) for a, (p, x, _) in zip(actors, texts, strict=True)):
        return node.plies
    link: Any = None
    for ply in det.plies():
        link = (link, ply.player, ply.action, ply.text)
    return link


class RegaliaObserver:
    """OpenSpiel's Python observer for regalia games: ``tensor`` and ``dict`` (the encoding's
    blocks, by name) for observations, ``string_from`` for both observations and information
    states."""

    def __init__(self, shared: _Shared, perfect_recall: bool) -> None:
        self._shared = shared
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}
            return
        enc = shared.encoding
        self.tensor = np.zeros(int(np.prod(enc.observation_shape, dtype=np.int64)), np.float32)
        self.dict = dict(_blocks(self.tensor, enc.layout()))

    def set_from(self, state: RegaliaState, player: int) -> None:
        if self.perfect_recall:
            raise ValueError("regalia games provide no information-state tensor")
        self.tensor[:] = self._shared.encoding.observation_tensor(state.core, player).reshape(-1)

    def string_from(self, state: RegaliaState, player: int) -> str:
        core = state.core
        if not self.perfect_recall:
            return json.dumps(core.observation(player), sort_keys=True, separators=(",", ":"))
        plies = state._node.texts()
        return "\n".join(f"{p}: {core.redact(p, action, text, player)}" for p, action, text in plies)


def _blocks(tensor: Any, layout: Iterable[tuple[str, tuple[int, ...], str]]) -> Iterable[tuple[str, Any]]:
    """Views of the flat ``tensor``, one a block of the encoding's layout, in its shape."""
    offset = 0
    for name, shape, _ in layout:
        size = int(np.prod(shape, dtype=np.int64))
        yield name, tensor[offset : offset + size].reshape(shape)
        offset += size


__all__ = [
    "ADAPTER_PARAMETERS",
    "INFORMATION",
    "LENGTH_MARGIN",
    "MAX_GAME_LENGTH",
    "RegaliaGame",
    "RegaliaObserver",
    "RegaliaState",
    "game_name",
    "options_from_parameters",
    "parameter_specification",
    "parameters_from_options",
    "register",
    "register_all",
]
