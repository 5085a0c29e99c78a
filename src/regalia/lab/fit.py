"""The fit study: how often the states of real games fit a game's encoding (``regalia fit GAME``).

An :class:`~regalia.core.encoding.Encoding` sees an unbounded board through a bounded window, and
:meth:`~regalia.core.encoding.Encoding.fits` says whether every legal action of a state has an id.
:func:`run_fit` plays games between agents as the arena does (seats rotated, chance and the agents
seeded from ``(seed, game index)``, automaton seats by their ``forced_action()``) and, at every
*decision state* (a seat with a choice to act: not chance, not an automaton), asks each encoding
variant whether the state fits. A variant is the keyword arguments of the game's encoding
constructor (``game_plugin(id).encoding(game, **variant)``); ``{}`` is the default encoding. Every
variant is measured on the same states. Per variant it reports:

* the decision states seen and the share that fit;
* the games in which every decision state fitted;
* over the decision states that did not fit, the share of their legal actions that still had an id
  (those a learner could choose);
* when the encoding has the optional method ``clipped(state) -> int`` (how many pieces of the
  state its observation leaves out, e.g. board tiles outside the window), the games in which the
  observation left nothing out at any decision state or at the end, and the most left out.

:func:`run_extents` (``regalia fit GAME --extents``) plays the same games (same agents, seeds and
options) and records the geometry behind those figures, for an encoding with the optional method
``extent(state) -> (pieces, targets)``: the positions ``(x, y)`` of the pieces on the board, and
those that the state's legal actions name (where a tile may be laid; none at a decision that names
no position, such as where to put a follower, which fits any window). Per game it keeps the final
board's bounding box and, at every decision that names positions:

* the **span**: the larger side of the bounding box of the pieces and the targets. A frame
  centred on that box (the board frame) holds the decision exactly when its side is at least the
  span;
* the **reach** from the origin: the largest ``max(|x|, |y|)`` of the pieces and the targets; a
  window of side ``2r + 1`` centred on the origin holds it exactly when the reach is at most ``r``.

The lab knows no game: it uses the :class:`~regalia.core.encoding.Encoding` interface and the
game's plugin only. The figures depend on the seed alone, not on ``workers`` or ``backend``.

>>> result = run_fit("two-heirs", "random", games=2, seed=1, encodings=[{}, {"size": 3}])
>>> [v.label for v in result.variants]
['default', 'size=3']
>>> default, tiny = result.variants
>>> default.states == tiny.states == sum(g.decisions for g in result.results)
True
>>> default.states_fit == default.states and tiny.states_fit < tiny.states
True
>>> parse_variant("size=9,frame=tiles")
{'size': 9, 'frame': 'tiles'}
>>> run_extents("two-heirs", games=1)
Traceback (most recent call last):
...
regalia.lab.play.LabError: the encoding of two-heirs has no extent(state): no board extents to measure
"""

from __future__ import annotations

import dataclasses
import functools
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from regalia.core.encoding import Encoding
from regalia.core.errors import RegaliaError
from regalia.core.game import JSON, Game, State
from regalia.core.text import plural
from regalia.lab.backends import run_jobs
from regalia.lab.plan import agent_labels, plan_rotation
from regalia.lab.play import GameJob, LabError, resolve_game, run_game

__all__ = [
    "Extents",
    "FitGame",
    "FitResult",
    "GameExtent",
    "VariantFit",
    "VariantGame",
    "WindowFit",
    "build_encoding",
    "fit_chunk",
    "fit_game",
    "parse_variant",
    "run_extents",
    "run_fit",
    "variant_label",
]

Variant = Mapping[str, Any]


# -- encoding variants -------------------------------------------------------------------------


def parse_variant(text: str) -> dict[str, Any]:
    """An encoding variant from ``NAME=VALUE[,NAME=VALUE]`` (``default`` or nothing: ``{}``).

    Values are read as integers, numbers, ``true``/``false`` or ``none`` where they look like one,
    else kept as text.

    >>> parse_variant("default"), parse_variant("size=13,round=true")
    ({}, {'size': 13, 'round': True})
    """
    text = text.strip()
    if text in ("", "default"):
        return {}
    out: dict[str, Any] = {}
    for pair in text.split(","):
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise LabError(f"encoding option {pair.strip()!r}: write it as NAME=VALUE[,NAME=VALUE]")
        if name in out:
            raise LabError(f"encoding option {name!r} given twice in {text!r}")
        out[name] = _value(value.strip())
    return out


def _value(text: str) -> Any:
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    if lower in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def variant_label(variant: Variant) -> str:
    """A variant as text: ``default``, or its keyword arguments (``size=9,frame=tiles``)."""
    if not variant:
        return "default"
    return ",".join(f"{k}={_text(v)}" for k, v in variant.items())


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def build_encoding(game: Game[Any], variant: Variant) -> Encoding:
    """The game's encoding with the variant's keyword arguments (:class:`LabError` if it cannot be built)."""
    plugin = game.plugin()
    if not plugin.has_encoding:
        raise LabError(f"{game.name} ({game.id}) declares no encoding (Plugin.encoding): nothing to fit")
    label = variant_label(variant)
    try:
        encoding: Any = plugin.encoding(game, **variant)
    except ImportError as exc:
        raise LabError(
            f"the encoding of {game.id} needs {exc.name or exc}: pip install 'regalia[rl]'"
        ) from None
    except (RegaliaError, TypeError, ValueError) as exc:
        raise LabError(f"encoding {label}: {exc}") from None
    if not isinstance(encoding, Encoding):
        raise LabError(f"the encoding of {game.id} ({label}) is a {type(encoding).__name__}, not an Encoding")
    return encoding


def _clipped_of(encoding: Encoding) -> Callable[[State[Any]], int] | None:
    clipped = getattr(encoding, "clipped", None)
    return clipped if callable(clipped) else None


# -- one game ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class VariantGame:
    """One game's figures for one variant.

    ``fit``: decision states that fitted; ``lost_actions`` / ``kept_actions``: over the decision
    states that did not, their legal actions and those with an id; ``clipped``: the most the
    observation left out (``None`` when the encoding has no ``clipped``).
    """

    fit: int
    lost_actions: int
    kept_actions: int
    clipped: int | None


@dataclasses.dataclass(frozen=True)
class FitGame:
    """What one game gave: its decision states, plies and scores, and the figures per variant."""

    index: int
    seed: int
    agents: tuple[int, ...]
    decisions: int
    plies: int
    scores: tuple[int, ...]
    variants: tuple[VariantGame, ...]


def fit_game(job: GameJob, encodings: Sequence[Encoding]) -> FitGame:
    """Play ``job`` as the arena does (:func:`regalia.lab.play.run_game`), measuring every decision
    state."""
    k = len(encodings)
    clippers = [_clipped_of(e) for e in encodings]
    fit = [0] * k
    lost = [0] * k
    kept = [0] * k
    clipped: list[int | None] = [None if c is None else 0 for c in clippers]
    decisions = 0

    def measure_clipped(state: State[Any]) -> None:
        for i, clip in enumerate(clippers):
            if clip is not None:
                n = clip(state)
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise LabError(f"the encoding's clipped() gave {n!r}; expected a count")
                clipped[i] = max(clipped[i] or 0, n)

    def measure(state: State[Any]) -> None:
        nonlocal decisions
        decisions += 1
        legal: list[Any] | None = None
        for i, encoding in enumerate(encodings):
            if encoding.fits(state):
                fit[i] += 1
                continue
            if legal is None:
                legal = state.legal_actions()
            lost[i] += len(legal)
            kept[i] += len(encoding.legal_ids(state))
        measure_clipped(state)

    state = run_game(job, on_decision=measure).state
    measure_clipped(state)
    return FitGame(
        index=job.index,
        seed=job.seed,
        agents=job.agents,
        decisions=decisions,
        plies=state.ply,
        scores=tuple(state.scores()),
        variants=tuple(VariantGame(fit[i], lost[i], kept[i], clipped[i]) for i in range(k)),
    )


def fit_chunk(jobs: Sequence[GameJob], variants: Sequence[Variant]) -> list[FitGame]:
    """Play several jobs of one game in order (one task of a worker pool), the encodings built once."""
    if not jobs:
        return []
    game = resolve_game(jobs[0].game, jobs[0].options)
    encodings = [build_encoding(game, v) for v in variants]
    return [fit_game(job, encodings) for job in jobs]


# -- the figures -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class VariantFit:
    """One variant over a run. ``games_whole`` and ``most_clipped`` are ``None`` when the encoding
    has no ``clipped`` method."""

    variant: dict[str, Any]
    games: int
    games_fit: int
    states: int
    states_fit: int
    lost_actions: int
    kept_actions: int
    games_whole: int | None
    most_clipped: int | None

    @property
    def label(self) -> str:
        return variant_label(self.variant)

    @property
    def states_share(self) -> float:
        """The share of decision states that fit (1 when there were none)."""
        return self.states_fit / self.states if self.states else 1.0

    @property
    def games_share(self) -> float:
        """The share of games in which every decision state fitted."""
        return self.games_fit / self.games if self.games else 1.0

    @property
    def kept_share(self) -> float | None:
        """Over the decision states that did not fit, the share of their legal actions with an id
        (``None`` when every state fitted)."""
        return self.kept_actions / self.lost_actions if self.lost_actions else None

    @property
    def whole_share(self) -> float | None:
        """The share of games whose observation never left anything out (``None``: not measured)."""
        if self.games_whole is None:
            return None
        return self.games_whole / self.games if self.games else 1.0

    def to_json(self) -> JSON:
        return {
            "encoding": dict(self.variant),
            "label": self.label,
            "games": self.games,
            "games_fit": self.games_fit,
            "games_share": _r(self.games_share),
            "decision_states": self.states,
            "states_fit": self.states_fit,
            "states_share": _r(self.states_share),
            "lost_actions": self.lost_actions,
            "kept_actions": self.kept_actions,
            "kept_share": _r(self.kept_share),
            "games_whole": self.games_whole,
            "whole_share": _r(self.whole_share),
            "most_clipped": self.most_clipped,
        }


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def summarise_variant(variant: Variant, k: int, results: Sequence[FitGame]) -> VariantFit:
    """The figures of variant number ``k`` over ``results``."""
    per = [(r.decisions, r.variants[k]) for r in results]
    clipped = [v.clipped for _, v in per]
    measured = [c for c in clipped if c is not None]
    has_clipped = bool(per) and len(measured) == len(per)
    return VariantFit(
        variant=dict(variant),
        games=len(per),
        games_fit=sum(1 for d, v in per if v.fit == d),
        states=sum(d for d, _ in per),
        states_fit=sum(v.fit for _, v in per),
        lost_actions=sum(v.lost_actions for _, v in per),
        kept_actions=sum(v.kept_actions for _, v in per),
        games_whole=sum(1 for c in measured if c == 0) if has_clipped else None,
        most_clipped=max(measured) if has_clipped else None,
    )


@dataclasses.dataclass
class FitResult:
    """A fit run: its games and the figures of each encoding variant."""

    game: str
    options: JSON
    agents: list[str]
    specs: list[str]
    seed: int
    results: list[FitGame]
    variants: list[VariantFit]
    elapsed: float = 0.0
    backend: str = "local"
    workers: int = 1

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def decision_states(self) -> int:
        return sum(r.decisions for r in self.results)

    def variant(self, label: str) -> VariantFit:
        """The figures of the variant labelled ``label`` (``default``, ``size=9``, ...)."""
        for v in self.variants:
            if v.label == label:
                return v
        raise KeyError(label)

    def to_json(self) -> JSON:
        per_game = [r.decisions for r in self.results]
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "specs": self.specs,
            "seed": self.seed,
            "games": self.games,
            "decision_states": self.decision_states,
            "decision_states_per_game": statistics.median(per_game) if per_game else 0,
            "backend": self.backend,
            "workers": self.workers,
            "seconds": round(self.elapsed, 2),
            "variants": [v.to_json() for v in self.variants],
        }

    def caption(self) -> str:
        """One line saying what was played: game, games, agents, seed, options, time."""
        opts = " ".join(f"{k}={_option_text(v)}" for k, v in self.options.items() if v is not None)
        per_game = [r.decisions for r in self.results]
        median = statistics.median(per_game) if per_game else 0
        return (
            f"{self.game}: {plural(self.games, 'game')}, agents {', '.join(self.specs)}, seed {self.seed}"
            f"{'; ' + opts if opts else ''}; {self.decision_states} decision states (median "
            f"{median:g} per game); {self.elapsed:.1f} s"
        )

    def rows(self) -> tuple[list[str], list[list[str]]]:
        """The table's headers and rows (the ``clipped`` columns only when some variant has them)."""
        clipped = any(v.most_clipped is not None for v in self.variants)
        headers = ["encoding", "states fit", "not fitting", "games: all fit", "actions kept"]
        if clipped:
            headers += ["games: whole", "most clipped"]
        rows = []
        for v in self.variants:
            kept = v.kept_share
            row = [
                v.label,
                _share(v.states_fit, v.states, 2),
                f"{v.states - v.states_fit} of {v.states}",
                _share(v.games_fit, v.games, 1),
                "-" if kept is None else _share(v.kept_actions, v.lost_actions, 1),
            ]
            if clipped:
                row += [
                    "-" if v.games_whole is None else _share(v.games_whole, v.games, 1),
                    "-" if v.most_clipped is None else str(v.most_clipped),
                ]
            rows.append(row)
        return headers, rows

    def table(self) -> Any:
        """The figures as a rich table."""
        from rich import box
        from rich.table import Table

        headers, rows = self.rows()
        table = Table(title=self.caption(), caption=LEGEND, box=box.SIMPLE_HEAD)
        for i, h in enumerate(headers):
            table.add_column(h, justify="left" if i == 0 else "right", no_wrap=i == 0)
        for row in rows:
            table.add_row(*row)
        return table

    def markdown(self) -> str:
        """The figures as a Markdown table under the caption."""
        headers, rows = self.rows()
        lines = [self.caption(), "", "| " + " | ".join(headers) + " |"]
        lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|")
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)


#: What the table's columns mean (printed under it).
LEGEND = (
    "states fit: decision states whose every legal action has an id; games: all fit: games in which "
    "every decision state fitted; actions kept: over the states that did not fit, the share of their "
    "legal actions with an id; games: whole / most clipped (encodings with clipped()): games whose "
    "observation never left anything out, and the most it left out"
)


def _share(part: int, whole: int, digits: int) -> str:
    """``part / whole`` in percent, rounded down: 100% only when ``part == whole``.

    >>> _share(1, 2, 1), _share(234691, 234693, 2), _share(0, 0, 2)
    ('50.0%', '99.99%', '100.00%')
    """
    if not whole:
        return f"{100:.{digits}f}%"
    scale = 10**digits
    return f"{(100 * scale * part // whole) / scale:.{digits}f}%"


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


# -- the run -----------------------------------------------------------------------------------


def run_fit(
    game: str | Game[Any],
    agents: Sequence[str] | str = "random",
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    options: JSON | None = None,
    encodings: Sequence[Variant] = ({},),
    ray_address: str | None = None,
    progress: bool = False,
) -> FitResult:
    """Play ``games`` games of ``game`` between agents and measure how each encoding variant fits.

    ``agents``: one spec for every seat agents play, or one per such seat (seats rotate between
    games; the seats the rules play themselves take no agent). ``encodings``: the variants, keyword
    arguments of the game's encoding constructor (``{}``: the default). Seeds derive from
    ``(seed, game index)`` as in :func:`regalia.lab.arena.run_arena`.
    """
    variants = [dict(v) for v in encodings]
    if not variants:
        raise LabError("no encoding variants given")
    plan = plan_rotation(game, agents, games, seed, options, workers, backend, one_for_all=True)
    built, opts, specs, jobs = plan.built, plan.options, plan.specs, plan.jobs
    for v in variants:  # fail before any game starts
        build_encoding(built, v)
    start = time.perf_counter()
    task = functools.partial(fit_chunk, variants=variants)
    results = run_jobs(jobs, workers, backend, ray_address, progress, f"{built.id} fit", task)
    elapsed = time.perf_counter() - start
    return FitResult(
        game=built.id,
        options=opts,
        agents=agent_labels(specs),
        specs=specs,
        seed=seed,
        results=results,
        variants=[summarise_variant(v, k, results) for k, v in enumerate(variants)],
        elapsed=elapsed,
        backend=backend,
        workers=workers,
    )


# -- board extents (``regalia fit GAME --extents``) ----------------------------------------------

Pos = tuple[int, int]
#: An encoding's optional ``extent(state)``: the pieces' positions and those the legal actions name.
ExtentOf = Callable[[State[Any]], tuple[Iterable[Pos], Iterable[Pos]]]


def _extent_of(encoding: Encoding, game_id: str) -> ExtentOf:
    extent = getattr(encoding, "extent", None)
    if not callable(extent):
        raise LabError(f"the encoding of {game_id} has no extent(state): no board extents to measure")
    return extent  # type: ignore[no-any-return]


@dataclasses.dataclass(frozen=True)
class GameExtent:
    """One game's geometry: its decisions, the spans and reaches of its decisions that name
    positions (as ``{value: count}``), the final board's width and height, and its reach."""

    index: int
    decisions: int
    spans: dict[int, int]
    reaches: dict[int, int]
    width: int
    height: int
    reach: int

    @property
    def placements(self) -> int:
        """The decisions that named positions."""
        return sum(self.spans.values())


def _box(points: Sequence[Pos]) -> tuple[int, int, int]:
    """Width, height and reach from the origin of ``points`` (zeros for none)."""
    if not points:
        return 0, 0, 0
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    reach = max(max(map(abs, xs)), max(map(abs, ys)))
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, reach


def measure_extent(job: GameJob, extent: ExtentOf) -> GameExtent:
    """Play ``job`` as the arena does (:func:`regalia.lab.play.run_game`) and measure every decision
    that names positions."""
    spans: Counter[int] = Counter()
    reaches: Counter[int] = Counter()
    decisions = 0

    def measure(state: State[Any]) -> None:
        nonlocal decisions
        decisions += 1
        pieces, targets = extent(state)
        wanted = list(targets)
        if not wanted:
            return
        width, height, reach = _box([*pieces, *wanted])
        spans[max(width, height)] += 1
        reaches[reach] += 1

    final = run_game(job, on_decision=measure).state
    width, height, reach = _box(list(extent(final)[0]))
    return GameExtent(job.index, decisions, dict(spans), dict(reaches), width, height, reach)


def extent_chunk(jobs: Sequence[GameJob]) -> list[GameExtent]:
    """Measure several jobs of one game in order (one task of a worker pool)."""
    if not jobs:
        return []
    game = resolve_game(jobs[0].game, jobs[0].options)
    extent = _extent_of(build_encoding(game, {}), game.id)
    return [measure_extent(job, extent) for job in jobs]


@dataclasses.dataclass(frozen=True)
class WindowFit:
    """What fits a window of side ``size``: decisions naming positions (``placements``), decision
    states (the others included), games whose every decision fitted, games whose final board lies
    whole inside it."""

    size: int
    placements: int
    decisions: int
    games: int
    boards: int


@dataclasses.dataclass
class Extents:
    """The games of an extents run and their geometry."""

    game: str
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
    def others(self) -> int:
        """The decisions that named no position (they fit any window)."""
        return self.decisions - self.placements

    def board_fit(self, size: int) -> WindowFit:
        """The fit of a window of side ``size`` centred on each decision's box (the board frame)."""
        placed = sum(n for r in self.results for s, n in r.spans.items() if s <= size)
        return WindowFit(
            size,
            placed,
            self.others + placed,
            sum(1 for r in self.results if max(r.spans, default=0) <= size),
            sum(1 for r in self.results if max(r.width, r.height) <= size),
        )

    def origin_fit(self, size: int) -> WindowFit:
        """The fit of a window of side ``size`` (odd) centred on the origin (the origin frame)."""
        r0 = (size - 1) // 2
        placed = sum(n for r in self.results for s, n in r.reaches.items() if s <= r0)
        return WindowFit(
            size,
            placed,
            self.others + placed,
            sum(1 for r in self.results if max(r.reaches, default=0) <= r0),
            sum(1 for r in self.results if r.reach <= r0),
        )

    def distributions(self) -> dict[str, dict[int, int]]:
        """Histograms: final width, height and larger side; per game the smallest window of each
        frame that fits every decision; the span of every decision naming positions."""
        spans: Counter[int] = Counter()
        for r in self.results:
            spans.update(r.spans)

        def hist(values: Iterable[int]) -> dict[int, int]:
            return dict(sorted(Counter(values).items()))

        return {
            "final_width": hist(r.width for r in self.results),
            "final_height": hist(r.height for r in self.results),
            "final_side": hist(max(r.width, r.height) for r in self.results),
            "game_board_window": hist(max(r.spans, default=0) for r in self.results),
            "game_origin_window": hist(2 * max(r.reaches, default=0) + 1 for r in self.results),
            "placement_span": dict(sorted(spans.items())),
        }

    def sizes(self) -> range:
        """The window sides worth a row (board frame): from where games start to fit to where all do."""
        spans = [max(r.spans, default=0) for r in self.results] or [0]
        return range(max(3, min(spans) - 1), max(spans) + 1)

    def origin_sizes(self) -> range:
        """The odd window sides worth a row (origin frame)."""
        reach = [max(r.reaches, default=0) for r in self.results] or [0]
        return range(max(3, 2 * min(reach) - 1), 2 * max(reach) + 2, 2)

    def to_json(self) -> JSON:
        return {
            "game": self.game,
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
        opts = " ".join(f"{k}={_option_text(v)}" for k, v in self.options.items() if v is not None)
        lines = [
            f"{self.game}: {plural(self.games, 'game')}, agents {', '.join(self.specs)}, seed {self.seed}"
            f"{'; ' + opts if opts else ''}; {self.decisions} decision states ({self.placements} naming "
            f"positions); {self.elapsed:.1f} s",
            "",
        ]
        if self.results:
            for name, values in (
                ("final board width", [r.width for r in self.results]),
                ("final board height", [r.height for r in self.results]),
                ("final board, larger side", [max(r.width, r.height) for r in self.results]),
                (
                    "smallest board-frame window fitting the game",
                    [max(r.spans, default=0) for r in self.results],
                ),
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
    """Minimum, median, 90th, 99th and 99.9th percentiles and maximum.

    >>> _summary([3, 1, 2])
    'min 1, median 2, 90% 2.8, 99% 2.98, 99.9% 2.998, max 3'
    """
    v = sorted(values)
    q = statistics.quantiles(v, n=1000, method="inclusive") if len(v) > 1 else [v[0]] * 999
    return (
        f"min {v[0]}, median {statistics.median(v):g}, 90% {q[899]:g}, 99% {q[989]:g}, "
        f"99.9% {q[998]:g}, max {v[-1]}"
    )


def _hist(counts: dict[int, int]) -> str:
    return ", ".join(f"{k}: {n}" for k, n in counts.items())


def run_extents(
    game: str | Game[Any],
    agents: Sequence[str] | str = "random",
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    options: JSON | None = None,
    ray_address: str | None = None,
    progress: bool = False,
) -> Extents:
    """Play ``games`` games as :func:`run_fit` does (the same games for the same arguments) and
    measure their board extents through the game's encoding's ``extent(state)``."""
    plan = plan_rotation(game, agents, games, seed, options, workers, backend, one_for_all=True)
    _extent_of(build_encoding(plan.built, {}), plan.built.id)  # fail before any game starts
    start = time.perf_counter()
    results = run_jobs(
        plan.jobs, workers, backend, ray_address, progress, f"{plan.built.id} extents", extent_chunk
    )
    return Extents(plan.built.id, plan.options, plan.specs, seed, results, time.perf_counter() - start)
