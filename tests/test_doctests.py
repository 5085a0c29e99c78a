"""The docstring examples of every module of regalia run as written, and every module has one."""

import doctest
import importlib
import pkgutil

import pytest

import regalia


def _modules() -> list[str]:
    names = ["regalia"]
    for info in pkgutil.walk_packages(regalia.__path__, "regalia."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    """Each module has at least one ``>>>`` example, and its examples give the output shown."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no docstring example"
    assert result.failed == 0
