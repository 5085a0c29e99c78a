"""How far Carcassonne boards sprawl: the figures behind the encoding's window (docs/encodings.md).

``regalia fit carcassonne -e size=N`` says how often decision states fit an encoding variant; this
helper plays the *same games* (the lab's planner and runner: ``plan_rotation``, ``run_game``,
``run_jobs``; the same seeds for the same arguments) and records the geometry behind those figures:

* the final board's bounding box (width and height, in tiles);
* at every placement decision, the **span** of the tiles and the positions where the drawn tile
  may go: the larger side of their bounding box. The encoding's default frame (``board``) is
  centred on that box, so a placement decision fits a window of side ``S`` exactly when its span is
  at most ``S`` (follower decisions always fit);
* at every placement decision, the **reach** from the start tile: the largest ``max(|x|, |y|)`` of
  the tiles and the positions where the drawn tile may go; it fits the ``origin`` frame of side
  ``2r + 1`` exactly when the reach is at most ``r`` (and the whole board then stays in view).

Run it as ``python -m regalia.games.carcassonne.window_study --agents random --games 10000 --seed 1
--workers 2`` (``-o NAME=VALUE`` for game options, ``--json`` for every count).

>>> study = run_study("random", games=2, seed=1)
>>> study.games, study.decisions == study.placements + study.followers
(2, True)
>>> fit = study.board_fit(99)
>>> fit.placements == study.placements and fit.games == 2
True
>>> study.board_fit(3).placements < study.placements
True
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from regalia.core.game import JSON, State
from regalia.core.options import parse_option_pairs
from regalia.lab.backends import run_jobs
from regalia.lab.plan import plan_rotation
from regalia.lab.play import GameJob, run_game

__all__ = ["GameExtent", "Study", "WindowFit", "main", "measure_game", "run_study"]

_PLACE = 2  # the engine's placement phase (regalia.games.carcassonne.base.PH_PLACE)


@dataclasses.dataclass(frozen=True)
class GameExtent:
    """One game's geometry: decisions, the spans and reaches of its placement decisions (as
    ``{value: count}``), the final board's width and height, and its reach from the start tile."""

    index: int
    decisions: int
    spans: dict[int, int]
    reaches: dict[int, int]
    width: int
    height: int
    reach: int

    @property
    def placements(self) -> int:
        return sum(self.spans.values())


def measure_game(job: GameJob) -> GameExtent:
    """Play ``job`` as the lab does and measure every placement decision."""
    spans: Counter[int] = Counter()
    reaches: Counter[int] = Counter()
    decisions = 0

    def measure(state: State[Any]) -> None:
        nonlocal decisions
        decisions += 1
        s: Any = state
        if s.phase != _PLACE:
            return
        points = [*s.board, *(pos for pos, _ in s.placements(s.drawn))]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        spans[max(max(xs) - min(xs), max(ys) - min(ys)) + 1] += 1
        reaches[max(max(map(abs, xs)), max(map(abs, ys)))] += 1

    final: Any = run_game(job, on_decision=measure).state
    xs = [p[0] for p in final.board]
    ys = [p[1] for p in final.board]
    return GameExtent(
        job.index,
        decisions,
        dict(spans),
        dict(reaches),
        max(xs) - min(xs) + 1,
        max(ys) - min(ys) + 1,
        max(max(map(abs, xs)), max(map(abs, ys))),
    )


def _chunk(jobs: Sequence[GameJob]) -> list[GameExtent]:
    return [measure_game(job) for job in jobs]


@dataclasses.dataclass(frozen=True)
class WindowFit:
    """What fits a window: placement decisions, decision states (follower decisions included), games
    whose every decision fitted, games whose final board lies whole inside it."""

    size: int
    placements: int
    decisions: int
    games: int
    boards: int


@dataclasses.dataclass
class Study:
    """The games of a run and their geometry."""

    options: JSON
    specs: list[str]
    seed: int
    results: list[GameExtent]
    elapsed: float = 0.0

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.results)

    @property
    def placements(self) -> int:
        return sum(r.placements for r in self.results)

    @property
    def followers(self) -> int:
        return self.decisions - self.placements

    def board_fit(self, size: int) -> WindowFit:
        """The fit of the ``board`` frame with a window of side ``size``."""
        placed = sum(n for r in self.results for s, n in r.spans.items() if s <= size)
        return WindowFit(
            size,
            placed,
            self.followers + placed,
            sum(1 for r in self.results if max(r.spans, default=0) <= size),
            sum(1 for r in self.results if max(r.width, r.height) <= size),
        )

    def origin_fit(self, size: int) -> WindowFit:
        """The fit of the ``origin`` frame with a window of side ``size`` (odd)."""
        r0 = (size - 1) // 2
        placed = sum(n for r in self.results for s, n in r.reaches.items() if s <= r0)
        return WindowFit(
            size,
            placed,
            self.followers + placed,
            sum(1 for r in self.results if max(r.reaches, default=0) <= r0),
            sum(1 for r in self.results if r.reach <= r0),
        )

    def distributions(self) -> dict[str, dict[int, int]]:
        """Histograms: final width, height and larger side; per game the smallest window of each
        frame that fits every decision; the span of every placement decision."""
        spans: Counter[int] = Counter()
        for r in self.results:
            spans.update(r.spans)
        return {
            "final_width": dict(sorted(Counter(r.width for r in self.results).items())),
            "final_height": dict(sorted(Counter(r.height for r in self.results).items())),
            "final_side": dict(sorted(Counter(max(r.width, r.height) for r in self.results).items())),
            "game_board_window": dict(sorted(Counter(max(r.spans, default=0) for r in self.results).items())),
            "game_origin_window": dict(
                sorted(Counter(2 * max(r.reaches, default=0) + 1 for r in self.results).items())
            ),
            "placement_span": dict(sorted(spans.items())),
        }

    def sizes(self) -> range:
        """The window sides worth a row (board frame): from where games start to fit to where all do."""
        spans = [max(r.spans, default=0) for r in self.results]
        return range(max(3, min(spans) - 1), max(spans) + 1)

    def origin_sizes(self) -> range:
        """The odd window sides worth a row (origin frame)."""
        reach = [max(r.reaches, default=0) for r in self.results]
        return range(max(3, 2 * min(reach) - 1), 2 * max(reach) + 2, 2)

    def to_json(self) -> JSON:
        return {
            "options": self.options,
            "agents": self.specs,
            "seed": self.seed,
            "games": self.games,
            "decision_states": self.decisions,
            "placement_decisions": self.placements,
            "seconds": round(self.elapsed, 1),
            "distributions": self.distributions(),
            "board_frame": [dataclasses.asdict(self.board_fit(s)) for s in self.sizes()],
            "origin_frame": [dataclasses.asdict(self.origin_fit(s)) for s in self.origin_sizes()],
        }

    def markdown(self) -> str:
        """The figures as Markdown: a caption, the distributions, the fit per window side."""
        opts = " ".join(f"{k}={v}" for k, v in self.options.items() if v is not None)
        lines = [
            f"carcassonne: {self.games} games, agents {', '.join(self.specs)}, seed {self.seed}; {opts}; "
            f"{self.decisions} decision states ({self.placements} placements); {self.elapsed:.1f} s",
            "",
        ]
        finals = [max(r.width, r.height) for r in self.results]
        need = [max(r.spans, default=0) for r in self.results]
        for name, values in (
            ("final board width", [r.width for r in self.results]),
            ("final board height", [r.height for r in self.results]),
            ("final board, larger side", finals),
            ("smallest board-frame window fitting the game", need),
        ):
            lines.append(f"- {name}: {_summary(values)}")
        lines += ["", "| window | placements fit | decision states fit | games: all fit | boards whole |"]
        lines.append("|---:|---:|---:|---:|---:|")
        for size in self.sizes():
            f = self.board_fit(size)
            cells = [
                f"{size}x{size}",
                f"{_share(f.placements, self.placements, 3)} ({self.placements - f.placements})",
                _share(f.decisions, self.decisions, 3),
                f"{_share(f.games, self.games, 2)} ({self.games - f.games})",
                _share(f.boards, self.games, 2),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        dist = self.distributions()
        lines += ["", "smallest window per game (board frame): " + _hist(dist["game_board_window"])]
        lines += ["smallest window per game (origin frame): " + _hist(dist["game_origin_window"])]
        lines += ["final board, larger side: " + _hist(dist["final_side"])]
        return "\n".join(lines)


def _summary(values: Sequence[int]) -> str:
    v = sorted(values)
    q = statistics.quantiles(v, n=1000, method="inclusive") if len(v) > 1 else [v[0]] * 999
    return (
        f"min {v[0]}, median {statistics.median(v):g}, 90% {q[899]:g}, 99% {q[989]:g}, "
        f"99.9% {q[998]:g}, max {v[-1]}"
    )


def _hist(counts: dict[int, int]) -> str:
    return ", ".join(f"{k}: {n}" for k, n in counts.items())


def _share(part: int, whole: int, digits: int) -> str:
    """``part / whole`` in percent, rounded down (100% only when ``part == whole``)."""
    if not whole:
        return f"{100:.{digits}f}%"
    scale = 10**digits
    return f"{(100 * scale * part // whole) / scale:.{digits}f}%"


def run_study(
    agents: str = "random",
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    options: JSON | None = None,
    progress: bool = False,
) -> Study:
    """Play ``games`` games of Carcassonne as ``regalia fit`` does (same seeds) and measure them."""
    plan = plan_rotation("carcassonne", agents, games, seed, options, workers, "local", one_for_all=True)
    start = time.perf_counter()
    results = run_jobs(plan.jobs, workers, "local", None, progress, "carcassonne extents", _chunk)
    return Study(plan.options, plan.specs, seed, results, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: ``python -m regalia.games.carcassonne.window_study --help``."""
    parser = argparse.ArgumentParser(
        prog="python -m regalia.games.carcassonne.window_study",
        description="Board extents of Carcassonne games played by agents (the same games as regalia fit).",
    )
    parser.add_argument("--agents", "-a", default="random", help="agent spec(s), as for regalia fit")
    parser.add_argument("--games", "-n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", "-w", type=int, default=1)
    parser.add_argument("--option", "-o", action="append", default=[], help="a game option NAME=VALUE")
    parser.add_argument("--json", action="store_true", help="print every count as JSON")
    args = parser.parse_args(argv)
    options = parse_option_pairs(args.option)
    study = run_study(args.agents, args.games, args.seed, args.workers, options, progress=False)
    print(json.dumps(study.to_json(), indent=1) if args.json else study.markdown())


if __name__ == "__main__":
    main()
