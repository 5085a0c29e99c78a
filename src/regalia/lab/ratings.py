"""Ratings from a round robin: Bradley–Terry strengths on the Elo scale, bootstrap intervals, and
N-seat OpenSkill ratings (Plackett-Luce: each game's whole ranking, mu and sigma per agent).

Every group of agents (a pair in a two-seat game, every set of ``n`` agents in an ``n``-seat game)
plays the same number of games, seats rotated; game ``j`` of every group uses the same seed. A game
of more than two seats is broken into the pairwise comparisons of its ranking (rank breaking: each
pair of seats is a win, a draw or a loss between their agents), each weighted ``1 / (n - 1)`` so
that every game counts as much for every seat. Strengths are fitted by the
minorization–maximization algorithm (Hunter 2004) with one virtual draw per pair, so that a pair
won every time still gives a finite rating. Ratings are ``400 log10(strength)``, shifted to mean 0;
a difference of 400 means 10:1 odds.

>>> ratings = bradley_terry(2, [(0, 1, 1.0, 1.0)] * 3 + [(0, 1, 0.0, 1.0)])
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
from regalia.core.text import plural
from regalia.lab.backends import run_jobs
from regalia.lab.plan import (
    agent_labels,
    agent_seats,
    check_agents,
    check_run,
    prepare_game,
    rotation_job,
    split_specs,
)
from regalia.lab.play import GameResult, LabError

#: One comparison of two agents: (agent i, agent j, score of i: 1 win, 0.5 draw, 0 loss, weight).
Pairing = tuple[int, int, float, float]


def bradley_terry(
    n: int, games: Sequence[Pairing], prior: float = 1.0, tol: float = 1e-9, max_iter: int = 10_000
) -> list[float]:
    """Elo-scale ratings (mean 0) of ``n`` agents from weighted pairwise results.

    ``prior`` virtual drawn games are added to every pair that played.
    """
    wins = [0.0] * n
    count: dict[tuple[int, int], float] = {}
    for i, j, s, w in games:
        if i == j:
            raise ValueError("an agent cannot play itself in a rating")
        wins[i] += w * s
        wins[j] += w * (1.0 - s)
        key = (min(i, j), max(i, j))
        count[key] = count.get(key, 0.0) + w
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
    games: Sequence[Sequence[Pairing]],
    samples: int = 200,
    seed: int = 0,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals of :func:`bradley_terry` ratings.

    ``games`` is a list of games, each the list of its pairings; games are resampled within their
    group (the same agents), so each group keeps its number of games.
    """
    by_group: dict[tuple[int, ...], list[Sequence[Pairing]]] = {}
    for g in games:
        agents = tuple(sorted({a for p in g for a in p[:2]}))
        by_group.setdefault(agents, []).append(g)
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        sample: list[Pairing] = []
        for group in by_group.values():
            for _ in group:
                sample.extend(group[rng.randrange(len(group))])
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
    games_per_group: int
    seats: int
    results: list[GameResult]
    ratings: list[float]
    intervals: list[tuple[float, float]]
    elapsed: float = 0.0
    skill: list[tuple[float, float]] | None = None  # OpenSkill (mu, sigma) per agent

    def skill_json(self) -> JSON | None:
        if self.skill is None:
            return None
        return {
            self.agents[k]: {"mu": mu, "sigma": sigma, "low": mu - 2 * sigma, "high": mu + 2 * sigma}
            for k, (mu, sigma) in sorted(enumerate(self.skill), key=lambda x: -(x[1][0] - 2 * x[1][1]))
        }

    def pairings(self) -> list[Pairing]:
        return [p for g in games_pairings(self.results) for p in g]

    def score_matrix(self) -> list[list[float]]:
        """``m[i][j]``: weighted points of agent i against agent j (win 1, draw 0.5)."""
        n = len(self.agents)
        m = [[0.0] * n for _ in range(n)]
        for i, j, s, w in self.pairings():
            m[i][j] += w * s
            m[j][i] += w * (1 - s)
        return m

    def order(self) -> list[int]:
        return sorted(range(len(self.agents)), key=lambda k: -self.ratings[k])

    def played(self, k: int) -> float:
        """The weighted comparisons agent ``k`` took part in (its possible points)."""
        return sum(w for i, j, _, w in self.pairings() if k in (i, j))

    def to_json(self) -> JSON:
        m = self.score_matrix()
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "games_per_group": self.games_per_group,
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
            "openskill": self.skill_json(),
            "elapsed_seconds": self.elapsed,
        }

    def table(self) -> Any:
        from rich.table import Table

        group = "pair" if self.seats == 2 else f"group of {self.seats}"
        per = plural(self.games_per_group, "game")
        table = Table(title=f"{self.game}: round robin, {per} per {group}, seed {self.seed}")
        table.add_column("rank", justify="right")
        table.add_column("agent")
        table.add_column("Elo (mean 0)", justify="right")
        table.add_column("95% CI", justify="right")
        table.add_column("points", justify="right")
        if self.skill is not None:
            table.add_column("OpenSkill mu ± sigma", justify="right")
            table.add_column("mu ± 2 sigma", justify="right")
            table.caption = "OpenSkill: Plackett-Luce over each game's full ranking (ties shared)"
        m = self.score_matrix()
        for rank, k in enumerate(self.order(), start=1):
            lo, hi = self.intervals[k]
            row = [
                str(rank),
                self.agents[k],
                f"{self.ratings[k]:+.0f}",
                f"{lo:+.0f} to {hi:+.0f}",
                f"{sum(m[k]):g}/{self.played(k):g}",
            ]
            if self.skill is not None:
                mu, sigma = self.skill[k]
                row += [f"{mu:.2f} ± {sigma:.2f}", f"{mu - 2 * sigma:.2f} to {mu + 2 * sigma:.2f}"]
            table.add_row(*row)
        return table


def game_pairings(result: GameResult) -> list[Pairing]:
    """One game's ranking broken into pairwise comparisons of its agents' seats, each weighted
    ``1 / (n - 1)`` for ``n`` agent seats (a two-seat game: one comparison of weight 1)."""
    seats = [s for s, a in enumerate(result.agents) if a >= 0]
    if len(seats) < 2:
        return []
    weight = 1.0 / (len(seats) - 1)
    out = []
    for x, s in enumerate(seats):
        for t in seats[x + 1 :]:
            a, b = result.agents[s], result.agents[t]
            if a == b:
                continue
            ra, rb = result.returns[s], result.returns[t]
            out.append((a, b, 1.0 if ra > rb else 0.0 if ra < rb else 0.5, weight))
    return out


def games_pairings(results: Sequence[GameResult]) -> list[list[Pairing]]:
    """The pairings of every game, game by game."""
    return [game_pairings(r) for r in results]


def plackett_luce(n: int, results: Sequence[GameResult]) -> list[tuple[float, float]] | None:
    """OpenSkill ratings ``(mu, sigma)`` of ``n`` agents (Plackett-Luce, the library's defaults:
    mu 25, sigma 25/3) updated game by game, in the order of the game index, then of the group,
    with every seat of a game ranked by its return (equal returns share a rank); ``None`` when
    the ``openskill`` package is not installed (``pip install 'regalia[lab]'``).

    An agent playing several seats of one game is rated as its first seat.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = [model.rating(name=str(k)) for k in range(n)]
    for r in sorted(results, key=lambda g: (g.index, g.group)):
        seats: dict[int, int] = {}
        for s, a in enumerate(r.agents):
            if a >= 0 and a not in seats:
                seats[a] = s
        if len(seats) < 2:
            continue
        agents = list(seats)
        ranks = [-r.returns[seats[a]] for a in agents]  # lower rank is better
        new = model.rate([[ratings[a]] for a in agents], ranks=ranks)
        for a, team in zip(agents, new, strict=True):
            ratings[a] = team[0]
    return [(float(x.mu), float(x.sigma)) for x in ratings]


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
    """A round robin: ``games`` games for every group of agents that fills the game's seats (every
    pair in a two-seat game), seats rotated, rated by Bradley–Terry on the Elo scale."""
    specs = split_specs(agent_specs)
    check_run(games, workers, backend)
    check_agents(specs)
    game, opts, _seats = prepare_game(game_id, options)
    name = game if isinstance(game, str) else game.id
    playable = agent_seats(game, opts)
    n = len(playable)
    if n < 2:
        raise LabError(f"a ladder needs a game with two or more seats for agents; {name} has {n} here")
    if len(specs) < n:
        raise LabError(f"a ladder of {name} needs at least {n} agents (one per seat), got {len(specs)}")
    jobs = [
        rotation_job(j, game, opts, specs, members, playable, _seats, seed, group=group, agent_key=(group,))
        for group, members in enumerate(itertools.combinations(range(len(specs)), n))
        for j in range(games)
    ]
    start = time.perf_counter()
    results = run_jobs(jobs, workers, backend, ray_address, progress, f"{name} ladder")
    played = games_pairings(results)
    flat = [p for g in played for p in g]
    return LadderResult(
        game=name,
        options=opts,
        agents=agent_labels(specs),
        specs=specs,
        seed=seed,
        games_per_group=games,
        seats=n,
        results=results,
        ratings=bradley_terry(len(specs), flat),
        intervals=bootstrap_intervals(len(specs), played, samples=bootstrap, seed=seed),
        elapsed=time.perf_counter() - start,
        skill=plackett_luce(len(specs), results),
    )
