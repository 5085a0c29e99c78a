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
import math
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from regalia.lab.play import GameJob, LabError, play_chunk

R = TypeVar("R")

BACKENDS = ("local", "ray")


def check_backend(backend: str) -> None:
    """Raise :class:`LabError` listing the valid backends if ``backend`` is not one."""
    if backend not in BACKENDS:
        raise LabError(f"unknown backend {backend!r}; valid backends: {', '.join(BACKENDS)}")


def chunks(jobs: Sequence[GameJob], workers: int) -> list[list[GameJob]]:
    """Split jobs into tasks: small enough to balance the load, large enough to be cheap."""
    size = max(1, min(8, math.ceil(len(jobs) / (max(1, workers) * 8))))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


@contextlib.contextmanager
def progress_bar(enabled: bool, total: int, description: str) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on standard error; yields ``advance(n)``."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
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
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)


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
) -> list[Any]:
    """Run every job with ``task`` (by default: play it, :func:`regalia.lab.play.play_chunk`) in
    this process, in worker processes or as Ray tasks; the results come back sorted by
    (group, index)."""
    check_backend(backend)
    if workers < 1:
        raise LabError(f"workers must be at least 1, got {workers}")
    results: list[Any] = []
    with progress_bar(progress, len(jobs), description) as advance:
        if backend == "ray":
            results = _run_ray(jobs, workers, ray_address, advance, task)
        elif workers == 1 or len(jobs) <= 1:
            for part in chunks(jobs, 1):
                results.extend(task(part))
                advance(len(part))
        else:
            results = _run_processes(jobs, workers, advance, task)
    results.sort(key=lambda r: (getattr(r, "group", 0), r.index))
    return results


def _run_processes(
    jobs: Sequence[GameJob], workers: int, advance: Callable[[int], None], task: Task[Any]
) -> list[Any]:
    results: list[Any] = []
    # "spawn": fresh interpreters, safe whatever threads (the progress bar) the parent runs.
    context = multiprocessing.get_context("spawn")
    parts = chunks(jobs, workers)
    with ProcessPoolExecutor(max_workers=min(workers, len(parts)), mp_context=context) as pool:
        pending: set[Future[list[Any]]] = {pool.submit(task, p) for p in parts}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    part = future.result()
                    results.extend(part)
                    advance(len(part))
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return results


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


@contextlib.contextmanager
def backend_session(backend: str, ray_address: str | None) -> Iterator[None]:
    """Keep one Ray running over several :func:`run_jobs` calls (an arena that stops by SPRT
    plays in batches); a Ray already running, or the local backend, is left as it is."""
    if backend != "ray":
        yield
        return
    ray = _import_ray()
    if ray.is_initialized():
        yield
        return
    try:
        if ray_address is None:
            ray.init(include_dashboard=False)
        else:
            ray.init(address=ray_address)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise LabError(f"cannot start or reach Ray at {ray_address or 'a local Ray'}: {exc}") from None
    try:
        yield
    finally:
        ray.shutdown()


def _run_ray(
    jobs: Sequence[GameJob],
    workers: int,
    ray_address: str | None,
    advance: Callable[[int], None],
    task: Task[Any],
) -> list[Any]:
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
        pending = [remote.remote(task, p) for p in chunks(jobs, max(workers, cpus))]
        results: list[Any] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                results.extend(part)
                advance(len(part))
        return results
    finally:
        if started:
            ray.shutdown()
