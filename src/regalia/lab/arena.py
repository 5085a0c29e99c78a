"""The arena: many games between agents, seats alternated, with summary statistics.

>>> from regalia.lab import run_arena
>>> result = run_arena("two-heirs", ["greedy", "random"], games=4, seed=1, progress=False)
>>> result.games, sorted(result.wins)
(4, ['greedy', 'random'])
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from regalia.core.game import JSON, Game
from regalia.core.text import plural
from regalia.lab.backends import run_jobs
from regalia.lab.plan import agent_labels, plan_rotation
from regalia.lab.play import GameResult, LabError, outcome_of
from regalia.lab.stats import mean, stdev, wilson_interval


@dataclasses.dataclass(frozen=True)
class AgentSummary:
    """One agent's results over an arena run."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    win_interval: tuple[float, float]
    mean_score: float
    score_sd: float
    moves: int
    seconds_per_move: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclasses.dataclass
class ArenaResult:
    """The games of an arena run and their statistics."""

    game: str
    options: JSON
    agents: list[str]
    specs: list[str]
    seed: int
    results: list[GameResult]
    num_players: int
    elapsed: float = 0.0
    backend: str = "local"
    workers: int = 1
    seat_names: list[str] = dataclasses.field(default_factory=list)

    # -- counts ------------------------------------------------------------------------------
    @property
    def games(self) -> int:
        return len(self.results)

    def _outcomes(self, k: int) -> tuple[int, int, int]:
        wins = draws = losses = 0
        for r in self.results:
            for seat, agent in enumerate(r.agents):
                if agent == k:
                    result = outcome_of(r.returns, seat)
                    if result > 0:
                        wins += 1
                    elif result < 0:
                        losses += 1
                    else:
                        draws += 1
        return wins, draws, losses

    @property
    def wins(self) -> dict[str, int]:
        """Games won per agent (a positive return)."""
        return {name: self._outcomes(k)[0] for k, name in enumerate(self.agents)}

    @property
    def draws(self) -> int:
        """Games in which every seat's return is zero."""
        return sum(1 for r in self.results if all(x == 0 for x in r.returns))

    @property
    def first_seat_wins(self) -> int:
        return sum(1 for r in self.results if r.returns and outcome_of(r.returns, 0) > 0)

    @property
    def first_seat_win_rate(self) -> float:
        return self.first_seat_wins / self.games if self.games else 0.0

    @property
    def first_seat_interval(self) -> tuple[float, float]:
        return wilson_interval(self.first_seat_wins, self.games)

    @property
    def mean_length(self) -> float:
        """Mean game length in plies."""
        return mean([r.plies for r in self.results])

    def seat_mean_scores(self) -> list[float]:
        """Mean final score of each seat, whoever (or whatever automaton) played it."""
        return [mean([r.scores[s] for r in self.results]) for s in range(self.num_players)]

    def summaries(self) -> list[AgentSummary]:
        """Per-agent statistics, in the order the agents were given."""
        out = []
        for k, name in enumerate(self.agents):
            wins, draws, losses = self._outcomes(k)
            games = wins + draws + losses
            scores: list[float] = []
            moves = 0
            seconds = 0.0
            for r in self.results:
                for seat, agent in enumerate(r.agents):
                    if agent == k:
                        scores.append(r.scores[seat])
                        moves += r.moves[seat]
                        seconds += r.seconds[seat]
            out.append(
                AgentSummary(
                    name=name,
                    games=games,
                    wins=wins,
                    draws=draws,
                    losses=losses,
                    win_interval=wilson_interval(wins, games),
                    mean_score=mean(scores),
                    score_sd=stdev(scores),
                    moves=moves,
                    seconds_per_move=seconds / moves if moves else 0.0,
                )
            )
        return out

    def outcomes(self) -> list[tuple[Any, ...]]:
        """The reproducible part of every game (for comparing runs)."""
        return [r.outcome() for r in self.results]

    # -- output ------------------------------------------------------------------------------
    def to_json(self) -> JSON:
        """A JSON-able summary: ``games``, ``wins`` per agent, ``draws``, ``first_seat_win_rate``..."""
        sums = self.summaries()
        lo, hi = self.first_seat_interval
        return {
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "games": self.games,
            "agents": list(self.agents),
            "specs": list(self.specs),
            "wins": {s.name: s.wins for s in sums},
            "losses": {s.name: s.losses for s in sums},
            "agent_draws": {s.name: s.draws for s in sums},
            "draws": self.draws,
            "win_rate": {
                s.name: {"rate": s.win_rate, "low": s.win_interval[0], "high": s.win_interval[1]}
                for s in sums
            },
            "mean_scores": {s.name: s.mean_score for s in sums},
            "score_sd": {s.name: s.score_sd for s in sums},
            "seconds_per_move": {s.name: s.seconds_per_move for s in sums},
            "seat_mean_scores": self.seat_mean_scores(),
            "mean_length": self.mean_length,
            "first_seat_wins": self.first_seat_wins,
            "first_seat_win_rate": self.first_seat_win_rate,
            "first_seat_interval": [lo, hi],
            "elapsed_seconds": self.elapsed,
            "backend": self.backend,
            "workers": self.workers,
        }

    def table(self) -> Any:
        """The summary as a :class:`rich.table.Table`."""
        from rich.table import Table

        title = f"{self.game}: {plural(self.games, 'game')}, seed {self.seed}"
        table = Table(title=title)
        for col in ("agent", "win", "draw", "loss", "win rate (95% CI)", "mean score", "s/move"):
            table.add_column(col, justify="left" if col == "agent" else "right")
        for s in self.summaries():
            lo, hi = s.win_interval
            table.add_row(
                s.name,
                str(s.wins),
                str(s.draws),
                str(s.losses),
                f"{s.win_rate:.1%} ({lo:.1%}-{hi:.1%})",
                f"{s.mean_score:.2f} ± {s.score_sd:.2f}",
                f"{s.seconds_per_move:.4f}",
            )
        lo, hi = self.first_seat_interval
        table.caption = (
            f"draws {self.draws}; mean length {self.mean_length:.1f} plies; first seat wins "
            f"{self.first_seat_win_rate:.1%} ({lo:.1%}-{hi:.1%}); {self.elapsed:.1f} s"
        )
        return table

    def format(self) -> str:
        """The summary as plain text."""
        from regalia.render.text import plain_text

        return plain_text(self.table(), 110)

    def save(self, out_dir: str | Path, plots: bool = True) -> Path:
        """Write records, ``summary.json``, ``report.md`` and the plots into ``out_dir``."""
        from regalia.lab.report import write_arena_report

        return write_arena_report(self, Path(out_dir), plots=plots)


def run_arena(
    game_id: str | Game[Any],
    agent_specs: Sequence[str] | str,
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    options: JSON | None = None,
    out_dir: str | Path | None = None,
    progress: bool = True,
    curves: bool | None = None,
    records: bool | None = None,
) -> ArenaResult:
    """Play ``games`` games of ``game_id`` between the agents, one agent per seat.

    Give one agent for every seat that agents play (the seats the rules play themselves, such as a
    solo automaton, take no agent). Seats rotate between games (game ``i`` gives the ``s``-th such
    seat to agent ``(s + i) % n``); game ``i``'s seed (chance) and the agents' random generators
    are derived from ``(seed, i)``, so the results are the same whatever ``workers`` and
    ``backend`` (as long as the agents' budgets are iterations, not seconds).

    ``backend`` is ``"local"`` (worker processes; ``workers=1`` plays in this process) or
    ``"ray"`` (Ray tasks on ``ray_address``, a local Ray when ``None``). ``out_dir`` also writes
    every game's record, ``summary.json``, ``report.md`` and PNG plots. ``curves`` / ``records``
    keep per-ply scores / records in the results (default: when ``out_dir`` is given).
    """
    if out_dir is not None:
        check_out_dir(Path(out_dir))
    keep_curves = out_dir is not None if curves is None else curves
    keep_records = out_dir is not None if records is None else records
    plan = plan_rotation(
        game_id, agent_specs, games, seed, options, workers, backend, curves=keep_curves, record=keep_records
    )
    game, opts, num_players, specs, jobs = plan.game, plan.options, plan.num_players, plan.specs, plan.jobs
    start = time.perf_counter()
    results = run_jobs(jobs, workers, backend, ray_address, progress, f"{_game_name(game)} arena")
    result = ArenaResult(
        game=_game_name(game),
        options=opts,
        agents=agent_labels(specs),
        specs=specs,
        seed=seed,
        results=results,
        num_players=num_players,
        elapsed=time.perf_counter() - start,
        backend=backend,
        workers=workers,
        seat_names=plan.built.seat_names(),
    )
    if out_dir is not None:
        result.save(out_dir)
    return result


def check_out_dir(out_dir: Path) -> None:
    """Refuse an output path that is a file, or a folder holding another run's records."""
    if out_dir.exists() and not out_dir.is_dir():
        raise LabError(f"--out {out_dir}: it is a file; give a folder for the report")
    records = out_dir / "records"
    if records.is_dir() and any(records.iterdir()):
        raise LabError(f"--out {out_dir}: it already holds the records of a run; give a new or empty folder")


def _game_name(game: str | Game[Any]) -> str:
    return game if isinstance(game, str) else game.id


def dumps(doc: JSON) -> str:
    """JSON text of a summary (one object, stable key order)."""
    return json.dumps(doc, indent=1)
