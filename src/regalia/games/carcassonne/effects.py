"""What Carcassonne's actions do: drawing, laying a tile (its features joined to the neighbours'),
deploying a follower, scoring what the tile completed (Heretics and Shrines' challenges included),
and the final scoring.

Scoring (rulings in docs/rulings.md): a completed road scores 1 per tile, a city 2 per tile and 2 per
pennant (with ``small_city=2``, a city of two tiles 1 per tile and 1 per pennant), a cloister or a
shrine 9; the seats with the most followers on it each score it; the followers go home. At the end,
open roads 1 per tile, open cities 1 per tile and pennant, cloisters and shrines 1 per tile of their
3x3 block, fields 3 per completed city they touch (each field on its own).

>>> import regalia
>>> state = regalia.load_game("carcassonne", small_city=2).new_state()
>>> for text in ("draw E", "place E 0,1 180", "follower city S"):
...     _ = state.apply_text(text)
>>> state.events()                      # the early rule: a city of two tiles scores 2
[(3, 'score', 'city', [2, 0], [(0, 0), (0, 1)])]
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Final

from regalia.core.grid import Pos, neighbours8, square_id
from regalia.games.carcassonne.actions import DRAW, PLACE, Action
from regalia.games.carcassonne.base import (
    ALONE,
    ORDER_KEYS,
    PH_DRAW,
    PH_FOLLOWER,
    PH_PLACE,
    SLOTS,
    SQUARES,
    TILE,
    Feature,
    tiles_around,
)
from regalia.games.carcassonne.rules import Rules
from regalia.games.carcassonne.tiles import (
    ABBEYS,
    CITY,
    CLOISTER,
    FIELD,
    ROAD,
    SHRINE,
    SIDE_HALVES,
)

#: Points of a completed cloister or shrine ("Scoring").
ABBEY_POINTS: Final = 9
#: Points per completed city a field touches, at the end ("Final scoring: farms").
FIELD_POINTS: Final = 3


def _with_meeples(record: Feature, meeples: tuple[Pos, ...]) -> Feature:
    """``record`` with other followers."""
    return Feature(record.kind, record.tiles, record.open, record.pennants, meeples, record.cities)


def _with_open(record: Feature, open_edges: int) -> Feature:
    """``record`` with another count of open edges."""
    return Feature(record.kind, record.tiles, open_edges, record.pennants, record.meeples, record.cities)


class Effects(Rules):
    """The effect of every action."""

    __slots__ = ()

    def _apply(self, action: Action) -> None:
        self._legal = None
        kind = action.kind
        if kind == DRAW:
            self._draw(action.tile)
        elif kind == PLACE:
            assert action.pos is not None
            self._lay(action.tile, action.pos, action.rotation)
        else:
            self._deploy(action)

    # ------------------------------------------------------------------ drawing
    def _draw(self, tile: int) -> None:
        """The tile drawn is ``tile``; one that fits nowhere is discarded and another drawn."""
        self.bag[tile] -= 1
        self.bag_left -= 1
        self.drawn = tile
        self._places = None
        if self.placements(tile):
            self.phase = PH_PLACE
            return
        self.log = (*self.log, (self._ply, "discard", self.cat.types[tile].id))
        self.drawn = -1
        self._places = None
        if not self.bag_left:
            self._finish()

    # ------------------------------------------------------------------ laying a tile
    def _lay(self, tile: int, pos: Pos, rotation: int) -> None:
        self.drawn = -1
        self._places = None
        self.placed = pos
        self.phase = PH_FOLLOWER
        self.lay_tile(pos, tile, rotation)

    def lay_tile(self, pos: Pos, tile: int, rotation: int) -> None:
        """Put tile type ``tile`` turned ``rotation`` at ``pos`` and join its features to the
        neighbours' (no check, no turn: for setting up positions; a turn lays its tile by
        :meth:`apply`)."""
        i = square_id(pos)
        SQUARES.reaching(self.cells, i)  # (a square out of reach is refused here, before any change)
        code = self.board[pos] = tile * 4 + rotation // 90
        self._legal = None
        self._join_tile(pos, code, i)

    def _join_tile(self, pos: Pos, code: int, i: int) -> None:
        """Give the tile at ``pos`` (of square id ``i``; its ``board`` code ``code``) its nodes, join
        them to the neighbours' features and update the free positions around it."""
        turned = self.cat.by_code[code]
        cells = self.cells  # (reaching the squares around it: lay_tile)
        base = len(self.parent)
        self.nodes[pos] = base
        parent = self.parent
        fdata = self.fdata
        tiles = ALONE[i]
        for k, seg in enumerate(turned.segments):
            parent.append(base + k)
            open_edges = len(seg.sides) if seg.kind in (CITY, ROAD) else 0
            cities = tuple([base + c for c in seg.cities]) if seg.cities else ()
            fdata.append(Feature(seg.kind, tiles, open_edges, int(seg.pennant), (), cities))
        if turned.abbey >= 0:
            self.abbeys[pos] = turned.segments[turned.abbey].kind
        order = self.need_sorted
        keys = self.need_keys
        if 0 < cells[i] < TILE:  # a free position: it leaves the order (by its key)
            at = bisect_left(keys, ORDER_KEYS[i])
            keys.pop(at)
            order.pop(at)
        cells[i] = TILE + code
        by_code = self.cat.by_code
        nodes = self.nodes
        edges = turned.edges
        marks = turned.marks
        around = SQUARES.around[i]  # the eight clockwise from north: the sides are every other
        for side in range(4):  # N E S W
            j = around[2 * side]
            c = cells[j]
            back = (side + 2) % 4
            if c < TILE:
                # the free position beyond this side now sees its edge: its pattern's number gains
                # the edge's mark, and the position keeps its place in the order (by its key)
                pattern = cells[j] = c + marks[side]
                key = ORDER_KEYS[j]
                at = bisect_left(keys, key)
                if c:
                    order[at] = (order[at][0], pattern, order[at][2])
                else:
                    keys.insert(at, key)
                    order.insert(at, (SQUARES.squares[j], pattern, SLOTS[j]))
                continue
            other = by_code[c - TILE]
            qbase = nodes[SQUARES.squares[j]]
            if edges[side] != "F":
                self._join(base + turned.side_segment[side], qbase + other.side_segment[back], 2)
            for h, facing in SIDE_HALVES[side]:
                mine = turned.half_segment[h]
                if mine >= 0:
                    self._join(base + mine, qbase + other.half_segment[facing], 0)

    def _join(self, a: int, b: int, closes: int) -> None:
        """Join the features of nodes ``a`` and ``b``; ``closes`` open edges are matched."""
        ra, rb = self.find(a), self.find(b)
        fdata = self.fdata
        first = fdata[ra]
        assert first is not None
        if ra == rb:
            if closes:
                fdata[ra] = _with_open(first, first.open - closes)
            return
        second = fdata[rb]
        assert second is not None
        if len(second.tiles) > len(first.tiles):
            ra, rb, first, second = rb, ra, second, first
        self.parent[rb] = ra
        fdata[rb] = None
        fdata[ra] = Feature(
            first.kind,
            first.tiles | second.tiles,
            first.open + second.open - closes,
            first.pennants + second.pennants,
            first.meeples + second.meeples,
            first.cities + second.cities,
        )

    # ------------------------------------------------------------------ the follower and scoring
    def _deploy(self, action: Action) -> None:
        pos = self.placed
        assert pos is not None
        if action.feature:
            index = self.turned(pos).segment_named(action.feature, action.side or action.feature)
            self.stand_follower(pos, self.player, index)
        self._score_completed(pos)
        self.placed = None
        if self.bag_left:
            self.player = (self.player + 1) % self.num_players
            self.phase = PH_DRAW
        else:
            self._finish()

    def stand_follower(self, pos: Pos, seat: int, segment: int) -> None:
        """A follower of ``seat`` from its supply on segment ``segment`` of the tile at ``pos``,
        counted on that segment's whole feature (no check, no scoring: a turn deploys its follower
        by :meth:`apply`)."""
        self.meeples[pos] = (seat, segment)
        self.followers[seat] -= 1
        root = self.find(self.nodes[pos] + segment)
        record = self.fdata[root]
        assert record is not None
        self.fdata[root] = _with_meeples(record, (*record.meeples, pos))
        self._legal = None

    def _score_completed(self, pos: Pos) -> None:
        """Score every feature the tile at ``pos`` completed, then resolve the challenges between a
        completed cloister or shrine and an occupied neighbour of the other kind (Heretics and
        Shrines: "The challenge")."""
        done_roots = []
        turned = self.turned(pos)
        base = self.nodes[pos]
        for i, seg in enumerate(turned.segments):
            if seg.kind in (CITY, ROAD):
                root = self.find(base + i)
                record = self.fdata[root]
                assert record is not None
                if record.open == 0 and root not in done_roots:
                    done_roots.append(root)
        abbeys_done = self._abbeys_completed(pos)
        for root in done_roots:
            record = self.fdata[root]
            assert record is not None
            if record.meeples:
                self._award(root, record, self._closed_value(record), "score")
        challenges = []
        for q in abbeys_done:
            root = self.find(self.nodes[q] + self.turned(q).abbey)
            record = self.fdata[root]
            assert record is not None
            if not record.meeples:
                continue
            loser = self._challenged(q, abbeys_done)
            bonus = 0
            if loser is not None and self.game.options.challenge_house_rule:
                bonus = self._abbey_value(loser)
            challenges.append(loser)
            self._award(root, record, ABBEY_POINTS + bonus, "score")
        for loser in challenges:
            if loser is not None:
                self._send_home(loser)

    def _abbeys_completed(self, pos: Pos) -> list[Pos]:
        """The cloisters and shrines the tile at ``pos`` completed: itself or one around it, now
        with tiles all round."""
        if not self.abbeys:
            return []
        cells = SQUARES.covering(self.cells)
        by_code = self.cat.by_code
        i = square_id(pos)
        done = []
        for j in (i, *SQUARES.around[i]):
            c = cells[j]
            if c >= TILE and by_code[c - TILE].abbey >= 0 and tiles_around(cells, j) == 8:
                done.append(SQUARES.squares[j])
        return done

    def _challenged(self, pos: Pos, done: list[Pos]) -> Pos | None:
        """The occupied cloister or shrine of the other kind next to the completed one at ``pos`` that
        is not completed by the same tile: it loses the challenge (footnote [14]: one tile completing
        both lets both score). Occupied means a monk or heretic on the building itself: a follower
        on the city, road or field of its tile takes no part ("A follower deployed to a shrine is
        called a heretic", Heretics and Shrines: deploying a follower; ruling C-heretic)."""
        kind = self.abbeys[pos]
        other = CLOISTER if kind == SHRINE else SHRINE
        meeples = self.meeples
        for q in neighbours8(pos):  # AROUND's order
            if self.abbeys.get(q) == other and q not in done:
                held = meeples.get(q)
                if held is not None and held[1] == self.turned(q).abbey:
                    return q
        return None

    def _send_home(self, pos: Pos) -> None:
        """The follower(s) of the cloister or shrine at ``pos`` lose a challenge: home with 0 points."""
        root = self.find(self.nodes[pos] + self.turned(pos).abbey)
        record = self.fdata[root]
        assert record is not None
        seats = sorted({self.meeples[t][0] for t in record.meeples})
        self._return(root, record)
        self.log = (*self.log, (self._ply, "challenge", record.kind, seats, sorted(record.tiles)))

    def _closed_value(self, record: Feature) -> int:
        tiles = len(record.tiles)
        if record.kind == ROAD:
            return tiles
        if tiles == 2 and self.game.options.small_city == 2:
            return tiles + record.pennants
        return 2 * (tiles + record.pennants)

    def _abbey_value(self, pos: Pos) -> int:
        """An unfinished cloister or shrine: 1 per tile of its 3x3 block."""
        return 1 + self.abbey_neighbours(pos)

    def majority(self, record: Feature) -> list[int]:
        """The seats with the most followers on a feature."""
        counts: dict[int, int] = {}
        for t in record.meeples:
            seat = self.meeples[t][0]
            counts[seat] = counts.get(seat, 0) + 1
        best = max(counts.values())
        return sorted(s for s, n in counts.items() if n == best)

    def _award(self, root: int, record: Feature, value: int, what: str) -> None:
        """Give ``value`` to every seat of the majority on a feature; its followers go home."""
        winners = self.majority(record)
        points = [0] * self.num_players
        for seat in winners:
            points[seat] = value
            self.points[seat] += value
        self.log = (*self.log, (self._ply, what, record.kind, points, sorted(record.tiles)))
        self._return(root, record)

    def _return(self, root: int, record: Feature) -> None:
        for t in record.meeples:
            seat, _ = self.meeples.pop(t)
            self.followers[seat] += 1
        self.fdata[root] = _with_meeples(record, ())

    # ------------------------------------------------------------------ the end
    def _finish(self) -> None:
        """The last tile is laid: unfinished features and fields are scored ("Final scoring")."""
        self.phase = 0
        self.at_end = dict(self.meeples)
        for root, record in self.open_features():
            value = self.end_value(record)
            if value:
                self._award(root, record, value, "final")
            else:
                self._return(root, record)
        self.terminal = True

    def end_value(self, record: Feature) -> int:
        """What an unfinished feature is worth at the end ("Final scoring"): a road 1 per tile, a city
        1 per tile and pennant, a cloister or shrine 1 per tile of its 3x3 block, a field 3 per
        completed city it touches."""
        kind = record.kind
        if kind == FIELD:
            return FIELD_POINTS * len(self.completed_cities(record))
        if kind in ABBEYS:
            (pos,) = record.tiles
            return self._abbey_value(pos)
        return len(record.tiles) + (record.pennants if kind == CITY else 0)

    def open_features(self) -> list[tuple[int, Feature]]:
        """The features that hold followers, each once, in board order."""
        roots: dict[int, Feature] = {}
        for pos in sorted(self.meeples):
            root = self.find(self.nodes[pos] + self.meeples[pos][1])
            record = self.fdata[root]
            assert record is not None
            roots.setdefault(root, record)
        return list(roots.items())

    def completed_cities(self, field: Feature) -> set[int]:
        """The completed cities (by root) a field touches."""
        out = set()
        for node in field.cities:
            root = self.find(node)
            record = self.fdata[root]
            assert record is not None
            if record.open == 0:
                out.add(root)
        return out


__all__ = ["ABBEY_POINTS", "FIELD_POINTS", "Effects"]
