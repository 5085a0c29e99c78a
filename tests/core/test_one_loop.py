"""One game loop: no module outside the loop's own draws chance or steps an automaton.

Chance's draw (``State.sample_chance``) and an automaton's step (``State.forced_action``) are taken
by :mod:`regalia.core.loop` (``forced_step``, ``playout``) and the match layer (:mod:`regalia.match`)
alone; everything else (the lab, the research adapters, the benchmarks, the searches, the
conformance kit, the front ends) goes through them. A game's own override of one of those methods
may call the base class's (``super().sample_chance(rng)``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
#: The methods only the one loop calls.
LOOP_METHODS = frozenset({"sample_chance", "forced_action"})
#: Where they may be called (paths relative to ``src``; a directory allows everything below it).
ALLOWED = ("regalia/core/loop.py", "regalia/core/game.py", "regalia/match/")


def loop_calls(source: str, filename: str = "<snippet>") -> list[tuple[int, str]]:
    """``(line, method)`` of every call ``<anything>.sample_chance(...)`` or
    ``<anything>.forced_action(...)`` in ``source``, except inside a function of that same name
    (a game's override calling ``super()``'s)."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, inside: frozenset[str]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside = inside | {node.name}
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOOP_METHODS
            and node.func.attr not in inside
        ):
            found.append((node.lineno, node.func.attr))
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(ast.parse(source, filename=filename), frozenset())
    return found


def violations(root: Path = SRC) -> list[str]:
    """``path:line: calls .method(`` for every loop call outside :data:`ALLOWED` under ``root``."""
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if any(rel == allowed or (allowed.endswith("/") and rel.startswith(allowed)) for allowed in ALLOWED):
            continue
        for line, method in loop_calls(path.read_text(encoding="utf-8"), str(path)):
            out.append(
                f"{rel}:{line}: calls .{method}( outside the one loop (use regalia.core.loop or Match)"
            )
    return out


def test_no_module_outside_the_loop_draws_chance_or_steps_an_automaton() -> None:
    found = violations()
    assert not found, "\n".join(found)


def test_the_tree_is_walked() -> None:
    assert (SRC / "regalia" / "core" / "loop.py").is_file()
    assert loop_calls((SRC / "regalia" / "core" / "loop.py").read_text(encoding="utf-8"))


PLANTED = """
import random

def run(state, rng):
    while not state.is_terminal():
        if state.current_player == -1:
            state.apply(state.sample_chance(rng))
        elif state.current_player in state.automaton_seats():
            state.apply(state.forced_action())
        else:
            state.apply(rng.choice(state.legal_actions()))
"""

OVERRIDE = """
class MyState(State):
    def sample_chance(self, rng=None):
        return super().sample_chance(rng)

    def forced_action(self):
        return super().forced_action()
"""


def test_a_planted_loop_is_caught_with_its_lines() -> None:
    assert loop_calls(PLANTED) == [(7, "sample_chance"), (9, "forced_action")]


def test_a_games_override_calling_super_is_allowed() -> None:
    assert loop_calls(OVERRIDE) == []
    # ...but not a call of the other method from inside one of them
    assert loop_calls(OVERRIDE.replace("super().forced_action()", "self.sample_chance()")) == [
        (7, "sample_chance")
    ]


@pytest.mark.parametrize(
    "where", ["regalia/lab/planted.py", "regalia/core/planted.py", "regalia/matchmaker.py"]
)
def test_a_planted_module_in_the_tree_fails(tmp_path: Path, where: str) -> None:
    planted = tmp_path / where
    planted.parent.mkdir(parents=True)
    planted.write_text(PLANTED, encoding="utf-8")
    (tmp_path / "regalia" / "match").mkdir(parents=True, exist_ok=True)
    (tmp_path / "regalia" / "match" / "match.py").write_text(PLANTED, encoding="utf-8")
    assert violations(tmp_path) == [
        f"{where}:7: calls .sample_chance( outside the one loop (use regalia.core.loop or Match)",
        f"{where}:9: calls .forced_action( outside the one loop (use regalia.core.loop or Match)",
    ]
