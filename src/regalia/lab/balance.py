"""The balance tool: many games between agents, and what the game's statistics hook counts in each,
aggregated for a designer (``regalia balance GAME``).

Every finished game gives one dict per seat (a *seat-game*) from the game's plugin
(:meth:`regalia.core.plugin.Plugin.statistics`), names to numbers. A hook lists a name in a
seat-game when it applies to that game, zero included (The Two Heirs lists every building of the
three sets in play); the name is *present* when its value is not zero. Per name,
:class:`StatisticSummary` gives the seat-games that list it, how often it is present, its mean
value, and the win rate of the seat-games where it is present against those where it is absent
(win 1, draw 1/2, loss 0, with Wilson 95% intervals).

Names ``FAMILY:SUBJECT`` of four families give derived figures per subject
(:class:`SubjectSummary`), so a game gets them by naming its keys; the lab knows no game:

============  ==========================================================================
``held:S``    how many S the seat held (for instance tiles of a kind taken into the hand)
``built:S``   how many S the seat built (constructed, played)
``points:S``  the seat's final points from S
``cost:S``    what the seat paid for the S it built (in the game's unit, e.g. resources)
============  ==========================================================================

Derived per subject: the share of seat-games holding S that built at least one (built rate when
held), built over held summed over seat-games (tile built rate), S built per seat-game, points per
S built, points per unit of cost, that over the median of the subjects that score, the mean share
of a winning seat's score that came from S, and the win rates of held-and-built against
held-but-not-built seat-games.

Seats the rules play themselves (a solo automaton) are aggregated apart from the seats agents play.

>>> result = run_balance("two-heirs", "greedy", games=2, seed=1, progress=False)
>>> group = result.groups[0]
>>> group.name, group.seat_games
('agent seats', 4)
>>> [s.subject for s in group.subjects][:3]
['inn', 'marketplace', 'pilgrimage-site']
>>> next(s for s in group.statistics if s.key == "score").seat_games
4
"""

from __future__ import annotations

import dataclasses
import heapq
import json
import statistics as pystats
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from regalia.core.game import JSON, Game
from regalia.core.text import plural
from regalia.lab.arena import dumps
from regalia.lab.backends import run_jobs
from regalia.lab.plan import agent_labels, plan_rotation
from regalia.lab.play import GameResult, LabError, outcome_of
from regalia.lab.stats import wilson_interval

#: The families whose names give derived figures per subject.
FAMILIES: tuple[str, ...] = ("held", "built", "points", "cost")

__all__ = [
    "FAMILIES",
    "BalanceResult",
    "SeatGroup",
    "StatisticSummary",
    "SubjectSummary",
    "WinRate",
    "balance_markdown",
    "merged_order",
    "plot_balance",
    "run_balance",
    "subject_matrix",
    "summarise",
    "write_balance_report",
]


@dataclasses.dataclass(frozen=True)
class WinRate:
    """The results of some seat-games: win 1, draw 1/2, loss 0, summed in ``points``."""

    seat_games: int
    points: float

    @property
    def rate(self) -> float:
        return self.points / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the rate."""
        return wilson_interval(self.points, self.seat_games)

    def to_json(self) -> JSON:
        lo, hi = self.interval
        return {"seat_games": self.seat_games, "rate": _r(self.rate), "low": _r(lo), "high": _r(hi)}


@dataclasses.dataclass(frozen=True)
class StatisticSummary:
    """One name of the hook over a run.

    ``seat_games``: seat-games that list it; ``present``: those where it is not zero; ``mean``:
    its mean value over ``seat_games``; ``mean_present``: over ``present``; ``win_present`` /
    ``win_absent``: results of the seat-games where it is present / listed but zero.
    """

    key: str
    seat_games: int
    present: int
    mean: float
    mean_present: float | None
    win_present: WinRate
    win_absent: WinRate

    @property
    def rate(self) -> float:
        """Share of the seat-games listing it where it is present."""
        return self.present / self.seat_games if self.seat_games else 0.0

    def to_json(self) -> JSON:
        return {
            "key": self.key,
            "seat_games": self.seat_games,
            "present": self.present,
            "rate": _r(self.rate),
            "mean": _r(self.mean),
            "mean_present": _r(self.mean_present),
            "win_present": self.win_present.to_json(),
            "win_absent": self.win_absent.to_json(),
        }


@dataclasses.dataclass(frozen=True)
class SubjectSummary:
    """Derived figures of one subject ``S`` (from ``held:S``, ``built:S``, ``points:S``, ``cost:S``).

    ``seat_games``: seat-games listing any of its names; ``held``: those with ``held:S`` > 0;
    ``built_rate_when_held``: the share of ``held`` with ``built:S`` > 0; ``tile_built_rate``:
    total built over total held; ``built_per_game``: mean ``built:S`` per seat-game;
    ``points_per_building``: total points over total built; ``points_per_cost``: total points over
    total cost; ``ppc_vs_median``: that over the median ``points_per_cost`` of the subjects with
    points (``None`` for subjects without); ``winner_share``: mean over won seat-games of
    ``points:S`` over the seat's score (positive scores only); ``win_built`` /
    ``win_not_built``: results of seat-games that held S and built it / did not. Figures whose names
    the hook does not give are ``None``.
    """

    subject: str
    seat_games: int
    held: int | None
    built_rate_when_held: float | None
    tile_built_rate: float | None
    built_per_game: float | None
    points_per_game: float | None
    points_per_building: float | None
    points_per_cost: float | None
    ppc_vs_median: float | None
    winner_share: float | None
    win_built: WinRate | None
    win_not_built: WinRate | None

    def to_json(self) -> JSON:
        doc: JSON = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            doc[field.name] = value.to_json() if isinstance(value, WinRate) else _r(value)
        return doc


@dataclasses.dataclass(frozen=True)
class SeatGroup:
    """The figures of some seats over a run: the seats agents play, or the automaton's seats."""

    name: str
    seats: tuple[int, ...]
    seat_games: int
    statistics: list[StatisticSummary]
    subjects: list[SubjectSummary]

    def statistic(self, key: str) -> StatisticSummary:
        """The summary of ``key`` (``KeyError`` if the hook never listed it)."""
        for s in self.statistics:
            if s.key == key:
                return s
        raise KeyError(key)

    def subject(self, name: str) -> SubjectSummary:
        """The derived figures of subject ``name`` (``KeyError`` if none)."""
        for s in self.subjects:
            if s.subject == name:
                return s
        raise KeyError(name)

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "seats": list(self.seats),
            "seat_games": self.seat_games,
            "subjects": [s.to_json() for s in self.subjects],
            "statistics": [s.to_json() for s in self.statistics],
        }


def _r(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


# -- aggregation -------------------------------------------------------------------------------


def merged_order(docs: Iterable[Sequence[str]]) -> list[str]:
    """One order of the names of many dicts that keeps the order of each as far as they agree.

    Names are sorted topologically by "comes right after" in some dict; ties (and disagreements)
    go to the name seen first.

    >>> merged_order([["score", "held:a", "held:c"], ["score", "held:b", "held:c"]])
    ['score', 'held:a', 'held:b', 'held:c']
    """
    first: dict[str, int] = {}
    after: dict[str, set[str]] = {}
    before: dict[str, int] = {}
    for doc in docs:
        prev: str | None = None
        for key in doc:
            if key not in first:
                first[key] = len(first)
                after[key] = set()
                before[key] = 0
            if prev is not None and prev != key and key not in after[prev]:
                after[prev].add(key)
                before[key] += 1
            prev = key
    ready = [(first[k], k) for k, n in before.items() if n == 0]
    heapq.heapify(ready)
    out: list[str] = []
    left = set(first)
    while left:
        if not ready:  # the dicts disagree: take the first-seen name left
            k = min(left, key=first.__getitem__)
            ready.append((first[k], k))
            before[k] = 0
        _, key = heapq.heappop(ready)
        if key not in left:
            continue
        left.discard(key)
        out.append(key)
        for nxt in sorted(after[key], key=first.__getitem__):
            before[nxt] -= 1
            if before[nxt] == 0 and nxt in left:
                heapq.heappush(ready, (first[nxt], nxt))
    return out


def _result_points(returns: Sequence[float], seat: int) -> float:
    return (outcome_of(returns, seat) + 1) / 2


def summarise(results: Sequence[GameResult], seats: Sequence[int], name: str = "seats") -> SeatGroup:
    """Aggregate the statistics of ``seats`` over ``results`` (each with ``statistics``)."""
    rows: list[tuple[dict[str, float], float, float]] = []  # (statistics, result, score)
    for r in results:
        if r.statistics is None:
            raise LabError(f"game {r.index} carries no statistics (play it with statistics=True)")
        for seat in seats:
            rows.append((r.statistics[seat], _result_points(r.returns, seat), float(r.scores[seat])))
    order = merged_order([list(doc) for doc, _, _ in rows])
    stats = [_statistic(key, rows) for key in order]
    subjects: list[str] = []
    for key in order:
        family, sep, subject = key.partition(":")
        if sep and family in FAMILIES and subject not in subjects:
            subjects.append(subject)
    derived = [_subject(s, rows) for s in subjects]
    scoring = [d.points_per_cost for d in derived if d.points_per_cost]
    median = pystats.median(scoring) if scoring else None
    derived = [
        dataclasses.replace(
            d, ppc_vs_median=d.points_per_cost / median if median and d.points_per_cost else None
        )
        for d in derived
    ]
    return SeatGroup(name, tuple(seats), len(rows), stats, derived)


def _statistic(key: str, rows: Sequence[tuple[dict[str, float], float, float]]) -> StatisticSummary:
    n = present = 0
    total = total_present = 0.0
    win_p = win_a = 0.0
    n_a = 0
    for doc, result, _ in rows:
        value = doc.get(key)
        if value is None:
            continue
        n += 1
        total += value
        if value:
            present += 1
            total_present += value
            win_p += result
        else:
            n_a += 1
            win_a += result
    return StatisticSummary(
        key=key,
        seat_games=n,
        present=present,
        mean=total / n if n else 0.0,
        mean_present=total_present / present if present else None,
        win_present=WinRate(present, win_p),
        win_absent=WinRate(n_a, win_a),
    )


def _subject(subject: str, rows: Sequence[tuple[dict[str, float], float, float]]) -> SubjectSummary:
    keys = {f: f"{f}:{subject}" for f in FAMILIES}
    n = 0
    seen = dict.fromkeys(FAMILIES, False)
    sums = dict.fromkeys(FAMILIES, 0.0)
    held_games = held_built = 0
    win_b = win_nb = 0.0
    n_nb = 0
    shares: list[float] = []
    for doc, result, score in rows:
        values = {f: doc.get(k) for f, k in keys.items()}
        if all(v is None for v in values.values()):
            continue
        n += 1
        for f, v in values.items():
            if v is not None:
                seen[f] = True
                sums[f] += v
        held, built, points = values["held"], values["built"], values["points"]
        if held:
            held_games += 1
            if built:
                held_built += 1
                win_b += result
            elif built is not None:
                n_nb += 1
                win_nb += result
        if points is not None and result == 1.0 and score > 0:
            shares.append(points / score)
    has_held, has_built, has_points = seen["held"], seen["built"], seen["points"]
    both = has_held and has_built
    return SubjectSummary(
        subject=subject,
        seat_games=n,
        held=held_games if has_held else None,
        built_rate_when_held=held_built / held_games if both and held_games else None,
        tile_built_rate=sums["built"] / sums["held"] if both and sums["held"] else None,
        built_per_game=sums["built"] / n if has_built else None,
        points_per_game=sums["points"] / n if has_points else None,
        points_per_building=sums["points"] / sums["built"] if has_points and sums["built"] else None,
        points_per_cost=sums["points"] / sums["cost"] if has_points and sums["cost"] else None,
        ppc_vs_median=None,
        winner_share=sum(shares) / len(shares) if shares else None,
        win_built=WinRate(held_built, win_b) if both else None,
        win_not_built=WinRate(n_nb, win_nb) if both else None,
    )


# -- the run -----------------------------------------------------------------------------------


@dataclasses.dataclass
class BalanceResult:
    """A balance run: its games and the figures of each group of seats."""

    game: str
    options: JSON
    agents: list[str]
    specs: list[str]
    seed: int
    results: list[GameResult]
    groups: list[SeatGroup]
    elapsed: float = 0.0
    backend: str = "local"
    workers: int = 1
    seat_names: list[str] = dataclasses.field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def group(self, name: str) -> SeatGroup:
        """The group ``"agent seats"`` or ``"automaton seats"``."""
        for g in self.groups:
            if g.name == name:
                return g
        raise KeyError(name)

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "specs": self.specs,
            "seed": self.seed,
            "games": self.games,
            "backend": self.backend,
            "workers": self.workers,
            "seconds": round(self.elapsed, 2),
            "seat_names": self.seat_names,
            "groups": [g.to_json() for g in self.groups],
        }

    def _group_title(self, group: SeatGroup) -> str:
        names = ", ".join(self.seat_names[s] if s < len(self.seat_names) else str(s) for s in group.seats)
        return f"{group.name} ({names}): {group.seat_games} seat-games"

    def tables(self, all_statistics: bool = False) -> list[tuple[str, list[str], list[list[str]], str]]:
        """Every table as (title, headers, rows, legend): per group, the subjects, then the
        statistics (the names without a colon, or every name with ``all_statistics``)."""
        out = []
        for group in self.groups:
            title = self._group_title(group)
            if group.subjects:
                rows = [_subject_row(s) for s in group.subjects]
                out.append((f"{title}, per subject", list(_SUBJECT_HEADERS), rows, SUBJECT_LEGEND))
            keys = [s for s in group.statistics if all_statistics or ":" not in s.key]
            if keys:
                rows = [_stat_row(s) for s in keys]
                out.append((f"{title}, statistics", list(_STAT_HEADERS), rows, STAT_LEGEND))
        return out

    def caption(self) -> str:
        """One line saying what was played: game, games, agents, seed, options, time."""
        opts = " ".join(f"{k}={_option_text(v)}" for k, v in self.options.items() if v is not None)
        return (
            f"{self.game}: {plural(self.games, 'game')}, agents {', '.join(self.specs)}, seed {self.seed}"
            f"{'; ' + opts if opts else ''}; {self.elapsed:.1f} s"
        )

    def table(self, all_statistics: bool = False) -> Any:
        """The tables as one rich renderable."""
        from rich import box
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        parts: list[Any] = []
        for title, headers, rows, legend in self.tables(all_statistics):
            table = Table(title=title, caption=legend, box=box.SIMPLE_HEAD, padding=(0, 0), show_edge=False)
            for i, h in enumerate(headers):
                table.add_column(h, justify="left" if i == 0 else "right", no_wrap=i == 0)
            for row in rows:
                table.add_row(*row)
            parts += [table, Text("")]
        parts.append(Text(self.caption()))
        return Group(*parts)

    def format(self, all_statistics: bool = False) -> str:
        """The tables as plain text."""
        from regalia.render.text import plain_text

        return plain_text(self.table(all_statistics), 120)

    def markdown(self, all_statistics: bool = False) -> str:
        """The tables in Markdown."""
        lines: list[str] = []
        for title, headers, rows, _ in self.tables(all_statistics):
            lines += [f"**{title}**", "", "| " + " | ".join(headers) + " |"]
            lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|")
            lines += ["| " + " | ".join(row) + " |" for row in rows]
            lines.append("")
        lines.append(self.caption())
        return "\n".join(lines)

    def save(self, path: str | Path) -> Path:
        """Write the JSON document to ``path``."""
        out = Path(path)
        out.write_text(dumps(self.to_json()) + "\n", encoding="utf-8")
        return out


_SUBJECT_HEADERS = (
    "subject",
    "games",
    "held",
    "built%",
    "tile%",
    "bld/g",
    "pts/g",
    "pts/bldg",
    "pts/cost",
    "vs.med",
    "win.sh",
    "win(b)",
    "win(nb)",
)
_STAT_HEADERS = ("statistic", "games", "present", "mean", "mean if present", "win(present)", "win(absent)")
#: What the columns of the subject table mean (printed under it).
SUBJECT_LEGEND = (
    "games: seat-games listing it; held: seat-games holding one; built%: of those, the share that built "
    "one; tile%: built over held; bld/g, pts/g: built and points per seat-game; pts/bldg, pts/cost: "
    "points per building built, per unit of cost; vs.med: pts/cost over the median of the subjects "
    "with points; win.sh: share of a winning seat's points; win(b) / win(nb): win rate in % (a draw "
    "counts 1/2) of seat-games that held it and built it / did not, with its 95% interval"
)
#: What the columns of the statistics table mean (printed under it).
STAT_LEGEND = (
    "games: seat-games listing it; present: the share of those where it is not zero; win(present) / "
    "win(absent): win rate in % (a draw counts 1/2) of seat-games where it is / is not, with its 95% "
    "interval"
)


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _win(w: WinRate | None) -> str:
    """A win rate in percent and its 95% interval, e.g. ``52 (45-59)`` (seat-games in the JSON)."""
    if w is None or not w.seat_games:
        return "-"
    lo, hi = w.interval
    return f"{100 * w.rate:.0f} ({100 * lo:.0f}-{100 * hi:.0f})"


def _subject_row(s: SubjectSummary) -> list[str]:
    return [
        s.subject,
        str(s.seat_games),
        "-" if s.held is None else str(s.held),
        _pct(s.built_rate_when_held),
        _pct(s.tile_built_rate),
        _num(s.built_per_game),
        _num(s.points_per_game),
        _num(s.points_per_building),
        _num(s.points_per_cost),
        _num(s.ppc_vs_median),
        _pct(s.winner_share),
        _win(s.win_built),
        _win(s.win_not_built),
    ]


def _stat_row(s: StatisticSummary) -> list[str]:
    return [
        s.key,
        str(s.seat_games),
        _pct(s.rate),
        _num(s.mean),
        _num(s.mean_present),
        _win(s.win_present),
        _win(s.win_absent),
    ]


def run_balance(
    game_id: str | Game[Any],
    agent_specs: Sequence[str] | str = "greedy",
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    options: JSON | None = None,
    progress: bool = True,
) -> BalanceResult:
    """Play ``games`` games of ``game_id`` between agents and aggregate the game's statistics.

    Agents play the seats the rules do not play themselves (a solo automaton plays its own): give
    one agent spec per such seat, or one spec for all of them. Seats rotate between games and
    seeds derive from ``(seed, game index)`` as in :func:`regalia.lab.arena.run_arena`, so the
    figures are the same whatever ``workers`` and ``backend``. The game's statistics hook
    (:meth:`regalia.core.plugin.Plugin.statistics`) says what is counted; a game that declares none
    counts each seat's score.
    """
    plan = plan_rotation(
        game_id, agent_specs, games, seed, options, workers, backend, one_for_all=True, statistics=True
    )
    built, opts, num_players, playable, specs, jobs = (
        plan.built,
        plan.options,
        plan.num_players,
        plan.playable,
        plan.specs,
        plan.jobs,
    )
    start = time.perf_counter()
    results = run_jobs(jobs, workers, backend, ray_address, progress, f"{built.id} balance")
    elapsed = time.perf_counter() - start
    automata = tuple(s for s in range(num_players) if s not in playable)
    groups = [summarise(results, playable, "agent seats")]
    if automata:
        groups.append(summarise(results, automata, "automaton seats"))
    return BalanceResult(
        game=built.id,
        options=opts,
        agents=agent_labels(specs),
        specs=specs,
        seed=seed,
        results=results,
        groups=groups,
        elapsed=elapsed,
        backend=backend,
        workers=workers,
        seat_names=built.seat_names(),
    )


# -- the report (Markdown + PNG plots) -----------------------------------------------------------


def subject_matrix(group: SeatGroup) -> tuple[list[str], list[tuple[str, list[StatisticSummary | None]]]]:
    """Every ``FAMILY:SUBJECT`` name of ``group`` as a table: the families (``held`` left out:
    a seat-game that lists a subject holds it) and, per subject, the summary of each family's
    name (``None`` when the hook does not give it).

    >>> result = run_balance("two-heirs", "greedy", games=2, seed=1, progress=False)
    >>> families, rows = subject_matrix(result.groups[0])
    >>> families[:3], rows[0][0]
    (['built', 'points', 'cost'], 'inn')
    """
    families: list[str] = []
    subjects: dict[str, dict[str, StatisticSummary]] = {}
    for s in group.statistics:
        family, sep, subject = s.key.partition(":")
        if not sep or family == "held":
            continue
        if family not in families:
            families.append(family)
        subjects.setdefault(subject, {})[family] = s
    rows = [(subject, [by.get(f) for f in families]) for subject, by in subjects.items()]
    return families, rows


def _matrix_markdown(group: SeatGroup, title: str) -> list[str]:
    families, rows = subject_matrix(group)
    if not rows:
        return []
    headers = ["subject"]
    for f in families:
        headers += [f"{f} %", f"{f} mean", f"win({f})"]
    lines = [f"**{title}, per subject and family**", "", "| " + " | ".join(headers) + " |"]
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|")
    for subject, cells in rows:
        row = [subject]
        for s in cells:
            row += ["-", "-", "-"] if s is None else [_pct(s.rate), _num(s.mean), _win(s.win_present)]
        lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        "F %: share of seat-games where F:subject is not zero; F mean: its mean per seat-game; "
        "win(F): win rate in % (a draw counts 1/2) of those seat-games, with its 95% interval.",
        "",
    ]
    return lines


def _bars(
    ax: Any, labels: list[str], rates: list[WinRate | None], offset: float, width: float, label: str
) -> None:
    xs = [i + offset for i in range(len(labels))]
    ys = [w.rate if w and w.seat_games else 0.0 for w in rates]
    lo = [w.rate - w.interval[0] if w and w.seat_games else 0.0 for w in rates]
    hi = [w.interval[1] - w.rate if w and w.seat_games else 0.0 for w in rates]
    ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=label, alpha=0.75)


def plot_balance(result: BalanceResult, out_dir: Path) -> list[str]:
    """Write the balance run's PNG plots into ``out_dir``; returns their file names (empty when
    matplotlib is missing): ``lengths.png`` (game length in plies), per group
    ``statistics-N.png`` (win rate where each statistic without a colon is present / absent) and
    ``subjects-N.png`` (per subject: how often each family's name is present, and the win rate
    where it is, with 95% intervals)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names: list[str] = []
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.hist([r.plies for r in result.results], bins=30, color="tab:blue", alpha=0.75)
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.set_title(f"{result.game}: game length ({plural(result.games, 'game')})")
    fig.tight_layout()
    fig.savefig(out_dir / "lengths.png", dpi=100)
    plt.close(fig)
    names.append("lengths.png")
    for n, group in enumerate(result.groups, 1):
        stats = [s for s in group.statistics if ":" not in s.key]
        if stats:
            fig, ax = plt.subplots(figsize=(max(6.0, 0.8 * len(stats)), 4))
            labels = [s.key for s in stats]
            _bars(ax, labels, [s.win_present for s in stats], -0.2, 0.4, "present")
            _bars(ax, labels, [s.win_absent for s in stats], 0.2, 0.4, "absent")
            ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
            ax.set_ylim(0, 1)
            ax.axhline(0.5, color="grey", lw=0.8, ls="--")
            ax.set_ylabel("win rate (95% Wilson interval)")
            ax.set_title(f"{result.game}, {group.name}: win rate where a statistic is present / absent")
            ax.legend()
            fig.tight_layout()
            fig.savefig(out_dir / f"statistics-{n}.png", dpi=100)
            plt.close(fig)
            names.append(f"statistics-{n}.png")
        families, rows = subject_matrix(group)
        if rows:
            labels = [subject for subject, _ in rows]
            fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(7.0, 0.7 * len(labels)), 7), sharex=True)
            width = 0.8 / len(families)
            for k, family in enumerate(families):
                offset = -0.4 + width * (k + 0.5)
                xs = [i + offset for i in range(len(labels))]
                top.bar(xs, [s.rate if s else 0.0 for _, c in rows for s in [c[k]]], width, label=family)
                _bars(
                    bottom,
                    labels,
                    [s.win_present if s else None for _, c in rows for s in [c[k]]],
                    offset,
                    width,
                    family,
                )
            top.set_ylabel("share present")
            top.set_ylim(0, 1)
            top.legend(fontsize="small", ncol=len(families))
            top.set_title(f"{result.game}, {group.name}: per subject")
            bottom.set_ylim(0, 1)
            bottom.axhline(0.5, color="grey", lw=0.8, ls="--")
            bottom.set_ylabel("win rate where present")
            bottom.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
            fig.tight_layout()
            fig.savefig(out_dir / f"subjects-{n}.png", dpi=100)
            plt.close(fig)
            names.append(f"subjects-{n}.png")
    return names


def balance_markdown(result: BalanceResult, plots: Sequence[str] = (), all_statistics: bool = False) -> str:
    """The report of a balance run as Markdown: what was played, the tables, the per-subject
    matrix of every family and the plots."""
    plies = [r.plies for r in result.results]
    lines = [
        f"# Balance: {result.game}",
        "",
        f"- agents: {', '.join(f'`{s}`' for s in result.specs)}",
        f"- options: `{json.dumps(result.options, sort_keys=True)}`",
        f"- games: {result.games}, seed {result.seed}; backend {result.backend}, workers"
        f" {result.workers}, {result.elapsed:.1f} s",
        f"- game length: mean {pystats.fmean(plies) if plies else 0:.1f} plies"
        f" (min {min(plies, default=0)}, max {max(plies, default=0)})",
        "",
        result.markdown(all_statistics),
        "",
    ]
    for group in result.groups:
        lines += _matrix_markdown(group, result._group_title(group))
    for name in plots:
        lines += [f"![{name}]({name})", ""]
    return "\n".join(lines)


def write_balance_report(
    result: BalanceResult, out_dir: str | Path, plots: bool = True, all_statistics: bool = False
) -> Path:
    """Write ``summary.json``, ``report.md`` and the PNG plots into ``out_dir``; returns the path
    of ``report.md`` (``all_statistics``: every statistic in its tables, as ``--all``)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result.save(out / "summary.json")
    names = plot_balance(result, out) if plots else []
    report = out / "report.md"
    report.write_text(balance_markdown(result, names, all_statistics), encoding="utf-8")
    return report
