"""docs/rulings.md: every ruling quotes the rule, decides, and names tests that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RULINGS = ROOT / "docs" / "rulings.md"


def entries() -> list[tuple[str, str]]:
    # the Two Heirs part: up to the next game's part (tests/games/carcassonne/test_rulings_doc.py)
    text = RULINGS.read_text(encoding="utf-8").split("\n# Rulings: Carcassonne")[0]
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return [(p.splitlines()[0], p) for p in parts]


def test_every_ruling_has_slug_quote_decision_and_pin() -> None:
    """docs/rulings.md: '## R-slug: title', the rule quoted, a decision and 'Pinned by:'."""
    found = entries()
    assert len(found) >= 20
    slugs = []
    for title, body in found:
        m = re.match(r"R-[a-z0-9-]+: \S", title)
        assert m, title
        slugs.append(title.split(":")[0])
        assert "\n> " in body, f"{title}: no quoted rule"
        assert "Decision:" in body, f"{title}: no decision"
        assert "Pinned by: tests/" in body, f"{title}: no pinning test"
    assert len(slugs) == len(set(slugs))


def test_every_pinning_test_exists() -> None:
    """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
    text = RULINGS.read_text(encoding="utf-8")
    refs = re.findall(r"(tests/[\w/]+\.py)::(\w+)", text)
    assert refs
    names: dict[str, set[str]] = {}
    for path in {p for p, _ in refs}:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for path, name in refs:
        assert name in names[path], f"{path}::{name}"
