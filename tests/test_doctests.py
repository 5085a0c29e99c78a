"""The docstring examples of the engine modules run as written."""

import doctest
import importlib
import pkgutil

import pytest

import regalia.core
import regalia.games


def _modules() -> list[str]:
    names = []
    for pkg in (regalia.core, regalia.games):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    """Each module's ``>>>`` examples give the output shown."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
