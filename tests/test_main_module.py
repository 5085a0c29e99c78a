"""``python -m regalia`` runs the ``regalia`` command (issue 20, item 11)."""

from __future__ import annotations

import json
import subprocess
import sys

import regalia


def test_python_dash_m_regalia_prints_the_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "regalia", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"regalia {regalia.__version__}"


def test_python_dash_m_regalia_runs_a_subcommand_and_its_errors() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "regalia", "games", "royal-court", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["id"] == "royal-court"
    done = subprocess.run(
        [sys.executable, "-m", "regalia", "games", "chess"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "valid games" in done.stderr
