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


#: Modules that need a library of an optional extra which may not install on this machine
#: (open_spiel ships x86_64 wheels only): their examples are skipped, with the reason, without it.
OPTIONAL = {
    "regalia.rl.bench": "pettingzoo",
    "regalia.rl.openspiel": "pyspiel",
    "regalia.rl.pettingzoo": "pettingzoo",
}


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    """Each module has at least one ``>>>`` example, and its examples give the output shown."""
    if name in OPTIONAL:
        pytest.importorskip(
            OPTIONAL[name], reason=f"{name} needs {OPTIONAL[name]} (pip install 'regalia[rl]')"
        )
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no docstring example"
    assert result.failed == 0
