"""Property tests of the Carcassonne engine: random legal games (every option), invariants checked
after every ply, round trips of records and state documents.

Rules behind the invariants (data/rules.md): "Placing a tile" (edges match, the tile touches the
board by a side), "Deploying a follower" (7 followers per player), "Scoring" (a completed feature is
scored once, its followers go home; points only grow), "Heretics and Shrines: placing a tile" (a
shrine touches at most one cloister and a cloister at most one shrine).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import regalia
from regalia.core.errors import IllegalAction
from regalia.core.game import CHANCE
from regalia.core.grid import neighbours8, square_id
from regalia.games.carcassonne.actions import DRAW, FOLLOWER, PASS, PLACE, Action
from regalia.games.carcassonne.base import AROUND, FOLLOWERS, PH_PLACE, SIDE_VECTORS, TILE, order_key
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import ABBEYS, CITY, CLOISTER, HALVES, PATTERNS, ROAD, SHRINE, SIDES

from .builders import reference_features, supply_ok

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"players": 3, "farmers": False},
    {"players": 5, "small_city": 2},
    {"shrines": "5"},
    {"shrines": "6", "players": 4},
    {"shrines": "6", "challenge_house_rule": True},
    {"shrines": "5", "players": 3, "challenge_house_rule": True, "farmers": False},
)

seeds = st.integers(min_value=0, max_value=2**31 - 1)
option_sets = st.sampled_from(OPTION_SETS)
#: the option sets that put shrines in the bag (without them there is no shrine to restrict)
SHRINE_OPTION_SETS = tuple(o for o in OPTION_SETS if o.get("shrines", "off") != "off")
fast = settings(max_examples=30, deadline=None)
slow = settings(max_examples=8, deadline=None)


@cache
def game(key: tuple[tuple[str, Any], ...]) -> Any:
    return regalia.load_game("carcassonne", **dict(key))


def new(options: dict[str, Any], seed: int) -> CarcassonneState:
    state: CarcassonneState = game(tuple(sorted(options.items()))).new_state(seed)
    return state


def choose(state: CarcassonneState, rng: random.Random, eager: float) -> Action:
    """A random legal action (chance's by its probabilities); a follower with probability ``eager``
    when one may be deployed."""
    if state.current_player == CHANCE:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    followers = [a for a in legal if a.kind == FOLLOWER]
    if followers and rng.random() < eager:
        return rng.choice(followers)
    return rng.choice([a for a in legal if a.kind != FOLLOWER])


def play(options: dict[str, Any], seed: int) -> Iterator[CarcassonneState]:
    """Every state of a random game, the final one included. The seed also picks how often the
    players deploy a follower (always, half the time, rarely), so that followers run out in some
    games and stay in the supply in others."""
    state = new(options, seed)
    rng = random.Random(seed)
    eager = (1.0, 0.5, 0.1)[seed % 3]
    while True:
        yield state
        if state.is_terminal():
            return
        state.apply(choose(state, rng, eager))


def play_out(options: dict[str, Any], seed: int) -> CarcassonneState:
    state = new(options, seed)
    for state in play(options, seed):  # noqa: B007
        pass
    return state


def edges_match(state: CarcassonneState) -> None:
    """Every tile touches another by a side, and the edges of side neighbours match."""
    for pos in state.board:
        turned = state.turned(pos)
        x, y = pos
        touching = 0
        for side, (dx, dy) in enumerate(SIDE_VECTORS):
            q = (x + dx, y + dy)
            if q in state.board:
                touching += 1
                assert turned.edges[side] == state.turned(q).edges[(side + 2) % 4], (pos, q)
        assert touching or len(state.board) == 1, pos


def complete(state: CarcassonneState, kind: str, tiles: list[tuple[int, int]]) -> bool:
    """True if a feature of ``kind`` covering exactly ``tiles`` is complete on the board."""
    if kind in ABBEYS:
        (pos,) = tiles
        return state.abbey_neighbours(pos) == 8
    first = tiles[0]
    for i, seg in enumerate(state.turned(first).segments):
        record = state.feature(first, i)
        if seg.kind == kind and sorted(record.tiles) == tiles:
            return record.open == 0
    raise AssertionError(f"no {kind} covers {tiles}")


def check_ply(state: CarcassonneState, previous: list[int], seen: set[tuple[str, tuple[Any, ...]]]) -> None:
    """The invariants of one position (see the module docstring), and the free positions kept."""
    assert supply_ok(state)
    assert all(0 <= n <= FOLLOWERS for n in state.followers)
    assert all(p >= q for p, q in zip(state.points, previous, strict=True)), "a score went down"
    # between laying a tile and the follower step, what the tile completed is not scored yet
    settled = state.meeples if state.placed is None else {}
    for pos, (_, segment) in settled.items():
        seg = state.turned(pos).segments[segment]
        record = state.feature(pos, segment)
        if seg.kind in (CITY, ROAD):
            assert record.open > 0, f"a follower stands on a completed {seg.kind} at {pos}"
        elif seg.kind in ABBEYS:
            assert state.abbey_neighbours(pos) < 8, f"a follower stands on a completed {seg.kind}"
    earned = [0] * state.num_players
    for event in state.events():
        if event[1] in ("score", "final"):
            earned = [a + b for a, b in zip(earned, event[3], strict=True)]
        if event[1] == "score":
            key = (event[2], tuple(event[4]))
            if key not in seen:
                assert complete(state, event[2], event[4]), event
            seen.add(key)
    assert earned == state.points, "points not accounted for by scoring events"
    # the free positions beside the board, from which placements are read in order ("Placing a
    # tile"), kept up to date and in order as tiles are laid, and copied by a clone
    free = {(x + dx, y + dy) for x, y in state.board for dx, dy in SIDE_VECTORS} - state.board.keys()
    assert set(state.need) == free
    for (x, y), pattern in state.need.items():  # each pattern: the edges its neighbours show it
        shown = [
            state.turned((x + dx, y + dy)).edges[(side + 2) % 4] if (x + dx, y + dy) in state.board else "."
            for side, (dx, dy) in enumerate(SIDE_VECTORS)
        ]
        assert PATTERNS[pattern] == "".join(shown)
    assert [(q, pattern) for q, pattern, _ in state.need_sorted] == sorted(state.need.items())
    # the same squares by id: a tile's code, a free position's pattern, 0 elsewhere
    by_id = {square_id(q): TILE + code for q, code in state.board.items()}
    by_id.update({square_id(q): pattern for q, pattern in state.need.items()})
    assert {i: c for i, c in enumerate(state.cells) if c} == by_id
    assert all(square_id(q) < len(state.cells) for x, y in state.board for q in neighbours8((x, y)))
    assert state.need_keys == [order_key(q) for q, _, _ in state.need_sorted]
    copy = state.clone()
    assert (copy.need, copy.need_sorted, copy.need_keys) == (state.need, state.need_sorted, state.need_keys)


@fast
@given(seed=seeds, options=option_sets)
def test_invariants_hold_after_every_ply(seed: int, options: dict[str, Any]) -> None:
    """Followers are conserved (on the board + in the supply = 7 per seat), scores never decrease,
    no follower stands on a completed feature, every point comes from a scoring event, every scored
    feature is complete; at the end the edges of all neighbours match and the bag is used up."""
    previous = [0] * (options.get("players", 2))
    seen: set[tuple[str, tuple[Any, ...]]] = set()
    scores_seen = 0
    state = new(options, seed)
    for state in play(options, seed):
        check_ply(state, previous, seen)
        previous = list(state.points)
        score_events = [e for e in state.events() if e[1] == "score"]
        assert len(score_events) >= scores_seen
        scores_seen = len(score_events)
    assert state.is_terminal() and state.bag_left == 0
    edges_match(state)
    discards = sum(1 for e in state.events() if e[1] == "discard")
    assert len(state.board) + discards == 1 + sum(state.game.bag_counts())
    assert state.meeples == {} and state.followers == [FOLLOWERS] * state.num_players


def completed_by(state: CarcassonneState, action: Action) -> set[tuple[str, tuple[Any, ...]]]:
    """Before the follower step: the features the tile just laid completed that hold a follower once
    ``action`` is applied (cities and roads of the tile, cloisters and shrines on it or around it)."""
    pos = state.placed
    assert pos is not None
    turned = state.turned(pos)
    deployed = -1
    if action.kind == FOLLOWER:
        deployed = turned.segment_named(action.feature, action.side or action.feature)
    out = set()
    for i, seg in enumerate(turned.segments):
        record = state.feature(pos, i)
        held = bool(record.meeples) or (
            deployed >= 0 and state.feature_root(pos, i) == state.feature_root(pos, deployed)
        )
        if seg.kind in (CITY, ROAD) and record.open == 0 and held:
            out.add((seg.kind, tuple(sorted(record.tiles))))
    x, y = pos
    for q in [pos, *((x + dx, y + dy) for dx, dy in AROUND)]:
        kind = state.abbeys.get(q)
        if kind is None or state.abbey_neighbours(q) < 8:
            continue
        abbey = state.turned(q).abbey
        if state.feature(q, abbey).meeples or (q == pos and deployed == abbey):
            out.add((kind, (q,)))
    return out


@fast
@given(seed=seeds, options=option_sets)
def test_a_completed_feature_is_scored_exactly_once(seed: int, options: dict[str, Any]) -> None:
    """Scoring: every occupied feature that a tile completes is scored in that turn (with the
    follower just deployed), nothing else is scored during play, and no feature twice (features are
    told apart by kind and tiles: two complete features never cover the same tiles)."""
    state = new(options, seed)
    rng = random.Random(seed)
    eager = (1.0, 0.5, 0.1)[seed % 3]
    keys: list[tuple[str, tuple[Any, ...]]] = []
    while not state.is_terminal():
        action = choose(state, rng, eager)
        expected = completed_by(state, action) if state.placed is not None else set()
        before = len(state.events())
        state.apply(action)
        new_keys = [(e[2], tuple(e[4])) for e in state.events()[before:] if e[1] == "score"]
        assert set(new_keys) == expected and len(new_keys) == len(expected), (new_keys, expected)
        keys.extend(new_keys)
    assert len(keys) == len(set(keys))


@fast
@given(seed=seeds, options=st.sampled_from(SHRINE_OPTION_SETS))
def test_shrine_and_cloister_restriction_always_holds(seed: int, options: dict[str, Any]) -> None:
    """Heretics and Shrines: placing a tile ([2]-[4]): each shrine touches (by a side or a corner) at
    most one cloister and each cloister at most one shrine. Only games with shrines in the bag (the
    others have no shrine to restrict): at the end every shrine tile of the set (5 or 6) is on the
    board or was discarded, and some are on the board, so the check is never empty."""
    state = play_out(options, seed)
    placed = sum(kind == SHRINE for kind in state.abbeys.values())
    discarded = sum(e[1] == "discard" and state.cat.by_id[e[2]].shrine for e in state.events())
    assert placed + discarded == int(options["shrines"]) and placed > 0
    for pos, kind in state.abbeys.items():
        other = CLOISTER if kind == SHRINE else SHRINE
        x, y = pos
        assert sum(state.abbeys.get((x + dx, y + dy)) == other for dx, dy in AROUND) <= 1


@slow
@given(seed=seeds, options=option_sets)
def test_records_and_state_documents_replay_identically(seed: int, options: dict[str, Any]) -> None:
    """A record (its draws included) replays to the same state, without the seed; so does a state
    document, at the end and in the middle of a game."""
    state = new(options, seed)
    middle = None
    for state in play(options, seed):
        if middle is None and state.ply >= 60:
            middle = state.clone()
    record = state.record()
    assert "seed" not in record.to_json()
    assert regalia.replay(record).to_json() == state.to_json()
    assert state.game.state_from_json(state.to_json()).to_json() == state.to_json()
    assert middle is not None
    assert regalia.replay(middle.record()).to_json() == middle.to_json()
    assert state.game.state_from_json(middle.to_json()).to_json() == middle.to_json()


def illegal_candidates(state: CarcassonneState, rng: random.Random) -> list[Action]:
    """Actions of every kind, most of them illegal here."""
    cat = state.cat
    tiles = [t.index for t in cat.types]
    out = [
        Action(DRAW, rng.choice(tiles)),
        Action(PASS),
        Action(FOLLOWER, feature=rng.choice((CITY, ROAD, "field")), side=rng.choice(SIDES + HALVES)),
        Action(FOLLOWER, feature=rng.choice(tuple(ABBEYS))),
    ]
    spots = list(state.board) + list(state.need)
    for _ in range(6):
        x, y = rng.choice(spots)
        pos = (x + rng.randint(-1, 1), y + rng.randint(-1, 1))
        tile = state.drawn if state.drawn >= 0 and rng.random() < 0.8 else rng.choice(tiles)
        out.append(Action(PLACE, tile, pos, rng.choice(cat.types[tile].rotations)))
    return out


@fast
@given(seed=seeds, options=option_sets)
def test_illegal_actions_are_refused_and_change_nothing(seed: int, options: dict[str, Any]) -> None:
    """Every rule: an action not in the legal list is refused (IllegalAction naming a rule) and
    leaves the state as it was; every listed action is accepted by the check."""
    rng = random.Random(seed ^ 0x5A5A)
    for state in play(options, seed):
        if state.is_terminal() or rng.random() > 0.15:
            continue
        legal = state.legal_actions()
        for action in legal[:5]:
            assert state.is_legal(action)
        before = state.to_json()
        for action in illegal_candidates(state, rng):
            if action in legal:
                continue
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert exc.rule
            else:
                raise AssertionError(f"{action} was accepted but is not legal")
            assert state.to_json() == before


def matches_reference(state: CarcassonneState) -> None:
    """Every segment's feature in the engine is the reference's: kind, tiles, open edges, pennants,
    followers; for a field, the completed cities it touches."""
    reference = reference_features(state)
    for (pos, i), feature in reference.items():
        record = state.feature(pos, i)
        assert record.kind == feature["kind"]
        assert set(record.tiles) == feature["tiles"], (pos, i)
        if record.kind in (CITY, ROAD):
            assert record.open == feature["open"], (pos, i, record.open, feature["open"])
            assert record.pennants == feature["pennants"]
        on_it = sorted(p for p, (_, seg) in state.meeples.items() if (p, seg) in feature["members"])
        assert sorted(record.meeples) == on_it, (pos, i)
        if record.kind == "field":
            mine = {frozenset(state.fdata[root].tiles) for root in state.completed_cities(record)}  # type: ignore[union-attr]
            touched = set()
            for p, j in feature["members"]:
                for c in state.turned(p).segments[j].cities:
                    city = reference[(p, c)]
                    if city["open"] == 0:
                        touched.add(frozenset(city["tiles"]))
            assert mine == touched, (pos, i)


@slow
@given(seed=seeds, options=option_sets)
def test_features_match_a_search_from_scratch(seed: int, options: dict[str, Any]) -> None:
    """Placing a tile / Scoring: the engine keeps its features incrementally (a union-find); after
    every tile they are the ones a search over the board from scratch finds (the tiles each feature
    covers, its open edges and pennants, the followers on it, the completed cities a field
    touches)."""
    for state in play(options, seed):
        if state.placed is not None or state.is_terminal():
            matches_reference(state)


def test_a_state_sent_to_another_process_plays_on_the_same() -> None:
    """A search may run in other processes (``mcts:...:workers=2``): a state pickled into a fresh
    interpreter, whose tables by square id start empty, lists the same placements there after a
    draw ("Placing a tile"), and a random game on from it is the same as here: the free positions
    carry their patterns by numbers, and the cells their squares by ids, the same in every
    process."""
    from regalia.core.loop import playout

    from ..elsewhere import in_new_interpreter

    for state in play({"shrines": "6"}, 11):
        if state.ply > 60 and state.current_player == CHANCE:
            break
    draw = max(state.chance_outcomes())[0]  # a tile of the bag, the same every run
    here = state.clone()
    here.apply(draw)
    assert here.phase == PH_PLACE
    there = here.clone()
    playout(there, random.Random(4))
    script = (
        "import random\n"
        "from regalia.core.loop import playout\n"
        f"state.apply_text({state.notation(draw)!r})\n"
        "print(repr(state.legal_actions()))\n"
        "playout(state, random.Random(4))\n"
        "print(state.history_json(), state.scores())\n"
    )
    assert in_new_interpreter(state, script) == [
        repr(here.legal_actions()),
        f"{there.history_json()} {there.scores()}",
    ]
