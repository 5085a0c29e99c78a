"""The docstring examples of regalia.ai and regalia.lab run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import regalia.ai
import regalia.lab


def _modules() -> list[str]:
    names = [regalia.ai.__name__, regalia.lab.__name__]
    for pkg in (regalia.ai, regalia.lab):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
