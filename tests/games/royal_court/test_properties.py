"""Properties of random games (hypothesis): the board stays sound, moves are one square onto an
empty square, games end under the turn cap, records replay, refusals change nothing."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.errors import IllegalAction
from regalia.core.record import replay
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.state import OCCUPIED, P_MOVE, P_PLAY, RoyalCourtState

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_random(seed: int, check: Any = None, **options: Any) -> RoyalCourtState:
    state = regalia.load_game("royal-court", **options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = state.sample_chance(rng) if state.current_player < 0 else legal[rng.randrange(len(legal))]
        before = state.clone()
        state.apply(action)
        if check is not None:
            check(before, action, state)
    assert isinstance(state, RoyalCourtState)
    return state


def sound(state: RoyalCourtState) -> None:
    """No two pieces share a square; board and positions agree; every tile is in exactly one of
    the board, a zone, or out of the game."""
    assert len(set(state.board.values())) == len(state.board)
    for pos, piece in state.board.items():
        assert state.at[piece] == pos
    for piece in range(2, len(state.at)):
        places = [
            state.at[piece] is not None,
            bool(state.zone >> piece & 1),
            bool(state.removed >> piece & 1),
        ]
        assert places.count(True) == 1, (piece, places)
    # the counts of pieces around each square, plus OCCUPIED where a piece stands, kept up to
    # date as pieces come, go and move (where a step may end, Gameplay 3), are those of the board
    near = Counter(q for pos in state.board for q in regalia.core.grid.neighbours8(pos))
    near.update({pos: OCCUPIED for pos in state.board})
    assert state.counts() == dict(near)


def steps_worked_out(state: RoyalCourtState, pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Gameplay 3 read literally: an empty neighbour of ``pos`` beside a piece other than the one
    that moves."""
    nb8 = regalia.core.grid.neighbours8
    return [
        q for q in nb8(pos) if q not in state.board and any(r != pos and r in state.board for r in nb8(q))
    ]


def steps_as_the_rules_say(before: RoyalCourtState, action: act.Action, after: RoyalCourtState) -> None:
    for state in (before, after):
        for pos in state.board:
            assert state.steps_from(pos) == steps_worked_out(state, pos)
        if state.phase == P_MOVE and not state.is_terminal():
            # step 3's moves: every tile in play of the player, to every such square, and no other
            moves = {(a.src, a.dst) for a in state.legal_actions() if a.kind == act.MOVE}
            wanted = set()
            for piece in state.tiles_in_play(state.player):
                src = state.at[piece]
                assert src is not None
                wanted |= {(src, q) for q in steps_worked_out(state, src)}
            assert moves == wanted


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_steps_end_beside_another_piece(seed: int) -> None:
    """Gameplay 3: from every square of every position of a random game, the steps the engine
    gives (from its counts of pieces around squares) are the rule's, worked out square by square."""
    play_random(seed, steps_as_the_rules_say)


def frontier_as_the_rules_say(before: RoyalCourtState, action: act.Action, after: RoyalCourtState) -> None:
    nb8 = regalia.core.grid.neighbours8
    for state in (before, after):
        # Gameplay 1 read literally: an empty square with a piece on one of its eight sides or
        # corners; each once (the engine reads them off its counts)
        squares = state.frontier()
        wanted = {q for pos in state.board for q in nb8(pos) if q not in state.board}
        assert len(squares) == len(set(squares)) and set(squares) == wanted
        if state.phase == P_PLAY and not state.is_terminal():
            # every tile the player may play, onto every such square, and nothing else
            plays = {(a.arg, a.dst) for a in state.legal_actions() if a.kind == act.PLAY}
            forced = state.forced[state.player]
            tiles = [forced] if forced in state.zone_tiles(state.player) else state.zone_tiles(state.player)
            assert plays == {(k, q) for k in tiles for q in wanted}


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_tiles_are_played_beside_a_piece(seed: int) -> None:
    """Gameplay 1: in every position of a random game the frontier and the ``play`` actions the
    engine gives (from its counts of pieces around squares) are the rule's, worked out square by
    square."""
    play_random(seed, frontier_as_the_rules_say)


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), consort=st.sampled_from(["king", "queen"]))
def test_no_two_tiles_share_a_square(seed: int, consort: str) -> None:
    """Setup and Gameplay: one tile per square of the imaginary grid, always."""
    play_random(seed, lambda before, action, after: sound(after), consort=consort)


def one_square_onto_empty(before: RoyalCourtState, action: act.Action, after: RoyalCourtState) -> None:
    if action.kind in (act.MOVE, act.CONSORT):
        src, dst = action.src, action.dst
        assert src is not None and dst is not None
        assert max(abs(src[0] - dst[0]), abs(src[1] - dst[1])) == 1  # nothing in between to pass over
        assert dst not in before.board and src in before.board
        assert any(q in after.board for q in regalia.core.grid.neighbours8(dst))


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_moves_never_pass_over_or_onto_tiles(seed: int) -> None:
    """Gameplay 3: a tile never ends up on or moves over another tile and ends adjacent to one."""
    play_random(seed, one_square_onto_empty)


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), cap=st.integers(10, 80))
def test_every_game_ends_under_the_cap(seed: int, cap: int) -> None:
    """Ruling RC-turn-cap: every game ends, at the latest after ``turn_cap`` turns."""
    state = play_random(seed, turn_cap=cap)
    assert state.is_terminal() and state.turn <= cap
    assert state.ending in ("surround", "scored", "cap")


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1))
def test_records_replay_identically(seed: int) -> None:
    """A record replays to the same state without the seed."""
    state = play_random(seed)
    again = replay(state.record(), seed=seed + 1)
    assert again.to_json() == state.to_json()
    assert again.returns() == state.returns()


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), stop=st.integers(2, 80), pick=st.integers(0, 10**6))
def test_illegal_actions_leave_the_state_unchanged(seed: int, stop: int, pick: int) -> None:
    """An action legal elsewhere but not here is refused and the state is unchanged."""
    game = regalia.load_game("royal-court")
    state = game.new_state(seed)
    rng = random.Random(seed)
    pool: list[act.Action] = []
    for _ in range(stop):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        pool.extend(legal[:5])
        state.apply(
            state.sample_chance(rng) if state.current_player < 0 else legal[rng.randrange(len(legal))]
        )
    legal = state.legal_actions()
    wrong = [a for a in pool if a not in legal]
    assume(wrong)  # from the second ply on, the chance outcomes at least are wrong
    action = wrong[pick % len(wrong)]
    before = (state.to_json(), state.ply, state.legal_actions())
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert "[" in str(exc)
    else:
        raise AssertionError(f"{action} accepted")
    assert (state.to_json(), state.ply, state.legal_actions()) == before


def test_a_pickled_state_plays_on_in_another_process() -> None:
    """The counts and the frontier are kept by square ids worked out from the coordinates, not
    given in the order a process met the squares, and a new interpreter's tables by id grow to
    the state's: a position pickled here (as the root-parallel helpers and the lab's workers
    receive it) lists the same legal actions there, and its counts are its board's."""
    from regalia.core.loop import playout

    from ..elsewhere import in_new_interpreter

    state = regalia.load_game("royal-court").new_state(seed=5)
    playout(state, random.Random(5), decisions=25)
    assert not state.is_terminal()
    script = (
        "from regalia.core.grid import neighbours8\n"
        "counts = {}\n"
        "for pos in state.board:\n"
        "    counts[pos] = counts.get(pos, 0) + 16\n"
        "    for q in neighbours8(pos):\n"
        "        counts[q] = counts.get(q, 0) + 1\n"
        "assert state.counts() == counts\n"
        "print([state.notation(a) for a in state.legal_actions()])\n"
    )
    assert in_new_interpreter(state, script) == [str([state.notation(a) for a in state.legal_actions()])]
