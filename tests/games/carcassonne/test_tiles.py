"""The tile data (src/regalia/games/carcassonne/data/tiles.json) against the facts of
/work/shared/research/carcassonne.md (section 1: base-game tile distribution; section 2: the shrine
tiles), the start tile and the bag; the catalogue's validation.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regalia.cli import ERROR_EXIT_CODE, app
from regalia.core.errors import DataError
from regalia.games.carcassonne.tiles import HALVES, SIDES, TileType, default_catalogue, parse_catalogue

from .builders import new, shipped_tiles

CAT = default_catalogue()
BASE = [t for t in CAT.types if t.set == "base"]

#: research section 1: letter -> (count, edges N E S W)
BASE_TABLE = {
    "A": (2, "FFRF"),
    "B": (4, "FFFF"),
    "C": (1, "CCCC"),
    "D": (4, "CRFR"),
    "E": (5, "CFFF"),
    "F": (2, "FCFC"),
    "G": (1, "FCFC"),
    "H": (3, "CFCF"),
    "I": (2, "CFFC"),
    "J": (3, "CRRF"),
    "K": (3, "CFRR"),
    "L": (3, "CRRR"),
    "M": (2, "CFFC"),
    "N": (3, "CFFC"),
    "O": (2, "CRRC"),
    "P": (3, "CRRC"),
    "Q": (1, "CCFC"),
    "R": (3, "CCFC"),
    "S": (2, "CCRC"),
    "T": (1, "CCRC"),
    "U": (8, "FRFR"),
    "V": (9, "FFRR"),
    "W": (4, "FRRR"),
    "X": (1, "RRRR"),
}


def layout(tile: TileType) -> tuple[list[str], list[str], list[tuple[str, list[str]]]]:
    """Cities (sides joined by '', a pennant marked +), roads (sides joined by '-'), fields
    (halves in clockwise order, and the cities they touch)."""
    cities = ["".join(SIDES[s] for s in sorted(c.sides)) + ("+" if c.pennant else "") for c in tile.cities]
    roads = ["-".join(SIDES[s] for s in sorted(r)) for r in tile.roads]
    fields = [
        (" ".join(HALVES[h] for h in sorted(f.halves)), [cities[c].rstrip("+") for c in f.cities])
        for f in tile.fields
    ]
    return sorted(cities), sorted(roads), sorted(fields)


def by_id(tid: str) -> TileType:
    return CAT.by_id[tid]


def test_base_game_has_72_tiles_of_24_types() -> None:
    """Research 1 (cross-checks): 72 tiles, 24 types, each type's count and edges as in the table."""
    assert len(BASE) == 24
    assert sum(t.count for t in BASE) == 72
    assert {t.id: (t.count, t.edges) for t in BASE} == BASE_TABLE


def test_base_edge_totals() -> None:
    """Research 1 (cross-checks): edges over all 72 tiles: city 79, road 94, field 115 (= 288);
    tiles with at least one city edge 44, road edge 45, field edge 59."""
    edges: Counter[str] = Counter()
    for t in BASE:
        for e in t.edges:
            edges[e] += t.count
    assert edges == {"C": 79, "R": 94, "F": 115}
    assert sum(t.count for t in BASE if "C" in t.edges) == 44
    assert sum(t.count for t in BASE if "R" in t.edges) == 45
    assert sum(t.count for t in BASE if "F" in t.edges) == 59


def test_base_cloisters_and_pennants() -> None:
    """Research 1: 6 cloister tiles (A x2, B x4), 10 pennant tiles (C1, F2, M2, O2, Q1, S2), no
    shrine in the base game."""
    assert sum(t.count for t in BASE if t.cloister) == 6
    assert {t.id for t in BASE if t.cloister} == {"A", "B"}
    assert sum(t.count * t.pennants for t in BASE) == 10
    assert {t.id: t.count for t in BASE if t.pennants} == {"C": 1, "F": 2, "M": 2, "O": 2, "Q": 1, "S": 2}
    assert not any(t.shrine for t in BASE)


#: research section 1 (table), each type written by hand: cities (sides joined, + for a pennant),
#: roads (sides joined by -), fields (halves, and the cities each touches)
BASE_LAYOUTS: list[tuple[str, list[str], list[str], list[tuple[str, list[str]]]]] = [
    ("A", [], ["S"], [("Nw Ne En Es Se Sw Ws Wn", [])]),
    ("B", [], [], [("Nw Ne En Es Se Sw Ws Wn", [])]),
    ("C", ["NESW+"], [], []),
    ("D", ["N"], ["E-W"], [("En Wn", ["N"]), ("Es Se Sw Ws", [])]),
    ("E", ["N"], [], [("En Es Se Sw Ws Wn", ["N"])]),
    ("F", ["EW+"], [], [("Nw Ne", ["EW"]), ("Se Sw", ["EW"])]),
    ("G", ["EW"], [], [("Nw Ne", ["EW"]), ("Se Sw", ["EW"])]),
    ("H", ["N", "S"], [], [("En Es Ws Wn", ["N", "S"])]),
    ("I", ["N", "W"], [], [("En Es Se Sw", ["N", "W"])]),
    ("J", ["N"], ["E-S"], [("En Sw Ws Wn", ["N"]), ("Es Se", [])]),
    ("K", ["N"], ["S-W"], [("En Es Se Wn", ["N"]), ("Sw Ws", [])]),
    ("L", ["N"], ["E", "S", "W"], [("En Wn", ["N"]), ("Es Se", []), ("Sw Ws", [])]),
    ("M", ["NW+"], [], [("En Es Se Sw", ["NW"])]),
    ("N", ["NW"], [], [("En Es Se Sw", ["NW"])]),
    ("O", ["NW+"], ["E-S"], [("En Sw", ["NW"]), ("Es Se", [])]),
    ("P", ["NW"], ["E-S"], [("En Sw", ["NW"]), ("Es Se", [])]),
    ("Q", ["NEW+"], [], [("Se Sw", ["NEW"])]),
    ("R", ["NEW"], [], [("Se Sw", ["NEW"])]),
    ("S", ["NEW+"], ["S"], [("Se", ["NEW"]), ("Sw", ["NEW"])]),
    ("T", ["NEW"], ["S"], [("Se", ["NEW"]), ("Sw", ["NEW"])]),
    ("U", [], ["E-W"], [("Es Se Sw Ws", []), ("Nw Ne En Wn", [])]),
    ("V", [], ["S-W"], [("Nw Ne En Es Se Wn", []), ("Sw Ws", [])]),
    ("W", [], ["E", "S", "W"], [("Es Se", []), ("Nw Ne En Wn", []), ("Sw Ws", [])]),
    ("X", [], ["E", "N", "S", "W"], [("Es Se", []), ("Ne En", []), ("Nw Wn", []), ("Sw Ws", [])]),
]


def test_every_base_type_has_its_layout_written() -> None:
    """The layout table below covers the 24 types of research 1, each once."""
    assert [row[0] for row in BASE_LAYOUTS] == sorted(BASE_TABLE)


@pytest.mark.parametrize(("tid", "cities", "roads", "fields"), BASE_LAYOUTS)
def test_base_tile_layouts(
    tid: str, cities: list[str], roads: list[str], fields: list[tuple[str, list[str]]]
) -> None:
    """Research 1 (table): cities, roads (a road of one side ends on the tile: at a cloister, a city,
    a junction or a crossroads), fields and the cities each field touches."""
    assert layout(by_id(tid)) == (sorted(cities), sorted(roads), sorted(fields))


def test_twin_tiles_differ_only_by_the_pennant() -> None:
    """Research 1: F/G, M/N, O/P, Q/R, S/T have the same layout; the first of each pair has a pennant."""
    for with_pennant, without in (("F", "G"), ("M", "N"), ("O", "P"), ("Q", "R"), ("S", "T")):
        a, b = by_id(with_pennant), by_id(without)
        assert a.edges == b.edges and a.roads == b.roads and a.fields == b.fields
        assert [c.sides for c in a.cities] == [c.sides for c in b.cities]
        assert (a.pennants, b.pennants) == (1, 0)


@pytest.mark.parametrize(
    ("tid", "tile_set", "edges", "cities", "roads", "fields"),
    [
        ("SH", "shrines5", "FFFF", [], [], [("Nw Ne En Es Se Sw Ws Wn", [])]),
        ("SHC", "shrines5", "CFFF", ["N"], [], [("En Es Se Sw Ws Wn", ["N"])]),
        ("SHR", "shrines5", "FFRF", [], ["S"], [("Nw Ne En Es Se Sw Ws Wn", [])]),
        ("SHCR", "shrines5", "CFRF", ["N"], ["S"], [("En Es Se Sw Ws Wn", ["N"])]),
        ("SHRR", "shrines5", "RFRF", [], ["N", "S"], [("Ne En Es Se", []), ("Nw Sw Ws Wn", [])]),
        ("SHCRR", "shrines6", "CRFR", ["N"], ["E", "W"], [("En Wn", ["N"]), ("Es Se Sw Ws", [])]),
    ],
)
def test_shrine_tile_layouts(
    tid: str,
    tile_set: str,
    edges: str,
    cities: list[str],
    roads: list[str],
    fields: list[tuple[str, list[str]]],
) -> None:
    """Research 2 (shrine tile layouts): every shrine tile has a shrine in its centre and no pennant;
    its roads end at the shrine (SHRR and SHCRR: two separate roads)."""
    t = by_id(tid)
    assert (t.set, t.count, t.edges, t.shrine, t.cloister, t.pennants) == (tile_set, 1, edges, True, False, 0)
    assert layout(t) == (sorted(cities), sorted(roads), sorted(fields))


def test_shrine_sets_hold_five_and_six_tiles() -> None:
    """Research 2 (publication): Count, King & Robber has 5 shrine tiles; Cult, Siege & Creativity
    adds one (edges CRFR) for 6."""
    five = {t.id for t in CAT.types if t.set == "shrines5"}
    six = {t.id for t in CAT.types if t.set == "shrines6"}
    assert five == {"SH", "SHC", "SHR", "SHCR", "SHRR"} and six == {"SHCRR"}
    assert by_id("SHCRR").edges == "CRFR"
    assert all(t.shrine for t in CAT.types if t.set != "base")


def test_start_tile_is_a_d_city_north_and_the_bag_holds_71() -> None:
    """Research 1 (start tile) / Preparation: the start tile is one of the four D, laid at 0,0 with
    its city north and its road west-east; the bag holds the other 71 tiles (3 D)."""
    assert [t.id for t in CAT.types if t.start] == ["D"] and by_id("D").start == 1
    state = new()
    view = state.observation()
    assert view["board"] == [{"pos": "0,0", "tile": "D", "rotation": 0}]
    assert state.turned((0, 0)).edges == "CRFR"
    assert view["bag_left"] == 71 and sum(view["bag"].values()) == 71
    assert view["bag"]["D"] == 3
    assert view["bag"] == {t: n - (t == "D") for t, (n, _) in BASE_TABLE.items()}


def test_distinct_rotations() -> None:
    """Placing a tile (notation): rotations that give the same tile are one placement. B, C, X, SH:
    one; F, G, H, U, SHRR: two (a half turn gives the same tile); the others four."""
    rotations = {t.id: len(t.rotations) for t in CAT.types}
    one, two = {"B", "C", "X", "SH"}, {"F", "G", "H", "U", "SHRR"}
    assert {t for t, n in rotations.items() if n == 1} == one
    assert {t for t, n in rotations.items() if n == 2} == two
    assert all(n == 4 for t, n in rotations.items() if t not in one | two)
    assert by_id("U").rotations == (0, 90) and by_id("V").rotations == (0, 90, 180, 270)


def test_shipped_file_round_trips() -> None:
    """The catalogue format (docs/formats.md): every tile written back by ``to_json`` is the entry
    it was read from (notes aside)."""
    doc = shipped_tiles()
    for entry, tile in zip(doc["tiles"], CAT.types, strict=True):
        assert tile.to_json() == {k: v for k, v in entry.items() if k != "note"}


def _catalogue(*tiles: dict[str, object]) -> dict[str, object]:
    start = {"id": "D", "set": "base", "count": 1, "start": 1, "edges": "CRFR", "cities": [{"sides": ["N"]}],
             "roads": [["W", "E"]], "fields": [{"halves": ["Wn", "En"], "cities": [0]},
                                              {"halves": ["Es", "Se", "Sw", "Ws"]}]}  # fmt: skip
    return {"format": "carcassonne-tiles", "version": 1, "tiles": [start, *tiles]}


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"id": "Z", "set": "base", "count": 1, "edges": "CFFF"}, "tile Z: field 'cities'"),
        (
            {"id": "Z", "set": "base", "count": 1, "edges": "FFFF", "fields": [{"halves": ["Nw", "Ne"]}]},
            "tile Z: field 'fields'",
        ),
        ({"id": "Z", "set": "base", "count": 0, "edges": "FFFF"}, "tile Z: field 'count'"),
        ({"id": "Z", "set": "river", "count": 1, "edges": "FFFF"}, "tile Z: field 'set'"),
        ({"id": "Z", "set": "base", "count": 1, "edges": "FFXF"}, "tile Z: field 'edges'"),
    ],
)
def test_catalogue_errors_name_the_tile_and_the_field(entry: dict[str, object], message: str) -> None:
    """The catalogue format: an entry whose sides or halves are not each on exactly one feature, or
    with a bad count, set or edge letter, is refused, naming the tile and the field."""
    with pytest.raises(DataError, match=message):
        parse_catalogue(_catalogue(entry))


@pytest.mark.parametrize("name", ["cities", "roads", "fields"])
@pytest.mark.parametrize("value", [5, None, True, 1.5, "N", {}])
def test_features_that_are_not_lists_are_refused_naming_the_tile_and_the_field(
    name: str, value: object
) -> None:
    """The catalogue format: ``cities``, ``roads`` and ``fields`` are lists; any other value (a
    number, null, a string, an object) is refused naming the tile and the field (a number used to
    end in a TypeError)."""
    field = {"halves": ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"]}
    entry = {"id": "Z", "set": "base", "count": 1, "edges": "FFFF", "fields": [field], name: value}
    with pytest.raises(DataError, match=rf"^tile Z: field '{name}': expected a list, got "):
        parse_catalogue(_catalogue(entry))


def test_play_with_a_malformed_catalogue_file_gives_one_error_line(tmp_path: Path) -> None:
    """``regalia play carcassonne -o tiles=FILE`` with ``"roads": 5`` in an entry: one line naming
    the tile and the field, no traceback."""
    path = tmp_path / "bad.json"
    doc = shipped_tiles()
    next(t for t in doc["tiles"] if t["id"] == "U")["roads"] = 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["play", "carcassonne", "-o", f"tiles={path}", "--vs", "random"], input="quit\n"
    )
    assert result.exit_code == ERROR_EXIT_CODE, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == ["error: tile U: field 'roads': expected a list, got 5"]


def test_start_tile_must_be_of_the_base_set() -> None:
    """Preparation (the start tile is laid in every game): a catalogue whose start tile belongs to
    a set of Heretics and Shrines is refused (with shrines=off its bag count would be -1)."""
    doc = _catalogue()
    doc["tiles"][0]["set"] = "shrines5"  # type: ignore[index]
    with pytest.raises(DataError, match="tile D: field 'start'"):
        parse_catalogue(doc)


def test_shrine_tiles_belong_to_a_shrine_set() -> None:
    """Heretics and Shrines: Preparation ("The new land tiles should be mixed in with the other
    tiles"): shrines come only with the option shrines (sets shrines5, shrines6), so that a shrine
    never comes without the expansion's placement restriction; a catalogue putting one in the base
    set is refused."""
    shrine = {"id": "Z", "set": "base", "count": 1, "edges": "FFFF", "shrine": True,
              "fields": [{"halves": ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"]}]}  # fmt: skip
    with pytest.raises(DataError, match="tile Z: field 'set'"):
        parse_catalogue(_catalogue(shrine))
    assert parse_catalogue(_catalogue({**shrine, "set": "shrines5"})).by_id["Z"].shrine
