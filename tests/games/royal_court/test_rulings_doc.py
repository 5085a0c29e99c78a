"""docs/rulings.md, the Royal Court part: every ruling quotes the rule, decides, and names tests that
exist; docs/royal-court.md links every ruling."""

from __future__ import annotations

import ast
import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RULINGS = ROOT / "docs" / "rulings.md"
GAME_DOC = ROOT / "docs" / "royal-court.md"
HEADING = "\n# Rulings: Intrigue in the Royal Court"
#: The points the rulings must decide (the issue's list).
REQUIRED = (
    "RC-first-player",
    "RC-consorts",
    "RC-ability-mandatory",
    "RC-move-mandatory",
    "RC-no-move",
    "RC-joker-optional",
    "RC-bishop",
    "RC-healer",
    "RC-returned-tiles",
    "RC-royals-move",
    "RC-move-over",
    "RC-empty-zone",
    "RC-all-played",
    "RC-surround-check",
    "RC-scoring",
    "RC-turn-cap",
)


def part() -> str:
    text = RULINGS.read_text(encoding="utf-8")
    assert HEADING in text
    rest = text.split(HEADING, 1)[1]
    return re.split(r"^# ", rest, flags=re.M)[0]  # up to the next game's part, if any


def entries() -> list[tuple[str, str]]:
    parts = re.split(r"^## ", part(), flags=re.M)[1:]
    return [(p.splitlines()[0], p) for p in parts]


def slugs() -> list[str]:
    return [title.split(":")[0] for title, _ in entries()]


def test_every_ruling_has_slug_quote_decision_and_pin() -> None:
    """docs/rulings.md: '## RC-slug: title', the rule quoted, a decision and 'Pinned by:'."""
    found = entries()
    assert len(found) >= len(REQUIRED)
    for title, body in found:
        assert re.match(r"RC-[a-z0-9-]+: \S", title), title
        assert "\n> " in body, f"{title}: no quoted rule"
        assert "Decision:" in body, f"{title}: no decision"
        assert "Pinned by: tests/" in body, f"{title}: no pinning test"
    assert len(slugs()) == len(set(slugs()))
    assert set(REQUIRED) <= set(slugs())


def test_every_pinning_test_exists() -> None:
    """docs/rulings.md: each test named under 'Pinned by' is a test function of that file."""
    refs = re.findall(r"(tests/[\w/]+\.py)::(\w+)", part())
    assert refs
    names: dict[str, set[str]] = {}
    for path in {p for p, _ in refs}:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for path, name in refs:
        assert name in names[path], f"{path}::{name}"


def test_slugs_cited_in_tests_are_rulings() -> None:
    """A slug a Royal Court test cites ('ruling RC-...') is a ruling of docs/rulings.md."""
    known = set(slugs())
    for path in Path(__file__).parent.glob("test_*.py"):
        for slug in re.findall(r"[Rr]uling (RC-[a-z0-9-]+[a-z0-9])", path.read_text(encoding="utf-8")):
            assert slug in known, f"{path.name}: {slug}"


def anchor(heading: str) -> str:
    """The link anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped,
    spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_game_doc_links_every_ruling() -> None:
    """docs/royal-court.md links every Royal Court ruling, and every link into rulings.md lands on
    a heading."""
    text = GAME_DOC.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", RULINGS.read_text(encoding="utf-8"), flags=re.M)
    anchors = {anchor(h) for h in headings}
    for title, _ in entries():
        assert f"rulings.md#{anchor(title)})" in text, title
    for link in re.findall(r"rulings\.md#([\w-]+)", text):
        assert link in anchors, link


def test_game_doc_examples_run() -> None:
    """Every ``>>>`` example of docs/royal-court.md gives the output shown."""
    result = doctest.testfile(str(GAME_DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
