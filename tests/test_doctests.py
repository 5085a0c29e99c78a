"""The docstring examples of every module of regalia run as written, and every module has one."""

import doctest
import importlib
import json
import os
import pkgutil
import subprocess
import sys

import pytest

import regalia
from regalia._native import is_extension


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
    if is_extension(module):
        attempted, failed = _source_examples(name)
    else:
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        attempted, failed = result.attempted, result.failed
    assert attempted > 0, f"{name} has no docstring example"
    assert failed == 0


#: Runs the examples of a module's source and prints (after doctest's report) attempted and failed.
_SOURCE_EXAMPLES = """
import doctest, importlib, json, sys
result = doctest.testmod(importlib.import_module(sys.argv[1]), optionflags=doctest.ELLIPSIS)
print(json.dumps([result.attempted, result.failed]))
"""


def _source_examples(name: str) -> tuple[int, int]:
    """The examples of module ``name`` run on its ``.py`` source (``REGALIA_PURE_PYTHON=1``, in a
    subprocess): the compiled build's classes keep no docstrings (mypyc writes their signature
    there), so a compiled module's examples are checked as written in its source; the compiled
    modules' behaviour is checked by the rest of the suite (and tests/test_compiled.py)."""
    env = {**os.environ, "REGALIA_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _SOURCE_EXAMPLES, name], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report, _, last = out.stdout.rstrip().rpartition("\n")
    attempted, failed = json.loads(last)
    assert failed == 0, report
    return attempted, failed
