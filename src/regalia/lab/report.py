"""Arena reports: game records, ``summary.json``, ``report.md`` and PNG plots (matplotlib).

Plots: ``scores.png`` (final score distribution per agent), ``win_rates.png`` (win rate per agent
and for the first seat, with 95% Wilson intervals), ``score_curves.png`` (mean score per agent after
each ply; a finished game keeps its final score).

>>> import tempfile, pathlib
>>> from regalia.lab import run_arena
>>> result = run_arena("two-heirs", "random,random", games=2, progress=False)
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> write_records(result, out / "records")  # records are kept only when asked for
0
>>> sorted(score_curves(result))  # no per-ply curves either
[]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regalia.core.record import Record
from regalia.core.text import plural

if TYPE_CHECKING:
    from regalia.lab.arena import ArenaResult


def write_records(result: ArenaResult, records_dir: Path) -> int:
    """Save the record of every game that kept one; returns how many were written."""
    written = 0
    for r in result.results:
        if r.record is None:
            continue
        records_dir.mkdir(parents=True, exist_ok=True)
        Record.from_json(r.record).save(records_dir / f"game-{r.index + 1:05d}.json")
        written += 1
    return written


def score_curves(result: ArenaResult) -> dict[str, list[float]]:
    """Agent name -> mean score after each ply (finished games hold their final score)."""
    curves = [r for r in result.results if r.curve]
    if not curves:
        return {}
    length = max(len(r.curve or []) for r in curves)
    out: dict[str, list[float]] = {}
    for k, name in enumerate(result.agents):
        totals = [0.0] * length
        count = 0
        for r in curves:
            curve = r.curve or []
            for seat, agent in enumerate(r.agents):
                if agent != k:
                    continue
                count += 1
                for ply in range(length):
                    totals[ply] += curve[min(ply, len(curve) - 1)][seat]
        if count:
            out[name] = [t / count for t in totals]
    return out


def score_histogram(result: ArenaResult) -> Any:
    """The figure of final score distributions per agent (games on a whole-number axis)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(7, 4))
    all_scores: dict[str, list[int]] = {name: [] for name in result.agents}
    for r in result.results:
        for seat, agent in enumerate(r.agents):
            if agent >= 0:
                name = result.agents[agent]
            else:
                seat_name = result.seat_names[seat] if seat < len(result.seat_names) else seat
                name = f"{seat_name} (automaton)"
            all_scores.setdefault(name, []).append(r.scores[seat])
    lo = min((min(v) for v in all_scores.values() if v), default=0)
    hi = max((max(v) for v in all_scores.values() if v), default=1)
    bins: Any = [x - 0.5 for x in range(int(lo), int(hi) + 2)]
    if len(bins) > 60:
        bins = 40
    for name, values in all_scores.items():
        ax.hist(values, bins=bins, alpha=0.5, label=name)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # games are counted in whole numbers
    ax.set_title(f"{result.game}: score distributions ({plural(result.games, 'game')})")
    ax.legend()
    fig.tight_layout()
    return fig


def plot_arena(result: ArenaResult, out_dir: Path) -> list[str]:
    """Write the PNG plots; returns their file names (empty when matplotlib is missing)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    names: list[str] = []
    sums = result.summaries()

    # final score distributions
    fig = score_histogram(result)
    fig.savefig(out_dir / "scores.png", dpi=100)
    plt.close(fig)
    names.append("scores.png")

    # win rates with 95% intervals
    fig, ax = plt.subplots(figsize=(7, 4))
    labels = [s.name for s in sums] + ["first seat"]
    rates = [s.win_rate for s in sums] + [result.first_seat_win_rate]
    intervals = [s.win_interval for s in sums] + [result.first_seat_interval]
    errors = [
        [r - i[0] for r, i in zip(rates, intervals, strict=True)],
        [i[1] - r for r, i in zip(rates, intervals, strict=True)],
    ]
    ax.bar(labels, rates, yerr=errors, capsize=6, color="tab:blue", alpha=0.7)
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"{result.game}: win rates ({plural(result.games, 'game')})")
    fig.tight_layout()
    fig.savefig(out_dir / "win_rates.png", dpi=100)
    plt.close(fig)
    names.append("win_rates.png")

    # per-ply score curves
    curves = score_curves(result)
    if curves:
        fig, ax = plt.subplots(figsize=(7, 4))
        for name, mean_scores in curves.items():
            ax.plot(range(1, len(mean_scores) + 1), mean_scores, label=name)
        ax.set_xlabel("ply")
        ax.set_ylabel("mean score")
        ax.set_title(f"{result.game}: score during play")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out_dir / "score_curves.png", dpi=100)
        plt.close(fig)
        names.append("score_curves.png")
    return names


def markdown(result: ArenaResult, plots: list[str], records: int) -> str:
    """The report as Markdown."""
    lo, hi = result.first_seat_interval
    how = "each seed once per rotation of the seats" if result.pairs else "seats alternated"
    lines = [
        f"# Arena: {result.game}",
        "",
        f"- agents: {', '.join(f'`{s}`' for s in result.specs)}",
        f"- options: `{json.dumps(result.options, sort_keys=True)}`",
        f"- games: {result.games} ({how}), seed {result.seed}",
        f"- backend: {result.backend}, workers: {result.workers}, {result.elapsed:.1f} s",
        f"- mean game length: {result.mean_length:.1f} plies",
        f"- draws: {result.draws}",
        f"- first seat wins: {result.first_seat_win_rate:.1%} (95% CI {lo:.1%} to {hi:.1%})",
        "",
        "| agent | wins | draws | losses | win rate | 95% CI | mean score | s/move |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for s in result.summaries():
        a, b = s.win_interval
        lines.append(
            f"| `{s.name}` | {s.wins} | {s.draws} | {s.losses} | {s.win_rate:.1%} |"
            f" {a:.1%} to {b:.1%} | {s.mean_score:.2f} ± {s.score_sd:.2f} |"
            f" {s.seconds_per_move:.4f} |"
        )
    lines.append("")
    extra = result.summary_lines()
    if extra:
        lines += [f"- {line}" for line in extra] + [""]
    titles = {
        "scores.png": "Final score distributions",
        "win_rates.png": "Win rates with 95% intervals",
        "score_curves.png": "Mean score per ply",
    }
    for name in plots:
        lines += [f"## {titles.get(name, name)}", "", f"![{titles.get(name, name)}]({name})", ""]
    if not plots:
        lines += ["(No plots: matplotlib is not installed; `pip install 'regalia[lab]'`.)", ""]
    if records:
        lines += [f"{records} game records in `records/` (replay with `regalia replay FILE`).", ""]
    return "\n".join(lines)


def write_arena_report(result: ArenaResult, out_dir: Path, plots: bool = True) -> Path:
    """Write everything into ``out_dir``; returns the path of ``report.md``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records = write_records(result, out_dir / "records")
    (out_dir / "summary.json").write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    names = plot_arena(result, out_dir) if plots else []
    report = out_dir / "report.md"
    report.write_text(markdown(result, names, records), encoding="utf-8")
    return report
