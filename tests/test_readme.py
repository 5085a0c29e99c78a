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
