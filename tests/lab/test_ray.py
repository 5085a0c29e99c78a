"""The Ray backend on a local Ray gives the same results as local processes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from regalia.core.registry import game_ids
from regalia.lab import run_arena

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_backend_matches_local(local_ray: Any) -> None:
    game = game_ids()[0]
    specs = ["greedy", "mcts:iterations=3"]
    on_ray = run_arena(game, specs, games=4, seed=5, backend="ray", progress=False)
    local = run_arena(game, specs, games=4, seed=5, workers=1, progress=False)
    assert on_ray.outcomes() == local.outcomes()
    assert on_ray.to_json()["wins"] == local.to_json()["wins"]
    assert on_ray.backend == "ray"
    assert local_ray.is_initialized()  # a Ray started by the caller is left running
