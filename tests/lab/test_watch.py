"""A run of jobs that its watch stops (``run_jobs(watch=...)``, what the arena's sequential test
uses): the run ends when the watch has seen enough, in this process and in worker processes, and
the arena's SPRT stops its workers at the decision instead of finishing a batch."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest

from ai.toygame import ToyGame
from regalia.lab import arena, backends, run_arena
from regalia.lab.backends import IN_FLIGHT, Interrupted, run_jobs
from regalia.lab.play import LabError


@dataclass(frozen=True)
class Done:
    index: int
    group: int = 0


def _done(jobs: list[int]) -> list[Done]:
    return [Done(j) for j in jobs]


def _slow(jobs: list[int]) -> list[Done]:
    """A job of a twentieth of a second (a module-level function: worker processes import it)."""
    time.sleep(0.05)
    return _done(jobs)


def test_a_watch_stops_the_run_in_this_process() -> None:
    seen: list[int] = []

    def watch(results: list[Done]) -> bool:
        seen.append(len(results))
        return len(results) >= 3

    results = run_jobs(list(range(10)), task=_done, watch=watch)  # type: ignore[arg-type]
    assert [r.index for r in results] == [0, 1, 2]
    assert seen == [1, 2, 3]  # after every task, and not after the one that said enough


def test_a_watch_stops_the_worker_processes() -> None:
    results = run_jobs(
        list(range(200)),  # type: ignore[arg-type]
        workers=2,
        task=_slow,
        size=1,
        watch=lambda results: len(results) >= 3,
    )
    # before the tasks that brought the third result, at most two had come back, and those
    # tasks are at most the ones in flight: two a worker
    assert 3 <= len(results) <= 2 + IN_FLIGHT * 2
    assert [r.index for r in results] == sorted(r.index for r in results)


def test_an_error_in_the_watch_stops_the_run_with_it() -> None:
    def watch(results: list[Done]) -> bool:
        raise LabError("pairs: the games of a seed did not come back together")

    with pytest.raises(LabError, match="pairs"):
        run_jobs(list(range(20)), workers=2, task=_slow, size=1, watch=watch)  # type: ignore[arg-type]


def test_the_sprt_stops_its_workers_at_the_decision() -> None:
    """With workers the sequential test runs after every pair (formerly after batches of 16, 32,
    64... games, all played whatever the test said): the run ends a few pairs past its decision,
    with the same decision and games as one process."""
    game = ToyGame(cards=15)
    kwargs = {"games": 400, "pairs": True, "sprt": "elo0=0,elo1=100", "progress": False}
    one = run_arena(game, ["greedy", "random"], **kwargs)  # type: ignore[arg-type]
    two = run_arena(game, ["greedy", "random"], workers=2, **kwargs)  # type: ignore[arg-type]
    assert one.sprt is not None and two.sprt is not None
    assert (two.sprt.decision, two.sprt.units, two.outcomes()) == ("H1", one.sprt.units, one.outcomes())
    assert two.games == one.games == 2 * one.sprt.units and not two.interrupted
    assert two.games <= two.played < 400


def test_a_note_is_shown_beside_the_progress_bar_after_every_task(capsys: pytest.CaptureFixture[str]) -> None:
    notes: list[int] = []

    def note() -> str:
        notes.append(len(notes))
        return f"LLR +0.{len(notes)}"

    run_jobs(list(range(3)), task=_done, progress=True, description="toy", note=note)  # type: ignore[arg-type]
    assert notes == [0, 1, 2]
    assert "toy LLR +0.3" in capsys.readouterr().err


def test_progress_to_a_log_file_is_a_plain_line_now_and_then(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard error that is not a terminal (a run under nohup) gets plain lines, not a live bar
    that shows nothing until the end: at most one every LOG_EVERY_SECONDS, and one when the last
    job is done, each with the note, the jobs done and the time taken."""
    monkeypatch.setattr(backends, "LOG_EVERY_SECONDS", 3600.0)
    run_jobs(list(range(4)), task=_done, progress=True, description="arena toy", note=lambda: "LLR +0.1")  # type: ignore[arg-type]
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == ["arena toy LLR +0.1: 4/4, 0:00:00 elapsed"]
    monkeypatch.setattr(backends, "LOG_EVERY_SECONDS", 0.0)
    run_jobs(list(range(3)), task=_done, progress=True, description="arena toy")  # type: ignore[arg-type]
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split(",")[0] for line in lines] == ["arena toy: 1/3", "arena toy: 2/3", "arena toy: 3/3"]


def test_an_interruption_after_the_decision_keeps_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C or SIGTERM that comes while the workers stop, after the decision, brings back
    every game finished, later pairs too: the test is run again on them from the start, so it
    stops where it had, not on a later pair."""
    game = ToyGame(cards=15)
    kwargs = {"games": 100, "pairs": True, "sprt": "elo0=0,elo1=100", "progress": False}
    one = run_arena(game, ["greedy", "random"], **kwargs)  # type: ignore[arg-type]
    play_all = arena.run_jobs

    def interrupted_late(jobs: list[Any], *args: Any, watch: Any, **kw: Any) -> list[Any]:
        results = play_all(jobs)
        for n in range(1, len(results) + 1):
            if watch(results[:n]):
                break
        raise Interrupted(results)  # every game, those past the decision too

    monkeypatch.setattr(arena, "run_jobs", interrupted_late)
    late = run_arena(game, ["greedy", "random"], **kwargs)  # type: ignore[arg-type]
    assert one.sprt is not None and late.sprt is not None and one.sprt.decision == "H1"
    assert (late.sprt.decision, late.sprt.units, late.outcomes()) == ("H1", one.sprt.units, one.outcomes())
    assert late.played == 100 and not late.interrupted


def test_a_run_without_a_test_shows_the_first_agents_tally_as_it_goes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long run with no SPRT (one agent against Henry, under nohup) shows what it has won so
    far: the progress line carries the first agent's W/D/L over the games finished, and the last
    line's counts are the run's."""
    monkeypatch.setattr(backends, "LOG_EVERY_SECONDS", 0.0)
    result = run_arena(ToyGame(cards=10), ["greedy", "random"], games=6, seed=4, progress=True)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 6
    wins, draws, losses = (
        result.summaries()[0].wins,
        result.summaries()[0].draws,
        result.summaries()[0].losses,
    )
    assert lines[-1].startswith(
        f"toy-market arena greedy W/D/L {wins}/{draws}/{losses}, {wins / 6:.0%} won: 6/6"
    ), lines[-1]
    firsts = [line.split(" W/D/L ")[1].split(",")[0] for line in lines]
    assert [sum(map(int, tally.split("/"))) for tally in firsts] == [1, 2, 3, 4, 5, 6]
