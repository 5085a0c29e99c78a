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

from regalia.ai import agent_from_spec
from regalia.core.game import JSON, Game
from regalia.lab.backends import check_backend, run_jobs
from regalia.lab.play import GameJob, GameResult, LabError, outcome_of, resolve_game
from regalia.lab.stats import derive_seed, mean, stdev, wilson_interval


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


def split_specs(agent_specs: Sequence[str] | str) -> list[str]:
    """Agent specs from a list or a comma-separated string."""
    if isinstance(agent_specs, str):
        agent_specs = agent_specs.split(",")
    specs = [s.strip() for s in agent_specs if s.strip()]
    if not specs:
        raise LabError("no agents given")
    return specs


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Display names of agents: their specs, repeated ones numbered (``mcts``, ``mcts#2``)."""
    labels: list[str] = []
    for spec in specs:
        label, k = spec, 1
        while label in labels:
            k += 1
            label = f"{spec}#{k}"
        labels.append(label)
    return labels


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

        title = f"{self.game}: {self.games} games, seed {self.seed}"
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
        import io

        from rich.console import Console

        console = Console(width=110, record=True, file=io.StringIO())
        console.print(self.table())
        return console.export_text()

    def save(self, out_dir: str | Path, plots: bool = True) -> Path:
        """Write records, ``summary.json``, ``report.md`` and the plots into ``out_dir``."""
        from regalia.lab.report import write_arena_report

        return write_arena_report(self, Path(out_dir), plots=plots)


def prepare_game(game: str | Game[Any], options: JSON | None) -> tuple[str | Game[Any], JSON, int]:
    """Check a game and its options; returns (game for the jobs, full options, number of seats).

    ``game`` is a registered id or a :class:`Game` (then ``options``, if any, rebuild it).
    """
    if isinstance(game, str):
        built = resolve_game(game, dict(options or {}))
        ref: str | Game[Any] = game
    else:
        built = type(game)(**options) if options else game
        ref = built
    return ref, built.options.to_json(), built.num_players


def agent_seats(game: str | Game[Any], options: JSON) -> tuple[int, ...]:
    """The seats agents play: every seat but those the rules play themselves (a solo automaton)."""
    built = resolve_game(game, options) if isinstance(game, str) else game
    auto = set(built.automaton_seats())
    return tuple(s for s in range(built.num_players) if s not in auto)


def seat_names(game: str | Game[Any], options: JSON) -> list[str]:
    """The display names of a game's seats."""
    built = resolve_game(game, options) if isinstance(game, str) else game
    return built.seat_names()


def check_agents(specs: Sequence[str]) -> None:
    """Build each agent once so that bad specs fail before any game starts."""
    for spec in specs:
        agent_from_spec(spec)


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
    specs = split_specs(agent_specs)
    check_backend(backend)
    if games < 1:
        raise LabError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise LabError(f"workers must be at least 1, got {workers}")
    check_agents(specs)
    game, opts, num_players = prepare_game(game_id, options)
    playable = agent_seats(game, opts)
    if len(specs) != len(playable):
        example = ",".join([specs[0]] * len(playable))
        raise LabError(
            f"{_game_name(game)} has {len(playable)} seat(s) for agents with these options: give "
            f"{len(playable)} agent(s), one per seat (e.g. {example}), got {len(specs)}"
        )
    if out_dir is not None:
        check_out_dir(Path(out_dir))
    keep_curves = out_dir is not None if curves is None else curves
    keep_records = out_dir is not None if records is None else records
    jobs = []
    n = len(playable)
    for i in range(games):
        # agents rotate over the seats they play; the rules play the automaton's seats
        by_seat = {seat: (k + i) % n for k, seat in enumerate(playable)}
        seats = tuple(by_seat.get(s, -1) for s in range(num_players))
        jobs.append(
            GameJob(
                index=i,
                game=game,
                options=opts,
                specs=tuple(specs[a] if a >= 0 else "" for a in seats),
                agents=seats,
                seed=derive_seed(seed, "game", i),
                agent_seeds=tuple(derive_seed(seed, "agent", i, s) for s in range(num_players)),
                curves=keep_curves,
                record=keep_records,
            )
        )
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
        seat_names=seat_names(game, opts),
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
