"""The analysis of a game record: every decision searched, its loss against the best move found.

:func:`analyse_record` replays a record and, for every ply a seat chose (not chance's draws, not
an automaton's steps, not a seat's only legal action), searches the position *before* the move
with a stated budget (an agent spec, ``mcts:medium`` by default) through
:meth:`regalia.ai.mcts.MCTSAgent.analyse`. The played move's subtree is searched on until it has
as many visits as the best move's, so both values rest on as much search. Values are expected
results for the seat that moved, in [0, 1] (``(mean return + 1) / 2``: 1 a sure first place, 0 a
sure last place). The loss is the best value minus the played one (at least 0) and the game's
:attr:`~regalia.core.plugin.Plugin.analysis_thresholds` turn it into a mark. Chance's plies carry
the probability of what was drawn. The positions are searched in parallel
(:func:`regalia.lab.backends.run_jobs`), each with its own seed, so an iteration budget gives the
same analysis whatever the workers. docs/analysis.md tells it all.

>>> import random, regalia
>>> from regalia.core.loop import playout
>>> state = playout(regalia.load_game("royal-court").new_state(seed=3), random.Random(3), decisions=2)
>>> analysis = analyse_record(state.record(), "mcts:iterations=40", seed=1)
>>> [row.kind for row in analysis.plies]
['chance', 'decision', 'decision']
>>> Analysis.from_json(analysis.to_json()) == analysis
True
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Collection, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, cast

from regalia.ai.registry import agent_from_spec
from regalia.core.errors import OptionError, RegaliaError
from regalia.core.game import CHANCE, JSON, State
from regalia.core.record import Record, apply_ply, check_result, initial_state
from regalia.core.registry import game_plugin
from regalia.lab.backends import run_jobs
from regalia.lab.play import GameJob, LabError
from regalia.lab.stats import derive_seed, mean

FORMAT = "regalia-analysis"
VERSION = 1
#: The budget of an analysis when none is given.
DEFAULT_BUDGET = "mcts:medium"
#: The best move found and the move played are each searched on until they have this share of the
#: budget's iterations as visits (:meth:`regalia.ai.mcts.MCTSAgent.analyse`'s ``verify``).
VERIFY = 0.25
#: The marks, mildest first (``analysis_thresholds`` gives the loss from which each applies).
MARKS = ("inaccuracy", "mistake", "blunder")
#: What a ply of the record was: a seat's choice (searched), a seat's only legal action, a draw of
#: chance, an automaton's step.
KINDS = ("decision", "forced", "chance", "automaton")


def budget_spec(level: str | None = None, seconds: float | None = None, iterations: int | None = None) -> str:
    """The agent spec of a budget: ``mcts:LEVEL`` (``medium`` by default), or ``mcts`` with
    ``seconds=`` and/or ``iterations=`` (which replace the level's budget).

    >>> budget_spec(), budget_spec("hard"), budget_spec(iterations=500), budget_spec(seconds=0.5)
    ('mcts:medium', 'mcts:hard', 'mcts:iterations=500', 'mcts:seconds=0.5')
    """
    parts = ["mcts"]
    if seconds is None and iterations is None:
        parts.append(level or "medium")
    if iterations is not None:
        parts.append(f"iterations={iterations}")
    if seconds is not None:
        parts.append(f"seconds={seconds}")
    return ":".join(parts)


def expected_result(value: float) -> float:
    """A search value in [-1, 1] (a return) as an expected result in [0, 1]."""
    return min(1.0, max(0.0, (value + 1.0) / 2.0))


def mark_of(loss: float, thresholds: Sequence[float]) -> str | None:
    """The mark of a loss: the worst whose threshold it reaches, ``None`` below them all.

    >>> mark_of(0.03, (0.05, 0.1, 0.2)), mark_of(0.1, (0.05, 0.1, 0.2)), mark_of(0.5, (0.05, 0.1, 0.2))
    (None, 'mistake', 'blunder')
    """
    found = None
    for name, threshold in zip(MARKS, thresholds, strict=True):
        if loss >= threshold:
            found = name
    return found


@dataclasses.dataclass(frozen=True)
class PlyAnalysis:
    """One ply of the record. ``seat`` is the seat that acted (:data:`~regalia.core.game.CHANCE`
    for chance); ``played`` its notation. For a searched ``decision``: ``value`` (the expected
    result of the move played, for that seat, in [0, 1]), ``best`` and ``best_value`` (the move the
    search prefers, the most visited), ``loss`` (``best_value - value``, at least 0), ``mark``,
    ``visits`` and ``best_visits`` (the search's visits of each), ``legal`` (how many moves there
    were) and ``iterations`` (the search's work); a decision left out of the analysis (``plies``)
    has no value. For ``chance``: ``probability`` of what was drawn
    and ``outcomes`` (how many were possible). Fields that do not apply are ``None``."""

    ply: int
    seat: int
    kind: str
    played: str
    value: float | None = None
    best: str | None = None
    best_value: float | None = None
    loss: float | None = None
    mark: str | None = None
    visits: int | None = None
    best_visits: int | None = None
    legal: int | None = None
    iterations: int | None = None
    probability: float | None = None
    outcomes: int | None = None

    @property
    def index(self) -> int:
        """The ply (the backends sort results by ``index``)."""
        return self.ply

    def to_json(self) -> JSON:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, doc: Any) -> PlyAnalysis:
        if not isinstance(doc, dict):
            raise RegaliaError("an analysed ply must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(doc) - names)
        if unknown:
            raise RegaliaError(f"unknown field(s) of an analysed ply: {', '.join(unknown)}")
        try:
            return cls(**doc)
        except TypeError as exc:
            raise RegaliaError(f"bad analysed ply: {exc}") from None


@dataclasses.dataclass(frozen=True)
class SeatSummary:
    """A seat's decisions in sum: how many were searched, the average loss, the marks."""

    seat: int
    name: str
    decisions: int
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> JSON:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Analysis:
    """The analysis of one record: its game, seats, the budget and seed, the marks' thresholds and
    one :class:`PlyAnalysis` per ply of the record."""

    game: str
    options: JSON
    seats: tuple[str, ...]
    budget: str
    seed: int
    thresholds: tuple[float, float, float]
    plies: tuple[PlyAnalysis, ...]
    result: JSON | None = None

    def decisions(self, seat: int | None = None) -> list[PlyAnalysis]:
        """The searched decisions (of ``seat``, or of every seat); not those left unvalued."""
        return [
            p
            for p in self.plies
            if p.kind == "decision" and p.value is not None and (seat is None or p.seat == seat)
        ]

    def summary(self) -> list[SeatSummary]:
        """One :class:`SeatSummary` per seat."""
        out = []
        for seat, name in enumerate(self.seats):
            mine = self.decisions(seat)
            marks = [p.mark for p in mine]
            out.append(
                SeatSummary(
                    seat=seat,
                    name=name,
                    decisions=len(mine),
                    average_loss=mean([p.loss or 0.0 for p in mine]),
                    inaccuracies=marks.count("inaccuracy"),
                    mistakes=marks.count("mistake"),
                    blunders=marks.count("blunder"),
                )
            )
        return out

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seats": list(self.seats),
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": dict(zip(MARKS, self.thresholds, strict=True)),
            "result": self.result,
            "plies": [p.to_json() for p in self.plies],
            "summary": [s.to_json() for s in self.summary()],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: Any) -> Analysis:
        """Read an analysis document (its ``summary`` is recomputed, not read)."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise RegaliaError(f"not an analysis: field 'format' must be {FORMAT!r}")
        if doc.get("version") != VERSION:
            raise RegaliaError(f"field 'version': unsupported version {doc.get('version')!r}")
        try:
            thresholds = doc["thresholds"]
            return cls(
                game=str(doc["game"]),
                options=dict(doc["options"]),
                seats=tuple(str(s) for s in doc["seats"]),
                budget=str(doc["budget"]),
                seed=int(doc["seed"]),
                thresholds=(
                    float(thresholds["inaccuracy"]),
                    float(thresholds["mistake"]),
                    float(thresholds["blunder"]),
                ),
                plies=tuple(PlyAnalysis.from_json(p) for p in doc["plies"]),
                result=doc.get("result"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RegaliaError(f"bad analysis document: {type(exc).__name__} {exc}") from None

    @classmethod
    def loads(cls, text: str) -> Analysis:
        try:
            return cls.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RegaliaError(f"not JSON: {exc.msg} at line {exc.lineno}") from None


@dataclasses.dataclass(frozen=True)
class PositionJob:
    """One position to search: the position before ply ``index`` of ``record`` (a record's JSON)."""

    index: int
    record: JSON
    budget: str
    seed: int
    thresholds: tuple[float, float, float]
    group: int = 0


def analyse_chunk(part: Sequence[PositionJob]) -> list[PlyAnalysis]:
    """Search each job's position (a worker's task: the jobs of one record, replayed once)."""
    out: list[PlyAnalysis] = []
    state: State[Any] | None = None
    at = 0
    key: Any = None
    for job in sorted(part, key=lambda j: j.index):
        record = Record.from_json(job.record)
        if (
            state is None
            or key != (record.game, json.dumps(record.options, sort_keys=True))
            or at >= job.index
        ):
            state = initial_state(record)
            key = (record.game, json.dumps(record.options, sort_keys=True))
            at = 0
        while at < job.index - 1:
            apply_ply(state, at + 1, record.actions[at])
            at += 1
        out.append(_search(state, job, record.actions[job.index - 1]))
    return out


def _search(state: State[Any], job: PositionJob, text: str) -> PlyAnalysis:
    seat = state.current_player
    played = state.parse_or_raise(text)
    agent = agent_from_spec(job.budget)
    analyse = getattr(agent, "analyse", None)
    assert callable(analyse)
    rows: list[tuple[Any, float, int]] = analyse(state, random.Random(job.seed), played, VERIFY)
    by_action = {a: (v, n) for a, v, n in rows}
    best, best_mean, best_visits = rows[0]
    mean_played, visits = by_action[played]
    value = expected_result(mean_played)
    best_value = expected_result(best_mean)
    if best == played:
        best_value = value
    loss = max(0.0, best_value - value)
    return PlyAnalysis(
        ply=job.index,
        seat=seat,
        kind="decision",
        played=text,
        value=value,
        best=state.action_text(best),
        best_value=best_value,
        loss=loss,
        mark=mark_of(loss, job.thresholds),
        visits=visits,
        best_visits=best_visits,
        legal=len(state.legal_actions()),
        iterations=getattr(agent, "last_iterations", None),
    )


def _check_budget(budget: str) -> None:
    try:
        agent = agent_from_spec(budget)
    except OptionError as exc:
        raise OptionError(f"budget {budget!r}: {exc}") from None
    if not callable(getattr(agent, "analyse", None)):
        raise OptionError(f"budget {budget!r}: the analysis needs a searching agent (mcts)")


def analyse_record(
    record: Record | JSON,
    budget: str = DEFAULT_BUDGET,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = False,
    thresholds: tuple[float, float, float] | None = None,
    plies: Collection[int] | None = None,
) -> Analysis:
    """Analyse ``record`` (a :class:`Record` or its JSON) with the search ``budget`` (an agent
    spec with an ``analyse`` method: ``mcts:medium``, ``mcts:iterations=2000``...), the position
    before ply ``k`` searched with the seed ``derive_seed(seed, "analyse", k)``; ``workers``
    processes or Ray tasks (``backend``) share the positions, with a progress bar on stderr if
    ``progress``. ``thresholds`` replace the game's ``analysis_thresholds``. With ``plies``, only
    the decisions at those plies (counted from 1) are searched; the others are listed unvalued.

    A record that does not replay raises :class:`~regalia.core.errors.ReplayDivergence`, a bad
    budget :class:`~regalia.core.errors.OptionError`."""
    if not isinstance(record, Record):
        record = Record.from_json(record)
    _check_budget(budget)
    if thresholds is None:
        thresholds = game_plugin(record.game).analysis_thresholds
    if not (len(thresholds) == 3 and 0 <= thresholds[0] <= thresholds[1] <= thresholds[2]):
        raise OptionError(f"thresholds must be three growing losses from 0, got {thresholds!r}")
    doc = record.to_json()
    state = initial_state(record)
    automata = state.automaton_seats()
    rows: dict[int, PlyAnalysis] = {}
    jobs: list[PositionJob] = []
    for ply, text in enumerate(record.actions, start=1):
        player = state.current_player
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            apply_ply(state, ply, text)
            drawn = state.last_ply().action
            p = sum(q for a, q in outcomes if a == drawn)
            rows[ply] = PlyAnalysis(ply, player, "chance", text, probability=p, outcomes=len(outcomes))
            continue
        legal = len(state.legal_actions())
        if player in automata:
            kind = "automaton"
        elif legal == 1:
            kind = "forced"
        elif plies is not None and ply not in plies:
            kind = "decision"
        else:
            jobs.append(PositionJob(ply, doc, budget, derive_seed(seed, "analyse", ply), thresholds))
            apply_ply(state, ply, text)
            continue
        apply_ply(state, ply, text)
        rows[ply] = PlyAnalysis(ply, player, kind, text, legal=legal)
    check_result(record, state)
    # run_jobs is written for GameJob, but only counts, slices and hands the jobs to the task
    try:
        done = run_jobs(
            cast(Sequence[GameJob], jobs),
            workers=workers,
            backend=backend,
            ray_address=ray_address,
            progress=progress,
            description="positions",
            task=cast(Any, analyse_chunk),
        )
    except BrokenProcessPool:
        raise LabError("a worker process died during the analysis (out of memory?)") from None
    for row in done:
        rows[row.ply] = row
    return Analysis(
        game=record.game,
        options=record.options,
        seats=record.seats,
        budget=budget,
        seed=seed,
        thresholds=(float(thresholds[0]), float(thresholds[1]), float(thresholds[2])),
        plies=tuple(rows[k] for k in sorted(rows)),
        result=record.result,
    )


#: The colours of the marks' dots on the curve.
MARK_COLOURS = {"inaccuracy": "#f2c200", "mistake": "#f08c00", "blunder": "#e03131"}


def write_plot(analysis: Analysis, path: str | Path) -> None:
    """Write the evaluation curve of every seat as a PNG (matplotlib, Agg backend): the value of
    each move played against the ply, the marked moves as coloured dots."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LabError("--plot needs matplotlib: pip install 'regalia[plots]'") from None
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    try:
        for seat, name in enumerate(analysis.seats):
            mine = analysis.decisions(seat)
            if not mine:
                continue
            ax.plot([p.ply for p in mine], [p.value or 0.0 for p in mine], label=name, linewidth=1.5)
        for mark in MARKS:
            marked = [p for p in analysis.decisions() if p.mark == mark]
            if marked:
                ax.scatter(
                    [p.ply for p in marked],
                    [p.value or 0.0 for p in marked],
                    color=MARK_COLOURS[mark],
                    label=mark,
                    zorder=3,
                    s=28,
                    edgecolors="black",
                    linewidths=0.5,
                )
        ax.axhline(0.5, color="grey", linewidth=0.7, linestyle=":")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("ply")
        ax.set_ylabel("expected result of the move played")
        ax.set_title(f"{analysis.game}: evaluation ({analysis.budget})")
        ax.legend(loc="best", fontsize="small")
        fig.tight_layout()
        try:
            fig.savefig(str(path), format="png")
        except OSError as exc:
            raise LabError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


__all__ = [
    "DEFAULT_BUDGET",
    "KINDS",
    "MARKS",
    "Analysis",
    "PlyAnalysis",
    "PositionJob",
    "SeatSummary",
    "analyse_chunk",
    "analyse_record",
    "budget_spec",
    "expected_result",
    "mark_of",
    "write_plot",
]
