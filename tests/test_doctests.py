"""The docstring examples of every module run as written (engine, agents, lab, tools)."""

import doctest
import importlib
import pkgutil

import pytest

import regalia
import regalia.ai
import regalia.core
import regalia.games
import regalia.lab


def _modules() -> list[str]:
    names = ["regalia", "regalia.bench", regalia.ai.__name__, regalia.lab.__name__]
    for pkg in (regalia.core, regalia.games, regalia.ai, regalia.lab):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    """Each module's ``>>>`` examples give the output shown."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
