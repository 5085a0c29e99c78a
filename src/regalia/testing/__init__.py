"""The conformance kit: every registered game is checked against the core contract.

:func:`check_game` plays random games (chance with its probabilities, automata by their forced
steps, seats uniformly at random) and checks, on the way and at the end, what every algorithm,
command, server and research adapter of regalia relies on:

========================  ===================================================================
``options``               the options schema describes valid defaults that round-trip as JSON;
                          seats and automaton seats are in range
``termination``           random games end; who is to act is always a seat, chance or, at the
                          end only, :data:`~regalia.core.game.TERMINAL`; returns are in [-1, 1]
``notation``              every legal action's notation reads back to the same action
``chance``                at a chance node the outcomes are the legal actions and their
                          probabilities are positive and sum to 1
``automata``              an automaton seat to act has exactly one legal action
``json``                  ``state_from_json(to_json())`` gives the same state and legal actions
``uniform``               ``uniform_action(u)`` picks ``legal_actions()[int(u * n)]``
``policy``                at a seat's decision, ``policy_action(rng)`` (rollouts' informed
                          policy) is legal, the same for the same draws, and changes nothing
``pickle``                a pickled state comes back the same
``clone``                 a clone is equal and independent of the original
``determinize``           a determinization is independent and looks the same to its seat
``illegal``               malformed text, foreign objects and actions legal elsewhere are
                          refused with the right error, and change nothing
``records``               a record replays to the same state; it holds no seed
``views``                 observations, records and action texts of every viewer are the same
                          whatever the seed: nothing about future draws; no ``seed`` anywhere
``heuristics``            every search heuristic of the game is a finite number for every seat;
                          with two seats, minus seat 0's for seat 1 when the game says its
                          heuristics are zero-sum
``encoding``              the encoding's legal mask equals the legal set, ids round-trip and
                          observation tensors have the declared shape (when the game has one
                          and numpy is installed)
========================  ===================================================================

``regalia check GAME --games N`` runs it from the command line; the test suite runs it for every
registered game and each option set its plugin lists (``check_options``).

>>> report = check_game("two-heirs", games=1, seed=3)
>>> report.ok, "chance" in report.passed
(True, True)
"""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from regalia.core.errors import IllegalAction, NotationError, RegaliaError
from regalia.core.game import CHANCE, JSON, OMNISCIENT, SPECTATOR, TERMINAL, Game, State
from regalia.core.loop import forced_step
from regalia.core.record import Record, apply_ply, replay
from regalia.core.registry import game_plugin, load_game
from regalia.core.text import plural
from regalia.match import LogEntry, Match, Seat, StreamChance

#: A random game longer than this is reported as not terminating.
MAX_PLIES = 20_000
#: The first game's states are checked in full at every ply up to this one, then at every other
#: ply; later games' at every fifth. A state's document holds its history, so its checks grow with
#: the ply and checking every state costs the square of the game's length: Carcassonne's 200-odd
#: plies took 20 s, against 12 s so (and still every phase of its three-step turn, early and late).
FULL_PLIES = 120

CHECKS: tuple[str, ...] = (
    "options",
    "termination",
    "notation",
    "chance",
    "automata",
    "json",
    "uniform",
    "policy",
    "pickle",
    "clone",
    "determinize",
    "illegal",
    "records",
    "views",
    "heuristics",
    "encoding",
)

_MALFORMED = ("", "   ", "zzz", "take", "end end end", "build 1,2", "\x00", "draw", "ç€ 9,9 x")


class ConformanceError(RegaliaError):
    """A game that breaks the core contract (the message lists the failed checks)."""


@dataclasses.dataclass
class ConformanceReport:
    """What :func:`check_game` found: the checks that passed, the failures, and how much it saw."""

    game: str
    options: dict[str, Any]
    games: int = 0
    states: int = 0
    plies: int = 0
    passed: list[str] = dataclasses.field(default_factory=list)
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)
    failures: dict[str, list[str]] = dataclasses.field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, check: str, message: str) -> None:
        items = self.failures.setdefault(check, [])
        if len(items) < 5:
            items.append(message)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"ok": self.ok}

    def summary(self) -> str:
        head = f"{self.game} {json.dumps(self.options, sort_keys=True)}"
        plies = plural(self.plies, "ply", "plies")
        seen = f"{plural(self.games, 'game')}, {plies}, {plural(self.states, 'state')} checked"
        if self.ok:
            return f"{head}: all {plural(len(self.passed), 'check')} passed ({seen})"
        lines = [f"{head}: {len(self.failures)} check(s) failed ({seen})"]
        for check, messages in self.failures.items():
            lines.extend(f"  {check}: {m}" for m in messages)
        return "\n".join(lines)

    def raise_if_failed(self) -> None:
        if not self.ok:
            raise ConformanceError(self.summary())


#: The seeds of the replays that must not differ from the game (``views``): nothing about future
#: draws may depend on the seed.
TWIN_SEEDS: tuple[int, ...] = (11, 977)


class _Stop(Exception):
    """A random game that cannot go on (reported as a failure of ``termination``)."""


class _RandomSeat:
    """Every seat's agent in the kit's games: a uniformly random legal action from the checker's
    generator, then one legal action kept for the pool."""

    name = "conformance"

    def __init__(self, checker: _Checker) -> None:
        self.checker = checker

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        checker = self.checker
        legal = state.legal_actions()
        action = legal[checker.rng.randrange(len(legal))]
        checker.pool_one(legal)
        return action


class _Replays:
    """The game's record replayed as it grows: ``replay(record)`` without a seed and with each of
    :data:`TWIN_SEEDS`, each brought forward one ply (:func:`~regalia.core.record.apply_ply`, what
    ``replay`` does) as the game is played, so that checking them at every state costs one ply, not
    a replay of the whole record. A ply that does not replay is kept and reported by every later
    check. The end of a game is checked against full replays too (:meth:`_Checker._replays`)."""

    def __init__(self, state: State[Any]) -> None:
        self.error: str | None = None
        #: The full replays of the finished game's record (:meth:`_Checker._replays`), made once
        #: for the checks of the last state.
        self.full: tuple[Record, dict[int | None, State[Any]]] | None = None
        record = state.record()
        self.states: dict[int | None, State[Any]] = {s: replay(record, seed=s) for s in (None, *TWIN_SEEDS)}

    def follow(self, ply: int, text: str) -> None:
        """Bring every replay to ply ``ply`` (the record's action ``text``)."""
        if self.error is not None:
            return
        try:
            for twin in self.states.values():
                apply_ply(twin, ply, text)
        except RegaliaError as exc:
            self.error = f"the record does not replay: {exc}"

    def get(self, seed: int | None) -> State[Any]:
        if self.error is not None:
            raise AssertionError(self.error)
        return self.states[seed]


class _Checker:
    def __init__(self, report: ConformanceReport, game: Game[Any], rng: random.Random) -> None:
        self.report = report
        self.game = game
        self.rng = rng
        self.plugin = game.plugin()
        self.pool: list[Any] = []  # actions seen in other states, to try where they are illegal
        self.ran: set[str] = set()
        self.encoding = self._encoding()
        self.replays: _Replays | None = None

    def _encoding(self) -> Any:
        if not self.plugin.has_encoding:
            self.report.skipped["encoding"] = "the game declares no encoding"
            return None
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.report.skipped["encoding"] = "numpy is not installed"
            return None
        return self.plugin.encoding(self.game)

    # -- the whole run -------------------------------------------------------------------------
    def run(self, games: int, seed: int) -> None:
        self.check_options()
        for g in range(games):
            self.play(seed + g, first=g == 0)
            self.report.games += 1

    def check(self, name: str, fn: Callable[[], None]) -> None:
        self.ran.add(name)
        try:
            fn()
        except AssertionError as exc:
            self.report.fail(name, str(exc) or "assertion failed")
        except Exception as exc:
            self.report.fail(name, f"{type(exc).__name__}: {exc}")

    def check_options(self) -> None:
        def run() -> None:
            game = self.game
            schema = game.options_schema()
            names = [o["name"] for o in schema]
            assert len(set(names)) == len(names), f"option names repeat: {names}"
            for o in schema:
                assert o["help"], f"option {o['name']} has no help text"
            defaults = type(game.options).from_mapping({})
            again = type(game.options).from_mapping(json.loads(json.dumps(game.options.to_json())))
            assert again == game.options, "options do not round-trip through JSON"
            assert defaults is not None
            assert game.min_players <= game.num_players <= game.max_players, "num_players out of range"
            assert len(game.seat_names()) == game.num_players, "seat_names does not name every seat"
            assert all(0 <= s < game.num_players for s in game.automaton_seats()), (
                "automaton seat out of range"
            )

        self.check("options", run)

    # -- one game --------------------------------------------------------------------------------
    def play(self, seed: int, first: bool) -> None:
        """One random game as a :class:`~regalia.match.Match` (chance from ``random.Random(seed)``,
        automata's forced steps, every other seat a random legal action from the checker's
        generator), its states checked (:func:`checked_in_full`) and the record's replays followed."""
        game = self.game
        automata = frozenset(game.automaton_seats())
        n = game.num_players
        seats = [Seat.automaton() if s in automata else Seat.computer("conformance") for s in range(n)]
        chooser = _RandomSeat(self)
        match = Match(
            game,
            seats,
            seed=seed,
            chance=StreamChance(seed),
            agents={s: chooser for s in range(n) if s not in automata},
            agent_rngs={s: self.rng for s in range(n) if s not in automata},
            describe=False,
        )
        state = match.state
        self.replays = _Replays(state)
        replays = self.replays

        def after(entry: LogEntry) -> None:
            replays.follow(state.ply, entry.text)
            self.report.plies += 1
            if state.ply > MAX_PLIES:
                raise _Stop(f"a random game did not end in {MAX_PLIES} plies (seed {seed})")
            self._before_ply(state, first)

        try:
            self._before_ply(state, first)
            match.advance(after)
        except _Stop as stop:
            self.report.fail("termination", str(stop))
            return
        except Exception as exc:  # an engine that breaks inside the loop: reported, not raised
            self.report.fail("termination", f"{type(exc).__name__} at ply {state.ply + 1}: {exc}")
            return
        final = state
        self.check("termination", lambda: self._check_end(final))
        self.check_state(final)

    def _before_ply(self, state: State[Any], first: bool) -> None:
        """Checks of the state before a ply (in full as :func:`checked_in_full` says); the actions of
        chance's and automata's plies join the pool of actions to try elsewhere (a seat's, once
        chosen: :class:`_RandomSeat`)."""
        if state.is_terminal():
            return
        player = state.current_player
        if checked_in_full(state.ply, first):
            self.check_state(state)
        if not (player == CHANCE or 0 <= player < state.num_players):
            raise _Stop(f"current_player {player} at ply {state.ply}")
        legal = state.legal_actions()
        if not legal:
            raise _Stop(f"no legal action at ply {state.ply} of an unfinished game")
        if player == CHANCE or player in state.automaton_seats():
            self.pool_one(legal)

    def pool_one(self, legal: list[Any]) -> None:
        """Keep one of ``legal`` (the first 400, then one in twenty) to try where it is illegal."""
        if len(self.pool) < 400 or self.rng.random() < 0.05:
            self.pool.append(legal[self.rng.randrange(len(legal))])

    def _check_end(self, state: State[Any]) -> None:
        n = state.num_players
        assert state.current_player == TERMINAL, f"current_player is {state.current_player} at the end"
        assert state.legal_actions() == [], "a finished game still has legal actions"
        returns = state.returns()
        assert len(returns) == n and len(state.scores()) == n, "returns/scores do not cover every seat"
        assert all(-1.0 <= r <= 1.0 for r in returns), f"returns out of [-1, 1]: {returns}"
        assert state.ply == len(state.history), "ply count and history disagree"

    # -- one state -------------------------------------------------------------------------------
    def check_state(self, state: State[Any]) -> None:
        self.report.states += 1
        legal = [] if state.is_terminal() else state.legal_actions()
        # the document of the state as it is: each check below compares with it (what it must not
        # change, what must come back the same), made once
        doc = state.to_json()
        self.check("notation", lambda: self._notation(state, legal))
        if state.current_player == CHANCE:
            self.check("chance", lambda: self._chance(state, legal))
        elif not state.is_terminal() and state.current_player in state.automaton_seats():
            self.check("automata", lambda: self._automaton(legal))
        self.check("json", lambda: self._json(state, legal, doc))
        if legal:
            self.check("uniform", lambda: self._uniform(doc, legal))
            if state.current_player != CHANCE and state.current_player not in state.automaton_seats():
                self.check("policy", lambda: self._policy(doc, legal))
        self.check("pickle", lambda: self._pickle(state, doc))
        self.check("clone", lambda: self._clone(state, legal, doc))
        self.check("determinize", lambda: self._determinize(state, doc))
        self.check("illegal", lambda: self._illegal(state, legal, doc))
        self.check("records", lambda: self._records(state, doc))
        self.check("views", lambda: self._views(state, doc))
        if not state.is_terminal():
            self.check("heuristics", lambda: self._heuristics(state))
        if self.encoding is not None:
            self.check("encoding", lambda: self._encoding_state(state, legal))

    def _notation(self, state: State[Any], legal: list[Any]) -> None:
        texts = set()
        for a in legal:
            text = state.action_text(a)
            assert isinstance(text, str) and text.strip(), f"empty notation for {a!r}"
            back = state.parse_action(text)
            assert back == a, f"{text!r} reads back as {back!r}, not {a!r}"
            texts.add(text)
        assert len(texts) == len(legal), "two legal actions share a notation"
        assert len(set(legal)) == len(legal), "an action is listed twice among the legal actions"

    def _chance(self, state: State[Any], legal: list[Any]) -> None:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal, "chance outcomes differ from the legal actions"
        total = sum(p for _, p in outcomes)
        assert all(p > 0 for _, p in outcomes), "a chance outcome has probability <= 0"
        assert math.isclose(total, 1.0, abs_tol=1e-9), f"chance probabilities sum to {total}"
        drawn = forced_step(state, self.rng)  # chance's draw, as every game loop takes it
        assert drawn in legal, "sample_chance drew an outcome that is not legal"

    def _automaton(self, legal: list[Any]) -> None:
        assert len(legal) == 1, f"an automaton seat has {len(legal)} legal actions, not 1"

    def _json(self, state: State[Any], legal: list[Any], doc: JSON) -> None:
        text = json.dumps(doc)
        back = self.game.state_from_json(json.loads(text))
        assert back.to_json() == doc, "state_from_json(to_json()) differs"
        assert back.legal_actions() == legal, "the state read back has other legal actions"
        assert back.current_player == state.current_player, "the state read back has another player to act"

    def _uniform(self, doc: JSON, legal: list[Any]) -> None:
        # on a state read back from its document: no legal actions listed yet, so a game that
        # finds the pick without listing them all (uniform_action's fast path) is what is checked
        n = len(legal)
        fresh = self.game.state_from_json(doc)
        for i in range(n):
            for u in ((i + 0.5) / n, i / n):
                picked = fresh.uniform_action(u)
                wanted = legal[int(u * n)]
                assert picked == wanted, (
                    f"uniform_action({u!r}) picks {picked!r}, not legal_actions()[{int(u * n)}] = {wanted!r}"
                )

    def _policy(self, doc: JSON, legal: list[Any]) -> None:
        fresh = self.game.state_from_json(doc)  # as in _uniform: no legal actions listed yet
        for seed in range(4):
            picked = fresh.policy_action(random.Random(seed))
            assert picked in legal, f"policy_action picks {picked!r}, which is not legal"
            again = fresh.policy_action(random.Random(seed))
            assert again == picked, f"policy_action picks {picked!r}, then {again!r} with the same draws"
        assert fresh.to_json() == doc, "policy_action changed the state"

    def _pickle(self, state: State[Any], doc: JSON) -> None:
        back = pickle.loads(pickle.dumps(state))
        assert back.to_json() == doc, "a pickled state comes back different"

    def _clone(self, state: State[Any], legal: list[Any], before: JSON) -> None:
        copy = state.clone()
        assert copy.to_json() == before, "a clone differs from its original"
        if legal:
            copy.apply(legal[self.rng.randrange(len(legal))])
            assert state.to_json() == before, "applying an action to a clone changed the original"
            assert state.legal_actions() == legal, (
                "applying an action to a clone changed the original's actions"
            )

    def _determinize(self, state: State[Any], before: JSON) -> None:
        if state.is_terminal():
            return
        seats = [s for s in range(state.num_players)]
        for seat in seats:
            det = state.determinize(seat, random.Random(self.rng.random()))
            assert det.observation(seat) == state.observation(seat), (
                "a determinization looks different to its seat"
            )
            legal = det.legal_actions()
            if legal:
                det.apply(legal[0])
        assert state.to_json() == before, "playing on a determinization changed the original"

    def _illegal(self, state: State[Any], legal: list[Any], before: JSON) -> None:
        for text in _MALFORMED:
            try:
                action = state.parse_action(text)
            except NotationError:
                continue
            except Exception as exc:  # anything else is a crash on bad input
                raise AssertionError(f"parse_action({text!r}) raised {type(exc).__name__}: {exc}") from None
            if action not in legal:
                self._refused(state, action, f"text {text!r}")
        for foreign in (None, 42, "end", ("take", 1), object()):
            if foreign in legal:
                continue
            self._refused(state, foreign, f"object {foreign!r}")
        tried = 0
        for action in self.pool:
            if action in legal:
                continue
            self._refused(state, action, f"action {action!r}")
            tried += 1
            if tried >= 8:
                break
        assert state.to_json() == before, "refusing an action changed the state"

    def _refused(self, state: State[Any], action: Any, what: str) -> None:
        before = state.ply
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert str(exc), f"{what}: refused without a message"
        except Exception as exc:
            raise AssertionError(
                f"{what}: apply raised {type(exc).__name__} instead of IllegalAction: {exc}"
            ) from None
        else:
            raise AssertionError(f"{what}: accepted, but it is not among the legal actions")
        assert state.ply == before, f"{what}: a refused action was added to the history"

    def _records(self, state: State[Any], state_doc: JSON) -> None:
        record = state.record()
        doc = record.to_json()
        assert "seed" not in doc, "a record holds the seed"
        assert len(record.actions) == state.ply, "the record does not list every ply"
        again = Record.from_json(json.loads(json.dumps(doc)))
        assert again == record, "a record does not round-trip through JSON"
        replayed = self._replays(again, state)[None]
        assert replayed.to_json() == state_doc, "a record does not replay to the same state"

    def _replays(self, record: Record, state: State[Any]) -> dict[int | None, State[Any]]:
        """``replay(record)`` without a seed and with each of :data:`TWIN_SEEDS`: the replays
        followed ply by ply during the game, and at its end full replays as well (which also check
        the record's result), which must agree with them."""
        assert self.replays is not None
        followed = {seed: self.replays.get(seed) for seed in (None, *TWIN_SEEDS)}
        if not state.is_terminal():
            return followed
        if self.replays.full is not None and self.replays.full[0] == record:
            return self.replays.full[1]  # the records and views checks of the last state share them
        full = {seed: replay(record, seed=seed) for seed in followed}
        for seed, twin in followed.items():
            assert full[seed].to_json() == twin.to_json(), "a full replay differs from the ply-by-ply one"
        self.replays.full = (record, full)
        return full

    def _views(self, state: State[Any], doc: JSON) -> None:
        record = state.record()
        replays = self._replays(record, state)
        twins = [replays[s] for s in TWIN_SEEDS]
        for twin in twins:
            assert twin.to_json() == doc, "the state document depends on the seed"
        assert not _has_key(doc, "seed"), "the state document holds a seed"
        viewers: list[int | None] = [*range(state.num_players), SPECTATOR]
        legal = [] if state.is_terminal() else state.legal_actions()
        for viewer in viewers:
            obs = state.observation(viewer)
            json.dumps(obs)
            assert not _has_key(obs, "seed"), f"the observation of {viewer} holds a seed"
            seen = state.record(viewer)
            for twin in twins:
                assert twin.observation(viewer) == obs, f"the observation of {viewer} depends on the seed"
                assert twin.record(viewer) == seen, f"the record of {viewer} depends on the seed"
            for a in legal[:20]:
                text = state.action_text(a, viewer)
                assert text == twins[0].action_text(a, viewer), "an action text depends on the seed"
        assert state.record(OMNISCIENT) == record, "the full record differs from record()"

    def _heuristics(self, state: State[Any]) -> None:
        game = state.game
        zero_sum = state.num_players == 2 and game.zero_sum_heuristics()
        for name, method in game.heuristics().items():
            values = [float(getattr(state, method)(seat)) for seat in range(state.num_players)]
            assert all(math.isfinite(v) for v in values), f"heuristic {name!r} is not finite: {values}"
            if zero_sum:
                assert values[1] == -values[0], (
                    f"heuristic {name!r} is not zero-sum ({values}), though the game says its heuristics are"
                )

    def _encoding_state(self, state: State[Any], legal: list[Any]) -> None:
        import numpy as np

        enc = self.encoding
        for seat in range(state.num_players):
            tensor = enc.observation_tensor(state, seat)
            assert tensor.shape == tuple(enc.observation_shape), f"observation shape {tensor.shape}"
            assert np.all(np.isfinite(tensor)), "the observation tensor has NaN or inf"
        if state.is_terminal() or not enc.fits(state):
            return
        mask = enc.legal_mask(state)
        size = enc.num_chance_outcomes if state.current_player == CHANCE else enc.num_actions
        assert mask.shape == (size,), f"mask shape {mask.shape}, expected ({size},)"
        ids = sorted(enc.action_id(state, a) for a in legal)
        assert ids == list(np.flatnonzero(mask)), "the legal mask differs from the legal actions"
        for a in legal:
            assert enc.action_from_id(state, enc.action_id(state, a)) == a, f"id of {a!r} does not round-trip"


def checked_in_full(ply: int, first: bool) -> bool:
    """Whether the state at ``ply`` of a random game is checked in full (``first``: of the run's
    first game); a finished game's last state always is.

    >>> [p for p in range(118, 126) if checked_in_full(p, True)]
    [118, 119, 120, 122, 124]
    >>> [p for p in range(12) if checked_in_full(p, False)]
    [0, 5, 10]
    """
    if first:
        return ply <= FULL_PLIES or ply % 2 == 0
    return ply % 5 == 0


def _has_key(doc: Any, key: str) -> bool:
    """Whether ``key`` is a key anywhere in a JSON document."""
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if key in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def check_game(game_id: str, games: int = 10, seed: int = 0, **options: Any) -> ConformanceReport:
    """Check game ``game_id`` with ``options`` against the core contract over ``games`` random games."""
    game = load_game(game_id, **options)
    report = ConformanceReport(game=game_id, options=game.options.to_json())
    checker = _Checker(report, game, random.Random(seed))
    checker.run(games, seed)
    for name in CHECKS:
        if name not in checker.ran and name not in report.skipped:
            report.skipped[name] = "nothing to check in these games"
    report.passed = [c for c in CHECKS if c in checker.ran and c not in report.failures]
    return report


def option_sets(game_id: str) -> list[Mapping[str, Any]]:
    """The option sets a game's plugin asks to be checked with."""
    return list(game_plugin(game_id).check_options)


def iter_reports(game_id: str, games: int, seed: int = 0) -> Iterator[ConformanceReport]:
    """:func:`check_game` for each of the game's option sets."""
    for options in option_sets(game_id):
        yield check_game(game_id, games=games, seed=seed, **options)


S = TypeVar("S", bound="State[Any]")


def random_positions(state: S, seed: int, every: int = 1) -> Iterator[S]:
    """The positions of a random game from ``state``: ``state`` itself (changed in place) every
    ``every`` plies, chance's plies counted, and once more at the end. Chance plays by its
    probabilities, seats uniformly, from ``random.Random(seed)``.

    >>> import regalia
    >>> first = regalia.load_game("royal-court").new_state(seed=1)
    >>> plies = [s.ply for s in random_positions(first, seed=2, every=10)]
    >>> plies[:3], plies[-1] == first.ply and first.is_terminal()
    ([0, 10, 20], True)
    """
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state
        forced = forced_step(state, rng) if state.current_player == CHANCE else None
        if forced is not None:
            state.apply(forced)
        else:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        n += 1
    yield state


__all__ = [
    "CHECKS",
    "ConformanceError",
    "ConformanceReport",
    "check_game",
    "iter_reports",
    "option_sets",
    "random_positions",
]
