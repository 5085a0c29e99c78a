"""Balance check of a Two Heirs tile catalogue by simulated play.

:func:`building_stats` plays full two-player games between two copies of a light built-in
policy and reports, per building kind, how often it gets built when a player holds it, the
points it scores at the end, its share of the winner's points and the win rate of the players
who built it against those who held it but did not. The figures for the reconstructed
catalogue, and the command that produced them, are in docs/two-heirs.md ("Balance check").

Policies (deterministic from the seed):

``greedy``
    A one-step lookahead that knows the game a little: build whatever is affordable, at the
    position with the best immediate gain in score margin (``state.scores()``), producers
    counted as a small bonus because their worth is the resources they give; take the tile
    with the best build (or best potential score) it opens; call, step or withdraw a unit
    when that makes a tile in hand affordable or doubles a building; play free terrain when
    its discount completes a build; use a camp when the extra tile is worth more than its
    2 points; otherwise end the turn.
``random``
    Uniformly random legal actions (a baseline; too weak to judge balance).

Run ``python -m regalia.games.two_heirs.balance --games 300`` for a table, ``--json`` for JSON.

>>> stats = building_stats(2, seed=1, sets=("wandering", "dominion", "trade-and-church"))
>>> sorted({s.set for s in stats})
['dominion', 'trade-and-church', 'wandering']
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from regalia.core.errors import RegaliaError
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import Action
from regalia.games.two_heirs.game import TwoHeirs
from regalia.games.two_heirs.scoring import score_board
from regalia.games.two_heirs.state import UNITS_PER_SEAT, TwoHeirsState
from regalia.games.two_heirs.tiles import PRODUCERS, SET_BUILDINGS, SETS, Catalogue, catalogue_for

POLICIES: tuple[str, ...] = ("greedy", "random")

#: Buildings that score no points of their own: their worth shows elsewhere (resources for the
#: producers, fortresses and destruction for siege towers, workshops for guild houses). They
#: are left out of the points-per-cost comparison with the rest of their set.
NON_SCORING: frozenset[str] = frozenset({"farm", "sawmill", "quarry", "siege-tower", "guild-house"})

_MOVES = (act.STEP, act.CALL, act.WITHDRAW)


@dataclasses.dataclass(frozen=True, slots=True)
class BuildingStat:
    """Measured figures of one building kind over the games in which its set was played.

    ``held``: player-games in which the player had a tile of this kind in hand at some point.
    ``built_rate``: share of those player-games in which the player built at least one.
    ``tile_built_rate``: share of the tiles of this kind taken into a hand that were built.
    ``mean_points``: mean end-of-game points of one such building on the board (units doubling
    included; destroyed buildings and used camps are face down and not counted).
    ``points_per_cost``: mean of points divided by the tile's cost in resources, per building.
    ``ppc_vs_set_median``: ``points_per_cost`` over the median of the scoring buildings of its
    set (``None`` for the buildings in :data:`NON_SCORING`).
    ``ppc_vs_others``: the same against the median of the *other* scoring buildings of its set
    (``None`` when it is the only one); in a set of two scoring kinds the ratio to the set median
    can never exceed 2, this one can.
    ``winner_share``: mean, over decided games, of the winner's points from this kind divided
    by the winner's total.
    ``win_rate_built`` / ``win_rate_not_built``: results (win 1, draw 0.5, loss 0) of the
    player-games in which the player held the kind and built it / did not build it (``None``
    when no such player-game).
    """

    building: str
    set: str
    tiles: int
    mean_cost: float
    games: int
    held: int
    built_rate: float
    tile_built_rate: float
    built: int
    mean_points: float
    points_per_cost: float
    ppc_vs_set_median: float | None
    ppc_vs_others: float | None
    winner_share: float
    win_rate_built: float | None
    win_rate_not_built: float | None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------------------------------
# the greedy policy


class GreedyPolicy:
    """The light one-step policy described in the module docstring."""

    __slots__ = ("explore", "producer_bonus", "rng")

    def __init__(self, rng: random.Random, explore: float = 0.15, producer_bonus: float = 1.5) -> None:
        self.rng = rng
        self.explore = explore
        self.producer_bonus = producer_bonus

    # -- evaluation helpers -------------------------------------------------------------------
    @staticmethod
    def margin(state: TwoHeirsState, seat: int) -> int:
        totals = state.score_sheet().totals
        return totals[seat] - totals[1 - seat]

    def bonus(self, state: TwoHeirsState, tile: int) -> float:
        """Worth of a building beyond its immediate points (small, so that builds still happen)."""
        kind = state.tiles[tile].building
        if kind in PRODUCERS:
            return 0.0 if state.final else self.producer_bonus
        return 0.25

    def _after_build(self, state: TwoHeirsState, action: Action, seat: int) -> float:
        child = state.clone()
        child._apply(action)
        while child.pending:  # siege: destroy whatever helps most
            best = max(child.legal_actions(), key=lambda a: self._margin_after(child, a, seat))
            child._apply(best)
        return self.margin(child, seat)

    def _margin_after(self, state: TwoHeirsState, action: Action, seat: int) -> int:
        child = state.clone()
        child._apply(action)
        return self.margin(child, seat)

    def best_build(self, state: TwoHeirsState, seat: int) -> tuple[float, Action | None]:
        """The affordable build with the best value (score margin gain plus bonus)."""
        base = self.margin(state, seat)
        best: tuple[float, float, Action | None] = (float("-inf"), 0.0, None)
        for a in state.legal_actions():
            if a.kind != act.BUILD:
                continue
            v = self._after_build(state, a, seat) - base + self.bonus(state, a.tile)
            key = (v, self.rng.random(), a)
            if key[:2] > best[:2]:
                best = key
        return best[0], best[2]

    def potential(self, state: TwoHeirsState, tile: int, seat: int) -> float:
        """Best immediate margin gain of ``tile`` built anywhere the seat may place now, cost ignored."""
        places = state.placements(seat)
        if not places:
            return self.bonus(state, tile)
        units = [state.unit_positions(0), state.unit_positions(1)]
        roads = state.game.options.roads
        totals = state.score_sheet().totals
        base = totals[seat] - totals[1 - seat]
        best = float("-inf")
        board = dict(state.board)
        code = tile * 4 + seat + 1
        for q in places:
            board[q] = code
            t = score_board(board, state.tiles, units, roads=roads).totals
            del board[q]
            best = max(best, t[seat] - t[1 - seat] - base)
        return best + self.bonus(state, tile)

    # -- the choice ---------------------------------------------------------------------------
    def choose(self, state: TwoHeirsState) -> Action:
        legal = state.legal_actions()
        seat = state.player
        if len(legal) == 1:
            return legal[0]
        if state.pending:
            return max(legal, key=lambda a: (self._margin_after(state, a, seat), a.kind == act.DESTROY))
        if state.discarding:
            return min(legal, key=lambda a: (self.potential(state, a.tile, seat), self.rng.random()))
        value, build = self.best_build(state, seat)
        if build is not None and value > 0:
            return build
        takes = [a for a in legal if a.kind == act.TAKE]
        if takes:
            return max(takes, key=lambda a: (self.take_value(state, a, seat), self.rng.random()))
        camp = self.camp_choice(state, legal, seat)
        if camp is not None:
            return camp
        move = self.move_choice(state, legal, seat)
        if move is not None:
            return move
        terrain = self.terrain_choice(state, legal, seat)
        if terrain is not None:
            return terrain
        if act.END_ACTION in legal:
            return act.END_ACTION
        return legal[0]

    def take_value(self, state: TwoHeirsState, action: Action, seat: int) -> float:
        child = state.clone()
        child._apply(action)
        now, _ = self.best_build(child, seat)
        later = 0.5 * self.potential(state, action.tile, seat)
        return max(now, later)

    def camp_choice(self, state: TwoHeirsState, legal: Sequence[Action], seat: int) -> Action | None:
        camps = [a for a in legal if a.kind == act.CAMP]
        if not camps or not state.reach_positions(seat):
            return None
        child = state.clone()
        child._apply(camps[0])
        best = max(
            (self.take_value(child, a, seat) for a in child.legal_actions() if a.kind == act.TAKE),
            default=0.0,
        )
        return camps[0] if best > 2.0 else None

    def move_choice(self, state: TwoHeirsState, legal: Sequence[Action], seat: int) -> Action | None:
        moves = [a for a in legal if a.kind in _MOVES]
        if not moves:
            return None
        base = self.margin(state, seat)
        best: tuple[float, float, Action | None] = (0.0, 0.0, None)
        for a in moves:
            child = state.clone()
            child._apply(a)
            v = float(self.margin(child, seat) - base)
            if state.hands[seat]:
                gain, _ = self.best_build(child, seat)
                v += max(gain, 0.0)
            key = (v, self.rng.random(), a)
            if key[:2] > best[:2]:
                best = key
        if best[2] is not None:
            return best[2]
        # now and then wander off to find other resources and places (once a turn at most)
        own = range(seat * UNITS_PER_SEAT, (seat + 1) * UNITS_PER_SEAT)
        if (
            not state.final
            and not any(state.moved >> i & 1 for i in own)
            and self.rng.random() < self.explore
        ):
            neutral = [a for a in moves if a.kind != act.WITHDRAW or self.rng.random() < 0.5]
            if neutral:
                return neutral[self.rng.randrange(len(neutral))]
        return None

    def terrain_choice(self, state: TwoHeirsState, legal: Sequence[Action], seat: int) -> Action | None:
        hand = state.hands[seat]
        if len(hand) < 2:
            return None
        terrains = [a for a in legal if a.kind == act.TERRAIN]
        if not terrains:
            return None
        # the cheapest tile to give up, at the position that harms the margin least
        cheapest = min(sorted(set(hand)), key=lambda t: (self.potential(state, t, seat), t))
        options = [a for a in terrains if a.tile == cheapest]
        spot = max(options, key=lambda a: (self._margin_after(state, a, seat), self.rng.random()))
        child = state.clone()
        child._apply(spot)
        gain, build = self.best_build(child, seat)
        if build is None:
            return None
        loss = max(0.5 * self.potential(state, cheapest, seat), 0.0)
        return spot if gain > loss else None


# ---------------------------------------------------------------------------------------------
# playing and measuring


@dataclasses.dataclass(slots=True)
class _GameResult:
    sets: tuple[str, ...]
    taken: list[list[int]]
    built: list[list[int]]
    lines: list[tuple[int, int, int]]  # (tile index, owner, points)
    totals: tuple[int, int]
    result: tuple[float, float]  # 1 win, 0.5 draw, 0 loss
    plies: int


def play_game(
    sets: tuple[str, ...],
    seed: int,
    policy: str = "greedy",
    tiles: str | None = None,
    roads: bool = True,
) -> _GameResult:
    """Play one full game between two copies of ``policy`` and record what happened."""
    if policy not in POLICIES:
        raise RegaliaError(f"unknown policy {policy!r}; valid: {', '.join(POLICIES)}")
    game = TwoHeirs(sets=sets, tiles=tiles, roads=roads)
    state = game.new_state(seed=seed)
    rng = random.Random(seed * 7919 + 17)
    greedy = GreedyPolicy(rng)
    taken: list[list[int]] = [[], []]
    built: list[list[int]] = [[], []]
    plies = 0
    while not state.terminal:
        seat = state.player
        if policy == "greedy":
            action = greedy.choose(state)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if action.kind == act.TAKE:
            taken[seat].append(action.tile)
        elif action.kind == act.BUILD:
            built[seat].append(action.tile)
        state._apply(action)
        plies += 1
    sheet = state.score_sheet()
    lines = [(game.catalogue.tile(b.tile).index, b.owner, b.points) for b in sheet.buildings]
    rets = state.returns()
    result = (0.5 + rets[0] / 2, 0.5 + rets[1] / 2)
    return _GameResult(tuple(state.sets), taken, built, lines, sheet.totals, result, plies)


def _play(args: tuple[tuple[str, ...], int, str, str | None, bool]) -> _GameResult:
    return play_game(*args)


def set_combinations(sets: Sequence[str]) -> list[tuple[str, ...]]:
    """Every choice of 3 of ``sets`` (the 20 combinations of the six sets by default)."""
    bad = [s for s in sets if s not in SETS]
    if bad:
        raise RegaliaError(f"unknown set {bad[0]!r}; valid sets: {', '.join(SETS)}")
    if len(set(sets)) < 3:
        raise RegaliaError(f"choose at least 3 different sets, got {', '.join(sets)}")
    ordered = [s for s in SETS if s in sets]
    return list(itertools.combinations(ordered, 3))


def run_games(
    games: int,
    seed: int,
    sets: tuple[str, ...],
    policy: str = "greedy",
    tiles: str | None = None,
    roads: bool = True,
    workers: int = 1,
) -> list[_GameResult]:
    """Play ``games`` games, cycling through every 3-set combination of ``sets``."""
    combos = set_combinations(sets)
    jobs = [(combos[i % len(combos)], seed * 100_003 + i, policy, tiles, roads) for i in range(games)]
    if workers > 1 and games > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(_play, jobs, chunksize=max(1, games // (workers * 4))))
    return [_play(j) for j in jobs]


def building_stats(
    games: int,
    seed: int,
    sets: tuple[str, ...],
    policy: str = "greedy",
    *,
    tiles: str | None = None,
    roads: bool = True,
    workers: int = 1,
) -> list[BuildingStat]:
    """Play ``games`` full games and measure every building of ``sets`` (see :class:`BuildingStat`).

    Games cycle through every choice of 3 of ``sets``; game ``i`` uses seed
    ``seed * 100003 + i``, so the figures depend only on the arguments (not on ``workers``).
    """
    if games < 1:
        raise RegaliaError(f"games must be at least 1, got {games}")
    if policy not in POLICIES:
        raise RegaliaError(f"unknown policy {policy!r}; valid: {', '.join(POLICIES)}")
    results = run_games(games, seed, sets, policy, tiles=tiles, roads=roads, workers=workers)
    return summarise(results, catalogue_for(tiles), sets)


def summarise(results: Sequence[_GameResult], cat: Catalogue, sets: Sequence[str]) -> list[BuildingStat]:
    """Aggregate played games into one :class:`BuildingStat` per building kind of ``sets``."""
    tiles = cat.tiles
    kinds = [(s, b) for s in SETS if s in sets for b in SET_BUILDINGS[s]]
    acc: dict[str, dict[str, Any]] = {
        b: {
            "games": 0,
            "held": 0,
            "held_built": 0,
            "taken": 0,
            "built": 0,
            "points": [],
            "ppc": [],
            "share": [],
            "res_built": [],
            "res_not": [],
        }
        for _, b in kinds
    }
    for r in results:
        winner = 0 if r.result[0] == 1.0 else 1 if r.result[1] == 1.0 else None
        per_kind_winner: dict[str, int] = {}
        for ti, owner, pts in r.lines:
            kind = tiles[ti].building
            if kind not in acc:
                continue
            a = acc[kind]
            a["points"].append(pts)
            cost = sum(tiles[ti].cost)
            a["ppc"].append(pts / cost if cost else float(pts))
            if owner == winner:
                per_kind_winner[kind] = per_kind_winner.get(kind, 0) + pts
        for s, b in kinds:
            if s not in r.sets:
                continue
            a = acc[b]
            a["games"] += 1
            if winner is not None and r.totals[winner] > 0:
                a["share"].append(per_kind_winner.get(b, 0) / r.totals[winner])
            for seat in (0, 1):
                held = sum(1 for t in r.taken[seat] if tiles[t].building == b)
                done = sum(1 for t in r.built[seat] if tiles[t].building == b)
                a["taken"] += held
                a["built"] += done
                if held:
                    a["held"] += 1
                    if done:
                        a["held_built"] += 1
                        a["res_built"].append(r.result[seat])
                    else:
                        a["res_not"].append(r.result[seat])
    out: list[BuildingStat] = []
    ppc: dict[str, float] = {}
    for _, b in kinds:
        ppc[b] = _mean(acc[b]["ppc"])
    scoring = {
        s: [b for b in SET_BUILDINGS[s] if b in ppc and b not in NON_SCORING and acc[b]["ppc"]] for s in SETS
    }
    for s, b in kinds:
        a = acc[b]
        members = [t for t in tiles if t.building == b]
        ratio = others = None
        if b in scoring[s]:
            med = statistics.median(ppc[k] for k in scoring[s])
            ratio = round(ppc[b] / med, 3) if med else None
            rest = [ppc[k] for k in scoring[s] if k != b]
            med_rest = statistics.median(rest) if rest else 0.0
            others = round(ppc[b] / med_rest, 3) if med_rest else None
        out.append(
            BuildingStat(
                building=b,
                set=s,
                tiles=len(members),
                mean_cost=round(_mean([sum(t.cost) for t in members]), 3),
                games=a["games"],
                held=a["held"],
                built_rate=round(a["held_built"] / a["held"], 3) if a["held"] else 0.0,
                tile_built_rate=round(a["built"] / a["taken"], 3) if a["taken"] else 0.0,
                built=a["built"],
                mean_points=round(_mean(a["points"]), 3),
                points_per_cost=round(ppc[b], 3),
                ppc_vs_set_median=ratio,
                ppc_vs_others=others,
                winner_share=round(_mean(a["share"]), 3),
                win_rate_built=round(_mean(a["res_built"]), 3) if a["res_built"] else None,
                win_rate_not_built=round(_mean(a["res_not"]), 3) if a["res_not"] else None,
            )
        )
    return out


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# ---------------------------------------------------------------------------------------------
# the table


_COLUMNS = (
    ("set", "set", 16),
    ("building", "building", 22),
    ("cost", "mean_cost", 4),
    ("games", "games", 5),
    ("held", "held", 5),
    ("built%", "built_rate", 6),
    ("tile%", "tile_built_rate", 6),
    ("pts", "mean_points", 5),
    ("pts/cost", "points_per_cost", 8),
    ("vs.med", "ppc_vs_set_median", 6),
    ("vs.oth", "ppc_vs_others", 6),
    ("win.sh", "winner_share", 6),
    ("win(b)", "win_rate_built", 6),
    ("win(nb)", "win_rate_not_built", 7),
)


def _cell(field: str, value: Any) -> str:
    if value is None:
        return "-"
    if field in ("built_rate", "tile_built_rate", "winner_share"):
        return f"{100 * value:.0f}%"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def format_table(stats: Sequence[BuildingStat], markdown: bool = False) -> str:
    """The figures as a plain-text (or Markdown) table."""
    rows = [[_cell(f, getattr(s, f)) for _, f, _ in _COLUMNS] for s in stats]
    if markdown:
        head = "| " + " | ".join(h for h, _, _ in _COLUMNS) + " |"
        rule = "|" + "|".join("---" if i < 2 else "---:" for i in range(len(_COLUMNS))) + "|"
        return "\n".join([head, rule, *("| " + " | ".join(r) + " |" for r in rows)])
    widths = [max(w, len(h), *(len(r[i]) for r in rows)) for i, (h, _, w) in enumerate(_COLUMNS)]
    lines = ["  ".join(h.ljust(widths[i]) for i, (h, _, _) in enumerate(_COLUMNS))]
    for r in rows:
        lines.append("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i]) for i, c in enumerate(r)))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m regalia.games.two_heirs.balance",
        description="Balance check of a Two Heirs tile catalogue by simulated play.",
    )
    parser.add_argument("--games", type=int, default=200, help="games to play in all (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--sets", default=",".join(SETS), help="sets to cover, comma-separated (default all)")
    parser.add_argument("--policy", choices=POLICIES, default="greedy")
    parser.add_argument("--tiles", default=None, help="a tile catalogue file instead of the default one")
    parser.add_argument("--no-roads", action="store_true", help="play without road scoring")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    sets = tuple(s.strip() for s in args.sets.split(",") if s.strip())
    start = time.perf_counter()
    try:
        stats = building_stats(
            args.games,
            args.seed,
            sets,
            args.policy,
            tiles=args.tiles,
            roads=not args.no_roads,
            workers=args.workers,
        )
    except RegaliaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    if args.json:
        doc = {
            "games": args.games,
            "seed": args.seed,
            "sets": list(sets),
            "policy": args.policy,
            "roads": not args.no_roads,
            "tiles": args.tiles,
            "seconds": round(seconds, 2),
            "buildings": [s.to_json() for s in stats],
        }
        print(json.dumps(doc, indent=1))
    else:
        print(format_table(stats, markdown=args.markdown))
        print(f"\n{args.games} games ({args.policy}, seed {args.seed}) in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
