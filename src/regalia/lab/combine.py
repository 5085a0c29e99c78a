"""Arena runs combined: the JSON summaries of several runs of one match-up, on other seeds, read
as one run (``regalia combine RUN.json ...``).

A long measurement (an SPRT that has not decided, or 200 paired games at a second a move) does
not always fit in one sitting. Run again with the same game, options, agents and ``--pairs``, on
another ``--seed``; then combine. The counts are added: each agent's wins, draws and losses, and
the head-to-head counts (pair outcomes with two agents in pairs, else games or deals; none for
one agent against a game's automaton, whose combined figure is its win rate). The
figures are then worked out anew from the sums: the win rates with Wilson intervals, the Elo
difference with its 95% interval and the LOS, and, when every run asked for the same SPRT, its
LLR and decision. That is the test continued over the runs' units, in the order of the runs.

>>> def run(seed, pairs):
...     return {"game": "carcassonne", "options": {}, "specs": ["mcts", "greedy"], "pairs": True,
...             "seed": seed, "games": 2 * sum(pairs.values()), "sprt": None,
...             "wins": {"mcts": 2 * pairs["WW"] + pairs["DD/WL"], "greedy": pairs["DD/WL"]},
...             "agent_draws": {"mcts": 0, "greedy": 0}, "draws": 0,
...             "losses": {"mcts": pairs["DD/WL"], "greedy": 2 * pairs["WW"] + pairs["DD/WL"]},
...             "head_to_head": {"tested": "mcts", "baseline": "greedy", "model": "pentanomial",
...                              "wins": 2 * pairs["WW"] + pairs["DD/WL"], "draws": 0,
...                              "losses": pairs["DD/WL"], "pairs": pairs}}
>>> both = combine([run(0, {"LL": 0, "LD": 0, "DD/WL": 1, "WD": 0, "WW": 3}),
...                 run(1, {"LL": 0, "LD": 0, "DD/WL": 2, "WD": 0, "WW": 2})])
>>> both["games"], both["wins"]["mcts"], both["head_to_head"]["pairs"]["WW"]
(16, 13, 5)
>>> round(both["win_rate"]["mcts"]["rate"], 4), both["head_to_head"]["units"]
(0.8125, 8)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from regalia.core.data import read_text_file
from regalia.core.errors import RegaliaError
from regalia.core.game import JSON
from regalia.lab.arena import estimate_json
from regalia.lab.sprt import PAIR_OUTCOMES, PENTANOMIAL, TRINOMIAL, SprtSpec, estimate, llr
from regalia.lab.stats import wilson_interval

#: What every run combined must share.
SAME = ("game", "options", "specs", "pairs")


class CombineError(RegaliaError):
    """Runs that cannot be combined (another match-up, a seed twice, a file that is no run)."""


def load_runs(paths: Sequence[str | Path]) -> list[JSON]:
    """The JSON summaries (``regalia arena --json``) in ``paths``; a file that cannot be read or
    is not a run's summary is a :class:`CombineError` that names it."""
    docs = []
    for path in paths:
        text = read_text_file(path, "run summary", CombineError)
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CombineError(f"{path}: not a readable JSON file ({exc})") from None
        missing = [
            key
            for key in (*SAME, "seed", "games", "wins", "losses", "agent_draws", "draws", "head_to_head")
            if not isinstance(doc, dict) or key not in doc
        ]
        if missing:
            raise CombineError(
                f"{path}: not the summary of an arena run (regalia arena --json): no {', '.join(missing)}"
            )
        docs.append(doc)
    return docs


def combine(runs: Sequence[JSON]) -> JSON:
    """One summary of ``runs`` (see the module docstring); a :class:`CombineError` when they are
    fewer than two, differ in a key of :data:`SAME` or in their SPRT, share a seed, or hold
    counts that are missing or not numbers. Runs of one agent (against a game's automaton) have
    no head-to-head: their combined summary has win rates, and ``head_to_head`` and ``sprt`` None."""
    try:
        return _combine(runs)
    except (KeyError, TypeError, ValueError) as exc:
        raise CombineError(f"a run's summary is not one regalia arena --json wrote: {exc!r}") from None


def _check_one_match_up(runs: Sequence[JSON], names: Sequence[str]) -> None:
    """Refuse ``runs`` (called ``names`` in the messages) unless they share every key of
    :data:`SAME` and no two share a seed."""
    first = runs[0]
    for key in SAME:
        for name, run in zip(names[1:], runs[1:], strict=True):
            if run[key] != first[key]:
                raise CombineError(
                    f"{name} has another {key} ({run[key]!r}) than {names[0]} ({first[key]!r})"
                )
    seeds = [run["seed"] for run in runs]
    if len(set(seeds)) < len(seeds):
        raise CombineError(f"two runs have the same seed (seeds {seeds}): they played the same games")


def _check_continued(runs: Sequence[JSON], names: Sequence[str]) -> None:
    """Refuse a run of ``runs`` that went on with the SPRT of a run not among them
    (``regalia arena --continue``): its test stood on that run's games too."""
    seeds = {run["seed"] for run in runs}
    for name, run in zip(names, runs, strict=True):
        for earlier in (run.get("sprt") or {}).get("continues", []):
            if earlier["seed"] not in seeds:
                raise CombineError(
                    f"{name} went on from the run of seed {earlier['seed']} ({earlier['path']}), which is"
                    " not among the runs given: give it too"
                )


def _combine(runs: Sequence[JSON]) -> JSON:
    if len(runs) < 2:
        raise CombineError("give at least two runs to combine")
    first = runs[0]
    names = [f"run {k}" for k in range(1, len(runs) + 1)]
    _check_one_match_up(runs, names)
    _check_continued(runs, names)
    solo = [run["head_to_head"] is None for run in runs]
    if any(solo) and not all(solo):
        raise CombineError("some runs have a head-to-head and some have none: combine runs of one match-up")
    names = list(first["wins"])
    games = sum(int(run["games"]) for run in runs)
    wins = {name: sum(int(run["wins"][name]) for run in runs) for name in names}
    losses = {name: sum(int(run["losses"][name]) for run in runs) for name in names}
    draws = {name: sum(int(run["agent_draws"][name]) for run in runs) for name in names}
    head, sprt = (None, None) if all(solo) else _head_to_head(runs)
    out: JSON = {
        "game": first["game"],
        "options": first["options"],
        "specs": first["specs"],
        "pairs": first["pairs"],
        "runs": [{"seed": run["seed"], "games": run["games"]} for run in runs],
        "games": games,
        "wins": wins,
        "losses": losses,
        "agent_draws": draws,
        "draws": sum(int(run["draws"]) for run in runs),
        "win_rate": {name: _rate(wins[name], wins[name] + draws[name] + losses[name]) for name in names},
        "head_to_head": head,
        "sprt": sprt,
    }
    return out


def _head_to_head(runs: Sequence[JSON]) -> tuple[JSON, JSON | None]:
    """The head-to-head of two agents (or of deals in a solo game) and its SPRT, from the summed counts."""
    h2h = runs[0]["head_to_head"]
    pentanomial = h2h["model"] == "pentanomial"
    counts = _counts(runs, pentanomial)
    values = PENTANOMIAL if pentanomial else TRINOMIAL
    est = estimate(values, counts)
    head: JSON = {
        "tested": h2h["tested"],
        "baseline": h2h["baseline"],
        "model": h2h["model"],
        "wins": sum(int(run["head_to_head"]["wins"]) for run in runs),
        "draws": sum(int(run["head_to_head"]["draws"]) for run in runs),
        "losses": sum(int(run["head_to_head"]["losses"]) for run in runs),
        "units": est.units,
        **estimate_json(est),
    }
    if pentanomial:
        head["pairs"] = dict(zip(PAIR_OUTCOMES, counts, strict=True))
    return head, _sprt(runs, values, counts)


def _counts(runs: Sequence[JSON], pentanomial: bool) -> list[int]:
    """The head-to-head counts summed: pair outcomes (LL..WW), or losses, draws, wins."""
    if pentanomial:
        return [sum(int(run["head_to_head"]["pairs"][name]) for run in runs) for name in PAIR_OUTCOMES]
    return [sum(int(run["head_to_head"][key]) for run in runs) for key in ("losses", "draws", "wins")]


#: The keys of a run's ``sprt`` that say which test it asked for.
_SPEC_KEYS = ("elo0", "elo1", "alpha", "beta")


def _asked_spec(doc: JSON) -> SprtSpec:
    """The test a run's ``sprt`` summary asked for."""
    return SprtSpec(*(float(doc[k]) for k in _SPEC_KEYS))


def _sprt(runs: Sequence[JSON], values: Sequence[float], counts: list[int]) -> JSON | None:
    """The SPRT every run asked for, on the summed counts; None when no run asked for one (a
    :class:`CombineError` when they asked for different ones)."""
    asked = [run.get("sprt") for run in runs]
    if all(doc is None for doc in asked):
        return None
    specs = {None if doc is None else _asked_spec(doc) for doc in asked}
    if len(specs) > 1:
        raise CombineError("the runs asked for different SPRTs (or some for none): combine runs of one test")
    doc = asked[0]
    assert doc is not None
    spec = _asked_spec(doc)
    value = llr(values, counts, spec.elo0, spec.elo1)
    lower, upper = spec.bounds
    return {
        **{k: doc[k] for k in _SPEC_KEYS},
        "llr": value,
        "lower": lower,
        "upper": upper,
        "decision": spec.decide(value) or "inconclusive",
        "units": sum(counts),
    }


def continued_counts(paths: Sequence[str | Path], run: JSON, spec: SprtSpec) -> tuple[list[JSON], list[int]]:
    """What a new run (``run``: its game, options, specs, pairs and seed) that continues the SPRT
    of the earlier runs in ``paths`` (their ``regalia arena --json`` summaries) starts from: the
    runs' seeds and games, and their head-to-head counts summed (pair outcomes LL..WW, or losses,
    draws, wins). So the test goes on over all the runs' units, as :func:`combine` of them all
    works it out. A :class:`CombineError` names a file that is no run, a run of another match-up
    or test (``spec``), a seed played already, or runs that have decided already."""
    runs = load_runs(paths)
    names = ["this run", *(str(path) for path in paths)]
    try:
        _check_one_match_up([run, *runs], names)
        _check_continued(runs, names[1:])
        for name, doc in zip(names[1:], runs, strict=True):
            asked = doc["sprt"]
            if asked is None:
                raise CombineError(f"{name} asked for no SPRT: there is no test to continue")
            theirs = _asked_spec(asked)
            if theirs != spec:
                raise CombineError(
                    f"{name} asked for another SPRT ({theirs.text()}) than this run ({spec.text()})"
                )
            if asked["decision"] in ("H0", "H1"):
                raise CombineError(
                    f"{name} decided its test already ({asked['decision']}): there is nothing to continue"
                )
        pentanomial = runs[0]["head_to_head"]["model"] == "pentanomial"
        counts = _counts(runs, pentanomial)
        done = [
            {"path": str(path), "seed": doc["seed"], "games": int(doc["games"])}
            for path, doc in zip(paths, runs, strict=True)
        ]
    except (KeyError, TypeError, ValueError) as exc:
        raise CombineError(f"a run's summary is not one regalia arena --json wrote: {exc!r}") from None
    value = llr(PENTANOMIAL if pentanomial else TRINOMIAL, counts, spec.elo0, spec.elo1)
    if spec.decide(value):
        raise CombineError(
            f"the runs continued have decided already ({spec.decide(value)} at LLR {value:.2f}, bounds"
            f" {spec.bounds[0]:.2f}, {spec.bounds[1]:.2f}): there is nothing to continue"
        )
    return done, counts


def _rate(wins: int, games: int) -> JSON:
    low, high = wilson_interval(wins, games)
    return {"rate": wins / games if games else 0.0, "low": low, "high": high}


def summary_lines(doc: JSON) -> list[str]:
    """The combined summary in a few lines, for the terminal (win rates only for runs of one agent
    against a game's automaton, which have no head-to-head)."""
    h2h = doc["head_to_head"]
    runs = ", ".join(f"seed {run['seed']} ({run['games']} games)" for run in doc["runs"])
    lines = [f"{doc['game']}: {len(doc['runs'])} runs combined: {runs}; {doc['games']} games"]
    for name, rate in doc["win_rate"].items():
        lines.append(
            f"  {name}: {doc['wins'][name]}/{doc['agent_draws'][name]}/{doc['losses'][name]} (W/D/L), "
            f"win rate {rate['rate']:.1%} (Wilson 95%: {rate['low']:.1%} to {rate['high']:.1%})"
        )
    if h2h is None:
        return lines
    elo = ("+inf" if h2h["score"] > 0.5 else "-inf") if h2h["elo"] is None else f"{h2h['elo']:+.0f}"
    low = "-inf" if h2h["elo_low"] is None else f"{h2h['elo_low']:+.0f}"
    high = "+inf" if h2h["elo_high"] is None else f"{h2h['elo_high']:+.0f}"
    line = f"  {h2h['tested']} over {h2h['baseline']}: Elo {elo} ({low} to {high}), LOS {h2h['los']:.1%}"
    if "pairs" in h2h:
        line += "; pairs " + ", ".join(f"{k} {v}" for k, v in h2h["pairs"].items())
    lines.append(line)
    sprt = doc["sprt"]
    if sprt is not None:
        lines.append(
            f"  SPRT elo0={sprt['elo0']:g}, elo1={sprt['elo1']:g}: LLR {sprt['llr']:.2f} "
            f"(bounds {sprt['lower']:.2f}, {sprt['upper']:.2f}): {sprt['decision']}"
        )
    return lines


__all__ = ["SAME", "CombineError", "combine", "load_runs", "summary_lines"]
