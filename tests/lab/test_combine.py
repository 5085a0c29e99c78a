"""``regalia combine`` (regalia.lab.combine): arena runs of one match-up on other seeds read as one
run. The combined figures are those of the summed counts; runs that are not of one match-up, or
not runs at all, are refused with a message that names what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import regalia
from ai.toygame import ToyGame
from regalia.lab import run_arena
from regalia.lab.arena import ArenaResult
from regalia.lab.cli import app
from regalia.lab.combine import CombineError, combine, load_runs
from regalia.lab.play import LabError
from regalia.lab.sprt import PENTANOMIAL, TRINOMIAL, estimate, llr
from regalia.lab.stats import wilson_interval

runner = CliRunner()
GAME = ToyGame(cards=10)


def _run(
    seed: int,
    pairs: bool = True,
    sprt: str | None = "elo0=0,elo1=100",
    agents: tuple[str, ...] = ("greedy", "random"),
) -> dict:
    result = run_arena(GAME, list(agents), games=8, seed=seed, pairs=pairs, sprt=sprt, progress=False)
    doc: dict = json.loads(json.dumps(result.to_json()))
    return doc


def test_combined_figures_are_those_of_the_summed_counts() -> None:
    runs = [_run(0), _run(1), _run(2)]
    both = combine(runs)
    assert both["games"] == sum(r["games"] for r in runs)
    assert [r["seed"] for r in both["runs"]] == [0, 1, 2]
    for name in ("greedy", "random"):
        assert both["wins"][name] == sum(r["wins"][name] for r in runs)
        assert both["losses"][name] == sum(r["losses"][name] for r in runs)
        games = both["wins"][name] + both["losses"][name] + both["agent_draws"][name]
        low, high = wilson_interval(both["wins"][name], games)
        assert both["win_rate"][name] == {"rate": both["wins"][name] / games, "low": low, "high": high}
    pairs = [sum(r["head_to_head"]["pairs"][k] for r in runs) for k in ("LL", "LD", "DD/WL", "WD", "WW")]
    h2h = both["head_to_head"]
    assert list(h2h["pairs"].values()) == pairs and h2h["units"] == sum(pairs) == both["games"] // 2
    est = estimate(PENTANOMIAL, pairs)
    assert (h2h["score"], h2h["stderr"], h2h["los"]) == (est.score, est.stderr, est.los)
    sprt = both["sprt"]
    assert sprt["llr"] == llr(PENTANOMIAL, pairs, 0, 100) and sprt["units"] == sum(pairs)
    assert sprt["decision"] in ("H1", "H0", "inconclusive")


def test_runs_of_games_combine_their_game_outcomes() -> None:
    """Without --pairs the head-to-head counts games (losses, draws, wins), the trinomial model."""
    runs = [_run(5, pairs=False, sprt=None), _run(6, pairs=False, sprt=None)]
    both = combine(runs)
    counts = [sum(r["head_to_head"][k] for r in runs) for k in ("losses", "draws", "wins")]
    assert both["head_to_head"]["model"] == "trinomial" and "pairs" not in both["head_to_head"]
    assert both["head_to_head"]["score"] == estimate(TRINOMIAL, counts).score
    assert both["sprt"] is None


def test_runs_of_one_agent_against_the_automaton_combine_their_win_rates(tmp_path: Path) -> None:
    """A solo run (one agent against Henry) has no head-to-head: the combined figure is the win
    rate of the summed wins, with its Wilson interval; the command prints it."""
    game = regalia.load_game("two-heirs", solo=True, level=1)
    runs = []
    for seed in (3, 4):
        result = run_arena(game, ["greedy"], games=3, seed=seed, progress=False)
        runs.append(json.loads(json.dumps(result.to_json())))
    assert all(run["head_to_head"] is None for run in runs)
    both = combine(runs)
    wins = sum(run["wins"]["greedy"] for run in runs)
    games = wins + sum(run["losses"]["greedy"] + run["agent_draws"]["greedy"] for run in runs)
    assert games == both["games"] == 6
    low, high = wilson_interval(wins, games)
    assert both["win_rate"]["greedy"] == {"rate": wins / games, "low": low, "high": high}
    assert both["head_to_head"] is None and both["sprt"] is None
    paths = []
    for seed, run in zip((3, 4), runs, strict=True):
        path = tmp_path / f"solo{seed}.json"
        path.write_text(json.dumps(run))
        paths.append(str(path))
    result = runner.invoke(app, ["combine", *paths])
    assert result.exit_code == 0, result.output
    assert f"greedy: {wins}/0/{games - wins} (W/D/L), win rate {wins / games:.1%}" in result.output
    assert "Elo" not in result.output and "Traceback" not in result.output
    mixed = dict(runs[1], head_to_head=_run(1)["head_to_head"])
    with pytest.raises(CombineError, match="some runs have a head-to-head and some have none"):
        combine([runs[0], mixed])


def test_runs_of_another_match_up_or_the_same_seed_are_refused() -> None:
    base = _run(0)
    with pytest.raises(CombineError, match="at least two"):
        combine([base])
    with pytest.raises(CombineError, match="same seed"):
        combine([base, _run(0)])
    with pytest.raises(CombineError, match="another specs"):
        combine([base, _run(1, agents=("random", "greedy"))])
    with pytest.raises(CombineError, match="another pairs"):
        combine([base, _run(1, pairs=False)])
    with pytest.raises(CombineError, match="different SPRTs"):
        combine([base, _run(1, sprt="elo0=0,elo1=50")])
    with pytest.raises(CombineError, match="different SPRTs"):
        combine([base, _run(1, sprt=None)])


def test_files_that_are_not_runs_are_named(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_run(0)))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "toy"}))
    with pytest.raises(CombineError, match=r"bad\.json: not a readable JSON file"):
        load_runs([good, bad])
    with pytest.raises(CombineError, match=r"other\.json: not the summary of an arena run.*no options"):
        load_runs([good, other])
    with pytest.raises(CombineError, match=r"cannot read run summary .*missing\.json: No such file"):
        load_runs([good, tmp_path / "missing.json"])
    garbled = _run(1)
    del garbled["head_to_head"]["pairs"]
    with pytest.raises(CombineError, match=r"not one regalia arena --json wrote.*pairs"):
        combine([_run(0), garbled])
    forged = _run(1)
    forged["wins"]["greedy"] = "many"
    with pytest.raises(CombineError, match="not one regalia arena --json wrote"):
        combine([_run(0), forged])


def test_the_command_prints_the_combined_run_or_one_error_line(tmp_path: Path) -> None:
    paths = []
    for seed in (0, 1):
        path = tmp_path / f"run{seed}.json"
        path.write_text(json.dumps(_run(seed)))
        paths.append(str(path))
    result = runner.invoke(app, ["combine", *paths])
    assert result.exit_code == 0, result.output
    assert "2 runs combined: seed 0 (8 games), seed 1 (8 games); 16 games" in result.output
    assert "SPRT elo0=0, elo1=100" in result.output
    as_json = runner.invoke(app, ["combine", *paths, "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.output)["games"] == 16
    refused = runner.invoke(app, ["combine", paths[0], paths[0]])
    assert refused.exit_code == 2
    assert "error: two runs have the same seed" in refused.output
    assert "Traceback" not in refused.output


def _save(tmp_path: Path, doc: dict, name: str) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_run_that_continues_another_goes_on_with_its_test(tmp_path: Path) -> None:
    """``--continue``: the SPRT starts from the earlier run's counts and stops when both runs
    together decide; its LLR is then what ``combine`` of both works out, while the run's other
    figures are its own games'."""
    first = _run(0)
    assert first["sprt"]["decision"] == "inconclusive"
    path = _save(tmp_path, first, "run0.json")
    more = run_arena(
        GAME,
        ["greedy", "random"],
        games=400,
        seed=1,
        pairs=True,
        sprt="elo0=0,elo1=100",
        progress=False,
        continues=[path],
    )
    doc = json.loads(json.dumps(more.to_json()))
    assert more.sprt is not None and more.sprt.decision == "H1"
    both = combine([first, doc])
    assert doc["sprt"]["llr"] == both["sprt"]["llr"] and both["sprt"]["decision"] == "H1"
    assert doc["sprt"]["units"] == both["head_to_head"]["units"] == first["games"] // 2 + more.games // 2
    assert doc["sprt"]["continues"] == [{"path": path, "seed": 0, "games": first["games"]}]
    assert sum(doc["head_to_head"]["pairs"].values()) == more.games // 2  # the run's own figures
    # the same seed alone, starting from nothing, needs more pairs to decide
    alone = run_arena(
        GAME, ["greedy", "random"], games=400, seed=1, pairs=True, sprt="elo0=0,elo1=100", progress=False
    )
    assert alone.sprt is not None and alone.games > more.games
    assert [r.returns for r in alone.results[: more.games]] == [r.returns for r in more.results]
    lines = "\n".join(more.summary_lines())
    assert (
        f"after {more.games} games and the {first['games']} games of the runs it continues (seeds 0)" in lines
    )


def test_runs_of_single_games_continue_their_trinomial_test(tmp_path: Path) -> None:
    """Without ``--pairs`` the test counts games (losses, draws, wins), and goes on from the
    earlier run's game counts."""
    spec = "elo0=0,elo1=100"
    first = _run(0, pairs=False, sprt=spec)
    assert first["sprt"]["decision"] == "inconclusive"
    path = _save(tmp_path, first, "games0.json")
    more = run_arena(
        GAME, ["greedy", "random"], games=400, seed=1, sprt=spec, progress=False, continues=[path]
    )
    doc = json.loads(json.dumps(more.to_json()))
    both = combine([first, doc])
    assert doc["sprt"]["llr"] == both["sprt"]["llr"] and doc["sprt"]["decision"] == both["sprt"]["decision"]
    assert doc["sprt"]["units"] == first["games"] + more.games and doc["sprt"]["unit"] == "game"


def test_what_cannot_be_continued_is_refused(tmp_path: Path) -> None:
    path = _save(tmp_path, _run(0), "run0.json")

    def go(
        seed: int = 1, sprt: str | None = "elo0=0,elo1=100", agents: str = "greedy,random", *paths: str
    ) -> None:
        run_arena(
            GAME, agents, games=4, seed=seed, pairs=True, sprt=sprt, progress=False, continues=paths or [path]
        )

    with pytest.raises(LabError, match="give the same --sprt"):
        go(1, None)
    with pytest.raises(CombineError, match=r"run0\.json asked for another SPRT \(elo0=0,elo1=100"):
        go(1, "elo0=0,elo1=50")
    with pytest.raises(CombineError, match="same seed"):
        go(0)
    with pytest.raises(CombineError, match=r"run0\.json has another specs"):
        go(1, "elo0=0,elo1=100", "random,greedy")
    easy = run_arena(
        GAME, ["greedy", "random"], games=40, seed=2, pairs=True, sprt="elo0=-400,elo1=-300", progress=False
    )
    decided = _save(tmp_path, json.loads(json.dumps(easy.to_json())), "decided.json")
    assert json.loads(Path(decided).read_text())["sprt"]["decision"] == "H1"
    with pytest.raises(CombineError, match=r"decided\.json decided its test already \(H1\)"):
        go(3, "elo0=-400,elo1=-300", "greedy,random", decided)
    together = [_save(tmp_path, _run(seed, sprt="elo0=0,elo1=40"), f"r{seed}.json") for seed in range(4, 12)]
    runs = [json.loads(Path(p).read_text()) for p in together]
    assert all(run["sprt"]["decision"] == "inconclusive" for run in runs)
    assert combine(runs)["sprt"]["decision"] == "H1"
    with pytest.raises(CombineError, match="the runs continued have decided already"):
        go(20, "elo0=0,elo1=40", "greedy,random", *together)
    with pytest.raises(CombineError, match=r"missing\.json: No such file"):
        go(1, "elo0=0,elo1=100", "greedy,random", str(tmp_path / "missing.json"))


def test_a_run_that_went_on_from_another_is_not_read_without_it(tmp_path: Path) -> None:
    """A run made with ``continues`` decided on the earlier run's games too: continuing it, or
    combining it, without that run is refused, naming the run left out."""
    spec = "elo0=0,elo1=40"

    def go_on(seed: int, *paths: str) -> ArenaResult:
        return run_arena(
            GAME,
            ["greedy", "random"],
            games=4,
            seed=seed,
            pairs=True,
            sprt=spec,
            progress=False,
            continues=paths,
        )

    path = _save(tmp_path, _run(0, sprt=spec), "run0.json")
    second = go_on(1, path)
    second_path = _save(tmp_path, json.loads(json.dumps(second.to_json())), "run1.json")
    assert second.sprt is not None and second.sprt.decision == ""
    with pytest.raises(
        CombineError, match=r"run1\.json went on from the run of seed 0 \(.*run0\.json\).*give it too"
    ):
        go_on(2, second_path)
    third = go_on(2, path, second_path)
    assert third.sprt is not None and third.sprt.units == 4 + 2 + 2  # the pairs of the three runs
    with pytest.raises(CombineError, match="run 1 went on from the run of seed 0"):
        combine([json.loads(Path(second_path).read_text()), _run(3, sprt=spec)])


def test_the_arena_command_continues_a_run_or_says_why_not(tmp_path: Path) -> None:
    args = [
        "arena",
        "two-heirs",
        "--agents",
        "greedy,random",
        "--pairs",
        "--sprt",
        "elo0=0,elo1=50",
        "--json",
    ]
    first = runner.invoke(app, [*args, "--games", "4", "--seed", "0", "--no-progress"])
    assert first.exit_code == 0, first.output
    path = _save(tmp_path, json.loads(first.output), "run0.json")
    more = runner.invoke(app, [*args, "--games", "400", "--seed", "1", "--no-progress", "--continue", path])
    assert more.exit_code == 0, more.output
    doc = json.loads(more.output)
    assert doc["sprt"]["decision"] == "H1" and doc["sprt"]["continues"][0]["seed"] == 0
    assert doc["sprt"]["llr"] == combine([json.loads(first.output), doc])["sprt"]["llr"]
    refused = runner.invoke(app, [*args, "--seed", "0", "--no-progress", "--continue", path])
    assert refused.exit_code == 2 and "error: two runs have the same seed" in refused.output
    assert "Traceback" not in refused.output
