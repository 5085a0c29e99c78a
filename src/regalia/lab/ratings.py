"""Ratings from a round robin: Bradley–Terry strengths on the Elo scale, bootstrap intervals.

Every pair of agents plays the same number of games (seats alternated; game ``j`` of every pair
uses the same deal). Strengths are fitted by the minorization–maximization algorithm (Hunter 2004)
with one virtual draw per pair, so that a pair won every time still gives a finite rating.
Ratings are ``400 log10(strength)``, shifted to mean 0; a difference of 400 means 10:1 odds.

>>> ratings = bradley_terry(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)])
>>> round(ratings[0] - ratings[1])
147
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from regalia.core.game import JSON, Game
from regalia.lab.arena import agent_labels, agent_seats, check_agents, prepare_game, split_specs
from regalia.lab.backends import check_backend, run_jobs
from regalia.lab.play import GameJob, GameResult, LabError
from regalia.lab.stats import derive_seed

#: One game between two agents: (agent i, agent j, score of i: 1 win, 0.5 draw, 0 loss).
Pairing = tuple[int, int, float]


def bradley_terry(
    n: int, games: Sequence[Pairing], prior: float = 1.0, tol: float = 1e-9, max_iter: int = 10_000
) -> list[float]:
    """Elo-scale ratings (mean 0) of ``n`` agents from pairwise results.

    ``prior`` virtual drawn games are added to every pair that played.
    """
    wins = [0.0] * n
    count: dict[tuple[int, int], float] = {}
    for i, j, s in games:
        if i == j:
            raise ValueError("an agent cannot play itself in a rating")
        wins[i] += s
        wins[j] += 1.0 - s
        key = (min(i, j), max(i, j))
        count[key] = count.get(key, 0.0) + 1.0
    for key in count:
        count[key] += prior
        wins[key[0]] += prior / 2
        wins[key[1]] += prior / 2
    opponents: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), c in count.items():
        opponents[i].append((j, c))
        opponents[j].append((i, c))
    p = [1.0] * n
    for _ in range(max_iter):
        new = []
        for i in range(n):
            denom = sum(c / (p[i] + p[j]) for j, c in opponents[i])
            new.append(wins[i] / denom if denom > 0 and wins[i] > 0 else p[i])
        log_mean = sum(math.log(x) for x in new) / n
        scale = math.exp(log_mean)
        new = [x / scale for x in new]
        change = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if change < tol:
            break
    return [400.0 * math.log10(x) for x in p]


def bootstrap_intervals(
    n: int,
    games: Sequence[Pairing],
    samples: int = 200,
    seed: int = 0,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals of :func:`bradley_terry` ratings (games resampled per pair)."""
    by_pair: dict[tuple[int, int], list[Pairing]] = {}
    for g in games:
        by_pair.setdefault((g[0], g[1]), []).append(g)
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        sample: list[Pairing] = []
        for group in by_pair.values():
            sample.extend(group[rng.randrange(len(group))] for _ in group)
        for i, r in enumerate(bradley_terry(n, sample, tol=1e-6)):
            draws[i].append(r)
    tail = (1 - level) / 2
    out = []
    for values in draws:
        values.sort()
        if not values:
            out.append((0.0, 0.0))
            continue
        lo = values[math.floor(tail * (len(values) - 1))]
        hi = values[math.ceil((1 - tail) * (len(values) - 1))]
        out.append((lo, hi))
    return out


@dataclasses.dataclass
class LadderResult:
    """A round robin's games and the ratings fitted to them."""

    game: str
    options: JSON
    agents: list[str]
    specs: list[str]
    seed: int
    games_per_pair: int
    results: list[GameResult]
    ratings: list[float]
    intervals: list[tuple[float, float]]
    elapsed: float = 0.0

    def pairings(self) -> list[Pairing]:
        return pairings_of(self.results)

    def score_matrix(self) -> list[list[float]]:
        """``m[i][j]``: points of agent i against agent j (win 1, draw 0.5)."""
        n = len(self.agents)
        m = [[0.0] * n for _ in range(n)]
        for i, j, s in self.pairings():
            m[i][j] += s
            m[j][i] += 1 - s
        return m

    def order(self) -> list[int]:
        return sorted(range(len(self.agents)), key=lambda k: -self.ratings[k])

    def to_json(self) -> JSON:
        m = self.score_matrix()
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "games": len(self.results),
            "agents": list(self.agents),
            "ratings": {
                self.agents[k]: {
                    "elo": self.ratings[k],
                    "low": self.intervals[k][0],
                    "high": self.intervals[k][1],
                }
                for k in self.order()
            },
            "points": {
                a: {b: m[i][j] for j, b in enumerate(self.agents) if i != j}
                for i, a in enumerate(self.agents)
            },
            "elapsed_seconds": self.elapsed,
        }

    def table(self) -> Any:
        from rich.table import Table

        table = Table(
            title=f"{self.game}: round robin, {self.games_per_pair} games per pair, seed {self.seed}"
        )
        table.add_column("rank", justify="right")
        table.add_column("agent")
        table.add_column("Elo (mean 0)", justify="right")
        table.add_column("95% CI", justify="right")
        table.add_column("points", justify="right")
        m = self.score_matrix()
        for rank, k in enumerate(self.order(), start=1):
            lo, hi = self.intervals[k]
            played = self.games_per_pair * (len(self.agents) - 1)
            table.add_row(
                str(rank),
                self.agents[k],
                f"{self.ratings[k]:+.0f}",
                f"{lo:+.0f} to {hi:+.0f}",
                f"{sum(m[k]):g}/{played}",
            )
        return table


def pairings_of(results: Sequence[GameResult]) -> list[Pairing]:
    """Two-seat game results as (agent, agent, score of the first)."""
    out = []
    for r in results:
        a, b = r.agents
        ra, rb = r.returns
        s = 1.0 if ra > rb else 0.0 if ra < rb else 0.5
        out.append((a, b, s))
    return out


def run_ladder(
    game_id: str | Game[Any],
    agent_specs: Sequence[str] | str,
    games: int = 20,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    options: JSON | None = None,
    progress: bool = True,
    bootstrap: int = 200,
) -> LadderResult:
    """A round robin of ``games`` games per pair of agents, rated by Bradley–Terry (Elo scale)."""
    specs = split_specs(agent_specs)
    check_backend(backend)
    if len(specs) < 2:
        raise LabError("a ladder needs at least two agents")
    if games < 1:
        raise LabError(f"games must be at least 1, got {games}")
    check_agents(specs)
    game, opts, _seats = prepare_game(game_id, options)
    name = game if isinstance(game, str) else game.id
    if len(agent_seats(game, opts)) != 2:
        raise LabError(
            f"a ladder needs a game with two seats for agents; {name} has {len(agent_seats(game, opts))} here"
        )
    jobs = []
    for group, (a, b) in enumerate(itertools.combinations(range(len(specs)), 2)):
        for j in range(games):
            seats = (a, b) if j % 2 == 0 else (b, a)
            jobs.append(
                GameJob(
                    index=j,
                    game=game,
                    options=opts,
                    specs=(specs[seats[0]], specs[seats[1]]),
                    agents=seats,
                    seed=derive_seed(seed, "game", j),
                    agent_seeds=(
                        derive_seed(seed, "agent", group, j, 0),
                        derive_seed(seed, "agent", group, j, 1),
                    ),
                    group=group,
                )
            )
    start = time.perf_counter()
    results = run_jobs(jobs, workers, backend, ray_address, progress, f"{name} ladder")
    played = pairings_of(results)
    n = len(specs)
    return LadderResult(
        game=name,
        options=opts,
        agents=agent_labels(specs),
        specs=specs,
        seed=seed,
        games_per_pair=games,
        results=results,
        ratings=bradley_terry(n, played),
        intervals=bootstrap_intervals(n, played, samples=bootstrap, seed=seed),
        elapsed=time.perf_counter() - start,
    )
