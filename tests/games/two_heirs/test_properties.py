"""Property tests of The Two Heirs engine: random legal play, invariants and round trips."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE, TERMINAL
from regalia.core.grid import neighbours8, square_id
from regalia.games.two_heirs.actions import SET_CHOICES as SET_CHOICES_ALL
from regalia.games.two_heirs.actions import SIGNATURES, Action
from regalia.games.two_heirs.base import TILE, UNIT
from regalia.games.two_heirs.scoring import producers
from regalia.games.two_heirs.state import START, TwoHeirsState

SET_CHOICES = (
    "wandering,dominion,trade-and-church",
    "warfare,crafts,guard",
    "dominion,warfare,guard",
    "wandering,warfare,crafts",
    "random",
)

seeds = st.integers(min_value=0, max_value=2**31 - 1)
set_choices = st.sampled_from(SET_CHOICES)
fast = settings(max_examples=20, deadline=None)
slow = settings(max_examples=6, deadline=None)


@cache
def game(sets: str, roads: bool = True) -> Any:
    return regalia.load_game("two-heirs", sets=sets, roads=roads)


INTERESTING = ("build", "camp", "destroy")


def play(sets: str, seed: int, limit: int = 5000) -> Iterator[TwoHeirsState]:
    """Every state of a random game, the final one included.

    The seed also picks a style, so that every rule is exercised: uniform over the legal actions
    (which rarely builds), eager (prefers builds, camps and destructions) or hoarding (rarely
    plays a tile, so the hand limit comes into play).
    """
    s: TwoHeirsState = game(sets).new_state(seed)
    rng = random.Random(seed)
    style = seed % 3
    for _ in range(limit):
        yield s
        if s.is_terminal():
            return
        if s.current_player == CHANCE:
            s.apply(s.sample_chance(rng))
            continue
        actions = s.legal_actions()
        if style and rng.random() < 0.8:
            if style == 1:
                preferred = [a for a in actions if a.kind in INTERESTING]
            else:
                preferred = [a for a in actions if a.kind not in ("build", "terrain")]
            actions = preferred or actions
        s.apply(rng.choice(actions))
    raise AssertionError(f"game {sets} seed {seed} did not end within {limit} actions")


def tiles_everywhere(s: TwoHeirsState) -> list[int]:
    return (
        list(s.supply)
        + [t for t in s.reserve if t >= 0]
        + s.hands[0]
        + s.hands[1]
        + [c >> 2 for c in s.board.values()]
        + s.box
    )


def uncached(s: TwoHeirsState) -> TwoHeirsState:
    fresh = s.clone()
    fresh._legal = None
    return fresh


def random_action(s: TwoHeirsState, rng: random.Random) -> Action:
    """An action of any kind, with tiles and positions drawn near the game's own."""
    kind = rng.choice(list(SIGNATURES))
    pool = tiles_everywhere(s)
    xs = [p[0] for p in s.board] + [0]
    ys = [p[1] for p in s.board] + [0]

    def pos() -> tuple[int, int]:
        return (rng.randint(min(xs) - 2, max(xs) + 2), rng.randint(min(ys) - 2, max(ys) + 2))

    tile, src, dst = -1, None, None
    small = {"colour": 3, "seat": 2, "sets": len(SET_CHOICES_ALL), "token": 10}
    for arg in SIGNATURES[kind]:
        if arg == "tile":
            tile = rng.choice(pool) if pool and rng.random() < 0.9 else rng.randrange(len(s.tiles))
        elif arg == "src":
            src = rng.choice([*s.unit_positions(s.player), pos()])
        elif arg == "dst":
            dst = pos()
        else:
            tile = rng.randrange(small[arg])
    return Action(kind, tile, src, dst)


@given(seed=seeds, sets=set_choices)
@fast
def test_random_play_always_ends(seed: int, sets: str) -> None:
    """Final turn and end of the game: random legal play always reaches the end and scores."""
    *_, last = play(sets, seed)
    assert last.is_terminal() and last.current_player == TERMINAL
    assert last.legal_actions() == []
    assert sorted(last.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@given(seed=seeds, sets=set_choices)
@fast
def test_the_27_tiles_are_conserved(seed: int, sets: str) -> None:
    """Setup: the 27 tiles of the game stay in supply, reserve, hands, board or box, each once."""
    initial: Counter[int] | None = None
    for s in play(sets, seed):
        if not s.sets:
            continue  # chance has yet to pick the random sets
        now = Counter(tiles_everywhere(s))
        assert sum(now.values()) == 27 and max(now.values()) == 1
        if initial is None:
            initial = now
        assert now == initial


@given(seed=seeds, sets=set_choices)
@fast
def test_units_never_share_a_tile_after_the_start(seed: int, sets: str) -> None:
    """Setup note: only both elites on the start tile, before either moved, ever share a tile."""
    for s in play(sets, seed):
        placed = [(p, i) for i, p in enumerate(s.units) if p is not None]
        counts = Counter(p for p, _ in placed)
        for p, n in counts.items():
            if n > 1:
                assert p == START and n == 2
                assert sorted(i for q, i in placed if q == p) == [0, 3]
        assert all(p in s.board for p, _ in placed)


@given(seed=seeds, sets=set_choices, stop=st.floats(0.0, 1.0))
@fast
def test_every_record_replays_to_an_identical_state(seed: int, sets: str, stop: float) -> None:
    """Records: a game's record (through JSON text) replays to an identical state."""
    states = list(play(sets, seed))
    s = states[int(stop * (len(states) - 1))]
    doc = json.loads(json.dumps(s.record().to_json()))
    assert regalia.replay(doc).to_json() == s.to_json()


@given(seed=seeds, sets=set_choices)
@slow
def test_every_legal_action_is_accepted_and_applies(seed: int, sets: str) -> None:
    """Course of the game: every action listed as legal passes check() and applies."""
    for k, s in enumerate(play(sets, seed)):
        actions = s.legal_actions()
        fresh = uncached(s)
        for a in actions:
            fresh.check(a)
        if k % 3 == 0:
            for a in actions:
                s.clone().apply(a)


@given(seed=seeds, sets=set_choices)
@slow
def test_illegal_actions_are_refused_and_change_nothing(seed: int, sets: str) -> None:
    """Illegal actions raise IllegalAction naming a rule and leave to_json() unchanged; check() and
    legal_actions() agree on every action."""
    rng = random.Random(seed ^ 0x5EED)
    for s in play(sets, seed):
        if s.is_terminal():
            break
        legal = set(s.legal_actions())
        before = s.to_json()
        fresh = uncached(s)
        for _ in range(25):
            a = random_action(s, rng)
            assert fresh.is_legal(a) == (a in legal), s.action_text(a)
            if a not in legal:
                try:
                    s.apply(a)
                except IllegalAction as exc:
                    assert exc.rule
                else:
                    raise AssertionError(f"{s.action_text(a)} was applied")
        assert s.to_json() == before


@given(seed=seeds, sets=set_choices)
@fast
def test_notation_round_trips_for_every_legal_action(seed: int, sets: str) -> None:
    """Notation: parse_action(action_text(a)) == a for every legal action."""
    for s in play(sets, seed):
        for a in s.legal_actions():
            assert s.parse_action(s.action_text(a)) == a


@given(seed=seeds, sets=set_choices, stop=st.floats(0.0, 1.0))
@fast
def test_state_json_round_trips(seed: int, sets: str, stop: float) -> None:
    """Positions: state_from_json(to_json()) gives the same state, which plays on identically."""
    states = list(play(sets, seed))
    s = states[int(stop * (len(states) - 1))]
    g = game(sets)
    doc = json.loads(json.dumps(s.to_json()))
    back = g.state_from_json(doc)
    assert back.to_json() == s.to_json()
    assert back.legal_actions() == s.legal_actions()
    a, b = s.clone(), back
    rng = random.Random(seed)
    for _ in range(20):
        if a.is_terminal():
            break
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
    assert a.to_json() == b.to_json()


@given(seed=seeds, sets=set_choices, stop=st.floats(0.0, 1.0))
@fast
def test_clones_are_independent(seed: int, sets: str, stop: float) -> None:
    """State.clone(): playing on a clone never changes the original, nor the other way round."""
    states = list(play(sets, seed))
    s = states[int(stop * (len(states) - 1))].clone()
    before = s.to_json()
    c = s.clone()
    rng = random.Random(seed)
    while not c.is_terminal():
        c.apply(rng.choice(c.legal_actions()))
    assert s.to_json() == before
    c_before = c.to_json()
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    assert c.to_json() == c_before


@given(seed=seeds, sets=set_choices, stop=st.floats(0.0, 1.0))
@fast
def test_determinize_keeps_what_the_seat_sees(seed: int, sets: str, stop: float) -> None:
    """Hidden information: a determinized state looks the same to the seat (nothing of the supply's
    order exists before chance draws it)."""
    states = list(play(sets, seed))
    s = states[int(stop * (len(states) - 1))]
    seat = max(s.current_player, 0)
    d = s.determinize(seat, random.Random(seed))
    assert d.observation(seat) == s.observation(seat)
    assert sorted(d.supply) == sorted(s.supply) and d.to_json() == s.to_json()


def eager_step(s: TwoHeirsState, rng: random.Random) -> bool:
    """Chance's outcomes up to the next seat's action, then that action, at random but leaning to
    the kinds that change the scoring most (:data:`INTERESTING`); False once the game is over."""
    while s.current_player == CHANCE:
        s.apply(s.sample_chance(rng))
    if s.is_terminal():
        return False
    actions = s.legal_actions()
    eager = [a for a in actions if a.kind in INTERESTING]
    s.apply(rng.choice(eager) if eager and rng.random() < 0.8 else rng.choice(actions))
    return True


@given(seed=seeds, sets=set_choices, roads=st.booleans())
@fast
def test_incremental_scores_equal_the_full_scoring(seed: int, sets: str, roads: bool) -> None:
    """Scoring: the engine's incremental tally (scores()) gives, after every action of a game, the
    totals of the full score sheet built from scratch (score_board), destructions and used camps
    included."""
    s: TwoHeirsState = game(sets, roads).new_state(seed)
    rng = random.Random(seed)
    while eager_step(s, rng):
        if rng.random() < 0.5:
            assert s.scores() == list(s.score_sheet().totals)
    assert s.scores() == list(s.score_sheet().totals)


@given(seed=seeds, sets=set_choices, gap=st.integers(min_value=1, max_value=25))
@fast
def test_scores_of_clones_after_long_unscored_stretches(seed: int, sets: str, gap: int) -> None:
    """Scoring: a clone shares its original's tally (clone() makes it once, so that a search's
    clones of one root do not each score the board from scratch), and the tally stays right
    however many tiles are laid before the next score: up to PLACES_BEFORE_REBUILD of them added
    one by one, past that the board scored from scratch."""
    s: TwoHeirsState = game(sets).new_state(seed)
    rng = random.Random(seed)
    decisions = 0
    while eager_step(s, rng):
        decisions += 1
        if decisions % gap == 0:
            copy = s.clone()
            assert s._tally is not None and copy._tally is s._tally
            assert copy.scores() == list(copy.score_sheet().totals)
            s = copy
    assert s.scores() == list(s.score_sheet().totals)


def assert_counts_are_the_boards(s: Any) -> None:
    for p in (0, 1):
        assert s.prod[p] == producers(s.board, s.tiles, p)
        assert s.camps_up[p] == sum(1 for c in s.board.values() if c in s.game.camp_codes[p])
    # the cells by square id: TILE where a tile lies, plus UNIT where a unit stands, 0 elsewhere;
    # and they reach every square around a tile or a unit
    cells: dict[int, int] = {}
    for pos in s.board:
        cells[square_id(pos)] = TILE
    for pos in {u for u in s.units if u is not None}:
        cells[square_id(pos)] = cells.get(square_id(pos), 0) | UNIT
    assert {i: c for i, c in enumerate(s.cells) if c} == cells
    standing = [*s.board, *(u for u in s.units if u is not None)]
    assert all(square_id(q) < len(s.cells) for pos in standing for q in neighbours8(pos))


@given(seed=seeds, sets=set_choices)
@fast
def test_the_counts_kept_as_buildings_come_and_go_are_the_boards(seed: int, sets: str) -> None:
    """Each seat's producers per resource ("Resources") and unused camps ("Dominion: Camp") are
    kept up to date as buildings are built, camps flipped and buildings destroyed, and the cells
    (where tiles lie and units stand) as tiles are laid and units move; after every action they
    are what the board shows, and a clone copies them."""
    for s in play(sets, seed):
        assert_counts_are_the_boards(s)
        twin = s.clone()
        assert (twin.prod, twin.camps_up, twin.cells) == (s.prod, s.camps_up, s.cells)
        assert twin.cells is not s.cells


@given(seed=seeds, sets=st.sampled_from(SET_CHOICES[:4]))
@fast
def test_the_counts_kept_are_the_boards_in_the_solo_game_too(seed: int, sets: str) -> None:
    """The same in the solo game, where Henry builds and moves too ("Solo: Henry's turn")."""
    s = regalia.load_game("two-heirs", solo=True, sets=sets).new_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s.apply(s.sample_chance(rng))
        elif s.current_player in s.automaton_seats():
            s.apply(s.forced_action())
        else:
            s.apply(rng.choice(s.legal_actions()))
        assert_counts_are_the_boards(s)


@given(seed=seeds, sets=set_choices)
@fast
def test_the_generators_squares_are_the_rules_queries(seed: int, sets: str) -> None:
    """What the generator lists of the squares around the seat's units is what each rule asks on
    its own: a tile of the hand as free terrain at every square of
    :meth:`placements` in its order (B.2), a step for each unit that has not moved to each tile
    around it with no unit on it, and a call to each tile around any of the seat's units with no
    unit on it while a unit that has not moved is in the royal reserve (C)."""
    for s in play(sets, seed):
        if s.current_player < 0 or s.pending or s.discarding:
            continue
        p = s.player
        legal = s.legal_actions()
        hand = sorted(set(s.hands[p]))
        # B.1, B.2 read literally: each free square touching one of the seat's units, by side or
        # corner, in the order of the units and of their neighbours, once
        free: list[tuple[int, int]] = []
        for u in s.units[p * 3 : p * 3 + 3]:
            if u is not None:
                free += [q for q in neighbours8(u) if q not in s.board and q not in free]
        assert s.placements(p) == free
        if hand:
            assert [a.dst for a in legal if a.kind == "terrain" and a.tile == hand[0]] == free
        base = p * 3
        steps, around = [], set()
        for i in range(base, base + 3):
            u = s.units[i]
            if u is None:
                continue
            ok = [q for q in neighbours8(u) if q in s.board and q not in s.unit_at]
            around.update(ok)
            if not s.moved >> i & 1:
                steps += [(u, q) for q in ok]
        assert [(a.src, a.dst) for a in legal if a.kind == "step"] == steps
        callable_ = any(s.units[i] is None and not s.moved >> i & 1 for i in (base + 1, base + 2))
        assert [a.dst for a in legal if a.kind == "call"] == (sorted(around) if callable_ else [])


def test_a_pickled_state_plays_on_in_another_process() -> None:
    """The cells are kept by square id, worked out from the coordinates, and the tables by id of
    a new interpreter grow to the state's (the root-parallel helpers and the lab's workers
    unpickle states played elsewhere): there, the cells are what the board shows, and the legal
    actions and a random game on are those of the process that played it."""
    from regalia.core.loop import playout

    from ..elsewhere import in_new_interpreter

    state = game(SET_CHOICES[0]).new_state(seed=5)
    playout(state, random.Random(5), decisions=60)
    assert not state.is_terminal()
    script = (
        "import random\n"
        "from regalia.core.loop import playout\n"
        "from tests.games.two_heirs.test_properties import assert_counts_are_the_boards\n"
        "assert_counts_are_the_boards(state)\n"
        "print([state.notation(a) for a in state.legal_actions()])\n"
        "playout(state, random.Random(9))\n"
        "print(state.history_json())\n"
    )
    here = state.clone()
    playout(here, random.Random(9))
    assert in_new_interpreter(state, script) == [
        str([state.notation(a) for a in state.legal_actions()]),
        str(here.history_json()),
    ]
