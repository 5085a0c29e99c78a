"""The version is written once (``regalia.__version__``): the installed metadata, ``regalia
--version``, the server's API and CHANGELOG.md all say the same."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from typer.testing import CliRunner

import regalia
from regalia.cli import app

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_reads_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "regalia.__version__"}


def test_the_installed_metadata_has_the_packages_version() -> None:
    assert importlib.metadata.version("regalia") == regalia.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", regalia.__version__)


def test_the_command_prints_it() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"regalia {regalia.__version__}\n"


def test_the_changelog_has_a_section_for_it() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert re.search(rf"^## \[{re.escape(regalia.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M)
