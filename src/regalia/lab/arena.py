"""The arena: many games between agents, seats alternated, with summary statistics.

>>> from regalia.lab import run_arena
>>> result = run_arena("two-heirs", ["greedy", "random"], games=4, seed=1, progress=False)
>>> result.games, sorted(result.wins)
(4, ['greedy', 'random'])
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from regalia.core.game import JSON, Game
from regalia.core.text import plural
from regalia.lab.backends import Interrupted, finished_prefix, result_order, run_jobs
from regalia.lab.plan import agent_labels, plan_rotation
from regalia.lab.play import GameJob, GameResult, LabError, outcome_of
from regalia.lab.sprt import (
    PAIR_OUTCOMES,
    PENTANOMIAL,
    TRINOMIAL,
    Estimate,
    SprtResult,
    SprtSpec,
    estimate,
    llr,
    parse_sprt,
)
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
    pairs: bool = False  # each seed played once per rotation of the seats
    sprt: SprtResult | None = None
    played: int = 0  # games played, those past the SPRT's decision included
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: the games finished until then
    planned: int = 0  # the games the run was to play at most (0: as many as it has)
    deals: bool = False  # pairs in a game with one seat for agents: each deal played by each agent
    #: The earlier runs (path, seed, games) whose SPRT this one goes on with (``continues``).
    continues: list[JSON] = dataclasses.field(default_factory=list)

    # -- head to head: the first agent (tested) against the second (baseline) ----------------------
    @property
    def rotations(self) -> int:
        """Games per seed: the number of agents with ``pairs``, else 1."""
        return len(self.agents) if self.pairs else 1

    @property
    def pentanomial(self) -> bool:
        """Whether head-to-head results count pairs (two agents, seats swapped) rather than games."""
        return self.pairs and len(self.agents) == 2 and not self.deals

    def game_outcomes(self) -> list[int]:
        """The first agent's result against the second in each game: 0 loss, 1 draw, 2 win (the
        two agents' returns compared; ``[]`` with fewer than two agents). In a solo game played
        deal by deal (:attr:`deals`), per deal: the first agent's result against the automaton
        compared with the second's on the same deal."""
        if len(self.agents) < 2:
            return []
        if self.deals:
            n = len(self.agents)
            return [head_to_head(*games) for games in self._by_seed() if len(games) == n]
        return [head_to_head(r) for r in self.results]

    def _by_seed(self) -> list[list[GameResult]]:
        """The games grouped by seed (a pair, or a deal), each group and the groups in the order
        of the games' indices."""
        groups: dict[int, list[GameResult]] = {}
        for r in sorted(self.results, key=lambda r: r.index):
            groups.setdefault(r.seed, []).append(r)
        return sorted(groups.values(), key=lambda games: games[0].index)

    def pair_outcomes(self) -> list[int]:
        """Per seed with ``pairs``: the index of its pair outcome in :data:`PAIR_OUTCOMES`
        (the sum of the two games' :meth:`game_outcomes`); the games are paired by seed."""
        if not self.pentanomial:
            return []
        return [head_to_head(a) + head_to_head(b) for a, b in (g for g in self._by_seed() if len(g) == 2)]

    def counts(self) -> list[int]:
        """Head-to-head counts: pair outcomes (LL..WW) with two agents in pairs, else L, D, W."""
        if self.pentanomial:
            stream, size = self.pair_outcomes(), 5
        else:
            stream, size = self.game_outcomes(), 3
        return [stream.count(k) for k in range(size)]

    def estimate(self) -> Estimate | None:
        """Elo of the first agent over the second with a 95% interval, and the LOS."""
        if len(self.agents) < 2:
            return None
        return estimate(PENTANOMIAL if self.pentanomial else TRINOMIAL, self.counts())

    def head_to_head_json(self) -> JSON | None:
        est = self.estimate()
        if est is None:
            return None
        games = self.game_outcomes()
        doc: JSON = {
            "tested": self.agents[0],
            "baseline": self.agents[1],
            "model": "pentanomial" if self.pentanomial else "trinomial",
            "wins": games.count(2),
            "draws": games.count(1),
            "losses": games.count(0),
            **estimate_json(est),
        }
        if self.pentanomial:
            doc["pairs"] = dict(zip(PAIR_OUTCOMES, self.counts(), strict=True))
        return doc

    def sprt_json(self) -> JSON | None:
        if self.sprt is None:
            return None
        spec = self.sprt.spec
        lower, upper = spec.bounds
        return {
            "elo0": spec.elo0,
            "elo1": spec.elo1,
            "alpha": spec.alpha,
            "beta": spec.beta,
            "llr": self.sprt.llr,
            "lower": lower,
            "upper": upper,
            "decision": self.sprt.decision or "inconclusive",
            "units": self.sprt.units,
            "unit": self._unit(),
            "verdict": self.verdict(),
            "continues": self.continues,
        }

    def _unit(self) -> str:
        """What the head-to-head counts: a pair, a deal, a set of games or a game."""
        if self.pentanomial:
            return "pair"
        if self.deals:
            return "deal"
        return "set of games" if self.rotations > 1 else "game"

    def verdict(self) -> str:
        """The SPRT's decision in words."""
        if self.sprt is None:
            return ""
        spec = self.sprt.spec
        a, b = self.agents[0], self.agents[1]
        if self.sprt.decision == "H1":
            return f"H1 accepted: {a} is stronger than {b} by at least {spec.elo1:g} Elo"
        if self.sprt.decision == "H0":
            return (
                f"H0 accepted: {a} is not stronger than {b} by {spec.elo1:g} Elo"
                f" (elo0={spec.elo0:g} fits the games better)"
            )
        if self.interrupted:
            return f"inconclusive: interrupted after {plural(self.games, 'game')}"
        return f"inconclusive at the cap of {plural(self.games, 'game')}"

    def summary_lines(self) -> list[str]:
        """The head-to-head and SPRT lines shown under the table."""
        est = self.estimate()
        if est is None:
            return []
        games = self.game_outcomes()
        stopped = (
            [f"interrupted: the {plural(self.games, 'game')} finished of {self.planned} planned"]
            if self.interrupted
            else []
        )
        a, b = self.agents[0], self.agents[1]
        unit = plural(est.units, "deal" if self.deals else "pair" if self.pentanomial else "game")
        lines = [
            f"{a} vs {b}: W/D/L {games.count(2)}/{games.count(1)}/{games.count(0)}, score {est.score:.3f}"
            f" over {unit}; Elo {_elo(est.elo)} (95% CI {_elo(est.elo_low)} to {_elo(est.elo_high)});"
            f" LOS {est.los:.1%}"
        ]
        if self.pentanomial:
            pairs = ", ".join(f"{k} {v}" for k, v in zip(PAIR_OUTCOMES, self.counts(), strict=True))
            lines.append(f"pairs (for {a}): {pairs}")
        if self.sprt is not None:
            lower, upper = self.sprt.spec.bounds
            before = ""
            if self.continues:
                seeds = ", ".join(str(run["seed"]) for run in self.continues)
                earlier = sum(int(run["games"]) for run in self.continues)
                before = f" and the {plural(earlier, 'game')} of the runs it continues (seeds {seeds})"
            lines.append(
                f"SPRT {self.sprt.spec.text()}: LLR {self.sprt.llr:.2f} (bounds {lower:.2f}, {upper:.2f})"
                f" after {plural(self.games, 'game')}{before}"
            )
            lines.append(self.verdict())
        return stopped + lines

    # -- counts ------------------------------------------------------------------------------
    @property
    def games(self) -> int:
        return len(self.results)

    def _outcomes(self, k: int) -> tuple[int, int, int]:
        return agent_outcomes(self.results, k)

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
            "pairs": self.pairs,
            "head_to_head": self.head_to_head_json(),
            "sprt": self.sprt_json(),
            "games_played": self.played or self.games,
            "interrupted": self.interrupted,
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

        return "\n".join([plain_text(self.table(), 110).rstrip("\n"), *self.summary_lines()]) + "\n"

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
    pairs: bool = False,
    sprt: SprtSpec | str | None = None,
    continues: Sequence[str | Path] = (),
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

    ``pairs`` plays each seed once per rotation of the agents over the seats (two agents: twice,
    seats swapped; ``games`` is rounded up to whole sets). ``sprt`` (an :class:`SprtSpec` or its
    text ``elo0=0,elo1=10[,alpha=..,beta=..]``) tests the first agent against the second after each
    game (each pair with ``pairs``; each set of rotations with more agents) and stops when it
    decides, ``games`` being the most it plays; games that workers finished past the decision are
    left out, so the result does not depend on the workers or the backend. ``continues``: the
    summaries (``--json``) of earlier runs of this match-up and test on other seeds; the test then
    starts from their counts and stops when all the runs together decide (the figures, but for the
    SPRT's, are still this run's alone; :func:`regalia.lab.combine.combine` gives them all).
    """
    if out_dir is not None:
        check_out_dir(Path(out_dir))
    if isinstance(sprt, str):
        try:
            sprt = parse_sprt(sprt)
        except ValueError as exc:
            raise LabError(f"--sprt: {exc}") from None
    keep_curves = out_dir is not None if curves is None else curves
    keep_records = out_dir is not None if records is None else records
    flags: dict[str, Any] = {"curves": keep_curves, "record": keep_records}
    plan = plan_rotation(game_id, agent_specs, games, seed, options, workers, backend, pairs=pairs, **flags)
    game, opts, num_players, specs, jobs = plan.game, plan.options, plan.num_players, plan.specs, plan.jobs
    if sprt is not None and len(specs) < 2:
        raise LabError("--sprt tests the first agent against the second: give at least two agents")
    done: list[JSON] = []
    start_counts: list[int] = []
    if continues:
        if sprt is None:
            raise LabError("--continue goes on with the SPRT of earlier runs: give the same --sprt")
        from regalia.lab.combine import continued_counts

        header = {"game": _game_name(game), "options": opts, "specs": specs, "pairs": pairs, "seed": seed}
        done, start_counts = continued_counts(continues, json.loads(json.dumps(header)), sprt)
    start = time.perf_counter()
    name = f"{_game_name(game)} arena"
    decided: SprtResult | None = None
    played = len(jobs)
    interrupted = False
    unit = len(specs) if pairs else 1
    deals = plan.deals
    if sprt is None:
        watch, note = _tally_note(agent_labels(specs)[0]) if progress else (None, None)
        try:
            results = run_jobs(jobs, workers, backend, ray_address, progress, name, watch=watch, note=note)
        except Interrupted as stop:
            results, interrupted = finished_prefix(jobs, stop.results, unit), True
            played = len(stop.results)
    else:
        results, decided, played, interrupted = _run_sequential(
            jobs,
            sprt,
            unit,
            "deals" if deals else "pairs" if pairs and len(specs) == 2 else "games",
            workers,
            backend,
            ray_address,
            progress,
            name,
            start_counts,
        )
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
        pairs=pairs,
        sprt=decided,
        played=played,
        interrupted=interrupted,
        planned=len(jobs),
        deals=deals,
        continues=done,
    )
    if out_dir is not None:
        result.save(out_dir)
    return result


def agent_outcomes(results: Sequence[GameResult], k: int) -> tuple[int, int, int]:
    """Agent ``k``'s wins, draws and losses over ``results`` (its seat's :func:`outcome_of`)."""
    wins = draws = losses = 0
    for r in results:
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


def _tally_note(name: str) -> tuple[Callable[[list[GameResult]], bool], Callable[[], str]]:
    """A watch and a note for a run without a test: the progress shows the first agent's wins,
    draws and losses over the games finished so far (``mcts:hard W/D/L 17/0/5, 77% won``),
    counted as the games come (each game read once)."""
    tally = [0, 0, 0]  # wins, draws, losses
    seen = 0

    def watch(results: list[GameResult]) -> bool:
        nonlocal seen
        for k, n in enumerate(agent_outcomes(results[seen:], 0)):
            tally[k] += n
        seen = len(results)
        return False

    def note() -> str:
        wins, draws, losses = tally
        games = wins + draws + losses
        return f"{name} W/D/L {wins}/{draws}/{losses}, {wins / games:.0%} won" if games else ""

    return watch, note


def head_to_head(*results: GameResult) -> int:
    """Agent 0's result against agent 1 in a game: 0 loss, 1 draw, 2 win (their returns compared).
    Given the games of one deal of a solo game, each agent's return in its own game is compared."""
    a = b = None
    for result in results:
        for seat, agent in enumerate(result.agents):
            if agent == 0 and a is None:
                a = result.returns[seat]
            elif agent == 1 and b is None:
                b = result.returns[seat]
    if a is None or b is None:
        return 1
    return 2 if a > b else 0 if a < b else 1


def _run_sequential(
    jobs: Sequence[GameJob],
    spec: SprtSpec,
    per_unit: int,
    kind: str,
    workers: int,
    backend: str,
    ray_address: str | None,
    progress: bool,
    name: str,
    start: Sequence[int] = (),
) -> tuple[list[GameResult], SprtResult, int, bool]:
    """Play ``jobs``, a unit (``per_unit`` games) a task, testing each unit in index order as soon
    as it and those before it have finished: of each game (``kind`` ``"games"``), of each pair of
    games with seats swapped (``"pairs"``, the pentanomial model) or of each deal of a solo game
    that every agent played (``"deals"``, its first two agents' results compared). At the decision
    the run stops (the units not begun are dropped, those running stopped), so the decision, and
    the games it stands on, are the same whatever the workers and the order in which their games
    finish. Returns those games, the test's result, the games played (the decision's, and those
    of later units that had finished) and whether an interruption stopped it (the test then
    stands on the whole units finished in order). ``start``: the counts of earlier runs that this
    one continues (the test then starts from them)."""
    pentanomial = kind == "pairs"
    values = PENTANOMIAL if pentanomial else TRINOMIAL
    counts = list(start) or [0] * len(values)
    begin = SprtResult(spec, "", llr(values, counts, spec.elo0, spec.elo1) if start else 0.0, sum(start))
    arrived: dict[tuple[int, int], GameResult] = {}
    ordered: list[GameResult] = []  # the results of jobs[0 : len(ordered)], every one finished
    seen = 0  # results already read into ``arrived``
    tested = 0  # games already tested
    test = begin

    def check(finished: list[GameResult]) -> bool:
        nonlocal seen, tested, test
        if test.decision:
            return True
        for result in finished[seen:]:
            arrived[result_order(result)] = result
        seen = len(finished)
        while len(ordered) < len(jobs) and result_order(jobs[len(ordered)]) in arrived:
            ordered.append(arrived[result_order(jobs[len(ordered)])])
        while tested + per_unit <= len(ordered):
            unit = ordered[tested : tested + per_unit]
            if len({r.seed for r in unit}) != 1 and per_unit > 1:
                raise LabError("pairs: the games of a seed did not come back together")
            outcomes = [head_to_head(*unit)] if kind == "deals" else [head_to_head(r) for r in unit]
            if pentanomial:
                counts[sum(outcomes)] += 1
            else:
                for o in outcomes:
                    counts[o] += 1
            tested += per_unit
            value = llr(values, counts, spec.elo0, spec.elo1)
            test = SprtResult(spec, spec.decide(value), value, test.units + 1)
            if test.decision:
                return True
        return False

    one = {"deals": "deal", "pairs": "pair"}.get(kind, "set of games" if per_unit > 1 else "game")

    def llr_note() -> str:
        lower, upper = spec.bounds
        many = "sets of games" if one == "set of games" else None
        return f"LLR {test.llr:+.2f} ({lower:.2f}, {upper:.2f}) after {plural(test.units, one, many)}"

    interrupted = False
    try:
        finished = run_jobs(
            jobs, workers, backend, ray_address, progress, name, watch=check, size=per_unit, note=llr_note
        )
        played = len(finished)
    except Interrupted as stop:
        # the test again from the start, on the results that came back (sorted): the same
        # decision, whenever the interruption came (even inside ``check``, or after the decision)
        arrived, ordered, counts, seen, tested = {}, [], list(start) or [0] * len(values), 0, 0
        test = begin
        check(stop.results)
        played, interrupted = len(stop.results), not test.decision
    return ordered[:tested], test, played, interrupted


def estimate_json(est: Estimate) -> JSON:
    """The figures of a head-to-head estimate for JSON: ``score``, ``stderr``, ``elo``,
    ``elo_low``, ``elo_high`` (``null`` when infinite) and ``los``."""
    return {
        "score": est.score,
        "stderr": est.stderr,
        "elo": _finite(est.elo),
        "elo_low": _finite(est.elo_low),
        "elo_high": _finite(est.elo_high),
        "los": est.los,
    }


def _finite(x: float) -> float | None:
    """A number for JSON (an infinite Elo, from a score of 0 or 1, is ``null``)."""
    return x if math.isfinite(x) else None


def _elo(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


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
