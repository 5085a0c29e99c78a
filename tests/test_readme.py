"""The examples of the README and of the docs pages that carry them run as written."""

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The pages whose ``>>>`` examples are checked.
PAGES = ["README.md", "docs/match.md"]


@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(page: str) -> None:
    """Every ``>>>`` example of the page gives the output shown."""
    result = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def _quick_start() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def test_quick_start_keeps_its_two_commands() -> None:
    """The Quick start is two commands: one starts the server, one runs the tests (issue 20, item 15)."""
    block = _quick_start().split("```sh\n", 1)[1].split("```", 1)[0]
    assert block.splitlines() == [
        'pip install -e ".[server]" && regalia serve',
        'pip install -e ".[dev,lab]" && python -m pytest',
    ]


def test_quick_start_names_the_packages_a_complete_run_needs() -> None:
    """The browser and PostgreSQL tests skip on a fresh machine: the Quick start names the two Debian
    packages that run them and the one command that installs them and runs everything (item 15)."""
    words = " ".join(_quick_start().split())
    assert "`chromium`" in words and "`postgresql`" in words
    assert "`bash .ci/run`" in words and "runs everything" in words
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "apt_install chromium" in ci and "apt_install postgresql" in ci
    assert 'pip install --quiet -e ".[dev,lab]"' in ci and "pytest" in ci
