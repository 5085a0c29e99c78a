"""An arena stopped by Ctrl-C or SIGTERM reports the games it finished (docs/lab.md, "Stopping a
run"): the longest run of games from the first, whole pairs with ``--pairs``, flagged
``interrupted``; the command exits with 130."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regalia.ai.registry import AGENTS
from regalia.ai.simple import RandomAgent
from regalia.lab import backends, run_arena
from regalia.lab.backends import Interrupted, finished_prefix, run_jobs, stop_signal
from regalia.lab.sprt import PENTANOMIAL, llr


class _Stop:
    """The decisions every ``_Interrupting`` agent made, and the one that raises Ctrl-C."""

    calls = 0
    limit = 0


class _Interrupting:
    """Plays as ``random`` does (the same choices from the same rng) until the run's ``limit``-th
    decision, where it raises KeyboardInterrupt as Ctrl-C would."""

    def __init__(self, name: str = "interrupting") -> None:
        self.name = name
        self.inner = RandomAgent()

    def choose(self, state: Any, rng: random.Random) -> Any:
        _Stop.calls += 1
        if _Stop.calls == _Stop.limit:
            raise KeyboardInterrupt
        return self.inner.choose(state, rng)


@pytest.fixture
def interrupting() -> Iterator[type[_Stop]]:
    AGENTS["interrupting"] = _Interrupting
    _Stop.calls = 0
    try:
        yield _Stop
    finally:
        del AGENTS["interrupting"]


def _task(jobs: list[int]) -> list[Any]:
    if jobs[0] == 3:
        raise KeyboardInterrupt
    return [type("R", (), {"index": j, "group": 0})() for j in jobs]


def test_run_jobs_keeps_the_jobs_finished_before_ctrl_c() -> None:
    with pytest.raises(Interrupted) as stopped:
        run_jobs([0, 1, 2, 3, 4], task=_task)  # type: ignore[list-item]
    assert [r.index for r in stopped.value.results] == [0, 1, 2]
    assert isinstance(stopped.value, KeyboardInterrupt)  # callers that keep nothing stop as before


def test_the_games_kept_are_the_first_ones_in_whole_units() -> None:
    class R:
        def __init__(self, index: int) -> None:
            self.index = index

    jobs = [R(i) for i in range(8)]
    done = [R(i) for i in (0, 1, 2, 3, 4, 6, 7)]
    assert [r.index for r in finished_prefix(jobs, done)] == [0, 1, 2, 3, 4]
    assert [r.index for r in finished_prefix(jobs, done, unit=2)] == [0, 1, 2, 3]
    assert finished_prefix(jobs, [R(1)]) == []


def test_an_interrupted_arena_reports_the_games_it_finished(interrupting: type[_Stop]) -> None:
    """The games kept are exactly the first games of the same run left to finish."""
    interrupting.limit = 200  # some 60 decisions a game for one seat of random Two Heirs
    stopped = run_arena("two-heirs", "interrupting,random", games=40, seed=3, progress=False)
    assert stopped.interrupted and 0 < stopped.games < 40 and stopped.planned == 40
    doc = stopped.to_json()
    assert doc["interrupted"] is True and doc["games"] == stopped.games
    assert stopped.summary_lines()[0] == f"interrupted: the {stopped.games} games finished of 40 planned"
    interrupting.limit = 0  # never
    whole = run_arena("two-heirs", "interrupting,random", games=stopped.games, seed=3, progress=False)
    assert not whole.interrupted
    assert [r.returns for r in whole.results] == [r.returns for r in stopped.results]


def test_an_interrupted_sprt_keeps_whole_pairs_and_says_it_was_stopped(interrupting: type[_Stop]) -> None:
    interrupting.limit = 330
    result = run_arena(
        "two-heirs", "interrupting,random", games=40, pairs=True, sprt="elo0=0,elo1=50", progress=False
    )
    assert result.interrupted and result.games % 2 == 0 and result.games < 40
    assert result.sprt is not None and result.sprt.decision == ""
    assert result.verdict() == f"inconclusive: interrupted after {result.games} games"


def test_an_interrupted_run_that_continues_another_keeps_the_earlier_counts(
    interrupting: type[_Stop], tmp_path: Path
) -> None:
    """With ``continues``, the test read again after an interruption starts from the earlier
    run's counts, as it did while playing: its LLR is that of both runs' pairs."""
    interrupting.limit = 0  # never
    spec = "elo0=0,elo1=50"
    first = run_arena(
        "two-heirs", "interrupting,random", games=4, seed=5, pairs=True, sprt=spec, progress=False
    )
    assert first.sprt is not None and first.sprt.decision == ""
    path = tmp_path / "first.json"
    path.write_text(json.dumps(first.to_json()))
    interrupting.calls, interrupting.limit = 0, 330
    result = run_arena(
        "two-heirs",
        "interrupting,random",
        games=40,
        seed=6,
        pairs=True,
        sprt=spec,
        progress=False,
        continues=[path],
    )
    assert result.interrupted and result.sprt is not None and result.sprt.decision == ""
    counts = [a + b for a, b in zip(first.counts(), result.counts(), strict=True)]
    assert result.sprt.units == sum(counts) == 2 + result.games // 2
    assert result.sprt.llr == llr(PENTANOMIAL, counts, 0, 50)


def test_an_arena_interrupted_before_any_game_finished(interrupting: type[_Stop]) -> None:
    interrupting.limit = 1
    result = run_arena("two-heirs", "interrupting,random", games=4, progress=False)
    assert result.interrupted and result.games == 0
    assert result.to_json()["interrupted"] is True


@pytest.mark.parametrize("sprt", [None, "elo0=0,elo1=50"])
def test_a_sigterm_before_the_games_start_stops_the_run_at_its_start(sprt: str | None) -> None:
    """A SIGTERM during a run's setup (agents built, the game loaded) comes outside the jobs: it
    is kept and stops the jobs at their start, so the arena still reports, with no game (before:
    typer turned the KeyboardInterrupt into exit 130 and the summary was lost). With an SPRT the
    run is inconclusive, interrupted."""
    try:
        stop_signal(signal.SIGTERM, None)
        result = run_arena("two-heirs", "random,random", games=4, pairs=True, sprt=sprt, progress=False)
    finally:
        backends._Stop.pending = False
    assert result.interrupted and result.games == 0
    if sprt is not None:
        assert result.sprt is not None and result.sprt.decision == ""
    again = run_arena("two-heirs", "random,random", games=2, progress=False)  # the stop was used
    assert not again.interrupted and again.games == 2


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")
def test_sigterm_stops_the_arena_command_with_its_summary() -> None:
    """`timeout` and batch systems stop a run with SIGTERM: the command prints the JSON of the
    games finished, flagged interrupted, and exits with 130."""
    command = [sys.executable, "-m", "regalia", "arena", "two-heirs", "--agents", "mcts:iterations=50,random"]
    command += ["--games", "2000", "--workers", "1", "--json", "--no-progress"]
    pipe = subprocess.PIPE
    proc = subprocess.Popen(command, stdout=pipe, stderr=pipe, text=True, env=os.environ)
    time.sleep(6)  # let it start and play a few games (any number, none included, is a valid run)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    doc = json.loads(out)
    assert doc["interrupted"] is True and doc["games"] < 2000
    assert "Traceback" not in err
