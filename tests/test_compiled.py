"""The compiled build plays exactly as the pure one, and ``REGALIA_PURE_PYTHON=1`` switches to it.

Each check plays in two subprocesses, one with ``REGALIA_PURE_PYTHON=1`` (the ``.py`` modules) and
one without (the compiled modules when the compiled build is installed: ``REGALIA_COMPILE=1 pip
install ...``, setup.py), and compares what they print. Without the compiled build both are pure:
the records must still agree, and the switch must still report ``compiled`` false both ways. The
last check runs in this process: the engine's abstract classes answer ``isinstance`` each for itself.
"""

from __future__ import annotations

import abc
import copy
import importlib
import inspect
import json
import os
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

import regalia
from regalia._native import ENGINE_MODULES, is_extension
from regalia.core.game import State
from regalia.games.two_heirs.solo import SoloState

#: Plays, for every game and each of its conformance option sets, a seeded random game; for every
#: game (default options), a seeded greedy game and the first decisions of a seeded game between
#: iteration-budgeted MCTS agents. Prints whether the engine was compiled and the records.
PLAY = """
import json, random, sys
import regalia
from regalia._native import compiled
from regalia.ai.registry import agent_from_spec
from regalia.testing import option_sets

MCTS_DECISIONS = 24


def play(game_id, options, spec, seed, decisions=None):
    state = regalia.load_game(game_id, **options).new_state(seed=seed)
    agent = agent_from_spec(spec)
    rng = random.Random(seed)
    made = 0
    while decisions is None or made < decisions:
        state.advance()
        if state.is_terminal():
            break
        state.apply(agent.choose(state, rng))
        made += 1
    return {
        "record": state.record().to_json(),
        "scores": state.scores(),
        "returns": state.returns() if state.is_terminal() else None,
    }


records = {}
for game_id in regalia.game_ids():
    for options in option_sets(game_id):
        for seed in (1, 2):
            records[f"{game_id} {options} random {seed}"] = play(game_id, options, "random", seed)
    records[f"{game_id} greedy"] = play(game_id, {}, "greedy", 3)
    records[f"{game_id} mcts"] = play(game_id, {}, "mcts:iterations=30", 4, MCTS_DECISIONS)
    policy = "mcts:iterations=30:rollout=policy:depth=4"
    records[f"{game_id} mcts policy"] = play(game_id, {}, policy, 5, MCTS_DECISIONS)
json.dump({"compiled": compiled(), "records": records}, sys.stdout)
"""

#: Prints, per engine module, whether it was loaded from a C extension.
MODULES = """
import importlib, json, sys
import regalia
from regalia._native import ENGINE_MODULES, is_extension
from regalia.core.game import State
from regalia.games.two_heirs.solo import SoloState
json.dump({name: is_extension(importlib.import_module(name)) for name in ENGINE_MODULES}, sys.stdout)
"""


def _run(code: str, pure: bool) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "REGALIA_PURE_PYTHON"}
    if pure:
        env["REGALIA_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _compiled_installed() -> bool:
    """Whether the compiled build is installed (in this process, without the switch)."""
    return bool(_run(MODULES, pure=False)["regalia.core.game"])


@pytest.mark.slow
def test_compiled_and_pure_play_the_same_records() -> None:
    pure = _run(PLAY, pure=True)
    native = _run(PLAY, pure=False)
    assert pure["compiled"] is False
    assert native["compiled"] is _compiled_installed()
    assert pure["records"].keys() == native["records"].keys()
    for key, record in pure["records"].items():
        assert native["records"][key] == record, key


def test_pure_switch_loads_the_source_modules() -> None:
    modules = _run(MODULES, pure=True)
    assert set(modules) == set(ENGINE_MODULES)
    assert not any(modules.values()), [name for name, ext in modules.items() if ext]
    # without the switch: all compiled (the compiled build) or none (the pure package)
    native = _run(MODULES, pure=False)
    assert len(set(native.values())) == 1, native


def test_is_extension_tells_a_source_module_from_a_compiled_one() -> None:
    import regalia._native

    assert not is_extension(regalia._native)  # never compiled: setup.py reads it


def test_each_engine_class_answers_isinstance_for_itself() -> None:
    """Each abstract engine class keeps its own ``isinstance`` caches, compiled too (mypyc builds a
    compiled class without ``ABCMeta.__new__``: all would share ``abc.ABC``'s, and an answer cached
    for one would be given for all; ``regalia._mypyc.own_abc_caches``)."""
    for name in ENGINE_MODULES:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == name and isinstance(cls, abc.ABCMeta):
                assert "_abc_impl" in vars(cls), f"{name}.{cls.__name__}"
    state = regalia.load_game("two-heirs").new_state(seed=1)
    assert isinstance(state, State)  # cached true for the two-player state's class
    assert not isinstance(state, SoloState)
    assert not issubclass(type(state), SoloState)
    solo = regalia.load_game("two-heirs", solo=True).new_state(seed=1)
    assert isinstance(solo, State) and isinstance(solo, type(state))


def test_frozen_engine_dataclasses_pickle_and_copy() -> None:
    """The engine's frozen dataclasses reduce to their constructor (``regalia.core.data.frozen_reduce``):
    compiled, the default would set each field on a frozen object. A Two Heirs state holds its
    tally (``Tally``, ``Roads``) once scored, and records travel between processes."""
    for name in ENGINE_MODULES:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            params = getattr(cls, "__dataclass_params__", None)
            if inspect.isclass(cls) and cls.__module__ == name and params is not None and params.frozen:
                assert "__reduce__" in vars(cls), f"{name}.{cls.__name__}"
    state = regalia.load_game("two-heirs").new_state(seed=5)
    rng = random.Random(5)
    while state.ply < 40:
        state.advance()
        state.apply(rng.choice(state.legal_actions()))
    tally = state.tally()  # kept by the state from now on
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert copied.to_json() == state.to_json() and copied.scores() == state.scores()
        assert copied.tally() == tally
    record = state.record()
    assert pickle.loads(pickle.dumps(record)) == record == copy.deepcopy(record) == copy.copy(record)
