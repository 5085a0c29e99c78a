"""examples/royal_court_pg.py runs: a few seconds of training, its evaluations, the summary and the plot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .configs import need

need("pettingzoo")
need("matplotlib")  # the example plots with it

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "royal_court_pg.py"


@pytest.mark.parametrize("model", ["conv", "mlp"])
def test_the_example_trains_and_plots(tmp_path: Path, model: str) -> None:
    out = tmp_path / "pg.png"
    args = ["--minutes", "0.03", "--model", model, "--batch", "2", "--eval-every", "1", "--eval-games", "4"]
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = run.stdout.strip().splitlines()
    assert lines[-1] == f"wrote {out}"
    summary = json.loads(lines[-2])
    assert summary["model"] == model and summary["games"] > 0
    assert 0 <= summary["last_win_rate"] <= 1
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
