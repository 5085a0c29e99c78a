"""The Two Heirs' statistics hook (stats.game_statistics): its counts against the finished game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import regalia
from regalia.ai import GreedyAgent
from regalia.core.errors import RegaliaError
from regalia.games.two_heirs.board import owner_of, tile_of
from regalia.games.two_heirs.henry import HENRY, TREASURE_POINTS
from regalia.games.two_heirs.stats import KIND_FAMILIES, game_statistics, kinds_in_play
from regalia.games.two_heirs.tiles import SET_BUILDINGS, SETS

from .builders import BLUE, GREY, WHITE, acts, basic

#: (options, seed): two-player with the first-game sets, other sets, no roads; solo at two levels.
GAMES: list[tuple[dict[str, Any], int]] = [
    ({}, 1),
    ({}, 2),
    ({"sets": "dominion,warfare,guard"}, 3),
    ({"sets": "crafts,warfare,wandering", "roads": False}, 4),
    ({"sets": "random"}, 5),
    ({"solo": True, "level": 1}, 6),
    ({"solo": True}, 7),
]


def finished(options: dict[str, Any], seed: int) -> Any:
    """A finished game: each decision by the greedy agent or at random (half and half)."""
    state = regalia.load_game("two-heirs", **options).new_state(seed)
    rng = random.Random(seed)
    greedy = GreedyAgent()
    while not state.is_terminal():
        state.advance(rng)
        if state.is_terminal():
            break
        if rng.random() < 0.5:
            state.apply(greedy.choose(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{g[1]}")
def game(request: pytest.FixtureRequest) -> tuple[Any, list[dict[str, float]]]:
    state = finished(*request.param)
    return state, game_statistics(state)


def face_up(state: Any, seat: int) -> Counter[str]:
    return Counter(
        state.tiles[tile_of(code)].building for code in state.board.values() if owner_of(code) == seat
    )


def test_points_add_up_to_the_score(game: tuple[Any, list[dict[str, float]]]) -> None:
    """Every point of the score sheet is in exactly one points: key."""
    state, stats = game
    for seat in (0, 1):
        points = sum(v for k, v in stats[seat].items() if k.startswith("points:"))
        assert points == stats[seat]["score"] == state.scores()[seat]


def test_points_per_kind_are_the_score_sheets(game: tuple[Any, list[dict[str, float]]]) -> None:
    state, stats = game
    sheet = state.score_sheet()
    for seat in (0, 1):
        for kind in kinds_in_play(state):
            lines = [b.points for b in sheet.buildings if b.owner == seat and b.building == kind]
            assert stats[seat][f"points:{kind}"] == sum(lines), kind
        assert stats[seat]["doubled"] == sum(1 for b in sheet.buildings if b.owner == seat and b.doubled)
        if state.game.options.roads:
            assert stats[seat]["points:roads"] == sheet.road_points(seat)
        else:
            assert "points:roads" not in stats[seat]


def test_built_less_lost_and_used_camps_are_the_face_up_buildings(
    game: tuple[Any, list[dict[str, float]]],
) -> None:
    """built:K counts every construction; those destroyed or used (camps) are face down at the end."""
    state, stats = game
    for seat in (0, 1):
        board = face_up(state, seat)
        for kind in kinds_in_play(state):
            standing = stats[seat][f"built:{kind}"] - stats[seat].get(f"lost:{kind}", 0.0)
            if kind == "camp":
                standing -= stats[seat]["camps-used"]
            assert standing == board[kind], kind


def test_every_tile_taken_is_built_played_discarded_or_still_in_hand(
    game: tuple[Any, list[dict[str, float]]],
) -> None:
    state, stats = game
    for seat in (0, 1):
        hand = Counter(state.tiles[t].building for t in state.hands[seat])
        for kind in kinds_in_play(state):
            s = stats[seat]
            used = s[f"built:{kind}"] + s[f"terrain:{kind}"] + s[f"discarded:{kind}"]
            assert s[f"held:{kind}"] == used + hand[kind], kind
        assert stats[seat]["terrain"] == sum(stats[seat][f"terrain:{k}"] for k in kinds_in_play(state))


def test_keys_cover_the_kinds_in_play_and_only_them(game: tuple[Any, list[dict[str, float]]]) -> None:
    state, stats = game
    kinds = kinds_in_play(state)
    # every building of the sets in play (the shipped catalogue has them all), in rulebook order
    assert kinds == [b for s in SETS if s in state.sets for b in SET_BUILDINGS[s]]
    solo = state.game.options.solo
    for seat in (0, 1):
        henry = solo and seat == HENRY
        for family in KIND_FAMILIES:
            no_siege = family == "lost" and "warfare" not in state.sets
            expected = not (family == "cost" and henry) and not no_siege
            for kind in kinds:
                assert (f"{family}:{kind}" in stats[seat]) == expected, (family, kind)
        families = [k.split(":") for k in stats[seat] if ":" in k]
        assert {kind for f, kind in families if f != "points"} <= set(kinds)
        assert {kind for f, kind in families if f == "points"} <= {*kinds, "roads", "treasures"}
        assert ("camps-used" in stats[seat]) == ("dominion" in state.sets)
        assert ("destroyed" in stats[seat]) == ("warfare" in state.sets)
        assert ("reserve-units" in stats[seat]) == (not henry)
        assert all(isinstance(v, float) for v in stats[seat].values())


def test_solo_treasures(game: tuple[Any, list[dict[str, float]]]) -> None:
    """Solo scoring: Henry's 5 points per treasure left; the player's count of treasures removed."""
    state, stats = game
    if not state.game.options.solo:
        assert not any(k.startswith("treasures") or k == "points:treasures" for s in stats for k in s)
        return
    left = len(state.treasures) + state.pile_left
    assert stats[HENRY]["treasures-left"] == left
    assert stats[HENRY]["points:treasures"] == TREASURE_POINTS * left
    assert stats[0]["treasures-removed"] == len(state.taken)
    assert not any(k.startswith("cost:") for k in stats[HENRY])


def test_cost_is_the_printed_cost_of_the_buildings_constructed() -> None:
    s = basic(hands=[["W1"], []], units=[(0, 0), None, None, (5, 5), None, None])
    s.sets = ("wandering", "dominion", "trade-and-church")
    # W1 (inn) costs 2 stone + 1 grain; the reserve W1, D1, T3 and the grey start give enough
    s.reserve = [-1, s.game.catalogue.by_id["W8"].index, *s.reserve[2:]]
    acts(s, "take W8", "build W1 1,0")
    s.terminal = True  # count the game as it stands
    white, _ = game_statistics(s)
    assert white["built:inn"] == 1 and white["cost:inn"] == 3
    assert white["held:bandit-stronghold"] == 1 and white["built:bandit-stronghold"] == 0


def test_destructions_and_lost_buildings() -> None:
    """Warfare, Siege tower: the destroyer counts a destruction, the owner a lost building of its kind."""
    s = basic(
        board={(2, 0): "D4@1", (2, 1): "V2@0", (3, 1): GREY},
        units=[(3, 1), None, None, (2, 0), None, None],
        hands=[["V4", "V6"], []],
    )
    s.sets = ("dominion", "warfare", "guard")
    acts(s, "build V4 3,0", "destroy 2,0")
    s.terminal = True  # count the game as it stands
    white, blue = game_statistics(s)
    assert white["destroyed"] == 1 and white["built:siege-tower"] == 1
    assert blue["lost:bakery"] == 1 and blue["destroyed"] == 0
    assert white["lost:bakery"] == 0 and blue["points:bakery"] == 0


def test_used_camps_are_counted() -> None:
    """Dominion, Camp: a used camp counts in camps-used and scores nothing."""
    s = basic(board={(1, 0): "D9@0", (2, 2): "D7@1"})
    acts(s, "take W1", "camp D9", "take D1")
    s.terminal = True  # count the game as it stands
    white, blue = game_statistics(s)
    assert white["camps-used"] == 1 and blue["camps-used"] == 0
    assert white["held:inn"] == 1 and white["held:mill"] == 1
    assert white["points:camp"] == 0 and blue["points:camp"] == 2


def test_only_a_finished_game_is_counted() -> None:
    state = regalia.load_game("two-heirs").new_state(1)
    with pytest.raises(RegaliaError, match="finished game"):
        game_statistics(state)


def test_the_plugin_declares_the_hook() -> None:
    from regalia.core.registry import game_plugin

    plugin = game_plugin("two-heirs")
    state = finished({}, 9)
    assert plugin.statistics(state) == game_statistics(state)
    assert WHITE == 0 and BLUE == 1
