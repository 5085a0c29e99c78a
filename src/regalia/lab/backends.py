"""Running game jobs: in this process, in local worker processes, or as Ray tasks.

Each job carries its own seeds, so the results are the same whatever the backend, the number of
workers and the order in which jobs finish.

>>> check_backend("dask")
Traceback (most recent call last):
...
regalia.lab.play.LabError: unknown backend 'dask'; valid backends: local, ray
"""

from __future__ import annotations

import contextlib
import datetime
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import Any, TypeVar

from regalia.lab.play import GameJob, LabError, play_chunk

R = TypeVar("R")

BACKENDS = ("local", "ray")

#: Tasks kept in flight for each worker (process or Ray CPU): the next is submitted as one ends.
IN_FLIGHT = 2


def check_backend(backend: str) -> None:
    """Raise :class:`LabError` listing the valid backends if ``backend`` is not one."""
    if backend not in BACKENDS:
        raise LabError(f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}")


def chunks(jobs: Sequence[GameJob], workers: int, size: int | None = None) -> list[list[GameJob]]:
    """Split jobs into tasks: small enough to balance the load, large enough to be cheap; or of
    ``size`` jobs each, where it is given.

    >>> [len(part) for part in chunks(list(range(100)), 2)], len(chunks(list(range(6)), 2, size=2))
    ([7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 2], 3)
    """
    if size is None:
        size = max(1, min(8, math.ceil(len(jobs) / (max(1, workers) * 8))))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


@contextlib.contextmanager
def progress_bar(enabled: bool, total: int, description: str) -> Iterator[Callable[[int, str], None]]:
    """A rich progress bar on standard error; yields ``advance(n, note)``, ``note`` shown after
    the description (an SPRT's LLR). When standard error is not a terminal (a run under ``nohup``,
    its output in a log file) a live bar shows nothing until the end, so a plain line is written
    instead, at most every :data:`LOG_EVERY_SECONDS` and when the last job is done:
    ``two-heirs arena LLR +0.52 (-2.94, 2.94) after 6 pairs: 12/200, 0:10:23 elapsed``."""
    if not enabled:
        yield lambda n, note: None
        return
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        yield _log_lines(total, description)
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n, note: bar.update(task, advance=n, description=f"{description} {note}".strip())


#: How often, at most, a run whose standard error is not a terminal writes a line of progress.
LOG_EVERY_SECONDS = 60.0


def _log_lines(total: int, description: str) -> Callable[[int, str], None]:
    """``advance(n, note)`` writing a line to standard error at most every
    :data:`LOG_EVERY_SECONDS`, and when the ``total``-th job is done."""
    start = time.monotonic()
    done = 0
    last = start

    def advance(n: int, note: str) -> None:
        nonlocal done, last
        done += n
        now = time.monotonic()
        if done >= total or now - last >= LOG_EVERY_SECONDS:
            last = now
            elapsed = datetime.timedelta(seconds=round(now - start))
            head = f"{description} {note}".strip()
            print(f"{head}: {done}/{total}, {elapsed} elapsed", file=sys.stderr, flush=True)

    return advance


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, which the lab's commands turn into it) while jobs ran: ``results`` holds
    the results of the jobs that had finished, sorted as :func:`run_jobs` sorts them. A
    ``KeyboardInterrupt``, so a caller that does not keep partial results stops as before."""

    def __init__(self, results: list[Any]) -> None:
        super().__init__(f"interrupted after {len(results)} finished jobs")
        self.results = results


class _Enough(Exception):
    """Raised by :func:`run_jobs` when its ``watch`` has seen enough: the run stops there."""


class _Stop:
    """Where a SIGTERM finds a lab command (:func:`stop_signal`): ``armed`` while :func:`run_jobs`
    runs jobs, ``pending`` when one came outside and is kept for the next run of jobs."""

    armed = False
    pending = False


def stop_signal(signum: int, frame: Any) -> None:
    """The SIGTERM handler of the lab's commands (``timeout``, a batch system): while jobs run it
    stops them as Ctrl-C does (:class:`Interrupted`, with the jobs finished); before or between runs
    of jobs (a run's setup) it is kept, and the next run of jobs stops at its start, finishing
    none, so the command still reports what it has.

    >>> _Stop.armed, _Stop.pending = False, False
    >>> stop_signal(15, None)  # outside run_jobs: kept
    >>> try:
    ...     run_jobs([])
    ... except Interrupted as stop:
    ...     print(stop.results, _Stop.pending)
    [] False
    """
    if _Stop.armed:
        raise KeyboardInterrupt
    _Stop.pending = True


#: A task of a worker: play some jobs, return one result per job (each with ``index`` and, where
#: jobs come in groups, ``group``). Module-level functions (or ``functools.partial`` of one) only,
#: since worker processes and Ray import them by name.
Task = Callable[[Sequence[GameJob]], list[R]]


def run_jobs(
    jobs: Sequence[GameJob],
    workers: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = False,
    description: str = "games",
    task: Task[Any] = play_chunk,
    watch: Callable[[list[Any]], bool] | None = None,
    size: int | None = None,
    note: Callable[[], str] | None = None,
) -> list[Any]:
    """Run every job with ``task`` (by default: play it, :func:`regalia.lab.play.play_chunk`) in
    this process, in worker processes or as Ray tasks; the results come back sorted by
    (group, index). Worker processes and Ray get tasks of ``size`` jobs each where it is given
    (:func:`chunks`); this process plays one job at a time.

    ``watch``, where given, sees the results so far (in the order they came) each time a task
    returns; when it returns true the run stops there, as a sequential test does when it
    decides: the tasks not begun are dropped, those running are stopped, and the results so far
    are returned. ``note``, where given, is shown beside the progress bar after each task.

    >>> def task(part):
    ...     return [type("Result", (), {"index": job})() for job in part]
    >>> [r.index for r in run_jobs([0, 1, 2, 3, 4], task=task, watch=lambda done: len(done) == 2)]
    [0, 1]
    """
    check_backend(backend)
    if workers < 1:
        raise LabError(f"workers must be at least 1, got {workers}")
    results: list[Any] = []
    try:
        _Stop.armed = True
        if _Stop.pending:  # a SIGTERM came before these jobs (stop_signal)
            _Stop.pending = False
            raise KeyboardInterrupt
        with progress_bar(progress, len(jobs), description) as advance:
            enough = False

            def report(part: list[Any]) -> bool:
                """Take a task's results; whether the watch has seen enough (it is not asked
                again once it has said so: later results are only kept)."""
                nonlocal enough
                results.extend(part)
                enough = enough or (watch is not None and watch(results))
                advance(len(part), "" if note is None else note())
                return enough

            with contextlib.suppress(_Enough):
                if backend == "ray":
                    _run_ray(jobs, workers, ray_address, report, task, size)
                elif workers == 1 or len(jobs) <= 1:
                    for job in jobs:  # one at a time: an interruption keeps every finished game
                        if report(task([job])):
                            break
                else:
                    _run_processes(jobs, workers, report, task, size)
    except KeyboardInterrupt:
        results.sort(key=result_order)
        raise Interrupted(results) from None
    finally:
        _Stop.armed = False
    results.sort(key=result_order)
    return results


def result_order(result: Any) -> tuple[int, int]:
    """Where a job, or its result, comes in a run: its ``(group, index)``."""
    return (getattr(result, "group", 0), result.index)


def finished_prefix(jobs: Sequence[GameJob], results: Sequence[Any], unit: int = 1) -> list[Any]:
    """The results of the longest run of ``jobs`` from the first whose every job finished, cut to
    whole units of ``unit`` jobs (the games of one seed with ``--pairs``): what an interrupted run
    keeps, the same whichever jobs the workers happened to finish first.

    >>> from types import SimpleNamespace as R
    >>> jobs = [R(index=i) for i in range(6)]
    >>> [r.index for r in finished_prefix(jobs, [R(index=i) for i in (0, 1, 2, 4)])]
    [0, 1, 2]
    >>> [r.index for r in finished_prefix(jobs, [R(index=i) for i in (0, 1, 2, 4)], unit=2)]
    [0, 1]
    """
    by_key = {result_order(r): r for r in results}
    kept: list[Any] = []
    for job in jobs:
        result = by_key.get(result_order(job))
        if result is None:
            break
        kept.append(result)
    return kept[: len(kept) // unit * unit]


def _run_processes(
    jobs: Sequence[GameJob],
    workers: int,
    report: Callable[[list[Any]], bool],
    task: Task[Any],
    size: int | None,
) -> None:
    # "spawn": fresh interpreters, safe whatever threads (the progress bar) the parent runs.
    context = multiprocessing.get_context("spawn")
    parts = chunks(jobs, workers, size)
    todo = iter(parts)
    with ProcessPoolExecutor(max_workers=min(workers, len(parts)), mp_context=context) as pool:
        # a few tasks in flight a worker, the next submitted as one ends: waiting costs the same
        # whatever the run's length, and a run that stops leaves few tasks to drop
        pending: set[Future[list[Any]]] = {pool.submit(task, p) for p in islice(todo, IN_FLIGHT * workers)}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                stop = False
                for future in done:
                    stop = report(future.result()) or stop
                if stop:
                    raise _Enough
                pending.update(pool.submit(task, p) for p in islice(todo, len(done)))
        except BaseException:  # Ctrl-C, SIGTERM, a failed job, or a watch that has seen enough
            # a worker still playing would hold the pool's shutdown until its games end; the
            # pool then fails the futures left (cancelling them first would make its manager
            # thread raise InvalidStateError as it fails them: CPython 3.11)
            for child in multiprocessing.active_children():
                child.terminate()
            raise


def run_task(task: Task[R], part: Sequence[GameJob]) -> list[R]:
    """``task(part)``: a plain function Ray can run, whatever the task (a partial included)."""
    return task(part)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise LabError(
            "the ray backend needs Ray, which is not installed: pip install 'regalia[lab]'"
        ) from None
    return ray


def _run_ray(
    jobs: Sequence[GameJob],
    workers: int,
    ray_address: str | None,
    report: Callable[[list[Any]], bool],
    task: Task[Any],
    size: int | None,
) -> None:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if ray_address is None:
                ray.init(include_dashboard=False)
            else:
                ray.init(address=ray_address)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = ray_address or "a local Ray"
            raise LabError(f"cannot start or reach Ray at {where}: {exc}") from None
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or workers
        remote = ray.remote(num_cpus=1)(run_task)
        slots = max(workers, cpus)
        todo = iter(chunks(jobs, slots, size))
        pending = [remote.remote(task, p) for p in islice(todo, IN_FLIGHT * slots)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                stop = False
                for ref in done:
                    stop = report(ray.get(ref)) or stop
                if stop:
                    raise _Enough
                pending.extend(remote.remote(task, p) for p in islice(todo, len(done)))
        except BaseException:  # Ctrl-C, SIGTERM, a failed task, or a watch that has seen enough
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        if started:
            ray.shutdown()
