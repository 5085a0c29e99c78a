"""Roads and the pilgrimage site (rules/the-two-heirs.md, Scoring: Roads; Wandering: Pilgrimage site).

Road tiles here are inline farms (worth no points themselves) with the given road sections.
"""

from __future__ import annotations

from .builders import BLUE, GREEN, WHITE, Board, position, road

AT = (0, 0)


def roads_of(b: Board) -> list[tuple[tuple[tuple[int, int], ...], tuple[int, int], int | None, int]]:
    return [(r.tiles, r.buildings, r.winner, r.points) for r in b.sheet().roads]


def test_road_majority_minus_minority() -> None:
    """Roads: the player with more buildings on a road scores the difference."""
    b = Board()
    for x, owner in enumerate([WHITE, WHITE, WHITE, BLUE]):
        b.put((x, 0), road("E-W"), owner)
    assert roads_of(b) == [(((0, 0), (1, 0), (2, 0), (3, 0)), (3, 1), WHITE, 2)]
    assert b.sheet().totals == (2, 0)


def test_road_with_one_tile_scores_nothing() -> None:
    """Roads (R-road-majority): a road scores only if it connects buildings on at least 2 tiles."""
    b = Board().put(AT, road("E-W"), WHITE)
    assert b.sheet().roads == () and b.sheet().totals == (0, 0)


def test_road_tie_scores_nobody() -> None:
    """Roads: with equal numbers of buildings nobody scores the road."""
    b = Board().put(AT, road("E-W"), WHITE).put((1, 0), road("E-W"), BLUE)
    assert roads_of(b) == [(((0, 0), (1, 0)), (1, 1), None, 0)]


def test_free_terrain_breaks_a_road() -> None:
    """Roads: free terrain is not part of a road and does not connect roads."""
    b = Board().put(AT, road("E-W"), WHITE).put((2, 0), road("E-W"), WHITE)
    b.put((1, 0), road("E-W"))  # printed road, but face down
    assert b.sheet().roads == ()


def test_roads_continue_only_where_both_tiles_have_a_road_on_the_shared_edge() -> None:
    """Roads (R-road-junction): roads need not line up; a road ends at an edge without a road."""
    b = Board().put(AT, road("E-W"), WHITE).put((1, 0), road("N-S"), WHITE)
    assert b.sheet().roads == ()
    b.put((1, 0), road("W-N"), WHITE).put((1, 1), road("S"), WHITE)
    assert roads_of(b) == [(((0, 0), (1, 0), (1, 1)), (3, 0), WHITE, 3)]


def test_crossroads_tile_ends_each_of_its_roads() -> None:
    """Roads (R-road-junction): a tile with 4 separate sections ends each road leading to it."""
    b = Board().put(AT, road("N,E,S,W"), WHITE)
    b.put((1, 0), road("E-W"), WHITE).put((-1, 0), road("E-W"), BLUE).put((0, 1), road("N-S"), WHITE)
    got = roads_of(b)
    assert len(got) == 3
    assert (((-1, 0), (0, 0)), (1, 1), None, 0) in got
    assert (((0, 0), (1, 0)), (2, 0), WHITE, 2) in got
    assert (((0, 0), (0, 1)), (2, 0), WHITE, 2) in got
    assert b.sheet().totals == (4, 0)


def test_three_section_junction_ends_each_road() -> None:
    """Roads (R-road-junction): a 3-section junction also ends each road; it joins nothing."""
    b = Board().put(AT, road("N,E,S"), WHITE)
    b.put((1, 0), road("E-W"), BLUE).put((0, -1), road("N-S"), BLUE).put((0, 1), road("N-S"), BLUE)
    assert len(b.sheet().roads) == 3
    assert b.sheet().totals == (0, 0)


def test_sections_never_connect_within_a_tile() -> None:
    """Roads (R-road-junction): two curves on one tile are two separate roads."""
    b = Board().put(AT, road("N-E,S-W"), WHITE)
    b.put((0, 1), road("S"), WHITE).put((0, -1), road("N"), WHITE)
    assert len(b.sheet().roads) == 2


def test_building_counted_once_per_road() -> None:
    """Roads (R-road-majority): a tile reached twice by the same road counts once."""
    b = Board().put(AT, road("N,E"), WHITE)  # two dead ends of the same tile
    b.put((0, 1), road("S-E"), WHITE).put((1, 1), road("W-S"), WHITE).put((1, 0), road("N-W"), WHITE)
    assert roads_of(b) == [(((0, 0), (0, 1), (1, 0), (1, 1)), (4, 0), WHITE, 4)]


def test_roads_are_read_in_the_owners_frame() -> None:
    """Roads (R-frames): a blue tile printed N-E lies S-W on the board."""
    b = Board().put(AT, road("E-W"), WHITE).put((1, 0), road("N-E"), BLUE)
    assert roads_of(b) == [(((0, 0), (1, 0)), (1, 1), None, 0)]
    b.put((1, 0), road("N-E"), WHITE)
    assert b.sheet().roads == ()


def test_roads_option_off_scores_no_roads() -> None:
    """Scoring: with the option roads=false no road is scored (rulebook: first game)."""
    board = {(0, 0): GREEN, (1, 0): "T3@0", (2, 0): "T3@0"}  # T3: sawmill with an E-W road
    assert position(board=board).scores() == [2, 0]
    assert position(board=board, roads=False).scores() == [0, 0]


# -- Pilgrimage site -----------------------------------------------------------------------------
def test_pilgrimage_site_scores_its_longest_road_itself_included() -> None:
    """Wandering, Pilgrimage site (R-pilgrimage-length): tiles of the longest road through it,
    itself included, whoever owns them."""
    b = Board().put(AT, "W6", WHITE)  # W6: road ends N and S
    b.put((0, 1), road("N-S"), BLUE).put((0, 2), road("N-S"), BLUE).put((0, 3), road("S"), WHITE)
    b.put((0, -1), road("N"), BLUE)
    assert b.points(AT) == 4


def test_pilgrimage_site_ends_every_road() -> None:
    """Wandering, Pilgrimage site: it does not connect roads; it ends each road leading to it."""
    b = Board().put(AT, "W6", WHITE).put((0, 1), road("S"), WHITE).put((0, -1), road("N"), WHITE)
    got = roads_of(b)
    assert got == [(((0, -1), (0, 0)), (2, 0), WHITE, 2), (((0, 0), (0, 1)), (2, 0), WHITE, 2)]
    assert b.points(AT) == 2


def test_pilgrimage_site_alone_scores_one() -> None:
    """Wandering, Pilgrimage site: always at least 1 point, even with no road leading to it."""
    b = Board().put(AT, "W7", BLUE).put((0, 1), road("N-S"), BLUE)  # blue's S is north on the board
    assert b.points(AT) == 2
    assert Board().put(AT, "W7", WHITE).put((0, 1), road("N-S"), WHITE).points(AT) == 1
    bare = Board().put(AT, {"set": "wandering", "building": "pilgrimage-site", "colour": "grey"}, WHITE)
    assert bare.points(AT) == 1
